/**
 * A rename as a plan, pure data: every edit (path, range, old and new text, why), the mentions in
 * strings and comments flagged apart, and the occurrences the graph cannot vouch for listed apart.
 * Each spelling of the name is resolved in its own scope with the graph's resolver (scope →
 * imports → self/super → typed receivers): an edit is made only where the name resolves to the
 * renamed symbol or one of its overrides. The plan writes nothing; front ends apply it.
 */
import { EngineError } from "../../shared/errors.ts";
import type { IdentifierSite } from "../extract/identifiers.ts";
import type { FileRecord } from "../extract/record.ts";
import type { FileState, GraphContext } from "../graph/context.ts";
import { isClassLike, symbolOf } from "../graph/context.ts";
import { symbolRef, type SymbolRef } from "../query/lookup.ts";
import type { CodeGraph, SymbolNode } from "../graph/model.ts";
import { basesOf, importValue, resolveExpr, type Value } from "../graph/resolve.ts";
import type { CallEdge } from "../graph/model.ts";
import { quoted } from "../../shared/quote.ts";

/** Why an edit is made. */
export type RenameWhy =
  | "definition"
  | "override"
  | "call"
  | "reference"
  | "import"
  | "re-export"
  | "attribute"
  | "mention";

/** One replacement: `oldText` at `line`:`col` (1-based line, 0-based UTF-16 column) becomes `newText`. */
export interface RenameEdit {
  path: string;
  line: number;
  col: number;
  /** Column just past the old text. */
  endCol: number;
  oldText: string;
  newText: string;
  why: RenameWhy;
  /** Said about edits a reader should look at: an override that comes along, a mention. */
  note?: string;
}

/** A spelling of the name the plan does not edit because the graph cannot tell what it names. */
export interface UncertainSite {
  path: string;
  line: number;
  col: number;
  text: string;
  /** What the graph could not resolve (`x.name` with an untyped receiver, an ambiguous call). */
  reason: string;
}

/** The preview of a rename. `planToken` names it for apply. */
export interface RenamePlan {
  symbol: SymbolRef;
  oldName: string;
  newName: string;
  /** Code edits, by path then position: what apply writes. */
  edits: RenameEdit[];
  /** Whole-word mentions in strings, docstrings and comments of the files it touches: written only when asked. */
  mentions: RenameEdit[];
  /** Occurrences that may name the symbol but are not edited. */
  uncertain: UncertainSite[];
  /** The overrides and implementations that come along (and the bases a method overrides). */
  related: SymbolRef[];
  notes: string[];
  /** Every file an edit or a mention touches, with its content hash (git blob id) at preview time. */
  files: { path: string; hash: string }[];
  /** SHA-256 of the preview and of every touched file's content hash. */
  planToken: string;
}

/** What a plan is built from: the graph, and the sites of the old and new names per candidate file. */
export interface RenameInput {
  graph: CodeGraph;
  target: SymbolNode;
  newName: string;
  /** Sites of the old and the new name in each file that spells either, by path. */
  sites: Map<string, IdentifierSite[]>;
}

const CLASS_SCOPE_KINDS = new Set(["class", "interface", "struct", "enum", "trait"]);
const SELF = new Set(["self", "this", "cls"]);

