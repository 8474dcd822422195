/**
 * The engine's index passes: one pass at a time (plain scans shared, repairs and re-checks alone),
 * the folder watchers that make a refresh free until a file changes, the settle pass after the
 * first index, and loading the records a snapshot names (repairing damaged cache entries).
 */
import { EngineError, isEngineError } from "../../shared/errors.ts";
import type { FileRecord } from "../extract/record.ts";
import type { RunOptions } from "./engine.ts";
import { runIndex, type IndexOptions, type IndexResult } from "./indexer.ts";
import { ensureHeadroom, HEAP_PER_SYMBOL } from "./memory.ts";
import { decodeRecord, type Snapshot } from "./snapshot.ts";
import type { EngineState } from "./state.ts";

/** How long after the first index the settle re-scan starts (lets the first answer go out first). */
const SETTLE_DELAY_MS = 20;

/** Past this many paths named by watch events between two passes, the next pass re-scans the tree. */
const MAX_TOUCHED = 256;

/** Files whose change changes which files the scan takes in: a watch event naming one means a re-scan. */
const SCAN_RULES = /(^|\/)\.gitignore$/;

/**
 * Watches every folder of `snapshot` (when asked to and the file system can); an event marks the
 * state dirty and names the path. Watchers over the same folders are kept (on django, closing and
 * opening ~700 of them after each edit cost more than re-parsing the file).
 */
function startWatching(s: EngineState, snapshot: Snapshot): void {
  const { platform, options } = s;
  if (!options.watch || !platform.fs.watch || s.watchFailed) {
    s.watcher?.close();
    s.watcher = undefined;
    return;
  }
  const dirs = new Set<string>([""]);
  // Skipped files' folders too: changes trusts their stat from the last scan.
  for (const f of [...snapshot.files, ...snapshot.skipped]) for (let d = f.path.lastIndexOf("/"); d > 0; d = f.path.lastIndexOf("/", d - 1)) dirs.add(f.path.slice(0, d));
  const key = [...dirs].sort().join("\n");
  if (s.watcher && s.watchedDirs === key) return;
  s.watcher?.close();
  s.watcher = undefined;
  const excluded = options.exclude ?? [];
  try {
    s.watcher = platform.fs.watch([...dirs], (path) => {
      if (excluded.some((x) => path === x || path.startsWith(`${x}/`))) return;
      s.dirty = true;
      if (s.touched && s.touched.add(path).size > MAX_TOUCHED) s.touched = undefined;
    });
    s.watchedDirs = key;
  } catch {
    s.watchFailed = true; // too many folders for the host's watch limit: re-scan instead
  }
}

const inventories = new WeakMap<Snapshot, Set<string>>();

/**
 * The files to re-check after watch events named `touched`, when re-checking them is all a pass
 * needs: each is a file of the inventory (edited, or deleted), or a name that is gone again (an
 * editor's temporary file). Undefined when only a scan will do: a new file or folder, a folder's
 * own event, an ignore file, a file the last scan skipped, a file that became something else.
 */
async function watchedFiles(s: EngineState, snapshot: Snapshot, touched: ReadonlySet<string>): Promise<Set<string> | undefined> {
  let known = inventories.get(snapshot);
  if (!known) inventories.set(snapshot, (known = new Set(snapshot.files.map((f) => f.path))));
  const out = new Set<string>();
  for (const path of touched) {
    if (SCAN_RULES.test(path)) return undefined;
    let kind;
    try {
      kind = (await s.platform.fs.stat(path)).kind;
    } catch (error) {
      if (!isEngineError(error, "not_found", "not_directory")) return undefined;
    }
    if (known.has(path) && (kind === undefined || kind === "file")) out.add(path);
    else if (kind !== undefined) return undefined;
  }
  return out;
}

/**
 * The settle pass: watchers exist only once the first index is done, so an edit made while it ran
 * goes unnoticed by them. One more pass (a re-scan that parses only what changed) shortly after
 * catches those; a refresh that arrives meanwhile waits for it and reports what it found.
 */
function scheduleSettle(s: EngineState): void {
  if (s.settleTimer !== undefined) clearTimeout(s.settleTimer);
  s.settleTimer = setTimeout(() => {
    s.settleTimer = undefined;
    if (s.running || !s.dirty) return; // a pass already under way re-scans
    reindex(s).then(
      (r) => void (s.late = { parsed: s.late.parsed + r.parsed.length, removed: s.late.removed + r.removed, repaired: s.late.repaired + r.repaired }),
      (error) => s.platform.logger?.log("debug", `the re-scan after the first index failed: ${(error as Error).message}`),
    );
  }, SETTLE_DELAY_MS);
}

/** Cancels a settle pass not yet started. */
export function cancelSettle(s: EngineState): void {
  if (s.settleTimer !== undefined) clearTimeout(s.settleTimer);
  s.settleTimer = undefined;
}

/** Stops watching and cancels the settle pass (after a failure, or when the host closes the engine). */
export function stopWatching(s: EngineState): void {
  cancelSettle(s);
  s.watcher?.close();
  s.watcher = undefined;
}

/**
 * One index pass. A plain pass scans the tree and is shared by the plain passes asked for while it
 * runs. A repair or a re-check must read its files after they were found damaged or changed, so
 * it never joins a pass under way; a re-check reads only those files and keeps the rest of the
 * inventory, so it leaves the watcher's "something changed" flag to the next scan.
 */
export async function reindex(s: EngineState, run: RunOptions = {}, extra: PassKind = {}): Promise<IndexResult> {
  const shared = !extra.repair && !extra.recheck && !extra.watched;
  while (s.running && !(shared && s.runningShared)) await s.running.catch(() => {});
  if (s.running) return s.running;
  s.runningShared = shared;
  const running = (s.running = indexPass(s, run, extra).finally(() => {
    s.running = undefined;
  }));
  return running;
}

