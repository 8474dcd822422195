/**
 * Builds the code graph from file records: resolves imports through each language's resolver,
 * then every call site through local scope → imports → self/cls/this/super (with inheritance) →
 * typed receivers → a repo-unique name, recording how each edge was resolved. A call that no rule
 * settles is never linked by name alone when several definitions share it.
 */
import { languageById } from "../../languages/index.ts";
import type { ModuleResolver, ProjectFiles, ResolvedImport } from "../../languages/types.ts";
import type { BindingRecord, CallRecord, FileRecord, ImportRecord } from "../extract/record.ts";
import { pythonModuleOf } from "../../languages/python/resolve.ts";
import {
  AMBIGUOUS_CANDIDATES, CONFIDENCE, type AmbiguousCall, type CallEdge, type CodeGraph, type ExternalCall, type ImportEdge, type InheritEdge,
  type Resolution, type SymbolNode,
} from "./model.ts";

/** What a name or expression stands for during resolution. */
type Value =
  | { kind: "def"; id: number; via: "scope" | "import" }
  /** An instance of a class (from `self`, a typed parameter, `x = Foo()`, …). */
  | { kind: "instance"; id: number }
  | { kind: "module"; file: string }
  | { kind: "external"; name: string }
  /** A local variable or parameter whose type we do not know. */
  | { kind: "local" }
  /** `super()` / `super`: members are looked up in the bases of `id`. */
  | { kind: "super"; id: number };

const CALLABLE = new Set(["function", "method", "class", "constructor"]);
const FUNCTION_SCOPES = new Set(["function", "method", "constructor", "getter", "setter"]);
const MAX_DEPTH = 12;

/** Options for graph building. */
export interface GraphOptions {
  /** Link a call with an unknown receiver to the only definition of that name (default true). */
  uniqueNameFallback?: boolean;
}

interface FileState {
  record: FileRecord;
  moduleId: number;
  /** Top-level definitions by name (last one wins, like re-binding at module level). */
  top: Map<string, number>;
  /** Import records with a local binding, by local name and scope (definition index, -1 module). */
  importBindings: Map<string, ImportRecord[]>;
  starImports: ImportRecord[];
  /**
   * Local bindings by scope (definition index) and name, and fields per class definition index
   * (name → binding with a type or value). Built on demand by `scopesOf` and released after the
   * build: a big tree has ~90k of these maps, and only route lookups need them afterwards.
   */
  scopes: { locals: Map<number, Map<string, BindingRecord>>; fields: Map<number, Map<string, BindingRecord>> } | undefined;
  resolverState: unknown;
  resolver: ModuleResolver | undefined;
}

/**
 * A file's local bindings by scope and its classes' fields, from its binding records. Built on first
 * use and dropped once the graph is built (see FileState.scopes).
 */
function scopesOf(record: FileRecord): NonNullable<FileState["scopes"]> {
  const locals = new Map<number, Map<string, BindingRecord>>();
  const fields = new Map<number, Map<string, BindingRecord>>();
  for (const b of record.bindings) {
    const scopeDef = b.scope >= 0 ? record.definitions[b.scope] : undefined;
    const isField = b.kind === "field" && (b.receiver === "self" || b.receiver === "this" || b.receiver === undefined);
    const classIdx = isField
      ? scopeDef?.kind === "class" ? b.scope : scopeDef && scopeDef.parent >= 0 && record.definitions[scopeDef.parent]!.kind === "class" ? scopeDef.parent : -1
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
  return { locals, fields };
}

/** Per-file call resolution output. */
interface FileCalls {
  calls: CallEdge[];
  external: ExternalCall[];
  ambiguous: AmbiguousCall[];
  unresolved: number;
}

const shapes = new WeakMap<FileRecord, string>();

/**
 * What other files can see of a file, as a string to compare: its definitions without positions,
 * docs or signature text (names, kinds, nesting, bases, parameter and return types, decorators,
 * exports), its imports without lines, the bindings outside function bodies and the fields set
 * on `self`/`this`, and, for a name both imported and defined at top level, which comes later.
 * Two records with the same shape resolve every other file's calls the same way, so an edit that
 * keeps it (a changed body, a moved function) only needs its own file resolved again.
 */
function outwardShape(record: FileRecord): string {
  let shape = shapes.get(record);
  if (shape !== undefined) return shape;
  const defs = record.definitions;
  const lastImportLine = new Map<string, number>();
  for (const imp of record.imports) {
    const name = imp.scope < 0 ? bindingName(imp) : undefined;
    if (name) lastImportLine.set(name, Math.max(lastImportLine.get(name) ?? 0, imp.line));
  }
  shape = JSON.stringify([
    defs.map(({ start: _s, end: _e, nameLine: _l, nameCol: _c, bodyStart: _b, doc: _d, signature: _g, terms: _t, ...rest }) => rest),
    record.imports.map(({ line: _l, ...rest }) => rest),
    // All bindings: fields resolve through their method's locals, callback types through the
    // callee's scope, so a local inside a function can be visible from other files.
    record.bindings.map(({ line: _l, ...rest }) => rest),
    defs.filter((d) => d.parent < 0 && lastImportLine.has(d.name)).map((d) => [d.name, d.start > lastImportLine.get(d.name)!]),
  ]);
  shapes.set(record, shape);
  return shape;
}

function bindingName(imp: ImportRecord): string | undefined {
  switch (imp.kind) {
    case "module":
      return imp.alias ?? imp.module.split(".")[0];
    case "named":
      return imp.alias ?? imp.name?.split(".").at(-1);
    case "default":
    case "namespace":
    case "reexport-namespace":
      return imp.alias;
    case "require":
    case "dynamic":
    case "side-effect":
    case "star":
    case "reexport":
    case "export":
    case "export-default":
      return undefined;
  }
}

/** Splits `text` on `sep` at bracket depth 0. */
function splitTop(text: string, sep: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "<" || c === "[" || c === "(" || c === "{") depth++;
    else if ((c === ">" && text[i - 1] !== "=") || c === "]" || c === ")" || c === "}") depth--;
    else if (c === sep && depth === 0) {
      out.push(text.slice(start, i));
      start = i + 1;
    }
  }
  out.push(text.slice(start));
  return out.map((p) => p.trim()).filter(Boolean);
}

