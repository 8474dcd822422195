/**
 * `dataflow`: statement-level data flow in one function or route handler (core/dataflow), as its text and its steps.
 */
import { z } from "zod";
import type { DataflowAnswer } from "../../index.ts";
import { MAX_SYMBOL_CHARS } from "../schemas.ts";
import { defineTool } from "../tool.ts";

const step = z.object({ path: z.string(), line: z.int(), what: z.string(), kind: z.string() });

/** The answer with the text cut to its first `n` lines (and a line saying so). */
function shown(a: DataflowAnswer, n: number) {
  const { text, ...data } = a;
  const lines = text.split("\n");
  return {
    text:
      n >= lines.length
        ? text
        : `${lines.slice(0, n).join("\n")}\n(cut after ${n} of ${lines.length} lines to fit the response cap; ` +
          `ask about one variable or line)`,
    data,
  };
}

/** The `dataflow` tool. */
export const dataflowTool = defineTool({
  name: "dataflow",
  title: "Data flow",
  description:
    "Data flow in a function or route handler (Python, TS, JS): does user input reach SQL, process, file or " +
    "HTML calls, one call deep; with variable (+line): its origins and uses.",
  input: z.strictObject({
    target: z
      .string({ error: "target must be a string" })
      .min(1, { error: "target must not be empty" })
      .max(MAX_SYMBOL_CHARS, { error: `target must be at most ${MAX_SYMBOL_CHARS} characters` })
      .describe('A function or "METHOD /path".'),
    variable: z
      .string({ error: "variable must be a string" })
      .min(1, { error: "variable must not be empty" })
      .max(200, { error: "variable must be at most 200 characters" })
      .optional(),
    line: z.int({ error: "line must be a whole number" }).min(1).optional(),
  }),
  output: z.object({
    function: z.object({
      qualified: z.string(),
      path: z.string(),
      start: z.int(),
      end: z.int(),
      route: z.string().optional(),
    }),
    question: z.enum(["reach", "variable", "line"]),
    inputs: z.array(step),
    sinks: z.array(
      z.object({
        kind: z.string(),
        call: z.string(),
        path: z.string(),
        line: z.int(),
        reached: z.boolean(),
        depth: z.int(),
        steps: z.array(step),
      }),
    ),
    origins: z.array(z.array(step)).optional(),
    uses: z.array(step).optional(),
    unknown: z.array(step),
    unknownMore: z.int().optional().describe("Unknown steps left out past the first 40."),
  }),
  async run(args, ctx) {
    const a = await ctx.engine.dataflow(args.target, {
      signal: ctx.signal,
      ...(args.variable !== undefined ? { variable: args.variable } : {}),
      ...(args.line !== undefined ? { line: args.line } : {}),
    });
    let n = a.text.split("\n").length;
    let answer = shown(a, n);
    // Fewer text lines until the text and the steps fit the response cap; the steps stay whole.
    while (n > 1 && ctx.measure(answer.text, answer.data) > ctx.cap) answer = shown(a, (n = Math.floor(n / 2)));
    return answer;
  },
});
