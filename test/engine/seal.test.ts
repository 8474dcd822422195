/** The seal's CRC-32 (slicing-by-8) against the bit-by-bit definition, and seal/unseal round trips. */
import { describe, expect, it } from "vitest";
import { crc32, seal, unseal } from "../../src/core/engine/seal.ts";
import { rng } from "../fault/fixture.ts";

/** CRC-32 (IEEE, reflected, polynomial 0xEDB88320) one bit at a time: the definition, no tables. */
function bitwiseCrc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}

describe("crc32", () => {
  it("gives the standard check value for '123456789' and 0 for nothing", () => {
    expect(crc32(new TextEncoder().encode("123456789"))).toBe(0xcbf43926);
    expect(crc32(new Uint8Array(0))).toBe(0);
  });

  it("equals the bitwise definition at every length around the 8-byte steps, and on a prefix", () => {
    const rand = rng(27);
    for (let length = 0; length < 80; length++) {
      const bytes = rand.bytes(length);
      expect(crc32(bytes), `length ${length}`).toBe(bitwiseCrc32(bytes));
    }
    const big = rand.bytes(100_003);
    expect(crc32(big)).toBe(bitwiseCrc32(big));
    expect(crc32(big, 77_777)).toBe(bitwiseCrc32(big.subarray(0, 77_777)));
    const offset = big.subarray(5, 40_005); // a view that does not start at its buffer's start
    expect(crc32(offset)).toBe(bitwiseCrc32(offset));
  });

  it("seal and unseal round-trip, and any flipped bit is refused", () => {
    const rand = rng(5);
    const value = rand.bytes(4_000);
    const sealed = seal(value);
    expect(unseal(sealed)).toEqual(value);
    for (let n = 0; n < 50; n++) {
      const damaged = sealed.slice();
      const at = rand.int(damaged.length);
      damaged[at] = damaged[at]! ^ (1 << rand.int(8));
      expect(unseal(damaged), `bit flipped at ${at}`).toBeUndefined();
    }
  });
});
