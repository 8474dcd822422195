/**
 * Every value the engine stores is sealed: its bytes, then a 12-byte trailer of a magic word, the
 * length and a CRC-32. A value that was truncated, flipped, emptied, replaced or half-written
 * (a reload in the middle of an OPFS write leaves a 0-byte file) fails `unseal` and is treated as
 * absent, so the file it came from is parsed again instead of poisoning every later answer.
 */

const MAGIC = 0x31534353; // "SCS1" read as a little-endian word
const TRAILER = 12;

/**
 * CRC-32 tables for eight bytes a step ("slicing by 8"): TABLES[k][n] is the CRC of byte n followed
 * by k zero bytes. A byte a step cost 0.2 of the 0.65 s stored bytes took in a cold django index
 * (CPU profile); eight a step ran 3.7× faster on 20 MB (60 → 16 ms).
 */
const TABLES = (() => {
  const first = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    first[n] = c;
  }
  const tables = [first];
  for (let k = 1; k < 8; k++) {
    const before = tables[k - 1]!;
    const t = new Int32Array(256);
    for (let n = 0; n < 256; n++) t[n] = (before[n]! >>> 8) ^ first[before[n]! & 0xff]!;
    tables.push(t);
  }
  return tables;
})();
const [T0, T1, T2, T3, T4, T5, T6, T7] = TABLES as [
  Int32Array,
  Int32Array,
  Int32Array,
  Int32Array,
  Int32Array,
  Int32Array,
  Int32Array,
  Int32Array,
];

/** CRC-32 (IEEE) of `bytes[0, length)`. */
export function crc32(bytes: Uint8Array, length = bytes.length): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let c = -1;
  let i = 0;
  for (const end = length - 7; i < end; i += 8) {
    const lo = c ^ view.getInt32(i, true);
    const hi = view.getInt32(i + 4, true);
    c =
      T7[lo & 0xff]! ^
      T6[(lo >>> 8) & 0xff]! ^
      T5[(lo >>> 16) & 0xff]! ^
      T4[lo >>> 24]! ^
      T3[hi & 0xff]! ^
      T2[(hi >>> 8) & 0xff]! ^
      T1[(hi >>> 16) & 0xff]! ^
      T0[hi >>> 24]!;
  }
  for (; i < length; i++) c = T0[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}

/** `bytes` with the trailer appended. */
export function seal(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length + TRAILER);
  out.set(bytes);
  writeTrailer(out, bytes.length);
  return out;
}

/** Writes the trailer of `out[0, length)` into `out[length, length + TRAILER)`. */
function writeTrailer(out: Uint8Array, length: number): void {
  const view = new DataView(out.buffer, out.byteOffset + length, TRAILER);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, length, true);
  view.setUint32(8, crc32(out, length), true);
}

const encoder = new TextEncoder();
/** Texts longer than this (in UTF-16 units) are encoded on their own rather than in `scratch`. */
const SCRATCH_LIMIT = 1 << 20;
/** Room for the UTF-8 of any text up to SCRATCH_LIMIT units (3 bytes a unit at most). */
let scratch: Uint8Array | undefined;

/**
 * The UTF-8 of `text`, sealed: what `seal(encode(text))` gives, with one buffer made instead of
 * two (the text is encoded into a scratch buffer kept for the process, then copied once beside
 * its trailer). Every record a cold index stores is made this way.
 */
export function sealText(text: string): Uint8Array {
  if (text.length > SCRATCH_LIMIT) return seal(encoder.encode(text));
  scratch ??= new Uint8Array(SCRATCH_LIMIT * 3);
  const { written } = encoder.encodeInto(text, scratch);
  const out = new Uint8Array(written + TRAILER);
  out.set(scratch.subarray(0, written));
  writeTrailer(out, written);
  return out;
}

/** The sealed bytes without their trailer, or undefined when the trailer does not vouch for them. */
export function unseal(sealed: Uint8Array | undefined): Uint8Array | undefined {
  if (!sealed || sealed.length < TRAILER) return undefined;
  const length = sealed.length - TRAILER;
  const view = new DataView(sealed.buffer, sealed.byteOffset + length, TRAILER);
  if (view.getUint32(0, true) !== MAGIC || view.getUint32(4, true) !== length) return undefined;
  if (view.getUint32(8, true) !== crc32(sealed, length)) return undefined;
  return sealed.subarray(0, length);
}

/**
 * The sealed bytes without their trailer when the trailer's magic word and length match, without
 * recomputing the CRC: for bytes that never left the process (a parse worker's reply).
 */
export function sealedContent(sealed: Uint8Array): Uint8Array | undefined {
  if (sealed.length < TRAILER) return undefined;
  const length = sealed.length - TRAILER;
  const view = new DataView(sealed.buffer, sealed.byteOffset + length, TRAILER);
  if (view.getUint32(0, true) !== MAGIC || view.getUint32(4, true) !== length) return undefined;
  return sealed.subarray(0, length);
}
