/**
 * The evaluator: what a name or an expression (`name`, `mod.fn`, `self.x.m`, `get()`) denotes at a
 * point of a file — a definition, an instance of a class, a module, something external, or an
 * untyped local — through local scope, imports and module exports, `self`/`this`/`cls`/`super`,
 * inheritance, annotations, assignments, return types, loop element types and callback typing.
 * Mutually recursive by nature, so it lives in one module; each language's differences come from
 * its LanguageSemantics and module resolver, never from its name.
 */
import { boundFieldNames, type BindingRecord, type Definition, type ImportRecord } from "../extract/record.ts";
import type { ResolvedImport } from "../../languages/types.ts";
import {
  attachedOwner,
  defOf,
  fieldsOf,
  isClassLike,
  isGlobal,
  localAt,
  localsOf,
  membersOf,
  stateOf,
  symbolOf,
  TYPE_KINDS,
  type FileState,
  type GraphContext,
} from "./context.ts";
import { enclosingModules, namedFile, resolveImport } from "./imports.ts";
import { injectedProvider } from "./injected.ts";
import { linkedMember, namespaceMember, outOfLineOwner, packageMember, requiredBlockMethod } from "./packages.ts";
import { elementType, functionTypeParams, splitCall, typeCandidates } from "./type-text.ts";
import { languageById } from "../../languages/index.ts";

/** What a name or expression stands for during resolution. */
export type Value =
  | { kind: "def"; id: number; via: "scope" | "import" }
  /** An instance of a class (from `self`, a typed parameter, `x = Foo()`, …). */
  | { kind: "instance"; id: number }
  | { kind: "module"; file: string }
  | { kind: "external"; name: string }
  /**
   * A local variable or parameter whose type we do not know; `outside` when it holds what a method no callable of the
   * project declares returns (`p = base.with_suffix(".py")`): no guess by unique name goes through it.
   */
  | { kind: "local"; outside?: true }
  /** `super()` / `super`: members are looked up in the bases of `id`. */
  | { kind: "super"; id: number };

/** Resolution gives up past this many nested steps (cycles and pathological chains). */
export const MAX_DEPTH = 12;

const IDENT = /^[A-Za-z_$][\w$]*$/;

// ---- Module exports -------------------------------------------------------------------------

/**
 * The `exportOf` calls in progress, outermost first. A call that meets one of them again (a cycle:
 * `a.h` includes `b.h`, which includes `a.h`) gets "not found" for it, so a call that finds nothing
 * after meeting one did not look everywhere: its answer waits for the call it came back to, whose
 * answer it then takes (the files of a cycle see the same names). Resolution is synchronous, so one
 * stack serves every graph.
 */
const walking: { file: string; name: string; low: number; waiting: [string, string][] | undefined }[] = [];
/** The answers that wait, by `file\0name`: the index in `walking` of the call they wait for. */
const waitingOn = new Map<string, number>();

/** The call in progress that (file, name)'s "not found for now" depends on: its own, or the one it waits for. */
function walkingAt(file: string, name: string): number {
  const owner = waitingOn.size ? waitingOn.get(`${file}\0${name}`) : undefined;
  if (owner !== undefined) return owner;
  for (let i = walking.length - 1; i >= 0; i--) if (walking[i]!.file === file && walking[i]!.name === name) return i;
  return -1;
}

/** What `from <file> import <name>` / `import { name } from "<file>"` reaches, memoized. */
export function exportOf(ctx: GraphContext, file: string, name: string, depth = 0): Value | undefined {
  const memo = ctx.memos.exports;
  if (memo.has(file, name)) {
    const known = (memo.get(file, name) as Value | null) ?? undefined;
    if (known === undefined && walking.length) {
      const at = walkingAt(file, name);
      const caller = walking[walking.length - 1]!;
      if (at >= 0 && at < caller.low) caller.low = at;
    }
    return known;
  }
  memo.set(file, name, null); // cycle guard
  const frame = { file, name, low: Number.POSITIVE_INFINITY, waiting: undefined as [string, string][] | undefined };
  const here = walking.push(frame) - 1;
  let v: Value | undefined;
  try {
    v = depth > MAX_DEPTH ? undefined : computeExport(ctx, file, name, depth);
  } finally {
    walking.pop();
    if (!walking.length) waitingOn.clear(); // (a walk cut short by an error leaves nothing waiting)
  }
  memo.set(file, name, v ?? null);
  if (v || frame.low >= here) {
    // Settled: the answers that waited for this one take it (found, or not found anywhere in the cycle).
    for (const [f, n] of frame.waiting ?? []) {
      waitingOn.delete(`${f}\0${n}`);
      if (v) memo.set(f, n, v);
    }
  } else {
    // Not found only because a call in progress answered "not found" for now: wait for its answer.
    const moved: [string, string][] = [[file, name], ...(frame.waiting ?? [])];
    const owner = walking[frame.low]!;
    (owner.waiting ??= []).push(...moved);
    for (const [f, n] of moved) waitingOn.set(`${f}\0${n}`, frame.low);
    const caller = walking[walking.length - 1];
    if (caller && frame.low < caller.low) caller.low = frame.low;
  }
  return v;
}

function computeExport(ctx: GraphContext, file: string, name: string, depth: number): Value | undefined {
  const st = ctx.files.get(file);
  if (!st) return undefined;
  const sem = st.semantics;
  const i = st.top.get(name);
  if (i === undefined) {
    // Another file of the same package declares it.
    const id = packageMember(ctx, st, name);
    if (id !== undefined && (sem.exports !== "explicit" || defOf(ctx, id)?.exported))
      return { kind: "def", id, via: "import" };
  }
  if (sem.exports === "top-level") {
    const lastImp = (st.importBindings.get(name) ?? []).filter((imp) => imp.scope < 0).at(-1);
    const defValue: Value | undefined =
      i !== undefined ? { kind: "def", id: symbolOf(st, i), via: "import" } : undefined;
    // With later-binding-wins, the later of a top-level def and a module-level import of the same name wins.
    if (defValue && (!lastImp || !sem.laterBindingWins || st.record.definitions[i!]!.start > lastImp.line))
      return defValue;
    // An import that leads back here (demo code re-importing its own module) or nowhere keeps the def.
    if (lastImp) return importValue(ctx, st, lastImp, depth) ?? defValue;
    const starred = fromStarImports(ctx, st, name, depth);
    if (starred) return starred;
    const sub = st.resolver?.submodule?.(st.resolverState, file, name);
    return sub ? { kind: "module", file: sub } : undefined;
  }
  for (const imp of st.record.imports) {
    if (imp.kind === "export" && (imp.alias ?? imp.name) === name && imp.name)
      return localValue(ctx, st, imp.name, depth);
    if (imp.kind === "export-default" && name === "default" && imp.name) return localValue(ctx, st, imp.name, depth);
    if (imp.kind === "reexport" && (imp.alias ?? imp.name) === name && imp.name) {
      const r = resolveImport(ctx, st, imp);
      if (r.file) return exportOf(ctx, r.file, imp.name, depth + 1);
      return { kind: "external", name: `${imp.module}.${imp.name}` };
    }
    if (imp.kind === "self-namespace" && imp.alias === name) return { kind: "module", file };
    if (imp.kind === "reexport-namespace" && imp.alias === name) {
      const r = resolveImport(ctx, st, imp);
      return r.file ? { kind: "module", file: r.file } : { kind: "external", name: imp.module };
    }
  }
  if (i !== undefined && st.record.definitions[i]!.exported) return { kind: "def", id: symbolOf(st, i), via: "import" };
  const starred = fromStarImports(ctx, st, name, depth);
  if (starred) return starred;
  // Modules read as any top-level definition (CommonJS, untyped scripts).
  if (i !== undefined && sem.exports === "explicit-or-top-level")
    return { kind: "def", id: symbolOf(st, i), via: "import" };
  // A module-level variable (`export const initTRPC = new TRPCBuilder()`): what it holds, as in its own file.
  const variable = i === undefined ? localsOf(st).get(-1)?.get(name) : undefined;
  if (variable?.kind === "assign") {
    const v = bindingValue(ctx, st, -1, variable, depth + 1);
    // (or outside data: `export const publicProcedure = t.procedure`, an interface's property)
    if (v.kind === "instance" || v.kind === "external" || (v.kind === "local" && v.outside)) return v;
  }
  return undefined;
}

