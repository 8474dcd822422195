/**
 * Brief outlines: a long class's or file's outline cut to a fixed number of tokens, so no outline
 * takes more than its share of a budget and a seed that is a 1,000-line class still fits a small
 * one. A class keeps the members that matter — the ones the seed calls, then its constructor, then
 * public ones, in declaration order — and counts the rest ("… 37 more members"); a file keeps its
 * first constants and as many top-level definitions (each as a brief) as fit, and counts the rest.
 */
import { fromLanguages, languageById } from "../../languages/index.ts";
import { DEFAULT_SEMANTICS } from "../../languages/types.ts";
import type { CodeGraph, SymbolNode } from "../graph/model.ts";
import { outline } from "../query/queries.ts";

/** Tokens a brief outline takes at most (a seed's brief at a 600-token budget leaves room for the rest). */
export const BRIEF_TOKENS = 240;
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
  const members = (graph.children.get(s.id) ?? []).map((id) => graph.symbols[id]!).filter((m) => m.kind !== "module");
  const ranked = members
    .map((m, i) => ({ m, i, w: weight(m, used) }))
    .sort((a, b) => a.w - b.w || a.i - b.i)
    .map((x) => x.m);
  const keep = new Set<number>();
  let fields = BRIEF_FIELDS;
  let total = count(outline(graph, s, 0, { members: keep, fields }));
  if (total > cap) {
    fields = 0;
    total = count(outline(graph, s, 0, { members: keep, fields }));
  }
  // Each member's outline line(s) add about their own count: add while the estimate holds, then check.
  for (const m of ranked) {
    const cost = count(outline(graph, m, 1)) + 1;
    if (total + cost > cap) continue;
    keep.add(m.id);
    total += cost;
  }
  let text = outline(graph, s, 0, { members: keep, fields });
  while (keep.size && count(text) > cap) {
    keep.delete([...keep].at(-1)!);
    text = outline(graph, s, 0, { members: keep, fields });
  }
  return text;
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
