/**
 * The pack file of the packed store (`pack-store.ts`: the OPFS store and the disk store's
 * records): a batch of store operations (a value set under a key, or a key deleted) in one
 * immutable file, so that writing an index costs a few file operations per batch instead of four
 * or five per record (`test/bench/opfs-ops-bench.mjs`: 4-5 ms of Chromium's CPU per file, 0.2 ms
 * per value packed 64 to a file).
 *
 * Layout (integers little-endian):
 *
 * ```
 *  0  magic 89 43 53 50 41 43 4B 0A ("\x89CSPACK\n")
 *  8  u32 format (PACK_FORMAT)      12  u32 sequence number (also in the file name)
 * 16  u32 entries                   20  u32 table length      24  u32 data length
 * 28  u32 CRC-32 of bytes 0-27 and the table
 * 32  table: per entry u8 op (1 set, 2 delete), u16 key length, key (ASCII), u32 value length
 *     data:  the values of the set entries, in table order
 * ```
 *
 * The table is checked (CRC, lengths, the file's size, the sequence number against the name), so
 * a truncated, flipped, emptied or swapped pack reads as no entries at all; values are not checked
 * here: the engine seals every value it stores (`core/engine/seal.ts`). A pack of another format
 * is not read.
 */

import { crc32 } from "../shared/crc32.ts";

/** The first bytes of every pack. */
export const PACK_MAGIC = Uint8Array.of(0x89, 0x43, 0x53, 0x50, 0x41, 0x43, 0x4b, 0x0a);
/** The pack format this build reads and writes; a pack of any other is ignored and deleted. */
export const PACK_FORMAT = 1;
const HEADER = 32;
const OP_SET = 1;
const OP_DELETE = 2;

/** File names of packs: `cs-<sequence, 10 digits>-<random>.pack`. */
export const PACK_NAME = /^cs-(\d{10})-[a-z0-9]+\.pack$/;

/** A new pack's file name for `seq` (the random part keeps two tabs writing one folder apart). */
export function packName(seq: number): string {
  return `cs-${String(seq).padStart(10, "0")}-${Math.random().toString(36).slice(2, 8) || "0"}.pack`;
}

/** The sequence number a pack's name carries, or undefined for any other name. */
export function packSeq(name: string): number | undefined {
  const m = PACK_NAME.exec(name);
  return m ? Number(m[1]) : undefined;
}

/** One operation in a pack: `value` undefined is a delete. */
/** One pack file a store knows: its size and how many of its bytes are values still live. */
export interface Pack {
  name: string;
  seq: number;
  size: number;
  live: number;
}

/** Where a landed value lies. */
export interface Landed {
  pack: Pack;
  offset: number;
  length: number;
}

/** Operations not in a pack yet, newest per key; null deletes the key. */
export type Ops = Map<string, Uint8Array | null>;

export interface PackOp {
  key: string;
  value: Uint8Array | undefined;
}

/** Where a set entry's value lies in its pack file. */
export interface PackEntry {
  key: string;
  /** Undefined: the key is deleted by this pack. */
  offset?: number;
  length?: number;
}

/** The CRC of a pack's check: its first 28 bytes, then its table. */
const headCrc = (head: Uint8Array, table: Uint8Array) => crc32(table, table.length, crc32(head, 28));

/** The bytes of a pack holding `ops` in order. */
export function encodePack(seq: number, ops: readonly PackOp[]): Uint8Array {
  const head = encodePackHead(seq, ops);
  let size = head.length;
  for (const op of ops) size += op.value?.length ?? 0;
  const out = new Uint8Array(size);
  out.set(head);
  let data = head.length;
  for (const op of ops) {
    if (!op.value) continue;
    out.set(op.value, data);
    data += op.value.length;
  }
  return out;
}

/**
 * The header and table of a pack holding `ops`: the pack is these bytes followed by the values of
 * the set operations in order. A writer that can write several buffers at once writes those, and
 * never copies the values into one buffer (a batch of records is a megabyte).
 */
export function encodePackHead(seq: number, ops: readonly PackOp[]): Uint8Array {
  let tableLength = 0;
  let dataLength = 0;
  for (const op of ops) {
    tableLength += 7 + op.key.length;
    dataLength += op.value?.length ?? 0;
  }
  const out = new Uint8Array(HEADER + tableLength);
  const view = new DataView(out.buffer);
  out.set(PACK_MAGIC, 0);
  view.setUint32(8, PACK_FORMAT, true);
  view.setUint32(12, seq, true);
  view.setUint32(16, ops.length, true);
  view.setUint32(20, tableLength, true);
  view.setUint32(24, dataLength, true);
  let at = HEADER;
  for (const op of ops) {
    out[at] = op.value ? OP_SET : OP_DELETE;
    view.setUint16(at + 1, op.key.length, true);
    for (let i = 0; i < op.key.length; i++) out[at + 3 + i] = op.key.charCodeAt(i); // keys are ASCII (checkStoreKey)
    at += 3 + op.key.length;
    view.setUint32(at, op.value?.length ?? 0, true);
    at += 4;
  }
  view.setUint32(28, headCrc(out, out.subarray(HEADER, HEADER + tableLength)), true);
  return out;
}

/** How many bytes of a pack to read first: the header and, for a pack of a few hundred records, its whole table. */
export const PACK_HEAD_GUESS = 64 * 1024;

/**
 * The table of a pack from its first bytes (`head`, at least the header; the table is read from
 * it when it is long enough). Returns `more` with the bytes needed when `head` is too short, and
 * undefined when the pack is damaged, of another format, or not the pack `seq` names.
 */
export function readPackTable(
  head: Uint8Array,
  fileSize: number,
  seq: number,
): PackEntry[] | { more: number } | undefined {
  if (head.length < HEADER || fileSize < HEADER) return undefined;
  for (let i = 0; i < PACK_MAGIC.length; i++) if (head[i] !== PACK_MAGIC[i]) return undefined;
  const view = new DataView(head.buffer, head.byteOffset, head.length);
  if (view.getUint32(8, true) !== PACK_FORMAT || view.getUint32(12, true) !== seq) return undefined;
  const count = view.getUint32(16, true);
  const tableLength = view.getUint32(20, true);
  const dataLength = view.getUint32(24, true);
  if (HEADER + tableLength + dataLength !== fileSize) return undefined;
  if (head.length < HEADER + tableLength) return { more: HEADER + tableLength };
  const table = head.subarray(HEADER, HEADER + tableLength);
  if (headCrc(head, table) !== view.getUint32(28, true)) return undefined;
  const entries: PackEntry[] = [];
  let at = 0;
  let data = HEADER + tableLength;
  for (let n = 0; n < count; n++) {
    if (at + 7 > tableLength) return undefined;
    const op = table[at];
    const keyLength = view.getUint16(HEADER + at + 1, true);
    if (at + 7 + keyLength > tableLength) return undefined;
    const key = String.fromCharCode(...table.subarray(at + 3, at + 3 + keyLength));
    const length = view.getUint32(HEADER + at + 3 + keyLength, true);
    at += 7 + keyLength;
    if (op === OP_SET) {
      if (data + length > fileSize) return undefined;
      entries.push({ key, offset: data, length });
      data += length;
    } else if (op === OP_DELETE && length === 0) entries.push({ key });
    else return undefined;
  }
  return at === tableLength && data === fileSize ? entries : undefined;
}
