import type { Node } from "web-tree-sitter";
import type { ArityRange, ParameterSyntax } from "./arity.ts";
import type { SinkKind } from "../shared/host-environment.ts";

/**
 * What a language folder provides: grammar, file extensions, tree-sitter queries with standard
 * capture names, and a few declarative switches the generic extractor reads. Import resolution
 * hooks (pure functions over paths) are added per language by the graph layer.
 */

/** How documentation is attached to a definition. */
export type DocStyle =
  /** The first statement of the body is a string literal (Python). */
  | "body-string"
  /** Comments right above the definition (or above its export/decorators). */
  | "preceding-comment";

/** How a definition is judged exported (visible to other modules). */
export type ExportStyle =
  /** Wrapped in an `export` statement (TS/JS), or assigned to `module.exports`. */
  | "export-statement"
  /** Module-level and not starting with "_" (Python). */
  | "underscore-private"
  /** Starts with an upper-case letter (Go). */
  | "capitalized"
  /** Carries a `public`/`pub` modifier (Java, C#, Rust, PHP). */
  | "public-modifier"
  /** Everything at top level (Ruby). */
  | "top-level"
  /** Everything not declared `private` (Kotlin: public by default). */
  | "unless-private"
  /** Top level or in a namespace, unless declared `static` (C, C++: internal linkage). */
  | "storage-class";

/** Where an untyped callback parameter sits: argument `arg` of a call to `callee`, parameter `param`. */
export interface CallbackSite {
  callee: string;
  arg: number;
  param: number;
  isNew: boolean;
}

/**
 * How a language's modules, names and objects behave: what the graph's resolution rules read, so
 * the core names no language. Languages that give none get `DEFAULT_SEMANTICS`.
 */
