/**
 * Builds the code graph from file records, as a pipeline of the graph modules: the symbol table
 * (symbols.ts), each file's scope (context.ts), import edges (imports.ts), inheritance and call
 * linking through the evaluator (resolve.ts, calls.ts), type uses, then adjacency. `patchGraph`
 * (patch.ts) reuses the same steps for the files an edit touched.
 */
import type { HostEnvironment, ProjectFiles } from "../../languages/types.ts";
import type { FileRecord } from "../extract/record.ts";
import { callsOf, typeUsesOf } from "./calls.ts";
import { makeFileState, type FileState, type GraphContext } from "./context.ts";
import { emptyMemos } from "./memos.ts";
import { importEdgesOf } from "./imports.ts";
import type { CallEdge, CodeGraph, FileEdgeCounts, ImportEdge, InheritEdge, SymbolNode } from "./model.ts";
import { basesOf } from "./resolve.ts";
import { attachThroughScope, structuralImplements } from "./package-links.ts";
import { packageTables } from "./packages.ts";
import { fileSymbols, indexSymbols } from "./symbols.ts";

export { typeCandidates, functionTypeParams } from "./type-text.ts";

/** Options for graph building. */
export interface GraphOptions {
  /** Link a call with an unknown receiver to the only definition of that name (default true). */
  uniqueNameFallback?: boolean;
  /** What the code's hosts add to its languages: their globals (none by default; `HostEnvironment`). */
  host?: HostEnvironment;
  /**
   * Resolve the calls (and type uses) only when something first reads them (see `deferCalls`):
   * an answer that needs the calls of a few symbols only (`callsAmong`) resolves those files.
   */
  deferCalls?: boolean;
  /** Called once when a deferred graph has resolved all its calls (the engine keeps them then). */
  onResolved?: (graph: CodeGraph) => void;
}

/** Builds the graph. `configs` supplies config-file text (tsconfig.json, package.json). */
export function buildGraph(
  records: FileRecord[],
  allPaths: Iterable<string>,
  configs: Map<string, string>,
  options: GraphOptions = {},
): CodeGraph {
  const ctx = symbolContext(records, allPaths, configs, options);
  // 2. Imports, 3. inheritance, each file on its own; 4. calls and type uses (callParts).
  const imports: ImportEdge[] = [];
  for (const st of ctx.files.values()) for (const e of importEdgesOf(ctx, st)) imports.push(e);
  const inherits = inheritEdges(ctx);
  ctx.subclasses = subclassIndex(inherits);
  const records_ = new Map(records.map((r) => [r.path, r]));
  if (options.deferCalls) return deferCalls(ctx, { imports, inherits, records: records_ }, options.onResolved);
  return finishGraph(ctx, { ...callParts(ctx, imports), imports, inherits, records: records_ });
}

/** The parts of a graph that call resolution makes (step 4), with the per-file counts of every edge list. */
type CallParts = Pick<CodeGraph, "calls" | "external" | "ambiguous" | "unresolvedCalls" | "typeUses" | "edgeCounts">;

/** Step 4 of a build: every file's calls, then its type uses, in file order. */
function callParts(ctx: GraphContext, imports: ImportEdge[]): CallParts {
  const calls: CallEdge[] = [];
  const external: CodeGraph["external"] = [];
  const ambiguous: CodeGraph["ambiguous"] = [];
  const edgeCounts = new Map<string, FileEdgeCounts>();
  const importCounts = new Map<string, number>();
  for (const e of imports) importCounts.set(e.from, (importCounts.get(e.from) ?? 0) + 1);
  let unresolvedCalls = 0;
  for (const st of ctx.files.values()) {
    const out = callsOf(ctx, st);
    for (const e of out.calls) calls.push(e);
    for (const e of out.external) external.push(e);
    for (const e of out.ambiguous) ambiguous.push(e);
    unresolvedCalls += out.unresolved;
    edgeCounts.set(st.record.path, {
      calls: out.calls.length,
      external: out.external.length,
      ambiguous: out.ambiguous.length,
      unresolved: out.unresolved,
      imports: importCounts.get(st.record.path) ?? 0,
    });
  }
  const typeUses = new Map<number, number[]>();
  for (const st of ctx.files.values()) typeUsesOf(ctx, st, typeUses);
  return { calls, external, ambiguous, unresolvedCalls, typeUses, edgeCounts };
}

