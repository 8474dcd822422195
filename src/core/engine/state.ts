/**
 * The engine's shared state, in parts: each part is written by one module only (test/engine/
 * state-owners.test.ts checks it), and the others read it or call that module's functions. So the
 * index passes, the graph cache, the text index, refresh and the answers each live in their own
 * module, and createEngine only wires them together.
 */
import type { Platform } from "../ports.ts";
import type { FileRecord } from "../extract/record.ts";
import type { CodeGraph } from "../graph/model.ts";
import type { SavedSearchIndex, SearchIndex } from "../search/search.ts";
import type { Route } from "../query/routes.ts";
import type { EngineOptions } from "./api.ts";
import type { IndexResult, Progress } from "./indexer.ts";
import type { Snapshot } from "./snapshot.ts";
import type { TextIndex } from "../text/text-index.ts";
import { createGitCache, type GitCache } from "../git/worktree.ts";

/** The code graph of one snapshot, with the paths and configs it was built from. */
export interface BuiltGraph {
  graph: CodeGraph;
  snapshot: Snapshot;
  paths: string[];
  configs: Map<string, string>;
}

/** The index and the passes that keep it current. Written by passes.ts only. */
export interface PassState {
  /** The current snapshot and the records read so far (records load lazily, see `loadAll`). */
  index: { snapshot: Snapshot; records: Map<string, FileRecord> } | undefined;
  /** The index pass under way. */
  running: Promise<IndexResult> | undefined;
  /** Whether the pass under way is a plain scan another caller may share. */
  runningShared: boolean;
  watcher: { close(): void } | undefined;
  /** The folders `watcher` watches, joined: the watchers are kept while a pass leaves them the same. */
  watchedDirs: string | undefined;
  /** Something may have changed since the last full pass (a watch event, a failure, no watcher yet). */
  dirty: boolean;
  /**
   * The paths watch events named since the last pass, when they are all that may have changed;
   * undefined when something else may have (a failure, no watcher yet, too many events): then the
   * next pass re-scans the tree instead of re-checking these paths only.
   */
  touched: Set<string> | undefined;
  /** When the index was last brought up to date with a full scan (ms since epoch). */
  lastAt: number;
  /** The host refused the watchers (too many folders): re-scan instead. */
  watchFailed: boolean;
  settleTimer: ReturnType<typeof setTimeout> | undefined;
  /** What the settle pass found, reported by the next refresh. */
  late: { parsed: number; removed: number; repaired: number };
  /**
   * The snapshot of the current index when it is not written yet (a watching engine writes it
   * after the answer, see passes.ts `saveSoon`), with the record keys the passes since the last
   * write left unused, and the timer that writes it.
   */
  unsaved: { snapshot: Snapshot; garbage: Set<string>; timer: ReturnType<typeof setTimeout> | undefined } | undefined;
  /** The write of a snapshot under way: a pass waits for it, so the sweep after it sees every record in use. */
  saving: Promise<void> | undefined;
  /** Engine calls in flight: a kept snapshot is written once there are none. */
  calls: number;
}

/** The code graph and what derives from it. Written by graph-cache.ts only. */
export interface GraphState {
  /** The code graph of one snapshot, being built or built. */
  cache: { snapshot: Snapshot; built: Promise<BuiltGraph> } | undefined;
  /**
   * One search index, carried from graph to graph: after an edit only the changed files are
   * re-indexed (a full build takes ~0.2 s on django and ~2 s on a 75,000-symbol tree).
   */
  search: SearchIndex | undefined;
  routes: WeakMap<CodeGraph, Route[]>;
  /**
   * The search index kept in the cache for a loaded graph, made the engine's index on first use
   * (a `callers` or a `context` on a symbol never needs it), with what keeps it again if it is damaged
   * or was not kept (undefined: the call that built the graph needed none).
   */
  saved: { graph: CodeGraph; search: SavedSearchIndex | undefined; snapshot: Snapshot; identity: string } | undefined;
  /** The timer that keeps a freshly built graph's derived data in the cache after the answer (derived.ts). */
  keeping: ReturnType<typeof setTimeout> | undefined;
}

/** The text index (docs, configuration). Written by text.ts only. */
export interface TextState {
  /** The text index of one snapshot, being built or built. */
  cache: { snapshot: Snapshot; built: Promise<TextIndex> } | undefined;
}

/** The first index and who waits on it. Written by refresh.ts only. */
export interface RefreshState {
  /** The first index, shared by every refresh that arrives while it runs. */
  initial: Promise<{ result: IndexResult; durationMs: number; claimed: boolean }> | undefined;
  /** The progress callbacks of the refreshes waiting on the first index. */
  progressListeners: Set<(p: Progress) => void>;
}

/** What one engine holds between calls. Only the engine's own modules touch it. */
export interface EngineState {
  readonly platform: Platform;
  readonly options: EngineOptions;
  readonly passes: PassState;
  readonly graph: GraphState;
  readonly text: TextState;
  readonly refresh: RefreshState;
  /** Git data for changes (trees, commits' trees, the parsed index), keyed by content, so never stale. */
  readonly git: GitCache;
}

/** The state of an engine that has not indexed yet. */
export function createEngineState(platform: Platform, options: EngineOptions): EngineState {
  return {
    platform,
    options,
    passes: {
      index: undefined,
      running: undefined,
      runningShared: false,
      watcher: undefined,
      watchedDirs: undefined,
      dirty: true,
      touched: undefined,
      lastAt: 0,
      watchFailed: false,
      settleTimer: undefined,
      late: { parsed: 0, removed: 0, repaired: 0 },
      unsaved: undefined,
      saving: undefined,
      calls: 0,
    },
    graph: { cache: undefined, search: undefined, routes: new WeakMap(), saved: undefined, keeping: undefined },
    text: { cache: undefined },
    refresh: { initial: undefined, progressListeners: new Set() },
    git: createGitCache(),
  };
}
