/**
 * `rename`: a rename previewed as a plan (every edit with why, mentions and unresolved sites
 * apart, a plan token), and applied only with a token a preview produced, all files or none.
 */
import { z } from "zod";
import type { RenameEdit } from "../../index.ts";
import { fitLines, plural } from "../render.ts";
import { MAX_SYMBOL_CHARS } from "../schemas.ts";
import { defineTool } from "../tool.ts";

/** Entries of each list the structured content carries (the text lists what fits the cap). */
const LISTED = 100;

/**
 * A file's edits as data: `line:col:why` each (1-based line, 0-based column); every edit replaces `oldName` with
 * `newName`.
 */
const edits = z.array(z.object({ path: z.string(), at: z.array(z.string()) }));

/** Sites grouped by file, each `line:col[:why]`, in the plan's order. */
function byFile(
  sites: readonly { path: string; line: number; col: number; why?: string }[],
): { path: string; at: string[] }[] {
  const out = new Map<string, string[]>();
  for (const e of sites)
    (out.get(e.path) ?? out.set(e.path, []).get(e.path)!).push(`${e.line}:${e.col}${e.why ? `:${e.why}` : ""}`);
  return [...out].map(([path, at]) => ({ path, at }));
}

export const renameTool = defineTool({
  name: "rename",
  title: "Rename a symbol",
  // Kept short: every session pays for tools/list, and this entry must stay within 140 tokens.
  description:
    "Preview a Python/TS/JS rename: each edit and why, unresolved sites apart, plan_token. apply=plan_token " +
    "writes it, all files or none; mentions=true adds strings/comments.",
  input: z.strictObject({
    // No length bounds on the names: the engine refuses an empty or invalid one with its reason,
    // and an unknown token as plan_unknown; each bound costs every session tokens.
    symbol: z.string().max(MAX_SYMBOL_CHARS),
    new_name: z.string(),
    apply: z.string().optional(),
    mentions: z.boolean().optional(),
  }),
  output: z.object({
    planToken: z.string(),
    applied: z.boolean(),
    edits: edits.optional(),
    mentions: edits.optional(),
    uncertain: edits.optional(),
    oldName: z.string().optional(),
    newName: z.string().optional(),
    counts: z.object({ edits: z.int(), mentions: z.int(), uncertain: z.int(), files: z.int() }),
    written: z.array(z.object({ path: z.string(), edits: z.int(), mentions: z.int() })).optional(),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(args, ctx) {
    if (args.apply !== undefined) {
      const { createNodePlanFiles } = await import("../../platform/node/index.ts");
      const report = await ctx.engine.applyRename(args.apply, createNodePlanFiles(ctx.root), {
        mentions: args.mentions === true,
        newName: args.new_name,
        signal: ctx.signal,
      });
      const counts = { edits: report.edits, mentions: report.mentions, uncertain: 0, files: report.written.length };
      const text =
        `Wrote ${plural(report.edits, "edit")}` +
        (`${report.mentions ? ` and ${plural(report.mentions, "mention")}` : ""} in ` +
          (`${plural(report.written.length, "file")}:\n` +
            `${report.written.map((w) => `- ${w.path} (${w.edits + w.mentions})`).join("\n")}`));
      return { text, data: { planToken: report.planToken, applied: true, counts, written: report.written } };
    }
    const plan = await ctx.engine.rename(args.symbol, args.new_name, { signal: ctx.signal });
    const counts = {
      edits: plan.edits.length,
      mentions: plan.mentions.length,
      uncertain: plan.uncertain.length,
      files: plan.files.length,
    };
    const data = {
      planToken: plan.planToken,
      applied: false,
      counts,
      // Where and why only: each edit replaces oldName with newName, and its note and an unresolved
      // site's reason are prose the text shows beside it.
      oldName: plan.oldName,
      newName: plan.newName,
      edits: byFile(plan.edits.slice(0, LISTED)),
      mentions: byFile(plan.mentions.slice(0, LISTED)),
      uncertain: byFile(plan.uncertain.slice(0, LISTED).map(({ path, line, col }) => ({ path, line, col }))),
    };
    const line = (e: RenameEdit) => `- ${e.path}:${e.line}:${e.col + 1} ${e.why}${e.note ? ` (${e.note})` : ""}`;
    const lines = [
      ...plan.edits.map(line),
      ...(plan.mentions.length
        ? [`Mentions in strings/comments (written only with mentions=true):`, ...plan.mentions.map(line)]
        : []),
      ...(plan.uncertain.length
        ? [
            `Not edited, unresolved (check by hand):`,
            ...plan.uncertain.map((u) => `- ${u.path}:${u.line}:${u.col + 1} ${u.reason}`),
          ]
        : []),
      ...plan.notes.map((n) => `Note: ${n}`),
    ];
    const fit = fitLines({
      lines,
      header: () =>
        `## rename ${plan.symbol.qualified} → ${plan.newName}: ${plural(plan.edits.length, "edit")} in ` +
        `${plural(new Set(plan.edits.map((e) => e.path)).size, "file")}`,
      footer: (kept) =>
        (kept < lines.length
          ? `(${lines.length - kept} more lines cut to fit the response cap; the plan holds them all)\n`
          : "") + `plan_token: ${plan.planToken} (call rename again with apply set to it to write these edits)`,
      budget: ctx.cap,
      envelope: ctx.count(JSON.stringify(data)),
      count: ctx.count,
    });
    return { text: fit.text, data };
  },
});
