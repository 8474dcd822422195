/** The graph's memos are caches that start over at their limit instead of growing past what V8 allows a Map. */
import { describe, expect, it } from "vitest";
import { BoundedMap, emptyMemos, MEMO_LIMIT } from "../../src/core/graph/context.ts";

describe("BoundedMap", () => {
  it("keeps entries up to its limit, then forgets them all and keeps the new one", () => {
    const m = new BoundedMap<string, number>(3);
    m.set("a", 1).set("b", 2).set("c", 3);
    expect([...m]).toEqual([["a", 1], ["b", 2], ["c", 3]]);
    m.set("b", 20); // an existing key is updated, nothing forgotten
    expect(m.size).toBe(3);
    expect(m.get("b")).toBe(20);
    m.set("d", 4);
    expect([...m]).toEqual([["d", 4]]);
  });

  it("bounds every memo of the graph below V8's 2^24 entries", () => {
    expect(MEMO_LIMIT).toBeLessThan(1 << 24);
    const { starExports: _table, ...memos } = emptyMemos(); // (a name table, not a memo: one entry per name)
    for (const memo of Object.values(memos)) expect(memo).toBeInstanceOf(BoundedMap);
  });
});