/** Empty call parts: what a deferred graph holds before its calls are resolved, and early edges keep. */
export function noCalls(): CallParts {
  return { calls: [], external: [], ambiguous: [], unresolvedCalls: 0, typeUses: new Map(), edgeCounts: new Map() };
}

/** The fields of a deferred graph that resolving its calls fills. */
const CALL_FIELDS = [
  "calls",
  "external",
  "ambiguous",
  "unresolvedCalls",
  "typeUses",
  "edgeCounts",
  "callsFrom",
  "callsTo",
];

/** The deferred graphs whose calls are not resolved yet. */
const deferred = new WeakSet<CodeGraph>();

/**
 * The graph with its call fields (CALL_FIELDS) resolved on first read, all at once, exactly as a
 * build resolves them. Until then `callsAmong` resolves the files it is asked about, one by one (a
 * `locate` reads the calls between its few dozen candidates only: resolving every call was a
 * quarter of its first run after an index on django, docs/benchmarks.md).
 */
function deferCalls(
  ctx: GraphContext,
  parts: Pick<GraphParts, "imports" | "inherits" | "records">,
  onResolved?: (graph: CodeGraph) => void,
): CodeGraph {
  const graph = finishGraph(ctx, { ...noCalls(), ...parts });
  deferred.add(graph);
  const resolve = () => {
    if (!deferred.has(graph)) return;
    deferred.delete(graph);
    const made = callParts(ctx, parts.imports);
    const { callsFrom, callsTo } = callAdjacency(made.calls);
    for (const m of Object.values(ctx.memos)) m.clear();
    for (const st of ctx.files.values()) st.scopes = undefined;
    const values: Record<string, unknown> = { ...made, callsFrom, callsTo };
    for (const k of CALL_FIELDS)
      Object.defineProperty(graph, k, { value: values[k], writable: true, enumerable: true, configurable: true });
    onResolved?.(graph);
  };
  for (const k of CALL_FIELDS)
    Object.defineProperty(graph, k, {
      get() {
        resolve();
        return (graph as unknown as Record<string, unknown>)[k];
      },
      set(v: unknown) {
        resolve();
        Object.defineProperty(graph, k, { value: v, writable: true, enumerable: true, configurable: true });
      },
      enumerable: true,
      configurable: true,
    });
  return graph;
}

/** Resolves the calls of a deferred graph now (nothing for a graph whose calls are resolved). */
export function resolveDeferred(graph: CodeGraph): void {
  if (deferred.has(graph)) void graph.calls;
}

/** Whether `graph` holds calls not resolved yet (a deferred graph nothing has read the calls of). */
export function callsDeferred(graph: CodeGraph): boolean {
  return deferred.has(graph);
}

/** The calls between some symbols: for each, the calls it makes to one of them and receives from one of them. */
export interface CallsAmong {
  from: Map<number, CallEdge[]>;
  to: Map<number, CallEdge[]>;
}

/**
 * The calls whose caller and callee are both in `ids`, per symbol, each list in the graph's call
 * order (what `callsFrom` and `callsTo` give, kept to `ids`). A deferred graph resolves only the
 * calls `ids` make, in the files that define them.
 */
export function callsAmong(graph: CodeGraph, ids: Iterable<number>): CallsAmong {
  const wanted = new Set(ids);
  const from = new Map<number, CallEdge[]>();
  const to = new Map<number, CallEdge[]>();
  const add = (e: CallEdge) => {
    if (!wanted.has(e.callee)) return;
    (from.get(e.caller) ?? from.set(e.caller, []).get(e.caller)!).push(e);
    (to.get(e.callee) ?? to.set(e.callee, []).get(e.callee)!).push(e);
  };
  if (!deferred.has(graph)) {
    const indices = [...wanted].flatMap((id) => graph.callsFrom.get(id) ?? []).sort((a, b) => a - b);
    for (const i of indices) add(graph.calls[i]!);
    return { from, to };
  }
  const ctx = graph.context;
  const files = [...new Set([...wanted].map((id) => graph.symbols[id]!.file))];
  files.sort((a, b) => graph.moduleSymbol.get(a)! - graph.moduleSymbol.get(b)!);
  for (const path of files) {
    const out = callsOf(ctx, ctx.files.get(path)!, wanted);
    for (const e of out.calls) if (wanted.has(e.caller)) add(e);
  }
  return { from, to };
}

