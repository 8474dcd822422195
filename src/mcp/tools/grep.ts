/** `grep`: lines matching a regex (RE2, linear time) in the project's files, with the enclosing symbol, bounded. */
import { z } from "zod";
import { fitBlocks } from "../../index.ts";
import { at } from "../render.ts";
import { defineTool } from "../tool.ts";

const hit = z.object({
  path: z.string(),
  line: z.int(),
  column: z.int(),
  symbol: z.string().optional(),
  kind: z.string().optional(),
});

export const grepTool = defineTool({
  name: "grep",
  title: "Regex search",
  // Bounds (pattern length, max_matches) are the engine's to check: its errors name them, and the
  // schema stays within this tool's share of tools/list (≤ 140 tokens).
  description:
    "Lines matching an RE2 regex (linear time, no lookaround) in project files: path:line, enclosing symbol. " +
    "Bounded; says if more exist.",
  input: z.strictObject({
    pattern: z.string(),
    paths: z.array(z.string()).optional().describe("Globs, e.g. src/**/*.py; !glob excludes."),
    ignore_case: z.boolean().optional(),
    max_matches: z.int({ error: "max_matches must be a whole number" }).optional(),
  }),
  output: z.object({
    pattern: z.string(),
    results: z.array(hit),
    files: z.int(),
    filesMatched: z.int(),
    stopped: z.string().optional().describe("matches, time or bytes: more may exist."),
    omitted: z.int().describe("Hits left out to fit the response cap."),
  }),
  async run(args, ctx) {
    const a = await ctx.engine.grep(args.pattern, {
      signal: ctx.signal,
      ...(args.paths ? { paths: args.paths } : {}),
      ...(args.ignore_case ? { ignoreCase: true } : {}),
      ...(args.max_matches !== undefined ? { maxMatches: args.max_matches } : {}),
      budget: ctx.cap,
    });
    // Where and in what, not the line itself: the text shows each matching line (issue 24 item 6).
    const results = a.hits.map((h) => ({
      path: h.path,
      line: h.line,
      column: h.column,
      ...(h.symbol ? { symbol: h.symbol, kind: h.kind } : {}),
    }));
    const base = {
      pattern: a.pattern,
      files: a.files,
      filesMatched: a.filesMatched,
      ...(a.stopped ? { stopped: a.stopped } : {}),
    };
    // Whole hits in order; each costs its lines in the text and its record in the structured content.
    const fit = fitBlocks({
      header: a.text.split("\n", 1)[0]!,
      blocks: a.hits.map((h, i) => ({
        full: `${at(h.path, h.line)}:${h.column}${h.symbol ? ` [${h.kind} ${h.symbol}]` : ""}\n  ${h.text.trim()}`,
        envelope: { full: ctx.count(JSON.stringify(results[i])) + 1 },
      })),
      budget: ctx.cap,
      count: ctx.count,
      separator: "\n",
      prefix: true,
      envelope: ctx.count(JSON.stringify({ ...base, results: [], omitted: a.hits.length })),
      footer: (s) =>
        s.omitted > 0
          ? `${s.omitted} more matching lines not shown (response cap); narrow paths or the pattern.`
          : a.stopped
            ? "Narrow paths or the pattern to search the rest."
            : "",
    });
    const shown = a.hits.length - fit.omitted;
    return { text: fit.text, data: { ...base, results: results.slice(0, shown), omitted: fit.omitted } };
  },
});
