/** `changes`: what changed and what it reaches, as one bundle under the response cap. */
import { z } from "zod";
import { envelopeRecord, LIMITS, type ChangesAnswer, type ChangesEnvelope } from "../../index.ts";
import { budget, symbolRef } from "../schemas.ts";
import { defineTool, type ToolAnswer, type ToolContext } from "../tool.ts";
import { crossRepoCallers } from "../group.ts";

/** Longest pasted diff accepted over MCP (a large pull request's patch is a few hundred KB). */
export const MAX_DIFF_CHARS = 2_000_000;
/** Entries of each list in the structured content at most; fewer when the lists would take over half the budget. */
const LISTED = 100;
/** A number as wide as any this answer reports, for the envelope's fixed part at its widest. */
const WIDEST = 9_999_999;
/** Tokens kept over the envelope's sum: records counted one by one tokenize a little differently where they meet. */
const JOIN_SLACK = 8;

/** The fields of each record the structured content repeats, in order: the envelope counts exactly these. */
const FIELDS = {
  file: ["path", "oldPath", "status", "reason", "symbols"],
  symbol: ["change", "qualified", "kind", "path", "start", "end", "side", "signature", "renamedFrom"],
  caller: ["qualified", "kind", "path", "line", "end", "depth", "via", "reaches"],
  test: ["qualified", "kind", "path", "line", "end", "depth", "via", "reaches"],
  route: ["method", "path", "file", "line", "depth", "handler"],
  chunk: ["path", "start", "end", "role", "symbol", "form", "tokens"],
  cut: ["handle", "path", "start", "end", "role", "tokens"],
} as const;

const impactItem = symbolRef.extend({
  end: z.int(),
  depth: z.int().describe("Call hops from the nearest changed definition (1 = calls it directly)."),
  via: z
    .string()
    .describe("call, import (a test file importing a changed file) or name (calls a name no longer defined)."),
  reaches: z.array(z.string()).describe("The changed definitions (or files) it reaches."),
});

/** The structured content: the engine's records with the fields the envelope counted, each list cut to `a.listed`. */
function changesData(a: ChangesAnswer, requested: number, clamp: string | undefined) {
  const n = a.listed;
  return {
    mode: a.mode,
    base: a.base,
    head: a.head,
    headOnDisk: a.headOnDisk,
    usage: a.usage,
    ...(a.usage.budget < requested ? { budgetRequested: requested } : {}),
    files: a.files.slice(0, n).map((f) => envelopeRecord(f, FIELDS.file)),
    symbols: a.symbols.slice(0, n).map((s) => envelopeRecord(s, FIELDS.symbol)),
    impact: {
      callers: a.impact.callers.slice(0, n).map((c) => envelopeRecord(c, FIELDS.caller)),
      tests: a.impact.tests.slice(0, n).map((t) => envelopeRecord(t, FIELDS.test)),
      routes: a.impact.routes.slice(0, n).map((r) => envelopeRecord(r, FIELDS.route)),
    },
    totals: {
      files: a.files.length,
      symbols: a.symbols.length,
      callers: a.impact.callers.length,
      tests: a.impact.tests.length,
      routes: a.impact.routes.length,
    },
    notes: clamp ? [...a.notes, clamp] : a.notes,
    chunks: a.chunks.map((c) => envelopeRecord(c, FIELDS.chunk)),
    cut: a.cut.slice(0, a.cutListed).map((c) => envelopeRecord(c, FIELDS.cut)),
    cutTotal: a.cut.length,
  };
}

/**
 * Runs changes once, with `budget = min(requested, cap)` covering the text and the structured
 * content together, as context does: the structured content's own fields (at their widest) and
 * the note about a lowered budget are the envelope's fixed part, and the engine adds what each
 * record costs (files, definitions, callers, tests, routes, notes, chunks, listed cut entries),
 * shortening the lists when they would take over half the budget.
 */
async function budgetedChanges(
  ctx: ToolContext,
  call: (budget: number, envelope: ChangesEnvelope) => Promise<ChangesAnswer>,
  requested: number,
): Promise<ToolAnswer> {
  const b = Math.min(requested, ctx.cap);
  const clamp =
    b < requested
      ? `budget lowered from ${requested} to ${b} tokens to fit this server's response cap (${ctx.responseCap} ` +
        `tokens); ask for a cut chunk by its handle to see more.`
      : undefined;
  const side = { label: "x".repeat(60), rev: "x".repeat(40), oid: "f".repeat(40) };
  const widest: ChangesAnswer = {
    mode: "worktree",
    base: side,
    head: side,
    headOnDisk: false,
    files: [],
    symbols: [],
    impact: { callers: [], tests: [], routes: [], depth: 0 },
    callSites: { checked: 0, breaking: [], undecided: 0 },
    notes: [],
    chunks: [],
    cut: [],
    cutListed: 0,
    listed: 0,
    text: "",
    usage: { tokens: WIDEST, budget: b, encoding: "cl100k_base", envelope: WIDEST },
  };
  const skeleton = changesData(widest, requested, undefined);
  const wideTotals = { files: WIDEST, symbols: WIDEST, callers: WIDEST, tests: WIDEST, routes: WIDEST };
  const fixed =
    ctx.count(JSON.stringify({ ...skeleton, totals: wideTotals, cutTotal: WIDEST })) +
    (clamp ? ctx.count(`\nNote: ${clamp}`) + ctx.count(JSON.stringify(clamp)) + 1 : 0) +
    JOIN_SLACK;
  const a = await call(b, { fixed, perRecord: 1, fields: FIELDS, listed: LISTED });
  const text = clamp ? `${a.text}\nNote: ${clamp}` : a.text;
  const data = changesData(a, requested, clamp);
  const size = ctx.measure(text, data);
  if (size > b)
    ctx.log.warn(`changes answer of ${size} tokens (text and structured content) exceeds its budget of ${b}`);
  return { text, data };
}