export interface LanguageSemantics {
  /**
   * What another file can import from a module: `explicit` (export statements and exported
   * definitions), `top-level` (every module-level name), or `explicit-or-top-level` (explicit
   * first, then any top-level definition, as CommonJS modules are read).
   */
  exports: "explicit" | "top-level" | "explicit-or-top-level";
  /** A name both defined and imported at module level means whichever binding comes later. */
  laterBindingWins?: boolean;
  /** A star import binds the imported module's names in the importing module's own scope (else it only re-exports). */
  starImportsBind?: boolean;
  /** `super(…)` calls the base class's constructor (else `super()` is an object whose attributes are the bases'). */
  superCallsConstructor?: boolean;
  /** Names for the current instance inside a method (`self`, `this`), and for the class itself (`cls`). */
  instanceNames: readonly string[];
  classNames: readonly string[];
  /** A function defined directly in a class body is a method. */
  classFunctionsAreMethods?: boolean;
  /** Code directly in a class body runs once, when the class is defined (not on each construction). */
  classBodyRunsOnce?: boolean;
  /** How an outline shows a body: by indentation after a colon, or between braces. */
  blocks: "indent" | "braces";
  /**
   * Files that declare the same package share their top-level names (an import record of kind
   * `package` declares it): `folder` when a package is also one folder (Go: `p` and `p_test` in one
   * folder are two packages), `declared` when the declaration alone names it (Java: main and test
   * roots hold one package), `namespaces` when namespace blocks (definitions of kind `module`)
   * are the packages and a type may be split over files (C# `partial class`).
   */
  packages?: "folder" | "declared" | "namespaces";
  /** Inside a method, the members of the enclosing classes (inherited ones too) are in scope unqualified (Java, C#). */
  classMembersInScope?: boolean;
  /** A called bare name is a method or function, never a variable: they live in separate namespaces (Java). */
  callsNameMethods?: boolean;
  /**
   * First segments of a `::` path that the module resolver places (`crate`, `self`, `super`): such
   * a path in an expression resolves like an import.
   */
  pathRoots?: readonly string[];
  /**
   * Classes and modules are open (Ruby): a module holds methods and is mixed into classes as a base
   * (`include`), so it is a type; a class or module opened in several files, or under a path
   * (`class A::B`), is one, registered under its full path.
   */
  openModules?: boolean;
  /**
   * The method that constructs an instance when called on a class (Ruby `K.new`): bare, or on
   * `self` / `self.class`, it constructs the enclosing class.
   */
  constructorMethod?: string;
  /**
   * A string literal is an instance of the project's class of this name, when it (re)opens it (Ruby `class String`).
   */
  stringClass?: string;
  /**
   * A method named without parentheses is called (Ruby `Rake.application.options`): as a receiver or a value, a
   * method stands for what it returns.
   */
  namedMethodsAreCalled?: boolean;
  /** The method an instance answers its class with (Ruby `self.class`): `x.class.m` is the class's `m`. */
  classOfInstance?: string;
  /** Instance variables carry this sigil (Ruby `@x`): `@x` is a field of the current instance. */
  fieldSigil?: string;
  /** A bare `super` calls the method of the same name in the bases (Ruby), not a constructor. */
  superCallsSameMethod?: boolean;
  /** The word for the base class (`super`; C#'s `base`). */
  superName?: string;
  /** `this(…)` calls another constructor of the same class. */
  thisCallsConstructor?: boolean;
  /** Built-in functions that return a new instance of the type they are given (Go `new(T)`). */
  allocators?: readonly string[];
  /** Calling a type converts a value (Go `T(x)`): no constructor runs, so no edge. */
  typeCallsConvert?: boolean;
  /**
   * Declared types are checked by a compiler: a name declared with a type outside the project is
   * an outside object (its calls are external), and a call is never linked by its name alone (on
   * chi, mux and cobra 22 of 239 such Go links were right).
   */
  staticTypes?: boolean;
  /**
   * A type implements every interface whose methods it has (Go): implements edges come from method
   * sets, not from a declared clause.
   */
  structuralInterfaces?: boolean;
  /**
   * Functions not declared `static` are one program-wide namespace, reached through declarations in
   * headers (C, C++): a called name no scope or include answers is the definition of that name in
   * any file, or among several the one whose file pairs with an included header (`db.c`, `db.h`).
   */
  linkage?: boolean;
  /** `p[i]` is an element of the type `p` points to (C, C++: a declared `T* p` or `T p[]`). */
  pointerSubscripts?: boolean;
  /**
   * Namespaces are written with this separator (`\A\B\C`, relative `B\C`): such a name is
   * resolved as the namespace path it spells, absolute with a leading separator, else through the
   * import alias of its first segment or the enclosing namespace; an import binding comes before a
   * name of the enclosing namespace.
   */
  namespaceSeparator?: string;
  /**
   * Fields and methods are separate namespaces: a member read without a call (`$this->x`) is the field even where a
   * method `x()` exists.
   */
  fieldsApart?: boolean;
  /**
   * A member is written `a->b` (and `a?->b`) in the source text of bindings: read as `a.b` (call receivers already
   * are).
   */
  arrowMembers?: boolean;
  /**
   * Functions belong to their namespace as types do (reached from its other files), and a name no
   * namespace, import or file answers falls back to the global namespace (functions and classes
   * declared outside any namespace).
   */
  globalNamespace?: boolean;
  /**
   * Methods of one name in one type are overloads told apart by their parameters: a call links to
   * those whose parameter count (LanguageSpec.arity) accepts its argument count, and to all of them
   * when none does or the count is unknown. `inherited` (Java, C#): when none of the class's own
   * overloads accepts the count, its bases' overloads are looked at; `hidden` (C++): a class that
   * declares the name hides its bases' overloads of it.
   */
  overloads?: "inherited" | "hidden";
  /**
   * Parameters a test framework fills by name (pytest fixtures): such a parameter holds what the
   * provider of its name returns. See InjectedParams.
   */
  injected?: InjectedParams;
}

