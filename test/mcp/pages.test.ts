/**
 * Big answers over MCP, through a real SDK client (which validates every structured result
 * against the tool's output schema): callers of a function with 1,100 call sites answer in one
 * page under 4,000 tokens — text and structured content alike — with the totals, production code
 * first and the cursor of the next page; following the cursors reaches every entry once. The
 * tests and trace tools answer with runnable ids and cited hops.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEngine } from "../../src/core/engine/engine.ts";
import { busyProject } from "../support/busy-project.ts";
import { memoryPlatform } from "../support/platform.ts";
import { answerTokens, call, connect, type Connected } from "./support.ts";

describe("paged answers over MCP", () => {
  let c: Connected;
  beforeAll(async () => {
    const platform = memoryPlatform({ ...busyProject(), "pytest.ini": "[pytest]\n" });
    c = await connect(createEngine(platform), { fs: platform.fs });
  });
  afterAll(async () => c?.close());

  it("callers: one page under 4,000 tokens with the totals, production first, tests counted by file", async () => {
    const a = await call(c.client, "callers", { symbol: "shared" });
    expect(a.isError).toBe(false);
    expect(answerTokens(a)).toBeLessThanOrEqual(4000);
    expect(a.data.total).toEqual({ results: 1100, external: 0, possible: 0 });
    expect(a.data.testCode).toMatchObject({ results: 500, fileCount: 25 });
    expect(a.data.results.every((r: { site: { path: string } }) => r.site.path.startsWith("pkg"))).toBe(true);
    expect(a.data.page).toMatchObject({ matching: 600, offset: 0 });
    expect(a.text).toContain(`cursor=${a.data.page.next}`);
    // Notes are prose: in the text only (issue 24 item 6).
    expect(a.data.completeness).not.toHaveProperty("notes");
  });

  it("callers: the cursor each page names reaches every entry once, each page under its budget", async () => {
    const seen = new Set<string>();
    let cursor: string | undefined;
    let pages = 0;
    do {
      const a = await call(c.client, "callers", {
        symbol: "shared",
        tests: "only",
        limit: 200,
        budget: 12_000,
        ...(cursor ? { cursor, tests: undefined } : {}),
      });
      expect(a.isError, a.text).toBe(false);
      expect(answerTokens(a)).toBeLessThanOrEqual(12_000);
      for (const r of a.data.results) seen.add(`${r.site.path}:${r.site.line}:${r.test}`);
      cursor = a.data.page.next;
      pages++;
    } while (cursor && pages < 50);
    expect(seen.size).toBe(500);
    expect([...seen].every((s) => /:tests\/test_m\d+\.py::test_shared_\d+_\d+$/.test(s))).toBe(true);
  });

  it("importers and tests page the same way; a bad cursor is a tool error that says what to do", async () => {
    const imp = await call(c.client, "importers", { file: "core/util.py", limit: 10 });
    expect(imp.data).toMatchObject({
      total: 55,
      page: { matching: 30, shown: 10, next: expect.stringMatching(/^10\.summary\.1\.v/) },
    });
    const tests = await call(c.client, "tests", { target: "shared", limit: 5 });
    expect(tests.isError).toBe(false);
    expect(answerTokens(tests)).toBeLessThanOrEqual(4000);
    expect(tests.data).toMatchObject({
      total: 500,
      page: { shown: 5, next: expect.stringMatching(/^5\.only\.2\.v/) },
      run: [{ runner: "pytest", detectedBy: "pytest.ini" }],
    });
    expect(tests.text).toMatch(/^\s*pytest tests\/test_m\d+\.py::test_shared_\d+_\d+ /m);
    const bad = await call(c.client, "callers", { symbol: "shared", cursor: "page two" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/cursor/);
  });

  it("a small response cap lowers the budget and says so", async () => {
    const platform = memoryPlatform(busyProject());
    const small = await connect(createEngine(platform), { fs: platform.fs, maxResponseTokens: 1000 });
    try {
      const a = await call(small.client, "callers", { symbol: "shared" });
      expect(answerTokens(a)).toBeLessThanOrEqual(1000);
      expect(a.text).toContain("budget lowered from 4000 to 1000 tokens, this server's response cap");
      const t = await call(small.client, "trace", { from: "caller_0_0", to: "shared" });
      expect(answerTokens(t)).toBeLessThanOrEqual(1000);
      expect(t.data.paths[0].hops[0]).toMatchObject({
        kind: "call",
        to: "core.util.shared",
        site: { path: "pkg0/mod.py", line: 4 },
      });
      expect(t.text).toContain("return shared(value) + 0");
    } finally {
      await small.close();
    }
  });
});
