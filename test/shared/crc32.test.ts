/** The one CRC-32 of the sealed values and the pack files: the standard check value, and continuation. */
import { describe, expect, it } from "vitest";
import { crc32 } from "../../src/shared/crc32.ts";
import { mulberry32 } from "../../src/shared/rng.ts";

/** A byte at a time, from the polynomial: what every CRC-32 (IEEE) must agree with. */
function reference(bytes: Uint8Array): number {
  let c = -1;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return (c ^ -1) >>> 0;
}

describe("crc32", () => {
  it("gives CRC-32's check value for '123456789'", () => {
    expect(crc32(new TextEncoder().encode("123456789"))).toBe(0xcbf43926);
  });

  it("agrees with the bitwise CRC on every length and offset, and continues over a split", () => {
    const rand = mulberry32(27);
    const all = Uint8Array.from({ length: 300 }, () => Math.floor(rand() * 256));
    for (let n = 0; n < 70; n++) {
      const bytes = all.subarray(n % 5, (n % 5) + n * 3);
      expect(crc32(bytes)).toBe(reference(bytes));
      const cut = Math.floor(rand() * (bytes.length + 1));
      const head = bytes.subarray(0, cut);
      const tail = bytes.subarray(cut);
      expect(crc32(tail, tail.length, crc32(head))).toBe(reference(bytes));
    }
  });
});
