/**
 * The MCP `changes` answer is fitted once, text and structured content together, through the
 * fitter's envelope (as context is): a large pasted diff (150 new files, 600 definitions) answers
 * within the budget in one engine call, its lists shortened to fit and its totals whole.
 */
import { afterAll, describe, expect, it } from "vitest";
import { budgetedTokens, call, connect, FIXTURE, removeTemps } from "./support.ts";
import { memoryEngine } from "../support/platform.ts";

afterAll(removeTemps);

/** A unified diff adding `files` Python files of `defs` functions each. */
function bigDiff(files: number, defs: number): string {
  const out: string[] = [];
  for (let f = 0; f < files; f++) {
    const lines = Array.from({ length: defs }, (_, d) => [
      `def handler_${f}_${d}(request, value):`,
      `    return request.render(value + ${d})`,
      "",
    ]).flat();
    out.push(
      `diff --git a/pkg/mod_${f}.py b/pkg/mod_${f}.py`,
      "new file mode 100644",
      "--- /dev/null",
      `+++ b/pkg/mod_${f}.py`,
      `@@ -0,0 +1,${lines.length} @@`,
      ...lines.map((l) => `+${l}`),
    );
  }
  return `${out.join("\n")}\n`;
}

describe("MCP changes: one fit through the envelope", () => {
  it("fits text and structured content in the budget in one call, the lists cut to what fits", async () => {
    const { engine, platform } = memoryEngine(FIXTURE);
    let calls = 0;
    const changes = engine.changes.bind(engine);
    engine.changes = (options) => {
      calls++;
      return changes(options);
    };
    const c = await connect(engine, { fs: platform.fs });
    try {
      for (const budget of [3000, 8000]) {
        calls = 0;
        const a = await call(c.client, "changes", { diff: bigDiff(150, 4), budget });
        expect(a.isError, a.text).toBe(false);
        expect(calls).toBe(1);
        expect(budgetedTokens(a)).toBeLessThanOrEqual(budget);
        expect(a.data.totals).toMatchObject({ files: 150, symbols: 600 });
        expect(a.data.usage.envelope).toBeGreaterThan(0);
        // The lists would take far more than the budget: cut, the same length each.
        expect(a.data.files.length).toBeLessThan(100);
        expect(a.data.symbols.length).toBe(a.data.files.length);
        // The structured content repeats the cut entries the text lists, no more.
        const listedInText = (a.text.match(/^- pkg\/mod_\d+\.py:\d+-\d+ \[added\]/gm) ?? []).length;
        expect(a.data.cut.length).toBe(listedInText);
        expect(a.data.cutTotal).toBeGreaterThan(a.data.cut.length);
      }
    } finally {
      await c.close();
    }
  });
});
