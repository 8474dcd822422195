/**
 * Git's object database, read-only: loose objects and packs (index v2, offset and reference
 * deltas), through the engine's FileSystem port, so the same code reads a repository on Node,
 * Deno and in a browser. It reads what `changes` needs (a few trees and blobs per answer), not
 * whole histories: a pack is read whole on first use and kept for the life of the store.
 *
 * Nothing in `.git` is trusted: every size an object declares is checked against the caller's
 * limit before anything is inflated or allocated, an inflation stops at the size its header
 * declared, and a delta's ops are checked against the sizes it declares before it is applied.
 */
import { EngineError, isEngineError } from "../../shared/errors.ts";
import type { FileSystem } from "../ports.ts";
import { inflate, InflateLimitError } from "./inflate.ts";

export type ObjectType = "commit" | "tree" | "blob" | "tag";

/** One object's type and content (without git's "type size\0" header). */
export interface GitObject {
  type: ObjectType;
  bytes: Uint8Array;
}

/**
 * Reads objects by id. `read` resolves undefined for an id the repository does not hold, and
 * throws `io_error` with reason `too_large` (and the declared `size`) for an object larger than
 * `maxBytes` (default {@link MAX_OBJECT_BYTES}), without inflating it.
 */
export interface ObjectStore {
  read(oid: string, maxBytes?: number): Promise<GitObject | undefined>;
  /** Full ids that start with `prefix` (4 to 40 hex digits), at most `limit` of them. */
  expand(prefix: string, limit?: number): Promise<string[]>;
}

const TYPES: Record<number, ObjectType> = { 1: "commit", 2: "tree", 3: "blob", 4: "tag" };
const OFS_DELTA = 6;
const REF_DELTA = 7;
const HEX: string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));
const decoder = new TextDecoder();

/**
 * Largest object read when the caller names no limit, and largest delta base: far above any real
 * tree or commit, and small enough that a forged size cannot take the process's memory.
 */
export const MAX_OBJECT_BYTES = 64 * 1024 * 1024;

export function toHex(bytes: Uint8Array, start = 0, end = bytes.length): string {
  let out = "";
  for (let i = start; i < end; i++) out += HEX[bytes[i]!];
  return out;
}

function fromHex(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** A pack's index: ids sorted, with their offsets into the pack. */
interface PackIndex {
  count: number;
  fanout: Uint32Array;
  oids: Uint8Array;
  offsets: Float64Array;
}

function damaged(what: string, why: string): EngineError {
  return new EngineError("io_error", `Unreadable git object data (${what}): ${why}.`, {
    hint: "Run `git fsck` in the repository; `git gc` rewrites damaged packs from good copies.",
    data: { file: what, reason: "damaged_object" },
  });
}

/** The error for an object whose declared size is over the caller's limit (nothing was inflated). */
function tooLarge(what: string, size: number, limit: number): EngineError {
  return new EngineError(
    "io_error",
    `Git object ${what} is ${size.toLocaleString("en-US")} bytes, over the limit of ${limit.toLocaleString("en-US")}.`,
    {
      hint: "Compare smaller files; the object was left unread.",
      data: { file: what, reason: "too_large", size, limit },
    },
  );
}

/** Inflates `data`, which declares `size` bytes: more is stopped at the limit, less or more is damage. */
async function inflateExactly(data: Uint8Array, size: number, what: string): Promise<Uint8Array> {
  let out: Uint8Array;
  try {
    out = await inflate(data, size);
  } catch (error) {
    if (error instanceof InflateLimitError) throw damaged(what, `inflates past the ${size} bytes it declares`);
    throw damaged(what, `cannot inflate (${(error as Error).message})`);
  }
  if (out.length !== size) throw damaged(what, `inflates to ${out.length} bytes, not the ${size} it declares`);
  return out;
}

/** Parses a version-2 pack index (what every git since 1.5.2 writes). */
export function parsePackIndex(bytes: Uint8Array, name: string): PackIndex {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 8 + 1024 || view.getUint32(0) !== 0xff744f63)
    throw damaged(name, "not a version-2 pack index (run `git gc` to rewrite old packs)");
  if (view.getUint32(4) !== 2) throw damaged(name, `pack index version ${view.getUint32(4)}`);
  const fanout = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    fanout[i] = view.getUint32(8 + 4 * i);
    // Every bucket's end is at or past the one before: a lookup's range is trusted from here on.
    if (i > 0 && fanout[i]! < fanout[i - 1]!) throw damaged(name, "fan-out table out of order");
  }
  const count = fanout[255]!;
  const oidsAt = 8 + 1024;
  const offsetsAt = oidsAt + 24 * count; // ids, then one CRC-32 per object
  const largeAt = offsetsAt + 4 * count;
  // 28 bytes an object at least, then the two trailing checksums: a count the file cannot hold is damage.
  if (bytes.length < largeAt + 40) throw damaged(name, "truncated");
  const large = Math.floor((bytes.length - 40 - largeAt) / 8);
  const offsets = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const o = view.getUint32(offsetsAt + 4 * i);
    if (o & 0x80000000) {
      const k = o & 0x7fffffff;
      if (k >= large) throw damaged(name, "large offset past the end of the index");
      const at = largeAt + 8 * k;
      offsets[i] = view.getUint32(at) * 2 ** 32 + view.getUint32(at + 4);
    } else offsets[i] = o;
  }
  return { count, fanout, oids: bytes.subarray(oidsAt, oidsAt + 20 * count), offsets };
}