/** Builds the plan (without its token and file hashes: see `sealPlan`). Throws `rename_refused`. */
export function planRename(input: RenameInput): Omit<RenamePlan, "planToken" | "files"> {
  const { graph, target, newName } = input;
  const ctx = graph.context;
  const family = renameFamily(graph, target);
  const isMember = memberOwner(graph, target) !== undefined;
  const edits: RenameEdit[] = [];
  const mentions: RenameEdit[] = [];
  const uncertain: UncertainSite[] = [];
  const defAt = definitionPositions(graph, family);
  for (const [path, sites] of input.sites) {
    const st = ctx.files.get(path);
    if (!st) continue;
    const ownDefs = allDefinitionPositions(st.record);
    const loaded = loadedBindings(ctx, st, sites, target.name, family);
    for (const site of sites) {
      if (site.text !== target.name) continue;
      const edit = (why: RenameWhy, note?: string): void => {
        edits.push({
          path,
          line: site.line,
          col: site.col,
          endCol: site.col + site.text.length,
          oldText: site.text,
          newText: newName,
          why,
          ...(note ? { note } : {}),
        });
      };
      const key = `${path}:${site.line}:${site.col}`;
      const famDef = defAt.get(key);
      if (famDef !== undefined) {
        if (famDef === target.id) edit("definition");
        else if (memberOwner(graph, graph.symbols[famDef]!) === undefined)
          edit("definition", "another declaration of the name (an overload or a re-definition): renamed with it");
        else edit("override", `${graph.symbols[famDef]!.qualified} ${overrideWord(graph, target, famDef)}`);
        continue;
      }
      if (ownDefs.has(key)) continue; // another definition of the same name
      if (site.role === "mention") {
        mentions.push({
          path,
          line: site.line,
          col: site.col,
          endCol: site.col + site.text.length,
          oldText: site.text,
          newText: newName,
          why: "mention",
          note: "string or comment: written only when asked",
        });
        continue;
      }
      const verdict = loaded.has(site) ? "import" : classify(graph, st, site, family, isMember, loaded);
      if (verdict === "skip") continue;
      if (verdict.startsWith("uncertain:"))
        uncertain.push({
          path,
          line: site.line,
          col: site.col,
          text: site.text,
          reason: verdict.slice("uncertain:".length),
        });
      else edit(verdict as RenameWhy);
    }
  }
  const touched = new Set(edits.map((e) => e.path));
  const keptMentions = mentions.filter((m) => touched.has(m.path));
  checkCollisions(input, family, isMember, edits);
  const related = [...family].filter((id) => id !== target.id).map((id) => symbolRef(graph.symbols[id]!));
  const notes: string[] = [];
  if (related.length)
    notes.push(
      `${related.length} related definition${related.length === 1 ? "" : "s"} (overrides, implementations, the ` +
        (`bases this one overrides, overloads) ${related.length === 1 ? "is" : "are"} renamed with it: ` +
          `${related.map((r) => `${r.qualified} (${r.path}:${r.line})`).join(", ")}.`),
    );
  if (uncertain.length)
    notes.push(
      `${uncertain.length} occurrence${uncertain.length === 1 ? "" : "s"} may name it but could not be ` +
        `resolved; they are listed apart and not edited.`,
    );
  const order = (a: { path: string; line: number; col: number }, b: { path: string; line: number; col: number }) =>
    a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line || a.col - b.col;
  return {
    symbol: symbolRef(target),
    oldName: target.name,
    newName,
    edits: dedupe(edits).sort(order),
    mentions: dedupe(keptMentions).sort(order),
    uncertain: uncertain.sort(order),
    related,
    notes,
  };
}

