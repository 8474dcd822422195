/** `grep`: lines matching a regex (RE2, linear time) in the project's files, with the enclosing symbol, bounded. */
import { z } from "zod";
import { fitBlocks, type GrepAnswer, type GrepHit, type GrepOptions } from "../../index.ts";
import { at } from "../render.ts";
import { defineTool, type ToolContext } from "../tool.ts";
import { quoted } from "../../shared/quote.ts";

const hit = z.object({
  repo: z.string().optional().describe("The repository (a group searched without repo)."),
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
    const options = {
      signal: ctx.signal,
      ...(args.paths ? { paths: args.paths } : {}),
      ...(args.ignore_case ? { ignoreCase: true } : {}),
      ...(args.max_matches !== undefined ? { maxMatches: args.max_matches } : {}),
      budget: ctx.cap,
    };
    const a: Found = ctx.spanning
      ? await grepGroup(ctx, args.pattern, options)
      : await ctx.engine.grep(args.pattern, options);
    // Where and in what, not the line itself: the text shows each matching line (issue 24 item 6).
    const results = a.hits.map((h) => ({
      ...(h.repo ? { repo: h.repo } : {}),
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
        full:
          `${h.repo ? `${h.repo}:` : ""}${at(h.path, h.line)}:${h.column}` +
          `${h.symbol ? ` [${h.kind} ${h.symbol}]` : ""}\n  ${h.text.trim()}`,
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

/** What the tool renders: one repository's grep answer, or the group's. */
type Found = Pick<GrepAnswer, "pattern" | "files" | "filesMatched" | "stopped" | "text"> & {
  hits: (GrepHit & { repo?: string })[];
};

/**
 * grep over every repository of the group, in the group's order: the hits of each with its name,
 * the files counted over all, a header that sums up each repository's search.
 */
async function grepGroup(ctx: ToolContext, pattern: string, options: GrepOptions): Promise<Found> {
  const answers = await Promise.all(
    ctx.group!.members.map(async (m) => ({ m, a: await m.engine.grep(pattern, options) })),
  );
  const first = answers[0]!.a;
  const hits = answers.flatMap(({ m, a }) => a.hits.map((h) => ({ ...h, repo: m.name })));
  const stopped = answers.find(({ a }) => a.stopped)?.a.stopped;
  // Each repository's own summary, after the `# codeslice grep "p": ` its header starts with.
  const summary = answers.map(({ m, a }) => `${m.name}: ${a.text.split("\n", 1)[0]!.replace(/^[^:]*"\s*:\s*/, "")}`);
  return {
    pattern: first.pattern,
    hits,
    files: answers.reduce((n, { a }) => n + a.files, 0),
    filesMatched: answers.reduce((n, { a }) => n + a.filesMatched, 0),
    ...(stopped ? { stopped } : {}),
    text: `# codeslice grep ${quoted(pattern)} in ${answers.length} repositories: ${summary.join("; ")}`,
  };
}
