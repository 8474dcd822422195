/**
 * Brief outlines: a long class's or file's outline cut to a number of tokens, so no outline takes
 * more than its share of a budget and a seed that is a 1,000-line class still fits a small one.
 * A class keeps the members that matter — the ones the seed calls, then its constructor, then
 * public ones, in declaration order — and counts the rest ("… 37 more members"); a file keeps its
 * first constants and as many top-level definitions (each as a brief) as fit, and counts the rest.
 * A long outline gets a ladder of briefs between BRIEF_TOKENS and its whole size, each holding the
 * one before, so a budget shows as much of it as its share allows.
 */
import { fromLanguages, languageById } from "../../languages/index.ts";
import { DEFAULT_SEMANTICS } from "../../languages/types.ts";
import type { CodeGraph, SymbolNode } from "../graph/model.ts";
import { outline } from "../query/queries.ts";

/** Tokens a brief outline takes at most (a seed's brief at a 600-token budget leaves room for the rest). */
export const BRIEF_TOKENS = 240;
/**
 * How much larger each next brief of a long outline is: the briefs between BRIEF_TOKENS and the whole outline let a
 * budget show as much of a long class as its share allows, not a fixed brief far below it.
 */
const BRIEF_GROWTH = Math.SQRT2;
/** Fields a class's brief lists at most. */
const BRIEF_FIELDS = 6;
/** Module constants a file's brief lists at most. */
const BRIEF_CONSTANTS = 6;

/** Every language's constructor names (LanguageSpec.constructorNames). */
const CONSTRUCTORS = fromLanguages((langs) => new Set(langs.flatMap((l) => l.constructorNames ?? [])));

/** How much a member matters to a reader of the class: lower first. */
function weight(m: SymbolNode, used: ReadonlySet<number>): number {
  if (used.has(m.id)) return 0;
  if (CONSTRUCTORS().has(m.name)) return 1;
  return /^[_#]/.test(m.name) ? 3 : 2;
}

/**
 * The caps of a long outline's briefs: BRIEF_TOKENS, then each BRIEF_GROWTH times the one before, while below
 * `outlineTokens` (the whole outline is the next size up).
 */
export function briefCaps(outlineTokens: number): number[] {
  const caps: number[] = [];
  for (let cap = BRIEF_TOKENS; cap < outlineTokens; cap = Math.round(cap * BRIEF_GROWTH)) caps.push(cap);
  return caps;
}

/**
 * A symbol's outline within `cap` tokens (as near as its header allows): its docstring's first line
 * and, for a class, the members that matter first (`used`: the ones the seed calls), the rest counted.
 */
export function briefClassOutline(
  graph: CodeGraph,
  s: SymbolNode,
  used: ReadonlySet<number>,
  count: (text: string) => number,
  cap = BRIEF_TOKENS,
): string {
  return briefClassOutlines(graph, s, used, count, [cap])[0]!;
}

/**
 * A symbol's briefs, one per cap (smallest first), each within its cap as near as the header allows and each
 * holding every member and field of the one before: members are added in the order they matter (`used`: the ones
 * the seed calls, then constructors, then public ones, in declaration order), skipping one too long for what is
 * left, so a larger budget's outline only ever shows more of the class. A brief that would show nothing more than
 * the one before is left out.
 */
export function briefClassOutlines(
  graph: CodeGraph,
  s: SymbolNode,
  used: ReadonlySet<number>,
  count: (text: string) => number,
  caps: readonly number[],
): string[] {
  const members = (graph.children.get(s.id) ?? []).map((id) => graph.symbols[id]!).filter((m) => m.kind !== "module");
  const ranked = members
    .map((m, i) => ({ m, i, w: weight(m, used) }))
    .sort((a, b) => a.w - b.w || a.i - b.i)
    .map((x) => x.m);
  const memberCost = new Map<number, number>();
  const costOf = (m: SymbolNode) => {
    let c = memberCost.get(m.id);
    if (c === undefined) memberCost.set(m.id, (c = count(outline(graph, m, 1)) + 1));
    return c;
  };
  const keep = new Set<number>();
  const render = (fields: number) => outline(graph, s, 0, { members: keep, fields });
  const out: string[] = [];
  let fields = -1;
  for (const [k, cap] of caps.entries()) {
    // The first brief lists a few fields (none when they alone are over the cap); each next one may list more.
    const want = k === 0 ? BRIEF_FIELDS : BRIEF_FIELDS << k;
    if (fields < 0) fields = count(render(want)) > cap ? 0 : want;
    else if (want > fields && count(render(want)) <= cap / 2) fields = want;
    // Each member's outline line(s) add about their own count: add while the estimate holds, then check.
    let total = count(render(fields));
    const added: number[] = [];
    for (const m of ranked) {
      if (keep.has(m.id)) continue;
      const cost = costOf(m);
      if (total + cost > cap) continue;
      keep.add(m.id);
      added.push(m.id);
      total += cost;
    }
    let text = render(fields);
    while (added.length && count(text) > cap) {
      keep.delete(added.pop()!);
      text = render(fields);
    }
    if (out.length === 0 || text !== out.at(-1)) out.push(text);
    if (keep.size === members.length) break;
  }
  return out;
}

/**
 * A file's outline within `cap` tokens: its first constants, then its top-level definitions in
 * order, each as a brief (header, first docstring line, members counted), while they fit.
 */
export function briefFileOutline(
  graph: CodeGraph,
  moduleId: number,
  constants: readonly string[],
  count: (text: string) => number,
  cap = BRIEF_TOKENS,
): string {
  const m = graph.symbols[moduleId]!;
  const comment = (languageById(m.language)?.semantics ?? DEFAULT_SEMANTICS).blocks === "indent" ? "#" : "//";
  const parts: string[] = [];
  let total = 0;
  const shownConstants = constants.slice(0, BRIEF_CONSTANTS);
  if (shownConstants.length) {
    const text = [
      ...shownConstants,
      ...(constants.length > shownConstants.length
        ? [`${comment} … ${constants.length - shownConstants.length} more constants`]
        : []),
    ].join("\n");
    parts.push(text);
    total += count(text) + 2;
  }
  const defs = graph.children.get(moduleId) ?? [];
  let shown = 0;
  const none = new Set<number>();
  for (const id of defs) {
    const text = outline(graph, graph.symbols[id]!, 0, { members: none, fields: 0 });
    const cost = count(text) + 2;
    if (total + cost > cap - 12) break;
    parts.push(text);
    total += cost;
    shown++;
  }
  if (shown < defs.length)
    parts.push(`${comment} … ${defs.length - shown} more definition${defs.length - shown > 1 ? "s" : ""}`);
  return parts.join("\n\n");
}

/**
 * A file's briefs, one per cap (smallest first): each a longer run of its top-level definitions than the one
 * before (a brief that adds none is left out).
 */
export function briefFileOutlines(
  graph: CodeGraph,
  moduleId: number,
  constants: readonly string[],
  count: (text: string) => number,
  caps: readonly number[],
): string[] {
  const out: string[] = [];
  for (const cap of caps) {
    const text = briefFileOutline(graph, moduleId, constants, count, cap);
    if (text !== out.at(-1)) out.push(text);
  }
  return out;
}