/** Compares the id at `i` of the index with `key` over the first `n` bytes. */
function compareAt(idx: PackIndex, i: number, key: Uint8Array, n = 20): number {
  const base = 20 * i;
  for (let k = 0; k < n; k++) {
    const d = idx.oids[base + k]! - key[k]!;
    if (d !== 0) return d;
  }
  return 0;
}

/** Position of the first id ≥ key (compared over `n` bytes) within its fan-out bucket. */
function lowerBound(idx: PackIndex, key: Uint8Array, n = 20): number {
  let lo = key[0]! === 0 ? 0 : idx.fanout[key[0]! - 1]!;
  let hi = idx.fanout[key[0]!]!;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareAt(idx, mid, key, n) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A delta's two declared sizes (its base's, its result's) and where its ops start. */
export function deltaHeader(delta: Uint8Array, what: string): { sourceSize: number; targetSize: number; pos: number } {
  let pos = 0;
  const varint = () => {
    let value = 0;
    let shift = 0;
    let c: number;
    do {
      if (pos >= delta.length || shift > 49) throw damaged(what, "delta header is cut or too long");
      c = delta[pos++]!;
      value += (c & 0x7f) * 2 ** shift;
      shift += 7;
    } while (c & 0x80);
    return value;
  };
  const sourceSize = varint();
  const targetSize = varint();
  return { sourceSize, targetSize, pos };
}

/**
 * Walks a delta's ops without writing: a delta whose ops copy past the base size it declares, run
 * past its end, or make another size than the result it declares is damage, found before its base
 * is read or anything is allocated.
 */
export function checkDelta(delta: Uint8Array, what: string): { sourceSize: number; targetSize: number; pos: number } {
  const header = deltaHeader(delta, what);
  const { sourceSize, targetSize } = header;
  let made = 0;
  for (let p = header.pos; p < delta.length; ) {
    const op = delta[p++]!;
    if (op & 0x80) {
      let offset = 0;
      let size = 0;
      for (let b = 0; b < 4; b++) if (op & (1 << b)) offset += (delta[p++] ?? 0) * 2 ** (8 * b);
      for (let b = 0; b < 3; b++) if (op & (16 << b)) size += (delta[p++] ?? 0) * 2 ** (8 * b);
      if (size === 0) size = 0x10000;
      if (p > delta.length || offset + size > sourceSize) throw damaged(what, "delta copies past its base");
      made += size;
    } else if (op > 0) {
      if (p + op > delta.length) throw damaged(what, "delta inserts past its end");
      p += op;
      made += op;
    } else throw damaged(what, "delta opcode 0");
    if (made > targetSize) break;
  }
  if (made !== targetSize)
    throw damaged(
      what,
      `delta declares a result of ${targetSize} bytes; its ops make ${made > targetSize ? "more" : made}`,
    );
  return header;
}

/**
 * Applies a git delta to `base`, checked first ({@link checkDelta}); a result over `maxBytes` is refused as too large.
 */
export function applyDelta(base: Uint8Array, delta: Uint8Array, what: string, maxBytes = MAX_OBJECT_BYTES): Uint8Array {
  const header = checkDelta(delta, what);
  const { sourceSize, targetSize } = header;
  if (sourceSize !== base.length)
    throw damaged(what, `delta expects a base of ${sourceSize} bytes, found ${base.length}`);
  if (targetSize > maxBytes) throw tooLarge(what, targetSize, maxBytes);
  const out = new Uint8Array(targetSize);
  let pos = header.pos;
  let at = 0;
  while (pos < delta.length) {
    const op = delta[pos++]!;
    if (op & 0x80) {
      let offset = 0;
      let size = 0;
      for (let b = 0; b < 4; b++) if (op & (1 << b)) offset += delta[pos++]! * 2 ** (8 * b);
      for (let b = 0; b < 3; b++) if (op & (16 << b)) size += delta[pos++]! * 2 ** (8 * b);
      if (size === 0) size = 0x10000;
      if (offset + size > base.length || at + size > targetSize) throw damaged(what, "delta copies past its base");
      out.set(base.subarray(offset, offset + size), at);
      at += size;
    } else if (op > 0) {
      if (at + op > targetSize || pos + op > delta.length) throw damaged(what, "delta inserts past its target");
      out.set(delta.subarray(pos, pos + op), at);
      pos += op;
      at += op;
    } else throw damaged(what, "delta opcode 0");
  }
  if (at !== targetSize) throw damaged(what, "delta result has the wrong size");
  return out;
}

/**
 * A delta's declared result checked from its first inflated bytes, before the delta is inflated
 * whole: a result over `maxBytes` is too large, and a delta of `size` bytes larger than eight
 * times its result (a copy op is at most 8 bytes and makes at least 1) is damage.
 */
async function checkDeltaPrefix(compressed: Uint8Array, size: number, maxBytes: number, what: string): Promise<void> {
  let head: Uint8Array;
  try {
    head = await inflate(compressed, 20, true);
  } catch (error) {
    throw damaged(what, `cannot inflate (${(error as Error).message})`);
  }
  const { targetSize } = deltaHeader(head.subarray(0, 20), what);
  if (targetSize > maxBytes) {
    // A small delta is read whole first, so one that lies about its result is called damaged, not large.
    if (size <= 64 * 1024) checkDelta(await inflateExactly(compressed, size, what), what);
    throw tooLarge(what, targetSize, maxBytes);
  }
  if (size > 8 * targetSize + 20) throw damaged(what, `a delta of ${size} bytes for a result of ${targetSize}`);
}

interface Pack {
  name: string;
  index: PackIndex;
  data?: Promise<Uint8Array>;
  /** Every entry's offset, ascending: an entry's compressed data ends where the next begins. */
  sorted?: Float64Array;
}

/** How many resolved pack entries are kept (delta bases are shared by many objects). */
const CACHE_ENTRIES = 512;

/** Longest loose-object header ("commit 18446744073709551615" and its NUL). */
const LOOSE_HEADER_BYTES = 32;

/**
 * Reads the loose object `oid` under `gitdir`; undefined when there is no such file. Its header
 * is inflated first: an object declaring more than `maxBytes` is refused before the rest is.
 */
async function readLooseObject(
  fs: FileSystem,
  gitdir: string,
  oid: string,
  maxBytes: number,
): Promise<GitObject | undefined> {
  const path = `${gitdir}/objects/${oid.slice(0, 2)}/${oid.slice(2)}`;
  let raw: Uint8Array;
  try {
    raw = await fs.readFile(path);
  } catch (error) {
    if (isEngineError(error, "not_found", "not_directory")) return undefined;
    throw error;
  }
  let head: Uint8Array;
  try {
    head = await inflate(raw, LOOSE_HEADER_BYTES, true);
  } catch (error) {
    throw damaged(path, `cannot inflate (${(error as Error).message})`);
  }
  const nul = head.subarray(0, LOOSE_HEADER_BYTES).indexOf(0);
  const m =
    nul < 0 ? null : /^(commit|tree|blob|tag) (0|[1-9][0-9]{0,15})$/.exec(decoder.decode(head.subarray(0, nul)));
  if (!m) throw damaged(path, "no object header");
  const size = Number(m[2]);
  if (size > maxBytes) throw tooLarge(path, size, maxBytes);
  const bytes = head.length === nul + 1 + size ? head : await inflateExactly(raw, nul + 1 + size, path);
  return { type: m[1] as ObjectType, bytes: bytes.subarray(nul + 1) };
}

/** Every pack under `gitdir`, by name, with its index read and parsed (the pack data is read on first use). */
async function listPacks(fs: FileSystem, gitdir: string): Promise<Pack[]> {
  let entries;
  try {
    entries = await fs.readDir(`${gitdir}/objects/pack`);
  } catch (error) {
    if (isEngineError(error, "not_found", "not_directory")) return [];
    throw error;
  }
  const names = entries
    .filter((e) => e.kind === "file" && e.name.endsWith(".idx"))
    .map((e) => e.name.slice(0, -4))
    .sort();
  const out: Pack[] = [];
  for (const name of names) {
    const path = `${gitdir}/objects/pack/${name}.idx`;
    out.push({ name, index: parsePackIndex(await fs.readFile(path), path) });
  }
  return out;
}

/** The first pack of `list` whose index holds `oid`, and the object's offset in it. */
function findInPacks(oid: string, list: Pack[]): { pack: Pack; offset: number } | undefined {
  const key = fromHex(oid);
  for (const pack of list) {
    const i = lowerBound(pack.index, key);
    if (i < pack.index.count && compareAt(pack.index, i, key) === 0) return { pack, offset: pack.index.offsets[i]! };
  }
  return undefined;
}

/**
 * Where the pack entry at `offset` ends: at the next entry, or at the trailing checksum of a pack of `length` bytes.
 */
function packEntryEnd(pack: Pack, offset: number, length: number): number {
  if (!pack.sorted) pack.sorted = Float64Array.from(pack.index.offsets).sort();
  const s = pack.sorted;
  let lo = 0;
  let hi = s.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (s[mid]! <= offset) lo = mid + 1;
    else hi = mid;
  }
  return lo < s.length ? s[lo]! : length - 20; // the last entry ends at the trailing checksum
}

