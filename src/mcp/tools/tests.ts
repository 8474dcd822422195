/** `tests`: the tests that exercise a symbol or a file, with runnable ids and the commands that run them. */
import { z } from "zod";
import { budget, completeness, cursor, depth, limit, page, pageOf } from "../schemas.ts";
import { defineTool } from "../tool.ts";
import { DEFAULT_LIST_BUDGET, listCall, withNotes } from "./list.ts";

const runPlan = z.object({
  runner: z.string(),
  name: z.string(),
  cwd: z.string().describe('Folder to run the commands in, relative to the project root ("" for the root).'),
  detectedBy: z
    .string()
    .optional()
    .describe("The project file that shows the runner is used; absent when it is assumed."),
  tests: z.int(),
  commands: z.array(z.string()),
});

export const testsTool = defineTool({
  name: "tests",
  title: "Tests of a symbol or file",
  description:
    "Tests that exercise a symbol or file (callers through helpers, test files importing it, tests naming it), " +
    ("each with a runnable id (pytest node id, Vitest -t name, go test -run, …) and the commands that run just " +
      "those (codeslice never runs them); run them after a change. Paged like callers."),
  input: z.strictObject({
    target: z
      .string({ error: "target must be a string" })
      .min(1, { error: "target must not be empty" })
      .max(4096, { error: "target must be at most 4096 characters" })
      .describe("A symbol, a project file path or METHOD /path."),
    depth: depth.describe("Caller hops to a test (default 2)."),
    limit,
    cursor,
    budget: budget("", DEFAULT_LIST_BUDGET),
  }),
  output: z.object({
    target: z.string(),
    resolvedAs: z.string(),
    depth: z.int(),
    tests: z.array(
      z.object({
        id: z.string().describe("The runnable id in the runner's syntax."),
        runner: z.string().optional(),
        path: z.string(),
        start: z.int(),
        end: z.int(),
        group: z.boolean().optional(),
        file: z.boolean().optional(),
        parametrized: z.boolean().optional(),
        evidence: z
          .string()
          .describe(
            "call (it calls the target, maybe through helpers), mention (it names the target; the call is not " +
              "resolved) or import (its file imports the target's file).",
          ),
        depth: z.int(),
        site: z.object({ path: z.string(), line: z.int() }),
        through: z.array(z.string()).describe("Symbols between the test and the target, nearest the test first."),
        confidence: z.number(),
      }),
    ),
    total: z.int(),
    byEvidence: z.object({ call: z.int(), mention: z.int(), import: z.int() }),
    run: z.array(runPlan).describe("Commands that run this page's tests, per runner and folder."),
    runAll: z
      .array(runPlan)
      .optional()
      .describe("Commands that run the files of every test found, when they span several pages."),
    page,
    completeness,
    deeper: z
      .object({ depth: z.int(), tests: z.int() })
      .optional()
      .describe("When none is found within depth: the fewest hops that find tests, and how many."),
    notes: z.array(z.string()),
  }),
  async run(args, ctx) {
    const { options, notes, run } = listCall(ctx, args);
    const a = await run(() => ctx.engine.tests(args.target, options));
    // The usage is the text's last line (`-- 262/3880 tokens (o200k_base)`): not said twice.
    const { text: _text, symbol: _symbol, path: _path, usage: _usage, ...rest } = a;
    return { text: withNotes(a.text, notes), data: { ...rest, page: pageOf(a.page), notes } };
  },
});