/**
 * The class names a type annotation may stand for, best first: `Optional[X]`, `X | None`, `"X"`,
 * `X<T>`, `Union[A, B]` → X / A, B. Arrays, tuples and literal types name no class.
 */
export function typeCandidates(text: string): string[] {
  let t = text.trim().replace(/^["']|["']$/g, "");
  const wrapper = /^(?:typing\.)?(Optional|Final|ClassVar|Annotated|Union|Type|type|Readonly|Promise|Awaitable)\[(.*)\]$/s.exec(t) ??
    /^(Readonly|Promise|Awaited|NonNullable)<(.*)>$/s.exec(t);
  if (wrapper) {
    const inner = splitTop(wrapper[2]!, ",");
    const parts = wrapper[1] === "Union" ? inner : inner.slice(0, 1);
    return parts.flatMap((p) => typeCandidates(p));
  }
  const parts = splitTop(t, "|");
  if (parts.length > 1) return parts.flatMap((p) => typeCandidates(p));
  if (/^(None|null|undefined|void|any|unknown|never)$/.test(t) || t.endsWith("[]")) return [];
  t = t.replace(/(<.*>|\[.*\])$/s, "").trim();
  return /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/.test(t) ? [t] : [];
}

/** Parameter types of a function type `(a: A, b?: B) => R` (a `this:` parameter is dropped). */
export function functionTypeParams(text: string): string[] | undefined {
  let t = text.trim();
  while (t.startsWith("(") && t.endsWith(")") && !/=>/.test(t.slice(t.lastIndexOf(")")))) {
    // `((a: A) => R)` or `((a: A) => R) | undefined`-style parens around the whole type
    const inner = t.slice(1, -1);
    if (!/=>/.test(inner)) break;
    t = inner.trim();
  }
  t = splitTop(t, "|")[0] ?? t;
  if (!t.startsWith("(")) return undefined;
  let depth = 0;
  let close = -1;
  for (let i = 0; i < t.length; i++) {
    if (t[i] === "(") depth++;
    else if (t[i] === ")" && --depth === 0) {
      close = i;
      break;
    }
  }
  if (close < 0 || !/^\s*=>/.test(t.slice(close + 1))) return undefined;
  return splitTop(t.slice(1, close), ",")
    .filter((p) => !/^this\s*:/.test(p))
    .map((p) => {
      const parts = splitTop(p, ":");
      return parts.length > 1 ? parts.slice(1).join(":").trim() : "";
    });
}

/** Splits `a.b(c).d` into the callee part and whether it ends in a call: returns [expr, isCall]. */
function splitCall(text: string): [string, boolean] {
  if (!text.endsWith(")")) return [text, false];
  let depth = 0;
  for (let i = text.length - 1; i >= 0; i--) {
    const c = text[i];
    if (c === ")") depth++;
    else if (c === "(") {
      depth--;
      if (depth === 0) return [text.slice(0, i).trim(), true];
    }
  }
  return [text, false];
}

/** Builds the graph. `configs` supplies config-file text (tsconfig.json, package.json). */
export function buildGraph(records: FileRecord[], allPaths: Iterable<string>, configs: Map<string, string>, options: GraphOptions = {}): CodeGraph {
  const uniqueFallback = options.uniqueNameFallback ?? true;
  const pathSet = new Set(allPaths);
  for (const r of records) pathSet.add(r.path);
  const project: ProjectFiles = { has: (p) => pathSet.has(p), config: (p) => configs.get(p), paths: () => pathSet };

  // Resolver tables, one per resolver (TypeScript and JavaScript share one).
  const resolverStates = new Map<ModuleResolver, unknown>();
  const stateFor = (resolver: ModuleResolver | undefined) => {
    if (!resolver) return undefined;
    if (!resolverStates.has(resolver)) resolverStates.set(resolver, resolver.prepare(project));
    return resolverStates.get(resolver);
  };
  const pythonState = stateFor(languageById("python")?.resolver);

  // 1. Symbols: per file a module symbol followed by its definitions.
  const symbols: SymbolNode[] = [];
  const moduleSymbol = new Map<string, number>();
  const files = new Map<string, FileState>();
  const locals = (st: FileState) => (st.scopes ??= scopesOf(st.record)).locals;
  const fields = (st: FileState) => (st.scopes ??= scopesOf(st.record)).fields;
  /** A file's symbols (its module symbol, then its definitions, from `moduleId` on) and its state. */
  const makeFile = (record: FileRecord, moduleId: number): { syms: SymbolNode[]; st: FileState } => {
    const lang = record.language;
    const py = lang === "python";
    const mod = py ? (pythonModuleOf(pythonState, record.path) ?? record.path) : record.path;
    const syms: SymbolNode[] = [{ id: moduleId, file: record.path, language: lang, index: -1, name: mod, qualified: mod, kind: "module", parent: -1, start: 1, end: record.lines, nameLine: 1 }];
    const top = new Map<string, number>();
    record.definitions.forEach((d, i) => {
      const qualified = py ? (mod === "" ? d.qualified : `${mod}.${d.qualified}`) : `${record.path}#${d.qualified}`;
      syms.push({
        id: moduleId + 1 + i, file: record.path, language: lang, index: i, name: d.name, qualified, kind: d.kind,
        parent: d.parent < 0 ? moduleId : moduleId + 1 + d.parent, start: d.start, end: d.end, nameLine: d.nameLine,
      });
      if (d.parent < 0) top.set(d.name, i);
    });
    const importBindings = new Map<string, ImportRecord[]>();
    const starImports: ImportRecord[] = [];
    for (const imp of record.imports) {
      if (imp.kind === "star") starImports.push(imp);
      const name = bindingName(imp);
      if (name) {
        const list = importBindings.get(name) ?? [];
        list.push(imp);
        importBindings.set(name, list);
      }
    }
    const resolver = languageById(lang)?.resolver;
    return { syms, st: { record, moduleId, top, importBindings, starImports, scopes: undefined, resolver, resolverState: stateFor(resolver) } };
  };
  for (const record of records) {
    const { syms, st } = makeFile(record, symbols.length);
    moduleSymbol.set(record.path, st.moduleId);
    for (const sym of syms) symbols.push(sym);
    files.set(record.path, st);
  }
  const byName = new Map<string, number[]>();
  const byQualified = new Map<string, number>();
  const children = new Map<number, number[]>();
  for (const s of symbols) {
    if (s.kind === "module") continue;
    (byName.get(s.name) ?? byName.set(s.name, []).get(s.name)!).push(s.id);
    byQualified.set(s.qualified, s.id);
    (children.get(s.parent) ?? children.set(s.parent, []).get(s.parent)!).push(s.id);
  }
  for (const s of symbols) if (s.kind === "module" && !byQualified.has(s.qualified)) byQualified.set(s.qualified, s.id);
  const stateOf = (id: number) => files.get(symbols[id]!.file)!;
  const defOf = (id: number) => {
    const s = symbols[id]!;
    return s.index >= 0 ? files.get(s.file)!.record.definitions[s.index] : undefined;
  };

  // 2. Imports.
  // Per file: files with the same content share one record's import objects (records are keyed by
  // content), but a relative import resolves differently from each file's folder.
  const resolvedImports = new Map<FileState, Map<ImportRecord, ResolvedImport>>();
  const resolveImport = (st: FileState, imp: ImportRecord): ResolvedImport => {
    const cache = resolvedImports.get(st) ?? resolvedImports.set(st, new Map()).get(st)!;
    let r = cache.get(imp);
    if (!r) {
      r = st.resolver && imp.module !== "" ? st.resolver.resolve(st.resolverState, st.record.path, imp.module, imp.kind === "named" ? imp.name : undefined) : { external: imp.module !== "" };
      cache.set(imp, r);
    }
    return r;
  };
  /** A file's import edges, one per imported file (the first import line). */
  const importsOf = (st: FileState): ImportEdge[] => {
    const out: ImportEdge[] = [];
    const seen = new Set<string>();
    const from = st.record.path;
    const add = (to: string | undefined, line: number) => {
      if (!to || to === from || seen.has(to)) return;
      seen.add(to);
      out.push({ from, to, line });
    };
    for (const imp of st.record.imports) {
      if (imp.kind === "export" || imp.kind === "export-default") continue;
      const r = resolveImport(st, imp);
      add(r.file, imp.line);
      add(r.submodule, imp.line);
    }
    return out;
  };
  let imports: ImportEdge[] = [];
  for (const st of files.values()) for (const e of importsOf(st)) imports.push(e);

  // 3. Module exports (what `from m import n` / `import { n } from "m"` reaches), memoized.
  const exportMemo = new Map<string, Value | null>();
  const exportOf = (file: string, name: string, depth = 0): Value | undefined => {
    const key = `${file}\0${name}`;
    if (exportMemo.has(key)) return exportMemo.get(key) ?? undefined;
    exportMemo.set(key, null); // cycle guard
    const v = depth > MAX_DEPTH ? undefined : computeExport(file, name, depth);
    exportMemo.set(key, v ?? null);
    return v;
  };
  const computeExport = (file: string, name: string, depth: number): Value | undefined => {
    const st = files.get(file);
    if (!st) return undefined;
    const py = st.record.language === "python";
    if (py) {
      const i = st.top.get(name);
      // The later of a top-level def and a module-level import of the same name wins.
      const imps = (st.importBindings.get(name) ?? []).filter((imp) => imp.scope < 0);
      const lastImp = imps.at(-1);
      const defValue: Value | undefined = i !== undefined ? { kind: "def", id: st.moduleId + 1 + i, via: "import" } : undefined;
      if (defValue && (!lastImp || st.record.definitions[i!]!.start > lastImp.line)) return defValue;
      // An import that leads back here (demo code re-importing its own module) or nowhere keeps the def.
      if (lastImp) return importValue(st, lastImp, depth) ?? defValue;
      for (const star of st.starImports) {
        const r = resolveImport(st, star);
        if (r.file) {
          const v = exportOf(r.file, name, depth + 1);
          if (v) return v;
        }
      }
      const sub = pythonState ? resolvePythonSubmodule(file, name) : undefined;
      if (sub) return { kind: "module", file: sub };
      return undefined;
    }
    // TypeScript / JavaScript
    for (const imp of st.record.imports) {
      if (imp.kind === "export" && (imp.alias ?? imp.name) === name && imp.name) return localValue(st, imp.name, depth);
      if (imp.kind === "export-default" && name === "default" && imp.name) return localValue(st, imp.name, depth);
      if (imp.kind === "reexport" && (imp.alias ?? imp.name) === name && imp.name) {
        const r = resolveImport(st, imp);
        if (r.file) return exportOf(r.file, imp.name, depth + 1);
        return { kind: "external", name: `${imp.module}.${imp.name}` };
      }
      if (imp.kind === "reexport-namespace" && imp.alias === name) {
        const r = resolveImport(st, imp);
        return r.file ? { kind: "module", file: r.file } : { kind: "external", name: imp.module };
      }
    }
    const i = st.top.get(name);
    if (i !== undefined && st.record.definitions[i]!.exported) return { kind: "def", id: st.moduleId + 1 + i, via: "import" };
    for (const star of st.starImports) {
      const r = resolveImport(st, star);
      if (r.file) {
        const v = exportOf(r.file, name, depth + 1);
        if (v) return v;
      }
    }
    // CommonJS and untyped JS: any top-level definition of that name.
    if (i !== undefined && st.record.language === "javascript") return { kind: "def", id: st.moduleId + 1 + i, via: "import" };
    return undefined;
  };
  const resolvePythonSubmodule = (file: string, name: string): string | undefined => {
    const mod = pythonModuleOf(pythonState, file);
    if (mod === undefined || !file.endsWith("__init__.py")) return undefined;
    const r = languageById("python")!.resolver!.resolve(pythonState, file, mod, name);
    return r.submodule;
  };
  /** The value an import binding gives its local name (a definition reached this way is `import`-resolved). */
  const importValue = (st: FileState, imp: ImportRecord, depth: number): Value | undefined => {
    const v = importValueRaw(st, imp, depth);
    return v?.kind === "def" && v.via !== "import" ? { ...v, via: "import" } : v;
  };
  const importValueRaw = (st: FileState, imp: ImportRecord, depth: number): Value | undefined => {
    const r = resolveImport(st, imp);
    switch (imp.kind) {
      case "module": {
        if (!r.file) return r.external ? { kind: "external", name: imp.module } : undefined;
        if (imp.alias) return { kind: "module", file: r.file };
        // `import a.b` binds `a`: the top package.
        const top = imp.module.split(".")[0]!;
        const topFile = st.resolver!.resolve(st.resolverState, st.record.path, top, undefined).file;
        return topFile ? { kind: "module", file: topFile } : { kind: "external", name: top };
      }
      case "named":
        if (r.submodule) return { kind: "module", file: r.submodule };
        if (r.file) return exportOf(r.file, imp.name!, depth + 1) ?? undefined;
        return r.external ? { kind: "external", name: `${imp.module}.${imp.name}` } : undefined;
      case "default":
        if (r.file) return exportOf(r.file, "default", depth + 1);
        return r.external ? { kind: "external", name: `${imp.module}.default` } : undefined;
      case "namespace":
      case "reexport-namespace":
        if (r.file) return { kind: "module", file: r.file };
        return r.external ? { kind: "external", name: imp.module } : undefined;
      default:
        return undefined;
    }
  };
  /** A module-level name of a file: its definitions, then its imports. */
  const localValue = (st: FileState, name: string, depth: number): Value | undefined => {
    const i = st.top.get(name);
    if (i !== undefined) return { kind: "def", id: st.moduleId + 1 + i, via: "scope" };
    const imps = st.importBindings.get(name)?.filter((imp) => imp.scope < 0);
    if (imps?.length) return importValue(st, imps.at(-1)!, depth + 1);
    return undefined;
  };

  // 4. Names in scope at a point: enclosing function scopes, then the module.
  const resolveName = (st: FileState, scope: number, name: string, line: number, depth = 0): Value | undefined => {
    const defs = st.record.definitions;
    const py = st.record.language === "python";
    let first = true;
    for (let s = scope; s >= 0; s = defs[s]!.parent) {
      const d = defs[s]!;
      const isClass = d.kind === "class" || d.kind === "interface";
      // Class bodies are not visible from their methods; only code directly in the body sees them.
      if (!isClass || first) {
        for (const c of children.get(st.moduleId + 1 + s) ?? []) if (symbols[c]!.name === name) return { kind: "def", id: c, via: "scope" };
        const imp = st.importBindings.get(name)?.filter((i) => i.scope === s);
        if (imp?.length) return importValue(st, imp.at(-1)!, depth);
        const local = locals(st).get(s)?.get(name);
        if (local && local.kind !== "global") return bindingValue(st, s, local, depth);
        if (local?.kind === "global") break;
      }
      first = false;
    }
    const v = localValue(st, name, depth);
    if (v) return v;
    const moduleLocal = locals(st).get(-1)?.get(name);
    if (moduleLocal) return bindingValue(st, -1, moduleLocal, depth);
    if (py) {
      for (const star of st.starImports) {
        const r = resolveImport(st, star);
        if (r.file) {
          const sv = exportOf(r.file, name, depth + 1);
          if (sv) return sv;
        }
      }
    }
    void line;
    return undefined;
  };

  /** What a local binding holds: an instance of its annotated or constructed type, else unknown. */
  const bindingValue = (st: FileState, scope: number, b: BindingRecord, depth: number): Value => {
    if (depth > MAX_DEPTH) return { kind: "local" };
    if (b.type) {
      const cls = typeToClass(st, scope, b.type, depth + 1);
      if (cls !== undefined) return { kind: "instance", id: cls };
    }
    if (b.value) {
      const v = callResult(st, scope, b.value, depth + 1);
      if (v) return v;
    }
    if (b.alias && b.alias !== b.name) {
      const v = resolveExpr(st, scope, b.alias, depth + 1);
      if (v && v.kind !== "external") return v;
    }
    if (b.argOf) {
      const v = contextualType(st, scope, b.argOf, depth + 1);
      if (v) return v;
    }
    if (b.iter) {
      const v = elementOf(st, scope, b.iter, depth + 1);
      if (v) return v;
    }
    return { kind: "local" };
  };

  /**
   * The type of an untyped callback parameter from the callee's declaration: for
   * `new Observable((subscriber) => …)`, the constructor's parameter `subscribe?: (this: …,
   * subscriber: Subscriber<T>) => …` gives `subscriber` the class Subscriber.
   */
  const contextualType = (st: FileState, scope: number, site: NonNullable<BindingRecord["argOf"]>, depth: number): Value | undefined => {
    const callee = resolveExpr(st, scope, site.callee, depth);
    if (callee?.kind !== "def") return undefined;
    let fnId = callee.id;
    if (isClassLike(fnId)) {
      const ctor = findMember(fnId, "constructor");
      if (ctor === undefined) return undefined;
      fnId = ctor;
    }
    const params = defOf(fnId)?.params?.filter((p) => p.name !== "this");
    const declared = params?.[site.arg]?.type;
    if (!declared) return undefined;
    const paramType = functionTypeParams(declared)?.[site.param];
    if (!paramType) return undefined;
    const owner = stateOf(fnId);
    const cls = typeToClass(owner, symbols[fnId]!.index, paramType, depth + 1);
    return cls !== undefined ? { kind: "instance", id: cls } : undefined;
  };

  /**
   * The declared type text of an expression, where it is written down: a local or field
   * annotation (`items: List[Item]`, `self.items: List[Item]`) or a function's return annotation.
   */
  const declaredType = (st: FileState, scope: number, expr: string, depth: number): { st: FileState; scope: number; type: string } | undefined => {
    if (depth > MAX_DEPTH) return undefined;
    const [head, isCall] = splitCall(expr);
    if (isCall) {
      const v = resolveExpr(st, scope, head, depth + 1);
      if (v?.kind !== "def") return undefined;
      const d = defOf(v.id);
      const owner = stateOf(v.id);
      return d?.returns ? { st: owner, scope: symbols[v.id]!.parent - owner.moduleId - 1, type: d.returns } : undefined;
    }
    const m = /^(self|this)\.([A-Za-z_$][\w$]*)$/.exec(head);
    if (m) {
      const cls = enclosingClass(st, scope);
      if (cls === undefined) return undefined;
      const b = fields(st).get(symbols[cls]!.index)?.get(m[2]!);
      return b?.type ? { st, scope: b.scope, type: b.type } : undefined;
    }
    if (!/^[A-Za-z_$][\w$]*$/.test(head)) return undefined;
    const defs = st.record.definitions;
    for (let s = scope; ; s = defs[s]!.parent) {
      const b = locals(st).get(s)?.get(head);
      if (b) return b.type ? { st, scope: s, type: b.type } : undefined;
      if (s < 0) return undefined;
    }
  };

  /** What a loop over `iter` yields: the element class of `List[X]`, `Iterable[X]`, `X[]`, `Array<X>`… */
  const elementOf = (st: FileState, scope: number, iter: string, depth: number): Value | undefined => {
    const declared = declaredType(st, scope, iter, depth);
    if (!declared) return undefined;
    const t = declared.type.trim().replace(/^["']|["']$/g, "");
    const generic = /^(?:typing\.)?(?:List|Iterable|Iterator|Sequence|MutableSequence|Collection|Set|FrozenSet|AbstractSet|Tuple|Deque|Generator|list|set|frozenset|tuple|Array|ReadonlyArray|Set|Iterable|IterableIterator)\s*[[<](.*)[\]>]$/s.exec(t);
    const element = generic ? splitTop(generic[1]!, ",")[0] : /^(.*)\[\]$/.exec(t)?.[1];
    if (!element) return undefined;
    const cls = typeToClass(declared.st, declared.scope, element, depth + 1);
    return cls !== undefined ? { kind: "instance", id: cls } : undefined;
  };

  /** The class a type annotation names, resolved in scope. */
  const typeToClass = (st: FileState, scope: number, type: string, depth: number): number | undefined => {
    for (const t of typeCandidates(type)) {
      const v = resolveExpr(st, scope, t, depth);
      if (v?.kind === "def" && isClassLike(v.id)) return v.id;
    }
    return undefined;
  };
  const isClassLike = (id: number) => {
    const k = symbols[id]!.kind;
    return k === "class" || k === "interface" || k === "struct";
  };

  /** The value of calling `callee` (an expression text): an instance for a class, a function's return type. */
  const callResult = (st: FileState, scope: number, callee: string, depth: number): Value | undefined => {
    const v = resolveExpr(st, scope, callee, depth);
    if (!v) return undefined;
    if (v.kind === "def") {
      if (isClassLike(v.id)) return { kind: "instance", id: v.id };
      const d = defOf(v.id);
      if (d?.returns) {
        const cls = typeToClass(stateOf(v.id), symbols[v.id]!.parent - stateOf(v.id).moduleId - 1, d.returns, depth + 1);
        if (cls !== undefined) return { kind: "instance", id: cls };
      }
    }
    return undefined;
  };

  /** The enclosing class of a scope (for self/this/cls/super). */
  const enclosingClass = (st: FileState, scope: number): number | undefined => {
    const defs = st.record.definitions;
    for (let s = scope; s >= 0; s = defs[s]!.parent) if (defs[s]!.kind === "class") return st.moduleId + 1 + s;
    return undefined;
  };

  /** Evaluates a dotted expression (`self.x.y`, `pkg.mod`, `Foo`, `get()`) to a value. */
  const resolveExpr = (st: FileState, scope: number, text: string, depth = 0): Value | undefined => {
    if (depth > MAX_DEPTH) return undefined;
    const [head, isCall] = splitCall(text);
    if (isCall) {
      if (/^super$/.test(head)) {
        const cls = enclosingClass(st, scope);
        return cls !== undefined ? { kind: "super", id: cls } : undefined;
      }
      return callResult(st, scope, head, depth + 1);
    }
    const dot = head.lastIndexOf(".");
    if (dot < 0) {
      if (!/^[A-Za-z_$][\w$]*$/.test(head)) return undefined;
      if (head === "self" || head === "this") {
        const cls = enclosingClass(st, scope);
        return cls !== undefined ? { kind: "instance", id: cls } : undefined;
      }
      if (head === "cls") {
        const cls = enclosingClass(st, scope);
        if (cls !== undefined) return { kind: "def", id: cls, via: "scope" };
      }
      if (head === "super" && st.record.language !== "python") {
        const cls = enclosingClass(st, scope);
        return cls !== undefined ? { kind: "super", id: cls } : undefined;
      }
      return resolveName(st, scope, head, 0, depth + 1);
    }
    const base = resolveExpr(st, scope, head.slice(0, dot), depth + 1);
    const attr = head.slice(dot + 1);
    if (!base || !/^[A-Za-z_$#][\w$]*$/.test(attr)) return undefined;
    return member(base, attr, depth + 1);
  };

  /** `value.attr`: a module's export, a class's member, an instance's field or method. */
  const member = (base: Value, attr: string, depth: number): Value | undefined => {
    switch (base.kind) {
      case "module": {
        const v = exportOf(base.file, attr, depth);
        return v?.kind === "def" ? { ...v, via: "import" } : v;
      }
      case "external":
        return { kind: "external", name: `${base.name}.${attr}` };
      case "def":
      case "instance":
      case "super": {
        if (!isClassLike(base.id) && base.kind === "def") return undefined;
        const found = base.kind === "super" ? findInBases(base.id, attr) : findMember(base.id, attr);
        if (found !== undefined) return { kind: "def", id: found, via: "scope" };
        if (base.kind === "instance") {
          const fieldType = findField(base.id, attr, depth);
          if (fieldType) return fieldType;
        }
        return undefined;
      }
      default:
        return undefined;
    }
  };

  /** The type of field `name` on class `id` (or its bases). */
  const findField = (id: number, name: string, depth: number, seen = new Set<number>()): Value | undefined => {
    if (seen.has(id) || depth > MAX_DEPTH) return undefined;
    seen.add(id);
    const st = stateOf(id);
    const idx = symbols[id]!.index;
    const b = fields(st).get(idx)?.get(name);
    if (b) {
      const v = bindingValue(st, b.scope, b, depth + 1);
      if (v.kind !== "local") return v;
    }
    for (const base of basesOf(id)) {
      const v = findField(base.id, name, depth + 1, seen);
      if (v) return v;
    }
    return undefined;
  };

  // 5. Inheritance: bases resolved through the class's own scope.
  const basesMemo = new Map<number, { id: number; kind: "extends" | "implements" }[]>();
  const basesOf = (id: number): { id: number; kind: "extends" | "implements" }[] => {
    let out = basesMemo.get(id);
    if (out) return out;
    out = [];
    basesMemo.set(id, out); // cycle guard: a class inheriting itself sees no bases
    const d = defOf(id);
    if (!d) return out;
    const st = stateOf(id);
    const scope = d.parent;
    for (const [list, kind] of [[d.bases ?? [], "extends"], [d.implements ?? [], "implements"]] as const) {
      for (const text of list) {
        const t = typeCandidates(text)[0];
        if (!t) continue;
        const v = resolveExpr(st, scope, t, 1);
        if (v?.kind === "def" && isClassLike(v.id) && v.id !== id) out.push({ id: v.id, kind });
      }
    }
    return out;
  };
  const memberMemo = new Map<string, number | null>();
  /** A member (method, nested class) of a class, searching bases depth-first (Python's MRO order for simple trees). */
  const findMember = (id: number, name: string, depth = 0): number | undefined => {
    const key = `${id}\0${name}`;
    if (memberMemo.has(key)) return memberMemo.get(key) ?? undefined;
    memberMemo.set(key, null);
    let found: number | undefined;
    for (const c of children.get(id) ?? []) if (symbols[c]!.name === name && symbols[c]!.kind !== "module") found = c;
    if (found === undefined && depth < MAX_DEPTH) {
      for (const b of basesOf(id)) {
        found = findMember(b.id, name, depth + 1);
        if (found !== undefined) break;
      }
    }
    memberMemo.set(key, found ?? null);
    return found;
  };
  const findInBases = (id: number, name: string): number | undefined => {
    for (const b of basesOf(id)) {
      const f = findMember(b.id, name);
      if (f !== undefined) return f;
    }
    return undefined;
  };

  const inherits: InheritEdge[] = [];
  for (const s of symbols) {
    if (s.kind !== "class" && s.kind !== "interface") continue;
    for (const b of basesOf(s.id)) inherits.push({ child: s.id, base: b.id, kind: b.kind });
  }

  // 6. Calls.
  // Each file's calls are resolved on their own (into `sink`), so an edit can redo one file.
  let sink: FileCalls = { calls: [], external: [], ambiguous: [], unresolved: 0 };
  const seenCall = new Set<string>();
  const addCall = (caller: number, callee: number, file: string, line: number, via: CallEdge["via"], resolution: Resolution) => {
    const k = `${caller}|${callee}|${line}`;
    if (seenCall.has(k)) return;
    seenCall.add(k);
    sink.calls.push({ caller, callee, file, line, via, resolution, confidence: CONFIDENCE[resolution] });
  };
  // Per name, the callables that share it: computed once, and the capped list is one array shared
  // by every ambiguous call of that name (a big tree has ~100k such calls, mostly to a few names).
  const callables = new Map<string, { ids: number[]; shown: readonly number[] }>();
  const callableIds = (name: string) => {
    let entry = callables.get(name);
    if (!entry) {
      const ids = (byName.get(name) ?? []).filter((id) => CALLABLE.has(symbols[id]!.kind));
      entry = { ids, shown: ids.length > AMBIGUOUS_CANDIDATES ? ids.slice(0, AMBIGUOUS_CANDIDATES) : ids };
      callables.set(name, entry);
    }
    return entry;
  };

  const callsOf = (st: FileState): FileCalls => {
    sink = { calls: [], external: [], ambiguous: [], unresolved: 0 };
    seenCall.clear(); // keys hold the caller, which belongs to this file
    const record = st.record;
    const path = record.path;
    for (const call of record.calls) {
      const caller = call.caller < 0 ? st.moduleId : st.moduleId + 1 + call.caller;
      const link = (v: Value | undefined, resolution: Resolution): boolean => {
        if (!v) return false;
        if (v.kind === "external") {
          sink.external.push({ caller, target: v.name, file: path, line: call.line });
          return true;
        }
        if (v.kind === "local") return true; // a variable or parameter: not a call to a definition
        if (v.kind !== "def") return false;
        const kind = symbols[v.id]!.kind;
        if (isClassLike(v.id)) {
          if (kind === "interface") return true;
          addCall(caller, v.id, path, call.line, "constructor", resolution);
          return true;
        }
        if (kind === "getter" || kind === "setter") return true; // `x.prop()` calls what the getter returns
        if (!CALLABLE.has(kind)) return true;
        addCall(caller, v.id, path, call.line, "call", resolution);
        return true;
      };
      if (call.name === "super" && call.receiver === undefined && record.language !== "python") {
        const cls = enclosingClass(st, call.caller);
        const base = cls !== undefined ? basesOf(cls).find((b) => b.kind === "extends") : undefined;
        if (base) addCall(caller, base.id, path, call.line, "super", "self");
        continue;
      }
      if (call.receiver === undefined) {
        const v = resolveName(st, call.caller, call.name, call.line);
        if (link(v, v?.kind === "def" ? v.via : "scope")) continue;
      } else {
        const recv = call.receiver;
        const base = resolveExpr(st, call.caller, recv);
        if (base) {
          const v = member(base, call.name, 0);
          const selfish = /^(self|this|cls|super(\(.*\))?)$/.test(recv);
          const resolution: Resolution = base.kind === "module" || base.kind === "external" ? "import" : selfish ? "self" : "type";
          if (link(v, resolution)) continue;
          // A receiver of a known project class whose member we cannot find: inherited from outside.
          if (base.kind === "instance" || base.kind === "super" || base.kind === "module") {
            sink.unresolved++;
            continue;
          }
        }
      }
      sink.unresolved++;
      recordUnresolved(st, call, caller, path);
    }
    return sink;
  };
  let calls: CallEdge[] = [];
  let external: ExternalCall[] = [];
  let ambiguous: AmbiguousCall[] = [];
  let unresolvedCalls = 0;
  /** How many edges each file contributed (files keep their order in the arrays, for updates). */
  const callCounts = new Map<string, { calls: number; external: number; ambiguous: number; unresolved: number }>();
  for (const st of files.values()) {
    const out = callsOf(st);
    for (const e of out.calls) calls.push(e);
    for (const e of out.external) external.push(e);
    for (const e of out.ambiguous) ambiguous.push(e);
    unresolvedCalls += out.unresolved;
    callCounts.set(st.record.path, { calls: out.calls.length, external: out.external.length, ambiguous: out.ambiguous.length, unresolved: out.unresolved });
  }

  /**
   * The last resort for a call through a receiver we could not type: link it to the one callable
   * of that name in the project, marked `unique-name`. Only when the receiver is untyped local
   * data (not a module, package, class or typed instance whose member we failed to find), and never
   * for a method name of the language's built-in types.
   */
  function recordUnresolved(st: FileState, call: CallRecord, caller: number, path: string) {
    const { ids: candidates, shown } = callableIds(call.name);
    if (candidates.length === 1 && uniqueFallback && call.receiver !== undefined) {
      const builtins = languageById(st.record.language)?.builtinMethods;
      // Walk the receiver chain as far as it resolves; guess only if it ends in untyped data.
      const segments = call.receiver.includes("(") ? [/^[A-Za-z_$][\w$]*/.exec(call.receiver)?.[0] ?? ""] : call.receiver.split(".");
      let known = segments[0] ? resolveExpr(st, call.caller, segments[0]) : undefined;
      for (const seg of segments.slice(1)) {
        const next = known ? member(known, seg, 0) : undefined;
        if (!next) break;
        known = next;
      }
      const untyped = known === undefined || known.kind === "local" || known.kind === "instance";
      if (untyped && !builtins?.has(call.name)) {
        const id = candidates[0]!;
        addCall(caller, id, path, call.line, isClassLike(id) ? "constructor" : "call", "unique-name");
      }
    } else if (candidates.length > 1) {
      sink.ambiguous.push({ caller, name: call.name, candidates: shown, file: path, line: call.line });
    }
  }

  // 7. Types named in annotations, resolved in the scope that names them.
  const typeUsesOf = (st: FileState, typeUses: Map<number, number[]>) => {
    for (const t of st.record.typeRefs) {
      const v = resolveName(st, t.scope, t.name, t.line);
      if (v?.kind !== "def" || !isClassLike(v.id)) continue;
      const from = t.scope < 0 ? st.moduleId : st.moduleId + 1 + t.scope;
      if (from === v.id) continue;
      const list = typeUses.get(from) ?? typeUses.set(from, []).get(from)!;
      if (!list.includes(v.id)) list.push(v.id);
    }
  }

  let typeUses = new Map<number, number[]>();
  for (const st of files.values()) typeUsesOf(st, typeUses);
  let recordsByPath = new Map(records.map((r) => [r.path, r]));

  // 8. Adjacency, and the graph object (also made again by `update`).
  const subclasses = new Map<number, number[]>();
  for (const e of inherits) (subclasses.get(e.base) ?? subclasses.set(e.base, []).get(e.base)!).push(e.child);
  const lookup: CodeGraph["lookup"] = (file, scope, expr) => {
    const st = files.get(file);
    if (!st) return undefined;
    const v = resolveExpr(st, scope, expr);
    return v?.kind === "def" ? v.id : undefined;
  };
  const importTarget: CodeGraph["importTarget"] = (file, localName) => {
    const st = files.get(file);
    const imp = st?.importBindings.get(localName)?.filter((i) => i.scope < 0).at(-1);
    if (!st || !imp) return undefined;
    const r = resolveImport(st, imp);
    if (r.submodule) return { file: r.submodule };
    if (!r.file) return undefined;
    return imp.kind === "named" && imp.name ? { file: r.file, name: imp.name } : { file: r.file };
  };
  const finish = (): CodeGraph => {
    // The graph's lookup() keeps this whole scope alive (closures share one context), so drop what
    // only the build needed: dedup keys and memos (the memos refill on demand at query time).
    for (const m of [seenCall, callables, exportMemo, memberMemo, basesMemo, resolvedImports]) m.clear();
    for (const st of files.values()) st.scopes = undefined;
    const callsFrom = new Map<number, number[]>();
    const callsTo = new Map<number, number[]>();
    calls.forEach((e, i) => {
      (callsFrom.get(e.caller) ?? callsFrom.set(e.caller, []).get(e.caller)!).push(i);
      (callsTo.get(e.callee) ?? callsTo.set(e.callee, []).get(e.callee)!).push(i);
    });
    const importsFrom = new Map<string, string[]>();
    const importedBy = new Map<string, string[]>();
    for (const e of imports) {
      (importsFrom.get(e.from) ?? importsFrom.set(e.from, []).get(e.from)!).push(e.to);
      (importedBy.get(e.to) ?? importedBy.set(e.to, []).get(e.to)!).push(e.from);
    }
    return {
      symbols, moduleSymbol, calls, external, ambiguous, unresolvedCalls, imports, inherits,
      callsFrom, callsTo, importsFrom, importedBy, subclasses, typeUses, children, byName, byQualified,
      records: recordsByPath, lookup, importTarget, update,
    };
  };

  /**
   * The graph with some files' records replaced, when none of them changed what other files can see
   * (see `outwardShape`): only those files' calls, import edges and type uses are resolved again,
   * and symbols keep their ids. Undefined when the edit reaches further: build a new graph.
   */
  function update(changed: FileRecord[]): CodeGraph | undefined {
    // Queries since the last build refilled the memos from the old records.
    for (const m of [callables, exportMemo, memberMemo, basesMemo, resolvedImports]) m.clear();
    const next: [FileState, FileRecord][] = [];
    for (const record of changed) {
      const st = files.get(record.path);
      if (!st || st.record.language !== record.language || outwardShape(st.record) !== outwardShape(record)) return undefined;
      next.push([st, record]);
    }
    const redo = new Set<string>();
    recordsByPath = new Map(recordsByPath);
    typeUses = new Map(typeUses);
    for (const [old, record] of next) {
      const { syms, st } = makeFile(record, old.moduleId);
      syms.forEach((sym) => (symbols[sym.id] = sym));
      files.set(record.path, st);
      recordsByPath.set(record.path, record);
      for (let id = old.moduleId; id < old.moduleId + syms.length; id++) typeUses.delete(id);
      redo.add(record.path);
    }
    // Rebuild the edge lists in file order, taking each unchanged file's run of edges as it was.
    const at = { calls: 0, external: 0, ambiguous: 0, imports: 0 };
    const nextCalls: CallEdge[] = [], nextExternal: ExternalCall[] = [], nextAmbiguous: AmbiguousCall[] = [], nextImports: ImportEdge[] = [];
    let importAt = 0;
    for (const st of files.values()) {
      const path = st.record.path;
      const counts = callCounts.get(path)!;
      let importCount = 0;
      while (importAt + importCount < imports.length && imports[importAt + importCount]!.from === path) importCount++;
      if (redo.has(path)) {
        const out = callsOf(st);
        nextCalls.push(...out.calls);
        nextExternal.push(...out.external);
        nextAmbiguous.push(...out.ambiguous);
        unresolvedCalls += out.unresolved - counts.unresolved;
        callCounts.set(path, { calls: out.calls.length, external: out.external.length, ambiguous: out.ambiguous.length, unresolved: out.unresolved });
        nextImports.push(...importsOf(st));
        typeUsesOf(st, typeUses);
      } else {
        for (let i = 0; i < counts.calls; i++) nextCalls.push(calls[at.calls + i]!);
        for (let i = 0; i < counts.external; i++) nextExternal.push(external[at.external + i]!);
        for (let i = 0; i < counts.ambiguous; i++) nextAmbiguous.push(ambiguous[at.ambiguous + i]!);
        for (let i = 0; i < importCount; i++) nextImports.push(imports[importAt + i]!);
      }
      at.calls += counts.calls;
      at.external += counts.external;
      at.ambiguous += counts.ambiguous;
      importAt += importCount;
    }
    calls = nextCalls;
    external = nextExternal;
    ambiguous = nextAmbiguous;
    imports = nextImports;
    return finish();
  }

  return finish();
}