/**
 * A pack entry's header: its type number, where its compressed data starts, and for a delta where
 * its base is (an offset back from the entry, or an object id).
 */
function parseEntryHeader(
  data: Uint8Array,
  offset: number,
  what: string,
): { type: number; size: number; pos: number; back?: number; baseOid?: string } {
  let pos = offset;
  const next = () => {
    if (pos >= data.length || pos - offset > 16) throw damaged(what, "entry header is cut or too long");
    return data[pos++]!;
  };
  let c = next();
  const type = (c >> 4) & 7;
  // The inflated size: of the object, or of the delta for a delta entry.
  let size = c & 15;
  for (let shift = 4; c & 0x80; shift += 7) {
    c = next();
    size += (c & 0x7f) * 2 ** shift;
  }
  if (type === OFS_DELTA) {
    c = next();
    let back = c & 0x7f;
    while (c & 0x80) {
      c = next();
      back = (back + 1) * 128 + (c & 0x7f);
    }
    if (back <= 0 || back > offset) throw damaged(what, "delta base offset outside the pack");
    return { type, size, pos, back };
  }
  if (type === REF_DELTA) {
    if (pos + 20 > data.length) throw damaged(what, "entry header is cut");
    return { type, size, pos: pos + 20, baseOid: toHex(data, pos, pos + 20) };
  }
  return { type, size, pos };
}

