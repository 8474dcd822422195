/**
 * Which files an edit that changed a file's outward shape can affect, so that a patch resolves
 * those again and carries every other file's edges over (reresolve.ts).
 *
 * A file's resolution reads another file only through a name its own record spells (an import,
 * a call's name or receiver, an annotation, a base, an assigned value): `from m import A`,
 * `m.A()`, `x: A`, `class B(A)`. So the edit's changed names are propagated as words: a changed
 * top-level name of the edited file (its definitions' subtree, its bindings and imports of that
 * name) affects every file whose record mentions the word, and within each affected file every
 * top-level name whose own text mentions a changed word changes with it (`def make() -> A`,
 * `from m import A`), until nothing new is found. Names are compared as plain words, never
 * resolved, so a collision only makes the set larger. Two look-ups do not go through a name in
 * the reader's scope and get their own words: a call linked by name alone (unique-name, ambiguous
 * lists) reads every definition of the called name anywhere, so an added, removed or re-kinded
 * definition's name is a changed word; and a call dispatched to overrides reads the subclasses of
 * the called method's class, so the member names of a changed class with project bases (and, when
 * its bases changed, of its subclasses) are changed words.
 *
 * What no one name owns (star and side-effect imports, `require`, package declarations) changes
 * every name a file shows: then, and in projects whose languages share names without imports
 * (packages, linkage, structural interfaces, open modules, extension methods, members declared
 * outside their type), the affected set is unknown (undefined) and the graph is built afresh.
 */
import type { FileRecord } from "../extract/record.ts";
import type { FileState, GraphContext } from "./context.ts";
import type { CodeGraph } from "./model.ts";
import { basesOf } from "./resolve.ts";
import { bindingName, reachableBindings } from "./summary.ts";

const IDENT = /[A-Za-z_$][\w$]*/g;

/** The words (identifiers) of a string value, added to `into`. */
function addWords(text: string, into: Set<string>): void {
  for (const m of text.matchAll(IDENT)) into.add(m[0]);
}

/** Every identifier in the string values of `value` (docs and search terms left out). */
function collectWords(value: unknown, into: Set<string>): void {
  if (typeof value === "string") addWords(value, into);
  else if (Array.isArray(value)) for (const v of value) collectWords(v, into);
  else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) if (k !== "doc" && k !== "terms") collectWords(v, into);
  }
}

const recordWords = new WeakMap<FileRecord, Set<string>>();

/** The words a file's resolution can look up: of its definitions, imports, calls, annotations and bindings. */
export function wordsOf(record: FileRecord): Set<string> {
  let words = recordWords.get(record);
  if (!words) {
    words = new Set();
    for (const part of [record.definitions, record.imports, record.calls, record.typeRefs, record.bindings])
      collectWords(part, words);
    recordWords.set(record, words);
  }
  return words;
}

/** The key under which a slice holds what no one name owns. */
const UNOWNED = "\0";

const sliceCache = new WeakMap<FileRecord, Map<string, string>>();

/**
 * A file's outward shape (summary.ts) cut by top-level name: per name, the shape of the
 * definitions under it (nesting by qualified name, not index, so an insertion elsewhere leaves it
 * alone), the bindings visible in them or at module level under that name, the imports that bind
 * it, and whether a definition of it comes after an import of it. What binds no one name is under
 * UNOWNED.
 */
export function nameSlices(record: FileRecord, localName?: (module: string) => string): Map<string, string> {
  const cached = sliceCache.get(record);
  if (cached) return cached;
  const defs = record.definitions;
  const topOf = (i: number): number => {
    while (defs[i]!.parent >= 0) i = defs[i]!.parent;
    return i;
  };
  const parts = new Map<string, unknown[]>();
  const add = (name: string, item: unknown) => (parts.get(name) ?? parts.set(name, []).get(name)!).push(item);
  const owner = (scope: number) => (scope < 0 ? undefined : defs[topOf(scope)]!.name);
  defs.forEach((d, i) => {
    const {
      start: _s,
      end: _e,
      nameLine: _l,
      nameCol: _c,
      bodyStart: _b,
      doc: _d,
      signature: _g,
      terms: _t,
      parent,
      ...rest
    } = d;
    add(defs[topOf(i)]!.name, ["def", parent < 0 ? "" : defs[parent]!.qualified, rest]);
  });
  for (const b of reachableBindings(record)) {
    // (`until` is a line: only the file's own calls read it, and the file is resolved again)
    const { line: _l, until: _u, scope, ...rest } = b;
    add(owner(scope) ?? b.name, ["binding", scope < 0 ? "" : defs[scope]!.qualified, rest]);
  }
  const lastImportLine = new Map<string, number>();
  for (const imp of record.imports) {
    const { line: _l, scope, ...rest } = imp;
    const bound = imp.kind === "module" && !imp.alias && localName ? localName(imp.module) : bindingName(imp);
    if (imp.scope < 0 && bound) lastImportLine.set(bound, Math.max(lastImportLine.get(bound) ?? 0, imp.line));
    const shown =
      imp.kind === "reexport" || imp.kind === "export"
        ? (imp.alias ?? imp.name)
        : imp.kind === "export-default"
          ? "default"
          : bound;
    add(owner(scope) ?? shown ?? UNOWNED, ["import", scope < 0 ? "" : defs[scope]!.qualified, rest]);
  }
  for (const d of defs)
    if (d.parent < 0 && lastImportLine.has(d.name)) add(d.name, ["after", d.start > lastImportLine.get(d.name)!]);
  const out = new Map<string, string>();
  for (const [name, items] of parts) out.set(name, JSON.stringify(items));
  sliceCache.set(record, out);
  return out;
}