function dedupe(edits: RenameEdit[]): RenameEdit[] {
  const seen = new Set<string>();
  return edits.filter((e) => {
    const key = `${e.path}:${e.line}:${e.col}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function overrideWord(graph: CodeGraph, target: SymbolNode, id: number): string {
  const owner = memberOwner(graph, graph.symbols[id]!);
  const targetOwner = memberOwner(graph, target);
  if (owner !== undefined && targetOwner !== undefined && ancestors(graph, targetOwner).has(owner))
    return "is overridden by it: renamed with it";
  return "overrides or implements it: renamed with it";
}

/** The class a method belongs to, or undefined for a module-level symbol. */
function memberOwner(graph: CodeGraph, s: SymbolNode): number | undefined {
  const parent = graph.symbols[s.parent];
  return parent && CLASS_SCOPE_KINDS.has(parent.kind) ? parent.id : undefined;
}

/** A class and all its project bases, transitively. */
function ancestors(graph: CodeGraph, cls: number): Set<number> {
  const out = new Set<number>([cls]);
  const queue = [cls];
  while (queue.length) {
    for (const b of basesOf(graph.context, queue.pop()!)) {
      if (!out.has(b.id)) {
        out.add(b.id);
        queue.push(b.id);
      }
    }
  }
  return out;
}

/** A class and all its project subclasses, transitively. */
function descendants(graph: CodeGraph, cls: number): Set<number> {
  const out = new Set<number>([cls]);
  const queue = [cls];
  while (queue.length) {
    for (const c of graph.subclasses.get(queue.pop()!) ?? []) {
      if (!out.has(c)) {
        out.add(c);
        queue.push(c);
      }
    }
  }
  return out;
}

/**
 * The symbol with its same-named siblings (overloads, re-definitions) and, for a method, every
 * same-named method of the classes related to its class by inheritance (bases it overrides,
 * overrides below them): a rename of one alone would break the dispatch between them.
 */
export function renameFamily(graph: CodeGraph, target: SymbolNode): Set<number> {
  const family = new Set<number>([target.id]);
  const owner = memberOwner(graph, target);
  if (owner === undefined) {
    // Overload signatures (TypeScript, Python's @overload) and re-definitions of a module-level
    // name are one name: renaming one of them alone would break the others.
    for (const c of graph.children.get(target.parent) ?? []) if (graph.symbols[c]!.name === target.name) family.add(c);
    return family;
  }
  const classes = relatedClasses(graph, owner, target.name);
  for (const cls of classes) for (const c of ownMembers(graph, cls, target.name)) family.add(c);
  return family;
}

/** The methods (not nested classes) named `name` that class `cls` declares itself. */
function ownMembers(graph: CodeGraph, cls: number, name: string): number[] {
  return (graph.children.get(cls) ?? []).filter(
    (c) => graph.symbols[c]!.name === name && !isClassLike(graph.context, c),
  );
}

/**
 * The classes whose `name` dispatches together with `owner`'s: below every base of `owner` that
 * declares `name` (the roots of the override chain), `owner` included. Two classes that each
 * declare `name` under a common base that does not are not linked.
 */
function relatedClasses(graph: CodeGraph, owner: number, name: string): Set<number> {
  const out = new Set<number>();
  for (const a of ancestors(graph, owner)) {
    if (a !== owner && ownMembers(graph, a, name).length === 0) continue;
    for (const d of descendants(graph, a)) out.add(d);
  }
  return out;
}

function definitionPositions(graph: CodeGraph, family: Set<number>): Map<string, number> {
  const out = new Map<string, number>();
  for (const id of family) {
    const s = graph.symbols[id]!;
    const d = graph.records.get(s.file)?.definitions[s.index];
    if (d) out.set(`${s.file}:${d.nameLine}:${d.nameCol}`, id);
  }
  return out;
}

function allDefinitionPositions(record: FileRecord): Set<string> {
  return new Set(record.definitions.map((d) => `${record.path}:${d.nameLine}:${d.nameCol}`));
}

/** The innermost definition (index) whose span holds `line`, or -1 at module level. */
export function scopeAt(record: FileRecord, line: number): number {
  let best = -1;
  record.definitions.forEach((d, i) => {
    if (d.start <= line && line <= d.end && (best < 0 || d.start >= record.definitions[best]!.start)) best = i;
  });
  return best;
}

/** What one spelling of the name is: an edit's why, `skip`, or `uncertain:<reason>`. */
function classify(
  graph: CodeGraph,
  st: FileState,
  site: IdentifierSite,
  family: Set<number>,
  isMember: boolean,
  loaded: Map<IdentifierSite, number>,
): string {
  const ctx = graph.context;
  const scope = scopeAt(st.record, site.line);
  switch (site.role) {
    case "module":
    case "keyword":
      return "skip";
    case "key":
      return isMember
        ? "uncertain:a member declared or keyed in an object or type the graph does not link to the class"
        : "skip";
    case "import":
    case "export":
      return site.module === undefined ? classifyImport(ctx, st, site, family) : "skip"; // a load of something else
    case "member":
      return classifyMember(graph, st, scope, site, family);
    default: {
      if (isMember) return classifyBareMember(graph, st, scope, site, family);
      const v = resolveExpr(ctx, st, scope, site.text);
      if (!inFamily(v, family) && !boundByLoad(st.record, site, scope, loaded)) return "skip";
      return isCallAt(st.record, site) ? "call" : "reference";
    }
  }
}

/**
 * The names destructured from a dynamic import or a require that load the symbol
 * (`const { name } = await import("m")`), with the scope (definition index) their binding lives
 * in when it is the name itself (no `name: local`). The graph records no binding for them.
 */
function loadedBindings(
  ctx: GraphContext,
  st: FileState,
  sites: IdentifierSite[],
  name: string,
  family: Set<number>,
): Map<IdentifierSite, number> {
  const out = new Map<IdentifierSite, number>();
  for (const site of sites) {
    if (site.module === undefined || site.text !== name) continue;
    const scope = scopeAt(st.record, site.line);
    const v = importValue(ctx, st, { kind: "named", module: site.module, name, line: site.line, scope }, 0);
    if (inFamily(v, family)) out.set(site, site.aliased === "original" ? Number.NaN : scope);
  }
  return out;
}

/**
 * Whether a bare name is bound, in its scope, by one of `loaded` (declared on an earlier line of an enclosing scope).
 */
function boundByLoad(
  record: FileRecord,
  site: IdentifierSite,
  scope: number,
  loaded: Map<IdentifierSite, number>,
): boolean {
  for (const [load, loadScope] of loaded) {
    if (Number.isNaN(loadScope) || load.line > site.line) continue;
    for (let s = scope; ; s = record.definitions[s]!.parent) {
      if (s === loadScope) return true;
      if (s < 0) break;
    }
  }
  return false;
}

function inFamily(v: Value | undefined, family: Set<number>): boolean {
  return v?.kind === "def" && family.has(v.id);
}

function isCallAt(record: FileRecord, site: IdentifierSite): boolean {
  return record.calls.some((c) => c.line === site.line && c.col === site.col && c.name === site.text);
}

/** `from m import name`, `import { name } from`, `export { name }`: what the imported or exported name resolves to. */
function classifyImport(ctx: GraphContext, st: FileState, site: IdentifierSite, family: Set<number>): string {
  const records = st.record.imports.filter((i) => i.name === site.text && i.line <= site.line);
  if (site.aliased === "alias") {
    // `x as x` (Python's explicit re-export, `export { x as x }`): the alias is the name itself and
    // goes with it, so the file still exports the symbol under its new name. Any other alias is the
    // local name of something else.
    const same = records.filter((i) => (i.alias ?? i.name) === site.text).at(-1);
    if (same && site.role === "import") return inFamily(importOf(ctx, st, same), family) ? "re-export" : "skip";
    return site.role === "export" && inFamily(resolveExpr(ctx, st, -1, site.text), family) ? "re-export" : "skip";
  }
  if (site.role === "export") {
    const fromModule = records.filter((i) => i.kind === "reexport").at(-1);
    if (fromModule) return inFamily(importOf(ctx, st, fromModule), family) ? "re-export" : "skip";
    return inFamily(resolveExpr(ctx, st, -1, site.text), family) ? "re-export" : "skip";
  }
  const imp = records.filter((i) => i.kind === "named" || i.kind === "reexport").at(-1);
  if (imp) return inFamily(importOf(ctx, st, imp), family) ? "import" : "skip";
  // A default import binds a local name of the file's choosing: not the symbol's own name.
  return "skip";
}

function importOf(ctx: GraphContext, st: FileState, imp: FileRecord["imports"][number]): Value | undefined {
  // `export { name } from "m"` resolves as `import { name } from "m"` would: through re-exports and barrels.
  if (imp.kind !== "reexport") return importValue(ctx, st, imp, 0);
  const { alias: _alias, ...named } = imp;
  return importValue(ctx, st, { ...named, kind: "named" }, 0);
}

/** `recv.name`: through the receiver's value. */
function classifyMember(
  graph: CodeGraph,
  st: FileState,
  scope: number,
  site: IdentifierSite,
  family: Set<number>,
): string {
  const ctx = graph.context;
  const receiver = site.receiver ?? "";
  const call = edgeAt(graph, st.record.path, site, family);
  if (call === "family") return isCallAt(st.record, site) ? "call" : "attribute";
  if (call === "ambiguous") return "uncertain:an ambiguous call: several definitions could answer it";
  const rv = receiver ? resolveExpr(ctx, st, scope, receiver) : undefined;
  const full = receiver ? resolveExpr(ctx, st, scope, `${receiver}.${site.text}`) : undefined;
  if (inFamily(full, family)) return isCallAt(st.record, site) ? "call" : "attribute";
  if (call === "by-name") return `uncertain:linked by its name alone: the type of ${quoted(receiver)} is unknown`;
  if (full?.kind === "def" || call === "other") return "skip";
  if (!rv || rv.kind === "local") {
    if (SELF.has(receiver) || receiver === "super()" || receiver === "super")
      return selfMember(graph, st, scope, family) ? "attribute" : "skip";
    return anyMember(graph, family) ? `uncertain:the receiver ${quoted(receiver)} has no type the graph knows` : "skip";
  }
  if (rv.kind === "instance" || rv.kind === "super" || (rv.kind === "def" && isClassLike(ctx, rv.id))) {
    return related(graph, rv.id, family)
      ? `uncertain:${quoted(receiver)} is a related class where the name does not resolve`
      : "skip";
  }
  return "skip";
}

/** A bare name inside a class (Python class body, a method referenced without self): resolved in scope. */
function classifyBareMember(
  graph: CodeGraph,
  st: FileState,
  scope: number,
  site: IdentifierSite,
  family: Set<number>,
): string {
  const v = resolveExpr(graph.context, st, scope, site.text);
  return inFamily(v, family) ? (isCallAt(st.record, site) ? "call" : "reference") : "skip";
}

/**
 * Whether the graph linked a call on this line to the family (`family`), to it by the name alone
 * (`by-name`: the receiver's type unknown, the name unique in the project), elsewhere (`other`),
 * or left it ambiguous.
 */
function edgeAt(
  graph: CodeGraph,
  path: string,
  site: IdentifierSite,
  family: Set<number>,
): "family" | "by-name" | "other" | "ambiguous" | undefined {
  const call = graph.records
    .get(path)
    ?.calls.find((c) => c.line === site.line && c.col === site.col && c.name === site.text);
  if (!call) return undefined;
  const lines = edgesByLine(graph);
  const onLine = (lines.calls.get(`${path}:${site.line}`) ?? []).filter(
    (e) => graph.symbols[e.callee]!.name === site.text,
  );
  const ours = onLine.filter((e) => family.has(e.callee));
  // A call linked only because the name is unique in the project is a guess about the receiver.
  if (ours.some((e) => e.resolution !== "unique-name")) return "family";
  if (ours.length > 0) return "by-name";
  const ambiguous = lines.ambiguous.get(`${path}:${site.line}`) ?? [];
  if (ambiguous.some((a) => a.name === site.text && a.candidates.some((c) => family.has(c)))) return "ambiguous";
  if (onLine.length > 0) return "other";
  return undefined;
}

const lineIndexes = new WeakMap<
  CodeGraph,
  { calls: Map<string, CallEdge[]>; ambiguous: Map<string, CodeGraph["ambiguous"]> }
>();

/** The graph's call edges and ambiguous calls by `path:line`, built once per graph. */
function edgesByLine(graph: CodeGraph): {
  calls: Map<string, CallEdge[]>;
  ambiguous: Map<string, CodeGraph["ambiguous"]>;
} {
  let index = lineIndexes.get(graph);
  if (!index) {
    index = { calls: new Map(), ambiguous: new Map() };
    for (const e of graph.calls) {
      const key = `${e.file}:${e.line}`;
      const list = index.calls.get(key);
      if (list) list.push(e);
      else index.calls.set(key, [e]);
    }
    for (const a of graph.ambiguous) {
      const key = `${a.file}:${a.line}`;
      const list = index.ambiguous.get(key);
      if (list) list.push(a);
      else index.ambiguous.set(key, [a]);
    }
    lineIndexes.set(graph, index);
  }
  return index;
}

function selfMember(graph: CodeGraph, st: FileState, scope: number, family: Set<number>): boolean {
  const defs = st.record.definitions;
  for (let s = scope; s >= 0; s = defs[s]!.parent) {
    if (CLASS_SCOPE_KINDS.has(defs[s]!.kind)) return related(graph, symbolOf(st, s), family);
  }
  return false;
}

function anyMember(graph: CodeGraph, family: Set<number>): boolean {
  return [...family].some((id) => memberOwner(graph, graph.symbols[id]!) !== undefined);
}

/** Whether class `cls` is one of the classes whose members are in the family, or inherits from one. */
function related(graph: CodeGraph, cls: number, family: Set<number>): boolean {
  const owners = new Set(
    [...family].map((id) => memberOwner(graph, graph.symbols[id]!)).filter((x): x is number => x !== undefined),
  );
  for (const a of ancestors(graph, cls)) if (owners.has(a)) return true;
  return false;
}

/**
 * Refuses (`rename_refused`, `collision`) a new name that something the rename reaches already
 * has: for a method, a member of a related class; for a module-level name, a binding in the
 * defining file or in a file with an edit, or a name one of them already uses (a builtin the new
 * name would shadow).
 */
function checkCollisions(input: RenameInput, family: Set<number>, isMember: boolean, edits: RenameEdit[]): void {
  const { graph, newName } = input;
  const ctx = graph.context;
  const conflicts: { path: string; line: number; what: string }[] = [];
  if (isMember) {
    const owners = new Set([...family].map((id) => memberOwner(graph, graph.symbols[id]!)!));
    const classes = new Set<number>();
    for (const o of owners) for (const a of ancestors(graph, o)) for (const d of descendants(graph, a)) classes.add(d);
    for (const cls of classes) {
      for (const c of graph.children.get(cls) ?? []) {
        const s = graph.symbols[c]!;
        if (s.name === newName) conflicts.push({ path: s.file, line: s.start, what: `${s.kind} ${s.qualified}` });
      }
      const clsSym = graph.symbols[cls]!;
      const fields =
        graph.records
          .get(clsSym.file)
          ?.bindings.filter((b) => b.kind === "field" && b.name === newName && insideClass(graph, clsSym, b.scope)) ??
        [];
      for (const f of fields)
        conflicts.push({ path: clsSym.file, line: f.line, what: `field ${clsSym.qualified}.${newName}` });
    }
  } else {
    const files = new Set([input.target.file, ...edits.map((e) => e.path)]);
    for (const path of files) {
      const st = ctx.files.get(path);
      if (!st) continue;
      for (const d of st.record.definitions)
        if (d.name === newName && d.parent < 0)
          conflicts.push({ path, line: d.nameLine, what: `${d.kind} ${d.qualified}` });
      for (const imp of st.record.imports)
        if ((imp.alias ?? imp.name) === newName && imp.scope < 0)
          conflicts.push({ path, line: imp.line, what: `import of ${imp.module}` });
      for (const b of st.record.bindings)
        if (b.name === newName && b.scope < 0 && b.kind !== "field")
          conflicts.push({ path, line: b.line, what: `module-level name ${newName}` });
      const uses = (input.sites.get(path) ?? []).filter((s) => s.text === newName && s.role === "name");
      for (const u of uses.slice(0, 1))
        conflicts.push({ path, line: u.line, what: `a use of ${newName} the new name would capture or shadow` });
      for (const e of edits.filter((x) => x.path === path)) {
        const scope = scopeAt(st.record, e.line);
        const local = scope >= 0 ? resolveExpr(ctx, st, scope, newName) : undefined;
        if (
          local &&
          local.kind !== "external" &&
          !(local.kind === "def" && family.has(local.id)) &&
          !conflicts.some((c) => c.path === path)
        )
          conflicts.push({ path, line: e.line, what: `a local ${newName} in scope at the edit` });
      }
    }
  }
  if (conflicts.length) {
    const first = conflicts[0]!;
    throw new EngineError(
      "rename_refused",
      `${newName} already names ${first.what} ` +
        (`(${first.path}:${first.line})${conflicts.length > 1 ? ` and ${conflicts.length - 1} more` : ""}: ` +
          `renaming ${input.target.qualified} would collide.`),
      {
        hint: "Choose a name that nothing in the scopes the rename reaches uses yet.",
        data: { reason: "collision", name: newName, target: input.target.qualified, conflicts: conflicts.slice(0, 20) },
      },
    );
  }
}

function insideClass(graph: CodeGraph, cls: SymbolNode, scope: number): boolean {
  const defs = graph.records.get(cls.file)?.definitions ?? [];
  for (let s = scope; s >= 0; s = defs[s]!.parent) if (s === cls.index) return true;
  return false;
}

/** Refuses what rename does not handle: modules, constructors, special methods. */
export function checkRenameable(graph: CodeGraph, target: SymbolNode): void {
  const special =
    /^__\w+__$/.test(target.name) ||
    target.kind === "constructor" ||
    target.name === "constructor" ||
    target.kind === "module";
  if (special) {
    throw new EngineError(
      "rename_refused",
      `${target.qualified} is a ` +
        (`${target.kind === "module" ? "module" : "special method the language calls by name"}; rename does not ` +
          `change it.`),
      {
        hint:
          target.kind === "module"
            ? "Rename the file with your editor or git mv; rename changes functions, classes, methods and " +
              "module-level names."
            : "Rename a function, class, method or module-level name.",
        data: { reason: "unsupported", target: target.qualified },
      },
    );
  }
  void graph;
}
