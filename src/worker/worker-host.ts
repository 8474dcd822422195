/**
 * The worker side of the engine protocol: `serveEngine()` in a Web Worker's module answers the
 * page's requests with one engine over one project at a time. Long work yields to the worker's
 * event loop now and then, so an `abort` message is seen promptly even when every read is served
 * from memory.
 */
import {
  createEngine,
  EngineError,
  LIMITS,
  supportedLanguageNames,
  type DirEntry,
  type Engine,
  type EngineOptions,
  type FileStat,
  type FileSystem,
  type ParseWorkers,
  type Platform,
  type Store,
} from "../index.ts";
import {
  FetchWasmSource,
  HandleFileSystem,
  MemoryFileSystem,
  MemoryStore,
  openBrowserStore,
  PERSIST_LIMITS,
  persistedTree,
  persistTree,
  readUploads,
  unzip,
  type StoreNotice,
  type UnzipResult,
} from "../platform/browser/index.ts";
import {
  fromWire,
  toWire,
  type EngineCalls,
  type EngineMethod,
  type FromWorker,
  type FsOp,
  type FsResult,
  type Neighbourhood,
  type IndexArtifact,
  type NeighbourNode,
  type OpenAnswer,
  type ProjectSource,
  type StoreChoice,
  type ToWorker,
  type WorkerProgress,
} from "./worker-protocol.ts";
import { OverlayFileSystem } from "../lsp/overlay-fs.ts";
import { serveProjectLsp } from "./lsp-host.ts";

/** The side of a MessagePort or worker global this module needs. */
export interface MessageEndpoint {
  postMessage(message: unknown, transfer?: Transferable[]): void;
  addEventListener(type: "message", listener: (event: MessageEvent) => void): void;
}

/** Options for {@link serveEngine}. */
export interface ServeOptions {
  /** Where the `wasm/` folder is served (absolute, or relative to the worker script). */
  wasmBase: string | URL;
  /** The endpoint to serve on (default: the worker's global scope). */
  endpoint?: MessageEndpoint;
  /**
   * Optional parse pool (nested Web Workers, see `WebParseWorkers` in `codeslice/browser`): the
   * host's bundler must emit the worker's entry, so the host passes it. Without it, or where the
   * engine's `jobs` comes to 1, files are parsed in this worker's thread.
   */
  workers?: ParseWorkers;
}

// Progress is sent at most this often per request: more only costs the page frames.
const PROGRESS_INTERVAL_MS = 100;
// Longest stretch of engine work between two turns of the event loop (where `abort` arrives).
const YIELD_EVERY_MS = 25;

/** Wraps `fs` so that its callers give the event loop a turn every few milliseconds. */
function yielding(fs: FileSystem): FileSystem {
  let last = Date.now();
  const pause = async () => {
    if (Date.now() - last < YIELD_EVERY_MS) return;
    await new Promise((r) => setTimeout(r, 0));
    last = Date.now();
  };
  return {
    rootLabel: fs.rootLabel,
    async readFile(path) {
      await pause();
      return fs.readFile(path);
    },
    async stat(path) {
      await pause();
      return fs.stat(path);
    },
    async readDir(path) {
      await pause();
      return fs.readDir(path);
    },
  };
}

/** A FileSystem answered by the page (`remote` sources): each call is one `fs` message. */
class RemoteFileSystem implements FileSystem {
  private next = 1;
  private readonly pending = new Map<number, { resolve(v: FsResult): void; reject(e: unknown): void }>();
  constructor(
    readonly rootLabel: string,
    private readonly endpoint: MessageEndpoint,
  ) {}

  settle(message: Extract<ToWorker, { type: "fs-result" }>): void {
    const p = this.pending.get(message.id);
    if (!p) return;
    this.pending.delete(message.id);
    if (message.ok) p.resolve(message.value);
    else p.reject(fromWire(message.error));
  }

  private ask(op: FsOp): Promise<FsResult> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.endpoint.postMessage({ type: "fs", id, ...op } satisfies FromWorker);
    });
  }

  readFile(path: string) {
    return this.ask({ op: "readFile", path }) as Promise<Uint8Array>;
  }
  stat(path: string) {
    return this.ask({ op: "stat", path }) as Promise<FileStat>;
  }
  readDir(path: string) {
    return this.ask({ op: "readDir", path }) as Promise<DirEntry[]>;
  }
}

