/** createEngine: the one object front ends talk to. The only core code that calls the ports. */
import type { Platform } from "../../platform/types.ts";
import { languageById, LANGUAGES } from "../../languages/index.ts";
import type { FileRecord } from "../extract/record.ts";
import { toGoldGraph, type GoldGraph } from "../graph/gold-json.ts";
import { buildGraph } from "../graph/build.ts";
import type { CodeGraph } from "../graph/model.ts";
import { calls, importers, signature, type CallsAnswer, type ImportersAnswer, type SignatureAnswer } from "../graph/queries.ts";
import { findSymbol, symbolRef, type SymbolRef } from "../graph/lookup.ts";
import { buildContext, type ContextAnswer, type ContextIO, type ContextOptions } from "../slice/context.ts";
import { buildSearchIndex, searchSymbols, type SearchHit, type SearchIndex } from "../search/search.ts";
import { findRoutes, type Route } from "../slice/routes.ts";
import { buildRepoMap, type RepoMap, type RepoMapOptions } from "../map/repo-map.ts";
import type { SkipReason } from "../scan/defaults.ts";
import { EngineError } from "../shared/errors.ts";
import { runIndex, type IndexOptions, type IndexResult, type Progress } from "./indexer.ts";
import { decodeJson, type Snapshot, type StoredRecord } from "./snapshot.ts";

/** Engine-wide options. */
export interface EngineOptions {
  /** Files larger than this are skipped (default 1 MiB). */
  maxFileBytes?: number;
  /** Workspace-relative folders to leave out (e.g. a cache folder inside the root). */
  exclude?: string[];
}

/** The summary of an index run, as `codeslice index` prints it. */
export interface IndexSummary {
  root: string;
  store: string;
  scanMode: "git" | "walk";
  /** Files in the inventory. */
  files: number;
  /** Files in a supported language that were indexed. */
  sourceFiles: number;
  parsed: number;
  reused: number;
  removed: number;
  symbols: number;
  byLanguage: Record<string, { files: number; symbols: number }>;
  skipped: { path: string; reason: SkipReason; detail?: string }[];
  skippedByReason: Partial<Record<SkipReason, number>>;
  /** Files with syntax errors (indexed partially). */
  syntaxErrors: { path: string; count: number }[];
  durationMs: number;
}

/** Per-call options for operations that may index first. */
export interface RunOptions {
  signal?: AbortSignal;
  onProgress?: (p: Progress) => void;
}

/** The engine API shared by the CLI, the MCP server, the playground and embedders. */
export interface Engine {
  /** Brings the index up to date (incrementally) and summarizes it. */
  index(options?: RunOptions): Promise<IndexSummary>;
  /** Every file record, indexing first if needed. */
  records(options?: RunOptions): Promise<FileRecord[]>;
  /** The code graph (symbols, calls, imports, inheritance), built from the current index. */
  codeGraph(options?: RunOptions): Promise<CodeGraph>;
  /** The graph in the graph-gold JSON shape; call edges below `minConfidence` are left out. */
  graph(options?: RunOptions & { minConfidence?: number }): Promise<GoldGraph>;
  /** Who calls `symbol` (qualified, `path::name`, dotted suffix or bare when unique), up to `depth` hops. */
  callers(symbol: string, options?: RunOptions & { depth?: number }): Promise<CallsAnswer>;
  /** What `symbol` calls, up to `depth` hops, plus calls into external packages. */
  callees(symbol: string, options?: RunOptions & { depth?: number }): Promise<CallsAnswer>;
  /** Files that import `path`, up to `depth` hops. */
  importers(path: string, options?: RunOptions & { depth?: number }): Promise<ImportersAnswer>;
  /** Header and docstring without the body; a class with its members stubbed. */
  signature(symbol: string, options?: RunOptions): Promise<SignatureAnswer>;
  /** Resolves a symbol name to one definition (throws unknown_symbol / ambiguous_symbol). */
  resolveSymbol(symbol: string, options?: RunOptions): Promise<SymbolRef>;
  /**
   * The smallest bundle of whole symbols that answers `target` (a symbol, `path::symbol`, a file,
   * `METHOD /path`, or words), fitted to `budget` tokens with citations and a cut list.
   */
  context(target: string, options?: ContextOptions & RunOptions): Promise<ContextAnswer>;
  /** Like context, seeded by the best search hits for a task described in words. */
  pack(task: string, options?: ContextOptions & RunOptions & { seeds?: number }): Promise<ContextAnswer>;
  /** Symbols matching words (identifier parts, path, signature, docstring). */
  search(query: string, options?: RunOptions & { limit?: number }): Promise<SearchHit[]>;
  /** HTTP routes found in the project, with full paths after prefixes. */
  routes(options?: RunOptions): Promise<Route[]>;
  /** The repo map, fitted to a token budget. */
  map(options?: RepoMapOptions & RunOptions): Promise<RepoMap>;
}

