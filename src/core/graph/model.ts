/** The code graph's data: symbols, edges with how they were resolved, and adjacency. */
import type { BindingRecord, DefinitionKind, FileRecord, ImportRecord } from "../extract/record.ts";
import type { ArityRange } from "../../languages/arity.ts";
import type {
  LanguageSemantics,
  LanguageSpec,
  ModuleResolver,
  ProjectFiles,
  ResolvedImport,
} from "../../languages/types.ts";
import type { PairMemo } from "./bounded-memo.ts";

/**
 * How an edge was resolved, most trusted first. `via-base`: the call resolved to a base-class or
 * interface method, and this edge goes to an override or implementation that dynamic dispatch can
 * reach instead.
 */
/** `route`: an HTTP client call whose URL matches a route's path template, linked to the route's handler. */
export type Resolution = "scope" | "import" | "self" | "type" | "via-base" | "route" | "unique-name" | "ambiguous";

/** Confidence per resolution rule; an agent can filter on it. */
export const CONFIDENCE: Record<Resolution, number> = {
  scope: 0.95,
  import: 0.95,
  self: 0.9,
  type: 0.85,
  "via-base": 0.6,
  route: 0.8,
  "unique-name": 0.5,
  ambiguous: 0.2,
};

/** A definition or a module (the pseudo-symbol module-level code belongs to). */
export interface SymbolNode {
  id: number;
  file: string;
  language: string;
  /** Index in the file's definitions; -1 for the module symbol. */
  index: number;
  name: string;
  qualified: string;
  kind: DefinitionKind | "module";
  /** Symbol id of the enclosing definition, or of the module symbol; -1 for a module. */
  parent: number;
  start: number;
  end: number;
  nameLine: number;
}

/** A call (or constructor call) from one symbol to another. */
export interface CallEdge {
  caller: number;
  callee: number;
  file: string;
  line: number;
  via: "call" | "constructor" | "super";
  resolution: Resolution;
  confidence: number;
  /**
   * The call sits in a class body that runs once, when the class is defined (Python): the class is
   * its caller, but calling the class does not run it, so walks up the callers stop here.
   */
  classBody?: true;
  /**
   * A call the language makes for a statement or operator (`with x` → `__enter__`, `a + b` →
   * `__add__`), not written as a call: a compiler's reference list (SCIP) holds none of these.
   */
  protocol?: true;
}

/** A call into code outside the project (a package, the standard library, a builtin). */
export interface ExternalCall {
  caller: number;
  /** `module.name` when the module is known, else the name as written. */
  target: string;
  file: string;
  line: number;
}

/** How many candidates an ambiguous call keeps. */
export const AMBIGUOUS_CANDIDATES = 50;

/** A call that several definitions could answer, with no evidence to pick one. */
export interface AmbiguousCall {
  caller: number;
  name: string;
  /** At most AMBIGUOUS_CANDIDATES of them; calls of one name share this array, so never mutate it. */
  candidates: readonly number[];
  file: string;
  line: number;
}

/** An inheritance edge between two project classes/interfaces. */
export interface InheritEdge {
  child: number;
  base: number;
  kind: "extends" | "implements";
}

/** File-level import edge. */
export interface ImportEdge {
  from: string;
  to: string;
  line: number;
}

/** The whole graph plus adjacency for queries. */
export interface CodeGraph {
  symbols: SymbolNode[];
  /** File → id of its module symbol; a file's definitions follow it as id + 1 + index. */
  moduleSymbol: Map<string, number>;
  calls: CallEdge[];
  external: ExternalCall[];
  ambiguous: AmbiguousCall[];
  unresolvedCalls: number;
  imports: ImportEdge[];
  inherits: InheritEdge[];
  callsFrom: Map<number, number[]>;
  callsTo: Map<number, number[]>;
  importsFrom: Map<string, string[]>;
  importedBy: Map<string, string[]>;
  subclasses: Map<number, number[]>;
  /** Classes/interfaces each symbol names in annotations (parameters, returns, fields, generics). */
  typeUses: Map<number, number[]>;
  /** Children (nested definitions) of each symbol. */
  children: Map<number, number[]>;
  byName: Map<string, number[]>;
  byQualified: Map<string, number>;
  /** The records the graph was built from, by path (signatures, docs, params). */
  records: Map<string, FileRecord>;
  /**
   * The resolution state (scopes, resolver tables; memos emptied), for look-ups after the build
   * (`lookupDefinition`, `importTarget`) and for patches. Never mutated once the graph is built:
   * a patch makes a new context that shares what did not change.
   */
  context: GraphContext;
  /** Per file, in file order, how many entries of each edge list it contributed: a patch splices by these. */
  edgeCounts: Map<string, FileEdgeCounts>;
}

/** How many entries of each edge list one file contributed. */
export interface FileEdgeCounts {
  calls: number;
  external: number;
  ambiguous: number;
  unresolved: number;
  imports: number;
}

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
  scopes:
    | {
        locals: Map<number, Map<string, BindingRecord>>;
        fields: Map<number, Map<string, BindingRecord>>;
        /** Bindings visible on some lines only (`until`), by scope and name: they shadow `locals` there. */
        shadows: Map<number, Map<string, BindingRecord[]>>;
      }
    | undefined;
  /** The line of the call being resolved, for bindings visible on some lines only. */
  atLine?: number;
  resolver: ModuleResolver | undefined;
  resolverState: unknown;
  /**
   * The package the file belongs to, when its language shares top-level names per package (see
   * LanguageSemantics.packages).
   */
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
  /** The names star imports can bring in at all (StarExports, star-exports.ts). */
  starExports: StarExportTable;
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
  /** The globals the code's hosts add to each language (`HostEnvironment.globals`), by language id. */
  hostGlobals: ReadonlyMap<string, ReadonlySet<string>>;
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

/** What resolution asks of the star-export table (star-exports.ts implements it). */
export interface StarExportTable {
  /** False only when no file that `file`'s star-import closure can reach binds `name` itself. */
  mayExport(ctx: GraphContext, file: string, name: string): boolean;
  /** Forgets the table (the files changed, or the build is done). */
  clear(): void;
}
