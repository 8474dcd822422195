/**
 * The page side of the engine protocol: `createWorkerEngine(worker)` gives an object with the
 * engine's query methods, each returning a promise, cancellable with an AbortSignal and reporting
 * progress, while all the work happens in the worker.
 */
// Values come from the error module alone (types from the entry), so a page that only talks to the
// worker does not bundle the engine itself.
import { EngineError } from "../shared/errors.ts";
import type {
  ArtifactSummary,
  CallsAnswer,
  ContextAnswer,
  ContextOptions,
  EngineOptions,
  FileSystem,
  ImpactAnswer,
  ImpactDirection,
  ImportersAnswer,
  IndexSummary,
  RefreshResult,
  RepoMap,
  RepoMapOptions,
  Route,
  SearchHit,
  SignatureAnswer,
  SnippetAnswer,
  QueryAnswer,
  QueryOptions,
  FlowsAnswer,
  ClustersAnswer,
  StructureOptions,
} from "../index.ts";
import type { StoreNotice } from "../platform/browser/index.ts";
import {
  fromWire,
  toWire,
  type CallOptions,
  type EngineCalls,
  type EngineMethod,
  type FromWorker,
  type IndexArtifact,
  type Neighbourhood,
  type OpenAnswer,
  type ProjectSource,
  type StoreChoice,
  type ToWorker,
  type WorkerProgress,
} from "./worker-protocol.ts";

/** What the page needs of a Worker (or a MessagePort). */
export interface WorkerLike {
  postMessage(message: unknown, transfer?: Transferable[]): void;
  addEventListener(type: "message" | "error" | "messageerror", listener: (event: Event) => void): void;
  terminate?(): void;
}

/** Options for {@link createWorkerEngine}. */
export interface WorkerEngineOptions {
  /** Answers the worker's file reads for `{ kind: "remote" }` sources (a web IDE's workspace). */
  fs?: FileSystem;
  /** Told when the index moves to memory (storage full or refused). */
  onNotice?: (notice: StoreNotice) => void;
}

type Args<M extends EngineMethod> = EngineCalls[M]["args"];
type Result<M extends EngineMethod> = EngineCalls[M]["result"];

/**
 * The engine, hosted in a worker: the Engine's query methods with the same arguments, where the
 * options may also carry `signal` and `onProgress` (they stay on the page; the rest is sent).
 */
