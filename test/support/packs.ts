/**
 * The disk store's packed records as tests see them on disk (`src/platform/pack-store.ts`): which
 * values the packs of a folder hold, and a value rewritten inside its pack (the table kept valid,
 * so the damage reaches the engine's own checks). node:fs only, so Deno's tests can use it too.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { encodePack, type PackOp, packSeq, readPackTable } from "../../src/platform/store-pack.ts";

/** One value in a pack file. */
export interface PackedValue {
  key: string;
  /** The pack file (absolute). */
  file: string;
  value: Uint8Array;
}

/** The packs of the folder `dir` (absolute), oldest first: name, sequence number, table read from the file. */
export function packsIn(dir: string): { file: string; seq: number; ops: PackOp[] }[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const out: { file: string; seq: number; ops: PackOp[] }[] = [];
  for (const name of names) {
    const seq = packSeq(name);
    if (seq === undefined) continue;
    const file = path.join(dir, name);
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(fs.readFileSync(file));
    } catch {
      continue; // a pack being replaced, or a folder where one was
    }
    const table = readPackTable(bytes, bytes.length, seq);
    if (!table || "more" in table) continue;
    out.push({
      file,
      seq,
      ops: table.map((e) => ({
        key: e.key,
        value: e.offset === undefined ? undefined : bytes.subarray(e.offset, e.offset + e.length!),
      })),
    });
  }
  return out.sort((a, b) => a.seq - b.seq || (a.file < b.file ? -1 : 1));
}

/** The values the packs of `dir` hold, newest per key (a later pack's delete hides an earlier value). */
export function packedValues(dir: string): Map<string, PackedValue> {
  const out = new Map<string, PackedValue>();
  for (const pack of packsIn(dir))
    for (const op of pack.ops) {
      if (op.value) out.set(op.key, { key: op.key, file: pack.file, value: op.value });
      else out.delete(op.key);
    }
  return out;
}

/** How many values the packs of `dir` hold (records that reached the disk). */
export function packedCount(dir: string): number {
  return packedValues(dir).size;
}

/**
 * Replaces the value of `key` in the pack that holds it (in the packs of `dir`) by `edit(value)`,
 * rewriting the pack with a valid table. Throws when no pack holds the key.
 */
export function editPacked(dir: string, key: string, edit: (value: Uint8Array) => Uint8Array): void {
  const found = packedValues(dir).get(key);
  if (!found) throw new Error(`no pack in ${dir} holds ${key}`);
  const pack = packsIn(dir).find((p) => p.file === found.file)!;
  const ops = pack.ops.map((op) => (op.key === key && op.value ? { key, value: edit(op.value) } : op));
  fs.writeFileSync(pack.file, encodePack(pack.seq, ops));
}
