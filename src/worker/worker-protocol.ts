/**
 * The message protocol between a page and the engine in a Web Worker. Everything that crosses is
 * plain data (structured-clone safe): requests carry an id, the worker answers each id exactly
 * once with `result` or `error`, may send `progress` for it before that, and stops work on `abort`.
 * The code graph itself never crosses; `neighbourhood` is its small, plain stand-in for pictures.
 */
import { EngineError, type EngineErrorOptions, type ErrorCode } from "../shared/errors.ts";
import type {
  ArtifactSummary,
  CallsAnswer,
  ContextAnswer,
  ContextOptions,
  EngineOptions,
  ImpactAnswer,
  ImpactDirection,
  ImportersAnswer,
  IndexSummary,
  Progress,
  RefreshResult,
  RepoMap,
  RepoMapOptions,
  Route,
  SearchHit,
  SignatureAnswer,
  SnippetAnswer,
  SymbolRef,
  DirEntry,
  FileStat,
  QueryAnswer,
  QueryOptions,
  FlowsAnswer,
  ClustersAnswer,
  StructureOptions,
} from "../index.ts";
import type { StoreBackend, StoreNotice, ZipLimits, ZipSkipped } from "../platform/browser/index.ts";

/** Where the project's files come from. Handles and Blobs are structured-clone safe. */
export type ProjectSource =
  /** A folder the user picked, or an OPFS folder. */
  | { kind: "handle"; handle: FileSystemDirectoryHandle; label?: string }
  /** Files in memory (a bundled sample, an upload already read). */
  | { kind: "files"; files: Record<string, Uint8Array | string>; label: string }
  /** Dropped files with their relative paths, read inside the worker. */
  | { kind: "uploads"; items: { path: string; file: Blob }[]; label: string; persistAs?: string; limits?: ZipLimits }
  /** A zip archive, unpacked inside the worker within limits. */
  | { kind: "zip"; file: Blob; label: string; persistAs?: string; limits?: ZipLimits }
  /** A tree an earlier upload left in OPFS (see `persistAs`). */
  | { kind: "persisted"; id: string; label: string }
  /** The page's own FileSystem, reached through `fs` messages (web IDEs). */
  | { kind: "remote"; label: string };

/** Where the index is kept. */
export type StoreChoice = { kind: "browser"; namespace: string; prefer?: StoreBackend } | { kind: "memory" };

/** An index artifact as the page holds it: bytes, or a File/Blob (read inside the worker). */
export type IndexArtifact = Uint8Array | ArrayBuffer | Blob;

/** What `open` reports. */
export interface OpenAnswer {
  label: string;
  /** The languages the engine reads, by name (for "nothing here is in a supported language"). */
  languages: string[];
  store: { backend: StoreBackend; label: string; notice?: StoreNotice };
  /** For zips and uploads: what was left out while unpacking, and the bytes kept. */
  unpacked?: {
    files: number;
    bytes: number;
    skipped: ZipSkipped[];
    stripped: string;
    persisted: boolean;
    notice?: string;
  };
}

/** A small picture of the call graph around one symbol, derived from callers and callees. */
export interface Neighbourhood {
  center: SymbolRef;
  nodes: NeighbourNode[];
  edges: { from: string; to: string; sites: number; confidence: number }[];
  /** Callers/callees not drawn, to keep the picture small. */
  hidden: { callers: number; callees: number };
  /** Calls into other packages, by target. */
  external: { target: string; sites: number }[];
}

/** One symbol in a neighbourhood. `id` is unique within the answer. */
export interface NeighbourNode extends SymbolRef {
  id: string;
  role: "center" | "caller" | "callee" | "both";
}

/** Per-call options that stay on the page: the signal to cancel with and the progress listener. */
export interface CallOptions {
  signal?: AbortSignal;
  onProgress?: (p: WorkerProgress) => void;
}

/** Progress of engine work, plus unpacking of archives and uploads and saving them to OPFS. */
export type WorkerProgress = Progress | { phase: "unpack" | "save"; done: number; total?: number };

