/**
 * `context`: the slicer's bundle for one target, fitted in one pass to a budget that never exceeds the response cap.
 */
import { z } from "zod";
import { envelopeRecord, LIMITS, type ContextAnswer, type Envelope } from "../../index.ts";
import { budget, contextOutput, targetArg } from "../schemas.ts";
import { defineTool, type ToolAnswer, type ToolContext } from "../tool.ts";

export const DEFAULT_CONTEXT_BUDGET = LIMITS.budget.context;

/** A number as wide as any this server reports (tokens, lines, counts), for the envelope's worst case. */
const WIDEST = 9_999_999;
/**
 * Tokens kept over the envelope's sum: JSON records counted one by one can tokenize differently
 * where they meet (measured: never more than a few tokens per answer).
 */
const JOIN_SLACK = 8;

/** The fields of each record the structured content repeats, in order: the envelope counts exactly these. */
const FIELDS = {
  seed: ["qualified", "kind", "path", "line"],
  chunk: ["path", "start", "end", "role", "symbol", "form", "tokens"],
  cut: ["handle", "path", "start", "end", "role", "tokens"],
} as const;

/** The structured content of a context answer. */
function structured(answer: ContextAnswer, requested: number, clamp: string | undefined) {
  return {
    // Words (a task, a search) are the caller's own argument, quoted in the text: not echoed here.
    ...(answer.resolvedAs === "search" ? {} : { target: answer.target }),
    resolvedAs: answer.resolvedAs,
    usage: {
      tokens: answer.usage.tokens,
      budget: answer.usage.budget,
      encoding: answer.usage.encoding,
      ...(answer.usage.envelope !== undefined ? { envelope: answer.usage.envelope } : {}),
    },
    ...(answer.usage.budget < requested ? { budgetRequested: requested } : {}),
    // The engine's records, with the fields the envelope counted.
    seeds: answer.seeds.map((r) => envelopeRecord(r, FIELDS.seed)),
    notes: clamp ? [...answer.notes, clamp] : answer.notes,
    chunks: answer.chunks.map((c) => envelopeRecord(c, FIELDS.chunk)),
    cut: answer.cut.slice(0, answer.cutListed).map((c) => envelopeRecord(c, FIELDS.cut)),
    cutTotal: answer.cut.length,
  };
}

/**
 * Runs context or pack once, with `budget = min(requested, cap)` covering the text and the
 * structured content together: the structured content's own fields (at their widest) and the
 * note about a lowered budget are the envelope's fixed part, and the engine adds what each record
 * it lists costs (seeds, notes, chunks, cut entries), so the answer is fitted in one pass.
 */
export async function budgetedContext(
  ctx: ToolContext,
  target: string,
  call: (budget: number, envelope: Envelope) => Promise<ContextAnswer>,
  requested: number,
): Promise<ToolAnswer> {
  const b = Math.min(requested, ctx.cap);
  const clamp =
    b < requested
      ? `budget lowered from ${requested} to ${b} tokens to fit this server's response cap (${ctx.responseCap} ` +
        `tokens); ask for a cut chunk by its handle to see more.`
      : undefined;
  const widest: ContextAnswer = {
    target,
    resolvedAs: "search",
    seeds: [],
    notes: [],
    chunks: [],
    cut: [],
    cutListed: 0,
    text: "",
    usage: { tokens: WIDEST, budget: b, encoding: "cl100k_base", envelope: WIDEST },
  };
  const skeleton = structured(widest, requested, undefined);
  const fixed =
    ctx.count(JSON.stringify({ ...skeleton, cutTotal: WIDEST })) +
    (clamp ? ctx.count(`\nNote: ${clamp}`) + ctx.count(JSON.stringify(clamp)) + 1 : 0) +
    JOIN_SLACK;
  const answer = await call(b, { fixed, perRecord: 1, fields: FIELDS });
  const text = clamp ? `${answer.text}\nNote: ${clamp}` : answer.text;
  const data = structured(answer, requested, clamp);
  const size = ctx.measure(text, data);
  if (size > b)
    ctx.log.warn(`context answer of ${size} tokens (text and structured content) exceeds its budget of ${b}`);
  return { text, data };
}

export const contextTool = defineTool({
  name: "context",
  title: "Code context for a target",
  description:
    "Whole code chunks that explain a target, fitted to a token budget: the target, then the types it uses, its " +
    ("callees, callers, route registrations and tests. Each chunk is headed `## path:start-end [role] name` " +
      ("(cite these); chunks that did not fit are listed as cut, with a handle to ask for. Use it instead of " +
        "reading whole files.")),
  input: z.strictObject({
    target: targetArg(
      "target",
      'A symbol (Class.method, pkg.mod.func, src/a.ts#Class.method), path::symbol, a file path, "METHOD /path", ' +
        "or a few words.",
      "for a task described in words use pack with its key words",
    ),
    budget: budget("", DEFAULT_CONTEXT_BUDGET),
    encoding: z
      .enum(["o200k_base", "cl100k_base"], { error: "encoding must be o200k_base or cl100k_base" })
      .optional()
      .describe("Tokenizer (default o200k_base)."),
  }),
  output: contextOutput,
  async run(args, ctx) {
    const requested = args.budget ?? DEFAULT_CONTEXT_BUDGET;
    return budgetedContext(
      ctx,
      args.target,
      (b, envelope) =>
        ctx.engine.context(args.target, {
          budget: b,
          envelope,
          ...(args.encoding ? { encoding: args.encoding } : {}),
          signal: ctx.signal,
        }),
      requested,
    );
  },
});
