/** `changes`: what changed and what it reaches, as one bundle under the response cap. */
import { z } from "zod";
import { LIMITS, type ChangesAnswer } from "../../index.ts";
import { budget, symbolRef } from "../schemas.ts";
import { defineTool, type ToolAnswer, type ToolContext } from "../tool.ts";

/** Longest pasted diff accepted over MCP (a large pull request's patch is a few hundred KB). */
export const MAX_DIFF_CHARS = 2_000_000;
/** Entries of each list in the structured content; the text names every changed definition it can. */
const LISTED = 100;

const impactItem = symbolRef.extend({
  end: z.int(),
  depth: z.int().describe("Call hops from the nearest changed definition (1 = calls it directly)."),
  via: z.string().describe("call, import (a test file importing a changed file) or name (calls a name no longer defined)."),
  reaches: z.array(z.string()).describe("The changed definitions (or files) it reaches."),
});

/** The structured content of an answer, each list cut to `listed` entries (the totals count them all). */
function changesData(a: ChangesAnswer, listed: number, requested: number, clampNote: string | undefined) {
  const item = (i: ChangesAnswer["impact"]["callers"][number]) => ({ qualified: i.qualified, kind: i.kind, path: i.path, line: i.line, end: i.end, depth: i.depth, via: i.via, reaches: i.reaches });
  return {
    mode: a.mode,
    base: a.base,
    head: a.head,
    headOnDisk: a.headOnDisk,
    usage: a.usage,
    ...(a.usage.budget < requested ? { budgetRequested: requested } : {}),
    files: a.files.slice(0, listed).map((f) => ({ path: f.path, ...(f.oldPath ? { oldPath: f.oldPath } : {}), status: f.status, ...(f.reason ? { reason: f.reason } : {}), symbols: f.symbols })),
    symbols: a.symbols.slice(0, listed).map((s) => ({
      change: s.change, qualified: s.qualified, kind: s.kind, path: s.path, start: s.start, end: s.end, side: s.side,
      ...(s.signature ? { signature: s.signature } : {}), ...(s.renamedFrom ? { renamedFrom: s.renamedFrom } : {}),
    })),
    impact: {
      callers: a.impact.callers.slice(0, listed).map(item),
      tests: a.impact.tests.slice(0, listed).map(item),
      routes: a.impact.routes.slice(0, listed).map((r) => ({ method: r.method, path: r.path, file: r.file, line: r.line, depth: r.depth, ...(r.handler ? { handler: r.handler } : {}) })),
    },
    totals: { files: a.files.length, symbols: a.symbols.length, callers: a.impact.callers.length, tests: a.impact.tests.length, routes: a.impact.routes.length },
    notes: clampNote ? [...a.notes, clampNote.replace(/^Note: /, "")] : a.notes,
    chunks: a.chunks.map((c) => ({ path: c.path, start: c.start, end: c.end, role: c.role, symbol: c.symbol, form: c.form, tokens: c.tokens })),
    cut: a.cut.slice(0, Math.min(20, listed)).map((c) => ({ handle: c.handle, path: c.path, start: c.start, end: c.end, role: c.role, tokens: c.tokens })),
    cutTotal: a.cut.length,
  };
}

/**
 * Runs changes with `budget = min(requested, cap)`. When the text plus the structured content
 * passes the cap, the lists are shortened first (100, 50, 25, 12, 5 entries: no recomputation),
 * and only then the budget lowered and the answer recomputed, at most a few times: a large change
 * set (a root commit of thousands of files) takes seconds to compare.
 */
async function budgetedChanges(ctx: ToolContext, call: (budget: number) => Promise<ChangesAnswer>, requested: number): Promise<ToolAnswer> {
  let b = Math.min(requested, ctx.cap);
  for (let attempt = 0; ; attempt++) {
    const a = await call(b);
    const clampNote = b < requested ? `Note: budget lowered from ${requested} to ${b} tokens to fit this server's response cap (${ctx.responseCap} tokens); ask for a cut chunk by its handle to see more.` : undefined;
    const text = clampNote ? `${a.text}\n${clampNote}` : a.text;
    let size = 0;
    for (const listed of [LISTED, 50, 25, 12, 5]) {
      const data = changesData(a, listed, requested, clampNote);
      size = ctx.measure(text, data);
      if (size <= ctx.cap) return { text, data };
    }
    if (attempt >= 3 || b <= 1) {
      ctx.log.warn(`changes answer of ${size} tokens exceeds the cap of ${ctx.cap} after ${attempt + 1} attempts`);
      return { text, data: changesData(a, 5, requested, clampNote) };
    }
    b = Math.max(1, Math.floor((b * ctx.cap) / size) - 64);
  }
}