/**
 * What a call of `name` through a module reaches where the module binds the name twice, as a submodule (`mod parse;`)
 * and as a value it imports (`pub use crate::flags::parse::{parse, …}`): a call looks among values, where modules are
 * not, so `flags::parse()` is the function (ripgrep). Undefined when the name is no value there.
 */
export function calledExport(ctx: GraphContext, file: string, name: string): Value | undefined {
  const st = ctx.files.get(file);
  const imp = st?.importBindings
    .get(name)
    ?.filter((i) => i.scope < 0 && i.kind !== "module")
    .at(-1);
  const v = st && imp ? importValue(ctx, st, imp, 1) : undefined;
  return v?.kind === "def" ? { ...v, via: "import" } : undefined;
}

/** `name` through a file's star imports, first hit wins. */
function fromStarImports(ctx: GraphContext, st: FileState, name: string, depth: number): Value | undefined {
  for (const star of st.starImports) {
    if (st.semantics.packages) {
      // A star import of a package the project declares (C# `using A.B;`), or of a type in one (`using static A.B.C;`).
      const lang = st.record.language;
      const id = ctx.packages.get(`${lang}:${star.module}`)?.get(name);
      if (id !== undefined) return { kind: "def", id, via: "import" };
      const dot = star.module.lastIndexOf(".");
      const cls =
        dot > 0 ? ctx.packages.get(`${lang}:${star.module.slice(0, dot)}`)?.get(star.module.slice(dot + 1)) : undefined;
      const m = cls !== undefined && isClassLike(ctx, cls) ? findMember(ctx, cls, name) : undefined;
      if (m !== undefined) return { kind: "def", id: m, via: "import" };
    }
    const r = resolveImport(ctx, st, star);
    // (a name no star-import target binds is found through none of them: no walk, see star-exports.ts)
    if (r.file && (r.within || ctx.memos.starExports.mayExport(ctx, r.file, name))) {
      const v = r.within ? withinValue(ctx, r, name, depth + 1) : exportOf(ctx, r.file, name, depth + 1);
      if (v) return v;
    }
  }
  return undefined;
}

/**
 * `name` through the star imports of the file being linked, memoized for that file while its calls
 * are linked (one file at a time, as the calls are): a kernel `.c` file calls the same names from
 * many lines, and each call asked each of its dozens of includes again (the whole kernel's graph
 * spent most of its time there). The answer depends only on the file, the name and the memos.
 */
let starredMemo:
  | { memos: GraphContext["memos"]; st: FileState; names: Map<string, Value | null>; exports: number }
  | undefined;
function starredName(ctx: GraphContext, st: FileState, name: string, depth: number): Value | undefined {
  if (depth !== 0) return fromStarImports(ctx, st, name, depth);
  // (forgotten with the memos: another pass, or the exports memo cleared or started over)
  const exports = ctx.memos.exports.size;
  if (starredMemo?.st !== st || starredMemo.memos !== ctx.memos || exports < starredMemo.exports)
    starredMemo = { memos: ctx.memos, st, names: new Map(), exports };
  starredMemo.exports = exports;
  const known = starredMemo.names.get(name);
  if (known !== undefined) return known ?? undefined;
  const v = fromStarImports(ctx, st, name, depth);
  starredMemo.names.set(name, v ?? null);
  return v;
}

/**
 * `name` as a member of the nested definitions an import reaches into (`import a.b.C.Inner`, `import static a.b.C.m`).
 */
function withinValue(ctx: GraphContext, r: ResolvedImport, name: string, depth: number): Value | undefined {
  let v = exportOf(ctx, r.file!, r.within![0]!, depth);
  for (const seg of r.within!.slice(1)) v = v ? member(ctx, v, seg, depth) : undefined;
  const found = v ? member(ctx, v, name, depth) : undefined;
  return found?.kind === "def" ? { ...found, via: "import" } : found;
}

/** The value an import binding gives its local name (a definition reached this way is `import`-resolved). */
export function importValue(ctx: GraphContext, st: FileState, imp: ImportRecord, depth: number): Value | undefined {
  const v = importValueRaw(ctx, st, imp, depth);
  return v?.kind === "def" && v.via !== "import" ? { ...v, via: "import" } : v;
}

function importValueRaw(ctx: GraphContext, st: FileState, imp: ImportRecord, depth: number): Value | undefined {
  const sep = st.semantics.namespaceSeparator;
  if (sep && (imp.kind === "named" || imp.kind === "module")) {
    // `use A\B\C;`: the declared namespace member, wherever its file is.
    const v = namespaceLookup(
      ctx,
      st,
      imp.kind === "named" && imp.name ? `${imp.module}${sep}${imp.name}` : imp.module,
    );
    if (v.kind === "def") return v;
  }
  if (imp.kind === "self-namespace") return { kind: "module", file: st.record.path };
  const r = resolveImport(ctx, st, imp);
  switch (imp.kind) {
    case "module": {
      if (!r.file && st.semantics.packages === "namespaces" && imp.alias) {
        // `using X = A.B.C;`: an alias of a type the project declares in namespace A.B.
        const dot = imp.module.lastIndexOf(".");
        const type =
          dot > 0
            ? ctx.packages.get(`${st.record.language}:${imp.module.slice(0, dot)}`)?.get(imp.module.slice(dot + 1))
            : undefined;
        if (type !== undefined) return { kind: "def", id: type, via: "import" };
      }
      if (!r.file) return r.external ? { kind: "external", name: imp.module } : undefined;
      // An alias, or a language whose import binds the module itself (Go), names the module.
      if (imp.alias || st.resolver?.localName) return { kind: "module", file: r.file };
      // `import a.b` binds `a`: the top package.
      const top = imp.module.split(".")[0]!;
      const topFile = st.resolver!.resolve(st.resolverState, st.record.path, top, undefined).file;
      return topFile ? { kind: "module", file: topFile } : { kind: "external", name: top };
    }
    case "named":
      if (r.submodule) return { kind: "module", file: r.submodule };
      if (r.file && r.within) return withinValue(ctx, r, imp.name!, depth + 1);
      if (r.file) return exportOf(ctx, namedFile(ctx, r, imp.name!)!, imp.name!, depth + 1) ?? undefined;
      return r.external ? { kind: "external", name: `${imp.module}.${imp.name}` } : undefined;
    case "default":
      if (r.file) return exportOf(ctx, r.file, "default", depth + 1);
      return r.external ? { kind: "external", name: `${imp.module}.default` } : undefined;
    case "namespace":
    case "reexport-namespace":
      if (r.file) return { kind: "module", file: r.file };
      return r.external ? { kind: "external", name: imp.module } : undefined;
    default:
      return undefined;
  }
}

/** A module-level name of a file: its definitions, then its imports. */
export function localValue(ctx: GraphContext, st: FileState, name: string, depth: number): Value | undefined {
  const i = st.top.get(name);
  if (i !== undefined) return { kind: "def", id: symbolOf(st, i), via: "scope" };
  const imps = st.importBindings.get(name)?.filter((imp) => imp.scope < 0);
  if (imps?.length) return importValue(ctx, st, imps.at(-1)!, depth + 1);
  return undefined;
}

// ---- Names and expressions ------------------------------------------------------------------

/**
 * A name written with the namespace separator (LanguageSemantics.namespaceSeparator): `\A\B\C` is
 * absolute; `B\C` starts from the import binding `B` in scope, else from the enclosing namespace
 * (`namespace\C` too). What it names is looked up in the namespace tables (namespaceLookup).
 */