/**
 * Ids under `gitdir` that start with `prefix`, loose ones and those in the packs `packs` lists (after the loose ones
 * are read), at most `limit` of them, sorted.
 */
async function expandPrefix(
  fs: FileSystem,
  gitdir: string,
  packs: () => Promise<Pack[]>,
  prefix: string,
  limit: number,
): Promise<string[]> {
  const p = prefix.toLowerCase();
  const out = new Set<string>();
  try {
    for (const e of await fs.readDir(`${gitdir}/objects/${p.slice(0, 2)}`)) {
      if (e.kind === "file" && `${p.slice(0, 2)}${e.name}`.startsWith(p)) out.add(`${p.slice(0, 2)}${e.name}`);
    }
  } catch (error) {
    if (!isEngineError(error, "not_found", "not_directory")) throw error;
  }
  // Compare whole bytes with a lower bound, then check the odd nibble by text.
  const whole = fromHex(p.slice(0, p.length & ~1));
  for (const pack of await packs()) {
    for (let i = lowerBound(pack.index, whole, whole.length); i < pack.index.count && out.size <= limit; i++) {
      const hex = toHex(pack.index.oids, 20 * i, 20 * i + 20);
      if (!hex.startsWith(p.slice(0, whole.length * 2))) break;
      if (hex.startsWith(p)) out.add(hex);
    }
  }
  return [...out].sort().slice(0, limit);
}

