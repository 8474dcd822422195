/** createEngine: the one object front ends talk to. The only core code that calls the ports. */
import type { Platform } from "../ports.ts";
import { languageById, LANGUAGES } from "../../languages/index.ts";
import type { FileRecord } from "../extract/record.ts";
import { toGoldGraph, type GoldGraph } from "../graph/gold-json.ts";
import { buildGraph } from "../graph/build.ts";
import { patchGraph } from "../graph/patch.ts";
import type { CodeGraph } from "../graph/model.ts";
import { calls, importers, signature, type SignatureAnswer } from "../graph/queries.ts";
import { listArgs, pageCalls, pageImporters, type CallsPage, type ImportersPage, type ListOptions } from "../graph/pages.ts";
import { trace, traceLimits, type TraceAnswer } from "../graph/trace.ts";
import { findTests, testsDepth, type TestsAnswer } from "../evidence/tests.ts";
import { findSymbol, symbolRef, type SymbolRef } from "../graph/lookup.ts";
import { buildContext, type ContextAnswer, type ContextIO, type ContextOptions } from "../slice/context.ts";
import { searchSymbols, updateSearchIndex, type SearchHit, type SearchIndex } from "../search/search.ts";
import { findRoutes, type Route } from "../slice/routes.ts";
import { buildRepoMap, isManifest, type RepoMap, type RepoMapOptions } from "../map/repo-map.ts";
import type { SkipReason } from "../scan/defaults.ts";
import { EngineError } from "../../shared/errors.ts";
import { LIMITS } from "../limits.ts";
import { findFile } from "../../shared/locations.ts";
import { normalizeRelative, readQuotedPath } from "../../shared/paths.ts";
import { runIndex, type IndexOptions, type IndexResult, type Progress } from "./indexer.ts";
import { ensureHeadroom, HEAP_PER_SYMBOL } from "./memory.ts";
import { decodeRecord, type Snapshot } from "./snapshot.ts";

/** Engine-wide options. */
export interface EngineOptions {
  /** Files larger than this are skipped (default 1 MiB). */
  maxFileBytes?: number;
  /** Workspace-relative folders to leave out (e.g. a cache folder inside the root). */
  exclude?: string[];
  /**
   * Watch the indexed folders (when the file system can) so `refresh()` costs nothing until a
   * file changes. Long-running hosts (the MCP server, the playground) turn this on.
   */
  watch?: boolean;
}

/** Answer to `snippet`. */
export interface SnippetAnswer {
  path: string;
  start: number;
  end: number;
  totalLines: number;
  /** True when the range was shortened to `maxLines` or to the end of the file. */
  capped: boolean;
  text: string;
}

/** Default cap on lines per snippet. */
export const MAX_SNIPPET_LINES = LIMITS.snippetLines;

