// The seal's CRC-32, eight bytes a step: equal to the bit-at-a-time definition for every length
// and alignment (a subarray that starts mid-buffer, a length short of the array), and the
// standard check value; a sealed value round-trips and a flipped byte is refused.
import { describe, expect, it } from "vitest";
import * as zlib from "node:zlib";
import { crc32, seal, sealText, unseal } from "../../src/core/engine/seal.ts";
import { tableCrc32, useHostCrc32 } from "../../src/shared/crc32.ts";
import { createNodePlatform } from "../../src/platform/node/index.ts";

/** CRC-32 (IEEE, reflected, polynomial 0xEDB88320) a bit at a time: the definition, no tables. */
function reference(bytes: Uint8Array, length = bytes.length): number {
  let c = 0xffffffff;
  for (let i = 0; i < length; i++) {
    c ^= bytes[i]!;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}

/** Bytes from a fixed linear congruential sequence (the same every run). */
function bytesOf(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

describe("crc32", () => {
  it("gives the standard check value and 0 for nothing", () => {
    expect(crc32(new TextEncoder().encode("123456789"))).toBe(0xcbf43926);
    expect(crc32(new Uint8Array(0))).toBe(0);
  });

  it("equals the bit-at-a-time definition at every length, offset and cut", () => {
    const buffer = bytesOf(300, 7);
    for (let offset = 0; offset < 9; offset++)
      for (let n = 0; n <= 70; n++) {
        const view = buffer.subarray(offset, offset + n);
        expect(crc32(view), `offset ${offset}, length ${n}`).toBe(reference(view));
        const cut = n >> 1;
        expect(crc32(view, cut), `offset ${offset}, length ${n}, first ${cut}`).toBe(reference(view, cut));
      }
    const large = bytesOf(100_003, 11);
    expect(crc32(large)).toBe(reference(large));
  });

  it("with the Node platform's native CRC installed, equals the table loop at every length, cut and start", async () => {
    const platform = await createNodePlatform({ root: process.cwd() });
    expect(platform.crc32).toBe(typeof zlib.crc32 === "function" ? platform.crc32 : undefined);
    if (!platform.crc32) return; // a Node before 20.15: the table loop alone
    useHostCrc32(platform.crc32);
    const buffer = bytesOf(4_000, 5);
    for (let offset = 0; offset < 9; offset++)
      for (const n of [0, 1, 255, 256, 257, 1_000, 3_990]) {
        const view = buffer.subarray(offset, offset + n);
        expect(crc32(view), `offset ${offset}, length ${n}`).toBe(reference(view));
        expect(crc32(view, n >> 1, 0x1234), `offset ${offset}, first ${n >> 1}, after`).toBe(
          tableCrc32(view, n >> 1, 0x1234),
        );
      }
    expect(crc32(buffer, 3_000, crc32(buffer.subarray(3_000)))).toBe(
      tableCrc32(buffer, 3_000, tableCrc32(buffer.subarray(3_000))),
    );
  });

  it("seals a value that unseals whole, and refuses one byte flipped", () => {
    const value = bytesOf(1_000, 3);
    const sealed = seal(value);
    expect(unseal(sealed)).toEqual(value);
    sealed[500]! ^= 1;
    expect(unseal(sealed)).toBeUndefined();
  });
});

describe("sealText", () => {
  it("equals sealing the text's UTF-8, for every kind of character and size", () => {
    const encoder = new TextEncoder();
    const texts = [
      "",
      '{"name":"plain ascii"}',
      "é, 中文, emoji 😀, a lone surrogate \ud800 and \udfff",
      "x".repeat(70_000),
      "😀".repeat(400_000), // past the scratch buffer's limit: encoded on its own
    ];
    // (Buffer.equals: vitest's toEqual walks a 1.6 MB array element by element for half a minute.)
    const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));
    for (const text of texts) expect(same(sealText(text), seal(encoder.encode(text))), text.slice(0, 30)).toBe(true);
    // One after another (the scratch buffer is reused): a short text after a long one is still whole.
    expect(sealText("ab")).toEqual(seal(encoder.encode("ab")));
  });
});
