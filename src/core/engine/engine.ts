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
import { checkDirection, checkImpactDepth, impact, type ImpactAnswer, type ImpactDirection } from "../graph/impact.ts";
import { findTests, testsDepth, type TestsAnswer } from "../evidence/tests.ts";
import { findSymbol, symbolRef, type SymbolRef } from "../graph/lookup.ts";
import { buildContext, DEFAULT_TASK_SEEDS, type ContextAnswer, type ContextIO, type ContextOptions } from "../slice/context.ts";
import { searchSymbols, updateSearchIndex, type SearchHit, type SearchIndex } from "../search/search.ts";
import { findRoutes, type Route } from "../slice/routes.ts";
import { buildRepoMap, isManifest, type RepoMap, type RepoMapOptions } from "../map/repo-map.ts";
import type { SkipReason } from "../scan/defaults.ts";
import { EngineError, isEngineError } from "../../shared/errors.ts";
import { LIMITS } from "../limits.ts";
import { findFile } from "../../shared/locations.ts";
import { normalizeRelative, readQuotedPath } from "../../shared/paths.ts";
import { runIndex, type IndexOptions, type IndexResult, type Progress } from "./indexer.ts";
import { CONFIG_FILE, snapshotInputs, StaleInputs, staleIndexError, type Inputs, type StaleInput } from "./inputs.ts";
import { ensureHeadroom, HEAP_PER_SYMBOL } from "./memory.ts";
import { decodeRecord, type Snapshot } from "./snapshot.ts";
import { runChanges, type ChangesOptions } from "./changes.ts";
import { createGitCache } from "../git/worktree.ts";
import type { ChangesAnswer } from "../changes/answer.ts";
import { DEFAULT_MAX_FILE_BYTES } from "../scan/scan.ts";

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
  /**
   * Threads that parse files: 1 parses in the engine's thread, N > 1 uses N workers of the
   * platform's parse pool (`Platform.workers`). Default: the host's cores minus one, at most 8. The
   * index is the same for every value.
   */
  jobs?: number;
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

/** How long after the first index the settle re-scan starts (lets the first answer go out first). */
const SETTLE_DELAY_MS = 20;

/**
 * Re-indexes of changed files one answer may make before giving up with `stale_index`: the same
 * bound as the cache repair's, for a file saved again while it is re-indexed (an editor writing in
 * two steps). Each round re-indexes every changed file the answer read.
 */
const MAX_INPUT_RETRIES = 2;

/** The code graph of one snapshot, with the paths and configs it was built from. */
interface BuiltGraph {
  graph: CodeGraph;
  snapshot: Snapshot;
  paths: string[];
  configs: Map<string, string>;
}

const sourceCounts = new WeakMap<Snapshot, number>();
/** Files with a record (a supported language) in `snapshot`. */
function sourceCount(snapshot: Snapshot): number {
  let n = sourceCounts.get(snapshot);
  if (n === undefined) sourceCounts.set(snapshot, (n = snapshot.files.reduce((k, f) => k + (f.record ? 1 : 0), 0)));
  return n;
}

/** Default cap on lines per snippet. */
export const MAX_SNIPPET_LINES = LIMITS.snippetLines;

/**
 * What `refresh()` did: what a host reports as the freshness of the answer it is about to give.
 * Counts include what the settle pass after the first index found (see `Engine.refresh`).
 */
export interface RefreshResult {
  /** True when the index was built or brought up to date (incrementally) because files changed. */
  refreshed: boolean;
  /** Files (re-)parsed. */
  parsed: number;
  /** Files dropped from the index. */
  removed: number;
  /** Damaged or missing cache entries made again. */
  repaired: number;
  /** When the index was last brought up to date with a full scan (ms since epoch). */
  at: number;
  /**
   * How this refresh knows the index is current: `initial`, the engine's first index (built, or
   * loaded from the cache); `watch`, a folder watcher vouched for the tree or named what changed;
   * `scan`, a re-scan of the tree (no watcher, one asked for, or recovering from a failure).
   */
  mode: "initial" | "watch" | "scan";
  /** Files in a supported language in the index; 0 means there is nothing to answer from. */
  sourceFiles: number;
  /** Files in the inventory. */
  files: number;
  /** How long the refresh took; for the first index, the index and the code graph. */
  durationMs: number;
}

