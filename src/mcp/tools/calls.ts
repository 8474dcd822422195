/**
 * What callers and callees share: the engine's call walk, one page of it (production code first,
 * test code counted by file unless asked for), within a budget that covers the text and the
 * structured content alike, with the totals, the next page's cursor and what could not be seen.
 */
import { z } from "zod";
import type { CallsPage, RelatedSymbol } from "../../index.ts";

import {
  budget,
  completeness,
  cursor,
  depth,
  limit,
  page,
  pageOf,
  site,
  symbolArg,
  symbolRef,
  testCode,
  testsMode,
} from "../schemas.ts";
import type { ToolAnswer, ToolContext } from "../tool.ts";
import { DEFAULT_LIST_BUDGET, listCall, withNotes } from "./list.ts";

export const callsInput = z.strictObject({
  symbol: symbolArg,
  depth,
  limit,
  cursor,
  tests: testsMode,
  budget: budget("", DEFAULT_LIST_BUDGET),
});

export const callsOutput = z.object({
  symbol: symbolRef,
  direction: z.string(),
  depth: z.int(),
  results: z.array(
    symbolRef.extend({
      depth: z.int().describe("Hops from the queried symbol (1 = direct)."),
      site: site.describe("Where the call is."),
      via: z.string().describe("call, constructor or super."),
      resolution: z.string().describe("How the call was resolved: scope, import, self, type, unique-name, …"),
      confidence: z.number(),
      test: z.string().optional().describe("For a call in a test: the test's runnable id in its runner's syntax."),
    }),
  ),
  external: z
    .array(z.object({ target: z.string(), site }))
    .describe("Calls into code outside the project (callees only)."),
  possible: z
    .array(z.object({ caller: symbolRef, site, candidates: z.int() }))
    .describe("Call sites that match the name only; several definitions share it (callers only)."),
  total: z
    .object({ results: z.int(), external: z.int(), possible: z.int() })
    .optional()
    .describe("Entries of the whole answer, before the tests filter and paging; absent when all are listed."),
  testCode: testCode
    .extend({ results: z.int(), possible: z.int() })
    .describe("Of those, entries in test code, by file."),
  page,
  omitted: z
    .int()
    .describe("Entries of the whole answer not on this page (other pages, or test code counted rather than listed)."),
  completeness,
  notes: z.array(z.string()),
});

type Ref = { qualified: string; kind: string; path: string; line: number };
const ref = (r: Ref): Ref => ({ qualified: r.qualified, kind: r.kind, path: r.path, line: r.line });
const at = (s: { path: string; line: number }) => ({ path: s.path, line: s.line });
const related = (r: RelatedSymbol) => ({
  ...ref(r),
  depth: r.depth,
  site: at(r.site),
  via: r.via,
  resolution: r.resolution,
  confidence: r.confidence,
  ...(r.test ? { test: r.test } : {}),
});

/** The structured content of one page (the fields the output schema names, nothing else). */
function data(a: CallsPage, notes: string[]) {
  const entries = a.total.results + a.total.external + a.total.possible;
  return {
    symbol: ref(a.symbol),
    direction: a.direction,
    depth: a.depth,
    results: a.results.map(related),
    external: a.external.map((x) => ({ target: x.target, site: at(x.site) })),
    possible: a.possible.map((p) => ({ caller: ref(p.caller), site: at(p.site), candidates: p.candidates })),
    // Everything listed: the lists' lengths are the totals and the page.
    ...(entries > a.page.shown ? { total: a.total } : {}),
    testCode: a.testCode,
    page: pageOf(a.page),
    omitted: entries - a.page.shown,
    completeness: a.completeness,
    notes,
  };
}

/** Runs callers or callees: one page within the budget. */
export async function runCalls(
  direction: "callers" | "callees",
  args: z.output<typeof callsInput>,
  ctx: ToolContext,
): Promise<ToolAnswer> {
  const { options, notes, run } = listCall(ctx, args);
  const a = await run(() => ctx.engine[direction](args.symbol, options));
  return { text: withNotes(a.text, notes), data: data(a, notes) };
}
