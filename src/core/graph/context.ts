/**
 * The state a graph's resolution works on: the symbol table, each file's scope (top-level names,
 * import bindings, local bindings), the language semantics, the module resolvers' tables, and the
 * memos that keep resolution linear. The modules of the graph pipeline (imports, resolve, calls,
 * type uses, patch) are functions over it; a built graph keeps it for later look-ups.
 */
import { TYPE_KINDS } from "../extract/record.ts";
import { DEFAULT_SEMANTICS, type ModuleResolver } from "../../languages/types.ts";
import { languageById } from "../../languages/index.ts";
import type { BindingRecord, Definition, FileRecord, ImportRecord } from "../extract/record.ts";
import type { FileState, GraphContext } from "./model.ts";
import { dirname } from "../../shared/paths.ts";
import { bindingName } from "./summary.ts";

// The types resolution works on live in model.ts (so the model imports nothing of the pipeline);
// they are re-exported here, beside the functions over them.
export type { FileState, GraphContext, Memos, StarExportTable } from "./model.ts";

/**
 * Whether `name` is a global of the language of `language` or of one of its hosts (`JSON`, `process`, `window`): a
 * receiver rooted at one the file does not bind is no project data.
 */
export function isGlobal(ctx: Pick<GraphContext, "hostGlobals">, language: string, name: string): boolean {
  return languageById(language)?.globals?.has(name) === true || ctx.hostGlobals.get(language)?.has(name) === true;
}

/** The resolver tables for `resolver`, prepared once per project. */
export function resolverState(
  ctx: Pick<GraphContext, "resolverStates" | "project">,
  resolver: ModuleResolver | undefined,
): unknown {
  if (!resolver) return undefined;
  if (!ctx.resolverStates.has(resolver)) ctx.resolverStates.set(resolver, resolver.prepare(ctx.project));
  return ctx.resolverStates.get(resolver);
}

/** A file's scope: its top-level names and import bindings (local scopes come later, on demand). */
/** Whether a definition is qualified by something it is declared outside of (an `impl`'s method: `Parser.parse`). */
const defsQualified = (record: FileRecord, i: number): boolean =>
  record.definitions[i]!.qualified !== record.definitions[i]!.name;

export function makeFileState(
  ctx: Pick<GraphContext, "resolverStates" | "project">,
  record: FileRecord,
  moduleId: number,
): FileState {
  const top = new Map<string, number>();
  record.definitions.forEach((d, i) => {
    // (a method declared outside its type, Rust's `impl Parser { fn parse… }`, has no parent either: the file's own
    // `fn parse` keeps the name, so `use crate::flags::parse::parse` is the function, not `Parser.parse`)
    if (d.parent < 0 && (d.qualified === d.name || !top.has(d.name) || defsQualified(record, top.get(d.name)!)))
      top.set(d.name, i);
  });
  const importBindings = new Map<string, ImportRecord[]>();
  const starImports: ImportRecord[] = [];
  const spec = languageById(record.language);
  const resolver = spec?.resolver;
  const semantics = spec?.semantics ?? DEFAULT_SEMANTICS;
  let declared: string | undefined;
  for (const imp of record.imports) {
    if (imp.kind === "star") starImports.push(imp);
    if (imp.kind === "package") declared ??= imp.module;
    const name =
      imp.kind === "module" && !imp.alias && resolver?.localName ? resolver.localName(imp.module) : bindingName(imp);
    if (name) {
      const list = importBindings.get(name) ?? [];
      list.push(imp);
      importBindings.set(name, list);
    }
  }
  const packageKey = !semantics.packages
    ? undefined
    : semantics.packages === "folder"
      ? `${record.language}:${dirname(record.path)}:${declared ?? ""}`
      : `${record.language}:${declared ?? ""}`;
  return {
    record,
    moduleId,
    spec,
    semantics,
    top,
    importBindings,
    starImports,
    scopes: undefined,
    resolver,
    resolverState: resolverState(ctx, resolver),
    packageKey,
  };
}

/**
 * A file's local bindings by scope and its classes' fields, from its binding records. Built on
 * first use and dropped once the graph is built (see FileState.scopes).
 */
