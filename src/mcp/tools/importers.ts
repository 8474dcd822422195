/** `importers`: the files that import a file, transitively up to a depth. */
import { z } from "zod";
import { LIMITS } from "../../index.ts";

const MAX_DEPTH = LIMITS.depth.max;
import { largestFitting } from "../fit.ts";
import { plural } from "../render.ts";
import { depth, pathArg } from "../schemas.ts";
import { defineTool } from "../tool.ts";

export const importersTool = defineTool({
  name: "importers",
  title: "Files importing a file",
  description: [
    "Lists the project files that import a file (resolved imports: relative paths, packages, tsconfig paths, Python packages and re-exports); depth > 1 adds the files that import those, each with its hop count.",
    "Use it to see the blast radius of changing a module, or who uses a file's exports.",
    "Limits: the path is relative to the project root (as in the map or a context header); only indexed source files; depth at most 10; long lists are cut with a count of those not shown.",
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
    const shape = (k: number) => {
      const shown = a.results.slice(0, k);
      const lines = [`Files importing ${a.path}${a.depth > 1 ? ` (depth ${a.depth})` : ""}: ${a.results.length}`];
      if (a.results.length === 0) lines.push("No project file imports it.");
      for (const r of shown) lines.push(`${"  ".repeat(r.depth - 1)}- ${r.path}${r.depth > 1 ? ` (depth ${r.depth})` : ""}`);
      if (k < a.results.length) lines.push(`${plural(a.results.length - k, "more file")} not shown (response cap); ask with a smaller depth.`);
      for (const n of notes) lines.push(`Note: ${n}`);
      return {
        text: lines.join("\n"),
        data: { path: a.path, depth: a.depth, results: shown.map((r) => ({ path: r.path, depth: r.depth })), total: a.results.length, omitted: a.results.length - k, notes },
      };
    };
    const k = largestFitting(a.results.length, (n) => {
      const s = shape(n);
      return ctx.measure(s.text, s.data) <= ctx.cap;
    });
    return shape(k);
  },
});