const sliceWordCache = new WeakMap<FileRecord, Map<string, Set<string>>>();

/** The words of each of a file's slices. */
function sliceWords(record: FileRecord, st: FileState): Map<string, Set<string>> {
  let out = sliceWordCache.get(record);
  if (!out) {
    out = new Map();
    for (const [name, text] of nameSlices(record, st.resolver?.localName)) {
      const own = new Set<string>();
      collectWords(JSON.parse(text), own);
      out.set(name, own);
    }
    sliceWordCache.set(record, out);
  }
  return out;
}

/** Top-level names whose slice differs between two records of a file; undefined when what no one name owns changed. */
function changedNames(before: Map<string, string>, after: Map<string, string>): Set<string> | undefined {
  if (before.get(UNOWNED) !== after.get(UNOWNED)) return undefined;
  const out = new Set<string>();
  for (const [name, text] of after) if (before.get(name) !== text) out.add(name);
  for (const name of before.keys()) if (!after.has(name)) out.add(name);
  out.delete(UNOWNED);
  return out;
}

/** Definition names whose count of definitions of some kind differs between two records (what by-name linking sees). */
function renamedDefinitions(before: FileRecord, after: FileRecord, into: Set<string>): void {
  const count = new Map<string, number>();
  for (const d of before.definitions) count.set(`${d.kind}\0${d.name}`, (count.get(`${d.kind}\0${d.name}`) ?? 0) + 1);
  for (const d of after.definitions) count.set(`${d.kind}\0${d.name}`, (count.get(`${d.kind}\0${d.name}`) ?? 0) - 1);
  for (const [key, n] of count) if (n !== 0) into.add(key.slice(key.indexOf("\0") + 1));
}

const simpleContexts = new WeakMap<GraphContext, boolean>();

/** Whether every file's language finds other files' names only through names it spells (see the module note). */
export function namesTravelByWords(ctx: GraphContext): boolean {
  let simple = simpleContexts.get(ctx);
  if (simple === undefined) {
    simple = ctx.attached.size === 0 && !ctx.attachedBases?.size && ctx.linked.size === 0;
    const seen = new Set<string>();
    for (const st of ctx.files.values()) {
      if (!simple) break;
      if (seen.has(st.record.language)) continue;
      seen.add(st.record.language);
      const sem = st.semantics;
      simple =
        !sem.packages &&
        !sem.linkage &&
        !sem.structuralInterfaces &&
        !sem.openModules &&
        !sem.namespaceSeparator &&
        !st.spec?.extensionReceiver;
    }
    simpleContexts.set(ctx, simple);
  }
  return simple;
}

/** The project classes above a class, transitively, by `basesOf` in `ctx`. */
function ancestors(ctx: GraphContext, id: number): number[] {
  const out: number[] = [];
  const seen = new Set<number>([id]);
  for (let queue = [id], i = 0; i < queue.length && i < 10_000; i++) {
    for (const b of basesOf(ctx, queue[i]!)) if (!seen.has(b.id)) seen.add(b.id), out.push(b.id), queue.push(b.id);
  }
  return out;
}

/** The classes below a class in a graph, transitively. */
function descendants(graph: Pick<CodeGraph, "subclasses">, id: number): number[] {
  const out: number[] = [];
  const seen = new Set<number>([id]);
  for (let queue = [id], i = 0; i < queue.length && i < 10_000; i++) {
    for (const c of graph.subclasses.get(queue[i]!) ?? []) if (!seen.has(c)) seen.add(c), out.push(c), queue.push(c);
  }
  return out;
}

/**
 * The member names whose overrides a changed class can change: for each class under a changed
 * name of `before` or `after` that has project bases (in the old graph or in `ctx`), the names of
 * its members, and, when its bases changed, of its subclasses' members.
 */
