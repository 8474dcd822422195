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
