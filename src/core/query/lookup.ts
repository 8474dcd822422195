/**
 * Finding a symbol from what a person or agent types: a qualified name (`pkg.mod.Class.method`,
 * `src/a.ts#Class.method`), `path::Class.method`, a dotted suffix (`Class.method`) or a bare name.
 * Unknown names get did-you-mean suggestions; ambiguous ones list their candidates.
 */
import { EngineError } from "../../shared/errors.ts";
import { cite } from "../../shared/paths.ts";
import type { CodeGraph, SymbolNode } from "../graph/model.ts";
import { quoted } from "../../shared/quote.ts";

/** A candidate as shown in errors and answers. */
export interface SymbolRef {
  qualified: string;
  kind: string;
  path: string;
  line: number;
}

export function symbolRef(s: SymbolNode): SymbolRef {
  return { qualified: s.qualified, kind: s.kind, path: s.file, line: s.kind === "module" ? 1 : s.start };
}

/** The separator a static method's qualified name ends in (`LanguageSpec.staticMemberSeparator`: Ruby's `Foo::x`). */
const STATIC_SEP = "::";

/**
 * Dot-separated suffixes of a symbol's name path, longest first ("a.b.C.m" → "b.C.m", "C.m", "m"); a static method's
 * (`a.C::m`) ends in its bare name too ("a.C::m", "C::m", "m"). `loose` holds the dotted spellings of the static
 * method's ("a.C.m", "C.m"): what its name was before it had its own, so a target written so still finds it when no
 * instance method has that name.
 */
function suffixes(s: SymbolNode): { exact: string[]; loose: string[] } {
  const hash = s.qualified.indexOf("#");
  const dotted = hash >= 0 ? s.qualified.slice(hash + 1) : s.qualified;
  const parts = dotted.split(".");
  const exact: string[] = [];
  const loose: string[] = [];
  for (let i = 0; i < parts.length; i++) exact.push(parts.slice(i).join("."));
  const last = parts.at(-1)!;
  const sep = last.lastIndexOf(STATIC_SEP);
  if (sep > 0 && s.kind !== "class" && s.kind !== "module") {
    const bare = last.slice(sep + STATIC_SEP.length);
    for (const suf of exact) loose.push(`${suf.slice(0, suf.length - last.length)}${last.slice(0, sep)}.${bare}`);
    exact.push(bare);
  }
  return { exact, loose };
}

/**
 * Keyed by the graph's `byQualified`, which a patched graph shares with the graph it was patched
 * from exactly when every symbol keeps its id, name and kind: the index then carries over an edit.
 */
const suffixIndexes = new WeakMap<
  Map<string, number>,
  { exact: Map<string, number[]>; loose: Map<string, number[]> }
>();
function suffixIndex(graph: CodeGraph): { get(suffix: string): number[] | undefined } {
  let index = suffixIndexes.get(graph.byQualified);
  if (!index) {
    index = { exact: new Map(), loose: new Map() };
    const add = (map: Map<string, number[]>, suf: string, id: number) => {
      const list = map.get(suf);
      if (list) list.push(id);
      else map.set(suf, [id]);
    };
    for (const s of graph.symbols) {
      if (s.kind === "module") continue;
      const { exact, loose } = suffixes(s);
      for (const suf of exact) add(index.exact, suf, s.id);
      for (const suf of loose) add(index.loose, suf, s.id);
    }
    suffixIndexes.set(graph.byQualified, index);
  }
  const { exact, loose } = index;
  // (a name's own spelling first: `Foo.x` is the instance method when there is one, else the class method)
  return { get: (suffix) => exact.get(suffix) ?? loose.get(suffix) };
}

/**
 * Damerau–Levenshtein distance (optimal string alignment: an adjacent swap is one edit, so `sned`
 * is one edit from `send`, as a typist sees it), capped: returns cap+1 once it exceeds `cap`.
 */