export const changesTool = defineTool({
  name: "changes",
  title: "What changed, and what it reaches",
  description: "What changed — the working tree against HEAD (default), staged, two commits (base/head), or a pasted unified diff — by definition (added, removed, renamed, signature or body changed), as one budgeted bundle: the changed code as diffs, callers of changed signatures, code still calling removed names, routes and tests reached.",
  input: z.strictObject({
    staged: z.boolean({ error: "staged must be true or false" }).optional().describe("The index against HEAD."),
    base: z.string({ error: "base must be a string" }).min(1).max(300).optional().describe("Commit, branch, tag, HEAD~N (default HEAD)."),
    head: z.string({ error: "head must be a string" }).min(1).max(300).optional().describe("Default: the working tree; alone: against its parent."),
    diff: z
      .string({ error: "diff must be a string" })
      .min(1, { error: "diff must not be empty" })
      .max(MAX_DIFF_CHARS, { error: `diff must be at most ${MAX_DIFF_CHARS} characters: pass the diff of fewer files` })
      .optional()
      .describe("A unified diff instead of git history."),
    budget: budget("", LIMITS.budget.context),
  }),
  output: z.object({
    mode: z.string().describe("worktree, staged, refs or diff."),
    base: z.object({ label: z.string(), rev: z.string().optional(), oid: z.string().optional() }),
    head: z.object({ label: z.string(), rev: z.string().optional(), oid: z.string().optional() }),
    headOnDisk: z.boolean().describe("True when the changed code cited is what the files on disk hold."),
    usage: z.object({ tokens: z.int(), budget: z.int(), encoding: z.string() }),
    budgetRequested: z.int().optional(),
    files: z.array(z.object({ path: z.string(), oldPath: z.string().optional(), status: z.string(), reason: z.string().optional(), symbols: z.int() })),
    symbols: z.array(z.object({
      change: z.string(), qualified: z.string(), kind: z.string(), path: z.string(), start: z.int(), end: z.int(),
      side: z.string().describe("head, or base for a removed definition (its lines as they were)."),
      signature: z.object({ old: z.string(), new: z.string() }).optional(), renamedFrom: z.string().optional(),
    })),
    impact: z.object({
      callers: z.array(impactItem),
      tests: z.array(impactItem),
      routes: z.array(z.object({ method: z.string(), path: z.string(), file: z.string(), line: z.int(), depth: z.int(), handler: z.string().optional() })),
    }),
    totals: z.object({ files: z.int(), symbols: z.int(), callers: z.int(), tests: z.int(), routes: z.int() }).describe("Full counts; the lists above hold at most 100 entries each (fewer when the answer had to shrink to fit the response cap)."),
    notes: z.array(z.string()),
    chunks: z.array(z.object({ path: z.string(), start: z.int(), end: z.int(), role: z.string(), symbol: z.string(), form: z.string(), tokens: z.int() })),
    cut: z.array(z.object({ handle: z.string(), path: z.string(), start: z.int(), end: z.int(), role: z.string(), tokens: z.int() })),
    cutTotal: z.int(),
  }),
  async run(args, ctx) {
    const requested = args.budget ?? LIMITS.budget.context;
    return budgetedChanges(ctx, (b) => ctx.engine.changes({
      budget: b, signal: ctx.signal,
      ...(args.staged ? { staged: true } : {}),
      ...(args.base !== undefined ? { base: args.base } : {}),
      ...(args.head !== undefined ? { head: args.head } : {}),
      ...(args.diff !== undefined ? { diff: args.diff } : {}),
    }), requested);
  },
});
