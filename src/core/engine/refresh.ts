/**
 * `refresh()`: the first index (shared by every call that arrives while it runs, each with its own
 * progress), later refreshes by watcher or re-scan with the settle pass's findings folded in, and
 * recovery after a failure, so every host gets the same freshness rules.
 */
import { EngineError, isEngineError } from "../../shared/errors.ts";
import type { RefreshOptions, RefreshResult, RunOptions } from "./api.ts";
import { codeGraph } from "./graph-cache.ts";
import type { IndexResult, Progress } from "./indexer.ts";
import { markStale, reindex, stopWatching, takeLate } from "./passes.ts";
import type { Snapshot } from "./snapshot.ts";
import type { EngineState } from "./state.ts";

const sourceCounts = new WeakMap<Snapshot, number>();
/** Files with a record (a supported language) in `snapshot`. */
export function sourceCount(snapshot: Snapshot): number {
  let n = sourceCounts.get(snapshot);
  if (n === undefined) sourceCounts.set(snapshot, (n = snapshot.files.reduce((k, f) => k + (f.record ? 1 : 0), 0)));
  return n;
}

/** The first index and its code graph, with every waiting refresh's progress. */
async function firstPass(
  s: EngineState,
  run: RunOptions,
): Promise<{ result: IndexResult; durationMs: number; claimed: boolean }> {
  const started = Date.now();
  const broadcast = (p: Progress) => s.refresh.progressListeners.forEach((l) => l(p));
  const result = await reindex(s, { ...(run.signal ? { signal: run.signal } : {}), onProgress: broadcast });
  if (sourceCount(result.snapshot) > 0) {
    // Building the graph is part of the first answer's cost; say so while it happens. Its errors
    // (a heap too small) belong to the answers that need it, not to the index.
    broadcast({ phase: "graph", done: 0 });
    await codeGraph(s, run).catch(() => {});
  }
  return { result, durationMs: Date.now() - started, claimed: false };
}

/** Throws `root_not_found` or `root_not_directory` when the project root went away. */
async function checkRoot(s: EngineState): Promise<void> {
  const { fs } = s.platform;
  let kind: string;
  try {
    kind = (await fs.stat("")).kind;
  } catch (error) {
    if (isEngineError(error, "not_found", "not_directory")) {
      throw new EngineError("root_not_found", `The project root no longer exists: ${fs.rootLabel}`, {
        data: { root: fs.rootLabel },
        cause: error,
      });
    }
    throw error;
  }
  if (kind !== "directory")
    throw new EngineError("root_not_directory", `The project root is no longer a folder: ${fs.rootLabel}`, {
      data: { root: fs.rootLabel },
    });
}

/** What a refresh reports; every other mode than the first index also reports the settle pass's changes. */
function refreshResult(
  s: EngineState,
  r: IndexResult | undefined,
  mode: RefreshResult["mode"],
  durationMs: number,
): RefreshResult {
  const fold = mode === "initial" ? { parsed: 0, removed: 0, repaired: 0 } : takeLate(s);
  const parsed = (r?.parsed.length ?? 0) + fold.parsed;
  const removed = (r?.removed ?? 0) + fold.removed;
  return {
    refreshed: mode === "initial" || r?.changed === true || parsed + removed > 0,
    parsed,
    removed,
    repaired: (r?.repaired ?? 0) + fold.repaired,
    at: s.passes.lastAt,
    mode,
    sourceFiles: sourceCount(s.passes.index!.snapshot),
    files: s.passes.index!.snapshot.files.length,
    durationMs,
  };
}

/** `Engine.refresh`: see its documentation for the rules. */
export async function refresh(s: EngineState, run: RefreshOptions = {}): Promise<RefreshResult> {
  const started = Date.now();
  if (run.onProgress) s.refresh.progressListeners.add(run.onProgress);
  try {
    await checkRoot(s);
    if (!s.passes.index || s.refresh.initial) {
      const first = await joinFirstPass(s, run);
      if (first) return refreshResult(s, first.result, "initial", first.durationMs);
    }
    // Let pending watch events arrive first: an edit made just before this call is delivered on
    // the next turn of the event loop, and answering before it would be answering stale. A pass
    // under way (the settle pass, another caller's) may have started before the edits this call
    // must see: it is waited for, and without a watcher a new scan follows, shared by the calls
    // that waited with this one.
    if (s.passes.watcher) await new Promise((resolve) => setTimeout(resolve, 0));
    if (s.passes.running) await s.passes.running.catch(() => {});
    const watching = s.passes.watcher !== undefined;
    if (watching && !s.passes.dirty && !run.rescan) return refreshResult(s, undefined, "watch", Date.now() - started);
    // With a watcher, the paths its events named are re-checked alone when that is enough.
    const r = await reindex(
      s,
      run.signal ? { signal: run.signal } : {},
      watching && !run.rescan ? { watched: true } : {},
    );
    return refreshResult(s, r, watching && !run.rescan ? "watch" : "scan", Date.now() - started);
  } catch (error) {
    // The engine may hold watchers on deleted folders: drop them and re-scan on the next call,
    // which also starts watching afresh (no background pass may start them before it).
    stopWatching(s);
    markStale(s);
    throw error;
  } finally {
    if (run.onProgress) s.refresh.progressListeners.delete(run.onProgress);
  }
}

/**
 * Waits for the first index (starting it if none runs). The first caller to see it finish claims
 * it and reports it; the others (undefined) go on to a refresh of their own.
 */
async function joinFirstPass(
  s: EngineState,
  run: RunOptions,
): Promise<{ result: IndexResult; durationMs: number } | undefined> {
  const pass = (s.refresh.initial ??= firstPass(s, run));
  let first;
  try {
    first = await pass;
  } catch (error) {
    if (s.refresh.initial === pass) s.refresh.initial = undefined;
    throw error;
  }
  if (first.claimed) return undefined;
  first.claimed = true;
  if (s.refresh.initial === pass) s.refresh.initial = undefined;
  return first;
}
