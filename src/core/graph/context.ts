/**
 * The state a graph's resolution works on: the symbol table, each file's scope (top-level names,
 * import bindings, local bindings), the language semantics, the module resolvers' tables, and the
 * memos that keep resolution linear. The modules of the graph pipeline (imports, resolve, calls,
 * type uses, patch) are functions over it; a built graph keeps it for later look-ups.
 */
import { TYPE_KINDS } from "../extract/record.ts";
import { DEFAULT_SEMANTICS, type LanguageSemantics, type LanguageSpec, type ModuleResolver, type ProjectFiles, type ResolvedImport } from "../../languages/types.ts";
import { languageById } from "../../languages/index.ts";
import type { ArityRange } from "../../languages/arity.ts";
import type { BindingRecord, Definition, FileRecord, ImportRecord } from "../extract/record.ts";
import type { SymbolNode } from "./model.ts";
import { dirname } from "../../shared/paths.ts";
import { bindingName } from "./summary.ts";
import { StarExports } from "./star-exports.ts";

/** A file's scope for resolution. */
export interface FileState {
  record: FileRecord;
  moduleId: number;
  spec: LanguageSpec | undefined;
  semantics: LanguageSemantics;
  /** Top-level definitions by name (last one wins, like re-binding at module level). */
  top: Map<string, number>;
  /** Import records with a local binding, by local name (all scopes; filter by `scope`). */
  importBindings: Map<string, ImportRecord[]>;
  starImports: ImportRecord[];
  /**
   * Local bindings by scope (definition index) and name, and fields per class definition index.
   * Built on first use and released once the graph is built: a big tree has ~90k of these maps.
   */
  scopes: {
    locals: Map<number, Map<string, BindingRecord>>;
    fields: Map<number, Map<string, BindingRecord>>;
    /** Bindings visible on some lines only (`until`), by scope and name: they shadow `locals` there. */
    shadows: Map<number, Map<string, BindingRecord[]>>;
  } | undefined;
  /** The line of the call being resolved, for bindings visible on some lines only. */
  atLine?: number;
  resolver: ModuleResolver | undefined;
  resolverState: unknown;
  /** The package the file belongs to, when its language shares top-level names per package (see LanguageSemantics.packages). */
  packageKey: string | undefined;
}

/** Memos of a resolution pass; cleared when a graph is finished or patched. */
export interface Memos {
  /** What a file's name exports, by file then name (see PairMemo). */
  exports: PairMemo<string, string, unknown>;
  members: Map<string, number | null>;
  bases: Map<number, { id: number; kind: "extends" | "implements" }[]>;
  imports: Map<FileState, Map<ImportRecord, ResolvedImport>>;
  callables: Map<string, { ids: number[]; shown: readonly number[] }>;
  overrides: Map<number, number[]>;
  /** The argument counts each overloaded definition accepts (null: its signature does not tell). */
  arity: Map<number, ArityRange | null>;
  /** The same-named callable members of a type, by `owner\0name` (its overloads of the name). */
  overloads: Map<string, readonly number[]>;
  /** The names star imports can bring in at all (star-exports.ts). */
  starExports: StarExports;
}

/** Everything resolution reads. */
export interface GraphContext {
  symbols: SymbolNode[];
  moduleSymbol: Map<string, number>;
  byName: Map<string, number[]>;
  byQualified: Map<string, number>;
  children: Map<number, number[]>;
  files: Map<string, FileState>;
  project: ProjectFiles;
  resolverStates: Map<ModuleResolver, unknown>;
  memos: Memos;
  /** Direct subclasses and implementers of each class or interface (set once inheritance is known). */
  subclasses: Map<number, number[]>;
  /** Link a call with an unknown receiver to the only definition of that name (default true). */
  uniqueNameFallback: boolean;
  /** Top-level definitions by name per package (LanguageSemantics.packages), first declaration wins. */
  packages: Map<string, Map<string, number>>;
  /**
   * Methods declared outside their type's body (Go receivers, Rust impl blocks), by the type they
   * belong to: members as much as its children are.
   */
  attached: Map<number, number[]>;
  /**
   * Bases a type gets from outside its body (Rust `impl Trait for Type`): the base's text, resolved
   * in the file and scope of the block that declares it.
   */
  attachedBases?: Map<number, { file: string; scope: number; text: string }[]>;
  /**
   * Functions with external linkage by name (LanguageSemantics.linkage): what a declaration in a
   * header leads to, wherever the definition is.
   */
  linked: Map<string, number[]>;
}

/** Entries a memo holds before it starts over (V8 refuses a Map past 2^24 entries). */
export const MEMO_LIMIT = 1 << 23;

