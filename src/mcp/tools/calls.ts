/**
 * What callers and callees share: the engine's call walk, rendered with call sites and
 * resolution confidence, trimmed to whole entries under the response cap (resolved results
 * first, then external calls, then name-only possibilities).
 */
import { z } from "zod";
import { fitBlocks, LIMITS, type Block, type CallsAnswer, type RelatedSymbol } from "../../index.ts";
import { at as cite, plural } from "../render.ts";
import { depth, site, symbolArg, symbolRef } from "../schemas.ts";
import type { ToolAnswer, ToolContext } from "../tool.ts";

/** Hops this server follows at most (the engine's bound). */
export const MAX_DEPTH = LIMITS.depth.max;

export const callsInput = z.strictObject({ symbol: symbolArg, depth });

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
    }),
  ),
  external: z.array(z.object({ target: z.string(), site })).describe("Calls into code outside the project (callees only)."),
  possible: z
    .array(z.object({ caller: symbolRef, site, candidates: z.int() }))
    .describe("Call sites that match the name only; several definitions share it (callers only)."),
  total: z.object({ results: z.int(), external: z.int(), possible: z.int() }),
  omitted: z.int().describe("Entries left out to fit the response cap."),
  notes: z.array(z.string()),
});

type Ref = { qualified: string; kind: string; path: string; line: number };
const ref = (r: Ref): Ref => ({ qualified: r.qualified, kind: r.kind, path: r.path, line: r.line });
const at = (s: { path: string; line: number }) => ({ path: s.path, line: s.line });
const related = (r: RelatedSymbol) => ({ ...ref(r), depth: r.depth, site: at(r.site), via: r.via, resolution: r.resolution, confidence: r.confidence });

/** Runs callers or callees and fits whole entries under the cap (results, then external calls, then possibilities). */
export async function runCalls(direction: "callers" | "callees", args: z.output<typeof callsInput>, ctx: ToolContext): Promise<ToolAnswer> {
  const notes: string[] = [];
  let d = args.depth ?? LIMITS.depth.default;
  if (d > MAX_DEPTH) {
    notes.push(`depth lowered from ${d} to ${MAX_DEPTH}, the most this server follows`);
    d = MAX_DEPTH;
  }
  const a = await ctx.engine[direction](args.symbol, { depth: d, signal: ctx.signal });
  const s = a.symbol;
  const callers = a.direction === "callers";
  const record = (value: unknown) => ctx.count(JSON.stringify(value)) + 1;
  // One block per entry, in priority order; the first of a section carries the section's heading.
  const blocks: Block[] = [
    ...a.results.map((r) => ({
      full: `${"  ".repeat(r.depth - 1)}- ${cite(r.site.path, r.site.line)} ${callers ? "in " : "→ "}${r.qualified} (${r.kind}, ${cite(r.path, r.line)})${r.via !== "call" ? ` via ${r.via}` : ""} [${r.resolution}, ${r.confidence.toFixed(2)}]`,
      envelope: { full: record(related(r)) },
    })),
    ...a.external.map((x, i) => ({
      full: `${i === 0 ? `\nExternal calls (${a.external.length}):\n` : ""}- ${cite(x.site.path, x.site.line)} → ${x.target}`,
      envelope: { full: record({ target: x.target, site: at(x.site) }) },
    })),
    ...a.possible.map((p, i) => ({
      full: `${i === 0 ? `\nPossible callers by name only (${a.possible.length}; several definitions share the name, nothing ties these calls to this one):\n` : ""}- ${cite(p.site.path, p.site.line)} in ${p.caller.qualified} [${p.candidates} candidates]`,
      envelope: { full: record({ caller: ref(p.caller), site: at(p.site), candidates: p.candidates }) },
    })),
  ];
  const total = { results: a.results.length, external: a.external.length, possible: a.possible.length };
  const skeleton = { symbol: ref(s), direction: a.direction, depth: a.depth, results: [], external: [], possible: [], total, omitted: blocks.length, notes };
  const fit = fitBlocks({
    header: [
      `${callers ? "Callers of" : "Callees of"} ${s.qualified} (${s.kind}, ${cite(s.path, s.line)})${a.depth > 1 ? `, depth ${a.depth}` : ""}: ${plural(a.results.length, callers ? "call site" : "call")}`,
      ...(a.results.length === 0 ? [callers ? "No resolved callers found." : "No calls into project code found."] : []),
    ].join("\n"),
    blocks,
    budget: ctx.cap,
    count: ctx.count,
    separator: "\n",
    prefix: true,
    envelope: ctx.count(JSON.stringify(skeleton)),
    footer: (f) => [...(f.omitted > 0 ? ["", `${f.omitted} more not shown (response cap); ask with a smaller depth or a more specific symbol.`] : []), ...notes.map((n) => `Note: ${n}`)].join("\n"),
  });
  const k = blocks.length - fit.omitted;
  const results = a.results.slice(0, k);
  const external = a.external.slice(0, Math.max(0, k - a.results.length));
  const possible = a.possible.slice(0, Math.max(0, k - a.results.length - a.external.length));
  return {
    text: fit.text,
    data: {
      symbol: ref(s),
      direction: a.direction,
      depth: a.depth,
      results: results.map(related),
      external: external.map((x) => ({ target: x.target, site: at(x.site) })),
      possible: possible.map((p) => ({ caller: ref(p.caller), site: at(p.site), candidates: p.candidates })),
      total,
      omitted: fit.omitted,
      notes,
    },
  };
}