/** The bytes of an artifact the page sent: a Uint8Array, an ArrayBuffer or a File/Blob. */
async function artifactBytes(artifact: IndexArtifact): Promise<Uint8Array> {
  if (artifact instanceof Uint8Array) return artifact;
  if (artifact instanceof ArrayBuffer) return new Uint8Array(artifact);
  if (typeof Blob !== "undefined" && artifact instanceof Blob) return new Uint8Array(await artifact.arrayBuffer());
  throw new EngineError(
    "invalid_argument",
    "importIndex takes the artifact's bytes (a Uint8Array, an ArrayBuffer or a File).",
    {
      hint: "Pass the file the user picked, or the bytes `codeslice index --export` wrote.",
    },
  );
}

/** Buffers a result carries that can cross by transfer rather than copy (an exported artifact). */
function transferables(value: unknown): Transferable[] {
  const bytes = (value as { bytes?: unknown } | null)?.bytes;
  return bytes instanceof Uint8Array &&
    bytes.byteOffset === 0 &&
    bytes.byteLength === bytes.buffer.byteLength &&
    bytes.buffer instanceof ArrayBuffer
    ? [bytes.buffer]
    : [];
}

/** The picture around a symbol: its callers and callees, at most `limit` of each shown, the rest counted. */
async function neighbourhood(
  engine: Engine,
  symbol: string,
  limit: number,
  signal: AbortSignal,
): Promise<Neighbourhood> {
  // The picture counts every caller, tests included: one page as large as the engine gives.
  const all = { signal, tests: "include", limit: LIMITS.page.max, budget: LIMITS.budget.max } as const;
  const [callers, callees] = await Promise.all([engine.callers(symbol, all), engine.callees(symbol, all)]);
  const key = (s: { qualified: string; path: string; line: number }) => `${s.path}:${s.line}:${s.qualified}`;
  const center = callers.symbol;
  const nodes = new Map<string, NeighbourNode>([[key(center), { ...center, id: key(center), role: "center" }]]);
  const edges = new Map<string, Neighbourhood["edges"][number]>();
  const hidden = { callers: 0, callees: 0 };
  const add = (answer: typeof callers, role: "caller" | "callee") => {
    const seen = new Set<string>();
    for (const r of answer.results) {
      const id = key(r);
      if (id === key(center)) continue; // recursion: no arrow from the symbol to itself
      if (!seen.has(id) && !nodes.has(id) && seen.size >= limit) {
        hidden[role === "caller" ? "callers" : "callees"]++;
        seen.add(id);
        continue;
      }
      if (seen.has(id) && !nodes.has(id)) continue; // hidden already
      seen.add(id);
      const existing = nodes.get(id);
      if (!existing) nodes.set(id, { qualified: r.qualified, kind: r.kind, path: r.path, line: r.line, id, role });
      else if (existing.role !== role && existing.role !== "center") existing.role = "both";
      const [from, to] = role === "caller" ? [id, key(center)] : [key(center), id];
      const e = edges.get(`${from}>${to}`);
      if (e) {
        e.sites++;
        e.confidence = Math.max(e.confidence, r.confidence);
      } else edges.set(`${from}>${to}`, { from, to, sites: 1, confidence: r.confidence });
    }
  };
  add(callers, "caller");
  add(callees, "callee");
  const external = new Map<string, number>();
  for (const x of callees.external) external.set(x.target, (external.get(x.target) ?? 0) + 1);
  return {
    center,
    nodes: [...nodes.values()],
    edges: [...edges.values()],
    hidden,
    external: [...external]
      .map(([target, sites]) => ({ target, sites }))
      .sort((a, b) => b.sites - a.sites)
      .slice(0, 12),
  };
}

/** The store the page chose: memory, or the browser's (OPFS, else IndexedDB), `notice` told of a fallback. */
async function openStore(
  choice: StoreChoice,
  notice: (n: StoreNotice) => void,
): Promise<{ store: Store; answer: OpenAnswer["store"] }> {
  if (choice.kind === "memory") return { store: new MemoryStore(), answer: { backend: "memory", label: "memory" } };
  const opened = await openBrowserStore({
    namespace: choice.namespace,
    ...(choice.prefer ? { prefer: choice.prefer } : {}),
    onFallback: notice,
  });
  return {
    store: opened.store,
    answer: { backend: opened.backend, label: opened.store.label, ...(opened.notice ? { notice: opened.notice } : {}) },
  };
}

interface Session {
  engine: Engine;
  platform: Platform;
  /** The files as the engine reads them: an editor's unsaved text (language server) over the source. */
  overlay: OverlayFileSystem;
}

/** Sources whose files never change once opened (held in memory). */
const UNCHANGING: ReadonlySet<ProjectSource["kind"]> = new Set(["files", "zip", "uploads", "persisted"]);

