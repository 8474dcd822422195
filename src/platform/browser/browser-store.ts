/**
 * Picks where a browser index lives: OPFS, else IndexedDB, else memory; and keeps indexing going
 * when storage fails midway (quota exceeded, storage refused) by moving on to memory, saying so.
 */
import { MemoryStore } from "../memory/index.ts";
import { checkStoreKey } from "../store-key.ts";
import type { Store } from "../types.ts";
import { domErrorName, isStorageRefusal } from "./dom-errors.ts";
import { IdbStore } from "./idb-store.ts";
import { canWriteOpfs, openDirectory, opfsRoot, OpfsStore } from "./opfs-store.ts";

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
      : `The browser refused storage (${what}: ${domErrorName(error) ?? String(error)}): the index is kept in memory and will not survive a reload.`,
  };
}

/**
 * A Store that starts on `primary` and, the first time `primary` refuses a write for lack of
 * space or permission, carries on in memory: reads look in memory first, then in `primary`.
 * Other failures are passed through untouched.
 */
export class BrowserFallbackStore implements Store {
  private overlay: MemoryStore | undefined;
  private readonly removed = new Set<string>();
  notice: StoreNotice | undefined;

  constructor(
    readonly primary: Store,
    private readonly backend: StoreBackend,
    private readonly onFallback?: (notice: StoreNotice) => void,
  ) {}

  get label(): string {
    return this.overlay ? `memory (${this.primary.label} refused writes)` : this.primary.label;
  }

  /** Where writes go now. */
  get current(): StoreBackend {
    return this.overlay ? "memory" : this.backend;
  }

  private degrade(error: unknown): MemoryStore {
    if (!this.overlay) {
      this.overlay = new MemoryStore();
      this.notice = noticeFor(error, "memory", this.primary.label);
      this.onFallback?.(this.notice);
    }
    return this.overlay;
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    checkStoreKey(key);
    if (this.overlay) {
      const v = await this.overlay.get(key);
      if (v || this.removed.has(key)) return v;
      return this.primary.get(key).catch(() => undefined);
    }
    try {
      return await this.primary.get(key);
    } catch (error) {
      if (!isStorageRefusal(error)) throw error;
      this.degrade(error);
      return undefined;
    }
  }

  async set(key: string, value: Uint8Array): Promise<void> {
    checkStoreKey(key);
    if (!this.overlay) {
      try {
        return await this.primary.set(key, value);
      } catch (error) {
        if (!isStorageRefusal(error)) throw error;
        this.degrade(error);
      }
    }
    this.removed.delete(key);
    return this.overlay!.set(key, value);
  }

  async delete(key: string): Promise<void> {
    checkStoreKey(key);
    if (this.overlay) {
      await this.overlay.delete(key);
      this.removed.add(key);
    }
    await this.primary.delete(key).catch((error) => {
      if (!this.overlay && !isStorageRefusal(error)) throw error;
    });
  }

  async keys(prefix = ""): Promise<string[]> {
    const below = await this.primary.keys(prefix).catch((error) => {
      if (!this.overlay && !isStorageRefusal(error)) throw error;
      return [] as string[];
    });
    if (!this.overlay) return below;
    const all = new Set([...below.filter((k) => !this.removed.has(k)), ...(await this.overlay.keys(prefix))]);
    return [...all].sort();
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
  await store.set(PROBE_KEY, new Uint8Array([1]));
  await store.delete(PROBE_KEY);
}

/** The OPFS folder holding every project's index. */
export const OPFS_INDEX_DIR = "codeslice/index";

/** Opens the best store this context offers for `namespace`: OPFS, then IndexedDB, then memory. */
export async function openBrowserStore(options: BrowserStoreOptions): Promise<OpenedStore> {
  checkStoreKey(options.namespace);
  const order: StoreBackend[] = options.prefer === "memory" ? ["memory"] : options.prefer === "indexeddb" ? ["indexeddb", "memory"] : ["opfs", "indexeddb", "memory"];
  // The first refusal is the one worth telling the user about.
  let refused: { error: unknown; backend: StoreBackend } | undefined;
  for (const backend of order) {
    if (backend === "memory") {
      const store = new BrowserFallbackStore(new MemoryStore(), "memory", options.onFallback);
      if (options.prefer === "memory") return { store, backend };
      const notice: StoreNotice = refused
        ? noticeFor(refused.error, "memory", refused.backend === "opfs" ? "OPFS" : "IndexedDB")
        : { backend: "memory", reason: "unavailable", message: "No browser storage is available here: the index is kept in memory and will not survive a reload." };
      options.onFallback?.(notice);
      return { store, backend, notice };
    }
    try {
      let primary: Store;
      if (backend === "opfs") {
        const root = await opfsRoot();
        if (!root || !canWriteOpfs()) continue;
        primary = new OpfsStore(await openDirectory(root, `${OPFS_INDEX_DIR}/${options.namespace}`), `opfs:${OPFS_INDEX_DIR}/${options.namespace}`);
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
        message: `OPFS refused storage (${domErrorName(refused.error) ?? String(refused.error)}): the index is kept in IndexedDB instead.`,
      };
      return { store, backend, notice };
    } catch (error) {
      refused ??= { error, backend };
    }
  }
  throw new Error("unreachable: memory is always available");
}

/** Deletes a project's index from OPFS and IndexedDB (whichever holds it). */
export async function deleteBrowserIndex(namespace: string): Promise<void> {
  checkStoreKey(namespace);
  const root = await opfsRoot().catch(() => undefined);
  if (root) {
    try {
      const parent = await openDirectory(root, OPFS_INDEX_DIR);
      await parent.removeEntry(namespace, { recursive: true });
    } catch {
      // nothing stored there
    }
  }
  if (typeof indexedDB !== "undefined") await new IdbStore(namespace).clear().catch(() => {});
}