/**
 * How a framework injects parameters by name (pytest's fixtures): which functions provide a value
 * and under what name, which functions receive them, and which files share their providers with a
 * folder. A receiving function's untyped parameter is typed by the nearest provider of its name: a
 * provider in the same class, then the same file, then the shared files of its folder and of each
 * folder above; the value is the provider's return annotation, or what its `return`/`yield`
 * holds (bindings of kind `return`, recorded in providers only).
 */
export interface InjectedParams {
  /** A decorator that makes a function a provider; group `name`, when it matches, is the name it provides. */
  provider: RegExp;
  /** Names of functions that receive injected parameters besides the providers themselves (`test…`). */
  receiver: RegExp;
  /** The file name whose providers every file in its folder and below sees (`conftest.py`). */
  sharedFile: string;
}

/** The semantics of a language that does not say otherwise. */
export const DEFAULT_SEMANTICS: LanguageSemantics = {
  exports: "explicit",
  superCallsConstructor: true,
  instanceNames: ["self", "this"],
  classNames: ["cls"],
  blocks: "braces",
};

/** A supported language. */
/** What rename needs to know of a language: its identifiers, its keywords, the languages it shares names with. */
export interface RenameRules {
  /**
   * Languages with the same `family` can name each other's symbols (TypeScript imports
   * JavaScript): a rename looks for the name in all of them.
   */
  family: string;
  /** A whole valid identifier. */
  identifier: RegExp;
  /** Words that cannot name a symbol (keywords and reserved words). */
  keywords: ReadonlySet<string>;
}

