/**
 * What the paged list tools (callers, callees, importers, tests, trace) share: their budget, which
 * covers the text and the structured content alike, lowered for the server's freshness line and
 * its response cap.
 */
import { EngineError, isEngineError, LIMITS } from "../../index.ts";
import type { ToolContext } from "../tool.ts";

/** Default budget of a list answer: 4,000 tokens for the whole response, freshness line included. */
export const DEFAULT_LIST_BUDGET = LIMITS.budget.list;

/**
 * The engine budget for a list answer: the requested tokens (default 4,000) less what the server
 * adds (the freshness line and field) and less `extra` (notes the tool appends), never above the
 * response cap.
 */
export function listBudget(
  ctx: ToolContext,
  requested: number | undefined,
  extra = 0,
): { budget: number; withheld: number; note?: string } {
  const reserve = ctx.responseCap - ctx.cap;
  const asked = requested ?? DEFAULT_LIST_BUDGET;
  const capped = Math.min(asked, ctx.responseCap);
  // The clamp note goes into the text and the notes field: keep room for it.
  const note =
    capped < asked ? `budget lowered from ${asked} to ${capped} tokens, this server's response cap` : undefined;
  const withheld = reserve + extra + (note ? 2 * ctx.count(note) + 8 : 0);
  const budget = Math.max(1, capped - withheld);
  return note ? { budget, withheld, note } : { budget, withheld };
}

/**
 * Runs an engine call made with {@link listBudget}'s budget. The engine's `budget_too_small` names
 * what *it* needs; the tool's caller asks in tool terms, which the server lowers by what it keeps
 * back, so the figure handed on is the engine's plus that: asked again with it, the call answers
 * (reported as 94 → "needs 214" → 214 → "needs 214" for ever, before).
 */
export async function inToolBudget<T>(
  requested: number | undefined,
  withheld: number,
  run: () => Promise<T>,
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!isEngineError(error, "budget_too_small")) throw error;
    const asked = requested ?? DEFAULT_LIST_BUDGET;
    const needed = error.data.needed + withheld;
    throw new EngineError(
      "budget_too_small",
      `A budget of ${asked} tokens cannot hold even the answer's header and notes (with what the server adds to ` +
        `every answer); it needs ${needed}.`,
      {
        hint: `Ask again with budget ≥ ${needed}.`,
        data: { ...error.data, budget: asked, needed },
        cause: error,
      },
    );
  }
}

/** The paging arguments the list tools share. */
export interface ListArgs {
  depth?: number | undefined;
  budget?: number | undefined;
  limit?: number | undefined;
  cursor?: string | undefined;
  tests?: "summary" | "include" | "exclude" | "only" | undefined;
}

/**
 * The engine options of a list tool's call and the notes its answer carries: the depth clamped to
 * the engine's bound, the budget lowered for the server's reserve and cap (each said in a note),
 * and the paging arguments passed on as given.
 */
export function listCall(ctx: ToolContext, args: ListArgs) {
  const notes: string[] = [];
  let depth = args.depth;
  if (depth !== undefined && depth > LIMITS.depth.max) {
    notes.push(`depth lowered from ${depth} to ${LIMITS.depth.max}, the most this server follows`);
    depth = LIMITS.depth.max;
  }
  const { budget, withheld, note } = listBudget(ctx, args.budget, notes.length ? 40 : 0);
  if (note) notes.push(note);
  const options = {
    signal: ctx.signal,
    budget,
    json: true as const,
    ...(depth !== undefined ? { depth } : {}),
    ...(args.limit !== undefined ? { limit: args.limit } : {}),
    ...(args.cursor !== undefined ? { cursor: args.cursor } : {}),
    ...(args.tests !== undefined ? { tests: args.tests } : {}),
  };
  /** Runs the engine call, a budget error worded in the tool's budget ({@link inToolBudget}). */
  const run = <T>(call: () => Promise<T>) => inToolBudget(args.budget, withheld, call);
  return { options, notes, run };
}

/** The engine's text with the tool's notes after it. */
export const withNotes = (text: string, notes: readonly string[]): string =>
  notes.length ? [text, ...notes.map((n) => `Note: ${n}`)].join("\n") : text;
