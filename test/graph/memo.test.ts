/** The graph's memos are caches that start over at their limit instead of growing past what V8 allows a Map. */
import { describe, expect, it } from "vitest";
import { BoundedMap, MEMO_LIMIT, PairMemo } from "../../src/core/graph/bounded-memo.ts";
import { emptyMemos } from "../../src/core/graph/memos.ts";

describe("BoundedMap", () => {
  it("keeps entries up to its limit, then forgets them all and keeps the new one", () => {
    const m = new BoundedMap<string, number>(3);
    m.set("a", 1).set("b", 2).set("c", 3);
    expect([...m]).toEqual([
      ["a", 1],
      ["b", 2],
      ["c", 3],
    ]);
    m.set("b", 20); // an existing key is updated, nothing forgotten
    expect(m.size).toBe(3);
    expect(m.get("b")).toBe(20);
    m.set("d", 4);
    expect([...m]).toEqual([["d", 4]]);
  });

  it("bounds every memo of the graph below V8's 2^24 entries", () => {
    expect(MEMO_LIMIT).toBeLessThan(1 << 24);
    const { starExports: _table, exports, ...memos } = emptyMemos(); // (a name table, not a memo: one entry per name)
    for (const memo of Object.values(memos)) expect(memo).toBeInstanceOf(BoundedMap);
    expect(exports).toBeInstanceOf(PairMemo);
  });
});

describe("PairMemo", () => {
  it("keys by a pair without joining it into one string: pairs that would join alike stay apart", () => {
    const m = new PairMemo<string, string, number>();
    m.set("a\0b", "c", 1).set("a", "b\0c", 2);
    expect(m.get("a\0b", "c")).toBe(1);
    expect(m.get("a", "b\0c")).toBe(2);
    expect(m.has("a", "c")).toBe(false);
    expect(m.size).toBe(2);
  });

  it("counts entries across its inner maps, and forgets them all at its limit", () => {
    const m = new PairMemo<string, string, number | null>(3);
    m.set("f", "x", null).set("f", "x", 1); // a cycle guard, then the value: one entry
    m.set("f", "y", 2).set("g", "x", 3);
    expect(m.size).toBe(3);
    m.set("g", "x", 30); // an existing pair is updated, nothing forgotten
    expect(m.get("g", "x")).toBe(30);
    m.set("h", "z", 4);
    expect(m.size).toBe(1);
    expect(m.has("f", "x")).toBe(false);
    expect(m.get("h", "z")).toBe(4);
  });
});