function dispatchNames(
  old: CodeGraph,
  ctx: GraphContext,
  before: FileState,
  after: FileState,
  changed: Set<string>,
  into: Set<string>,
): void {
  const classesUnder = (st: FileState, symbols: CodeGraph["symbols"]) => {
    const defs = st.record.definitions;
    const out: number[] = [];
    defs.forEach((d, i) => {
      let top = i;
      while (defs[top]!.parent >= 0) top = defs[top]!.parent;
      if (
        changed.has(defs[top]!.name) &&
        symbols[st.moduleId + 1 + i] &&
        (d.kind === "class" || d.kind === "interface" || d.kind === "struct" || d.kind === "enum" || d.kind === "trait")
      )
        out.push(st.moduleId + 1 + i);
    });
    return out;
  };
  const oldBases = new Map<number, number[]>();
  for (const e of old.inherits) (oldBases.get(e.child) ?? oldBases.set(e.child, []).get(e.child)!).push(e.base);
  const oldAncestors = (id: number) => {
    const out: number[] = [];
    const seen = new Set<number>([id]);
    for (let queue = [id], i = 0; i < queue.length && i < 10_000; i++)
      for (const b of oldBases.get(queue[i]!) ?? []) if (!seen.has(b)) seen.add(b), out.push(b), queue.push(b);
    return out;
  };
  const memberNames = (graph: { symbols: CodeGraph["symbols"]; children: Map<number, number[]> }, id: number) => {
    for (const c of graph.children.get(id) ?? []) into.add(graph.symbols[c]!.name);
  };
  const oldHier = new Map<string, string>();
  for (const id of classesUnder(before, old.symbols)) {
    const up = oldAncestors(id);
    oldHier.set(old.symbols[id]!.qualified, up.map((a) => old.symbols[a]!.qualified).join("\n"));
    if (up.length === 0) continue;
    memberNames(old, id);
    for (const d of descendants(old, id)) memberNames(old, d);
  }
  for (const id of classesUnder(after, ctx.symbols)) {
    const up = ancestors(ctx, id);
    const q = ctx.symbols[id]!.qualified;
    const same = oldHier.get(q) === up.map((a) => ctx.symbols[a]!.qualified).join("\n");
    oldHier.delete(q);
    if (up.length === 0 && same) continue;
    memberNames(ctx, id);
    if (!same) for (const d of descendants(old, old.byQualified.get(q) ?? -1)) memberNames(old, d);
  }
}

/**
 * The files to resolve again after `changed` records replaced their files' records in `ctx` (the
 * new context; `old` is the graph before), or undefined when that cannot be told or is more than
 * `limit` files (then the graph is built afresh).
 */
export function affectedFiles(
  old: CodeGraph,
  ctx: GraphContext,
  changed: FileRecord[],
  limit: number,
): Set<string> | undefined {
  if (!namesTravelByWords(ctx) || !namesTravelByWords(old.context)) return undefined;
  const words = new Set<string>();
  const affected = new Set<string>();
  // Per affected file, the top-level names already counted as changed.
  const changedIn = new Map<string, Set<string>>();
  for (const record of changed) {
    const before = old.context.files.get(record.path)!;
    const after = ctx.files.get(record.path)!;
    const names = changedNames(
      nameSlices(before.record, before.resolver?.localName),
      nameSlices(record, after.resolver?.localName),
    );
    if (!names) return undefined;
    affected.add(record.path);
    changedIn.set(record.path, names);
    for (const n of names) words.add(n);
    renamedDefinitions(before.record, record, words);
    dispatchNames(old, ctx, before, after, names, words);
  }
  // Spread the changed words to every file that mentions one, and on through the names of those
  // files that mention them, until no file adds a word.
  for (let grew = true; grew; ) {
    grew = false;
    for (const st of ctx.files.values()) {
      const record = st.record;
      let mine = changedIn.get(record.path);
      if (!mine) {
        const own = wordsOf(record);
        let hit = false;
        for (const w of words)
          if (own.has(w)) {
            hit = true;
            break;
          }
        if (!hit) continue;
        affected.add(record.path);
        if (affected.size > limit) return undefined;
        changedIn.set(record.path, (mine = new Set()));
      }
      for (const [name, own] of sliceWords(record, st)) {
        if (name === UNOWNED || mine.has(name) || words.has(name)) continue;
        let hit = false;
        for (const w of words)
          if (own.has(w)) {
            hit = true;
            break;
          }
        if (!hit) continue;
        mine.add(name);
        words.add(name);
        grew = true;
      }
    }
  }
  return affected;
}
