/**
 * Package scope and members declared outside their type: the files of one package share their
 * top-level names (LanguageSemantics.packages), a method written outside its type's body (a Go
 * receiver, a Rust `impl` block) is a member of that type, and where interfaces are structural a
 * type implements every interface whose methods it has.
 */
import { defOf, symbolOf, TYPE_KINDS, type FileState, type GraphContext } from "./context.ts";
import type { SymbolNode } from "./model.ts";
import { resolveImport } from "./imports.ts";

/** Top-level definitions by name per package, and each type's methods declared outside its body. */
export function packageTables(
  files: Iterable<FileState>,
  symbols: readonly SymbolNode[],
): Pick<GraphContext, "packages" | "attached" | "linked"> {
  const packages = new Map<string, Map<string, number>>();
  const list = [...files];
  const linked = linkageTable(list);
  for (const st of list) {
    if (st.packageKey === undefined || st.semantics.packages === "namespaces") continue;
    const names = packages.get(st.packageKey) ?? packages.set(st.packageKey, new Map()).get(st.packageKey)!;
    st.record.definitions.forEach((d, i) => {
      if (d.parent < 0 && d.name === d.qualified && !names.has(d.name)) names.set(d.name, symbolOf(st, i));
    });
  }
  const attached = new Map<number, number[]>();
  const attach = (owner: number, member: number) =>
    (attached.get(owner) ?? attached.set(owner, []).get(owner)!).push(member);
  // Namespace blocks are packages: their types, in every file; a type split over files (a partial
  // class) is one type, each part seeing the members of the others.
  const parts = new Map<number, { st: FileState; index: number }[]>();
  const firstOf = new Map<string, number>();
  for (const st of list) {
    if (st.semantics.packages !== "namespaces") continue;
    const defs = st.record.definitions;
    const open = st.semantics.openModules === true;
    defs.forEach((d, i) => {
      const ns = d.parent >= 0 ? defs[d.parent]! : undefined;
      // (open modules: a class is a namespace too, and a top-level function is everyone's)
      if (ns && ns.kind !== "module" && !(open && TYPE_KINDS.has(ns.kind))) return;
      // types, and nested namespaces (C++ `port::Mutex` inside `namespace leveldb`)
      // (functions too, where they belong to their namespace: LanguageSemantics.globalNamespace)
      if (
        !TYPE_KINDS.has(d.kind) &&
        d.kind !== "type" &&
        d.kind !== "module" &&
        !(open && !ns && d.kind === "function") &&
        !(d.kind === "function" && st.semantics.globalNamespace)
      )
        return;
      // (open modules: `class A::B` belongs to A, wherever it is written)
      const key =
        `${st.record.language}:` +
        `${open ? d.qualified.slice(0, Math.max(0, d.qualified.length - d.name.length - 1)) : ns ? ns.qualified : ""}`;
      const names = packages.get(key) ?? packages.set(key, new Map()).get(key)!;
      const first = firstOf.get(`${key}\0${d.name}`);
      if (first === undefined) {
        firstOf.set(`${key}\0${d.name}`, symbolOf(st, i));
        names.set(d.name, symbolOf(st, i));
      } else if (st.spec?.homeFile?.(st.record.path, d.qualified)) {
        // A type opened in several files is named by the one its name says it lives in (Ruby `A::B` in a/b.rb).
        names.set(d.name, symbolOf(st, i));
      }
      if (TYPE_KINDS.has(d.kind) || (open && d.kind === "module"))
        (
          parts.get(first ?? symbolOf(st, i)) ?? parts.set(first ?? symbolOf(st, i), []).get(first ?? symbolOf(st, i))!
        ).push({ st, index: i });
    });
  }
  for (const group of parts.values()) {
    if (group.length < 2) continue;
    for (const owner of group) {
      for (const other of group) {
        if (other === owner) continue;
        other.st.record.definitions.forEach(
          (m, j) => m.parent === other.index && attach(symbolOf(owner.st, owner.index), symbolOf(other.st, j)),
        );
      }
    }
  }
  for (const st of list) {
    if (st.semantics.packages === "namespaces") {
      // `ns::T::m() {…}` written outside T's body (C++): a member of T, wherever T is declared.
      if (st.semantics.linkage)
        st.record.definitions.forEach((d, i) => {
          const owner = outOfLineOwnerIn(packages, st, i);
          if (owner !== undefined) attach(owner, symbolOf(st, i));
        });
      continue;
    }
    st.record.definitions.forEach((d, i) => {
      if (d.parent >= 0 || d.name === d.qualified) return;
      // `Type.method` at top level: the method of the type of that name in this file, else in its package.
      const owner = d.qualified.slice(0, d.qualified.length - d.name.length - 1);
      const local = st.top.get(owner);
      const id =
        local !== undefined && st.record.definitions[local]!.qualified === owner
          ? symbolOf(st, local)
          : st.packageKey !== undefined
            ? packages.get(st.packageKey)?.get(owner)
            : undefined;
      const kind = id !== undefined ? symbols[id]!.kind : undefined;
      if (id === undefined || (kind !== "type" && !TYPE_KINDS.has(kind!))) return;
      attach(id, symbolOf(st, i));
    });
  }
  return { packages, attached, linked };
}

