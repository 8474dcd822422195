/** `importers`: the files that import a file, transitively up to a depth, one page at a time. */
import { z } from "zod";
import { budget, completeness, cursor, depth, limit, page, pageOf, pathArg, testCode, testsMode } from "../schemas.ts";
import { defineTool } from "../tool.ts";
import { DEFAULT_LIST_BUDGET, listCall, withNotes } from "./list.ts";

export const importersTool = defineTool({
  name: "importers",
  title: "Files importing a file",
  description:
    "Files that import a file (relative, package, tsconfig-path and re-exported imports); depth > 1 adds their " +
    "importers. Paged like callers. Use it to see what a module change reaches.",
  input: z.strictObject({
    file: pathArg("Relative to the project root, e.g. src/app.ts."),
    depth,
    limit,
    cursor,
    tests: testsMode,
    budget: budget("", DEFAULT_LIST_BUDGET),
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
    notes: z.array(z.string()),
  }),
  async run(args, ctx) {
    const { options, notes, run } = listCall(ctx, args);
    const a = await run(() => ctx.engine.importers(args.file, options));
    return {
      text: withNotes(a.text, notes),
      data: {
        path: a.path,
        depth: a.depth,
        results: a.results.map((r) => ({ path: r.path, depth: r.depth })),
        total: a.total,
        testCode: a.testCode,
        page: pageOf(a.page),
        omitted: a.total - a.page.shown,
        completeness: a.completeness,
        notes,
      },
    };
  },
});