export interface LanguageSpec {
  /** Stable id, also the folder name. */
  id: string;
  /** Present for the languages rename handles. */
  rename?: RenameRules;
  /** Display name. */
  name: string;
  /** The name SCIP's `Language` enum gives it, when that is not `name` (C++ is "CPP"). */
  scipName?: string;
  /** The grammar file in `wasm/`. */
  grammar: string;
  /**
   * Where scripts/sync-wasm.mjs gets the grammar: a file inside a pinned npm package, or a grammar
   * scripts/build-grammars.mjs builds (by its name there). wasm/wasm.lock.json records the same.
   */
  grammarSource?: { package: string; path: string } | { build: string };
  /** Lower-case extensions including the dot. */
  extensions: readonly string[];
  /**
   * Lower-case names of the language's runtimes, compilers, package managers and hosts, as bug
   * reports write them in version lines (`Python 3.11`, `npm 10.2`): such lines say nothing about
   * the code and are left out of a task's words.
   */
  toolchain?: readonly string[];
  /**
   * Rewrites a file's text before it is parsed, keeping its length and every line and column (C and
   * C++ blank export macros the grammar cannot read: `class LEVELDB_EXPORT DB {`).
   */
  sourceForParse?: (text: string) => string;
  /**
   * For a type opened in several files (a Ruby class reopened): true when `path` is the file its
   * qualified name says it lives in (`Thor.Base` in `…/thor/base.rb`), which then names it.
   */
  homeFile?: (path: string, qualified: string) => boolean;
  /**
   * What joins a method of the class itself (static: Ruby's `def self.x` and a `def` in `class << self`) to its class
   * in its qualified name, instead of `.`, so that it never shares the name of an instance method of the same name:
   * Ruby's `::` (`Rake.FileList::glob`, as `ri` writes a class method; `Rake.FileList.glob` is the instance method).
   */
  staticMemberSeparator?: string;
  /**
   * A doc comment's text once its comment markers are gone, as a reader wants it (C#'s XML doc comments without their
   * tags: `<summary>Reads.</summary>` is `Reads.`). Default: as it is.
   */
  docText?: (text: string) => string;
  /**
   * Extensions of another language this one takes in a project where its own source files
   * outnumber the other's (C++ takes `.h` from C): see `languagesForProject`.
   */
  sharedExtensions?: readonly string[];
  /**
   * The tree-sitter query. Capture names:
   * - `@definition.<kind>` on a definition node, `@name` on its name, `@body` on its body,
   *   `@base` / `@base.implements` on base classes, `@returns` on a return annotation,
   *   `@qualifier` on the type a method belongs to when the source does not nest it (Go receivers,
   *   Rust `impl` blocks): the method is then named `Type.method`;
   *   several patterns may capture the same definition node and their captures merge;
   *   `(#set! extent "siblings")` makes a definition reach over the siblings after it, up to the
   *   next node of its type (PHP's `namespace A;`).
   * - `@reference.call` / `@reference.new` on a call, `@name` on the callee token, `@receiver` on
   *   the object it is called on; `@reference.type` with `@name` for a type mentioned (without
   *   `@name`, the node `@reference.type` captures). Protocol calls: `(#set! protocol "m1 m2")`
   *   on an operand `@receiver`; one pattern for every operator of a node type pairs
   *   `(#set! operators "+ - …")` with `(#set! protocol "__add__ __sub__ …")` by place and reads
   *   the `@operator` captured (a pattern per operator started a match state per operator).
   * - `@import` on an import statement with `@import.module`, `@import.name`, `@import.alias`, and
   *   `(#set! kind "...")` where the kind is not "named".
   * - `@local.assign` / `@local.param` / `@local.field` with `@name` and `@type` or `@value`:
   *   what a local name or field holds, for receiver typing; `@extent` on the node it is visible
   *   in when that ends before its scope does (a closure's parameters). A `@value` that calls a
   *   wrapper is unwrapped by `(#set! unwrap.alias|unwrap.deref|unwrap.type "TYPES… REGEX")` and
   *   `(#set! unwrap.arguments "LIST_TYPE")`: the call's first argument, when of one of TYPES, is
   *   the alias (dereferenced) or the type (Python's `partial`, `weakref.ref`, `cast`).
   * - `(#set! below-root "N")`: the match counts only when its main node is N levels below the
   *   root (the top of a module), said without a pattern rooted at the root node, which keeps a
   *   match state alive over the whole file. Text predicates (`#match?`, `#eq?`) are evaluated in
   *   JS on every match tree-sitter finds: prefer these properties where a pattern would match often.
   */
  query: string;
  /** Node types that are decorators/annotations (collected from the definition and around it). */
  decoratorTypes: readonly string[];
  /** Node types that hold decorators among other modifiers (Java's `modifiers`). */
  decoratorContainers?: readonly string[];
  /** Node types that wrap a definition without being one (export statements, decorated wrappers). */
  wrapperTypes: readonly string[];
  /** Node types of comments. */
  commentTypes: readonly string[];
  docStyle: DocStyle;
  exportStyle: ExportStyle;
  /** True if the language gets calls, types and bindings extracted (full depth). */
  fullDepth: boolean;
  /**
   * Method names of the language's built-in types (str, list, dict / Array, Map, Promise…). A call
   * through an untyped receiver with one of these names is never linked to a project definition by
   * name alone: `rows.append(x)` is far likelier a list than the one `append` the project defines.
   */
  builtinMethods?: ReadonlySet<string>;
  /**
   * Globals the language itself defines (ECMAScript's `JSON`, `Math`, `Object`): a call through a receiver rooted at
   * one that the file does not bind is the language's, never linked to a project definition by name alone
   * (`JSON.parse(…)` is no call of the one `parse` the project defines). The globals a host adds (a server's, a
   * browser's) are no part of the language: they come from the engine's host environment (`HostEnvironment`).
   */
  globals?: ReadonlySet<string>;
  /**
   * A class body's line read as a field the `name?: Type;` form misses (`public readonly code;`, `#x = 1;`), as name
   * and type, or undefined (shape_check's model fields). A Java `int x;` is read by no such hook.
   */
  classFieldLine?: (line: string) => [string, string] | undefined;
  /** What ends a field line of a struct or class in an outline (default `;`; Rust separates fields with `,`). */
  fieldTerminator?: string;
  /**
   * The argument counts a function or method accepts, from its signature as written (see
   * `parameterRange` in ./arity.ts): what picks among overloads (LanguageSemantics.overloads).
   * Undefined when the signature does not tell.
   */
  arity?: (signature: string, name: string) => ArityRange | undefined;
  /** How parameters and arguments are written: what lets `changes` check call sites against a changed signature. */
  parameters?: ParameterSyntax;
  /** Locates an untyped callback parameter (given its name token) for contextual typing. */
  callbackSite?: (name: Node) => CallbackSite | undefined;
  /**
   * Joins the module paths a nested import tree captures, outermost first (`use a::{b::{c}}` → the
   * module `a::b`); without it the outermost path is the module.
   */
  importPathJoin?: string;
  /**
   * Matched against a method's signature: group 1 is the type it extends when its first parameter
   * is marked as the receiver (C# `static R M(this T x, …)`), so `value.M()` reaches it where its
   * namespace is in scope.
   */
  extensionReceiver?: RegExp;
  /**
   * A bare name that reads as a type when nothing in scope binds it (C# `Math`, `double`): no extension method is
   * called on it.
   */
  typeNamePattern?: RegExp;
  /** Module resolution for imports; languages without one scope nothing by import. */
  resolver?: ModuleResolver;
  /** Resolution semantics (default: DEFAULT_SEMANTICS). */
  semantics?: LanguageSemantics;
  /** The language tag of a Markdown code fence (`python`, `ts`); default: the id. */
  fence?: string;
  /** HTTP route registrations the frameworks of this language write (see RouteRules). */
  routes?: RouteRules;
  /** How its test runners name and run tests (see TestConventions). */
  tests?: TestConventions;
  /**
   * The command lines that run its tests which `runTests` may start (`pytest`, `go test`), as their
   * argv begins: nothing else is run. `name` is what a refusal lists.
   */
  testRunners?: readonly AllowedRunner[];
  /** Names of its test frameworks as tasks write them (`pytest`, `vitest`): words about tests, not about the code. */
  testFrameworks?: readonly string[];
  /**
   * Manifests of its package managers by file name (`go.mod`), each with a pattern whose group 1 is
   * the package's name (undefined: the file names none). A name starting with `*` matches by suffix
   * (`*.csproj`), and the file's name is then the package's. A folder with one is a service on the map.
   */
  manifests?: Readonly<Record<string, RegExp | undefined>>;
  /** Names its constructors are declared with (`__init__`, `constructor`): a class's brief lists them first. */
  constructorNames?: readonly string[];
  /** Its keywords: too common in its code to tell anything apart in a search. */
  keywords?: readonly string[];
  /** Decorators that make a definition an entry point: a CLI command, a task, an event handler (`@click.command`). */
  commandDecorators?: RegExp;
  /**
   * Files that each define one command, named after the file, and the method that runs it
   * (Django's `management/commands/<name>.py` with `handle`): entry points of the flows.
   */
  commandFiles?: { path: RegExp; method: string };
  /** Fence tags for extensions whose tag is not `fence` (`.jsx` → `jsx`), by lower-case extension with the dot. */
  fenceByExtension?: Readonly<Record<string, string>>;
  /** Present for the languages statement-level data flow reads (see DataflowRules). */
  dataflow?: DataflowRules;
}

