/**
 * Every value the engine stores is sealed: its bytes, then a 12-byte trailer of a magic word, the
 * length and a CRC-32. A value that was truncated, flipped, emptied, replaced or half-written
 * (a reload in the middle of an OPFS write leaves a 0-byte file) fails `unseal` and is treated as
 * absent, so the file it came from is parsed again instead of poisoning every later answer.
 */

const MAGIC = 0x31534353; // "SCS1" read as a little-endian word
const TRAILER = 12;

const TABLE = (() => {
  const t = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  return t;
})();

/** CRC-32 (IEEE) of `bytes[0, length)`. */
export function crc32(bytes: Uint8Array, length = bytes.length): number {
  let c = -1;
  for (let i = 0; i < length; i++) c = TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}

/** `bytes` with the trailer appended. */
export function seal(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length + TRAILER);
  out.set(bytes);
  const view = new DataView(out.buffer, out.byteOffset + bytes.length, TRAILER);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, bytes.length, true);
  view.setUint32(8, crc32(bytes), true);
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