/** What `refresh()` did. */
export interface RefreshResult {
  /** True when the index was rebuilt (incrementally) because files changed or it never ran. */
  refreshed: boolean;
  parsed: number;
  removed: number;
  /** Damaged or missing cache entries made again. */
  repaired: number;
  /** When the index was last brought up to date (ms since epoch). */
  at: number;
  /** How changes are noticed: a folder watcher, or a re-scan on every refresh. */
  mode: "watch" | "scan";
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
  /** Damaged or missing cache entries made again this run. */
  repaired: number;
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
  /**
   * Makes sure answers reflect the files on disk: re-indexes (incrementally) if a watched folder
   * changed or, without a watcher, after a quick re-scan. Cheap when nothing changed.
   */
  refresh(options?: RunOptions): Promise<RefreshResult>;
  /** Stops watching (long-running hosts call this on shutdown). */
  close(): void;
  /** Brings the index up to date (incrementally) and summarizes it. */
  index(options?: RunOptions): Promise<IndexSummary>;
  /** Every file record, indexing first if needed. */
  records(options?: RunOptions): Promise<FileRecord[]>;
  /** The code graph (symbols, calls, imports, inheritance), built from the current index. */
  codeGraph(options?: RunOptions): Promise<CodeGraph>;
  /** The graph in the graph-gold JSON shape; call edges below `minConfidence` are left out. */
  graph(options?: RunOptions & { minConfidence?: number }): Promise<GoldGraph>;
  /**
   * Who calls `symbol` (qualified, `path::name`, dotted suffix or bare when unique), up to `depth`
   * hops: one page (`limit`, `cursor`), production code first and test code counted by file
   * unless `tests` asks otherwise, the totals and what could not be seen, fitted to `budget`.
   */
  callers(symbol: string, options?: RunOptions & ListOptions & { depth?: number }): Promise<CallsPage>;
  /** What `symbol` calls, up to `depth` hops, plus calls into external packages; paged like callers. */
  callees(symbol: string, options?: RunOptions & ListOptions & { depth?: number }): Promise<CallsPage>;
  /** Files that import `path`, up to `depth` hops; paged like callers. */
  importers(path: string, options?: RunOptions & ListOptions & { depth?: number }): Promise<ImportersPage>;
  /**
   * The tests that exercise a symbol or a file (test code among its callers up to `depth`, default
   * 2; test files that import its file and name it), each with a runnable id in its runner's
   * syntax, and the command lines that run them; paged like callers.
   */
  tests(target: string, options?: RunOptions & ListOptions & { depth?: number }): Promise<TestsAnswer>;
  /**
   * The shortest paths (at most `k`, default 3, within `maxHops`, default 6) from a symbol or a
   * route (`METHOD /path`) to a symbol, through calls, inheritance, overriding, types and imports.
   */
  trace(from: string, to: string, options?: RunOptions & Omit<ListOptions, "limit" | "cursor" | "tests"> & { k?: number; maxHops?: number }): Promise<TraceAnswer>;
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
  /**
   * Lines `start`..`end` (1-based, inclusive) of a project file, at most `maxLines` of them.
   * Only files in the index inventory are readable: nothing ignored, nothing outside the root.
   */
  snippet(path: string, start: number, end: number, options?: RunOptions & { maxLines?: number }): Promise<SnippetAnswer>;
  /** The repo map, fitted to a token budget. */
  map(options?: RepoMapOptions & RunOptions): Promise<RepoMap>;
}

