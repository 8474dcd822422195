/** `check`: the project's structural rules (codeslice.check.json) over the code graph, as linter lines. */
import { z } from "zod";
import { checkText, type CheckAnswer } from "../../index.ts";
import { defineTool } from "../tool.ts";

/** Findings listed by default and at most. */
const LISTED = { default: 50, max: 500 };

/** A finding as data: the rule, where, and the places it names; its message is the text's. */
const finding = z.object({
  rule: z.string(),
  path: z.string(),
  line: z.int(),
  related: z.array(z.object({ path: z.string(), line: z.int() })).optional(),
});

/** The answer with its first `n` findings. */
function shown(a: CheckAnswer, n: number) {
  const { text: _text, findings, ...rest } = a;
  return {
    text: checkText(a, n),
    data: { ...rest, findings: findings.slice(0, n).map(({ message: _, ...f }) => f), total: findings.length },
  };
}

export const checkTool = defineTool({
  name: "check",
  title: "Structural checks",
  description:
    'Runs the project\'s rules (codeslice.check.json, package.json "codeslice", pyproject [tool.codeslice]): ' +
    ("forbidden imports between layers or folders, import cycles, exports with no callers, calls into deprecated " +
      "code, oversized files. Findings as path:line: rule: message."),
  input: z.strictObject({
    limit: z
      .int({ error: "limit must be a whole number" })
      .min(1)
      .max(LISTED.max)
      .optional()
      .describe(`Findings listed (default ${LISTED.default}).`),
  }),
  output: z.object({
    config: z.object({ file: z.string(), key: z.string().optional() }),
    rules: z.array(z.string()),
    findings: z.array(finding),
    total: z.int().describe("Findings in all; the list holds the first `limit`."),
    counts: z.record(z.string(), z.int()).optional().describe("Findings per rule (absent: none)."),
    files: z.int(),
    imports: z.int(),
  }),
  async run(args, ctx) {
    const a = await ctx.engine.check({ signal: ctx.signal });
    let n = Math.min(args.limit ?? LISTED.default, a.findings.length);
    let answer = shown(a, n);
    // Fewer findings until the text and the structured content fit the response cap.
    while (n > 0 && ctx.measure(answer.text, answer.data) > ctx.cap) answer = shown(a, (n = Math.floor(n / 2)));
    return answer;
  },
});
