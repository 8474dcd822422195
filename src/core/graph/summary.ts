/**
 * A file's outward shape (rust-analyzer's ItemTree idea): what other files can see of it. Two
 * records with the same shape resolve every other file's calls the same way, so an edit that
 * keeps it (a changed body, a moved function) only needs its own file resolved again.
 */
import type { FileRecord, ImportRecord } from "../extract/record.ts";

/** The local name an import binds, if it binds one. */
export function bindingName(imp: ImportRecord): string | undefined {
  switch (imp.kind) {
    case "module":
      return imp.alias ?? imp.module.split(".")[0];
    case "named":
      return imp.alias ?? imp.name?.split(".").at(-1);
    case "default":
    case "namespace":
    case "reexport-namespace":
    case "self-namespace":
      return imp.alias;
    case "require":
    case "dynamic":
    case "side-effect":
    case "star":
    case "reexport":
    case "export":
    case "export-default":
    case "package":
      return undefined;
  }
}

const shapes = new WeakMap<FileRecord, string>();

/** Definitions whose bindings are a body's locals. */
const CALLABLE: ReadonlySet<string> = new Set(["function", "method", "constructor", "getter", "setter"]);

/**
 * The bindings other files can reach: every one but a function's plain locals (`x = …` inside a
 * body), which only resolve names inside that body. A function's locals are kept when a field is
 * set in it or in a scope nested in it (`self.x = y` types the field through the local `y`, and
 * a class defined in a function resolves its fields through the function's locals).
 */
export function reachableBindings(record: FileRecord): FileRecord["bindings"] {
  const defs = record.definitions;
  const isLocal = (b: FileRecord["bindings"][number]) =>
    b.kind === "assign" && b.scope >= 0 && CALLABLE.has(defs[b.scope]?.kind ?? "");
  const fieldScopes = new Set<number>();
  for (const b of record.bindings) {
    // (what a provider returns — LanguageSemantics.injected — is read through its locals too)
    if (b.kind !== "field" && b.kind !== "return" && (b.kind !== "assign" || b.scope < 0 || isLocal(b))) continue;
    for (let s = b.scope; s >= 0 && !fieldScopes.has(s); s = defs[s]?.parent ?? -1) fieldScopes.add(s);
  }
  return record.bindings.filter((b) => !isLocal(b) || fieldScopes.has(b.scope));
}

/**
 * What other files can see of a file, as a string to compare: its definitions without positions,
 * docs, signature text or search words (names, kinds, nesting, bases, parameter and return types,
 * decorators, exports), its imports without lines, its bindings but a function's plain locals
 * (see `reachableBindings`: fields resolve through their method's locals, so those stay), and, for
 * a name both imported and defined at top level, which comes later.
 */
export function outwardShape(record: FileRecord): string {
  let shape = shapes.get(record);
  if (shape !== undefined) return shape;
  const defs = record.definitions;
  const lastImportLine = new Map<string, number>();
  for (const imp of record.imports) {
    const name = imp.scope < 0 ? bindingName(imp) : undefined;
    if (name) lastImportLine.set(name, Math.max(lastImportLine.get(name) ?? 0, imp.line));
  }
  shape = JSON.stringify([
    defs.map(
      ({ start: _s, end: _e, nameLine: _l, nameCol: _c, bodyStart: _b, doc: _d, signature: _g, terms: _t, ...rest }) =>
        rest,
    ),
    record.imports.map(({ line: _l, ...rest }) => rest),
    reachableBindings(record).map(({ line: _l, ...rest }) => rest),
    defs
      .filter((d) => d.parent < 0 && lastImportLine.has(d.name))
      .map((d) => [d.name, d.start > lastImportLine.get(d.name)!]),
  ]);
  shapes.set(record, shape);
  return shape;
}

/** Fields of a definition that are not part of its outward shape (see `outwardShape`). */
const NOT_SHAPE: ReadonlySet<string> = new Set([
  "start",
  "end",
  "nameLine",
  "nameCol",
  "bodyStart",
  "doc",
  "signature",
  "terms",
]);
const LINE: ReadonlySet<string> = new Set(["line"]);
const NONE: ReadonlySet<string> = new Set();

/** Whether two values would print the same JSON, `skip` keys of the outer object left out. */
function sameValue(a: unknown, b: unknown, skip: ReadonlySet<string> = NONE): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameValue(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const kx = Object.keys(x).filter((k) => !skip.has(k) && x[k] !== undefined);
  const ky = Object.keys(y).filter((k) => !skip.has(k) && y[k] !== undefined);
  if (kx.length !== ky.length) return false;
  for (let i = 0; i < kx.length; i++) if (kx[i] !== ky[i] || !sameValue(x[kx[i]!], y[kx[i]!])) return false;
  return true;
}

const sameList = <T>(a: readonly T[], b: readonly T[], skip: ReadonlySet<string>) =>
  a.length === b.length && a.every((x, i) => sameValue(x, b[i], skip));

/**
 * `outwardShape(a) === outwardShape(b)`, compared in place instead of printed: printing the shape
 * of django's query.py cost ~15 ms of a one-file edit.
 */
export function sameOutwardShape(a: FileRecord, b: FileRecord): boolean {
  const sa = shapes.get(a);
  const sb = shapes.get(b);
  if (sa !== undefined && sb !== undefined) return sa === sb;
  if (!sameList(a.definitions, b.definitions, NOT_SHAPE) || !sameList(a.imports, b.imports, LINE)) return false;
  if (!sameList(reachableBindings(a), reachableBindings(b), LINE)) return false;
  const order = (record: FileRecord) => {
    const lastImportLine = new Map<string, number>();
    for (const imp of record.imports) {
      const name = imp.scope < 0 ? bindingName(imp) : undefined;
      if (name) lastImportLine.set(name, Math.max(lastImportLine.get(name) ?? 0, imp.line));
    }
    return record.definitions
      .filter((d) => d.parent < 0 && lastImportLine.has(d.name))
      .map((d) => d.start > lastImportLine.get(d.name)!);
  };
  return sameValue(order(a), order(b));
}
