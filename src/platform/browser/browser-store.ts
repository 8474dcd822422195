/**
 * Picks where a browser index lives: OPFS, else IndexedDB, else memory; and keeps indexing going
 * when storage fails midway (quota exceeded, storage refused) by moving on to memory, saying so.
 */
import { EngineError, isEngineError } from "../../shared/errors.ts";
import { MemoryStore } from "../memory/index.ts";
import { FallbackStore } from "../fallback-store.ts";
import { checkStoreKey } from "../store-key.ts";
import type { Store } from "../../core/ports.ts";
import { domErrorName, isStorageRefusal } from "./dom-errors.ts";
import { IdbStore } from "./idb-store.ts";
import { canWriteOpfs, findDirectory, inspectFolder, openDirectory, opfsRoot, OpfsStore } from "./opfs-store.ts";

/** Where an index is kept. */
export type StoreBackend = "opfs" | "indexeddb" | "memory";

/** Why a store is not the one asked for, in words for the page. */
export interface StoreNotice {
  /** Where the index is kept from now on. */
  backend: StoreBackend;
  /** `quota_exceeded`, `storage_refused` or `unavailable`. */
  reason: "quota_exceeded" | "storage_refused" | "unavailable";
  message: string;
}

function noticeFor(error: unknown, backend: StoreBackend, what: string): StoreNotice {
  const quota = domErrorName(error) === "QuotaExceededError" || /quota|space/i.test(String((error as Error)?.message));
  return {
    backend,
    reason: quota ? "quota_exceeded" : "storage_refused",
    message: quota
      ? `Browser storage is full (${what}): the index is kept in memory from now on and will not survive a reload.`
      : `The browser refused storage (${what}: ${domErrorName(error) ?? String(error)}): the index is kept in ` +
        `memory and will not survive a reload.`,
  };
}

/**
 * The shared FallbackStore with the browser's idea of a refusal (quota exceeded, storage
 * refused): it starts on `primary` and carries on in memory after the first refusal, with a
 * notice for the page.
 */
export class BrowserFallbackStore extends FallbackStore {
  private readonly backend: StoreBackend;

  constructor(primary: Store, backend: StoreBackend, onFallback?: (notice: StoreNotice) => void) {
    super(primary, (error) => onFallback?.(noticeFor(error, "memory", primary.label)), isStorageRefusal);
    this.backend = backend;
    // The OPFS store acknowledges a write before its batch lands: a refusal that comes later
    // (quota) moves the index to memory then, and the batch stays readable from the store.
    if (primary instanceof OpfsStore)
      primary.onFailure((error) => {
        if (isStorageRefusal(error)) this.fallBack(error);
      });
  }

  /** The store the index started on. */
  get primary(): Store {
    return this.inner;
  }

  /** Why the index moved to memory, once it did. */
  get notice(): StoreNotice | undefined {
    return this.inMemory ? noticeFor(this.refusal, "memory", this.inner.label) : undefined;
  }

  /** Where writes go now. */
  get current(): StoreBackend {
    return this.inMemory ? "memory" : this.backend;
  }
}

/** Options for {@link openBrowserStore}. */
export interface BrowserStoreOptions {
  /** One index per project: a store key segment ("sample", "folder-3f2a"). */
  namespace: string;
  /** Start from this backend instead of the best available (tests, a user's choice). */
  prefer?: StoreBackend;
  /** Told when the store moves to memory, at open or later. */
  onFallback?: (notice: StoreNotice) => void;
}

/** The opened store, which backend it uses, and why when it is not the preferred one. */
export interface OpenedStore {
  store: BrowserFallbackStore;
  backend: StoreBackend;
  notice?: StoreNotice;
}

const PROBE_KEY = "probe";

/** Writes and deletes a probe key: storage that refuses data refuses it here, not mid-index. */
async function probe(store: Store): Promise<void> {
  // The OPFS store would only queue the key: it writes a scratch file instead.
  if (store instanceof OpfsStore) return store.probe();
  await store.set(PROBE_KEY, new Uint8Array([1]));
  await store.delete(PROBE_KEY);
}