/** A test command `runTests` may start: its name, and whether an argv is one of its command lines. */
export interface AllowedRunner {
  name: string;
  matches(argv: readonly string[]): boolean;
}

/** What a data-flow sink does with what reaches it; what the hosts add to a language (`HostEnvironment`). */
export type { HostEnvironment, SinkKind } from "../shared/host-environment.ts";

/**
 * What statement-level data flow (`core/dataflow`) reads in one language's syntax tree, and the
 * patterns its web frameworks use for user input and for the calls input must not reach
 * unchecked. Node types and field names are the grammar's; patterns match an expression's text
 * with whitespace removed.
 */
export interface DataflowRules {
  /** Node types of functions (a nested one is read as part of the function that holds it). */
  functions: readonly string[];
  /** Node types of statement blocks: a definition inside one reaches only what the block holds. */
  blocks: readonly string[];
  /** Node types that name a variable. */
  identifiers: readonly string[];
  /** Bindings: `type` with the field holding the target and the one holding the value ("" = first named child). */
  assignments: readonly { type: string; target: string; value: string; augmented?: boolean; loop?: boolean }[];
  /** Calls: node type and the fields of the callee and of the argument list. */
  call: { type: string; function: string; arguments: string };
  /** Member access: node type and the field of the object (`a` in `a.b`). */
  member: { type: string; object: string; property: string };
  /** Node types of return statements. */
  returns: readonly string[];
  /** Identifiers that are not a read of a variable: [parent type, field] (`b` in Python's `a.b`, `k` in `f(k=1)`). */
  notUses: readonly (readonly [string, string])[];
  /** Parameter node types whose pattern is a field (`required_parameter` → `pattern`), else the first identifier. */
  parameterFields: Readonly<Record<string, string>>;
  /** Where user input enters: matched against member expressions (`request.form`, `c.req.json`). */
  sources: readonly { pattern: RegExp; label: string }[];
  /** Calls input should not reach unchecked: matched against a call's callee text. */
  sinks: readonly { pattern: RegExp; kind: SinkKind }[];
  /**
   * For a route handler, whether a parameter (its text, annotation and default included) is
   * filled by the framework from the request (path, query, body); absent: no parameter is.
   */
  routeParameter?: (text: string) => boolean;
}