function namespacedValue(ctx: GraphContext, st: FileState, scope: number, text: string): Value {
  const sep = st.semantics.namespaceSeparator!;
  if (text.startsWith(sep)) return namespaceLookup(ctx, st, text.slice(sep.length));
  const cut = text.indexOf(sep);
  const first = text.slice(0, cut);
  const rest = text.slice(cut + sep.length);
  const defs = st.record.definitions;
  let ns = "";
  for (let s = scope; s >= 0; s = defs[s]!.parent) if (defs[s]!.kind === "module") ns ||= defs[s]!.qualified;
  if (first.toLowerCase() === "namespace") return namespaceLookup(ctx, st, ns ? `${ns}${sep}${rest}` : rest);
  // The import binding `first` of the innermost scope that has one (a namespace, then the file).
  const imports = (st.importBindings.get(first) ?? []).filter((i) => i.kind === "named" || i.kind === "module");
  for (let s = scope; ; s = defs[s]!.parent) {
    const imp = imports.filter((i) => i.scope === s).at(-1);
    if (imp)
      return namespaceLookup(
        ctx,
        st,
        `${imp.kind === "named" && imp.name ? `${imp.module}${sep}${imp.name}` : imp.module}${sep}${rest}`,
      );
    if (s < 0) break;
  }
  return namespaceLookup(ctx, st, ns ? `${ns}${sep}${text}` : text);
}

/**
 * A fully qualified name (`A\B\C`, no leading separator): the type or function `C` that some
 * file declares in namespace `A\B`, else the namespace `A\B\C` itself, else something outside
 * the project.
 */
function namespaceLookup(ctx: GraphContext, st: FileState, full: string): Value {
  const sep = st.semantics.namespaceSeparator!;
  const lang = st.record.language;
  if (full.startsWith(sep)) full = full.slice(sep.length);
  const cut = full.lastIndexOf(sep);
  const id = ctx.packages
    .get(`${lang}:${cut < 0 ? "" : full.slice(0, cut)}`)
    ?.get(cut < 0 ? full : full.slice(cut + sep.length));
  if (id !== undefined) return { kind: "def", id, via: "import" };
  const ns = ctx.packages.get(`${lang}:`)?.get(full);
  if (ns !== undefined && ctx.symbols[ns]!.kind === "module") return { kind: "def", id: ns, via: "import" };
  return { kind: "external", name: full.split(sep).join(".") };
}

/** A name in scope at `scope` (a definition index, -1 for module level): enclosing functions, then the module. */
export function resolveName(
  ctx: GraphContext,
  st: FileState,
  scope: number,
  name: string,
  depth = 0,
  called = false,
): Value | undefined {
  const sep = st.semantics.namespaceSeparator;
  if (sep && name.includes(sep)) return namespacedValue(ctx, st, scope, name);
  const defs = st.record.definitions;
  let first = true;
  // Ruby: a bare method name is a method of self's class only, not of the classes around it.
  let classSeen = false;
  const membersInScope = st.semantics.classMembersInScope === true;
  // Where methods and variables have separate namespaces, a called name is never a variable.
  const skipVariables = called && st.semantics.callsNameMethods === true;
  for (let s = scope; s >= 0; s = defs[s]!.parent) {
    const d = defs[s]!;
    const isClass = TYPE_KINDS.has(d.kind) || (d.kind === "module" && st.semantics.openModules === true);
    const owner = membersInScope ? outOfLineOwner(ctx, st, s) : undefined;
    if (owner !== undefined) {
      // C++ `T::m() {…}` outside T's body: T's members are in scope as in the body.
      // (the type's own name is the type, not its constructor)
      const found = name === ctx.symbols[owner]!.name ? undefined : findMember(ctx, owner, name);
      if (found !== undefined && ctx.symbols[found]!.kind !== "constructor")
        return { kind: "def", id: found, via: "scope" };
      const inherited = skipVariables
        ? undefined
        : localAt(st, s, name)
          ? undefined
          : findField(ctx, owner, name, depth + 1);
      if (inherited) return inherited;
    }
    if (st.semantics.packages === "namespaces" && (d.kind === "module" || (isClass && st.semantics.openModules))) {
      // Where namespaces are spelled with a separator (PHP), an import binding comes before the namespace's own names.
      const imported =
        sep && d.kind === "module" ? st.importBindings.get(name)?.filter((i) => i.scope === s) : undefined;
      if (imported?.length) return importValue(ctx, st, imported.at(-1)!, depth);
      // A namespace block (a Ruby class or module too) sees its namespace's types in every file, and those of the
      // namespaces around it.
      // (open modules: only the path each enclosing block opens, `class A::B` opens A::B, not A)
      const parts = d.qualified.split(".");
      for (let n = parts.length; n > (st.semantics.openModules ? parts.length - 1 : 0); n--) {
        const id = ctx.packages.get(`${st.record.language}:${parts.slice(0, n).join(".")}`)?.get(name);
        if (id !== undefined) return { kind: "def", id, via: "scope" };
      }
    }
    if (isClass && membersInScope && !(classSeen && st.semantics.openModules)) {
      classSeen = true;
      // Java, C#: a class's members, inherited ones too, are in scope in its methods and nested classes.
      const cls = symbolOf(st, s);
      const found = findMember(ctx, cls, name, 0, inInstanceMethod(st, scope));
      // A constructor is not reachable by its name: the class is.
      if (found !== undefined && ctx.symbols[found]!.kind !== "constructor")
        return { kind: "def", id: found, via: "scope" };
      if (!skipVariables) {
        const field = fieldsOf(st).get(s)?.get(name);
        if (field) return bindingValue(ctx, st, s, field, depth + 1);
        const inherited = findField(ctx, cls, name, depth + 1);
        if (inherited) return inherited;
      }
      first = false;
      continue;
    }
    // Class bodies are not visible from their methods; only code directly in the body sees them.
    if (!isClass || first) {
      // (a member defined out of line, `T::m`, is not a name of the block it is written in)
      for (const c of ctx.children.get(symbolOf(st, s)) ?? [])
        if (ctx.symbols[c]!.name === name && defOf(ctx, c)?.qualified === `${d.qualified}.${name}`)
          return { kind: "def", id: c, via: "scope" };
      const imp = st.importBindings.get(name)?.filter((i) => i.scope === s);
      if (imp?.length) return importValue(ctx, st, imp.at(-1)!, depth);
      const local = skipVariables ? undefined : localAt(st, s, name);
      if (local && local.kind !== "global") return bindingValue(ctx, st, s, local, depth);
      if (local?.kind === "global") break;
    }
    first = false;
  }
  const v = localValue(ctx, st, name, depth);
  if (v) return v;
  const inPackage = packageMember(ctx, st, name);
  if (inPackage !== undefined) return { kind: "def", id: inPackage, via: "scope" };
  const required = called && st.semantics.openModules ? requiredBlockMethod(ctx, st, name) : undefined;
  if (required !== undefined) return { kind: "def", id: required, via: "import" };
  const moduleLocal = skipVariables ? undefined : localsOf(st).get(-1)?.get(name);
  if (moduleLocal) return bindingValue(ctx, st, -1, moduleLocal, depth);
  const starred = st.semantics.starImportsBind ? starredName(ctx, st, name, depth) : undefined;
  if (starred) return starred;
  // A bare class name nothing else binds (PHP `new static`, `new self`, `new parent`): the enclosing class, or its
  // base.
  if (
    st.semantics.classNames.includes(name) ||
    (name === st.semantics.superName && st.semantics.superCallsConstructor)
  ) {
    const cls = enclosingClass(st, scope, ctx);
    const base =
      cls !== undefined && name === st.semantics.superName
        ? basesOf(ctx, cls).find((b) => b.kind === "extends")?.id
        : cls;
    if (base !== undefined) return { kind: "def", id: base, via: "scope" };
  }
  // C, C++: a function declared in a header is defined in some file of the program.
  const linked = linkedMember(ctx, st, name);
  if (linked !== undefined) return { kind: "def", id: linked, via: "import" };
  // A called name no namespace of the project declares is the runtime's (PHP's `strlen`).
  return called && st.semantics.globalNamespace ? { kind: "external", name } : undefined;
}