/**
 * A session on `platform`, its files read through an overlay for the language server's unsaved
 * text. Over files that never change the engine watches the overlay alone: a refresh (before each
 * language server answer) costs nothing until an edit, where it would re-scan the whole tree
 * (25 ms per answer on 2,000 files in Chromium).
 */
function newSession(platform: Platform, kind: ProjectSource["kind"], options: EngineOptions): Session {
  const unchanging = UNCHANGING.has(kind);
  const overlay = new OverlayFileSystem(platform.fs, { unchanging });
  const withOverlay: Platform = { ...platform, fs: overlay };
  return {
    platform: withOverlay,
    overlay,
    engine: createEngine(withOverlay, { ...(unchanging ? { watch: true } : {}), ...options }),
  };
}

/** Unpacks a zip or dropped files into memory, keeping a copy in browser storage when asked and it fits. */
async function unpackSource(
  source: Extract<ProjectSource, { kind: "zip" | "uploads" }>,
  signal: AbortSignal,
  progress: (p: WorkerProgress) => void,
): Promise<{ fs: FileSystem; unpacked?: OpenAnswer["unpacked"] }> {
  const onProgress = (done: number, total: number) => progress({ phase: "unpack", done, total });
  let result: UnzipResult;
  if (source.kind === "zip") {
    const bytes = new Uint8Array(await source.file.arrayBuffer());
    result = await unzip(bytes, { ...source.limits, name: source.label, signal, onProgress });
  } else {
    result = await readUploads(source.items, { ...source.limits, label: source.label, signal, onProgress });
  }
  const base = {
    files: Object.keys(result.files).length,
    bytes: result.totalBytes,
    skipped: result.skipped,
    stripped: result.stripped,
  };
  const fs = new MemoryFileSystem(result.files, source.label);
  if (!source.persistAs) return { fs, unpacked: { ...base, persisted: false } };
  if (result.totalBytes > PERSIST_LIMITS.maxBytes) {
    const mib = (n: number) => `${Math.round(n / 1024 / 1024)} MiB`;
    return {
      fs,
      unpacked: {
        ...base,
        persisted: false,
        notice:
          `The files are kept in memory only: ${mib(result.totalBytes)} is more than this page ` +
          `keeps in browser storage (${mib(PERSIST_LIMITS.maxBytes)}); they will not survive a reload.`,
      },
    };
  }
  progress({ phase: "save", done: 0, total: base.files });
  try {
    await persistTree(source.persistAs, result.files);
    return { fs, unpacked: { ...base, persisted: true } };
  } catch (error) {
    const why =
      (error as Error)?.name === "QuotaExceededError"
        ? "browser storage is full"
        : `storage refused: ${(error as Error)?.name ?? error}`;
    return {
      fs,
      unpacked: {
        ...base,
        persisted: false,
        notice: `The files are kept in memory only (${why}); they will not survive a reload.`,
      },
    };
  }
}

/** Runs one engine method with the arguments the page sent. */
async function callEngine(
  e: Engine,
  method: EngineMethod,
  args: unknown[],
  run: { signal: AbortSignal; onProgress: (p: WorkerProgress) => void },
  signal: AbortSignal,
): Promise<unknown> {
  const str = (i: number) => args[i] as string;
  const num = (i: number) => args[i] as number;
  const opt = <T extends object>(i: number) => ({ ...((args[i] as T | undefined) ?? ({} as T)), ...run });
  switch (method) {
    case "index":
      return e.index(run);
    case "refresh":
      return e.refresh(run);
    case "map":
      return e.map(opt(0));
    case "context":
      return e.context(str(0), opt(1));
    case "search":
      return e.search(str(0), opt(1));
    case "callers":
      return e.callers(str(0), opt(1));
    case "callees":
      return e.callees(str(0), opt(1));
    case "signature":
      return e.signature(str(0), run);
    case "importers":
      return e.importers(str(0), opt(1));
    case "snippet":
      return e.snippet(str(0), num(1), num(2), opt(3));
    case "routes":
      return e.routes(run);
    case "impact":
      return e.impact(str(0), opt(1));
    case "query":
      return e.query(str(0), opt(1));
    case "flows":
      return e.flows(opt(0));
    case "clusters":
      return e.clusters(opt(0));
    case "neighbourhood":
      return neighbourhood(e, str(0), (args[1] as { limit?: number } | undefined)?.limit ?? 12, signal);
    case "exportIndex":
      return e.exportIndex(run);
    case "importIndex":
      return e.importIndex(await artifactBytes(args[0] as IndexArtifact));
  }
  throw new EngineError("invalid_argument", `Unknown method ${String(method)}`);
}