export const changesTool = defineTool({
  name: "changes",
  title: "What changed, and what it reaches",
  description:
    // What is compared (the working tree against HEAD by default, staged, two commits, a pasted diff)
    // is what its arguments' descriptions say: not said again here, which pays for the route target's
    // argument in tools/list (19 tokens).
    "What changed, by definition (added, removed, renamed, signature or body changed), as one budgeted bundle: " +
    ("the changed code as diffs, callers of changed signatures, code still calling removed names, routes and " +
      "tests reached."),
  input: z.strictObject({
    staged: z.boolean({ error: "staged must be true or false" }).optional().describe("The index against HEAD."),
    base: z
      .string({ error: "base must be a string" })
      .min(1)
      .max(300)
      .optional()
      .describe("Commit, branch, tag, HEAD~N (default HEAD)."),
    head: z
      .string({ error: "head must be a string" })
      .min(1)
      .max(300)
      .optional()
      .describe("Default: the working tree; alone: against its parent."),
    diff: z
      .string({ error: "diff must be a string" })
      .min(1, { error: "diff must not be empty" })
      .max(MAX_DIFF_CHARS, { error: `diff must be at most ${MAX_DIFF_CHARS} characters: pass the diff of fewer files` })
      .optional()
      .describe("A unified diff instead of git history."),
    target: z
      .string({ error: "target must be a string" })
      .min(1, { error: "target must not be empty" })
      .max(300)
      .optional()
      .describe("METHOD /path: only what its handler reaches."),
    budget: budget("", LIMITS.budget.context),
  }),
  output: z.object({
    mode: z.string().describe("worktree, staged, refs or diff."),
    base: z.object({ label: z.string(), rev: z.string().optional(), oid: z.string().optional() }),
    head: z.object({ label: z.string(), rev: z.string().optional(), oid: z.string().optional() }),
    headOnDisk: z.boolean().describe("True when the changed code cited is what the files on disk hold."),
    usage: z.object({
      tokens: z.int(),
      budget: z.int(),
      encoding: z.string(),
      envelope: z.int().optional().describe("Tokens reserved for this structured content within the budget."),
    }),
    budgetRequested: z.int().optional(),
    files: z.array(
      z.object({
        path: z.string(),
        oldPath: z.string().optional(),
        status: z.string(),
        reason: z.string().optional(),
        symbols: z.int(),
      }),
    ),
    symbols: z.array(
      z.object({
        change: z.string(),
        qualified: z.string(),
        kind: z.string(),
        path: z.string(),
        start: z.int(),
        end: z.int(),
        side: z.string().describe("head, or base for a removed definition (its lines as they were)."),
        signature: z.object({ old: z.string(), new: z.string() }).optional(),
        renamedFrom: z.string().optional(),
      }),
    ),
    impact: z.object({
      callers: z.array(impactItem),
      tests: z.array(impactItem),
      routes: z.array(
        z.object({
          method: z.string(),
          path: z.string(),
          file: z.string(),
          line: z.int(),
          depth: z.int(),
          handler: z.string().optional(),
        }),
      ),
    }),
    totals: z
      .object({ files: z.int(), symbols: z.int(), callers: z.int(), tests: z.int(), routes: z.int() })
      .describe(
        "Full counts; the lists above hold at most 100 entries each (fewer when they would take over half the budget).",
      ),
    notes: z.array(z.string()),
    chunks: z.array(
      z.object({
        path: z.string(),
        start: z.int(),
        end: z.int(),
        role: z.string(),
        symbol: z.string(),
        form: z.string(),
        tokens: z.int(),
      }),
    ),
    cut: z.array(
      z.object({
        handle: z.string(),
        path: z.string(),
        start: z.int(),
        end: z.int(),
        role: z.string(),
        tokens: z.int(),
      }),
    ),
    cutTotal: z.int(),
    crossRepoCallers: z
      .array(z.string())
      .optional()
      .describe("In a group: calls in the other repositories that reach the routes reached, repo:path:line."),
  }),
  async run(args, ctx) {
    const requested = args.budget ?? LIMITS.budget.context;
    const answer = await budgetedChanges(
      ctx,
      (b, envelope) =>
        ctx.engine.changes({
          budget: b,
          envelope,
          signal: ctx.signal,
          ...(args.staged ? { staged: true } : {}),
          ...(args.base !== undefined ? { base: args.base } : {}),
          ...(args.head !== undefined ? { head: args.head } : {}),
          ...(args.diff !== undefined ? { diff: args.diff } : {}),
          ...(args.target !== undefined ? { target: args.target } : {}),
        }),
      requested,
    );
    // In a group, the routes the change reaches lead on to their callers in the other repositories.
    const routes = (answer.data.impact as { routes?: { method: string; path: string }[] } | undefined)?.routes ?? [];
    const cross = await crossRepoCallers(ctx, routes, answer);
    return {
      ...answer,
      data: { ...answer.data, ...(ctx.group ? { crossRepoCallers: cross.callers } : {}) },
      ...(cross.suffix ? { suffix: cross.suffix } : {}),
    };
  },
});
