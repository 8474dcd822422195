/** `importers`: the files that import a file, transitively up to a depth. */
import { z } from "zod";
import { fitBlocks, LIMITS } from "../../index.ts";
import { plural } from "../render.ts";
import { depth, pathArg } from "../schemas.ts";
import { defineTool } from "../tool.ts";

const MAX_DEPTH = LIMITS.depth.max;

export const importersTool = defineTool({
  name: "importers",
  title: "Files importing a file",
  description: [
    "Lists the project files that import a file (resolved imports: relative paths, packages, tsconfig paths, Python packages and re-exports); depth > 1 adds the files that import those, each with its hop count.",
    "Use it to see the blast radius of changing a module, or who uses a file's exports.",
    `Limits: the path is relative to the project root (as in the map or a context header); only indexed source files; depth at most ${MAX_DEPTH}; long lists are cut with a count of those not shown.`,
  ].join("\n"),
  input: z.strictObject({
    file: pathArg("A project file, relative to the project root, e.g. src/app.ts or pkg/models.py."),
    depth,
  }),
  output: z.object({
    path: z.string(),
    depth: z.int(),
    results: z.array(z.object({ path: z.string(), depth: z.int() })),
    total: z.int(),
    omitted: z.int().describe("Files left out to fit the response cap."),
    notes: z.array(z.string()),
  }),
  async run(args, ctx) {
    const notes: string[] = [];
    let d = args.depth ?? 1;
    if (d > MAX_DEPTH) {
      notes.push(`depth lowered from ${d} to ${MAX_DEPTH}, the most this server follows`);
      d = MAX_DEPTH;
    }
    const a = await ctx.engine.importers(args.file, { depth: d, signal: ctx.signal });
    const results = a.results.map((r) => ({ path: r.path, depth: r.depth }));
    const total = a.results.length;
    const fit = fitBlocks({
      header: [`Files importing ${a.path}${a.depth > 1 ? ` (depth ${a.depth})` : ""}: ${total}`, ...(total === 0 ? ["No project file imports it."] : [])].join("\n"),
      blocks: a.results.map((r, i) => ({ full: `${"  ".repeat(r.depth - 1)}- ${r.path}${r.depth > 1 ? ` (depth ${r.depth})` : ""}`, envelope: { full: ctx.count(JSON.stringify(results[i])) + 1 } })),
      budget: ctx.cap,
      count: ctx.count,
      separator: "\n",
      prefix: true,
      envelope: ctx.count(JSON.stringify({ path: a.path, depth: a.depth, results: [], total, omitted: total, notes })),
      footer: (s) => [...(s.omitted > 0 ? [`${plural(s.omitted, "more file")} not shown (response cap); ask with a smaller depth.`] : []), ...notes.map((n) => `Note: ${n}`)].join("\n"),
    });
    const shown = total - fit.omitted;
    return { text: fit.text, data: { path: a.path, depth: a.depth, results: results.slice(0, shown), total, omitted: fit.omitted, notes } };
  },
});