/** Options of `refresh()`. */
export interface RefreshOptions extends RunOptions {
  /** Re-scan the whole tree even when a watcher says nothing changed. */
  rescan?: boolean;
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
   * Makes sure answers reflect the files on disk; hosts call it before each answer. The first call
   * builds (or loads) the index and the code graph, once for every call that arrives while it runs,
   * each getting the progress; later calls re-index incrementally if a watched folder changed or,
   * without a watcher, after a quick re-scan, and cost next to nothing when nothing changed. With
   * a watcher, one more re-scan follows the first index (edits made while it ran were not watched
   * yet); a call made meanwhile waits for it and reports its changes. After a failure (a root that
   * went away) the watchers are dropped and the next call re-scans. Throws `root_not_found` or
   * `root_not_directory` when the root is gone.
   *
   * Answers stay correct between refreshes too: every file an answer cites is checked against the
   * hash it was indexed with, and one that changed since is re-indexed before answering.
   */
  refresh(options?: RefreshOptions): Promise<RefreshResult>;
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
  /**
   * The blast radius of a symbol, a file or `path:start-end`: callers (`direction` up, the
   * default), callees (down) or both to `depth` hops (default 3), grouped by depth with each hop's
   * resolution and confidence, the routes and tests reached, and a risk summary; paged like callers.
   */
  impact(target: string, options?: RunOptions & ListOptions & { depth?: number; direction?: ImpactDirection }): Promise<ImpactAnswer>;
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
  /**
   * What changed — the working tree against HEAD (default), the index (`staged`), two commits
   * (`base`/`head`) or a pasted unified diff (`diff`) — as changed definitions with their impact
   * (callers of changed signatures, routes and tests reached), fitted to `budget` like context.
   */
  changes(options?: ChangesOptions & RunOptions): Promise<ChangesAnswer>;
}