/**
 * How the web frameworks of a language register HTTP routes, as patterns over the facts the index
 * already holds (decorator texts, call names and their string arguments). The route finder knows
 * no framework: it applies these.
 */
export interface RouteRules {
  /**
   * Decorators that register the definition below them: the pattern's named groups are `owner`
   * (the router object, whose prefix applies), `verb` (an HTTP method, or `route`/`api_route` whose
   * `methods=[…]` list them) and `path`.
   */
  decorators?: readonly RegExp[];
  /**
   * Decorators on a class whose `path` group prefixes the routes of its methods, and the method
   * decorators they go with (groups `verb` and `path`; a `verb` of `Request` reads `RequestMethod.X`).
   */
  classPrefix?: readonly RegExp[];
  memberDecorators?: readonly RegExp[];
  /** Calls `receiver.verb("/path", handler)` register a route when `verb` is one of these. */
  callVerbs?: readonly string[];
  /** Keyword arguments that give a router object its own prefix (`prefix=`, `url_prefix=`). */
  prefixKeywords?: readonly string[];
  /** Calls that mount a router under a prefix (`include_router`, `use`, `register_blueprint`). */
  mountCalls?: readonly string[];
}

/** What the resolver hooks may know about the project: its files and its config files' text. */
export interface ProjectFiles {
  /** True if the workspace-relative path is a file in the inventory. */
  has(path: string): boolean;
  /** The text of a config file (tsconfig.json, package.json, …) in the inventory, if any. */
  config(path: string): string | undefined;
  /** All inventory paths (for resolvers that precompute tables). */
  paths(): Iterable<string>;
}

/** Where an import statement leads. */
export interface ResolvedImport {
  /** The file of the imported module, when it is in the project. */
  file?: string;
  /** For `from pkg import name`: the file of `pkg.name` when that is itself a module. */
  submodule?: string;
  /** True when the module is outside the project (a package, the standard library). */
  external: boolean;
  /** Every file of an imported package (Go packages, Java `import a.b.*`): each gets an import edge. */
  files?: string[];
  /**
   * The imported name is a member of these nested definitions of `file`, outermost first: Java's
   * `import a.b.C.Inner` and `import static a.b.C.m` are `within: ["C"]`.
   */
  within?: string[];
}