/**
 * What a pass does besides a plain scan: `repair` and `recheck` read the files named; `watched`
 * re-checks only the files the watch events since the last pass named, when they are all that may
 * have changed (see `watchedFiles`), and scans otherwise.
 */
export interface PassKind {
  repair?: ReadonlySet<string>;
  recheck?: ReadonlySet<string>;
  watched?: boolean;
}

/** The body of {@link reindex}: runs the indexer, keeps the new snapshot (or the old one when nothing changed), and (re)starts the watchers. */
async function indexPass(s: EngineState, run: RunOptions, extra: PassKind): Promise<IndexResult> {
  const { platform, options } = s;
  const full = !extra.recheck;
  const touched = s.touched;
  if (full) {
    s.dirty = false; // events from here on mean another pass
    s.touched = new Set();
    cancelSettle(s);
  }
  let result: IndexResult;
  let watched: Set<string> | undefined;
  try {
    watched = extra.watched && touched && s.index ? await watchedFiles(s, s.index.snapshot, touched) : undefined;
    const opts: IndexOptions = {
      ...run, ...(options.maxFileBytes !== undefined ? { maxFileBytes: options.maxFileBytes } : {}), ...(options.exclude ? { exclude: options.exclude } : {}),
      ...(options.jobs !== undefined ? { jobs: options.jobs } : {}), ...(extra.repair ? { repair: extra.repair } : {}),
      ...(extra.recheck ? { recheck: extra.recheck } : watched ? { recheck: watched } : {}),
    };
    result = watched?.size === 0 ? unchanged(s) : await runIndex(platform, opts, s.index);
  } catch (error) {
    s.dirty = true; // a failed pass proves nothing about the files: check again next time
    s.touched = undefined;
    throw error;
  }
  // Nothing changed: keep the same snapshot so everything derived from it stays cached.
  // (Its skipped files, with the stat changes matches against the git index, are the scan's own.)
  if (!result.changed && s.index) result.snapshot = Object.assign(s.index.snapshot, { skipped: result.snapshot.skipped });
  else s.index = { snapshot: result.snapshot, records: result.records };
  if (result.repaired > 0) platform.logger?.log("warn", `the index cache had ${result.repaired} damaged or missing entr${result.repaired === 1 ? "y" : "ies"}; made again from the source files.`);
  if (full) s.lastAt = Date.now();
  // A re-check of watched files adds no folder (new names mean a scan): the watchers stay as they are.
  if (!s.watcher || (result.changed && !watched)) {
    const first = !s.watcher;
    startWatching(s, s.index.snapshot);
    // Edits made while this pass ran, before the watchers existed, were not seen: re-scan once more.
    if (first && s.watcher) {
      s.dirty = true;
      s.touched = undefined;
      scheduleSettle(s);
    }
  }
  return result;
}

/** The result of a pass that found nothing to do (watch events only for names already gone). */
function unchanged(s: EngineState): IndexResult {
  return { snapshot: s.index!.snapshot, records: s.index!.records, parsed: [], reused: 0, removed: 0, changed: false, repaired: 0, durationMs: 0 };
}

/** Re-indexes files whose bytes a read found changed. */
export async function recheck(s: EngineState, paths: Iterable<string>, run: RunOptions): Promise<void> {
  await reindex(s, run.signal ? { signal: run.signal } : {}, { recheck: new Set(paths) });
}

/** Loads the records the snapshot names; returns the paths whose record is missing or damaged. */
async function loadRecords(s: EngineState, snapshot: Snapshot, records: Map<string, FileRecord>): Promise<Set<string>> {
  const damaged = new Set<string>();
  const missing = snapshot.files.filter((f) => f.record && !records.has(f.path));
  for (let i = 0; i < missing.length; i += 64) {
    await Promise.all(
      missing.slice(i, i + 64).map(async (f) => {
        const record = decodeRecord(await s.platform.store.get(f.record!).catch(() => undefined), f.path);
        if (record && record.hash === f.hash && record.language === f.language) records.set(f.path, record);
        else damaged.add(f.path);
      }),
    );
  }
  return damaged;
}

/** Every record of the current snapshot, with that snapshot (a refresh may replace it meanwhile). */
export async function loadAll(s: EngineState, run: RunOptions = {}): Promise<{ snapshot: Snapshot; records: FileRecord[] }> {
  const { platform } = s;
  if (!s.index) await reindex(s, run);
  const unloaded = s.index!.snapshot.files.reduce((n, f) => n + (f.record && !s.index!.records.has(f.path) ? f.definitions ?? 0 : 0), 0);
  if (unloaded > 0) ensureHeadroom(platform.memory, unloaded * HEAP_PER_SYMBOL.records, `the records of ${unloaded.toLocaleString("en-US")} symbols`);
  // A record that does not read back whole (truncated, flipped, deleted, replaced) is made again
  // from its file: the answer stays correct and the cache heals. Twice at most, in case the
  // files change under the repair itself.
  for (let attempt = 0; ; attempt++) {
    const { snapshot, records } = s.index!;
    const damaged = await loadRecords(s, snapshot, records);
    if (damaged.size === 0) return { snapshot, records: snapshot.files.filter((f) => f.record).map((f) => records.get(f.path)!) };
    if (attempt >= 2) {
      throw new EngineError("no_index", `The index cache ${platform.store.label} could not be repaired: ${damaged.size} records stay unreadable (${[...damaged].slice(0, 3).join(", ")}).`, {
        hint: "Delete the cache folder; it is rebuilt on the next run.",
        data: { store: platform.store.label, paths: [...damaged].slice(0, 20) },
      });
    }
    await reindex(s, run, { repair: damaged });
  }
}
