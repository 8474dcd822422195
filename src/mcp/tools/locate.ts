/**
 * `locate`: where a task (a bug report, an error, a commit message) points — ranked files and functions with their
 * evidence.
 */
import { z } from "zod";
import { LOCATE_LIMITS } from "../../index.ts";
import { targetArg } from "../schemas.ts";
import { defineTool } from "../tool.ts";

export const locateTool = defineTool({
  name: "locate",
  title: "Where a task points",
  description:
    "Give it the task as you got it — a whole bug report with its tracebacks and logs, an error message, a " +
    ("feature request — and it ranks the files and, under each, the functions and classes to look at, with the " +
      ("evidence for each (trace frames mapped into the project, names and paths the task gives, the task's " +
        ("words a file holds). Ten files in a few hundred tokens: call it first on a new task, then context on " +
          "the best symbol."))),
  input: z.strictObject({
    task: targetArg("task", "The task as given (up to 100,000 characters, read whole)."),
    limit: z
      .int({ error: "limit must be a whole number" })
      .min(LOCATE_LIMITS.files.min, { error: `limit must be at least ${LOCATE_LIMITS.files.min}` })
      .max(LOCATE_LIMITS.files.max, { error: `limit must be at most ${LOCATE_LIMITS.files.max}` })
      .optional()
      .describe(`Files (default ${LOCATE_LIMITS.files.default}).`),
  }),
  output: z.object({
    files: z.array(
      z.object({
        path: z.string(),
        score: z.number(),
        symbols: z
          .array(z.object({ qualified: z.string(), line: z.int() }))
          .describe("The symbols the text names, best first."),
      }),
    ),
    framesInProject: z.int().describe("Trace frames of the task that map into the project."),
    omitted: z.int().describe("Files ranked but left out of the text by the budget."),
  }),
  async run(args, ctx) {
    const a = await ctx.engine.locate(args.task, {
      ...(args.limit !== undefined ? { limit: args.limit } : {}),
      budget: Math.min(ctx.cap, Math.max(LOCATE_LIMITS.budget, 60 * (args.limit ?? LOCATE_LIMITS.files.default))),
      signal: ctx.signal,
    });
    // The symbols the text names for each file (it shows three), not the longer list the engine ranked.
    const files = a.files.slice(0, a.files.length - a.omitted).map((f) => ({
      path: f.path,
      score: Math.round(f.score * 10) / 10,
      symbols: f.symbols.slice(0, LOCATE_LIMITS.textSymbols).map((s) => ({ qualified: s.qualified, line: s.line })),
    }));
    return { text: a.text, data: { files, framesInProject: a.read.framesInProject, omitted: a.omitted } };
  },
});
