/**
 * The order a `changes` answer shows changed definitions in, so its budget goes to what a reader
 * of the change needs first: production code before tests, changed signatures first, and new code
 * the change depends on (a new helper class the changed code calls) just before the old code that
 * calls it, not after every other change (issue 24, "budget spent well").
 */
import type { CodeGraph } from "../graph/model.ts";
import type { ChangeKind } from "./symbols.ts";

/** What the order needs of a changed definition. */
export interface OrderedSymbol {
  change: ChangeKind;
  /** The in-file name (`Class.method`). */
  name: string;
  test: boolean;
  /** Shown inside the added or removed definition it came or went with. */
  within?: string;
}

const CHANGE_ORDER: Record<ChangeKind, number> = { signature: 0, renamed: 1, removed: 2, body: 3, added: 4 };

/** `id` and every definition nested in it. */
function withNested(graph: CodeGraph, id: number): Set<number> {
  const out = new Set<number>([id]);
  const stack = [id];
  while (stack.length)
    for (const c of graph.children.get(stack.pop()!) ?? []) if (!out.has(c)) out.add(c), stack.push(c);
  return out;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Whether the changed definition `user` depends on the added one `added`: a call edge from it (or
 * a definition nested in it) to the added one (or one nested in it), a type it names, or the added
 * definition's name as a word in the lines the change added to it (what a new helper's first use
 * looks like when the graph does not resolve it).
 */
function dependsOn(
  graph: CodeGraph,
  user: { id: number | undefined; addedText: string },
  added: { id: number | undefined; name: string },
): boolean {
  if (user.id !== undefined && added.id !== undefined) {
    const targets = withNested(graph, added.id);
    for (const s of withNested(graph, user.id)) {
      for (const ei of graph.callsFrom.get(s) ?? []) if (targets.has(graph.calls[ei]!.callee)) return true;
      for (const t of graph.typeUses.get(s) ?? []) if (targets.has(t)) return true;
    }
  }
  const short = added.name.split(".").pop()!;
  return short.length >= 3 && new RegExp(`(^|[^\\w$])${escape(short)}($|[^\\w$])`).test(user.addedText);
}

/**
 * The indices of `symbols` in the order their chunks are planned: production code, then tests;
 * within each, changed signatures, renames, removals, bodies, then additions — except an addition
 * that changed code of the same group depends on ({@link dependsOn}), which goes just before the
 * first definition that does. `addedText(i)` is the text of the lines the change added to symbol i.
 */
export function changedOrder(
  graph: CodeGraph,
  symbols: readonly OrderedSymbol[],
  ids: readonly (number | undefined)[],
  addedText: (i: number) => string,
): number[] {
  const base = symbols
    .map((_, i) => i)
    .sort(
      (a, b) =>
        Number(symbols[a]!.test) - Number(symbols[b]!.test) ||
        CHANGE_ORDER[symbols[a]!.change] - CHANGE_ORDER[symbols[b]!.change] ||
        a - b,
    );
  const users = base.filter(
    (i) => symbols[i]!.change !== "added" && symbols[i]!.change !== "removed" && !symbols[i]!.within,
  );
  const texts = new Map(users.map((i) => [i, addedText(i)]));
  // Each addition some changed code depends on, keyed by the first such user.
  const before = new Map<number, number[]>();
  const moved = new Set<number>();
  for (const a of base) {
    const s = symbols[a]!;
    if (s.change !== "added" || s.within) continue;
    const user = users.find(
      (u) =>
        symbols[u]!.test === s.test &&
        dependsOn(graph, { id: ids[u], addedText: texts.get(u)! }, { id: ids[a], name: s.name }),
    );
    if (user === undefined) continue;
    before.set(user, [...(before.get(user) ?? []), a]);
    moved.add(a);
  }
  return base.flatMap((i) => (moved.has(i) ? [] : [...(before.get(i) ?? []), i]));
}

/** Lines two bodies share, as a share of the longer one, at which a removal counts as moved. */
const MOVED_SHARE = 0.6;

/** A body's lines as compared for a move: trimmed, blank lines dropped, the header line left out. */
const bodyLines = (body: string): string[] =>
  body
    .split("\n")
    .slice(1)
    .map((l) => l.trim())
    .filter((l) => l !== "");

/**
 * For each removed body, the index of the added body it moved to (the same lines under a new name
 * or in another file: a rename the symbol matcher did not pair), or undefined. A moved removal
 * needs only its header in the answer: its lines are shown where they went.
 */
export function movedRemovals(removed: readonly string[], added: readonly string[]): (number | undefined)[] {
  const addedLines = added.map(bodyLines);
  return removed.map((body) => {
    const lines = bodyLines(body);
    if (lines.length < 2) return undefined;
    let best: number | undefined;
    let bestShare = MOVED_SHARE;
    addedLines.forEach((other, j) => {
      if (other.length < 2) return;
      const pool = new Map<string, number>();
      for (const l of other) pool.set(l, (pool.get(l) ?? 0) + 1);
      let shared = 0;
      for (const l of lines) {
        const n = pool.get(l) ?? 0;
        if (n > 0) shared++, pool.set(l, n - 1);
      }
      const share = shared / Math.max(lines.length, other.length);
      if (share >= bestShare) (best = j), (bestShare = share);
    });
    return best;
  });
}
