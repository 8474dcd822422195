/**
 * One hostile file never takes the index down (issue 22, item 1): syntax errors thousands of
 * blocks deep, brackets nested past the limit, and a shape that overflows tree-sitter's wasm stack.
 * The other files of the project always index, and a deep file keeps what lies outside its deep
 * expression. Real grammars and wasm on the memory platform.
 */
import { describe, expect, it } from "vitest";
import { memoryEngine } from "../support/platform.ts";
import { blankDeeperThan } from "../../src/shared/skip-rules.ts";

const OTHER = { "z_other.py": "def keep_me():\n    return 1\n" };

/** `depth` nested conditionals in `lang` with one syntax error at the bottom. */
function nestedIfsWithError(lang: "ts" | "kt" | "rb", depth: number): string {
  if (lang === "ts") return `function top() {\n${"if (x) {\n".repeat(depth)}let = ;\n${"}\n".repeat(depth)}}\n`;
  if (lang === "kt") return `fun top() {\n${"if (x) {\n".repeat(depth)}val = ;\n${"}\n".repeat(depth)}}\n`;
  return `def top\n${"if x\n".repeat(depth)}x = = 1\n${"end\n".repeat(depth)}end\n`;
}

describe("one file never aborts the index", () => {
  for (const lang of ["ts", "kt", "rb"] as const) {
    it(`3,700 nested blocks with a syntax error (${lang}): the file is indexed with its error, the others too`, async () => {
      const { engine } = memoryEngine({ [`deep.${lang}`]: nestedIfsWithError(lang, 3700), ...OTHER });
      const summary = await engine.index();
      const records = await engine.records();
      expect(records.map((r) => r.path).sort()).toEqual([`deep.${lang}`, "z_other.py"]);
      const deep = records.find((r) => r.path === `deep.${lang}`)!;
      expect(deep.definitions.map((d) => d.name)).toContain("top");
      expect(deep.diagnostics.length).toBeGreaterThan(0);
      expect(summary.skipped).toEqual([]);
    }, 60_000);
  }

  it("brackets 10,000 deep: the definitions before and after the deep expression are kept", async () => {
    const text = `export function before(): number {\n  return 1;\n}\nconst deep = ${"[[[[[[[[[[\n".repeat(1000)}1${"]]]]]]]]]]\n".repeat(1000)};\nexport function after(): number {\n  return 2;\n}\n`;
    const { engine } = memoryEngine({ "deep.ts": text, ...OTHER });
    const summary = await engine.index();
    expect(summary.skipped).toEqual([]);
    const records = await engine.records();
    const deep = records.find((r) => r.path === "deep.ts")!;
    expect(deep.definitions.map((d) => [d.name, d.start])).toEqual([
      ["before", 1],
      ["after", 2005],
    ]);
    expect(records.find((r) => r.path === "z_other.py")!.definitions.map((d) => d.name)).toEqual(["keep_me"]);
  }, 60_000);

  it("a shape that overflows tree-sitter's wasm stack ({a: after a call, 3,000 deep): the instance is renewed, the file keeps what precedes it, later files parse", async () => {
    const crash = `export function before(): number {\n  return 1;\n}\nexport function f(written: string) {\n  const path = g(written)${"{a:".repeat(3000)}\n  return path;\n}\n`;
    const { engine } = memoryEngine({
      "a_crash.ts": crash,
      "b_ok.ts": "export function after(x: number): number {\n  return x + 1;\n}\n",
      ...OTHER,
    });
    const summary = await engine.index();
    const records = await engine.records();
    expect(records.map((r) => r.path).sort()).toEqual(["a_crash.ts", "b_ok.ts", "z_other.py"]);
    expect(records.find((r) => r.path === "a_crash.ts")!.definitions.map((d) => d.name)).toEqual(["before"]);
    expect(records.find((r) => r.path === "b_ok.ts")!.definitions.map((d) => d.name)).toEqual(["after"]);
    expect(summary.skipped).toEqual([]);
    // A second engine in the same process parses in the renewed instance too.
    const second = memoryEngine({ "c.ts": "export function later(): void {}\n" }).engine;
    expect((await second.records())[0]!.definitions.map((d) => d.name)).toEqual(["later"]);
  }, 60_000);

  it("blankDeeperThan keeps offsets and line breaks and blanks only what nests past the limit", () => {
    const text = "a(b(c(\nd)))e[[[x]]]";
    const out = blankDeeperThan(text, 2);
    expect(out).toHaveLength(text.length);
    expect(out).toBe("a(b(c \n  ))e[[0  ]]"); // a call keeps a space, an expression start gets 0
    expect(blankDeeperThan("(())", 2)).toBe("(())");
  });
});
