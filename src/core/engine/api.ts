/**
 * The engine's public types: its options, the Engine interface and the answers it names. The
 * engine's modules import these from here, never from engine.ts (the facade that wires them), so
 * the engine's files form no import cycle.
 */
import type { FileRecord } from "../extract/record.ts";
import type { GoldGraph } from "../query/gold-json.ts";
import type { CodeGraph } from "../graph/model.ts";
import type { SignatureAnswer } from "../query/queries.ts";
import type { CallsPage, ImportersPage, ListOptions } from "../query/pages.ts";
import type { TraceAnswer } from "../query/trace.ts";
import type { ImpactAnswer, ImpactDirection } from "../query/impact.ts";
import type { TestsAnswer } from "../evidence/tests.ts";
import type { RunTestsAnswer, RunTestsOptions } from "../evidence/run-tests.ts";
import type { CheckAnswer } from "../check/check.ts";
import type { SymbolRef } from "../query/lookup.ts";
import type { ContextAnswer, ContextOptions } from "../slice/context.ts";
import type { SearchHit } from "../search/search.ts";
import type { LocateAnswer, LocateOptions } from "../locate/locate.ts";
import type { Route } from "../query/routes.ts";
import type { RouteMapAnswer, RouteMapOptions } from "../slice/route-map.ts";
import type { RepoMap, RepoMapOptions } from "../map/repo-map.ts";
import type { SkipReason } from "../../shared/skip-rules.ts";
import type { HostEnvironment } from "../../languages/types.ts";
import { LIMITS } from "../limits.ts";
import type { Progress } from "./indexer.ts";
import type { ChangesOptions } from "./changes.ts";
import type { ChangesAnswer } from "../changes/answer.ts";
import type { GrepAnswer, GrepOptions } from "../grep/grep.ts";
import type { ArtifactSummary } from "./artifact.ts";
import type { ScipAnswer, ScipOptions } from "../scip/scip.ts";
import type { RenamePlan } from "../rename/plan.ts";
import type { ApplyReport, PlanFiles } from "../rename/apply.ts";
import type { QueryAnswer, QueryOptions } from "../query-language/query.ts";
import type { ClustersAnswer, FlowsAnswer, StructureOptions } from "../query-language/structure.ts";
import type { DataflowAnswer } from "../dataflow/answer.ts";
import type { MermaidMap } from "../map/mermaid.ts";
import type { Contracts } from "../slice/contracts.ts";
import type { FieldRead, ShapeAnswer, ShapeOptions, ShapeSite } from "../slice/shape-check.ts";
import type { ModelNode } from "../slice/shape-fields.ts";
import type { ToolMapAnswer, ToolMapOptions } from "../map/tool-map.ts";

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
  /**
   * With `watch`: how long after re-checking edited files the engine waits, once none of its calls
   * is in flight, before it writes the index's snapshot (default 150 ms). The edited files' records
   * are stored before the re-check ends; the snapshot that names them is written after the answer
   * it was for, and a process killed before that leaves the previous one, which still names only
   * stored records (the next start re-checks the edited files and finds their records by content).
   */
  saveDelayMs?: number;
  /**
   * The identity of the code running the engine (its version and build time; the CLI passes its
   * own). When given, what the engine derives from an unchanged index (the code graph's resolved
   * edges, the search index) is kept in the cache for this build, and a later engine of the same
   * build on the same index loads it instead of deriving it again. Without it nothing derived is
   * kept: an engine cannot tell whether another build's would still be right.
   */
  buildId?: string;
  /**
   * What the hosts of the indexed code add to its languages (globals such as `process` or `window`, host calls that
   * are data-flow sinks); default: the platform's (`Platform.host`). A front end that knows its code runs on one
   * kind of host passes that profile (`src/platform/host-environments.ts`).
   */
  host?: HostEnvironment;
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
   * each getting the progress; later calls re-index incrementally: with a watcher, only the files
   * its events named when they are all that changed (edited or deleted files; a new name, a folder
   * or a .gitignore means a re-scan), without one after a quick re-scan; and cost next to nothing
   * when nothing changed. With
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
  /**
   * Brings the index up to date (incrementally) and summarizes it. `keepRecords: false` keeps none
   * of the records it parses in memory (a later answer reads them back from the store): for a host
   * that only indexes, so that a cold index of a big tree peaks at the parse's memory, not every
   * record's.
   */
  index(options?: RunOptions & { keepRecords?: boolean }): Promise<IndexSummary>;
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
   * Runs the tests `tests` finds for `target` with the runner it detected: each command checked
   * against the allowlist and started without a shell, killed after `timeoutSeconds`; the answer
   * keeps the exit code, failing ids, assertion and traceback lines, fitted to `budget`.
   * `run_refused` when a command is not allowed or needs a shell, nothing is found, or the host
   * cannot start processes (a browser).
   */
  runTests(target: string, options?: RunOptions & RunTestsOptions & { depth?: number }): Promise<RunTestsAnswer>;
  /**
   * The structural rules of the project's check config (or `config`) over the code graph:
   * layers, forbidden imports, import cycles, exports with no callers, calls into deprecated
   * symbols, file sizes. `check_config_missing` / `check_config_invalid` when the config is absent
   * or wrong. `configLabel` names a given `config` in the answer and in errors (its file).
   */
  check(options?: RunOptions & { config?: unknown; configLabel?: string }): Promise<CheckAnswer>;
  /**
   * The shortest paths (at most `k`, default 3, within `maxHops`, default 6) from a symbol or a
   * route (`METHOD /path`) to a symbol, through calls, inheritance, overriding, types and imports.
   */
  trace(
    from: string,
    to: string,
    options?: RunOptions & Omit<ListOptions, "limit" | "cursor" | "tests"> & { k?: number; maxHops?: number },
  ): Promise<TraceAnswer>;
  /**
   * The blast radius of a symbol, a file or `path:start-end`: callers (`direction` up, the
   * default), callees (down) or both to `depth` hops (default 3), grouped by depth with each hop's
   * resolution and confidence, the routes and tests reached, and a risk summary; paged like callers.
   */
  impact(
    target: string,
    options?: RunOptions & ListOptions & { depth?: number; direction?: ImpactDirection },
  ): Promise<ImpactAnswer>;
  /** Header and docstring without the body; a class with its members stubbed. */
  signature(symbol: string, options?: RunOptions): Promise<SignatureAnswer>;
  /**
   * A read-only graph query in a subset of Cypher (`MATCH (a)-[:CALLS*1..3]->(b) WHERE … RETURN …
   * LIMIT n`, grammar in core/query-language/parse.ts) over files, symbols, routes and tests and the edges
   * between them. Bounded by time, intermediate rows, LIMIT and the token budget: throws
   * `invalid_query` (with line and column) or `query_over_budget` rather than run on or cut silently.
   */
  query(text: string, options?: RunOptions & QueryOptions): Promise<QueryAnswer>;
  /**
   * Execution flows: from each entry point (a route's handler, a CLI command, a `main`, a test)
   * through its callees, named by the entry and ranked by the symbols reached.
   */
  flows(options?: RunOptions & StructureOptions): Promise<FlowsAnswer>;
  /**
   * Functional clusters of files (Louvain communities over calls and imports), each with its
   * cohesion, central symbols and the entry points whose flows reach it.
   */
  clusters(options?: RunOptions & StructureOptions): Promise<ClustersAnswer>;
  /**
   * The architecture as Mermaid diagrams built from the graph (imports between top folders,
   * clusters with the calls between them and their entry points, the largest flows), fitted to
   * `budget` tokens (o200k; default 2,000).
   */
  mermaidMap(options?: RunOptions & { budget?: number }): Promise<MermaidMap>;
  /** Resolves a symbol name to one definition (throws unknown_symbol / ambiguous_symbol). */
  resolveSymbol(symbol: string, options?: RunOptions): Promise<SymbolRef>;
  /**
   * The smallest bundle of whole symbols that answers `target` (a symbol, `path::symbol`, a file,
   * `METHOD /path`, or words), fitted to `budget` tokens with citations and a cut list.
   */
  context(target: string, options?: ContextOptions & RunOptions): Promise<ContextAnswer>;
  /** Like context, seeded by the best search hits for a task described in words. */
  pack(task: string, options?: ContextOptions & RunOptions & { seeds?: number }): Promise<ContextAnswer>;
  /**
   * Where a task points (a bug report, an error, a commit message; up to 100,000 characters, read
   * whole): ranked files and, under each, ranked functions and classes, with the evidence for each.
   */
  locate(task: string, options?: LocateOptions & RunOptions): Promise<LocateAnswer>;
  /**
   * Symbols matching words (identifier parts, path, signature, docstring), and sections of the
   * project's docs and configuration (a Markdown heading, a YAML, TOML or JSON key, an env
   * variable; `qualified` is the chunk's handle, which `context` takes), in one ranking.
   */
  search(query: string, options?: RunOptions & { limit?: number }): Promise<SearchHit[]>;
  /**
   * Lines matching a regular expression (RE2 syntax, linear-time: no catastrophic backtracking) in
   * the files of the index inventory, as `path:line:column` with the line and the definition around
   * it; bounded by `maxMatches`, `timeMs`, the bytes read and `budget` (tokens of `text`), saying
   * when more may exist. Throws `invalid_pattern` (with the column) and `outside_root` (a path
   * filter that leaves the root).
   */
  grep(pattern: string, options?: GrepOptions & RunOptions): Promise<GrepAnswer>;
  /** HTTP routes found in the project, with full paths after prefixes. */
  routes(options?: RunOptions): Promise<Route[]>;
  /**
   * The route map: every route (filtered by path prefix and method) with its handler, the client
   * calls in the project that reach it (`fetch`, axios, httpx/requests, test clients) and its tests,
   * fitted to a budget.
   */
  routeMap(options?: RouteMapOptions & RunOptions): Promise<RouteMapAnswer>;
  /**
   * The fields of a response model (or of a route's response) that each consumer reads — the client
   * calls the route map finds, followed through the consumer's code, and parameters typed by the
   * model — and, given renames (`old=new`) or removals, the reads that break, with `path:line`.
   */
  shapeCheck(target: string, options?: ShapeOptions & RunOptions): Promise<ShapeAnswer>;
  /**
   * shape_check's consumer side for a repository group: the fields this project's code reads of
   * model trees another repository's engine built — at call sites here whose response is that
   * model (`sites`), and through parameters typed by the `typed` models' names.
   */
  shapeReads(sites: readonly ShapeSite[], typed: readonly ModelNode[], options?: RunOptions): Promise<FieldRead[]>;
  /**
   * The project's tools and commands: MCP tools, JSON-RPC and gRPC methods, CLI commands
   * (click, typer, argparse, commander, yargs, defineCommand), where each is defined and handled.
   */
  toolMap(options?: ToolMapOptions & RunOptions): Promise<ToolMapAnswer>;
  /**
   * This project's side of the contracts with other repositories, as plain data: the routes it
   * serves, the client calls it sends (URL as written) and the imports it cannot resolve inside
   * itself. A group of engines matches one's calls against another's routes.
   */
  contracts(options?: RunOptions): Promise<Contracts>;
  /**
   * Lines `start`..`end` (1-based, inclusive) of a project file, at most `maxLines` of them.
   * Only files in the index inventory are readable: nothing ignored, nothing outside the root.
   */
  snippet(
    path: string,
    start: number,
    end: number,
    options?: RunOptions & { maxLines?: number },
  ): Promise<SnippetAnswer>;
  /** The repo map, fitted to a token budget. */
  map(options?: RepoMapOptions & RunOptions): Promise<RepoMap>;
  /**
   * What changed — the working tree against HEAD (default), the index (`staged`), two commits
   * (`base`/`head`) or a pasted unified diff (`diff`) — as changed definitions with their impact
   * (callers of changed signatures, routes and tests reached), fitted to `budget` like context.
   */
  changes(options?: ChangesOptions & RunOptions): Promise<ChangesAnswer>;
  /**
   * The index as a portable artifact (format in core/engine/artifact.ts): the snapshot of the last
   * index (made first when there is none) and every record it names, relocatable and checksummed.
   * Another engine, on any machine and under any root, loads it with `importIndex`.
   */
  exportIndex(options?: RunOptions): Promise<{ bytes: Uint8Array; summary: ArtifactSummary }>;
  /**
   * Loads an artifact `exportIndex` made into this engine's store, replacing its index. All of it
   * is checked first (frame, SHA-256, versions, every record, the snapshot) and nothing is written
   * unless all of it holds: `artifact_foreign`, `artifact_truncated`, `artifact_corrupt` or
   * `artifact_version_mismatch` otherwise. The next index run finds each file's record by its
   * content and parses only the files that differ from the exporter's.
   */
  importIndex(bytes: Uint8Array): Promise<ArtifactSummary>;
  /** The code graph as a SCIP index (core/scip/scip.ts): definitions, references, inheritance. */
  scip(options?: ScipOptions & RunOptions): Promise<ScipAnswer>;
  /**
   * Whether `path` (relative to the root) is one of the project's own files: a source file of the
   * index, or a file git tracks. A front end writing output (an artifact, a SCIP index) refuses to
   * replace one unless told to, since the export would silently take the place of code.
   */
  isProjectFile(path: string, options?: RunOptions): Promise<boolean>;
  /**
   * The preview of renaming `symbol` to `newName` (Python, TypeScript, JavaScript): every code edit
   * with why it is made (definition, call, reference, import, re-export, attribute, override),
   * mentions in strings and comments apart, occurrences the graph cannot resolve apart (never
   * edited), and a `planToken` (SHA-256 of the preview and of each touched file's hash). The plan
   * is kept in the store for `applyRename`. Throws `rename_refused` for an invalid identifier, a
   * keyword, a name that collides in a scope the rename reaches, a symbol outside the project, and
   * what rename does not handle (modules, constructors, special methods, other languages).
   */
  rename(symbol: string, newName: string, options?: RunOptions): Promise<RenamePlan>;
  /**
   * Statement-level data flow in one function (Python, TypeScript, JavaScript), built on demand:
   * `target` is a symbol or a route `METHOD /path` (an inline handler too). With no question,
   * whether user input (route parameters, request data) reaches a SQL, process, file-write or
   * HTML-response call, here or in a project function it passes the input to; with `variable`
   * (and `line`), where that value comes from and where it goes; with `line` alone, where the
   * values read on that line come from. Steps cite `path:line`; what cannot be followed is
   * listed as unknown.
   */
  dataflow(target: string, options?: DataflowOptions & RunOptions): Promise<DataflowAnswer>;
  /**
   * Applies the plan a preview sealed with `token` through `files`, the host's file operations
   * (the engine never writes project files itself): all files or none, only if each still has the
   * content the preview saw. Mentions are written only with `mentions`. A token applies once.
   * Throws `plan_unknown` (also when `newName` is not the preview's), `plan_stale` (nothing
   * written) or `apply_failed` (files restored).
   */
  applyRename(
    token: string,
    files: PlanFiles,
    options?: RunOptions & { mentions?: boolean; newName?: string },
  ): Promise<ApplyReport>;
}

/**
 * The question: none for "does user input reach a sink"; a variable (at a line) for where it comes from and goes; a
 * line for the values read there.
 */
export interface DataflowOptions {
  variable?: string;
  line?: number;
}
