/**
 * Names an agent asks about as if they were definitions, though the graph keeps them as bindings:
 * a class's attribute or field (`Config.timeout`, one set as `self.retries = …` in a method), an
 * enum member (`Color.RED`), a Go struct field, a module-level constant (`settings.TIMEOUT`,
 * `config.ts::API_URL`, a bare `MAX_RETRIES`). They are not symbols — the call graph has nothing to
 * say about them, and counting them as definitions would be wrong — but a target naming one should
 * land on the code that declares it rather than on "no symbol named".
 */
import { editDistance, matchSymbols } from "../query/lookup.ts";
import { fieldBindings } from "../query/queries.ts";
import type { CodeGraph, SymbolNode } from "../graph/model.ts";

/** A binding found for a target: the symbol that owns it (a class, or a file's module) and where it is set. */
export interface MemberHit {
  owner: SymbolNode;
  name: string;
  path: string;
  line: number;
  kind: "field" | "constant";
}

/** The most module-level bindings of one name a bare target may match before it is too vague to answer. */
const MAX_BARE_HITS = 5;

const MEMBER = /^(.+?)(?:\.|::|#)([A-Za-z_$][\w$]*)$/;

/**
 * The class-like symbol (not a module) the part of `target` before its last `.`, `::` or `#` names, when exactly one
 * does.
 */
export function memberOwner(graph: CodeGraph, target: string): SymbolNode | undefined {
  const found = memberOwners(graph, target);
  return found.length === 1 ? found[0] : undefined;
}

/**
 * Every class-like symbol (not a module) the part of `target` before its last `.`, `::` or `#` names (two classes may
 * share a name).
 */
export function memberOwners(graph: CodeGraph, target: string): SymbolNode[] {
  const m = MEMBER.exec(target);
  return m ? owners(graph, m[1]!).filter((o) => o.kind !== "module") : [];
}

/** A member as a did-you-mean names it. */
export type MemberName = ReturnType<typeof memberNames>[number];

/**
 * `held` ranked by how close each name is to `name`: edit distance (Damerau–Levenshtein, case
 * folded, so a swap is one edit), then a name that contains the other, then the nearer length;
 * declaration order only breaks ties. Without this, `Client.sned` listed `send` seventh.
 */
export function closestMembers(held: readonly MemberName[], name: string): MemberName[] {
  const q = name.toLowerCase();
  const scored = held.map((h, i) => {
    const n = h.name.toLowerCase();
    return {
      h,
      i,
      d: editDistance(q, n),
      within: n.includes(q) || q.includes(n) ? 0 : 1,
      len: Math.abs(n.length - q.length),
    };
  });
  scored.sort((a, b) => a.d - b.d || a.within - b.within || a.len - b.len || a.i - b.i);
  return scored.map((x) => x.h);
}

/** What `owner` holds by name, for a did-you-mean: its definitions, then its fields. */
export function memberNames(
  graph: CodeGraph,
  owner: SymbolNode,
): { name: string; qualified: string; kind: string; path: string; line: number }[] {
  const out = new Map<string, { name: string; qualified: string; kind: string; path: string; line: number }>();
  for (const id of graph.children.get(owner.id) ?? []) {
    const c = graph.symbols[id]!;
    out.set(c.name, { name: c.name, qualified: c.qualified, kind: c.kind, path: c.file, line: c.start });
  }
  for (const b of graph.records.get(owner.file)?.bindings ?? []) {
    if (b.scope === owner.index && (b.kind === "assign" || b.kind === "field") && !out.has(b.name)) {
      out.set(b.name, {
        name: b.name,
        qualified: `${owner.qualified}.${b.name}`,
        kind: "field",
        path: owner.file,
        line: b.line,
      });
    }
  }
  return [...out.values()];
}

/**
 * A class-like symbol's binding `name`: its own class-level assignment or field, else one its methods set on the
 * instance.
 */
function fieldOf(graph: CodeGraph, owner: SymbolNode, name: string): MemberHit | undefined {
  const b = fieldBindings(graph, owner).find((x) => x.name === name);
  return b && { owner, name, path: owner.file, line: b.line, kind: "field" };
}

/** A file's module-level assignment of `name`. */
function constantOf(graph: CodeGraph, module: SymbolNode, name: string): MemberHit | undefined {
  const b = graph.records.get(module.file)?.bindings.find((x) => x.name === name && x.scope < 0 && x.kind === "assign");
  return b && { owner: module, name, path: module.file, line: b.line, kind: "constant" };
}

/** The symbols `owner` may name: the exact qualified name (a module too), else what lookup matches. */
function owners(graph: CodeGraph, owner: string): SymbolNode[] {
  const exact = graph.byQualified.get(owner) ?? graph.moduleSymbol.get(owner);
  if (exact !== undefined) return [graph.symbols[exact]!];
  let ids: number[] = [];
  try {
    ids = matchSymbols(graph, owner);
  } catch {
    return [];
  }
  if (ids.length) return ids.map((id) => graph.symbols[id]!);
  // A module by the end of its name: `config` for `app.config` or `src/config.ts`.
  const modules: SymbolNode[] = [];
  for (const [path, id] of graph.moduleSymbol) {
    const m = graph.symbols[id]!;
    const stem = path.replace(/\.[^./]+$/, "");
    if (m.qualified.endsWith(`.${owner}`) || stem === owner || stem.endsWith(`/${owner}`)) modules.push(m);
  }
  return modules;
}

/**
 * The bindings `target` names: `Owner.member` (also `::` and `#`) as a field of a class-like
 * owner or a constant of a module owner; a bare name as a module-level assignment in any file
 * (at most a few, else none: too vague). Empty when nothing matches.
 */
export function findMembers(graph: CodeGraph, target: string): MemberHit[] {
  const m = MEMBER.exec(target);
  if (m) {
    const hits: MemberHit[] = [];
    for (const owner of owners(graph, m[1]!)) {
      const hit = owner.kind === "module" ? constantOf(graph, owner, m[2]!) : fieldOf(graph, owner, m[2]!);
      if (hit) hits.push(hit);
    }
    return hits;
  }
  if (!/^[A-Za-z_$][\w$]*$/.test(target)) return [];
  const hits: MemberHit[] = [];
  for (const [path, id] of graph.moduleSymbol) {
    const hit = graph.records.has(path) ? constantOf(graph, graph.symbols[id]!, target) : undefined;
    if (hit) hits.push(hit);
    if (hits.length > MAX_BARE_HITS) return [];
  }
  return hits;
}
