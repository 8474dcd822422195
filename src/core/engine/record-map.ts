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
export class RecordMap extends Map<string, FileRecord> {
  // Created on first use: Map's constructor calls `set` before a field initializer would run.
  private heldBytes: Map<string, Uint8Array> | undefined;

  /** Keeps `bytes` (the record's sealed stored form, made in this process) for `path`. */
  hold(path: string, bytes: Uint8Array): void {
    super.delete(path);
    (this.heldBytes ??= new Map()).set(path, bytes);
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
    if (record || !this.heldBytes) return record;
    const bytes = this.heldBytes.get(path);
    if (!bytes) return undefined;
    this.heldBytes.delete(path);
    const decoded = freshRecord(bytes, path);
    if (decoded) super.set(path, decoded);
    return decoded;
  }

  override has(path: string): boolean {
    return super.has(path) || (this.heldBytes?.has(path) ?? false);
  }

  override set(path: string, record: FileRecord): this {
    this.heldBytes?.delete(path);
    return super.set(path, record);
  }

  override delete(path: string): boolean {
    const held = this.heldBytes?.delete(path) ?? false;
    return super.delete(path) || held;
  }

  override clear(): void {
    this.heldBytes?.clear();
    super.clear();
  }

  override get size(): number {
    return super.size + (this.heldBytes?.size ?? 0);
  }

  /** Decodes every held entry (in the order they were held, after the decoded ones). */
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