function scopesOf(record: FileRecord): NonNullable<FileState["scopes"]> {
  const locals = new Map<number, Map<string, BindingRecord>>();
  const fields = new Map<number, Map<string, BindingRecord>>();
  const shadows = new Map<number, Map<string, BindingRecord[]>>();
  for (const b of record.bindings) {
    if (b.until !== undefined) {
      const m = shadows.get(b.scope) ?? shadows.set(b.scope, new Map()).get(b.scope)!;
      (m.get(b.name) ?? m.set(b.name, []).get(b.name)!).push(b);
      continue;
    }
    const scopeDef = b.scope >= 0 ? record.definitions[b.scope] : undefined;
    const isField = b.kind === "field" && (b.receiver === "self" || b.receiver === "this" || b.receiver === undefined);
    const classIdx = isField
      ? scopeDef && TYPE_KINDS.has(scopeDef.kind)
        ? b.scope
        : scopeDef && scopeDef.parent >= 0 && TYPE_KINDS.has(record.definitions[scopeDef.parent]!.kind)
          ? scopeDef.parent
          : -1
      : scopeDef?.kind === "class" && b.kind === "assign"
        ? b.scope
        : -1;
    // (a sigil field set outside any class, `@x = K.new` in an rspec `before` block, is the top-level object's: -1)
    const fieldOfFile = isField && classIdx < 0 && b.name.startsWith("@") && !enclosedByType(record, b.scope);
    if ((classIdx >= 0 || fieldOfFile) && (b.type || b.value || b.alias)) {
      const m = fields.get(classIdx) ?? new Map<string, BindingRecord>();
      if (!m.has(b.name) || b.type) m.set(b.name, b);
      fields.set(classIdx, m);
    }
    if (b.kind !== "field") {
      const m = locals.get(b.scope) ?? new Map<string, BindingRecord>();
      const prior = m.get(b.name);
      // Prefer a binding that tells the type; otherwise keep the first.
      if (!prior || (!prior.type && !prior.value && !prior.alias && (b.type || b.value || b.alias))) m.set(b.name, b);
      locals.set(b.scope, m);
    }
  }
  return { locals, fields, shadows };
}

/** True when a definition of a type kind holds scope `scope` (or is it). */
function enclosedByType(record: FileRecord, scope: number): boolean {
  for (let s = scope; s >= 0; s = record.definitions[s]!.parent)
    if (TYPE_KINDS.has(record.definitions[s]!.kind)) return true;
  return false;
}

export const localsOf = (st: FileState) => (st.scopes ??= scopesOf(st.record)).locals;

/**
 * The binding of `name` in scope `scope` at the line being resolved: the innermost closure
 * parameter whose lines hold it, else the scope's own binding. A call on the closure's first
 * line is taken as outside it (`r.Get("/", func(w, r *http.Request) {…`: the receiver is the outer r).
 */
export function localAt(st: FileState, scope: number, name: string): BindingRecord | undefined {
  const scopes = (st.scopes ??= scopesOf(st.record));
  const line = st.atLine;
  if (line !== undefined) {
    let best: BindingRecord | undefined;
    // (a block that rebinds the instance name, Ruby `x.instance_eval { … }`, holds from its own line: one-liners)
    const fromOwnLine = st.semantics.instanceNames.includes(name);
    for (const b of scopes.shadows.get(scope)?.get(name) ?? [])
      if ((b.line < line || (fromOwnLine && b.line === line)) && line <= b.until! && (!best || b.line >= best.line))
        best = b;
    if (best) return best;
  }
  return scopes.locals.get(scope)?.get(name);
}
export const fieldsOf = (st: FileState) => (st.scopes ??= scopesOf(st.record)).fields;

export const stateOf = (ctx: GraphContext, id: number): FileState => ctx.files.get(ctx.symbols[id]!.file)!;

export function defOf(ctx: GraphContext, id: number): Definition | undefined {
  const s = ctx.symbols[id]!;
  return s.index >= 0 ? ctx.files.get(s.file)!.record.definitions[s.index] : undefined;
}

/** Kinds whose definitions have members and make instances (defined beside the records). */
export { TYPE_KINDS };

/** A class, interface, struct or enum, or a named type with methods of its own (Go `type HandlerFunc func(…)`). */
export function isClassLike(ctx: GraphContext, id: number): boolean {
  const k = ctx.symbols[id]!.kind;
  return (
    TYPE_KINDS.has(k) ||
    (k === "type" && ctx.attached.has(id)) ||
    (k === "module" && stateOf(ctx, id).semantics.openModules === true)
  );
}

/** The members of a type: its children, then the methods declared outside its body. */
export function membersOf(ctx: Pick<GraphContext, "children" | "attached">, id: number): readonly number[] {
  const own = ctx.children.get(id);
  const outside = ctx.attached.get(id);
  return outside ? [...(own ?? []), ...outside] : (own ?? []);
}

const ownerMaps = new WeakMap<Map<number, number[]>, Map<number, number>>();

/** The type a method declared outside its body belongs to (the inverse of `attached`). */
export function attachedOwner(ctx: Pick<GraphContext, "attached">, member: number): number | undefined {
  let m = ownerMaps.get(ctx.attached);
  if (!m) {
    m = new Map();
    for (const [owner, members] of ctx.attached) for (const x of members) m.set(x, owner);
    ownerMaps.set(ctx.attached, m);
  }
  return m.get(member);
}

/** The symbol id of definition `index` of a file (-1: its module symbol). */
export const symbolOf = (st: FileState, index: number): number => (index < 0 ? st.moduleId : st.moduleId + 1 + index);