/** Creates an engine over one platform (file system, store, wasm). */
export function createEngine(platform: Platform, options: EngineOptions = {}): Engine {
  let state: { snapshot: Snapshot; records: Map<string, FileRecord> } | undefined;
  let graphCache: { snapshot: Snapshot; built: Promise<{ graph: CodeGraph; paths: string[]; configs: Map<string, string> }> } | undefined;
  let running: Promise<IndexResult> | undefined;

  let watcher: { close(): void } | undefined;
  let dirty = true;
  let lastAt = 0;
  let watchFailed = false;
  const startWatching = (snapshot: Snapshot) => {
    watcher?.close();
    watcher = undefined;
    if (!options.watch || !platform.fs.watch || watchFailed) return;
    const dirs = new Set<string>([""]);
    for (const f of snapshot.files) for (let d = f.path.lastIndexOf("/"); d > 0; d = f.path.lastIndexOf("/", d - 1)) dirs.add(f.path.slice(0, d));
    const excluded = options.exclude ?? [];
    try {
      watcher = platform.fs.watch([...dirs], (path) => {
        if (excluded.some((x) => path === x || path.startsWith(`${x}/`))) return;
        dirty = true;
      });
    } catch {
      watchFailed = true; // too many folders for the host's watch limit: re-scan instead
    }
  };
  const refresh = (run: RunOptions = {}, repair?: ReadonlySet<string>): Promise<IndexResult> => {
    running ??= (async () => {
      const opts: IndexOptions = {
        ...run, ...(options.maxFileBytes !== undefined ? { maxFileBytes: options.maxFileBytes } : {}), ...(options.exclude ? { exclude: options.exclude } : {}),
        ...(repair ? { repair } : {}),
      };
      dirty = false; // events from here on mean another pass
      let result: IndexResult;
      try {
        result = await runIndex(platform, opts, state);
      } catch (error) {
        dirty = true; // a failed pass proves nothing about the files: check again next time
        throw error;
      }
      // Nothing changed: keep the same snapshot so everything derived from it stays cached.
      if (!result.changed && state) result.snapshot = state.snapshot;
      else state = { snapshot: result.snapshot, records: result.records };
      if (result.repaired > 0) platform.logger?.log("warn", `the index cache had ${result.repaired} damaged or missing entr${result.repaired === 1 ? "y" : "ies"}; made again from the source files.`);
      lastAt = Date.now();
      if (!watcher || result.changed) {
        const first = !watcher;
        startWatching(state.snapshot);
        // Edits made while this pass ran, before the watchers existed, were not seen: the next
        // refresh re-scans once more before trusting the watchers.
        if (first && watcher) dirty = true;
      }
      return result;
    })().finally(() => {
      running = undefined;
    });
    return running;
  };

  /** Loads the records the snapshot names; returns the paths whose record is missing or damaged. */
  const loadRecords = async (snapshot: Snapshot, records: Map<string, FileRecord>): Promise<Set<string>> => {
    const damaged = new Set<string>();
    const missing = snapshot.files.filter((f) => f.record && !records.has(f.path));
    for (let i = 0; i < missing.length; i += 64) {
      await Promise.all(
        missing.slice(i, i + 64).map(async (f) => {
          const record = decodeRecord(await platform.store.get(f.record!).catch(() => undefined), f.path);
          if (record && record.hash === f.hash && record.language === f.language) records.set(f.path, record);
          else damaged.add(f.path);
        }),
      );
    }
    return damaged;
  };
  const allRecords = async (run: RunOptions = {}): Promise<FileRecord[]> => {
    if (!state) await refresh(run);
    const unloaded = state!.snapshot.files.reduce((n, f) => n + (f.record && !state!.records.has(f.path) ? f.definitions ?? 0 : 0), 0);
    if (unloaded > 0) ensureHeadroom(platform.memory, unloaded * HEAP_PER_SYMBOL.records, `the records of ${unloaded.toLocaleString("en-US")} symbols`);
    // A record that does not read back whole (truncated, flipped, deleted, replaced) is made again
    // from its file: the answer stays correct and the cache heals. Twice at most, in case the
    // files change under the repair itself.
    for (let attempt = 0; ; attempt++) {
      const { snapshot, records } = state!;
      const damaged = await loadRecords(snapshot, records);
      if (damaged.size === 0) return snapshot.files.filter((f) => f.record).map((f) => records.get(f.path)!);
      if (attempt >= 2) {
        throw new EngineError("no_index", `The index cache ${platform.store.label} could not be repaired: ${damaged.size} records stay unreadable (${[...damaged].slice(0, 3).join(", ")}).`, {
          hint: "Delete the cache folder; it is rebuilt on the next run.",
          data: { store: platform.store.label, paths: [...damaged].slice(0, 20) },
        });
      }
      await running?.catch(() => {});
      await refresh(run, damaged);
    }
  };

  /** Config files the module resolvers read (tsconfig paths, workspace packages). */
  const CONFIG_FILE = /(^|\/)(tsconfig[^/]*\.json|jsconfig\.json|package\.json)$/;
  const codeGraph = async (run: RunOptions = {}): Promise<CodeGraph> => {
    const records = await allRecords(run);
    if (records.length === 0) {
      throw new EngineError("no_supported_files", `No source files in a supported language under ${platform.fs.rootLabel}.`, {
        hint: `codeslice reads ${supportedLanguageNames().join(", ")}. Check --root, or whether the files are ignored by git.`,
        data: { root: platform.fs.rootLabel, languages: supportedLanguageNames() },
      });
    }
    const snapshot = state!.snapshot;
    if (graphCache?.snapshot !== snapshot) {
      const previous = graphCache?.built;
      const built = (async () => {
        const paths = snapshot.files.map((f) => f.path);
        const configs = new Map<string, string>();
        for (const f of snapshot.files) {
          if (!CONFIG_FILE.test(f.path)) continue;
          try {
            configs.set(f.path, new TextDecoder().decode(await platform.fs.readFile(f.path)));
          } catch {
            // unreadable config: resolution falls back to plain relative paths
          }
        }
        // After an edit the previous graph can often be updated instead of rebuilt: the same files
        // and configuration, and a few records changed in ways no other file can see.
        const prior = previous ? await previous.catch(() => undefined) : undefined;
        const updated = prior && samePaths(prior.paths, paths) && sameConfigs(prior.configs, configs) ? updateGraph(prior.graph, records) : undefined;
        if (updated) return { graph: updated, paths, configs };
        const symbols = records.reduce((n, r) => n + r.definitions.length, 0);
        ensureHeadroom(platform.memory, symbols * HEAP_PER_SYMBOL.graph, `the code graph of ${symbols.toLocaleString("en-US")} symbols`);
        return { graph: buildGraph(records, paths, configs), paths, configs };
      })();
      graphCache = { snapshot, built };
    }
    return graphCache.built.then((b) => b.graph);
  };

  const routes = new WeakMap<CodeGraph, Route[]>();
  const routesOf = (graph: CodeGraph) => routes.get(graph) ?? routes.set(graph, findRoutes(graph)).get(graph)!;
  // One search index, carried from graph to graph: after an edit only the changed files are
  // re-indexed (a full build takes ~0.2 s on django and ~2 s on a 75,000-symbol tree).
  let search: SearchIndex | undefined;
  const searchIndexOf = (graph: CodeGraph) => {
    if (search?.graph === graph) return search;
    if (!search) ensureHeadroom(platform.memory, graph.symbols.length * HEAP_PER_SYMBOL.search, `the search index of ${graph.symbols.length.toLocaleString("en-US")} symbols`);
    return (search = updateSearchIndex(search, graph));
  };
  const contextIO = (graph: CodeGraph): ContextIO => ({
    root: platform.fs.rootLabel,
    readText: async (path) => new TextDecoder().decode(await platform.fs.readFile(path)),
    searchIndex: () => searchIndexOf(graph),
    routes: () => routesOf(graph),
  });

  return {
    async refresh(run = {}) {
      // Let pending watch events arrive first: an edit made just before this call is delivered on
      // the next turn of the event loop, and answering before it would be answering stale.
      if (watcher) await new Promise((resolve) => setTimeout(resolve, 0));
      const watching = watcher !== undefined;
      if (state && watching && !dirty) return { refreshed: false, parsed: 0, removed: 0, repaired: 0, at: lastAt, mode: "watch" };
      const r = await refresh(run);
      return { refreshed: r.changed, parsed: r.parsed.length, removed: r.removed, repaired: r.repaired, at: lastAt, mode: watcher ? "watch" : "scan" };
    },
    close() {
      watcher?.close();
      watcher = undefined;
    },
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
    async snippet(pathArg, start, end, opts = {}) {
      const maxLines = opts.maxLines ?? MAX_SNIPPET_LINES;
      if (!Number.isInteger(start) || !Number.isInteger(end) || start < 1 || end < start) {
        throw new EngineError("invalid_argument", `Lines must be whole numbers with 1 ≤ start ≤ end, got ${start}-${end}.`, { data: { start, end } });
      }
      let decoded = pathArg;
      try {
        decoded = decodeURIComponent(pathArg);
      } catch {
        // not URL-encoded
      }
      if (!state) await refresh(opts);
      const inventory = new Set(state!.snapshot.files.map((f) => f.path));
      // An exact inventory path (quoted when its name needed it), or one written relative to the
      // root or absolute inside it; never a suffix guess, never a path that climbs out.
      const written = readQuotedPath(pathArg.trim())?.path ?? pathArg.trim();
      const found = findFile({ has: (p) => inventory.has(p), paths: () => inventory }, written, platform.fs.rootLabel, { bySuffix: false });
      const path = found?.path ?? normalizeRelative(written);
      if (path === undefined || path === "" || (!found && normalizeRelative(decoded.trim()) === undefined)) {
        throw new EngineError("outside_root", `${JSON.stringify(pathArg)} is not a path inside the project.`, {
          hint: "Paths are relative to the project root (or absolute inside it); .. out of it is refused.",
          data: { path: pathArg },
        });
      }
      if (!inventory.has(path)) {
        throw new EngineError("not_found", `${path} is not a project file in the index (missing, ignored, or skipped).`, {
          hint: "Use a path from the map or from a context header.",
          data: { path },
        });
      }
      const lines = new TextDecoder().decode(await platform.fs.readFile(path)).split("\n");
      const total = lines.length;
      if (start > total) {
        throw new EngineError("invalid_argument", `${path} has ${total} lines; start ${start} is past the end.`, { data: { path, totalLines: total } });
      }
      const last = Math.min(end, total, start + maxLines - 1);
      return { path, start, end: last, totalLines: total, capped: last < end, text: lines.slice(start - 1, last).join("\n") };
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
      const args = await listArgs(opts);
      const graph = await codeGraph(opts);
      return pageCalls(graph, calls(graph, symbol, "callers", args.depth), args);
    },
    async callees(symbol, opts = {}) {
      const args = await listArgs(opts);
      const graph = await codeGraph(opts);
      return pageCalls(graph, calls(graph, symbol, "callees", args.depth), args);
    },
    async importers(path, opts = {}) {
      const args = await listArgs(opts);
      const graph = await codeGraph(opts);
      return pageImporters(graph, importers(graph, path, args.depth, platform.fs.rootLabel), args);
    },
    async tests(target, opts = {}) {
      const args = await listArgs({ ...opts, ...(opts.tests === undefined && opts.cursor === undefined ? { tests: "only" as const } : {}) });
      const depth = testsDepth(args.depth);
      const graph = await codeGraph(opts);
      const written = readQuotedPath(target.trim())?.path ?? target.trim();
      const file = findFile({ has: (p) => graph.moduleSymbol.has(p), paths: () => graph.moduleSymbol.keys() }, written, platform.fs.rootLabel, { bySuffix: false });
      const resolved = file ? { file: file.path } : { symbol: findSymbol(graph, target) };
      return findTests(graph, resolved, { ...args, depth }, {
        paths: () => state!.snapshot.files.map((f) => f.path),
        readText: async (path) => {
          try {
            return new TextDecoder().decode(await platform.fs.readFile(path));
          } catch {
            return undefined; // unreadable now: the file is skipped, as a file gone since the index
          }
        },
      });
    },
    async trace(fromArg, toArg, opts = {}) {
      const limits = traceLimits(opts.k, opts.maxHops);
      const args = await listArgs(opts);
      const graph = await codeGraph(opts);
      return trace(graph, fromArg, toArg, limits, args, {
        routes: () => routesOf(graph),
        readText: async (path) => {
          try {
            return new TextDecoder().decode(await platform.fs.readFile(path));
          } catch {
            return undefined; // a file gone since the index: the hop is cited without its line
          }
        },
      });
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
      const graph = await codeGraph(opts);
      const snapshot = state!.snapshot;
      const manifests = new Map<string, string>();
      for (const f of snapshot.files) {
        if (!isManifest(f.path)) continue;
        try {
          manifests.set(f.path, new TextDecoder().decode(await platform.fs.readFile(f.path)));
        } catch {
          // an unreadable manifest still marks a service folder
          manifests.set(f.path, "");
        }
      }
      return buildRepoMap(snapshot, graph, manifests, routesOf(graph), opts);
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
    repaired: result.repaired,
    symbols,
    byLanguage,
    skipped: snapshot.skipped,
    skippedByReason,
    syntaxErrors,
    durationMs: result.durationMs,
  };
}

/** The previous graph patched with the records that changed, or undefined when it must be rebuilt. */
function updateGraph(prior: CodeGraph, records: FileRecord[]): CodeGraph | undefined {
  try {
    return patchGraph(prior, records.filter((r) => prior.records.get(r.path) !== r));
  } catch {
    return undefined; // a patch that fails leaves the previous graph as it was: build afresh
  }
}

function samePaths(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((p, i) => p === b[i]);
}

function sameConfigs(a: Map<string, string>, b: Map<string, string>): boolean {
  if (a.size !== b.size) return false;
  for (const [k, v] of a) if (b.get(k) !== v) return false;
  return true;
}

export function supportedLanguageNames(): string[] {
  return LANGUAGES.map((l) => l.name);
}