/**
 * Functions with external linkage (LanguageSemantics.linkage) by name: the exported ones at file
 * level or inside namespaces only (not members, not nested in functions).
 */
function linkageTable(files: readonly FileState[]): Map<string, number[]> {
  const linked = new Map<string, number[]>();
  for (const st of files) {
    if (!st.semantics.linkage) continue;
    const defs = st.record.definitions;
    defs.forEach((d, i) => {
      if (d.kind !== "function" || !d.exported) return;
      for (let p = d.parent; p >= 0; p = defs[p]!.parent) if (defs[p]!.kind !== "module") return;
      (linked.get(d.name) ?? linked.set(d.name, []).get(d.name)!).push(symbolOf(st, i));
    });
  }
  return linked;
}

/** The files a file brings in through its star imports (C's `#include`), transitively (2,000 at most). */
function included(ctx: GraphContext, st: FileState): Set<string> {
  const out = new Set<string>();
  const queue = [st];
  for (let head = 0; head < queue.length && out.size < 2000; head++) {
    const cur = queue[head]!;
    for (const imp of cur.starImports) {
      const f = resolveImport(ctx, cur, imp).file;
      if (!f || out.has(f)) continue;
      out.add(f);
      const next = ctx.files.get(f);
      if (next) queue.push(next);
    }
  }
  return out;
}

/**
 * The path stems (`drivers/net/foo`) and base names (`foo`) of the files a file includes, for the
 * file whose calls are being linked. One file at a time: the calls of a file are linked together,
 * and a set per file kept for the whole build (up to 2,000 headers each) was gigabytes on the Linux
 * kernel's 55k files.
 */
let includedKeys: { memos: GraphContext["memos"]; st: FileState; stems: Set<string>; bases: Set<string> } | undefined;
function includedKeysOf(ctx: GraphContext, st: FileState): { stems: Set<string>; bases: Set<string> } {
  if (includedKeys?.st === st && includedKeys.memos === ctx.memos) return includedKeys;
  const stems = new Set<string>();
  const bases = new Set<string>();
  for (const h of included(ctx, st)) {
    stems.add(pathStem(h));
    bases.add(pathBase(h));
  }
  includedKeys = { memos: ctx.memos, st, stems, bases };
  return includedKeys;
}

const pathStem = (p: string) => p.replace(/\.[^./]+$/, "");
const pathBase = (p: string) => pathStem(p).slice(pathStem(p).lastIndexOf("/") + 1);

/**
 * A function with external linkage that a call of `name` in `st` reaches: the only one of that
 * name; among several, the one whose file pairs with a header the file includes (`db.c` for
 * `db.h`, same folder first, then same stem). Undefined when none or no single one.
 */
export function linkedMember(ctx: GraphContext, st: FileState, name: string): number | undefined {
  if (!st.semantics.linkage) return undefined;
  const ids = ctx.linked.get(name);
  if (!ids?.length) return undefined;
  // One function, or overloads of one name in one file (C++): they share a qualified name.
  const same = (list: readonly number[]) =>
    list.every((id) => ctx.symbols[id]!.qualified === ctx.symbols[list[0]!]!.qualified);
  if (same(ids)) return ids[0];
  const keys = includedKeysOf(ctx, st);
  for (const [key, wanted] of [
    [pathStem, keys.stems],
    [pathBase, keys.bases],
  ] as const) {
    const hits = ids.filter((id) => wanted.has(key(ctx.symbols[id]!.file)));
    if (hits.length && same(hits)) return hits[0];
    if (hits.length > 1) return undefined;
  }
  return undefined;
}

