/** grep: the regex battery (catastrophic patterns, invalid ones with their column, binary files, 100k matches, paths outside the root), path filters and enclosing symbols. */
import { describe, expect, it } from "vitest";
import { compileGlobs, compilePattern, grepText } from "../../src/core/grep/grep.ts";
import { errorOf, memoryEngine } from "../support/platform.ts";

const PROJECT = `
//- app/models.py
class Cart:
    def total(self):
        # TODO: taxes
        return sum(i.price for i in self.items)

def helper():
    return "todo later"
//- docs/notes.md
# Notes

TODO: write the deploy guide.
//- vendor/lib.py
# TODO vendored
`;

describe("grep over the project", () => {
  it("lists 1-based path:line:column hits with the line and the enclosing definition", async () => {
    const { engine } = memoryEngine(PROJECT);
    const a = await engine.grep("TODO");
    expect(a.hits.map((h) => [h.path, h.line, h.column, h.symbol])).toEqual([
      ["app/models.py", 3, 11, "app.models.Cart.total"],
      ["docs/notes.md", 3, 1, undefined],
      ["vendor/lib.py", 1, 3, undefined],
    ]);
    expect(a.hits[0]!.text).toBe("        # TODO: taxes");
    expect(a.text).toContain("app/models.py:3:11 [method app.models.Cart.total]");
    expect(a).toMatchObject({ files: 3, filesMatched: 3 });
    expect(a.stopped).toBeUndefined();
  });

  it("filters paths by globs, with !glob leaving paths out, and matches without case when asked", async () => {
    const { engine } = memoryEngine(PROJECT);
    expect(
      (await engine.grep("todo", { ignoreCase: true, paths: ["*.py", "!vendor/"] })).hits.map(
        (h) => `${h.path}:${h.line}`,
      ),
    ).toEqual(["app/models.py:3", "app/models.py:7"]);
    expect((await engine.grep("TODO", { paths: ["docs/**/*.md"] })).hits.map((h) => h.path)).toEqual(["docs/notes.md"]);
  });

  it("refuses path filters outside the root", async () => {
    const { engine } = memoryEngine(PROJECT);
    for (const glob of ["../secrets/*", "/etc/passwd", "app/../../x"]) {
      const e = await errorOf(engine.grep("x", { paths: [glob] }));
      expect(e.code, glob).toBe("outside_root");
      expect(e.data).toMatchObject({ target: glob });
    }
  });

  it("refuses invalid patterns with the column of the error", async () => {
    const { engine } = memoryEngine(PROJECT);
    const cases: [string, number][] = [
      ["a(b", 2],
      ["abc)", 4],
      ["x[a-", 2],
      ["a**", 2],
      ["foo\\", 4],
      ["(?<=x)y", 1],
      ["a{2,1}", 2],
    ];
    for (const [pattern, column] of cases) {
      const e = await errorOf(engine.grep(pattern));
      expect(e.code, pattern).toBe("invalid_pattern");
      expect(e.data, pattern).toMatchObject({ pattern, column });
      expect(e.hint, pattern).toBeTruthy();
    }
    expect((await errorOf(engine.grep(""))).code).toBe("invalid_pattern");
  });

  it("passes over binary files and counts them", async () => {
    const binary = new Uint8Array([0x54, 0x4f, 0x44, 0x4f, 0x00, 0x01, 0x02]); // "TODO\0…"
    const { engine } = memoryEngine({ "a.py": "x = 1  # TODO\n", "blob.bin2": binary });
    const a = await engine.grep("TODO");
    expect(a.hits.map((h) => h.path)).toEqual(["a.py"]);
    expect(a.skipped.binary).toBe(1);
  });

  it("answers catastrophic patterns in linear time", async () => {
    const { engine } = memoryEngine({
      "evil.txt": `${"a".repeat(100_000)}b\n`,
      "x.py": `s = "${"x".repeat(50_000)}"\n`,
    });
    const started = Date.now();
    for (const pattern of ["(a+)+$", "(a|aa)+$", "(x+x+)+y", "(a*)*c"]) {
      const a = await engine.grep(pattern, { timeMs: 60_000 });
      expect(a.hits, pattern).toEqual([]);
      expect(a.stopped, pattern).toBeUndefined();
    }
    // A backtracking engine needs longer than the age of the universe for the first one; RE2 needs milliseconds.
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it("stops at the match limit on 100,000 matching lines and says more exist", async () => {
    const { engine } = memoryEngine({ "many.txt": "hit\n".repeat(100_000), "z.py": "hit = 1\n" });
    const a = await engine.grep("hit");
    expect(a.hits.length).toBe(200);
    expect(a.stopped).toBe("matches");
    expect(a.text).toMatch(/200\+ matching lines/);
    expect(a.text).toContain("more exist");
    expect(a.usage.tokens).toBeLessThanOrEqual(a.usage.budget);
    const small = await engine.grep("hit", { maxMatches: 10_000, budget: 500 });
    expect(small.hits.length).toBe(10_000);
    expect(small.usage.tokens).toBeLessThanOrEqual(500);
    expect(small.listed).toBeLessThan(10_000);
    expect(small.text).toMatch(/more matching lines not shown \(budget\)/);
  });

  it("sees an edit on the next grep (texts are kept only while their stat is the snapshot's)", async () => {
    const { engine, platform } = memoryEngine(PROJECT);
    expect((await engine.grep("taxes")).hits.map((h) => h.line)).toEqual([3]);
    platform.fs.write("app/models.py", "# taxes first\nclass Cart:\n    pass\n");
    await engine.refresh();
    const a = await engine.grep("taxes");
    expect(a.hits.map((h) => [h.path, h.line, h.text])).toEqual([["app/models.py", 1, "# taxes first"]]);
  });

  it("matches literals and alternations of literals as RE2 does (a faster path for them)", async () => {
    const { engine } = memoryEngine(PROJECT);
    // The same lines as the same alternation forced through RE2 by a group.
    const lines = async (pattern: string, ignoreCase = false) =>
      (await engine.grep(pattern, { ignoreCase })).hits.map((h) => `${h.path}:${h.line}:${h.column}`);
    expect(await lines("taxes|later")).toEqual(await lines("(taxes|later)"));
    expect(await lines("TODO|todo")).toEqual(await lines("(TODO|todo)"));
    expect(await lines("todo", true)).toEqual(await lines("(todo)", true));
    expect(await lines("sum\\(i\\.price")).toEqual(["app/models.py:4:16"]);
  });

  it("checks its bounds", async () => {
    const { engine } = memoryEngine(PROJECT);
    expect((await errorOf(engine.grep("x", { maxMatches: 0 }))).code).toBe("invalid_argument");
    expect((await errorOf(engine.grep("x", { timeMs: 10_000_000 }))).code).toBe("invalid_argument");
    expect((await errorOf(engine.grep("x".repeat(1001)))).code).toBe("invalid_argument");
  });
});

describe("the matcher", () => {
  it("stops between slices when the deadline passes, keeping what it found", () => {
    const text = "line hit\n".repeat(20_000); // ~180 KB: three slices
    let calls = 0;
    const r = grepText(text, compilePattern("hit"), 1_000_000, () => ++calls > 1);
    expect(r.stopped).toBe(true);
    expect(r.hits.length).toBeGreaterThan(0);
    expect(r.hits.length).toBeLessThan(20_000);
    expect(r.hits.at(-1)!.line).toBe(r.hits.length);
  });

  it("reports one hit per line, at the first match, with lines across slices counted right", () => {
    const text = "a\n".repeat(70_000) + "x x\n";
    expect(grepText(text, compilePattern("x"), 10, () => false).hits).toEqual([
      { line: 70_001, column: 1, text: "x x" },
    ]);
  });

  it("reads globs as .gitignore does: a bare name at any depth, a folder with what is under it", () => {
    const f = compileGlobs(["*.md", "src/", "lib/**/x?.{ts,js}"]);
    expect(["README.md", "docs/a/b.md", "src/z.py", "lib/x1.ts", "lib/a/b/xy.js"].every((p) => f.test(p))).toBe(true);
    expect(["README.mdx", "srcs/z.py", "lib/x12.ts", "app/src.py"].some((p) => f.test(p))).toBe(false);
  });
});