export interface WorkerEngine {
  /** Opens a project (replacing the open one): its files, where its index lives, engine options. */
  open(source: ProjectSource, store: StoreChoice, options?: EngineOptions & CallOptions): Promise<OpenAnswer>;
  index(options?: CallOptions): Promise<IndexSummary>;
  refresh(options?: CallOptions): Promise<RefreshResult>;
  map(options?: RepoMapOptions & CallOptions): Promise<RepoMap>;
  context(target: string, options?: ContextOptions & CallOptions): Promise<ContextAnswer>;
  search(query: string, options?: { limit?: number } & CallOptions): Promise<SearchHit[]>;
  callers(symbol: string, options?: { depth?: number } & CallOptions): Promise<CallsAnswer>;
  callees(symbol: string, options?: { depth?: number } & CallOptions): Promise<CallsAnswer>;
  signature(symbol: string, options?: CallOptions): Promise<SignatureAnswer>;
  importers(path: string, options?: { depth?: number } & CallOptions): Promise<ImportersAnswer>;
  snippet(
    path: string,
    start: number,
    end: number,
    options?: { maxLines?: number } & CallOptions,
  ): Promise<SnippetAnswer>;
  routes(options?: CallOptions): Promise<Route[]>;
  /** The blast radius of a symbol, file or path:lines: callers by depth, routes, tests, a risk summary. */
  impact(
    target: string,
    options?: { direction?: ImpactDirection; depth?: number; budget?: number; limit?: number } & CallOptions,
  ): Promise<ImpactAnswer>;
  /** Callers and callees of `symbol` as a small plain graph (at most `limit` per side), for pictures. */
  neighbourhood(symbol: string, options?: { limit?: number } & CallOptions): Promise<Neighbourhood>;
  /** A read-only graph query in the Cypher subset (`Engine.query`; docs/query.md). */
  query(text: string, options?: QueryOptions & CallOptions): Promise<QueryAnswer>;
  /** Execution flows from each entry point, largest first (`Engine.flows`). */
  flows(options?: StructureOptions & CallOptions): Promise<FlowsAnswer>;
  /** Clusters of files by calls and imports, with cohesion (`Engine.clusters`). */
  clusters(options?: StructureOptions & CallOptions): Promise<ClustersAnswer>;
  /**
   * The open project's index as a portable artifact (see `Engine.exportIndex`), indexing first
   * when there is none: the bytes `codeslice index --import` and {@link importIndex} load.
   */
  exportIndex(options?: CallOptions): Promise<{ bytes: Uint8Array; summary: ArtifactSummary }>;
  /**
   * Loads an artifact (from `codeslice index --export` or {@link exportIndex}) into the open
   * project's store; the next `index` parses only the files that differ from the exporter's. The
   * whole artifact is checked first: `artifact_foreign`, `artifact_truncated`, `artifact_corrupt`
   * or `artifact_version_mismatch` otherwise, and nothing is written.
   */
  importIndex(artifact: IndexArtifact, options?: CallOptions): Promise<ArtifactSummary>;
  /** Closes the open project. */
  close(): Promise<null>;
  /**
   * A new language server connection on the engine in the worker: a MessagePort that speaks the
   * Language Server Protocol (JSON-RPC messages as objects, one per message, as
   * `vscode-languageserver/browser`'s BrowserMessageReader/Writer and `vscode-jsonrpc/browser`
   * read and write them) about the project open in the worker, with the same handlers as
   * `codeslice lsp` on stdio: definition, references, hover, document and workspace symbols, call
   * hierarchy, code lenses, `codeslice/context`, `codeslice/impact`; `didOpen`/`didChange` text is
   * what it answers from; `$/cancelRequest` and work-done progress work. Documents are named
   * `<rootUri>/<path>` (the `rootUri` the client's `initialize` sends; default
   * `file:///workspace`). It follows the open project: after another `open`, it answers about that
   * one. Usage (any LSP client over a MessagePort):
   *
   * ```ts
   * const engine = createWorkerEngine(new Worker(workerUrl, { type: "module" }));
   * await engine.open({ kind: "files", files, label: "shop" }, { kind: "memory" });
   * const port = engine.languageServer();
   * // createProtocolConnection, BrowserMessageReader/Writer: vscode-languageserver-protocol/browser
   * const client = createProtocolConnection(new BrowserMessageReader(port), new BrowserMessageWriter(port));
   * client.listen();
   * await client.sendRequest("initialize", { processId: null, rootUri: "file:///shop", capabilities: {} });
   * ```
   */
  languageServer(): MessagePort;
  /** Sends one request in its wire form; the methods above are built on it. */
  call<M extends EngineMethod>(method: M, args: Args<M>, options?: CallOptions): Promise<Result<M>>;
  /** Stops the worker; pending calls fail with `cancelled`. */
  terminate(): void;
}

/** Files per `upload-part` message. */
const UPLOAD_PART = 100;

/**
 * Where each method's options argument sits, and whether the worker takes options there
 * (otherwise the argument only carries `signal`/`onProgress`).
 */
const OPTIONS_AT: { [M in EngineMethod]: [index: number, sent: boolean] } = {
  open: [2, true],
  index: [0, false],
  refresh: [0, false],
  map: [0, true],
  context: [1, true],
  search: [1, true],
  callers: [1, true],
  callees: [1, true],
  signature: [1, false],
  importers: [1, true],
  snippet: [3, true],
  routes: [0, false],
  impact: [1, true],
  neighbourhood: [1, true],
  query: [1, true],
  flows: [0, true],
  clusters: [0, true],
  exportIndex: [0, false],
  importIndex: [1, false],
  close: [0, false],
};