/** The OPFS folder holding every project's index. */
export const OPFS_INDEX_DIR = "codeslice/index";

/**
 * Opens the best store this context offers for `namespace`: OPFS, then IndexedDB, then memory.
 * A namespace whose OPFS folder or IndexedDB prefix holds data codeslice did not write is not a
 * storage failure to work around: it throws `cache_refused` (nothing is written there, and the
 * index does not quietly move elsewhere), so the host can pick another namespace.
 */
export async function openBrowserStore(options: BrowserStoreOptions): Promise<OpenedStore> {
  checkStoreKey(options.namespace);
  const order: StoreBackend[] =
    options.prefer === "memory"
      ? ["memory"]
      : options.prefer === "indexeddb"
        ? ["indexeddb", "memory"]
        : ["opfs", "indexeddb", "memory"];
  // The first refusal is the one worth telling the user about.
  let refused: { error: unknown; backend: StoreBackend } | undefined;
  for (const backend of order) {
    if (backend === "memory") {
      const store = new BrowserFallbackStore(new MemoryStore(), "memory", options.onFallback);
      if (options.prefer === "memory") return { store, backend };
      const notice: StoreNotice = refused
        ? noticeFor(refused.error, "memory", refused.backend === "opfs" ? "OPFS" : "IndexedDB")
        : {
            backend: "memory",
            reason: "unavailable",
            message: "No browser storage is available here: the index is kept in memory and will not survive a reload.",
          };
      options.onFallback?.(notice);
      return { store, backend, notice };
    }
    try {
      let primary: Store;
      if (backend === "opfs") {
        const root = await opfsRoot();
        if (!root || !canWriteOpfs()) continue;
        primary = new OpfsStore(
          await openDirectory(root, `${OPFS_INDEX_DIR}/${options.namespace}`),
          `opfs:${OPFS_INDEX_DIR}/${options.namespace}`,
        );
      } else {
        if (typeof indexedDB === "undefined") continue;
        primary = new IdbStore(options.namespace);
      }
      await probe(primary);
      const store = new BrowserFallbackStore(primary, backend, options.onFallback);
      if (!refused) return { store, backend };
      const notice: StoreNotice = {
        backend,
        reason: noticeFor(refused.error, backend, "").reason,
        message:
          `OPFS refused storage (${domErrorName(refused.error) ?? String(refused.error)}): the index is ` +
          `kept in IndexedDB instead.`,
      };
      return { store, backend, notice };
    } catch (error) {
      if (isEngineError(error, "cache_refused")) throw error;
      refused ??= { error, backend };
    }
  }
  throw new Error("unreachable: memory is always available");
}

/**
 * Deletes a project's index from OPFS and IndexedDB (whichever holds it). Only what is
 * codeslice's own goes: a folder or key prefix carrying the store marker, or one shaped like an
 * index from a version before the marker. Anything else under that name is left untouched, and
 * the call then throws `cache_refused` (after deleting what it could).
 */
export async function deleteBrowserIndex(namespace: string): Promise<void> {
  checkStoreKey(namespace);
  const refused: string[] = [];
  const root = await opfsRoot().catch(() => undefined);
  const parent = root ? await findDirectory(root, OPFS_INDEX_DIR).catch(() => undefined) : undefined;
  const dir = parent ? await findDirectory(parent, namespace).catch(() => undefined) : undefined;
  if (parent && dir) {
    const { ownership } = await inspectFolder(dir);
    if (ownership === "foreign") refused.push(`opfs:${OPFS_INDEX_DIR}/${namespace}`);
    else await parent.removeEntry(namespace, { recursive: true }).catch(() => {});
  }
  if (typeof indexedDB !== "undefined") {
    const idb = new IdbStore(namespace);
    if (!(await idb.drop().catch(() => true))) refused.push(idb.label);
  }
  if (refused.length) {
    throw new EngineError(
      "cache_refused",
      `Not deleting ${refused.join(" and ")}: it holds data codeslice did not write.`,
      {
        hint: "Nothing there was touched. Remove it by hand if it is yours to remove.",
        data: { namespace, refused },
      },
    );
  }
}