/** The calls the worker answers: arguments (plain data) and result. */
export interface EngineCalls {
  open: { args: [source: ProjectSource, store: StoreChoice, options?: EngineOptions]; result: OpenAnswer };
  index: { args: []; result: IndexSummary };
  refresh: { args: []; result: RefreshResult };
  map: { args: [options?: RepoMapOptions]; result: RepoMap };
  context: { args: [target: string, options?: ContextOptions]; result: ContextAnswer };
  search: { args: [query: string, options?: { limit?: number }]; result: SearchHit[] };
  callers: { args: [symbol: string, options?: { depth?: number }]; result: CallsAnswer };
  callees: { args: [symbol: string, options?: { depth?: number }]; result: CallsAnswer };
  signature: { args: [symbol: string]; result: SignatureAnswer };
  importers: { args: [path: string, options?: { depth?: number }]; result: ImportersAnswer };
  snippet: { args: [path: string, start: number, end: number, options?: { maxLines?: number }]; result: SnippetAnswer };
  routes: { args: []; result: Route[] };
  impact: {
    args: [target: string, options?: { direction?: ImpactDirection; depth?: number; budget?: number; limit?: number }];
    result: ImpactAnswer;
  };
  neighbourhood: { args: [symbol: string, options?: { limit?: number }]; result: Neighbourhood };
  /** A read-only graph query (the engine's `query`). */
  query: { args: [text: string, options?: QueryOptions]; result: QueryAnswer };
  /** Execution flows from each entry point (the engine's `flows`). */
  flows: { args: [options?: StructureOptions]; result: FlowsAnswer };
  /** Clusters of files by calls and imports (the engine's `clusters`). */
  clusters: { args: [options?: StructureOptions]; result: ClustersAnswer };
  /** The index as a portable artifact (the engine's `exportIndex`); the bytes cross transferred. */
  exportIndex: { args: []; result: { bytes: Uint8Array; summary: ArtifactSummary } };
  /** Loads an artifact into the open project's store (the engine's `importIndex`); `index` follows. */
  importIndex: { args: [artifact: IndexArtifact]; result: ArtifactSummary };
  close: { args: []; result: null };
}

export type EngineMethod = keyof EngineCalls;

/** An error as it crosses: an EngineError's fields, or a plain error's name and message. */
export interface WireError {
  name: string;
  message: string;
  code?: string;
  hint?: string;
  data?: Record<string, unknown>;
}

/** File system operations the worker asks the page for (`remote` sources). */
export type FsOp = { op: "readFile"; path: string } | { op: "stat"; path: string } | { op: "readDir"; path: string };
export type FsResult = Uint8Array | FileStat | DirEntry[];

/** Page → worker. */
export type ToWorker =
  | { [M in EngineMethod]: { type: "call"; id: number; method: M; args: EngineCalls[M]["args"] } }[EngineMethod]
  | { type: "abort"; id: number }
  /** Part of an `uploads` source, sent ahead of its `open` call with the same id (see worker-client). */
  | { type: "upload-part"; id: number; items: { path: string; file: Blob }[] }
  | { type: "fs-result"; id: number; ok: true; value: FsResult }
  | { type: "fs-result"; id: number; ok: false; error: WireError }
  /** A port to serve the Language Server Protocol on, about the open project (see `WorkerEngine.languageServer`). */
  | { type: "lsp"; port: MessagePort };

/** Worker → page. */
export type FromWorker =
  | { type: "ready" }
  | { type: "result"; id: number; value: unknown }
  | { type: "error"; id: number; error: WireError }
  | { type: "progress"; id: number; progress: WorkerProgress }
  | { type: "notice"; notice: StoreNotice }
  | ({ type: "fs"; id: number } & FsOp);

/** The plain form of an error, for postMessage. */
export function toWire(error: unknown): WireError {
  if (typeof error === "object" && error !== null) {
    const e = error as { name?: unknown; message?: unknown; code?: unknown; hint?: unknown; data?: unknown };
    const out: WireError = {
      name: typeof e.name === "string" ? e.name : "Error",
      message: typeof e.message === "string" ? e.message : String(error),
    };
    if (typeof e.code === "string") out.code = e.code;
    if (typeof e.hint === "string") out.hint = e.hint;
    if (e.data && typeof e.data === "object") {
      try {
        out.data = structuredClone(e.data) as Record<string, unknown>;
      } catch {
        // data that cannot be cloned stays behind
      }
    }
    return out;
  }
  return { name: "Error", message: String(error) };
}

/** Turns a wire error back into an EngineError (code, hint and data intact) or a plain Error. */
export function fromWire(error: WireError): Error {
  if (error.name === "EngineError" && error.code) {
    // The data crosses as it was thrown: the worker passes it through and the page reads it by code.
    const options = {
      ...(error.hint ? { hint: error.hint } : {}),
      ...(error.data ? { data: error.data } : {}),
    } as EngineErrorOptions<ErrorCode>;
    return new EngineError(error.code as ErrorCode, error.message, options);
  }
  const e = new Error(error.message);
  e.name = error.name;
  return e;
}