/** Per-language module resolution: pure functions over paths and config text. */
export interface ModuleResolver {
  /** Builds per-project tables once (tsconfig paths, Python source roots). */
  prepare(project: ProjectFiles): unknown;
  /** Config files it reads through `ProjectFiles.config` (beyond tsconfig/package.json): `go.mod`. */
  configs?: RegExp;
  /** The name a whole-module import binds when it has no alias (Go: the package name the path ends in). */
  localName?(module: string): string;
  /**
   * Resolves `module` (as written in `fromPath`), optionally with the imported `name`; `enclosing`
   * names the module definitions around the import statement (inline modules), outermost first.
   */
  resolve(
    state: unknown,
    fromPath: string,
    module: string,
    name: string | undefined,
    enclosing?: readonly string[],
  ): ResolvedImport;
  /**
   * The dotted module name code elsewhere imports this file by (`pkg.mod`), when the language
   * names modules that way: symbols are then qualified `pkg.mod.Class.method` instead of
   * `path#Class.method`.
   */
  moduleName?(state: unknown, path: string): string | undefined;
  /** The module file `name` names inside the package `file` is the entry of (`from pkg import mod`), if any. */
  submodule?(state: unknown, file: string, name: string): string | undefined;
}

/** A definition around a site, as test conventions read it. */
export interface TestScope {
  name: string;
  kind: string;
  decorators?: readonly string[];
  bases?: readonly string[];
  start: number;
  end: number;
}

/**
 * A call of the file; calls with a string-literal argument carry their arguments and last line (`describe("…", …)`).
 */
export interface TestCallSite {
  name: string;
  receiver?: string;
  line: number;
  end?: number;
  args?: readonly string[];
}

/** A place in a file that may be inside a test: what a language's test conventions read. */
export interface TestSite {
  path: string;
  /** The definitions enclosing `line`, outermost first (none at module level). */
  scope: readonly TestScope[];
  line: number;
  /** The file's calls, in file order. */
  calls: readonly TestCallSite[];
}

/** A test, or a group of tests, as its runner names it. */
export interface TestCase {
  /**
   * The runnable id in the runner's own syntax: a pytest node id, a `-t` full name (describe and
   * test titles joined by spaces), a Go test function, a libtest path, a JUnit `Class#method`.
   */
  id: string;
  /** The test's own lines. */
  start: number;
  end: number;
  /** A group (a describe block, a test class) whose tests all run under this id. */
  group?: boolean;
  /** Runs once per parameter set; the id selects every set. */
  parametrized?: boolean;
}

/** One test the command should run: its id, and its file relative to the runner's folder. */
export interface TestToRun {
  path: string;
  id: string;
  /** The whole file (or package, or class) rather than one named test. */
  file?: boolean;
  /** A named group (a describe block, a test class): every test under it. */
  group?: boolean;
}

/** A test runner: the files that show a project uses it, and the command that runs chosen tests. */
export interface TestRunner {
  id: string;
  name: string;
  /**
   * Files that select it: a path pattern and, optionally, a pattern its text must contain. The
   * nearest folder (from the test file up) holding a matching file wins; its folder is where the
   * command runs.
   */
  detect: readonly { file: RegExp; contains?: RegExp }[];
  /** Command lines (each runnable alone, from the runner's folder) that run exactly `tests`. */
  commands(tests: readonly TestToRun[]): string[];
}

/**
 * How a language's test runners find and name tests: data and small pure hooks, so the core names
 * no runner. The core finds which code reaches a symbol; these say which of it is a test, and how
 * to run it.
 */
export interface TestConventions {
  /** Files that hold tests (default: the generic pattern of tests/ folders, test_*, *_test.*, *.test.*, *.spec.*). */
  file?: RegExp;
  /** The test at `site`, or undefined when the site is in no test (a helper, module code outside a test). */
  testAt(site: TestSite): TestCase | undefined;
  /**
   * Whether a scope holds test code though its file is no test file: Rust's `#[cfg(test)] mod tests { … }` inside a
   * product file, whose functions (the tests and their helpers) only a test build compiles. Sites inside it are test
   * code as a test file's are.
   */
  testScope?(scope: TestScope): boolean;
  /** The id that runs every test of a file (a path, a Go package, a test class); default: the path. */
  fileId?(path: string, topLevel: readonly TestScope[]): string;
  /** Runners in the order they are preferred; the first is assumed when no project file names one. */
  runners: readonly TestRunner[];
}
