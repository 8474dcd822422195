/**
 * `context` on a class too long to show whole at the budget asked: its outline, and the budget its body cannot take
 * filled with the chunks ranked after it. Before, the body's step entered first, at the budget its share asks for,
 * and everything shown below that budget had to fit beside the body there, so `context Pytester` on pytest (a
 * 7,426-token class) used 5,097 of 8,000 tokens with its callees cut. Budgets still only ever add.
 */
import { describe, expect, it } from "vitest";
import { memoryEngine } from "../support/platform.ts";

const METHODS = 60;
const helpers = Array.from(
  { length: METHODS },
  (_, i) => `def helper_${i}(rows, limit):
    """Helper ${i}: folds the rows it is given into one summary line, up to a limit."""
    total = 0
    seen = []
    for row in rows[:limit]:
        if row in seen:
            continue
        seen.append(row)
        total += len(str(row)) * ${i + 1}
    return f"helper ${i}: {total} over {len(seen)} rows"
`,
).join("\n\n");

const methods = Array.from(
  { length: METHODS },
  (_, i) => `    def step_${i}(self, rows):
        """Step ${i} of the pipeline: hands the rows to helper ${i} and keeps what it says."""
        line = helper_${i}(rows, self.limit + ${i})
        self.lines.append(line)
        if len(self.lines) > self.limit:
            self.lines = self.lines[-self.limit :]
        return line
`,
).join("\n");

const FILES = {
  "pipeline/helpers.py": helpers,
  "pipeline/runner.py": `from pipeline.helpers import ${Array.from({ length: METHODS }, (_, i) => `helper_${i}`).join(", ")}


class Runner:
    """Runs every step over the rows and keeps the lines they print."""

    def __init__(self, limit):
        self.limit = limit
        self.lines = []

${methods}`,
};

const BUDGETS = [2000, 4000, 6000, 8000, 12000, 16000, 24000, 32000];

describe("context on a class whose body does not fit", () => {
  it("fills the budget its body cannot take with the chunks after it, and budgets only add", async () => {
    const { engine } = memoryEngine(FILES);
    const answers = [];
    for (const budget of BUDGETS)
      answers.push({ budget, a: await engine.context("pipeline.runner.Runner", { budget }) });
    const seedFull = answers.find(({ a }) => a.chunks[0]!.form === "full");
    // The class is long: its body does not show at 4,000 tokens, and does at some budget asked here.
    expect(answers.find(({ budget }) => budget === 4000)!.a.chunks[0]!.form).toBe("outline");
    expect(seedFull).toBeDefined();
    // Below that budget, the answer uses most of what it was given, or leaves nothing out.
    for (const { budget, a } of answers.filter(({ budget }) => budget >= 4000 && budget < seedFull!.budget))
      expect(
        a.usage.tokens > budget * 0.85 || a.cut.length === 0,
        `${budget}: ${a.usage.tokens}, ${a.cut.length} cut`,
      ).toBe(true);
    // What a budget shows, every larger budget shows (whole stays whole).
    for (let k = 1; k < answers.length; k++) {
      const shown = new Map(answers[k]!.a.chunks.map((c) => [`${c.path}:${c.start}`, c.form]));
      for (const c of answers[k - 1]!.a.chunks) {
        const now = shown.get(`${c.path}:${c.start}`);
        expect(now, `${c.symbol} at ${answers[k]!.budget}`).toBeDefined();
        if (c.form === "full") expect(now).toBe("full");
      }
      expect(answers[k]!.a.usage.tokens).toBeLessThanOrEqual(answers[k]!.budget);
    }
  }, 60_000);
});