/**
 * Step 1 of a build: the symbol table and each file's scope, everything resolution reads (the
 * resolved edges come after it, or from `graphFromEdges`).
 */
function symbolContext(
  records: FileRecord[],
  allPaths: Iterable<string>,
  configs: Map<string, string>,
  options: GraphOptions,
): GraphContext {
  const pathSet = new Set(allPaths);
  for (const r of records) pathSet.add(r.path);
  const project: ProjectFiles = { has: (p) => pathSet.has(p), config: (p) => configs.get(p), paths: () => pathSet };
  const base = {
    project,
    resolverStates: new Map(),
    uniqueNameFallback: options.uniqueNameFallback ?? true,
    hostGlobals: hostGlobalSets(options.host),
  };
  return contextOf(records, base);
}

/** A host environment's globals as sets, by language id. */
function hostGlobalSets(host: HostEnvironment | undefined): ReadonlyMap<string, ReadonlySet<string>> {
  return new Map(Object.entries(host?.globals ?? {}).map(([id, names]) => [id, new Set(names)]));
}

/**
 * The graph context of `records` in file order: per file a module symbol followed by its
 * definitions, each file's scope and the symbol indexes. Without `previous` (a build) the package
 * tables are made and members declared outside their type's body attached. With `previous` (a
 * patch, `reresolve.ts`) a record that is the previous context's keeps its file state (and its
 * symbols where its module id did not move), and the package tables are empty: a patch is only
 * tried where names travel by words, and the caller builds afresh for a record that could fill them.
 */
export function contextOf(
  records: Iterable<FileRecord>,
  base: Pick<GraphContext, "project" | "resolverStates" | "uniqueNameFallback" | "hostGlobals">,
  previous?: GraphContext,
): GraphContext {
  const { project, resolverStates, uniqueNameFallback, hostGlobals } = base;
  const scope = { project, resolverStates };
  const symbols: SymbolNode[] = [];
  const moduleSymbol = new Map<string, number>();
  const files = new Map<string, FileState>();
  for (const record of records) {
    const moduleId = symbols.length;
    const before = previous?.files.get(record.path);
    let st: FileState;
    if (before?.record !== record) st = makeFileState(scope, record, moduleId);
    else if (before.moduleId === moduleId) {
      st = before;
      for (let id = moduleId; id <= moduleId + record.definitions.length; id++) symbols.push(previous!.symbols[id]!);
    } else st = { ...before, moduleId, scopes: undefined };
    if (st !== before) for (const sym of fileSymbols(record, st)) symbols.push(sym);
    moduleSymbol.set(record.path, moduleId);
    files.set(record.path, st);
  }
  const ctx: GraphContext = {
    ...scope,
    symbols,
    moduleSymbol,
    ...indexSymbols(symbols),
    files,
    memos: emptyMemos(),
    subclasses: new Map(),
    uniqueNameFallback,
    hostGlobals,
    ...(previous
      ? { packages: new Map(), attached: new Map(), linked: new Map() }
      : packageTables(files.values(), symbols)),
  };
  if (!previous) attachThroughScope(ctx);
  return ctx;
}

/** The resolved edges of a graph: what a build resolves call by call, and a load takes as they were. */
export type GraphEdges = Omit<GraphParts, "records">;

/**
 * The graph of `records` with edges resolved before, by `buildGraph` over the same records, paths
 * and configs (the engine keeps them in its cache, keyed by all three): the symbol table and scopes
 * are made again, call resolution (most of a build) is skipped. Equal to `buildGraph`'s graph.
 * Edges kept from a deferred graph (`EarlyEdges`: no calls yet) make a deferred graph again.
 */
