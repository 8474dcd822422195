/** `importers`: the files that import a file, transitively up to a depth, one page at a time. */
import { z } from "zod";
import { LIMITS } from "../../index.ts";
import { budget, completeness, cursor, depth, limit, page, pathArg, testCode, testsMode, usage } from "../schemas.ts";
import { defineTool } from "../tool.ts";
import { DEFAULT_LIST_BUDGET, listBudget } from "./list.ts";

const MAX_DEPTH = LIMITS.depth.max;

export const importersTool = defineTool({
  name: "importers",
  title: "Files importing a file",
  description: [
    "Lists the project files that import a file (resolved imports: relative paths, packages, tsconfig paths, Python packages and re-exports); depth > 1 adds the files that import those, each with its hop count.",
    "Use it to see the blast radius of changing a module, or who uses a file's exports; tests gives the tests to run.",
    "One page at a time (limit, cursor, budget default 4000 tokens), production files first and test files counted unless tests is include, exclude or only; the answer states the totals and what it could not see (imports that resolve to nothing, files with syntax errors, languages whose imports are not resolved).",
    "Limits: the path is relative to the project root (as in the map or a context header); only indexed source files; depth at most 10.",
  ].join("\n"),
  input: z.strictObject({
    file: pathArg("A project file, relative to the project root, e.g. src/app.ts or pkg/models.py."),
    depth,
    limit,
    cursor,
    tests: testsMode,
    budget: budget("The answer lists as many files as fit and names the cursor of the rest.", DEFAULT_LIST_BUDGET),
  }),
  output: z.object({
    path: z.string(),
    depth: z.int(),
    results: z.array(z.object({ path: z.string(), depth: z.int() })),
    total: z.int().describe("Importing files in all, before the tests filter and paging."),
    testCode,
    page,
    omitted: z.int().describe("Files not on this page (other pages, or test files counted rather than listed)."),
    completeness,
    usage,
    notes: z.array(z.string()),
  }),
  async run(args, ctx) {
    const notes: string[] = [];
    let d = args.depth;
    if (d !== undefined && d > MAX_DEPTH) {
      notes.push(`depth lowered from ${d} to ${MAX_DEPTH}, the most this server follows`);
      d = MAX_DEPTH;
    }
    const { budget: b, note } = listBudget(ctx, args.budget, notes.length ? 40 : 0);
    if (note) notes.push(note);
    const a = await ctx.engine.importers(args.file, {
      signal: ctx.signal, budget: b, json: true,
      ...(d !== undefined ? { depth: d } : {}), ...(args.limit !== undefined ? { limit: args.limit } : {}),
      ...(args.cursor !== undefined ? { cursor: args.cursor } : {}), ...(args.tests !== undefined ? { tests: args.tests } : {}),
    });
    return {
      text: notes.length ? [a.text, ...notes.map((n) => `Note: ${n}`)].join("\n") : a.text,
      data: {
        path: a.path, depth: a.depth, results: a.results.map((r) => ({ path: r.path, depth: r.depth })), total: a.total, testCode: a.testCode, page: a.page,
        omitted: a.total - a.page.shown, completeness: a.completeness, usage: a.usage, notes,
      },
    };
  },
});
