/** Records by path, where a record made this run may be held as its stored bytes until first asked for. */
import type { FileRecord } from "../extract/record.ts";
import { freshRecord } from "./snapshot.ts";

/**
 * A Map of records by path whose entries may also be *held*: the stored bytes of a record this
 * process made (`storedBytes`), decoded on the first `get` into the record `storedForm` would
 * have kept. A cold `codeslice index` then never decodes what it wrote (nothing asks for it), and
 * a server decodes when its first answer builds the graph, as it would have read the records back.
 * Every Map method sees held entries as present; iterating decodes them all first.
 */
/** The value a held entry has in the map itself until it is decoded. */
const HELD = Object.freeze({}) as FileRecord;

export class RecordMap extends Map<string, FileRecord> {
  // Created on first use: Map's constructor calls `set` before a field initializer would run.
  private heldBytes: Map<string, Uint8Array> | undefined;

  /**
   * Keeps `bytes` (the record's sealed stored form, made in this process) for `path`. The entry
   * takes its place in the map's order now, as `set` would: iteration order is insertion order,
   * whether a record was held or set (a parse pool's records are held, the engine thread's set).
   */
  hold(path: string, bytes: Uint8Array): void {
    (this.heldBytes ??= new Map()).set(path, bytes);
    super.set(path, HELD);
  }

  /** Moves the entry of `path` from `from` (held or decoded, as it is there) into this map; false when absent. */
  carry(from: Map<string, FileRecord>, path: string): boolean {
    const bytes = from instanceof RecordMap ? from.heldBytes?.get(path) : undefined;
    if (bytes) {
      this.hold(path, bytes);
      return true;
    }
    const record = from.get(path);
    if (record) this.set(path, record);
    return record !== undefined;
  }

  /** The stored bytes held for `path`, when its record has not been decoded yet. */
  stored(path: string): Uint8Array | undefined {
    return this.heldBytes?.get(path);
  }

  override get(path: string): FileRecord | undefined {
    const record = super.get(path);
    if (record !== HELD) return record;
    const bytes = this.heldBytes!.get(path)!;
    this.heldBytes!.delete(path);
    const decoded = freshRecord(bytes, path);
    if (decoded) super.set(path, decoded);
    else super.delete(path);
    return decoded;
  }

  override set(path: string, record: FileRecord): this {
    this.heldBytes?.delete(path);
    return super.set(path, record);
  }

  override delete(path: string): boolean {
    this.heldBytes?.delete(path);
    return super.delete(path);
  }

  override clear(): void {
    this.heldBytes?.clear();
    super.clear();
  }

  /** Decodes every held entry in place: the map keeps its insertion order. */
  private decodeAll(): void {
    if (!this.heldBytes?.size) return;
    for (const path of [...this.heldBytes.keys()]) this.get(path);
  }

  override entries(): MapIterator<[string, FileRecord]> {
    this.decodeAll();
    return super.entries();
  }

  override keys(): MapIterator<string> {
    this.decodeAll();
    return super.keys();
  }

  override values(): MapIterator<FileRecord> {
    this.decodeAll();
    return super.values();
  }

  override forEach(fn: (value: FileRecord, key: string, map: Map<string, FileRecord>) => void, self?: unknown): void {
    this.decodeAll();
    super.forEach(fn, self);
  }

  override [Symbol.iterator](): MapIterator<[string, FileRecord]> {
    return this.entries();
  }
}