/** Starts answering engine requests on `endpoint` (default: this worker). Returns when set up. */
export function serveEngine(options: ServeOptions): void {
  const endpoint = options.endpoint ?? (globalThis as unknown as MessageEndpoint);
  const wasm = new FetchWasmSource(options.wasmBase);
  const controllers = new Map<number, AbortController>();
  const uploadParts = new Map<number, { path: string; file: Blob }[]>();
  let session: Session | undefined;
  let remote: RemoteFileSystem | undefined;
  const post = (m: FromWorker) => endpoint.postMessage(m);

  const notice = (n: StoreNotice) => post({ type: "notice", notice: n });

  const progressFor = (id: number) => {
    let last = 0;
    return (progress: WorkerProgress, final = false) => {
      const now = Date.now();
      if (!final && now - last < PROGRESS_INTERVAL_MS) return;
      last = now;
      post({ type: "progress", id, progress });
    };
  };

  async function openFiles(
    source: ProjectSource,
    signal: AbortSignal,
    progress: (p: WorkerProgress) => void,
  ): Promise<{ fs: FileSystem; unpacked?: OpenAnswer["unpacked"] }> {
    switch (source.kind) {
      case "handle":
        return { fs: new HandleFileSystem(source.handle, source.label) };
      case "files":
        return { fs: new MemoryFileSystem(source.files, source.label) };
      case "remote":
        remote = new RemoteFileSystem(source.label, endpoint);
        return { fs: remote };
      case "persisted": {
        const files = await persistedTree(source.id);
        if (!files) {
          throw new EngineError(
            "root_not_found",
            `The saved copy of ${source.label} is gone from this browser's storage.`,
            {
              hint: "Drop the files or the zip again.",
              data: { id: source.id },
            },
          );
        }
        return { fs: new MemoryFileSystem(files, source.label) };
      }
      case "zip":
      case "uploads":
        return unpackSource(source, signal, progress);
    }
  }

  async function call(id: number, method: EngineMethod, args: unknown[], signal: AbortSignal): Promise<unknown> {
    const progress = progressFor(id);
    const run = {
      signal,
      onProgress: (p: WorkerProgress) => progress(p, p.phase !== "scan" && p.total !== undefined && p.done === p.total),
    };
    if (method === "open") {
      const [source, storeChoice, engineOptions] = args as EngineCalls["open"]["args"];
      session?.engine.close();
      session = undefined;
      remote = undefined;
      const { fs, unpacked } = await openFiles(source, signal, run.onProgress);
      const { store, answer } = await openStore(storeChoice, notice);
      session = newSession(
        { fs: yielding(fs), store, wasm, ...(options.workers ? { workers: options.workers } : {}) },
        source.kind,
        (engineOptions ?? {}) as EngineOptions,
      );
      return {
        label: fs.rootLabel,
        languages: supportedLanguageNames(),
        store: answer,
        ...(unpacked ? { unpacked } : {}),
      } satisfies OpenAnswer;
    }
    if (method === "close") {
      session?.engine.close();
      session = undefined;
      return null;
    }
    if (!session)
      throw new EngineError("no_index", "No project is open.", { hint: "Open a folder, a zip or the sample first." });
    return callEngine(session.engine, method, args, run, signal);
  }

  endpoint.addEventListener("message", (event: MessageEvent) => {
    const message = event.data as ToWorker;
    if (!message || typeof message !== "object") return;
    if (message.type === "abort") {
      controllers.get(message.id)?.abort(new EngineError("cancelled", "Cancelled by the page."));
      return;
    }
    if (message.type === "upload-part") {
      const parts = uploadParts.get(message.id) ?? [];
      for (const item of message.items) parts.push(item);
      uploadParts.set(message.id, parts);
      return;
    }
    if (message.type === "fs-result") {
      remote?.settle(message);
      return;
    }
    if (message.type === "lsp") return serveProjectLsp(message.port, () => session);
    if (message.type !== "call") return;
    const parts = uploadParts.get(message.id);
    if (parts) {
      uploadParts.delete(message.id);
      const source = (message.args as unknown[])[0] as ProjectSource;
      if (source.kind === "uploads") source.items = [...parts, ...source.items];
    }
    const controller = new AbortController();
    controllers.set(message.id, controller);
    call(message.id, message.method, message.args as unknown[], controller.signal)
      .then(
        (value) =>
          endpoint.postMessage(
            { type: "result", id: message.id, value } satisfies FromWorker,
            message.method === "exportIndex" ? transferables(value) : [],
          ),
        (error) => post({ type: "error", id: message.id, error: toWire(error) }),
      )
      .finally(() => controllers.delete(message.id));
  });
  post({ type: "ready" });
}