export function editDistance(a: string, b: string, cap = Infinity): number {
  if (Math.abs(a.length - b.length) > cap) return cap + 1;
  let before: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, before[j - 2]! + 1);
      cur.push(v);
      rowMin = Math.min(rowMin, v);
    }
    if (rowMin > cap) return cap + 1;
    before = prev;
    prev = cur;
  }
  return prev[b.length]!;
}

/** The edits a misspelled name of `length` letters may be away from the name meant. */
export function typoCap(length: number): number {
  return length <= 3 ? 1 : length <= 7 ? 2 : 3;
}

/**
 * Up to `limit` names close to `query` (case-insensitive Damerau–Levenshtein distance, then
 * substring matches), closest first. For a dotted query (`Hono.fecth`) the last segment is what is
 * misspelled: candidates inside a container named like the rest (`Hono`, or within two edits of
 * it: `Sesion.send`) come first, and there two edits are allowed whatever the name's length.
 */
export function suggestNames(graph: CodeGraph, query: string, limit = 5): SymbolRef[] {
  const segments = query.split(/[.#:]+/).filter(Boolean);
  const last = segments.pop() ?? query;
  const container = segments.at(-1)?.toLowerCase();
  const q = last.toLowerCase();
  const cap = typoCap(q.length);
  const memberCap = Math.max(cap, 2);
  const containerCap = container === undefined ? 0 : typoCap(container.length);
  /** 0: the container is the one named; 1: within a few edits of it; undefined: another. */
  const containerMatch = new Map<string, number | undefined>();
  const near = (parent: string): number | undefined => {
    if (container === undefined) return undefined;
    let m = containerMatch.get(parent);
    if (!containerMatch.has(parent)) {
      const p = parent.toLowerCase();
      m = p === container ? 0 : editDistance(p, container, containerCap) <= containerCap ? 1 : undefined;
      containerMatch.set(parent, m);
    }
    return m;
  };
  const scored: { id: number; score: number }[] = [];
  for (const [name, ids] of graph.byName) {
    const n = name.toLowerCase();
    const d = editDistance(q, n, Math.max(cap, container === undefined ? cap : memberCap));
    let score = d;
    if (score > cap) {
      if (q.length >= 3 && n.includes(q)) score = cap + 0.5 + (n.length - q.length) / 100;
      else if (container === undefined || d > memberCap) continue;
    }
    for (const id of container ? ids : ids.slice(0, 3)) {
      const parent = graph.symbols[graph.symbols[id]!.parent];
      const m = parent === undefined ? undefined : near(parent.name);
      // Past the usual cap only inside the container named: `Hono.get` for `Hono.gte`, not any `get`.
      if (score > cap && m === undefined && !(q.length >= 3 && n.includes(q))) continue;
      scored.push({ id, score: m === 0 ? score - 10 : m === 1 ? score - 5 : score });
    }
  }
  scored.sort(
    (a, b) => a.score - b.score || graph.symbols[a.id]!.qualified.length - graph.symbols[b.id]!.qualified.length,
  );
  return scored.slice(0, limit).map((s) => symbolRef(graph.symbols[s.id]!));
}

/** How many candidates an ambiguity error lists before "+N more". */
export const CANDIDATES_SHOWN = 8;

/** Characters of a name an error quotes: a 5,000-character argument is not echoed back whole. */
const QUOTED_CHARS = 200;

/** `name` quoted for an error message, cut to QUOTED_CHARS with its full length said. */
export function quotedName(name: string): string {
  return name.length <= QUOTED_CHARS
    ? quoted(name)
    : `${quoted(name.slice(0, QUOTED_CHARS))}… (${name.length} characters)`;
}

/** Resolves `target` to exactly one symbol, or throws `unknown_symbol` / `ambiguous_symbol`. */
export function findSymbol(graph: CodeGraph, target: string): SymbolNode {
  const ids = matchSymbols(graph, target);
  if (ids.length === 1) return graph.symbols[ids[0]!]!;
  if (ids.length === 0) {
    const suggestions = suggestNames(graph, target);
    throw new EngineError("unknown_symbol", `No symbol named ${quotedName(target)}.`, {
      hint: suggestions.length
        ? `Did you mean ${suggestions.map((s) => s.qualified).join(", ")}?`
        : "Search for a few words from its name or docstring to find it.",
      data: { target, suggestions },
    });
  }
  const candidates = ids.map((id) => symbolRef(graph.symbols[id]!));
  const shown = candidates.slice(0, CANDIDATES_SHOWN);
  const more = candidates.length - shown.length;
  throw new EngineError(
    "ambiguous_symbol",
    `${quoted(target)} matches ${candidates.length} symbols: ` +
      (`${shown.map((c) => `${c.qualified} (${c.kind}, ${cite(c.path, c.line)})`).join("; ")}` +
        `${more > 0 ? `; +${more} more` : ""}.`),
    {
      hint: "Qualify it: add the class or module (e.g. Class.method, pkg.module.name) or use path::name.",
      data: { target, candidates: shown, total: candidates.length },
    },
  );
}

/**
 * All symbols `target` could mean, best matches only (exact qualified beats suffix beats bare). A constructor
 * named as its class (C#, Java, C++) gives way to the class when both match: `JsonWriter` is the class, and
 * `JsonWriter.JsonWriter` its constructors.
 */
export function matchSymbols(graph: CodeGraph, target: string): number[] {
  const ids = matchAll(graph, target);
  if (ids.length === 0) return asWrittenInCode(graph, target);
  if (ids.length < 2) return ids;
  const matched = new Set(ids);
  const kept = ids.filter((id) => {
    const s = graph.symbols[id]!;
    return !(s.kind === "constructor" && matched.has(s.parent) && graph.symbols[s.parent]!.name === s.name);
  });
  return kept.length ? kept : ids;
}

/**
 * `path:line` of an indexed file: the symbol that starts on that line (the innermost when several do), else the
 * innermost that spans it. The one handle that tells overloads apart (C#'s eight `JsonConvert.SerializeObject`
 * share a qualified name), as the ambiguity error lists them.
 */
function atLine(graph: CodeGraph, target: string): number[] | undefined {
  const m = /^(.+):(\d+)$/.exec(target);
  if (!m || !graph.moduleSymbol.has(m[1]!.replace(/^\.\//, ""))) return undefined;
  const file = m[1]!.replace(/^\.\//, "");
  const line = Number(m[2]);
  let best: SymbolNode | undefined;
  for (const s of graph.symbols) {
    if (s.file !== file || s.kind === "module" || s.start > line || s.end < line) continue;
    const starts = s.start === line;
    const bestStarts = best?.start === line;
    if (!best || (starts && !bestStarts) || (starts === bestStarts && s.end - s.start <= best.end - best.start))
      best = s;
  }
  return best ? [best.id] : [];
}

/**
 * A name as the language itself writes it, when nothing matched it as given: PHP's `Monolog\Handler\Foo`,
 * `\Foo::bar` and `Foo->bar` (as its stack traces print them), Ruby's `Rack::Request#params`, matched on the
 * qualified name with every separator read as a dot.
 */
function asWrittenInCode(graph: CodeGraph, target: string): number[] {
  const dotted = target
    .trim()
    .replace(/\(\)$/, "")
    .replace(/^\\+/, "")
    .replace(/\\|::|->|#/g, ".");
  if (dotted === target.trim() || !dotted.includes(".") || /[\s/]/.test(dotted)) return [];
  const found: number[] = [];
  for (const s of graph.symbols) {
    if (s.kind === "module") continue;
    const hash = s.qualified.indexOf("#");
    const name = (hash >= 0 ? s.qualified.slice(hash + 1) : s.qualified).replace(/\\|::/g, ".");
    if (name === dotted || name.endsWith(`.${dotted}`)) found.push(s.id);
  }
  return bySeparator(graph, found, target.trim());
}

/**
 * Of the symbols a Ruby-written name matched, the kind of method its last separator names when both kinds match:
 * `Foo#x` the instance method (`Foo.x`), `Foo::x` the class method (`Foo::x`).
 */
function bySeparator(graph: CodeGraph, found: number[], target: string): number[] {
  if (found.length < 2) return found;
  const sep = /(#|::|\.)[^#:.]*$/.exec(target)?.[1];
  if (sep !== "#" && sep !== STATIC_SEP) return found;
  const isStatic = (id: number) => {
    const q = graph.symbols[id]!.qualified;
    return q.lastIndexOf(STATIC_SEP) > q.lastIndexOf(".");
  };
  const kept = found.filter((id) => isStatic(id) === (sep === STATIC_SEP));
  return kept.length ? kept : found;
}

function matchAll(graph: CodeGraph, target: string): number[] {
  const t = target.trim();
  if (t === "")
    throw new EngineError("invalid_argument", "The symbol is empty.", {
      hint: "Pass a name such as Session.send or a path::name.",
    });
  const at = atLine(graph, t);
  if (at !== undefined) return at;
  const exact = graph.byQualified.get(t);
  if (exact !== undefined && graph.symbols[exact]!.kind !== "module") return [exact];
  const sep = t.indexOf("::");
  if (sep > 0) {
    const path = t.slice(0, sep).replace(/^\.\//, "");
    const name = t.slice(sep + 2);
    const ids = (suffixIndex(graph).get(name) ?? []).filter((id) => {
      const file = graph.symbols[id]!.file;
      return file === path || file.endsWith(`/${path}`);
    });
    // (no file of that path: a class method as Ruby writes it, `FileList::glob`, is looked up as a name below)
    if (ids.length || !suffixIndex(graph).get(t)) return preferShallow(graph, ids, name);
  }
  const hash = t.indexOf("#");
  if (hash > 0) {
    const path = t.slice(0, hash);
    const name = t.slice(hash + 1);
    return (suffixIndex(graph).get(name) ?? []).filter((id) => graph.symbols[id]!.file.endsWith(path));
  }
  // Python-style dotted names may carry a module prefix: match on the full qualified name's tail.
  const bySuffix = suffixIndex(graph).get(t) ?? [];
  if (bySuffix.length) return preferShallow(graph, bySuffix, t);
  const tail: number[] = [];
  if (t.includes("."))
    for (const s of graph.symbols) if (s.kind !== "module" && s.qualified.endsWith(`.${t}`)) tail.push(s.id);
  return tail.length ? tail : inDeclaredPackage(graph, t);
}

/**
 * `org.jsoup.nodes.Element.text`: a name under the package its file declares (Java, Kotlin, Go's
 * `package`), which is no part of a symbol's qualified name (that is its path). The longest name
 * that matches wins; the package may be given whole or by its last segments (`nodes.Element.text`).
 */
function inDeclaredPackage(graph: CodeGraph, target: string): number[] {
  const parts = target.split(".");
  for (let i = 1; i < parts.length; i++) {
    const pkg = parts.slice(0, i).join(".");
    const name = parts.slice(i).join(".");
    const ids = (suffixIndex(graph).get(name) ?? []).filter((id) => {
      const imports = graph.records.get(graph.symbols[id]!.file)?.imports ?? [];
      const declared = imports.find((imp) => imp.kind === "package")?.module;
      return declared !== undefined && (declared === pkg || declared.endsWith(`.${pkg}`));
    });
    const full = preferShallow(graph, ids, name);
    if (full.length) return full;
  }
  return [];
}

/** Among matches, keep those whose in-file path equals the query exactly when any does. */
function preferShallow(graph: CodeGraph, ids: number[], name: string): number[] {
  const full = ids.filter((id) => {
    const q = graph.symbols[id]!.qualified;
    const hash = q.indexOf("#");
    return (hash >= 0 ? q.slice(hash + 1) : q) === name;
  });
  return full.length ? full : ids;
}
