/**
 * The browser platform (`codeslice/browser`): file systems over directory handles and in-memory
 * trees, an OPFS store with IndexedDB and memory fallbacks, a fetch-based WasmSource, archive
 * and upload readers with limits. The engine-in-a-Web-Worker front end is `codeslice/worker`.
 */
import type { FileSystem, Logger, ParseWorkers, Platform } from "../../core/ports.ts";
import { openBrowserStore, type StoreBackend, type StoreNotice } from "./browser-store.ts";
import { FetchWasmSource } from "./fetch-wasm-source.ts";
import { DEFAULT_HOST_ENVIRONMENT } from "../host-environments.ts";
export * from "../host-environments.ts";

export { HandleFileSystem } from "./handle-file-system.ts";
export { MemoryFileSystem, MemoryStore } from "../memory/index.ts";
export {
  OpfsStore,
  opfsRoot,
  canWriteOpfs,
  openDirectory,
  findDirectory,
  inspectFolder,
  writeFileAtomic,
  STORE_MARKER,
} from "./opfs-store.ts";
export type { FolderOwnership } from "./opfs-store.ts";
export { IdbStore, IDB_MARKER } from "./idb-store.ts";
export { BrowserFallbackStore, openBrowserStore, deleteBrowserIndex, OPFS_INDEX_DIR } from "./browser-store.ts";
export type { StoreBackend, StoreNotice, BrowserStoreOptions, OpenedStore } from "./browser-store.ts";
export { FetchWasmSource } from "./fetch-wasm-source.ts";
export { unzip, DEFAULT_ZIP_LIMITS } from "./zip.ts";
export type { UnzipResult, UnzipOptions, ZipLimits, ZipSkipped } from "./zip.ts";
export {
  readUploads,
  persistTree,
  persistedTree,
  deletePersistedTree,
  packTree,
  unpackTree,
  OPFS_TREES_DIR,
  PERSIST_LIMITS,
} from "./uploads.ts";
export { isStorageRefusal, mapDomError } from "./dom-errors.ts";
export { WebParseWorkers, serveParseWorkerOnSelf, hardwareConcurrency } from "../web-parse-workers.ts";

/** Options for {@link createBrowserPlatform}. */
export interface BrowserPlatformOptions {
  /** The project's files (a HandleFileSystem, a MemoryFileSystem, or the host's own). */
  fs: FileSystem;
  /** Where the `wasm/` folder is served, e.g. `new URL("./wasm/", import.meta.url)`. */
  wasmBase: string | URL;
  /** One index per project: a store key segment. */
  namespace: string;
  /** Start from this backend instead of the best available. */
  prefer?: StoreBackend;
  onStoreNotice?: (notice: StoreNotice) => void;
  logger?: Logger;
  /**
   * Optional parse pool. Starting a worker needs a module the host's bundler emits, so the host
   * supplies it: `new WebParseWorkers(() => new Worker(new URL("./parse-worker.ts", import.meta.url),
   * { type: "module" }))` with an entry that calls `serveParseWorkerOnSelf(new FetchWasmSource(base))`.
   * Without it files are parsed in the engine's thread (test/browser/parse-pool.chromium.ts runs both).
   */
  workers?: ParseWorkers;
}

/** A Platform for the main thread or a worker: `fs` as given, the best store available, wasm over fetch. */
export async function createBrowserPlatform(
  options: BrowserPlatformOptions,
): Promise<Platform & { storeBackend: StoreBackend; storeNotice?: StoreNotice }> {
  const opened = await openBrowserStore({
    namespace: options.namespace,
    ...(options.prefer ? { prefer: options.prefer } : {}),
    ...(options.onStoreNotice ? { onFallback: options.onStoreNotice } : {}),
  });
  return {
    fs: options.fs,
    store: opened.store,
    wasm: new FetchWasmSource(options.wasmBase),
    host: DEFAULT_HOST_ENVIRONMENT,
    ...(options.workers ? { workers: options.workers } : {}),
    storeBackend: opened.backend,
    ...(opened.notice ? { storeNotice: opened.notice } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
  };
}
