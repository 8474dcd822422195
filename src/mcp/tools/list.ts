/**
 * What the paged list tools (callers, callees, importers, tests, trace) share: their budget, which
 * covers the text and the structured content alike, lowered for the server's freshness line and
 * its response cap.
 */
import { LIMITS } from "../../index.ts";
import type { ToolContext } from "../tool.ts";

/** Default budget of a list answer: 4,000 tokens for the whole response, freshness line included. */
export const DEFAULT_LIST_BUDGET = LIMITS.budget.list;

/**
 * The engine budget for a list answer: the requested tokens (default 4,000) less what the server
 * adds (the freshness line and field) and less `extra` (notes the tool appends), never above the
 * response cap.
 */
export function listBudget(ctx: ToolContext, requested: number | undefined, extra = 0): { budget: number; note?: string } {
  const reserve = ctx.responseCap - ctx.cap;
  const asked = requested ?? DEFAULT_LIST_BUDGET;
  const capped = Math.min(asked, ctx.responseCap);
  // The clamp note goes into the text and the notes field: keep room for it.
  const note = capped < asked ? `budget lowered from ${asked} to ${capped} tokens, this server's response cap` : undefined;
  const budget = Math.max(1, capped - reserve - extra - (note ? 2 * ctx.count(note) + 8 : 0));
  return note ? { budget, note } : { budget };
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
  const { budget, note } = listBudget(ctx, args.budget, notes.length ? 40 : 0);
  if (note) notes.push(note);
  const options = {
    signal: ctx.signal, budget, json: true as const,
    ...(depth !== undefined ? { depth } : {}), ...(args.limit !== undefined ? { limit: args.limit } : {}),
    ...(args.cursor !== undefined ? { cursor: args.cursor } : {}), ...(args.tests !== undefined ? { tests: args.tests } : {}),
  };
  return { options, notes };
}

/** The engine's text with the tool's notes after it. */
export const withNotes = (text: string, notes: readonly string[]): string => (notes.length ? [text, ...notes.map((n) => `Note: ${n}`)].join("\n") : text);
