/**
 * Paged graph answers over a generated project with 1,100 call sites of one function (600 in
 * production code, 500 in tests): totals always stated, production first, tests counted by file,
 * every page within the budget, and the cursor each page names walks the whole list once. Then
 * what an answer says it could not see: unlinked call sites, files with syntax errors, languages
 * whose calls are not extracted, overriding methods.
 */
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import type { CallsPage, Engine } from "../../src/index.ts";
import { busyProject } from "../support/busy-project.ts";
import { memoryEngine, parseFixture } from "../support/platform.ts";

async function allPages(
  engine: Engine,
  first: CallsPage,
  ask: (cursor: string) => Promise<CallsPage>,
): Promise<CallsPage[]> {
  const pages = [first];
  while (pages.at(-1)!.page.next) pages.push(await ask(pages.at(-1)!.page.next!));
  return pages;
}

describe("paged callers", () => {
  const { engine } = memoryEngine(busyProject());

  it("a default answer is one page under 4,000 tokens: totals, production first, tests counted by file", async () => {
    const a = await engine.callers("shared");
    expect(a.total).toEqual({ results: 1100, external: 0, possible: 0 });
    expect(a.testCode).toMatchObject({ results: 500, entries: 500, fileCount: 25 });
    expect(a.page).toMatchObject({
      tests: "summary",
      matching: 600,
      offset: 0,
      shown: a.results.length,
      next: expect.stringMatching(new RegExp(`^${a.results.length}\\.summary\\.1\\.v`)),
    });
    expect(a.results.length).toBeGreaterThan(20);
    expect(a.results.every((r) => r.site.path.startsWith("pkg"))).toBe(true);
    expect(countTokens(a.text)).toBe(a.usage.tokens);
    expect(a.usage.tokens).toBeLessThanOrEqual(4000);
    expect(a.text).toContain("1,100 resolved call sites: 600 in production code, 500 in test code");
    expect(a.text).toContain("tests=only");
    expect(a.text).toContain(`cursor=${a.page.next}`);
  });

  it("the cursor walks every production call site once, each page within its budget", async () => {
    const first = await engine.callers("shared", { budget: 2500 });
    const pages = await allPages(engine, first, (cursor) => engine.callers("shared", { cursor, budget: 2500 }));
    const sites = pages.flatMap((p) => p.results.map((r) => `${r.site.path}:${r.site.line}`));
    expect(sites).toHaveLength(600);
    expect(new Set(sites).size).toBe(600);
    for (const p of pages) expect(p.usage.tokens).toBeLessThanOrEqual(2500);
    expect(pages.at(-1)!.text).toMatch(/Last page: call sites \d+-600 of 600/);
  });

  it("tests=only lists the tests with their runnable ids; include lists production first; exclude counts none", async () => {
    const only = await engine.callers("shared", { tests: "only", limit: 10 });
    expect(only.page).toMatchObject({
      tests: "only",
      matching: 500,
      shown: 10,
      next: expect.stringMatching(/^10\.only\.1\.v/),
    });
    expect(only.results[0]!.test).toMatch(/^tests\/test_m\d+\.py::test_shared_\d+_\d+$/);
    const include = await engine.callers("shared", { tests: "include", limit: 1000, budget: 200_000 });
    expect(include.results).toHaveLength(1000);
    expect(include.results.findIndex((r) => r.site.path.startsWith("tests/"))).toBe(600);
    const exclude = await engine.callers("shared", { tests: "exclude", limit: 5 });
    expect(exclude.page.matching).toBe(600);
    expect(exclude.text).not.toContain("tests=only");
  });

  it("the budget covers the JSON too when asked (an MCP client may read either)", async () => {
    const a = await engine.callers("shared", { json: true, budget: 3000 });
    expect(countTokens(JSON.stringify({ ...a, text: undefined }))).toBeLessThanOrEqual(3000);
    expect(a.usage.tokens).toBeLessThanOrEqual(3000);
  });

  it("refuses cursors it did not make, or that contradict the filter, with codes", async () => {
    await expect(engine.callers("shared", { cursor: "next please" })).rejects.toMatchObject({
      code: "invalid_argument",
    });
    await expect(engine.callers("shared", { cursor: "50.summary.1", tests: "only" })).rejects.toMatchObject({
      code: "invalid_argument",
      data: { tests: "only" },
    });
    await expect(engine.callers("shared", { cursor: "50.summary.1", depth: 2 })).rejects.toMatchObject({
      code: "invalid_argument",
    });
    await expect(engine.callers("shared", { limit: 0 })).rejects.toMatchObject({ code: "invalid_argument" });
    await expect(engine.callers("shared", { budget: 20 })).rejects.toMatchObject({ code: "budget_too_small" });
  });

  it("a cursor past the end (the list shrank since) says so and how to start again", async () => {
    const a = await engine.callers("shared", { cursor: "5000.summary.1" });
    expect(a.results).toEqual([]);
    expect(a.page).toMatchObject({ offset: 5000, shown: 0 });
    expect(a.page.next).toBeUndefined();
    expect(a.text).toMatch(/past the end: there are 600 entries[^\n]*ask again without a cursor/);
    expect(a.text).not.toMatch(/Last page/);
  });

  it("importers page the same way", async () => {
    const a = await engine.importers("core/util.py", { limit: 7 });
    expect(a).toMatchObject({
      total: 55,
      page: { matching: 30, shown: 7, next: expect.stringMatching(/^7\.summary\.1\.v/) },
      testCode: { entries: 25 },
    });
    const next = await engine.importers("core/util.py", { cursor: a.page.next! });
    expect(next.results[0]!.path).not.toBe(a.results[0]!.path);
  });
});