/** The object store of the git directory `gitdir` (workspace-relative, e.g. ".git"). */
export function createObjectStore(fs: FileSystem, gitdir: string): ObjectStore {
  let packs: Promise<Pack[]> | undefined;
  const cache = new Map<string, GitObject>();
  const remember = (key: string, obj: GitObject) => {
    if (cache.size >= CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
    cache.set(key, obj);
  };
  const getPacks = () =>
    (packs ??= listPacks(fs, gitdir).catch((error) => {
      packs = undefined;
      throw error;
    }));
  const packData = (pack: Pack) => (pack.data ??= fs.readFile(`${gitdir}/objects/pack/${pack.name}.pack`));

  /**
   * The object at `offset` of `pack`, its delta chain resolved (a reference delta's base may be in
   * any pack, or loose). Sizes are checked before inflating: the entry's against `maxBytes` (a
   * delta's against the largest base), then a delta's declared result against `maxBytes`.
   */
  const readPacked = async (pack: Pack, offset: number, maxBytes: number, depth = 0): Promise<GitObject> => {
    const key = `${pack.name}:${offset}`;
    const hit = cache.get(key);
    if (hit) {
      if (hit.bytes.length > maxBytes)
        throw tooLarge(`objects/pack/${pack.name}.pack@${offset}`, hit.bytes.length, maxBytes);
      return hit;
    }
    const what = `objects/pack/${pack.name}.pack@${offset}`;
    if (depth > 10_000) throw damaged(what, "delta chain does not end");
    const data = await packData(pack);
    if (offset >= data.length) throw damaged(what, "offset past the end of the pack");
    const { type, size, pos, back, baseOid } = parseEntryHeader(data, offset, what);
    const isDelta = back !== undefined || baseOid !== undefined;
    if (!isDelta && !TYPES[type]) throw damaged(what, `object type ${type}`);
    if (size > (isDelta ? MAX_OBJECT_BYTES : maxBytes))
      throw tooLarge(what, size, isDelta ? MAX_OBJECT_BYTES : maxBytes);
    const compressed = data.subarray(pos, packEntryEnd(pack, offset, data.length));
    if (isDelta) await checkDeltaPrefix(compressed, size, maxBytes, what);
    const body = await inflateExactly(compressed, size, what);
    let obj: GitObject;
    if (isDelta) {
      const { sourceSize, targetSize } = checkDelta(body, what);
      if (targetSize > maxBytes) throw tooLarge(what, targetSize, maxBytes);
      if (sourceSize > MAX_OBJECT_BYTES) throw damaged(what, `delta base of ${sourceSize} bytes`);
      const base =
        back !== undefined
          ? await readPacked(pack, offset - back, MAX_OBJECT_BYTES, depth + 1)
          : await read(baseOid!, MAX_OBJECT_BYTES, depth + 1);
      if (!base) throw damaged(what, `delta base ${baseOid} is missing`);
      obj = { type: base.type, bytes: applyDelta(base.bytes, body, what, maxBytes) };
    } else obj = { type: TYPES[type]!, bytes: body };
    remember(key, obj);
    return obj;
  };

  const read = async (oid: string, maxBytes = MAX_OBJECT_BYTES, depth = 0): Promise<GitObject | undefined> => {
    if (!/^[0-9a-f]{40}$/.test(oid)) return undefined;
    const cached = cache.get(oid);
    if (cached) {
      if (cached.bytes.length > maxBytes) throw tooLarge(oid, cached.bytes.length, maxBytes);
      return cached;
    }
    let found = findInPacks(oid, await getPacks());
    if (!found) {
      const loose = await readLooseObject(fs, gitdir, oid, maxBytes);
      if (loose) {
        remember(oid, loose);
        return loose;
      }
      // A gc or fetch since the packs were listed: list them again once.
      packs = undefined;
      found = findInPacks(oid, await getPacks());
      if (!found) return undefined;
    }
    return readPacked(found.pack, found.offset, maxBytes, depth);
  };

  return {
    read: (oid, maxBytes) => read(oid, maxBytes),
    expand: (prefix, limit = 10) => expandPrefix(fs, gitdir, getPacks, prefix, limit),
  };
}