/**
 * A memo that forgets everything when it reaches its limit: a memo is only a cache, and on the
 * Linux kernel the names looked up through its headers passed the 2^24 entries V8 allows a Map
 * (`graph` failed with "Map maximum size exceeded").
 */
export class BoundedMap<K, V> extends Map<K, V> {
  constructor(private readonly limit = MEMO_LIMIT) {
    super();
  }

  override set(key: K, value: V): this {
    if (this.size >= this.limit && !this.has(key)) this.clear();
    return super.set(key, value);
  }
}

/**
 * A memo keyed by a pair (file, name), as a map of maps: no key string is built per look-up (a
 * `file\0name` key was ~70 bytes for each of millions of entries on the Linux kernel, and hashed
 * afresh every time). Bounded like BoundedMap: at `limit` entries in all it forgets everything.
 */
export class PairMemo<A, B, V> {
  private readonly outer = new Map<A, Map<B, V>>();
  private count = 0;
  constructor(private readonly limit = MEMO_LIMIT) {}

  get size(): number {
    return this.count;
  }

  has(a: A, b: B): boolean {
    return this.outer.get(a)?.has(b) ?? false;
  }

  get(a: A, b: B): V | undefined {
    return this.outer.get(a)?.get(b);
  }

  set(a: A, b: B, value: V): this {
    let inner = this.outer.get(a);
    if (!inner?.has(b)) {
      if (this.count >= this.limit) {
        this.clear();
        inner = undefined;
      }
      if (!inner) this.outer.set(a, (inner = new Map()));
      this.count++;
    }
    inner.set(b, value);
    return this;
  }

  clear(): void {
    this.outer.clear();
    this.count = 0;
  }
}

export function emptyMemos(): Memos {
  const memo = () => new BoundedMap<never, never>();
  return {
    exports: new PairMemo(), members: memo(), bases: memo(), imports: memo(), callables: memo(), overrides: memo(), arity: memo(), overloads: memo(),
    starExports: new StarExports(),
  };
}

/** The resolver tables for `resolver`, prepared once per project. */
export function resolverState(ctx: Pick<GraphContext, "resolverStates" | "project">, resolver: ModuleResolver | undefined): unknown {
  if (!resolver) return undefined;
  if (!ctx.resolverStates.has(resolver)) ctx.resolverStates.set(resolver, resolver.prepare(ctx.project));
  return ctx.resolverStates.get(resolver);
}

/** A file's scope: its top-level names and import bindings (local scopes come later, on demand). */
export function makeFileState(ctx: Pick<GraphContext, "resolverStates" | "project">, record: FileRecord, moduleId: number): FileState {
  const top = new Map<string, number>();
  record.definitions.forEach((d, i) => {
    if (d.parent < 0) top.set(d.name, i);
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
    const name = imp.kind === "module" && !imp.alias && resolver?.localName ? resolver.localName(imp.module) : bindingName(imp);
    if (name) {
      const list = importBindings.get(name) ?? [];
      list.push(imp);
      importBindings.set(name, list);
    }
  }
  const packageKey = !semantics.packages ? undefined
    : semantics.packages === "folder" ? `${record.language}:${dirname(record.path)}:${declared ?? ""}` : `${record.language}:${declared ?? ""}`;
  return {
    record, moduleId, spec, semantics, top, importBindings, starImports, scopes: undefined,
    resolver, resolverState: resolverState(ctx, resolver), packageKey,
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
      ? scopeDef && TYPE_KINDS.has(scopeDef.kind) ? b.scope : scopeDef && scopeDef.parent >= 0 && TYPE_KINDS.has(record.definitions[scopeDef.parent]!.kind) ? scopeDef.parent : -1
      : scopeDef?.kind === "class" && b.kind === "assign" ? b.scope : -1;
    if (classIdx >= 0 && (b.type || b.value || b.alias)) {
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
    for (const b of scopes.shadows.get(scope)?.get(name) ?? []) if (b.line < line && line <= b.until! && (!best || b.line >= best.line)) best = b;
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
  return TYPE_KINDS.has(k) || (k === "type" && ctx.attached.has(id)) || (k === "module" && stateOf(ctx, id).semantics.openModules === true);
}

/** The members of a type: its children, then the methods declared outside its body. */
export function membersOf(ctx: Pick<GraphContext, "children" | "attached">, id: number): readonly number[] {
  const own = ctx.children.get(id);
  const outside = ctx.attached.get(id);
  return outside ? [...(own ?? []), ...outside] : own ?? [];
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
