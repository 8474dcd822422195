/** `context`: the slicer's bundle for one target, fitted to a budget that never exceeds the response cap. */
import { z } from "zod";
import { LIMITS, type ContextAnswer } from "../../index.ts";
import { budget, contextOutput } from "../schemas.ts";
import { defineTool, type ToolAnswer, type ToolContext } from "../tool.ts";

export const DEFAULT_CONTEXT_BUDGET = LIMITS.budget.context;
/** Cut entries listed in the structured content (the text lists its own first few). */
const CUT_LISTED = 20;

/**
 * Runs context or pack with `budget = min(requested, cap)`. The budget covers the answer's text;
 * the structured content repeats that text as a JSON string (escaped, so a little longer) next
 * to the chunk list, so when the whole would pass the cap the budget is lowered and the slice
 * recomputed, at most a few times.
 */
export async function budgetedContext(
  ctx: ToolContext,
  call: (budget: number) => Promise<ContextAnswer>,
  requested: number,
): Promise<ToolAnswer> {
  let b = Math.min(requested, ctx.cap);
  for (let attempt = 0; ; attempt++) {
    const answer = await call(b);
    const clampNote = b < requested
      ? `Note: budget lowered from ${requested} to ${b} tokens to fit this server's response cap (${ctx.responseCap} tokens); ask for a cut chunk by its handle to see more.`
      : undefined;
    const text = clampNote ? `${answer.text}\n${clampNote}` : answer.text;
    const data = {
      target: answer.target,
      resolvedAs: answer.resolvedAs,
      usage: { tokens: answer.usage.tokens, budget: answer.usage.budget, encoding: answer.usage.encoding },
      ...(b < requested ? { budgetRequested: requested } : {}),
      text,
      seeds: answer.seeds.map((r) => ({ qualified: r.qualified, kind: r.kind, path: r.path, line: r.line })),
      notes: clampNote ? [...answer.notes, clampNote.replace(/^Note: /, "")] : answer.notes,
      chunks: answer.chunks.map((c) => ({ path: c.path, start: c.start, end: c.end, role: c.role, symbol: c.symbol, form: c.form, tokens: c.tokens })),
      cut: answer.cut.slice(0, CUT_LISTED).map((c) => ({ handle: c.handle, path: c.path, start: c.start, end: c.end, role: c.role, tokens: c.tokens })),
      cutTotal: answer.cut.length,
    };
    const size = ctx.measure(text, data);
    if (size <= ctx.cap || attempt >= 3 || b <= 1) {
      if (size > ctx.cap) ctx.log.warn(`context answer of ${size} tokens exceeds the cap of ${ctx.cap} after ${attempt + 1} attempts`);
      return { text, data };
    }
    // Shrink in proportion to the overshoot, with a margin for the next round's rounding.
    b = Math.max(1, Math.floor((b * ctx.cap) / size) - 64);
  }
}

export const contextTool = defineTool({
  name: "context",
  title: "Code context for a target",
  description: [
    "Returns the smallest bundle of whole code chunks that explains a target, fitted to a token budget: the target itself (with decorators), the types it uses, what it calls, who calls it, route registrations and tests that exercise it, in that priority order.",
    "Each chunk starts with a header `## path:start-end [role] name`; cite those headers. Chunks that did not fit are listed as cut with a handle and their token cost, so you can ask for exactly one of them next.",
    "Target forms: a symbol (Session.send, pkg.module.func, src/a.ts#Class.method), path::symbol, a file path (the file's outline), an HTTP route (\"POST /api/users\"), or a few words (search picks the seed and the answer says which).",
    "Use this instead of reading whole files when you need to understand or change a piece of code. Limits: read-only; only files of the indexed project; budget is capped by the server's response limit.",
  ].join("\n"),
  input: z.strictObject({
    target: z
      .string({ error: "target must be a string" })
      .min(1, { error: "target must not be empty" })
      .max(2000, { error: "target must be at most 2000 characters; for a task described in words use pack with its key words" })
      .describe("What to explain: a symbol, path::symbol, a file path, \"METHOD /path\", or a few words."),
    budget: budget("8000 fits one function with its types, callees and callers.", DEFAULT_CONTEXT_BUDGET),
    encoding: z.enum(["o200k_base", "cl100k_base"], { error: "encoding must be o200k_base or cl100k_base" }).optional().describe("Tokenizer for the budget (default o200k_base)."),
  }),
  output: contextOutput,
  async run(args, ctx) {
    const requested = args.budget ?? DEFAULT_CONTEXT_BUDGET;
    return budgetedContext(ctx, (b) => ctx.engine.context(args.target, { budget: b, ...(args.encoding ? { encoding: args.encoding } : {}), signal: ctx.signal }), requested);
  },
});