/** Each case: a fixture, the query, and what its completeness must say. */
const GAPS: {
  name: string;
  fixture: string;
  ask: (e: Engine) => Promise<{ text: string; completeness: { notes: string[] } & Record<string, unknown> }>;
  expect: Record<string, unknown>;
  text: RegExp;
}[] = [
  {
    name: "call sites naming it that are linked to nothing",
    fixture: `
      //- core/__init__.py
      //- core/util.py
      def shared(x):
          return x
      //- core/other.py
      def unrelated():
          return 1
      //- app.py
      from core import other

      def main():
          return other.shared(1)
    `,
    ask: (e) => e.callers("core.util.shared"),
    expect: { unlinked: { count: 1, files: [{ path: "app.py", count: 1 }] } },
    text: /1 call site names `shared` but is linked to no definition/,
  },
  {
    name: "files with syntax errors",
    fixture: `
      //- a.py
      def helper():
          return 1
      //- b.py
      def broken(:
          return helper(
    `,
    ask: (e) => e.callers("helper"),
    expect: { parseErrors: { count: 1, files: [{ path: "b.py", count: expect.any(Number) }] } },
    text: /1 file has syntax errors, read only in part: b\.py/,
  },
  {
    name: "overriding methods reached by dynamic dispatch",
    fixture: `
      //- shapes.py
      class Shape:
          def area(self):
              return 0

      class Square(Shape):
          def area(self):
              return 4

      def total(shape: Shape):
          return shape.area()
    `,
    ask: (e) => e.callers("Square.area"),
    expect: {
      dispatch: [
        { symbol: expect.objectContaining({ qualified: "shapes.Shape.area" }), relation: "overrides", sites: 1 },
      ],
    },
    text: /it overrides shapes\.Shape\.area: its 1 resolved call site may run this method/,
  },
];

describe("what an answer could not see", () => {
  for (const c of GAPS) {
    it(c.name, async () => {
      const { engine } = memoryEngine(parseFixture(c.fixture));
      const a = await c.ask(engine);
      expect(a.completeness).toMatchObject(c.expect);
      expect(a.text).toMatch(c.text);
      expect(a.text).toMatch(/Not seen/);
    });
  }

  it("says so when nothing was missed", async () => {
    const { engine } = memoryEngine(parseFixture("//- a.py\ndef f():\n    return 1\n\ndef g():\n    return f()\n"));
    const a = await engine.callers("f");
    expect(a.completeness.notes).toEqual([]);
    expect(a.text).toMatch(/Seen in full/);
  });
});