/**
 * The type a definition written outside its body belongs to (`void ns::T::m() {}` inside or outside
 * `namespace ns {…}`): its qualified name says more than its parents do; the type is looked up in
 * the namespace package its qualifier names.
 */
function outOfLineOwnerIn(
  packages: Map<string, Map<string, number>>,
  st: FileState,
  index: number,
): number | undefined {
  const defs = st.record.definitions;
  const d = defs[index]!;
  if (d.kind !== "method" && d.kind !== "constructor") return undefined;
  const parentQ = d.parent >= 0 ? defs[d.parent]!.qualified : "";
  if (d.parent >= 0 && defs[d.parent]!.kind !== "module") return undefined;
  const owner = d.qualified.slice(0, d.qualified.length - d.name.length - 1);
  if (!owner || owner === parentQ) return undefined;
  const dot = owner.lastIndexOf(".");
  return packages.get(`${st.record.language}:${dot > 0 ? owner.slice(0, dot) : ""}`)?.get(owner.slice(dot + 1));
}

/** The type an out-of-line method definition (C++ `T::m`) belongs to. */
export function outOfLineOwner(ctx: GraphContext, st: FileState, index: number): number | undefined {
  return st.semantics.linkage && st.semantics.packages === "namespaces"
    ? outOfLineOwnerIn(ctx.packages, st, index)
    : undefined;
}

/**
 * The definition behind a member declared without a body (a C++ method declared in its class and
 * defined out of line): an overload of the same name with its body in the class (the non-const
 * twin of a const method, a one-line forwarder: what a call on a plain object most often reaches),
 * else the attached member of the same name that has one, else the declaration.
 */
export function definitionBehind(ctx: GraphContext, id: number): number {
  const s = ctx.symbols[id]!;
  if (s.parent < 0 || (s.kind !== "method" && s.kind !== "constructor")) return id;
  const st = ctx.files.get(s.file)!;
  if (!st.semantics.linkage || st.record.definitions[s.index]!.bodyStart > 0) return id;
  const body = (m: number) =>
    ctx.files.get(ctx.symbols[m]!.file)!.record.definitions[ctx.symbols[m]!.index]!.bodyStart > 0;
  for (const m of ctx.children.get(s.parent) ?? [])
    if (m !== id && ctx.symbols[m]!.name === s.name && body(m)) return m;
  for (const m of ctx.attached.get(s.parent) ?? []) {
    const o = ctx.symbols[m]!;
    if (o.name === s.name && ctx.files.get(o.file)!.record.definitions[o.index]!.bodyStart > 0) return m;
  }
  return id;
}

/** A member of a namespace (C++ `ns::T`, `ns::f`): its types in any file's block of it, its functions with linkage. */
export function namespaceMember(ctx: GraphContext, ns: number, name: string): number | undefined {
  const s = ctx.symbols[ns]!;
  const d = defOf(ctx, ns);
  if (s.kind !== "module" || !d) return undefined;
  const inner = `${d.qualified}.${name}`;
  const type = ctx.packages.get(`${s.language}:${d.qualified}`)?.get(name);
  if (type !== undefined) return type;
  const fns = (ctx.linked.get(name) ?? []).filter((id) => defOf(ctx, id)?.qualified === inner);
  if (fns.length === 1) return fns[0];
  for (const c of ctx.children.get(ns) ?? [])
    if (ctx.symbols[c]!.name === name && defOf(ctx, c)?.qualified === inner) return c;
  return undefined;
}

/** A top-level name of the package a file belongs to (any of its files), if the language has packages. */
export function packageMember(ctx: GraphContext, st: FileState, name: string): number | undefined {
  return st.packageKey !== undefined ? ctx.packages.get(st.packageKey)?.get(name) : undefined;
}

/**
 * Open modules (Ruby): a method defined in a block at the top of a file the caller requires
 * (`RSpec.configure do def capture … end end` in spec/helper.rb). Such a block's definee is
 * Object, so the file that loads it may call the method bare; a block method of a file it does
 * not load (rspec's `describe … do def base … end end`, defined on an example group) is not its.
 */
export function requiredBlockMethod(ctx: GraphContext, st: FileState, name: string): number | undefined {
  for (const imp of st.record.imports) {
    const file = resolveImport(ctx, st, imp).file;
    const other = file !== undefined && file !== st.record.path ? ctx.files.get(file) : undefined;
    const i = other?.top.get(name);
    if (other && i !== undefined && other.record.definitions[i]!.kind === "method") return symbolOf(other, i);
  }
  return undefined;
}