/** Creates an engine over one platform (file system, store, wasm). */
export function createEngine(platform: Platform, options: EngineOptions = {}): Engine {
  let state: { snapshot: Snapshot; records: Map<string, FileRecord> } | undefined;
  let graphCache: { snapshot: Snapshot; graph: Promise<CodeGraph> } | undefined;
  let running: Promise<IndexResult> | undefined;

  const refresh = (run: RunOptions = {}): Promise<IndexResult> => {
    running ??= (async () => {
      const opts: IndexOptions = { ...run, ...(options.maxFileBytes !== undefined ? { maxFileBytes: options.maxFileBytes } : {}), ...(options.exclude ? { exclude: options.exclude } : {}) };
      const result = await runIndex(platform, opts, state);
      state = { snapshot: result.snapshot, records: result.records };
      return result;
    })().finally(() => {
      running = undefined;
    });
    return running;
  };

  const allRecords = async (run: RunOptions = {}): Promise<FileRecord[]> => {
    if (!state) await refresh(run);
    const { snapshot, records } = state!;
    const missing = snapshot.files.filter((f) => f.record && !records.has(f.path));
    for (let i = 0; i < missing.length; i += 64) {
      await Promise.all(
        missing.slice(i, i + 64).map(async (f) => {
          const bytes = await platform.store.get(f.record!);
          if (!bytes) throw new EngineError("no_index", `The index is missing the record for ${f.path}`, { hint: "Run `codeslice index` again." });
          records.set(f.path, { ...decodeJson<StoredRecord>(bytes), path: f.path });
        }),
      );
    }
    return snapshot.files.filter((f) => f.record).map((f) => records.get(f.path)!);
  };

  /** Config files the module resolvers read (tsconfig paths, workspace packages). */
  const CONFIG_FILE = /(^|\/)(tsconfig[^/]*\.json|jsconfig\.json|package\.json)$/;
  const codeGraph = async (run: RunOptions = {}): Promise<CodeGraph> => {
    const records = await allRecords(run);
    const snapshot = state!.snapshot;
    if (graphCache?.snapshot !== snapshot) {
      const graph = (async () => {
        const configs = new Map<string, string>();
        for (const f of snapshot.files) {
          if (!CONFIG_FILE.test(f.path)) continue;
          try {
            configs.set(f.path, new TextDecoder().decode(await platform.fs.readFile(f.path)));
          } catch {
            // unreadable config: resolution falls back to plain relative paths
          }
        }
        return buildGraph(records, snapshot.files.map((f) => f.path), configs);
      })();
      graphCache = { snapshot, graph };
    }
    return graphCache.graph;
  };

  const derived = new WeakMap<CodeGraph, { search?: SearchIndex; routes?: Route[] }>();
  const derivedOf = (graph: CodeGraph) => derived.get(graph) ?? derived.set(graph, {}).get(graph)!;
  const searchIndexOf = (graph: CodeGraph) => (derivedOf(graph).search ??= buildSearchIndex(graph));
  const routesOf = (graph: CodeGraph) => (derivedOf(graph).routes ??= findRoutes(graph));
  const contextIO = (graph: CodeGraph): ContextIO => ({
    readText: async (path) => new TextDecoder().decode(await platform.fs.readFile(path)),
    searchIndex: () => searchIndexOf(graph),
    routes: () => routesOf(graph),
  });

  return {
    async context(target, opts = {}) {
      const graph = await codeGraph(opts);
      return buildContext(graph, target, opts, contextIO(graph));
    },
    async pack(task, opts = {}) {
      const graph = await codeGraph(opts);
      return buildContext(graph, task, opts, contextIO(graph), opts.seeds ?? 3);
    },
    async search(query, opts = {}) {
      return searchSymbols(searchIndexOf(await codeGraph(opts)), query, opts.limit ?? 10);
    },
    async routes(opts = {}) {
      return routesOf(await codeGraph(opts));
    },
    async index(run = {}) {
      const result = await refresh(run);
      return summarize(platform, result);
    },
    records: allRecords,
    codeGraph,
    async callers(symbol, opts = {}) {
      return calls(await codeGraph(opts), symbol, "callers", opts.depth);
    },
    async callees(symbol, opts = {}) {
      return calls(await codeGraph(opts), symbol, "callees", opts.depth);
    },
    async importers(path, opts = {}) {
      return importers(await codeGraph(opts), path, opts.depth);
    },
    async signature(symbol, opts = {}) {
      return signature(await codeGraph(opts), symbol);
    },
    async resolveSymbol(symbol, opts = {}) {
      return symbolRef(findSymbol(await codeGraph(opts), symbol));
    },
    async graph(run = {}) {
      return toGoldGraph(await codeGraph(run), run.minConfidence ?? 0);
    },
    async map(opts = {}) {
      const records = await allRecords(opts);
      return buildRepoMap(state!.snapshot, records, opts);
    },
  };
}

function summarize(platform: Platform, result: IndexResult): IndexSummary {
  const { snapshot } = result;
  const byLanguage: IndexSummary["byLanguage"] = {};
  let symbols = 0;
  let sourceFiles = 0;
  const syntaxErrors: IndexSummary["syntaxErrors"] = [];
  for (const f of snapshot.files) {
    if (!f.language) continue;
    sourceFiles++;
    const name = languageById(f.language)?.name ?? f.language;
    const entry = (byLanguage[name] ??= { files: 0, symbols: 0 });
    entry.files++;
    entry.symbols += f.definitions ?? 0;
    symbols += f.definitions ?? 0;
    if (f.diagnostics) syntaxErrors.push({ path: f.path, count: f.diagnostics });
  }
  const skippedByReason: IndexSummary["skippedByReason"] = {};
  for (const s of snapshot.skipped) skippedByReason[s.reason] = (skippedByReason[s.reason] ?? 0) + 1;
  return {
    root: platform.fs.rootLabel,
    store: platform.store.label,
    scanMode: snapshot.scanMode,
    files: snapshot.files.length,
    sourceFiles,
    parsed: result.parsed.length,
    reused: result.reused,
    removed: result.removed,
    symbols,
    byLanguage,
    skipped: snapshot.skipped,
    skippedByReason,
    syntaxErrors,
    durationMs: result.durationMs,
  };
}

/** Names of the supported languages. */
export function supportedLanguageNames(): string[] {
  return LANGUAGES.map((l) => l.name);
}