/** What a local binding holds: an instance of its annotated or constructed type, else unknown. */
function bindingValue(ctx: GraphContext, st: FileState, scope: number, b: BindingRecord, depth: number): Value {
  // A weak reference is not its referent: calling it is (derefValue).
  if (depth > MAX_DEPTH || b.deref) return { kind: "local" };
  if (b.type) {
    const cls = typeToClass(ctx, st, scope, b.type, depth + 1);
    if (cls !== undefined) return { kind: "instance", id: cls };
    // A compiler-checked type outside the project: an outside object, whatever its value says.
    if (st.semantics.staticTypes && !/^(var|auto|let|dynamic)$/.test(b.type))
      return { kind: "external", name: typeCandidates(b.type)[0] ?? b.type };
    const outside = outsideType(ctx, st, scope, b.type, depth + 1);
    if (outside) return outside;
  }
  if (b.value) {
    const v = callResult(ctx, st, scope, b.value, depth + 1);
    if (v) return v;
    if (outsideMethod(ctx, st, scope, b.value, depth + 1)) return { kind: "local", outside: true };
  }
  if (b.literal) {
    const v = operatorValue(ctx, st, scope, b.literal, depth + 1);
    if (v) return v;
  }
  // (`x = x` names itself; `self.x = x` names the parameter, Python's most common way to set a field)
  if (b.alias && (b.alias !== b.name || b.kind === "field")) {
    const v = resolveExpr(
      ctx,
      st,
      scope,
      st.semantics.arrowMembers ? b.alias.replace(/\s*\??->\s*/g, ".") : b.alias,
      depth + 1,
    );
    if (v && v.kind !== "external") return v;
    if (!v && outsideHeld(ctx, st, scope, b.alias, depth + 1)) return { kind: "local", outside: true };
  }
  if (b.argOf) {
    const v = contextualType(ctx, st, scope, b.argOf, depth + 1);
    if (v) return v;
  }
  if (b.iter) {
    const v = elementOf(ctx, st, scope, b.iter, depth + 1);
    if (v) return v;
  }
  if (b.kind === "param" && !b.type && st.semantics.injected) {
    const v = injectedValue(ctx, st, scope, b.name, depth + 1);
    if (v) return v;
  }
  return { kind: "local" };
}

/**
 * Whether a callee expression is a method, `recv.name`, that no definition of the project declares and no built-in type
 * of the language has: the standard library's or a package's (pathlib's `joinpath`, `with_suffix`), or a declaration
 * the index holds no body for, so what it returns is no untyped data of the project (pytest's
 * `p = pytester.path.joinpath("x.py"); p.write_text(…)` is pathlib's write_text). A container's `get` hands back the
 * project's own data it holds, so a built-in method name says nothing.
 */
function outsideMethod(ctx: GraphContext, st: FileState, scope: number, callee: string, depth: number): boolean {
  const m = /\.\s*([A-Za-z_$][\w$]*)\s*(?:<[^()]*>)?\s*(?:\?\.)?$/.exec(callee);
  if (!m || languageById(st.record.language)?.builtinMethods?.has(m[1]!)) return false;
  // (a method of an object no definition describes, whatever its name: `t.procedure.use(mw)`, `process.stdout.on(…)`)
  const text = callee.slice(0, m.index);
  if (outsideHeld(ctx, st, scope, text, depth + 1)) return true;
  if (ctx.byName.has(m[1]!)) return false;
  // (nor a name some class of the project binds as a field: `captureclass = staticmethod(StdCapture)` holds a callable)
  if (fieldNames(ctx).has(m[1]!)) return false;
  // (a field of a project object, `self.context_class: type[Context] = Context`, is no definition but is the project's)
  const base = resolveExpr(ctx, st, scope, text, depth + 1);
  return !(base && base.kind !== "external" && base.kind !== "local" && member(ctx, base, m[1]!, depth + 1));
}

/**
 * Whether an expression the rules cannot type (`t.procedure`, `process.stdout`) reads an object that is no untyped
 * data of the project, so a local holding it is outside (found by the new-user tours, branch quality8):
 * - a property of a value whose declared type is a shape of the project (an interface or type alias, whose members
 *   the index holds no definition for): tRPC's `procedure = t.procedure; procedure.meta(…)` was linked to the one
 *   `TRPCBuilder.meta`, as `t.procedure.meta(…)` itself no longer was;
 * - a member of a global of the language's host the file does not bind: mocha's `var stream = process.stdout;
 *   stream.write(…)` was linked to `XUnit.write`, as `process.stdout.write(…)` itself no longer was.
 */
function outsideHeld(ctx: GraphContext, st: FileState, scope: number, text: string, depth: number): boolean {
  const dot = text.lastIndexOf(".");
  if (dot <= 0 || !IDENT.test(text.slice(dot + 1)) || depth > MAX_DEPTH) return false;
  const root = /^[A-Za-z_$][\w$]*/.exec(text)?.[0];
  if (root && isGlobal(ctx, st.record.language, root))
    return resolveExpr(ctx, st, scope, root, depth + 1) === undefined;
  const base = resolveExpr(ctx, st, scope, text.slice(0, dot), depth + 1);
  if (base?.kind !== "instance") return false;
  const kind = ctx.symbols[base.id]!.kind;
  return (kind === "interface" || kind === "type") && member(ctx, base, text.slice(dot + 1), depth + 1) === undefined;
}

/** Per resolution pass (its memos), the names bound as fields or in a class body anywhere in the project. */
const fieldNamesOf = new WeakMap<object, Set<string>>();
function fieldNames(ctx: GraphContext): Set<string> {
  let names = fieldNamesOf.get(ctx.memos);
  if (names) return names;
  names = new Set();
  for (const { record } of ctx.files.values()) {
    const list =
      record.fields !== undefined ? record.fields.split(" ") : boundFieldNames(record.definitions, record.bindings);
    for (const name of list) if (name) names.add(name);
  }
  fieldNamesOf.set(ctx.memos, names);
  return names;
}

/**
 * What a binary operator expression gives (`tmp_path / "x.py"`, `pytester.path / "sub" / "x"`): when its left operand
 * is an object from outside the project, the operator is that object's method, so the result is outside too. A left
 * operand of the project (whose operator method may return anything) or unknown gives no answer.
 */
export function operatorValue(
  ctx: GraphContext,
  st: FileState,
  scope: number,
  text: string,
  depth: number,
): Value | undefined {
  let t = text.trim();
  while (t.startsWith("(") && closingParen(t, 0) === t.length - 1) t = t.slice(1, -1).trim();
  const left = leftOperand(t);
  if (left === undefined || depth > MAX_DEPTH) return undefined;
  const inner = left.startsWith("(") ? operatorValue(ctx, st, scope, left, depth + 1) : undefined;
  const v = inner ?? (/^[A-Za-z_$]/.test(left) ? resolveExpr(ctx, st, scope, left, depth + 1) : undefined);
  return v?.kind === "external" ? v : undefined;
}

/** The index of the parenthesis closing the one at `open`, or -1. */
function closingParen(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === "(" || c === "[" || c === "{") depth++;
    else if ((c === ")" || c === "]" || c === "}") && --depth === 0) return i;
  }
  return -1;
}

/**
 * The left operand of a binary arithmetic operator at the top level of `text` (`a.b(c) / "x" / y` → `a.b(c)`), or
 * undefined when `text` is none (a string literal, a comparison, a lone name).
 */
