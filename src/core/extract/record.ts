/** The per-file record: plain, serializable facts extracted from one parse. */

/** A definition kind. Languages map their constructs onto these. */
export type DefinitionKind =
  | "function"
  | "method"
  | "constructor"
  | "getter"
  | "setter"
  | "class"
  | "interface"
  | "type"
  | "enum"
  | "struct"
  | "trait"
  | "module"
  | "macro"
  | "field"
  | "constant"
  | "property";

/** Kinds whose definitions have members and make instances. */
/** The names `bindings` binds as a field or in the body of a type of `definitions` (see FileRecord.fields). */
export function boundFieldNames(definitions: readonly Definition[], bindings: readonly BindingRecord[]): string[] {
  const names = new Set<string>();
  for (const b of bindings)
    if (b.kind === "field" || (b.scope >= 0 && TYPE_KINDS.has(definitions[b.scope]!.kind))) names.add(b.name);
  return [...names];
}

export const TYPE_KINDS: ReadonlySet<string> = new Set<DefinitionKind>([
  "class",
  "interface",
  "struct",
  "enum",
  "trait",
]);

/** One definition. Lines are 1-based and inclusive. */
export interface Definition {
  name: string;
  /** Dotted path inside the file: "Outer.inner". The graph prefixes the module. */
  qualified: string;
  kind: DefinitionKind;
  /** Index of the enclosing definition in `definitions`, or -1 at module level. */
  parent: number;
  /** First line including decorators/export wrapper, and last line. */
  start: number;
  end: number;
  /** Line and column (UTF-16, 0-based) of the name token. */
  nameLine: number;
  nameCol: number;
  /** Header text up to the body (e.g. `def send(self, request, **kwargs) -> Response:`). */
  signature: string;
  /** First line of the body (0 when it has none), so outlines can drop the body. */
  bodyStart: number;
  doc?: string;
  decorators?: string[];
  bases?: string[];
  implements?: string[];
  returns?: string;
  /** A method of the class itself, not of its instances (Ruby `def self.x` and `class << self`). */
  static?: true;
  /** Parameters in order, with annotated types as written. */
  params?: { name: string; type?: string }[];
  exported: boolean;
  /**
   * The search words of its own text (identifiers split, string literals, comments; nested
   * definitions excluded), space-separated: what a task in words is matched against.
   */
  terms?: string;
}

/** One import binding: a statement may yield several. */
export interface ImportRecord {
  kind:
    | "named"
    | "module"
    | "default"
    | "namespace"
    | "star"
    | "reexport"
    | "reexport-namespace"
    | "side-effect"
    | "require"
    | "dynamic"
    /** `export { a as b }` without a source, and `export default x` (module is ""). */
    | "export"
    | "export-default"
    /** The package the file itself declares (Go `package p`, Java `package a.b;`): binds nothing. */
    | "package"
    /**
     * A namespace the file declares (TypeScript `export namespace util { … }`, module ""): `alias`
     * names the file itself, whose top-level definitions its members are (the graph flattens
     * namespaces, as the compiler's symbol names do), so `util.joinValues()` reaches them.
     */
    | "self-namespace";
  /** The module as written ("./x.js", "..pkg.mod", "os.path"). */
  module: string;
  /** The imported name, when one is named. */
  name?: string;
  /** The local (or re-exported) name when it differs from `name`. */
  alias?: string;
  line: number;
  /** Index of the enclosing definition, or -1 at module level. */
  scope: number;
}

/** One call site. */
export interface CallRecord {
  name: string;
  /** The receiver expression as written, whitespace-collapsed ("self.session", "get_gateway()"). */
  receiver?: string;
  /** "new" for constructor calls written with `new`. */
  kind: "call" | "new";
  line: number;
  col: number;
  /** The enclosing definition (innermost, by name-to-end span), or -1 at module level. */
  caller: number;
  /**
   * The arguments as written (whitespace-collapsed, at most 8, each capped), kept only for calls
   * with a string-literal argument: route registrations, mounts, URL prefixes.
   */
  args?: string[];
  /** Last line of the call expression, with `args`. */
  end?: number;
  /**
   * How many arguments the call passes, where the language's query captures its argument list
   * (`@arity`: Java, C#, C++): which overloads of a name it can reach.
   */
  argc?: number;
  /**
   * A call the language makes for a statement or operator, not written as a call (`with x` →
   * `x.__enter__()`, `for … in x` → `x.__iter__()`, `a + b` → `a.__add__(b)`, Ruby's `x.name = v`
   * → `x.name=(v)`): linked only through the receiver's type, never by name alone.
   */
  protocol?: true;
}

/** A type named in an annotation or heritage clause. */
export interface TypeRefRecord {
  name: string;
  line: number;
  scope: number;
}

/** What a local name, parameter or field holds, as far as syntax says. */
export interface BindingRecord {
  /**
   * `global` marks a name declared `global`/`nonlocal`: it does not shadow the outer one. `return` is what an injected
   * parameter's provider returns or yields (LanguageSemantics.injected), named by the keyword: no identifier.
   */
  kind: "assign" | "param" | "field" | "global" | "return";
  name: string;
  /** The object a field is set on ("self", "this"). */
  receiver?: string;
  /** An annotated type, as written. */
  type?: string;
  /** The callee/constructor expression of the assigned value, as written. */
  value?: string;
  /** The assigned expression when it is a plain name or attribute chain (`x = other.attr`). */
  alias?: string;
  /**
   * The assigned expression when it builds a string (a literal, an f-string or template, a
   * concatenation), as written: route prefixes and constants resolve through it.
   */
  literal?: string;
  /** For a loop variable: the iterated expression (`for x in self.items`), typed by its element type. */
  iter?: string;
  /**
   * The last line the binding is visible on, when that is before its scope's end: a closure's
   * parameter (Go `func(r chi.Router) {…}`) shadows an outer name only inside the closure.
   */
  until?: number;
  /** For an untyped callback parameter: the call it is an argument of (see LanguageSpec.callbackSite). */
  argOf?: { callee: string; arg: number; param: number; isNew: boolean };
  /** A weak reference to `alias` (`r = weakref.ref(obj)`): `r()` is obj, `r` itself is not. */
  deref?: true;
  line: number;
  scope: number;
}

/** A problem found while reading a file; the index continues. */
export interface Diagnostic {
  line: number;
  /** The last line of the broken region, when it spans several. */
  end?: number;
  message: string;
}

/** Everything extracted from one file. */
export interface FileRecord {
  path: string;
  language: string;
  /** Content hash (git blob id). */
  hash: string;
  lines: number;
  /** The search words of module-level code (outside every definition), space-separated. */
  terms?: string;
  /**
   * The names this file binds as a field or in a class body, space-separated, each once, in the
   * order of `bindings`: what call resolution asks of every file (`fieldNames`), kept in the part
   * of a stored record read first so that the bindings of files an answer does not resolve stay
   * unread. Absent in a record made by hand: read from `bindings` then.
   */
  fields?: string;
  definitions: Definition[];
  imports: ImportRecord[];
  calls: CallRecord[];
  typeRefs: TypeRefRecord[];
  bindings: BindingRecord[];
  diagnostics: Diagnostic[];
}
