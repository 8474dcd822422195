/**
 * What callers and callees share: the engine's call walk, rendered with call sites and
 * resolution confidence, trimmed to whole entries under the response cap (resolved results
 * first, then external calls, then name-only possibilities).
 */
import { z } from "zod";
import { LIMITS, type CallsAnswer, type RelatedSymbol } from "../../index.ts";

const MAX_DEPTH = LIMITS.depth.max;
import { largestFitting } from "../fit.ts";
import { at as cite, plural } from "../render.ts";
import { depth, site, symbolArg, symbolRef } from "../schemas.ts";
import type { ToolAnswer, ToolContext } from "../tool.ts";

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

function render(a: CallsAnswer, results: RelatedSymbol[], external: CallsAnswer["external"], possible: CallsAnswer["possible"], omitted: number, notes: string[]): string {
  const s = a.symbol;
  const callers = a.direction === "callers";
  const lines = [`${callers ? "Callers of" : "Callees of"} ${s.qualified} (${s.kind}, ${cite(s.path, s.line)})${a.depth > 1 ? `, depth ${a.depth}` : ""}: ${plural(a.results.length, callers ? "call site" : "call")}`];
  if (a.results.length === 0) lines.push(callers ? "No resolved callers found." : "No calls into project code found.");
  for (const r of results) {
    lines.push(`${"  ".repeat(r.depth - 1)}- ${cite(r.site.path, r.site.line)} ${callers ? "in " : "→ "}${r.qualified} (${r.kind}, ${cite(r.path, r.line)})${r.via !== "call" ? ` via ${r.via}` : ""} [${r.resolution}, ${r.confidence.toFixed(2)}]`);
  }
  if (external.length) {
    lines.push("", `External calls (${a.external.length}):`);
    for (const x of external) lines.push(`- ${cite(x.site.path, x.site.line)} → ${x.target}`);
  }
  if (possible.length) {
    lines.push("", `Possible callers by name only (${a.possible.length}; several definitions share the name, nothing ties these calls to this one):`);
    for (const p of possible) lines.push(`- ${cite(p.site.path, p.site.line)} in ${p.caller.qualified} [${p.candidates} candidates]`);
  }
  if (omitted > 0) lines.push("", `${omitted} more not shown (response cap); ask with a smaller depth or a more specific symbol.`);
  for (const n of notes) lines.push(`Note: ${n}`);
  return lines.join("\n");
}

/** Runs callers or callees and trims the answer to the cap. */
export async function runCalls(direction: "callers" | "callees", args: z.output<typeof callsInput>, ctx: ToolContext): Promise<ToolAnswer> {
  const notes: string[] = [];
  let d = args.depth ?? 1;
  if (d > MAX_DEPTH) {
    notes.push(`depth lowered from ${d} to ${MAX_DEPTH}, the most this server follows`);
    d = MAX_DEPTH;
  }
  const a = await ctx.engine[direction](args.symbol, { depth: d, signal: ctx.signal });
  const total = a.results.length + a.external.length + a.possible.length;
  // Entries are kept in priority order: resolved results, then external calls, then possibilities.
  const shape = (k: number) => {
    const results = a.results.slice(0, k);
    const external = a.external.slice(0, Math.max(0, k - a.results.length));
    const possible = a.possible.slice(0, Math.max(0, k - a.results.length - a.external.length));
    const omitted = total - k;
    return {
      text: render(a, results, external, possible, omitted, notes),
      data: {
        symbol: ref(a.symbol),
        direction: a.direction,
        depth: a.depth,
        results: results.map(related),
        external: external.map((x) => ({ target: x.target, site: at(x.site) })),
        possible: possible.map((p) => ({ caller: ref(p.caller), site: at(p.site), candidates: p.candidates })),
        total: { results: a.results.length, external: a.external.length, possible: a.possible.length },
        omitted,
        notes,
      },
    };
  };
  const k = largestFitting(total, (n) => {
    const s = shape(n);
    return ctx.measure(s.text, s.data) <= ctx.cap;
  });
  return shape(k);
}