function leftOperand(text: string): string | undefined {
  if (/^[rbfuRBFU]*["'`]/.test(text)) return undefined;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "(" || c === "[" || c === "{") depth++;
    else if (c === ")" || c === "]" || c === "}") depth--;
    else if (c === '"' || c === "'" || c === "`") {
      // (a string inside: skip to its closing quote)
      const end = text.indexOf(c, i + 1);
      if (end < 0) return undefined;
      i = end;
    } else if (depth === 0 && /[/+*%@-]/.test(c) && /\s/.test(text[i - 1] ?? "") && i > 0) {
      const left = text.slice(0, i).trim();
      return left || undefined;
    }
  }
  return undefined;
}

/**
 * What an injected parameter holds (LanguageSemantics.injected, pytest fixtures): its provider's
 * return annotation, else what the provider returns or yields (an instance, a class through
 * `partial`, or a local's value).
 */
function injectedValue(
  ctx: GraphContext,
  st: FileState,
  scope: number,
  name: string,
  depth: number,
): Value | undefined {
  const bases = (cls: number) => basesOf(ctx, cls).map((b) => b.id);
  // A provider's own parameters are filled as the receiver that asked for it sees them (pytest resolves a fixture's
  // fixtures from the requesting test): a base class's `serializer(serializer_factory)` run for a subclass's test
  // gets the subclass's `serializer_factory`. A provider of its own name still gets the outer one.
  const asking = injectedRequester?.st === st && injectedRequester.provider === scope ? injectedRequester : undefined;
  let p = asking ? injectedProvider(ctx, asking.receiver, asking.scope, name, bases) : undefined;
  if (p && p.st === st && p.index === scope) p = undefined;
  p ??= injectedProvider(ctx, st, scope, name, bases);
  if (!p || depth > MAX_DEPTH) return undefined;
  const d = p.st.record.definitions[p.index]!;
  if (d.returns) {
    const cls = typeToClass(ctx, p.st, d.parent, d.returns, depth + 1);
    if (cls !== undefined) return { kind: "instance", id: cls };
  }
  const r = localAt(p.st, p.index, "return") ?? localAt(p.st, p.index, "yield");
  const outer = injectedRequester;
  injectedRequester = { receiver: asking?.receiver ?? st, scope: asking?.scope ?? scope, st: p.st, provider: p.index };
  try {
    const v = r ? bindingValue(ctx, p.st, p.index, r, depth + 1) : undefined;
    return v?.kind === "local" ? undefined : v;
  } finally {
    injectedRequester = outer;
  }
}

/**
 * The receiver whose injected parameter is being resolved, while its provider's value is read (`injectedValue`):
 * resolution is synchronous, so the value is set and restored around that read alone.
 */
let injectedRequester: { receiver: FileState; scope: number; st: FileState; provider: number } | undefined;

/**
 * The type of an untyped callback parameter from the callee's declaration: for
 * `new Observable((subscriber) => …)`, the constructor's parameter `subscribe?: (this: …,
 * subscriber: Subscriber<T>) => …` gives `subscriber` the class Subscriber.
 */
function contextualType(
  ctx: GraphContext,
  st: FileState,
  scope: number,
  site: NonNullable<BindingRecord["argOf"]>,
  depth: number,
): Value | undefined {
  const callee = resolveExpr(ctx, st, scope, site.callee, depth);
  if (callee?.kind !== "def") return undefined;
  let fnId = callee.id;
  if (isClassLike(ctx, fnId)) {
    const ctor = findMember(ctx, fnId, "constructor");
    if (ctor === undefined) return undefined;
    fnId = ctor;
  }
  const params = defOf(ctx, fnId)?.params?.filter((p) => p.name !== "this");
  // A rest parameter (`...middleware: MiddlewareHandler[]`) takes every argument from its place on.
  const last = params?.at(-1);
  const rest = last?.name.startsWith("...") && site.arg >= params!.length - 1 ? last : undefined;
  const declared = rest?.type ? elementType(rest.type) : params?.[site.arg]?.type;
  if (!declared) return undefined;
  const fst = stateOf(ctx, fnId);
  const inline = functionTypeParams(declared);
  // A named function type (`type MiddlewareHandler = (c: Context, next: Next) => …`): its parameters, read where it is
  // declared.
  const named = inline ? undefined : aliasedFunctionParams(ctx, fst, ctx.symbols[fnId]!.index, declared, depth + 1);
  const paramType = (inline ?? named?.params)?.[site.param];
  if (!paramType) return undefined;
  const cls = named
    ? typeToClass(ctx, named.st, named.scope, paramType, depth + 1)
    : typeToClass(ctx, fst, ctx.symbols[fnId]!.index, paramType, depth + 1);
  return cls !== undefined ? { kind: "instance", id: cls } : undefined;
}

/** The parameter types of the function type a type alias names (`type H<E = any> = (c: Context<E>) => R`). */
function aliasedFunctionParams(
  ctx: GraphContext,
  st: FileState,
  scope: number,
  type: string,
  depth: number,
): { params: string[]; st: FileState; scope: number } | undefined {
  const name = typeCandidates(type)[0];
  const v = name !== undefined ? resolveExpr(ctx, st, scope, name, depth) : undefined;
  if (v?.kind !== "def" || ctx.symbols[v.id]!.kind !== "type") return undefined;
  const sig = defOf(ctx, v.id)?.signature ?? "";
  // the right-hand side: after the `=` outside the type parameters' angle brackets
  let angle = 0;
  let eq = -1;
  for (let i = 0; i < sig.length && eq < 0; i++) {
    const ch = sig[i];
    if (ch === "<") angle++;
    else if (ch === ">" && sig[i - 1] !== "=") angle--;
    else if (ch === "=" && angle === 0 && sig[i + 1] !== ">") eq = i;
  }
  const params =
    eq < 0
      ? undefined
      : functionTypeParams(
          sig
            .slice(eq + 1)
            .trim()
            .replace(/;$/, ""),
        );
  return params ? { params, st: stateOf(ctx, v.id), scope: ownerScope(ctx, v.id) } : undefined;
}

/** The scope a definition's own annotations resolve in: its parent's (the class of a method). */
const ownerScope = (ctx: GraphContext, id: number): number => ctx.symbols[id]!.parent - stateOf(ctx, id).moduleId - 1;

/**
 * The declared type text of an expression, where it is written down: a local or field
 * annotation (`items: List[Item]`, `self.items: List[Item]`) or a function's return annotation.
 */
function declaredType(
  ctx: GraphContext,
  st: FileState,
  scope: number,
  expr: string,
  depth: number,
): { st: FileState; scope: number; type: string } | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const [head, isCall] = splitCall(expr);
  if (isCall) {
    const v = resolveExpr(ctx, st, scope, head, depth + 1);
    if (v?.kind !== "def") return undefined;
    const d = defOf(ctx, v.id);
    return d?.returns ? { st: stateOf(ctx, v.id), scope: ownerScope(ctx, v.id), type: d.returns } : undefined;
  }
  const dot = head.lastIndexOf(".");
  if (dot > 0 && IDENT.test(head.slice(dot + 1))) {
    // A field of a typed object (`self.items`, `r.routes`): its declared type, in its class or a base.
    const owner = resolveExpr(ctx, st, scope, head.slice(0, dot), depth + 1);
    if (owner?.kind !== "instance") return undefined;
    for (const cls of [owner.id, ...basesOf(ctx, owner.id).map((b) => b.id)]) {
      const cst = stateOf(ctx, cls);
      const b = fieldsOf(cst)
        .get(ctx.symbols[cls]!.index)
        ?.get(head.slice(dot + 1));
      if (b) return b.type ? { st: cst, scope: b.scope, type: b.type } : undefined;
    }
    return undefined;
  }
  if (!IDENT.test(head)) return undefined;
  const defs = st.record.definitions;
  for (let s = scope; ; s = defs[s]!.parent) {
    const b = localAt(st, s, head);
    if (b) return b.type ? { st, scope: s, type: b.type } : undefined;
    if (s < 0) return undefined;
  }
}

/** What a loop over `iter` yields: the element class of `List[X]`, `Iterable[X]`, `X[]`, `Array<X>`… */
function elementOf(ctx: GraphContext, st: FileState, scope: number, iter: string, depth: number): Value | undefined {
  const declared = declaredType(ctx, st, scope, iter, depth);
  const element = declared ? elementType(declared.type) : undefined;
  if (!declared || !element) return undefined;
  const cls = typeToClass(ctx, declared.st, declared.scope, element, depth + 1);
  return cls !== undefined ? { kind: "instance", id: cls } : undefined;
}

/** The class a type annotation names, resolved in scope. */
export function typeToClass(
  ctx: GraphContext,
  st: FileState,
  scope: number,
  type: string,
  depth: number,
): number | undefined {
  for (const t of typeCandidates(type)) {
    const v = resolveExpr(ctx, st, scope, t, depth);
    if (v?.kind === "def" && isClassLike(ctx, v.id)) return v.id;
  }
  return undefined;
}

/**
 * An annotation (or an `isinstance` guard) whose every class is imported from outside the project: an outside
 * object, as a checker reads it (`jar: cookielib.CookieJar`: `jar.set_cookie` is the standard library's, not the
 * project's one `set_cookie` by name). A shape from the typing vocabulary (`Any`, `Callable[…, Measurement]`,
 * `Iterable[Foo]`) says nothing of which class the value is: no answer.
 */
function outsideType(ctx: GraphContext, st: FileState, scope: number, type: string, depth: number): Value | undefined {
  const names = typeCandidates(type);
  if (!names.length || names.some((t) => SHAPES.has(t.slice(t.lastIndexOf(".") + 1)))) return undefined;
  // (a type variable, `T = TypeVar("T")`, stands for whatever the caller passes: no answer either)
  const outside = (v: Value | undefined) =>
    v?.kind === "external" && !/\b(TypeVar|ParamSpec|TypeVarTuple)\(\)$/.test(v.name);
  if (!names.every((t) => outside(resolveExpr(ctx, st, scope, t, depth)))) return undefined;
  return { kind: "external", name: names[0]! };
}

/** Type names that describe a shape or a protocol, not a class a value is an instance of. */
const SHAPES = new Set([
  "Any",
  "object",
  "Callable",
  "Iterable",
  "Iterator",
  "AsyncIterable",
  "AsyncIterator",
  "Generator",
  "AsyncGenerator",
  "Awaitable",
  "Coroutine",
  "Collection",
  "Container",
  "Sequence",
  "MutableSequence",
  "Mapping",
  "MutableMapping",
  "Protocol",
  "Generic",
  "TypeVar",
]);

/** The value of calling `callee` (an expression text): an instance for a class, a function's return type. */
function callResult(ctx: GraphContext, st: FileState, scope: number, callee: string, depth: number): Value | undefined {
  const referent = derefValue(ctx, st, scope, callee, depth);
  if (referent) return referent;
  const v = resolveExpr(ctx, st, scope, callee, depth, true);
  // What something outside the project returns is outside too (`log = logging.getLogger(…)`: log.error is logging's).
  if (v?.kind === "external") return { kind: "external", name: `${v.name}()` };
  if (v?.kind !== "def") return undefined;
  if (isClassLike(ctx, v.id)) return { kind: "instance", id: v.id };
  const d = defOf(ctx, v.id);
  if (d?.returns) {
    const rst = stateOf(ctx, v.id);
    // A return type that names the class itself (`-> Self`), or a method that ends constructing one (Ruby `new(…)`):
    // the type the method belongs to.
    const named = typeCandidates(d.returns)[0];
    if (
      named !== undefined &&
      (rst.semantics.classNames.includes(named) || named === rst.semantics.constructorMethod || named === "Self")
    ) {
      const owner =
        attachedOwner(ctx, v.id) ??
        (isClassLike(ctx, ctx.symbols[v.id]!.parent) ? ctx.symbols[v.id]!.parent : undefined);
      if (owner !== undefined) return { kind: "instance", id: owner };
    }
    const cls = typeToClass(ctx, rst, ownerScope(ctx, v.id), d.returns, depth + 1);
    if (cls !== undefined) return { kind: "instance", id: cls };
    // A return annotation naming only classes from outside the project (`def mkdir(self, name) -> Path`, pathlib's):
    // an outside object, as for an annotated local (bindingValue).
    const outside = outsideType(ctx, rst, ownerScope(ctx, v.id), d.returns, depth + 1);
    if (outside?.kind === "external") return { kind: "external", name: `${outside.name}()` };
  }
  return undefined;
}

/**
 * What calling a weak reference gives (`r = weakref.ref(obj)`, `self._parent = weakref.ref(parent)`):
 * its referent, for a local `r()` or the current instance's field `self._parent()`.
 */
function derefValue(ctx: GraphContext, st: FileState, scope: number, callee: string, depth: number): Value | undefined {
  const dot = callee.indexOf(".");
  let b: BindingRecord | undefined;
  let bst = st;
  if (dot < 0) {
    if (!IDENT.test(callee)) return undefined;
    for (let s = scope; ; s = st.record.definitions[s]!.parent) {
      b = localAt(st, s, callee);
      if (b || s < 0) break;
    }
  } else if (st.semantics.instanceNames.includes(callee.slice(0, dot)) && IDENT.test(callee.slice(dot + 1))) {
    const cls = enclosingClass(st, scope, ctx);
    if (cls === undefined) return undefined;
    bst = stateOf(ctx, cls);
    b = fieldsOf(bst)
      .get(ctx.symbols[cls]!.index)
      ?.get(callee.slice(dot + 1));
  }
  return b?.deref && b.alias ? resolveExpr(ctx, bst, b.scope, b.alias, depth + 1) : undefined;
}

/** The innermost method around a scope, if any, before a type. */
function methodAround(st: FileState, scope: number): Definition | undefined {
  for (let s = scope; s >= 0; s = st.record.definitions[s]!.parent) {
    const d = st.record.definitions[s]!;
    if (d.kind === "method" || d.kind === "function") return d;
    if (TYPE_KINDS.has(d.kind) || d.kind === "module") return undefined;
  }
  return undefined;
}

/** True in a method of the class itself (Ruby `def self.x`, `class << self`). */
const inStaticMethod = (st: FileState, scope: number): boolean => methodAround(st, scope)?.static === true;

/** True in a method of the instances, where a language marks the class's own methods (Ruby): they are not in scope. */
const inInstanceMethod = (st: FileState, scope: number): boolean =>
  st.semantics.openModules === true &&
  methodAround(st, scope)?.static !== true &&
  methodAround(st, scope) !== undefined;

/** The type of the out-of-line method (C++ `T::m`) a scope is in. */
function ownerAround(ctx: GraphContext, st: FileState, scope: number): number | undefined {
  for (let s = scope; s >= 0; s = st.record.definitions[s]!.parent) {
    const owner = outOfLineOwner(ctx, st, s);
    if (owner !== undefined) return owner;
  }
  return undefined;
}

/**
 * The enclosing class of a scope (for self/this/cls/super): a class or enum around it, or the type
 * a method around it was declared for outside its body (a Rust `impl` block).
 */
export function enclosingClass(st: FileState, scope: number, ctx?: Pick<GraphContext, "attached">): number | undefined {
  const defs = st.record.definitions;
  for (let s = scope; s >= 0; s = defs[s]!.parent) {
    const k = defs[s]!.kind;
    if (k === "class" || k === "enum" || k === "trait" || (k === "module" && st.semantics.openModules))
      return symbolOf(st, s);
    const owner = ctx ? attachedOwner(ctx, symbolOf(st, s)) : undefined;
    if (owner !== undefined) return owner;
  }
  return undefined;
}

/** Evaluates a dotted expression (`self.x.y`, `pkg.mod`, `Foo`, `get()`) to a value. */
export function resolveExpr(
  ctx: GraphContext,
  st: FileState,
  scope: number,
  text: string,
  depth = 0,
  called = false,
): Value | undefined {
  if (depth > MAX_DEPTH) return undefined;
  // A chain written over several lines (`initTRPC\n  .context<…>()\n  .create()`, whitespace-collapsed): `a .b`.
  if (/\s\.|\.\s/.test(text)) text = text.replace(/\s+(?=\??\.)|(?<=\.)\s+/g, "");
  if (st.semantics.stringClass && /^(["'])[^"'#]*\1$/.test(text)) {
    // `"a.rb".pathmap` where the project reopens String: an instance of that class.
    const id = packageMember(ctx, st, st.semantics.stringClass);
    return id !== undefined && isClassLike(ctx, id) ? { kind: "instance", id } : undefined;
  }
  // (`called` matters on a path only where a named method is otherwise its result: Ruby `A::B.m`)
  if (text.includes("::"))
    return resolvePath(ctx, st, scope, text, depth, called && st.semantics.namedMethodsAreCalled);
  // `new Foo<T>(…)` as a receiver: a call of the class.
  if (text.startsWith("new ")) text = text.slice(4).replace(/^([\w$.]+)\s*<[^()]*>\s*(?=\()/, "$1");
  // C, C++: `p[i]` on a pointer or array of T is a T.
  if (st.semantics.pointerSubscripts && text.endsWith("]")) {
    const m = /^(.+?)\[[^[\]]*\]$/.exec(text);
    const base = m ? resolveExpr(ctx, st, scope, m[1]!, depth + 1) : undefined;
    return base?.kind === "instance" ? base : undefined;
  }
  const [head, isCall] = splitCall(text);
  if (isCall) {
    // Go's `new(T)`: a pointer to a fresh T.
    if (st.semantics.allocators?.includes(head)) {
      const cls = typeToClass(ctx, st, scope, text.slice(head.length + 1, -1), depth + 1);
      return cls !== undefined ? { kind: "instance", id: cls } : undefined;
    }
    if (head === "super") {
      const cls = enclosingClass(st, scope, ctx);
      return cls !== undefined ? { kind: "super", id: cls } : undefined;
    }
    // (`initTRPC.meta<Meta>()`: the type arguments are no part of the callee)
    return callResult(ctx, st, scope, head.replace(/(?<=[\w$])\s*<[^()]*>$/, ""), depth + 1);
  }
  const dot = head.lastIndexOf(".");
  const sigil = st.semantics.fieldSigil;
  if (dot < 0 && sigil && head.startsWith(sigil) && IDENT.test(head.slice(sigil.length))) {
    // Ruby `@x`: a field of the instance the method runs on (bound where any method of its class sets it).
    const cls = enclosingClass(st, scope, ctx);
    if (cls !== undefined) return findField(ctx, cls, head, depth + 1);
    // Outside any class (an rspec example group's `before { @x = K.new }`): the file's top-level object's field.
    const b = fieldsOf(st).get(-1)?.get(head);
    return b ? bindingValue(ctx, st, b.scope, b, depth + 1) : undefined;
  }
  if (dot < 0) {
    if (st.semantics.namespaceSeparator && head.includes(st.semantics.namespaceSeparator))
      return namespacedValue(ctx, st, scope, head);
    if (!IDENT.test(head)) return undefined;
    const sem = st.semantics;
    if (sem.instanceNames.includes(head)) {
      const cls = enclosingClass(st, scope, ctx) ?? ownerAround(ctx, st, scope);
      if (cls === undefined) return undefined;
      // (in a method of the class itself, Ruby `def self.x`, `self` is the class)
      return inStaticMethod(st, scope) ? { kind: "def", id: cls, via: "scope" } : { kind: "instance", id: cls };
    }
    if (sem.classNames.includes(head)) {
      const cls = enclosingClass(st, scope, ctx);
      if (cls !== undefined) return { kind: "def", id: cls, via: "scope" };
    }
    if (head === (sem.superName ?? "super") && sem.superCallsConstructor) {
      const cls = enclosingClass(st, scope, ctx);
      return cls !== undefined ? { kind: "super", id: cls } : undefined;
    }
    const named = resolveName(ctx, st, scope, head, depth + 1);
    return called ? named : calledIfMethod(ctx, st, scope, head, named, depth);
  }
  const base = resolveExpr(ctx, st, scope, head.slice(0, dot), depth + 1);
  const attr = head.slice(dot + 1);
  // (`K.[]`: Ruby's class method `[]`, what `K[…]` calls)
  if (!base || !(/^[A-Za-z_$#][\w$]*$/.test(attr) || (attr === "[]" && st.semantics.namedMethodsAreCalled)))
    return undefined;
  // Ruby `self.class`: the instance's class itself.
  if (attr === st.semantics.classOfInstance && base.kind === "instance")
    return { kind: "def", id: base.id, via: "scope" };
  // Where fields and methods are apart (PHP `$this->x` and `$this->x()`), a member read is the field.
  if (
    st.semantics.fieldsApart &&
    !called &&
    (base.kind === "instance" || base.kind === "def") &&
    isClassLike(ctx, base.id)
  ) {
    const field = findField(ctx, base.id, attr, depth + 1);
    if (field) return field;
  }
  const found = member(ctx, base, attr, depth + 1);
  if (!called && found?.kind === "def" && base.kind === "instance" && isProperty(ctx, found.id)) {
    // (reading a property runs it: `pytester.path` is the Path its `-> Path` names, as `pytester.path()` would be)
    const v = callResult(ctx, st, scope, head, depth + 1);
    if (v) return v;
  }
  return called ? found : calledIfMethod(ctx, st, scope, head, found, depth);
}

/** A method decorated as a property (Python `@property`, `@functools.cached_property`): reading it calls it. */
function isProperty(ctx: GraphContext, id: number): boolean {
  if (ctx.symbols[id]!.kind !== "method") return false;
  return defOf(ctx, id)?.decorators?.some((d) => /^@?(?:functools\.)?(?:cached_)?property$/.test(d.trim())) === true;
}

/**
 * Where a method named without parentheses is called (LanguageSemantics.namedMethodsAreCalled), a method as a
 * value is what calling it returns: an instance of its return type, else nothing known. Other values pass through.
 */
function calledIfMethod(
  ctx: GraphContext,
  st: FileState,
  scope: number,
  text: string,
  v: Value | undefined,
  depth: number,
): Value | undefined {
  if (v?.kind !== "def" || !st.semantics.namedMethodsAreCalled) return v;
  const kind = ctx.symbols[v.id]!.kind;
  if (kind !== "method" && kind !== "function") return v;
  return callResult(ctx, st, scope, text, depth + 1);
}

/**
 * A `::` path (`crate::a::f`, `super::T`, `Type::new`, `Vec::<u8>::new`): a path from a module root
 * the module resolver knows goes through it, like an import; any other is read as a dotted name.
 */
function resolvePath(
  ctx: GraphContext,
  st: FileState,
  scope: number,
  text: string,
  depth: number,
  called = false,
): Value | undefined {
  const path = text.replace(/::\s*<[^()]*?>/g, "").replace(/^::|::$/g, "");
  const segs = path.split("::").map((p) => p.trim());
  if (segs.length === 1) {
    // A path root on its own (`self::`, `super::`, `crate::`): the module it names.
    if (!st.resolver || !st.semantics.pathRoots?.includes(segs[0]!))
      return resolveExpr(ctx, st, scope, segs[0]!, depth + 1);
    const r = st.resolver.resolve(st.resolverState, st.record.path, segs[0]!, undefined, enclosingModules(st, scope));
    let v: Value | undefined = r.file ? { kind: "module", file: r.file } : undefined;
    for (const seg of r.within ?? []) v = v ? member(ctx, v, seg, depth + 1) : undefined;
    return v;
  }
  if (segs.some((p) => !IDENT.test(p))) {
    // A path inside a longer expression (`Parser::new(x).parse()`): `::` reads as `.`.
    return st.semantics.pathRoots?.includes(segs[0]!)
      ? undefined
      : resolveExpr(ctx, st, scope, path.replace(/\s*::\s*/g, "."), depth + 1, called);
  }
  // A path root, or a first segment nothing in scope names (another crate: `calc::parser::parse`).
  const fromRoot =
    st.semantics.pathRoots?.includes(segs[0]!) ||
    (st.semantics.pathRoots !== undefined && resolveName(ctx, st, scope, segs[0]!, depth + 1) === undefined);
  if (st.resolver && segs.length > 1 && fromRoot) {
    // The longest prefix the resolver places in a file; the rest are members.
    const r = st.resolver.resolve(
      st.resolverState,
      st.record.path,
      segs.slice(0, -1).join("::"),
      segs.at(-1),
      enclosingModules(st, scope),
    );
    if (!r.file) return r.external ? { kind: "external", name: segs.join(".") } : undefined;
    if (r.submodule) return { kind: "module", file: r.submodule };
    let v: Value | undefined = { kind: "module", file: r.file };
    for (const seg of [...(r.within ?? []), segs.at(-1)!]) v = v ? member(ctx, v, seg, depth + 1) : undefined;
    return v;
  }
  return resolveExpr(ctx, st, scope, segs.join("."), depth + 1, called);
}

/** `value.attr`: a module's export, a class's member, an instance's field or method. */
export function member(ctx: GraphContext, base: Value, attr: string, depth: number): Value | undefined {
  switch (base.kind) {
    case "module": {
      const v = exportOf(ctx, base.file, attr, depth);
      return v?.kind === "def" ? { ...v, via: "import" } : v;
    }
    case "external":
      return { kind: "external", name: `${base.name}.${attr}` };
    case "def":
    case "instance":
    case "super": {
      if (base.kind === "def" && ctx.symbols[base.id]!.kind === "module") {
        // A namespace's or an inline module's items.
        const id = namespaceMember(ctx, base.id, attr);
        if (id !== undefined) return { kind: "def", id, via: "scope" };
        for (const c of ctx.children.get(base.id) ?? [])
          if (ctx.symbols[c]!.name === attr) return { kind: "def", id: c, via: "scope" };
        // An open module (Ruby) is also a type: its methods, in any file that opens it, and its mixins'.
        if (!isClassLike(ctx, base.id)) return undefined;
      }
      if (!isClassLike(ctx, base.id) && base.kind === "def") return undefined;
      if (base.kind === "def" && stateOf(ctx, base.id).semantics.openModules) {
        // An open class's constants, from every file that opens it (`Thor::Util` in thor/util.rb).
        const d = defOf(ctx, base.id);
        const id = d ? ctx.packages.get(`${ctx.symbols[base.id]!.language}:${d.qualified}`)?.get(attr) : undefined;
        if (id !== undefined) return { kind: "def", id, via: "scope" };
      }
      // (an instance answers with its class's instance methods, not the class's own: Ruby `def self.x`)
      const found =
        base.kind === "super"
          ? findInBases(ctx, base.id, attr)
          : findMember(ctx, base.id, attr, 0, base.kind === "instance", base.kind === "def");
      if (found !== undefined) return { kind: "def", id: found, via: "scope" };
      // Fields of an instance, and static fields of a class (`Builder.DEFAULT.create()`).
      if (base.kind === "instance" || (base.kind === "def" && stateOf(ctx, base.id).semantics.classMembersInScope)) {
        const fieldType = findField(ctx, base.id, attr, depth);
        if (fieldType) return fieldType;
      }
      return undefined;
    }
    default:
      return undefined;
  }
}

/** The type of field `name` on class `id` (or its bases). */
function findField(
  ctx: GraphContext,
  id: number,
  name: string,
  depth: number,
  seen = new Set<number>(),
): Value | undefined {
  if (seen.has(id) || depth > MAX_DEPTH) return undefined;
  seen.add(id);
  const st = stateOf(ctx, id);
  const b = fieldsOf(st).get(ctx.symbols[id]!.index)?.get(name);
  if (b) {
    const v = bindingValue(ctx, st, b.scope, b, depth + 1);
    if (v.kind !== "local") return v;
  }
  for (const base of basesOf(ctx, id)) {
    const v = findField(ctx, base.id, name, depth + 1, seen);
    if (v) return v;
  }
  return undefined;
}

// ---- Inheritance ------------------------------------------------------------------------------

/** A class's project bases, resolved through the class's own scope, memoized. */
export function basesOf(ctx: GraphContext, id: number): { id: number; kind: "extends" | "implements" }[] {
  let out = ctx.memos.bases.get(id);
  if (out) return out;
  out = [];
  ctx.memos.bases.set(id, out); // cycle guard: a class inheriting itself sees no bases
  const d = defOf(ctx, id);
  if (!d) return out;
  const st = stateOf(ctx, id);
  for (const [list, kind] of [
    [d.bases ?? [], "extends"],
    [d.implements ?? [], "implements"],
  ] as const) {
    for (const text of list) {
      const t = typeCandidates(text)[0];
      if (!t) continue;
      // (open modules: a mixin is named inside the body, so in the class's own scope, then around it)
      const inBody =
        kind === "implements" && st.semantics.openModules
          ? resolveExpr(ctx, st, ctx.symbols[id]!.index, t, 1)
          : undefined;
      const v = inBody?.kind === "def" ? inBody : resolveExpr(ctx, st, d.parent, t, 1);
      if (v?.kind === "def" && isClassLike(ctx, v.id) && v.id !== id) out.push({ id: v.id, kind });
    }
  }
  for (const b of ctx.attachedBases?.get(id) ?? []) {
    const bst = ctx.files.get(b.file);
    const t = typeCandidates(b.text)[0];
    const v = bst && t ? resolveExpr(ctx, bst, b.scope, t, 1) : undefined;
    if (v?.kind === "def" && isClassLike(ctx, v.id) && v.id !== id && !out.some((o) => o.id === v.id))
      out.push({ id: v.id, kind: "implements" });
  }
  return out;
}

/**
 * A member (method, nested class) of a class, searching bases depth-first (Python's MRO order for simple trees).
 * `instanceOnly`: what an instance answers with (never the class's own methods, Ruby's `def self.x`); `classFirst`:
 * what the class itself answers with, its own (static) method before an instance method of the same name
 * (`Config.load` beside `def load`).
 */
export function findMember(
  ctx: GraphContext,
  id: number,
  name: string,
  depth = 0,
  instanceOnly = false,
  classFirst = false,
): number | undefined {
  const key = instanceOnly ? `${id}\0${name}\0i` : classFirst ? `${id}\0${name}\0c` : `${id}\0${name}`;
  if (ctx.memos.members.has(key)) return ctx.memos.members.get(key) ?? undefined;
  ctx.memos.members.set(key, null);
  let found: number | undefined;
  let foundStatic: number | undefined;
  // (a nested module is a member only where modules are open: Ruby's `Thor::Util`)
  const open = stateOf(ctx, id).semantics.openModules === true;
  for (const c of membersOf(ctx, id)) {
    if (ctx.symbols[c]!.name !== name || (!open && ctx.symbols[c]!.kind === "module")) continue;
    const isStatic = defOf(ctx, c)?.static === true;
    if (instanceOnly && isStatic) continue;
    found = c;
    if (isStatic) foundStatic = c;
  }
  if (classFirst && foundStatic !== undefined) found = foundStatic;
  if (found === undefined && depth < MAX_DEPTH) {
    for (const b of basesOf(ctx, id)) {
      found = findMember(ctx, b.id, name, depth + 1, instanceOnly, classFirst);
      if (found !== undefined) break;
    }
  }
  ctx.memos.members.set(key, found ?? null);
  return found;
}

/** A member found in a class's bases only (what `super().name` reaches). */
export function findInBases(ctx: GraphContext, id: number, name: string): number | undefined {
  for (const b of basesOf(ctx, id)) {
    const f = findMember(ctx, b.id, name);
    if (f !== undefined) return f;
  }
  return undefined;
}

/** The definition an expression denotes in a file's scope (-1 = module level), for look-ups after the build. */
export function lookupDefinition(ctx: GraphContext, file: string, scope: number, expr: string): number | undefined {
  const st = ctx.files.get(file);
  if (!st) return undefined;
  const v = resolveExpr(ctx, st, scope, expr);
  return v?.kind === "def" ? v.id : undefined;
}