/** Connects to an engine served by `serveEngine()` in `worker`. */
export function createWorkerEngine(worker: WorkerLike, options: WorkerEngineOptions = {}): WorkerEngine {
  let next = 1;
  const pending = new Map<
    number,
    { resolve(v: unknown): void; reject(e: unknown): void; onProgress?: (p: WorkerProgress) => void }
  >();
  const send = (m: ToWorker) => worker.postMessage(m);

  const failAll = (error: Error) => {
    for (const p of pending.values()) p.reject(error);
    pending.clear();
  };

  worker.addEventListener("message", (event) => {
    const m = (event as MessageEvent).data as FromWorker;
    if (!m || typeof m !== "object") return;
    switch (m.type) {
      case "result":
      case "error": {
        const p = pending.get(m.id);
        if (!p) return;
        pending.delete(m.id);
        if (m.type === "result") p.resolve(m.value);
        else p.reject(fromWire(m.error));
        return;
      }
      case "progress":
        pending.get(m.id)?.onProgress?.(m.progress);
        return;
      case "notice":
        options.onNotice?.(m.notice);
        return;
      case "fs": {
        const fs = options.fs;
        const reply = (r: ToWorker) => send(r);
        if (!fs) {
          reply({
            type: "fs-result",
            id: m.id,
            ok: false,
            error: { name: "EngineError", code: "io_error", message: "The page offers no file system to the engine." },
          });
          return;
        }
        const op = m.op === "readFile" ? fs.readFile(m.path) : m.op === "stat" ? fs.stat(m.path) : fs.readDir(m.path);
        op.then(
          (value) => reply({ type: "fs-result", id: m.id, ok: true, value }),
          (error) => reply({ type: "fs-result", id: m.id, ok: false, error: toWire(error) }),
        );
        return;
      }
    }
  });
  worker.addEventListener("error", (event) => {
    const message = (event as ErrorEvent).message || "the worker script failed to load";
    failAll(new EngineError("io_error", `The engine worker stopped: ${message}`, { hint: "Reload the page." }));
  });
  worker.addEventListener("messageerror", () =>
    failAll(new EngineError("io_error", "A message from the engine worker could not be read.")),
  );

  /**
   * Sends the files of an `uploads` source in parts, one task each. Cloning a File read from disk
   * costs the page about 0.2 ms (measured: 432 ms for 2,000 files in one postMessage), so one
   * message for a big folder would block the page; parts of 100 stay near 20 ms.
   */
  async function sendUploadParts(id: number, args: unknown[]): Promise<unknown[]> {
    const source = args[0] as ProjectSource | undefined;
    if (source?.kind !== "uploads" || source.items.length <= UPLOAD_PART) return args;
    for (let i = 0; i < source.items.length; i += UPLOAD_PART) {
      send({ type: "upload-part", id, items: source.items.slice(i, i + UPLOAD_PART) });
      await new Promise((r) => setTimeout(r, 0));
    }
    return [{ ...source, items: [] }, ...args.slice(1)];
  }

  function call<M extends EngineMethod>(method: M, args: Args<M>, run: CallOptions = {}): Promise<Result<M>> {
    const id = next++;
    return new Promise<Result<M>>((resolve, reject) => {
      if (run.signal?.aborted) {
        reject(new EngineError("cancelled", "The operation was cancelled."));
        return;
      }
      pending.set(id, {
        resolve: resolve as (v: unknown) => void,
        reject,
        ...(run.onProgress ? { onProgress: run.onProgress } : {}),
      });
      run.signal?.addEventListener(
        "abort",
        () => {
          if (!pending.has(id)) return;
          send({ type: "abort", id });
          // Answer at once: the page should not wait for the worker to notice.
          pending.delete(id);
          reject(new EngineError("cancelled", "The operation was cancelled."));
        },
        { once: true },
      );
      if (method !== "open") send({ type: "call", id, method, args } as ToWorker);
      else {
        sendUploadParts(id, args).then(
          (sent) => pending.has(id) && send({ type: "call", id, method, args: sent } as ToWorker),
          (error) => reject(error),
        );
      }
    });
  }

  const api = {
    call,
    languageServer() {
      const channel = new MessageChannel();
      worker.postMessage({ type: "lsp", port: channel.port2 } satisfies ToWorker, [channel.port2]);
      return channel.port1;
    },
    terminate() {
      worker.terminate?.();
      failAll(new EngineError("cancelled", "The engine worker was stopped."));
    },
  } as unknown as WorkerEngine;
  for (const method of Object.keys(OPTIONS_AT) as EngineMethod[]) {
    const [at, sent] = OPTIONS_AT[method];
    (api as unknown as Record<string, unknown>)[method] = (...all: unknown[]) => {
      const args = all.slice(0, at);
      const { signal, onProgress, ...rest } = (all[at] ?? {}) as CallOptions & Record<string, unknown>;
      if (sent && Object.keys(rest).length > 0) args.push(rest);
      return call(method, args as never, { ...(signal ? { signal } : {}), ...(onProgress ? { onProgress } : {}) });
    };
  }
  return api;
}
