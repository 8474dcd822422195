/**
 * Every value the engine stores is sealed: its bytes, then a 12-byte trailer of a magic word, the
 * length and a CRC-32. A value that was truncated, flipped, emptied, replaced or half-written
 * (a reload in the middle of an OPFS write leaves a 0-byte file) fails `unseal` and is treated as
 * absent, so the file it came from is parsed again instead of poisoning every later answer.
 */

import { crc32 } from "../../shared/crc32.ts";

const MAGIC = 0x31534353; // "SCS1" read as a little-endian word
const TRAILER = 12;

/** CRC-32 (IEEE), shared with the pack files of the stores (`src/shared/crc32.ts`). */
export { crc32 };

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
