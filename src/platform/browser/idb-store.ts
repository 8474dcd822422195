/**
 * A Store in IndexedDB (through idb-keyval), for browsers or contexts without writable OPFS.
 * Several stores share one database, each under its own key prefix (one per project).
 */
import { createStore, promisifyRequest, type UseStore } from "idb-keyval";
import { checkStoreKey } from "../store-key.ts";
import type { Store } from "../types.ts";

const databases = new Map<string, UseStore>();

function database(dbName: string): UseStore {
  let db = databases.get(dbName);
  if (!db) databases.set(dbName, (db = createStore(dbName, "kv")));
  return db;
}

/** Every key in [from, to) as an IDBKeyRange, for prefix scans. */
function prefixRange(prefix: string): IDBKeyRange | undefined {
  // "\uffff" sorts after every character a store key may contain.
  return prefix === "" ? undefined : IDBKeyRange.bound(prefix, `${prefix}\uffff`, false, true);
}

/** A Store over IndexedDB database `dbName`, keys kept under `namespace/`. */
export class IdbStore implements Store {
  readonly label: string;
  private readonly db: UseStore;
  private readonly base: string;

  constructor(namespace: string, dbName = "codeslice-index") {
    if (namespace !== "") checkStoreKey(namespace);
    this.db = database(dbName);
    this.base = namespace === "" ? "" : `${namespace}/`;
    this.label = `indexeddb:${dbName}/${namespace}`;
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    checkStoreKey(key);
    const value = await this.db("readonly", (s) => promisifyRequest(s.get(this.base + key)));
    return value instanceof Uint8Array ? value : undefined;
  }

  async set(key: string, value: Uint8Array): Promise<void> {
    checkStoreKey(key);
    // A structured clone of a view copies its whole buffer: store exactly the bytes in view.
    const copy = value.slice();
    await this.db("readwrite", (s) => {
      s.put(copy, this.base + key);
      return promisifyRequest(s.transaction);
    });
  }

  async delete(key: string): Promise<void> {
    checkStoreKey(key);
    await this.db("readwrite", (s) => {
      s.delete(this.base + key);
      return promisifyRequest(s.transaction);
    });
  }

  async keys(prefix = ""): Promise<string[]> {
    const range = prefixRange(this.base + prefix);
    const keys = await this.db("readonly", (s) => promisifyRequest(s.getAllKeys(range)));
    return (keys as string[]).map((k) => k.slice(this.base.length)).filter((k) => k.startsWith(prefix)).sort();
  }

  /** Deletes every key under this store's namespace. */
  async clear(): Promise<void> {
    const range = prefixRange(this.base);
    await this.db("readwrite", (s) => {
      if (range) s.delete(range);
      else s.clear();
      return promisifyRequest(s.transaction);
    });
  }
}
