/**
 * A Store in IndexedDB (through idb-keyval), for browsers or contexts without writable OPFS.
 * Several stores share one database, each under its own key prefix (one per project). Like the
 * OPFS folder, a prefix is codeslice's own: it carries a marker key, and a prefix already holding
 * keys codeslice did not write is refused (`cache_refused`) before anything is written or deleted.
 * Every write is one transaction: a reader sees the old value or the new one.
 */
import { createStore, promisifyRequest, type UseStore } from "idb-keyval";
import { EngineError } from "../../shared/errors.ts";
import { checkStoreKey } from "../store-key.ts";
import type { Store } from "../../core/ports.ts";
import type { FolderOwnership } from "./opfs-store.ts";

const databases = new Map<string, UseStore>();

function database(dbName: string): UseStore {
  let db = databases.get(dbName);
  if (!db) databases.set(dbName, (db = createStore(dbName, "kv")));
  return db;
}

/** Every key starting with `prefix` as an IDBKeyRange, for prefix scans. */
function prefixRange(prefix: string): IDBKeyRange | undefined {
  // "\uffff" sorts after every character a store key may contain.
  return prefix === "" ? undefined : IDBKeyRange.bound(prefix, `${prefix}\uffff`, false, true);
}

/** The marker key under a store's prefix (dot-named: no store key can collide with it). */
export const IDB_MARKER = ".codeslice-store";
const MARKER_VALUE = "codeslice index store";
/** Keys a version before the marker wrote: index keys and the open probe. */
const LEGACY_KEY = /^(v\d+\/.+|probe)$/;

/** A Store over IndexedDB database `dbName`, keys kept under `namespace/`. */
export class IdbStore implements Store {
  readonly label: string;
  private readonly db: UseStore;
  private readonly base: string;
  private claimed: Promise<void> | undefined;

  constructor(namespace: string, dbName = "codeslice-index") {
    if (namespace !== "") checkStoreKey(namespace);
    this.db = database(dbName);
    this.base = namespace === "" ? "" : `${namespace}/`;
    this.label = `indexeddb:${dbName}/${namespace}`;
  }

  /** Whose the prefix is: marked, empty, left by a version before the marker, or someone else's. */
  async inspect(): Promise<{ ownership: FolderOwnership; entries: string[] }> {
    const marker = await this.db("readonly", (s) => promisifyRequest(s.get(this.base + IDB_MARKER)));
    if (marker !== undefined) return { ownership: "marked", entries: [] };
    const keys = (
      (await this.db("readonly", (s) => promisifyRequest(s.getAllKeys(prefixRange(this.base))))) as IDBValidKey[]
    ).map((k) => (typeof k === "string" ? k.slice(this.base.length) : String(k)));
    if (keys.length === 0) return { ownership: "empty", entries: [] };
    const foreign = keys.filter((k) => !LEGACY_KEY.test(k));
    return foreign.length === 0
      ? { ownership: "legacy", entries: [] }
      : { ownership: "foreign", entries: foreign.slice(0, 20) };
  }

  /** Checks the prefix is the store's own, marking it when empty or legacy; `cache_refused` otherwise. */
  open(): Promise<void> {
    this.claimed ??= (async () => {
      const { ownership, entries } = await this.inspect();
      if (ownership === "foreign") {
        throw new EngineError(
          "cache_refused",
          `Refusing to use ${this.label} as the index store: it already holds keys codeslice did not write ` +
            `(${entries.slice(0, 5).join(", ")}${entries.length > 5 ? ", …" : ""}).`,
          {
            hint:
              "Use another namespace (one per project); codeslice only writes under prefixes it created, " +
              "and never deletes what it did not write.",
            data: { store: this.label, reason: "not_empty", entries },
          },
        );
      }
      if (ownership !== "marked") await this.put(IDB_MARKER, MARKER_VALUE);
    })().catch((error) => {
      if (!(error instanceof EngineError && error.code === "cache_refused")) this.claimed = undefined;
      throw error;
    });
    return this.claimed;
  }

  private async put(key: string, value: unknown): Promise<void> {
    await this.db("readwrite", (s) => {
      s.put(value, this.base + key);
      return promisifyRequest(s.transaction);
    });
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    checkStoreKey(key);
    await this.open();
    const value = await this.db("readonly", (s) => promisifyRequest(s.get(this.base + key)));
    return value instanceof Uint8Array ? value : undefined;
  }

  async set(key: string, value: Uint8Array): Promise<void> {
    checkStoreKey(key);
    await this.open();
    // A structured clone of a view copies its whole buffer: store exactly the bytes in view.
    await this.put(key, value.slice());
  }

  async delete(key: string): Promise<void> {
    checkStoreKey(key);
    await this.open();
    await this.db("readwrite", (s) => {
      s.delete(this.base + key);
      return promisifyRequest(s.transaction);
    });
  }

  async keys(prefix = ""): Promise<string[]> {
    await this.open();
    const range = prefixRange(this.base + prefix);
    const keys = await this.db("readonly", (s) => promisifyRequest(s.getAllKeys(range)));
    return (
      (keys as IDBValidKey[])
        .filter((k): k is string => typeof k === "string")
        .map((k) => k.slice(this.base.length))
        // The marker (and anything else dot-named) is not a key.
        .filter((k) => k.startsWith(prefix) && !k.split("/").some((part) => part.startsWith(".")))
        .sort()
    );
  }

  /** Deletes every key under this store's prefix; the marker stays. Refuses a prefix that is not its own. */
  async clear(): Promise<void> {
    await this.open();
    const range = prefixRange(this.base);
    await this.db("readwrite", (s) => {
      if (range) s.delete(range);
      else s.clear();
      s.put(MARKER_VALUE, this.base + IDB_MARKER);
      return promisifyRequest(s.transaction);
    });
  }

  /**
   * Removes the whole prefix, marker included, when it is the store's own (marked, or left by a
   * version before the marker); an empty prefix is left as it is. Returns false, removing nothing,
   * for a prefix holding keys codeslice did not write.
   */
  async drop(): Promise<boolean> {
    const { ownership } = await this.inspect();
    if (ownership === "foreign") return false;
    if (ownership === "empty") return true;
    const range = prefixRange(this.base);
    await this.db("readwrite", (s) => {
      if (range) s.delete(range);
      else s.clear();
      return promisifyRequest(s.transaction);
    });
    this.claimed = undefined;
    return true;
  }
}