export function graphFromEdges(
  records: FileRecord[],
  allPaths: Iterable<string>,
  configs: Map<string, string>,
  edges: GraphEdges | EarlyEdges,
  options: GraphOptions = {},
): CodeGraph {
  const ctx = symbolContext(records, allPaths, configs, options);
  ctx.subclasses = subclassIndex(edges.inherits);
  const recordMap = new Map(records.map((r) => [r.path, r]));
  if (!("calls" in edges)) return deferCalls(ctx, { ...edges, records: recordMap }, options.onResolved);
  return finishGraph(ctx, { ...edges, records: recordMap });
}

/** The edges of a graph whose calls are not resolved yet: what a build makes before the calls. */
export type EarlyEdges = Pick<GraphEdges, "imports" | "inherits">;

/** Inheritance edges between project classes and interfaces. */
export function inheritEdges(ctx: GraphContext): InheritEdge[] {
  const inherits: InheritEdge[] = [];
  for (const s of ctx.symbols) {
    if (s.kind !== "class" && s.kind !== "interface" && s.kind !== "struct" && s.kind !== "enum") continue;
    for (const b of basesOf(ctx, s.id)) inherits.push({ child: s.id, base: b.id, kind: b.kind });
  }
  for (const e of structuralImplements(ctx)) inherits.push(e);
  return inherits;
}

/** Direct subclasses and implementers of each class, from the inheritance edges. */
export function subclassIndex(inherits: InheritEdge[]): Map<number, number[]> {
  const subclasses = new Map<number, number[]>();
  for (const e of inherits) (subclasses.get(e.base) ?? subclasses.set(e.base, []).get(e.base)!).push(e.child);
  return subclasses;
}

/** Each symbol's calls out and in, as indices into `calls`. */
function callAdjacency(calls: CallEdge[]): Pick<CodeGraph, "callsFrom" | "callsTo"> {
  const callsFrom = new Map<number, number[]>();
  const callsTo = new Map<number, number[]>();
  calls.forEach((e, i) => {
    (callsFrom.get(e.caller) ?? callsFrom.set(e.caller, []).get(e.caller)!).push(i);
    (callsTo.get(e.callee) ?? callsTo.set(e.callee, []).get(e.callee)!).push(i);
  });
  return { callsFrom, callsTo };
}

/** The edge lists and tables a graph is finished from. */
export type GraphParts = Pick<
  CodeGraph,
  | "calls"
  | "external"
  | "ambiguous"
  | "unresolvedCalls"
  | "imports"
  | "inherits"
  | "typeUses"
  | "edgeCounts"
  | "records"
>;

/**
 * The graph object with its adjacency (`adjacency`: call adjacency a patch already brought up to
 * date). The memos and per-file scope tables only the build needed are dropped (a big tree has ~90k scope maps);
 * look-ups refill what they need.
 */
export function finishGraph(
  ctx: GraphContext,
  parts: GraphParts,
  adjacency?: Pick<CodeGraph, "callsFrom" | "callsTo">,
): CodeGraph {
  for (const m of Object.values(ctx.memos)) m.clear();
  for (const st of ctx.files.values()) st.scopes = undefined;
  const { callsFrom, callsTo } = adjacency ?? callAdjacency(parts.calls);
  const importsFrom = new Map<string, string[]>();
  const importedBy = new Map<string, string[]>();
  for (const e of parts.imports) {
    (importsFrom.get(e.from) ?? importsFrom.set(e.from, []).get(e.from)!).push(e.to);
    (importedBy.get(e.to) ?? importedBy.set(e.to, []).get(e.to)!).push(e.from);
  }
  const subclasses =
    ctx.subclasses.size || parts.inherits.length === 0 ? ctx.subclasses : subclassIndex(parts.inherits);
  return {
    ...parts,
    symbols: ctx.symbols,
    moduleSymbol: ctx.moduleSymbol,
    children: ctx.children,
    byName: ctx.byName,
    byQualified: ctx.byQualified,
    callsFrom,
    callsTo,
    importsFrom,
    importedBy,
    subclasses,
    context: ctx,
  };
}
