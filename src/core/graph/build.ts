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
}

/** Builds the graph. `configs` supplies config-file text (tsconfig.json, package.json). */
export function buildGraph(
  records: FileRecord[],
  allPaths: Iterable<string>,
  configs: Map<string, string>,
  options: GraphOptions = {},
): CodeGraph {
  const ctx = symbolContext(records, allPaths, configs, options);
  const files = ctx.files;

  // 2. Imports, 3. inheritance, 4. calls and type uses, each file on its own.
  const imports: ImportEdge[] = [];
  const calls: CallEdge[] = [];
  const external: CodeGraph["external"] = [];
  const ambiguous: CodeGraph["ambiguous"] = [];
  const edgeCounts = new Map<string, FileEdgeCounts>();
  let unresolvedCalls = 0;
  for (const st of files.values()) {
    const edges = importEdgesOf(ctx, st);
    for (const e of edges) imports.push(e);
    edgeCounts.set(st.record.path, { calls: 0, external: 0, ambiguous: 0, unresolved: 0, imports: edges.length });
  }
  const inherits = inheritEdges(ctx);
  ctx.subclasses = subclassIndex(inherits);
  const typeUses = new Map<number, number[]>();
  for (const st of files.values()) {
    const out = callsOf(ctx, st);
    for (const e of out.calls) calls.push(e);
    for (const e of out.external) external.push(e);
    for (const e of out.ambiguous) ambiguous.push(e);
    unresolvedCalls += out.unresolved;
    Object.assign(edgeCounts.get(st.record.path)!, {
      calls: out.calls.length,
      external: out.external.length,
      ambiguous: out.ambiguous.length,
      unresolved: out.unresolved,
    });
  }
  for (const st of files.values()) typeUsesOf(ctx, st, typeUses);

  return finishGraph(ctx, {
    calls,
    external,
    ambiguous,
    unresolvedCalls,
    imports,
    inherits,
    typeUses,
    edgeCounts,
    records: new Map(records.map((r) => [r.path, r])),
  });
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
 */
export function graphFromEdges(
  records: FileRecord[],
  allPaths: Iterable<string>,
  configs: Map<string, string>,
  edges: GraphEdges,
  options: GraphOptions = {},
): CodeGraph {
  const ctx = symbolContext(records, allPaths, configs, options);
  ctx.subclasses = subclassIndex(edges.inherits);
  return finishGraph(ctx, { ...edges, records: new Map(records.map((r) => [r.path, r])) });
}

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
  const callsFrom = adjacency?.callsFrom ?? new Map<number, number[]>();
  const callsTo = adjacency?.callsTo ?? new Map<number, number[]>();
  if (!adjacency) {
    parts.calls.forEach((e, i) => {
      (callsFrom.get(e.caller) ?? callsFrom.set(e.caller, []).get(e.caller)!).push(i);
      (callsTo.get(e.callee) ?? callsTo.set(e.callee, []).get(e.callee)!).push(i);
    });
  }
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
