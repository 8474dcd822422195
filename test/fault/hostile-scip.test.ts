/**
 * SCIP from hostile shapes (issue 22, items 2 and 19): nested definitions are SCIP locals, so the
 * index grows linearly with nesting (each global symbol repeats its ancestors: 169 KB of nested
 * functions wrote 156 MB), and a definition's range covers its name as written, quotes included.
 */
import { describe, expect, it } from "vitest";
import { memoryEngine } from "../support/platform.ts";
import { scipDocuments } from "../support/scip-read.ts";

/** `depth` TypeScript functions with long names, each nested in the previous one. */
function nestedTs(depth: number): string {
  const name = (i: number) => `function_with_a_rather_long_name_${i}`;
  const open = Array.from({ length: depth }, (_, i) => `function ${name(i)}(x: number) { ${name(i)}(x);`);
  return `${open.join("\n")}\nreturn 1;\n${"}\n".repeat(depth)}`;
}

describe("SCIP of nested definitions", () => {
  it("grows linearly with nesting: doubling 400 → 800 nested functions at most ~2.2× the bytes", async () => {
    const sizes: number[] = [];
    for (const depth of [400, 800]) {
      const { engine } = memoryEngine({ "deep.ts": nestedTs(depth) });
      const scip = await engine.scip({ project: "p" });
      sizes.push(scip.bytes);
      expect(scip.definitions).toBe(depth + 1);
    }
    expect(sizes[1]! / sizes[0]!).toBeLessThan(2.2);
    expect(sizes[1]!).toBeLessThan(800 * 400); // ~400 bytes per nested function, whatever the depth
  }, 60_000);

  it("a definition nested in a function is a local; calls to it in the same document name the local", async () => {
    const { engine } = memoryEngine({
      "a.ts":
        "export function outer(): number {\n  function inner(): number {\n    return 1;\n  }\n  return inner();\n}\n",
    });
    const [doc] = scipDocuments((await engine.scip({ project: "p" })).parts);
    const symbols = doc!.occurrences.map((o) => o.symbol);
    expect(symbols).toContain("codeslice . p . `a.ts`/outer().");
    const inner = doc!.occurrences.find((o) => o.range[0] === 1 && o.roles === 1)!;
    expect(inner.symbol).toMatch(/^local \d+$/);
    expect(doc!.occurrences.filter((o) => o.symbol === inner.symbol && o.roles === 0).map((o) => o.range[0])).toEqual([
      4,
    ]);
  }, 60_000);
});

describe("SCIP ranges", () => {
  it("a string-named method's range covers its literal, not the name shifted onto the quote", async () => {
    const text = 'class A {\n  "with space"(): void {}\n  plain(): void {}\n}\n';
    const { engine } = memoryEngine({ "a.ts": text });
    const [doc] = scipDocuments((await engine.scip({ project: "p" })).parts);
    const lines = text.split("\n");
    const names = doc!.occurrences
      .filter((o) => o.roles === 1 && o.range[0]! > 0)
      .map((o) => lines[o.range[0]!]!.slice(o.range[1], o.range[2]));
    expect(names).toEqual(['"with space"', "plain"]);
  }, 60_000);
});
