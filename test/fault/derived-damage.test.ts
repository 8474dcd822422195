/**
 * A damaged derived value (core/engine/derived.ts: the graph's edges and the search index kept in
 * the cache) is never trusted: cut, flipped, emptied, garbage under a good seal, or the value of
 * another tree relabelled with this tree's identity, it reads as absent. The answers equal a
 * clean engine's, nothing throws, and the value is written again (the cache heals).
 */
import { describe, expect, it } from "vitest";
import { createEngine } from "../../src/core/engine/engine.ts";
import { DERIVED_KEY } from "../../src/core/engine/derived.ts";
import { seal, unseal } from "../../src/core/engine/seal.ts";
import { MemoryFileSystem, MemoryStore } from "../../src/platform/memory/index.ts";
import { parseFixture, wasm } from "../support/platform.ts";
import { answersOf, DERIVED_FIXTURE, derivedKept } from "../support/derived.ts";

/** The fixture's derived value, kept by an engine of build "b", and the clean answers. */
async function keptValue(fixture: string): Promise<{ bytes: Uint8Array; answers: string }> {
  const store = new MemoryStore();
  const engine = createEngine({ fs: new MemoryFileSystem(parseFixture(fixture)), store, wasm }, { buildId: "b" });
  const answers = await answersOf(engine);
  const bytes = await derivedKept(store);
  engine.close();
  return { bytes, answers };
}

/** `bytes` with its payload changed by `edit` and sealed again, so only the engine's own checks can refuse it. */
function resealed(bytes: Uint8Array, edit: (inner: Uint8Array) => Uint8Array): Uint8Array {
  return seal(edit(unseal(bytes)!.slice()));
}

const ID_END = 4 + 64; // u32 length + hex SHA-256

describe("a damaged derived value is rebuilt, never trusted", async () => {
  const clean = await keptValue(DERIVED_FIXTURE);
  // Another tree: one more file, so its ids and counts differ from this tree's.
  const other = await keptValue(`${DERIVED_FIXTURE}//- shop/extra.py\ndef extra():\n    return checkout(None, [])\n`);
  const header = (inner: Uint8Array) => new DataView(inner.buffer, inner.byteOffset).getUint32(ID_END, true);
  const cases: [string, (b: Uint8Array) => Uint8Array][] = [
    ["cut in half", (b) => b.slice(0, b.length >> 1)],
    ["one byte flipped", (b) => b.map((x, i) => (i === b.length >> 1 ? x ^ 0x20 : x))],
    ["emptied", () => new Uint8Array(0)],
    ["only its identity left", (b) => b.slice(0, ID_END)],
    [
      "garbage JSON under a good seal",
      (b) => resealed(b, (inner) => inner.map((x, i) => (i > ID_END + 4 && i < ID_END + 40 ? 0x7b : x))),
    ],
    [
      "another tree's value with this tree's identity",
      () =>
        resealed(other.bytes, (inner) => {
          inner.set(unseal(clean.bytes)!.subarray(0, ID_END), 0);
          return inner;
        }),
    ],
    ["search columns cut short under a good seal", (b) => resealed(b, (inner) => inner.slice(0, inner.length - 8))],
    [
      "a posting past the last document under a good seal",
      (b) =>
        resealed(b, (inner) => {
          const view = new DataView(inner.buffer);
          const words = (
            JSON.parse(new TextDecoder().decode(inner.subarray(ID_END + 4, ID_END + 4 + header(inner)))).search
              .words as string[]
          ).length;
          // The first posting: after the header, padded to four bytes, and the offsets column.
          view.setInt32(((ID_END + 4 + header(inner) + 3) & ~3) + 4 * (words + 1), 0x7fffffff, true);
          return inner;
        }),
    ],
    [
      "a header length past the end under a good seal",
      (b) =>
        resealed(b, (inner) => {
          new DataView(inner.buffer).setUint32(ID_END, header(inner) + 1_000_000, true);
          return inner;
        }),
    ],
  ];
  for (const [name, damage] of cases)
    it(`${name}: the same answers as a clean cache, and the value is written again`, async () => {
      const fs = new MemoryFileSystem(parseFixture(DERIVED_FIXTURE));
      const store = new MemoryStore();
      const first = createEngine({ fs, store, wasm }, { buildId: "b" });
      await first.index();
      first.close();
      const damaged = damage(clean.bytes);
      await store.set(DERIVED_KEY, damaged);
      const engine = createEngine({ fs, store, wasm }, { buildId: "b" });
      expect(await answersOf(engine)).toBe(clean.answers);
      // Healed: the engine built the graph and kept its value again.
      const same = (a: Uint8Array | undefined) =>
        a?.length === clean.bytes.length && a.every((x, i) => x === clean.bytes[i]);
      for (let i = 0; i < 200 && !same(await store.get(DERIVED_KEY)); i++) await new Promise((r) => setTimeout(r, 10));
      expect(await store.get(DERIVED_KEY)).toEqual(clean.bytes);
      engine.close();
    });
});