/** Creates an engine over one platform (file system, store, wasm). */
export function createEngine(platform: Platform, options: EngineOptions = {}): Engine {
  let state: { snapshot: Snapshot; records: Map<string, FileRecord> } | undefined;
  let graphCache: { snapshot: Snapshot; built: Promise<BuiltGraph> } | undefined;
  let running: Promise<IndexResult> | undefined;
  /** Whether the pass under way is a plain scan another caller may share. */
  let runningShared = false;

  let watcher: { close(): void } | undefined;
  let dirty = true;
  let lastAt = 0;
  let watchFailed = false;
  const startWatching = (snapshot: Snapshot) => {
    watcher?.close();
    watcher = undefined;
    if (!options.watch || !platform.fs.watch || watchFailed) return;
    const dirs = new Set<string>([""]);
    for (const f of [...snapshot.files, ...snapshot.skipped]) for (let d = f.path.lastIndexOf("/"); d > 0; d = f.path.lastIndexOf("/", d - 1)) dirs.add(f.path.slice(0, d));
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

  // The settle pass: watchers exist only once the first index is done, so an edit made while it ran
  // goes unnoticed by them. One more pass (a re-scan that parses only what changed) shortly after
  // catches those; a refresh that arrives meanwhile waits for it and reports what it found.
  let settleTimer: ReturnType<typeof setTimeout> | undefined;
  let late = { parsed: 0, removed: 0, repaired: 0 };
  const scheduleSettle = () => {
    if (settleTimer !== undefined) clearTimeout(settleTimer);
    settleTimer = setTimeout(() => {
      settleTimer = undefined;
      if (running || !dirty) return; // a pass already under way re-scans
      reindex().then(
        (r) => void (late = { parsed: late.parsed + r.parsed.length, removed: late.removed + r.removed, repaired: late.repaired + r.repaired }),
        (error) => platform.logger?.log("debug", `the re-scan after the first index failed: ${(error as Error).message}`),
      );
    }, SETTLE_DELAY_MS);
  };
  const cancelSettle = () => {
    if (settleTimer !== undefined) clearTimeout(settleTimer);
    settleTimer = undefined;
  };

  /**
   * One index pass. A plain pass scans the tree and is shared by the plain passes asked for while it
   * runs. A repair or a re-check must read its files after they were found damaged or changed, so
   * it never joins a pass under way; a re-check reads only those files and keeps the rest of the
   * inventory, so it leaves the watcher's "something changed" flag to the next scan.
   */
  const reindex = async (run: RunOptions = {}, extra: { repair?: ReadonlySet<string>; recheck?: ReadonlySet<string> } = {}): Promise<IndexResult> => {
    const shared = !extra.repair && !extra.recheck;
    while (running && !(shared && runningShared)) await running.catch(() => {});
    if (running) return running;
    runningShared = shared;
    running = (async () => {
      const full = !extra.recheck;
      const opts: IndexOptions = {
        ...run, ...(options.maxFileBytes !== undefined ? { maxFileBytes: options.maxFileBytes } : {}), ...(options.exclude ? { exclude: options.exclude } : {}),
        ...(options.jobs !== undefined ? { jobs: options.jobs } : {}), ...extra,
      };
      if (full) {
        dirty = false; // events from here on mean another pass
        cancelSettle();
      }
      let result: IndexResult;
      try {
        result = await runIndex(platform, opts, state);
      } catch (error) {
        dirty = true; // a failed pass proves nothing about the files: check again next time
        throw error;
      }
      // Nothing changed: keep the same snapshot so everything derived from it stays cached.
      // (Its skipped files, with the stat changes matches against the git index, are the scan's own.)
      if (!result.changed && state) result.snapshot = Object.assign(state.snapshot, { skipped: result.snapshot.skipped });
      else state = { snapshot: result.snapshot, records: result.records };
      if (result.repaired > 0) platform.logger?.log("warn", `the index cache had ${result.repaired} damaged or missing entr${result.repaired === 1 ? "y" : "ies"}; made again from the source files.`);
      if (full) lastAt = Date.now();
      if (!watcher || result.changed) {
        const first = !watcher;
        startWatching(state.snapshot);
        // Edits made while this pass ran, before the watchers existed, were not seen: re-scan once more.
        if (first && watcher) {
          dirty = true;
          scheduleSettle();
        }
      }
      return result;
    })().finally(() => {
      running = undefined;
    });
    return running;
  };

  /** Re-indexes files whose bytes a read found changed. */
  const recheck = async (paths: Iterable<string>, run: RunOptions): Promise<void> => {
    await reindex(run.signal ? { signal: run.signal } : {}, { recheck: new Set(paths) });
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
  /** Every record of the current snapshot, with that snapshot (a refresh may replace it meanwhile). */
  const loadAll = async (run: RunOptions = {}): Promise<{ snapshot: Snapshot; records: FileRecord[] }> => {
    if (!state) await reindex(run);
    const unloaded = state!.snapshot.files.reduce((n, f) => n + (f.record && !state!.records.has(f.path) ? f.definitions ?? 0 : 0), 0);
    if (unloaded > 0) ensureHeadroom(platform.memory, unloaded * HEAP_PER_SYMBOL.records, `the records of ${unloaded.toLocaleString("en-US")} symbols`);
    // A record that does not read back whole (truncated, flipped, deleted, replaced) is made again
    // from its file: the answer stays correct and the cache heals. Twice at most, in case the
    // files change under the repair itself.
    for (let attempt = 0; ; attempt++) {
      const { snapshot, records } = state!;
      const damaged = await loadRecords(snapshot, records);
      if (damaged.size === 0) return { snapshot, records: snapshot.files.filter((f) => f.record).map((f) => records.get(f.path)!) };
      if (attempt >= 2) {
        throw new EngineError("no_index", `The index cache ${platform.store.label} could not be repaired: ${damaged.size} records stay unreadable (${[...damaged].slice(0, 3).join(", ")}).`, {
          hint: "Delete the cache folder; it is rebuilt on the next run.",
          data: { store: platform.store.label, paths: [...damaged].slice(0, 20) },
        });
      }
      await reindex(run, { repair: damaged });
    }
  };

  /**
   * The code graph of the current snapshot, with the inputs it was built from. The configs it
   * resolves modules with are read through those inputs: when one changed since it was indexed, the
   * graph is not built from it (the caller's `consistent` re-indexes it and asks again).
   */
  const graphOf = async (run: RunOptions = {}): Promise<BuiltGraph> => {
    const { snapshot, records } = await loadAll(run);
    if (records.length === 0) {
      throw new EngineError("no_supported_files", `No source files in a supported language under ${platform.fs.rootLabel}.`, {
        hint: `Supported languages: ${supportedLanguageNames().join(", ")}. Check the project folder, or whether its files are ignored by git.`,
        data: { root: platform.fs.rootLabel, languages: supportedLanguageNames() },
      });
    }
    if (graphCache?.snapshot !== snapshot) {
      const previous = graphCache;
      const built = (async (): Promise<BuiltGraph> => {
        const inputs = snapshotInputs(platform.fs, snapshot);
        const paths = snapshot.files.map((f) => f.path);
        const configs = new Map<string, string>();
        for (const f of snapshot.files) {
          if (!CONFIG_FILE.test(f.path)) continue;
          try {
            configs.set(f.path, await inputs.text(f.path));
          } catch {
            // unreadable config: resolution falls back to plain relative paths
          }
        }
        inputs.check();
        // After an edit the previous graph can often be updated instead of rebuilt: the same files
        // and configuration, and a few records changed in ways no other file can see.
        const prior = previous ? await previous.built.catch(() => undefined) : undefined;
        const updated = prior && samePaths(prior.paths, paths) && sameConfigs(prior.configs, configs) ? updateGraph(prior.graph, records) : undefined;
        if (updated) return { graph: updated, snapshot, paths, configs };
        const symbols = records.reduce((n, r) => n + r.definitions.length, 0);
        ensureHeadroom(platform.memory, symbols * HEAP_PER_SYMBOL.graph, `the code graph of ${symbols.toLocaleString("en-US")} symbols`);
        return { graph: buildGraph(records, paths, configs), snapshot, paths, configs };
      })();
      graphCache = { snapshot, built };
      // A graph that could not be built is not kept: the next call builds again, from the last good one.
      built.catch(() => {
        if (graphCache?.built === built) graphCache = previous;
      });
    }
    return graphCache.built;
  };

  /**
   * Runs `answer` until the files it read are the ones its snapshot indexed. A file that changed
   * since (edited, replaced, deleted) is re-indexed alone and the answer computed again: correct
   * lines rather than an error whenever a retry can give them. A file still changing after
   * MAX_INPUT_RETRIES re-indexes ends in `stale_index`.
   */
  const consistent = async <T>(run: RunOptions, answer: (read: (snapshot: Snapshot) => Inputs) => Promise<T>): Promise<T> => {
    for (let attempt = 0; ; attempt++) {
      const reads: Inputs[] = [];
      const read = (snapshot: Snapshot) => {
        const inputs = snapshotInputs(platform.fs, snapshot);
        reads.push(inputs);
        return inputs;
      };
      let stale: StaleInput[];
      try {
        const value = await answer(read);
        // Whatever the answer did with the bytes, it is not given out if any were not the indexed ones.
        for (const inputs of reads) inputs.check();
        return value;
      } catch (error) {
        if (!(error instanceof StaleInputs)) throw error;
        stale = error.stale;
      }
      if (attempt >= MAX_INPUT_RETRIES) throw staleIndexError(stale[0]!, attempt);
      platform.logger?.log("info", `${stale.map((s) => s.path).join(", ")} changed since indexed: re-indexing before answering.`);
      await recheck(stale.map((s) => s.path), run);
    }
  };

  const codeGraph = (run: RunOptions = {}): Promise<CodeGraph> => consistent(run, async () => (await graphOf(run)).graph);

  // Git data for changes (trees, commits, the parsed index), keyed by content, so never stale.
  const git = createGitCache();
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
  const contextIO = (graph: CodeGraph, inputs: Inputs): ContextIO => ({
    root: platform.fs.rootLabel,
    readText: (path) => inputs.text(path),
    searchIndex: () => searchIndexOf(graph),
    routes: () => routesOf(graph),
  });
  const answerContext = (target: string, opts: ContextOptions & RunOptions, task?: Parameters<typeof buildContext>[4]) =>
    consistent(opts, async (read) => {
      const { graph, snapshot } = await graphOf(opts);
      return buildContext(graph, target, opts, contextIO(graph, read(snapshot)), task);
    });

  // Refresh: the first index (shared by every call that arrives while it runs, each with its own
  // progress), the settle pass after it, and recovery after a failure, so every host gets them.
  let initial: Promise<{ result: IndexResult; durationMs: number; claimed: boolean }> | undefined;
  const progressListeners = new Set<(p: Progress) => void>();
  const broadcast = (p: Progress) => progressListeners.forEach((l) => l(p));
  const firstPass = async (run: RunOptions) => {
    const started = Date.now();
    const result = await reindex({ ...(run.signal ? { signal: run.signal } : {}), onProgress: broadcast });
    if (sourceCount(result.snapshot) > 0) {
      // Building the graph is part of the first answer's cost; say so while it happens. Its errors
      // (a heap too small) belong to the answers that need it, not to the index.
      broadcast({ phase: "graph", done: 0 });
      await codeGraph(run).catch(() => {});
    }
    return { result, durationMs: Date.now() - started, claimed: false };
  };
  const checkRoot = async () => {
    let kind: string;
    try {
      kind = (await platform.fs.stat("")).kind;
    } catch (error) {
      if (isEngineError(error, "not_found", "not_directory")) {
        throw new EngineError("root_not_found", `The project root no longer exists: ${platform.fs.rootLabel}`, { data: { root: platform.fs.rootLabel }, cause: error });
      }
      throw error;
    }
    if (kind !== "directory") throw new EngineError("root_not_directory", `The project root is no longer a folder: ${platform.fs.rootLabel}`, { data: { root: platform.fs.rootLabel } });
  };
  /** What a refresh reports; every other mode than the first index also reports the settle pass's changes. */
  const refreshResult = (r: IndexResult | undefined, mode: RefreshResult["mode"], durationMs: number): RefreshResult => {
    const fold = mode === "initial" ? { parsed: 0, removed: 0, repaired: 0 } : late;
    if (mode !== "initial") late = { parsed: 0, removed: 0, repaired: 0 };
    const parsed = (r?.parsed.length ?? 0) + fold.parsed;
    const removed = (r?.removed ?? 0) + fold.removed;
    return {
      refreshed: mode === "initial" || r?.changed === true || parsed + removed > 0, parsed, removed, repaired: (r?.repaired ?? 0) + fold.repaired,
      at: lastAt, mode, sourceFiles: sourceCount(state!.snapshot), files: state!.snapshot.files.length, durationMs,
    };
  };
  const refresh = async (run: RefreshOptions = {}): Promise<RefreshResult> => {
    const started = Date.now();
    if (run.onProgress) progressListeners.add(run.onProgress);
    try {
      await checkRoot();
      if (!state || initial) {
        const pass = (initial ??= firstPass(run));
        let first;
        try {
          first = await pass;
        } catch (error) {
          if (initial === pass) initial = undefined;
          throw error;
        }
        if (!first.claimed) {
          first.claimed = true;
          if (initial === pass) initial = undefined;
          return refreshResult(first.result, "initial", first.durationMs);
        }
      }
      // Let pending watch events arrive first: an edit made just before this call is delivered on
      // the next turn of the event loop, and answering before it would be answering stale. A pass
      // under way (the settle pass, another caller's) may have started before the edits this call
      // must see: it is waited for, and without a watcher a new scan follows, shared by the calls
      // that waited with this one.
      if (watcher) await new Promise((resolve) => setTimeout(resolve, 0));
      if (running) await running.catch(() => {});
      const watching = watcher !== undefined;
      if (watching && !dirty && !run.rescan) return refreshResult(undefined, "watch", Date.now() - started);
      const r = await reindex(run.signal ? { signal: run.signal } : {});
      return refreshResult(r, watching && !run.rescan ? "watch" : "scan", Date.now() - started);
    } catch (error) {
      // The engine may hold watchers on deleted folders: drop them and re-scan on the next call,
      // which also starts watching afresh (no background pass may start them before it).
      cancelSettle();
      watcher?.close();
      watcher = undefined;
      dirty = true;
      throw error;
    } finally {
      if (run.onProgress) progressListeners.delete(run.onProgress);
    }
  };

  return {
    refresh,
    close() {
      cancelSettle();
      watcher?.close();
      watcher = undefined;
    },
    context(target, opts = {}) {
      return answerContext(target, opts);
    },
    pack(task, opts = {}) {
      return answerContext(task, opts, { maxSeeds: opts.seeds ?? DEFAULT_TASK_SEEDS });
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
      if (!state) await reindex(opts);
      return consistent(opts, async (read) => {
        const snapshot = state!.snapshot;
        const inventory = new Set(snapshot.files.map((f) => f.path));
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
        const inputs = read(snapshot);
        const lines = (await inputs.text(path)).split("\n");
        inputs.check();
        const total = lines.length;
        if (start > total) {
          throw new EngineError("invalid_argument", `${path} has ${total} lines; start ${start} is past the end.`, { data: { path, totalLines: total } });
        }
        const last = Math.min(end, total, start + maxLines - 1);
        return { path, start, end: last, totalLines: total, capped: last < end, text: lines.slice(start - 1, last).join("\n") };
      });
    },
    async routes(opts = {}) {
      return routesOf(await codeGraph(opts));
    },
    async index(run = {}) {
      const result = await reindex(run);
      return summarize(platform, result);
    },
    async records(run = {}) {
      return (await loadAll(run)).records;
    },
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
    async impact(target, opts = {}) {
      const args = await listArgs(opts);
      const direction = checkDirection(opts.direction ?? args.direction); // a cursor carries the direction it was made with
      const depth = checkImpactDepth(args.depth);
      const graph = await codeGraph(opts);
      return impact(graph, target, direction, depth, args, { root: platform.fs.rootLabel, routes: () => routesOf(graph) });
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
    map(opts = {}) {
      return consistent(opts, async (read) => {
        const { graph, snapshot } = await graphOf(opts);
        const inputs = read(snapshot);
        const manifests = new Map<string, string>();
        for (const f of snapshot.files) {
          if (!isManifest(f.path)) continue;
          try {
            manifests.set(f.path, await inputs.text(f.path));
          } catch {
            // an unreadable manifest still marks a service folder
            manifests.set(f.path, "");
          }
        }
        inputs.check();
        return buildRepoMap(snapshot, graph, manifests, routesOf(graph), opts);
      });
    },
    changes(opts = {}) {
      // Read through the snapshot's inputs: a cited file edited since indexing is re-indexed first.
      return consistent(opts, async (read) => {
        const { graph, snapshot } = await graphOf(opts);
        const inputs = read(snapshot);
        return runChanges({
          platform, graph, snapshot, routes: routesOf(graph), maxFileBytes: options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES, readText: (path) => inputs.text(path), git,
          ...(opts.signal ? { signal: opts.signal } : {}),
        }, opts);
      });
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
