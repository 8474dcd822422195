/**
 * The engine's index passes: one pass at a time (plain scans shared, repairs and re-checks alone),
 * the folder watchers that make a refresh free until a file changes, the settle pass after the
 * first index, and loading the records a snapshot names (repairing damaged cache entries).
 */
import { EngineError, isEngineError } from "../../shared/errors.ts";
import type { FileRecord } from "../extract/record.ts";
import type { RunOptions } from "./api.ts";
import { runIndex, saveSnapshot, type IndexOptions, type IndexResult, type UnsavedSnapshot } from "./indexer.ts";
import { ensureHeadroom, HEAP_PER_SYMBOL } from "./memory.ts";
import { decodeRecord, readsWhole, type Snapshot } from "./snapshot.ts";
import type { EngineState, PassState } from "./state.ts";
import { defined } from "../../shared/defined.ts";

/** How long after the first index the settle re-scan starts (lets the first answer go out first). */
const SETTLE_DELAY_MS = 20;

/**
 * How long after a re-check a watching engine writes the snapshot it kept unsaved, once none of its
 * calls is in flight (`EngineOptions.saveDelayMs`): the answer the re-check was for goes out first.
 * On django the snapshot (4,350 files) is ~550 KB of JSON to encode, seal and write.
 */
const SAVE_DELAY_MS = 150;

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
  if (!options.watch || !platform.fs.watch || s.passes.watchFailed) {
    s.passes.watcher?.close();
    s.passes.watcher = undefined;
    return;
  }
  const dirs = new Set<string>([""]);
  // Skipped files' folders too: changes trusts their stat from the last scan.
  for (const f of [...snapshot.files, ...snapshot.skipped])
    for (let d = f.path.lastIndexOf("/"); d > 0; d = f.path.lastIndexOf("/", d - 1)) dirs.add(f.path.slice(0, d));
  const key = [...dirs].sort().join("\n");
  if (s.passes.watcher && s.passes.watchedDirs === key) return;
  s.passes.watcher?.close();
  s.passes.watcher = undefined;
  const excluded = options.exclude ?? [];
  try {
    s.passes.watcher = platform.fs.watch([...dirs], (path) => {
      if (excluded.some((x) => path === x || path.startsWith(`${x}/`))) return;
      s.passes.dirty = true;
      if (s.passes.touched && s.passes.touched.add(path).size > MAX_TOUCHED) s.passes.touched = undefined;
    });
    s.passes.watchedDirs = key;
  } catch {
    s.passes.watchFailed = true; // too many folders for the host's watch limit: re-scan instead
  }
}

const inventories = new WeakMap<Snapshot, Set<string>>();

/**
 * The files to re-check after watch events named `touched`, when re-checking them is all a pass
 * needs: each is a file of the inventory (edited, or deleted), or a name that is gone again (an
 * editor's temporary file). Undefined when only a scan will do: a new file or folder, a folder's
 * own event, an ignore file, a file the last scan skipped, a file that became something else.
 */
async function watchedFiles(
  s: EngineState,
  snapshot: Snapshot,
  touched: ReadonlySet<string>,
): Promise<Set<string> | undefined> {
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
  if (s.passes.settleTimer !== undefined) clearTimeout(s.passes.settleTimer);
  s.passes.settleTimer = setTimeout(() => {
    s.passes.settleTimer = undefined;
    if (s.passes.running || !s.passes.dirty) return; // a pass already under way re-scans
    reindex(s).then(
      (r) =>
        void (s.passes.late = {
          parsed: s.passes.late.parsed + r.parsed.length,
          removed: s.passes.late.removed + r.removed,
          repaired: s.passes.late.repaired + r.repaired,
        }),
      (error) =>
        s.platform.logger?.log("debug", `the re-scan after the first index failed: ${(error as Error).message}`),
    );
  }, SETTLE_DELAY_MS);
}

/** Cancels a settle pass not yet started. */
export function cancelSettle(s: EngineState): void {
  if (s.passes.settleTimer !== undefined) clearTimeout(s.passes.settleTimer);
  s.passes.settleTimer = undefined;
}

/** Stops watching and cancels the settle pass (after a failure, or when the host closes the engine). */
export function stopWatching(s: EngineState): void {
  cancelSettle(s);
  s.passes.watcher?.close();
  s.passes.watcher = undefined;
}

/**
 * Keeps a re-check's snapshot to write after the answer: merged with one still unsaved (the
 * latest snapshot is the index; the unused keys add up), written by a timer when no pass runs.
 */
function saveSoon(s: EngineState, unsaved: UnsavedSnapshot): void {
  const pending = s.passes.unsaved;
  const garbage = pending?.garbage ?? new Set<string>();
  for (const key of unsaved.garbage) garbage.add(key);
  const delay = s.options.saveDelayMs ?? SAVE_DELAY_MS;
  const fire = () => {
    if (!s.passes.unsaved) return;
    if (s.passes.running || s.passes.calls > 0) s.passes.unsaved.timer = setTimeout(fire, delay);
    else void saveNow(s);
  };
  s.passes.unsaved = { snapshot: unsaved.snapshot, garbage, timer: pending?.timer ?? setTimeout(fire, delay) };
}

/** One more engine call in flight (engine.ts counts every call; see saveSoon). */
export function callStarted(s: EngineState): void {
  s.passes.calls++;
}

/** One engine call fewer in flight. */
export function callEnded(s: EngineState): void {
  s.passes.calls--;
}

/**
 * Writes the snapshot kept unsaved, if any; resolves when it and any write under way are done. A
 * failed write is logged and dropped: the index in memory is right, and a later start finds the
 * files changed against the snapshot on disk and re-checks them.
 */
export function saveNow(s: EngineState): Promise<void> {
  const pending = s.passes.unsaved;
  if (!pending) return s.passes.saving ?? Promise.resolve();
  if (pending.timer !== undefined) clearTimeout(pending.timer);
  s.passes.unsaved = undefined;
  const write: Promise<void> = (s.passes.saving ?? Promise.resolve())
    .then(() => saveSnapshot(s.platform, pending.snapshot, pending.garbage))
    .catch((error) =>
      s.platform.logger?.log("warn", `the index snapshot could not be written: ${(error as Error).message}`),
    )
    .finally(() => {
      if (s.passes.saving === write) s.passes.saving = undefined;
    });
  s.passes.saving = write;
  return write;
}

/**
 * One index pass. A plain pass scans the tree and is shared by the plain passes asked for while it
 * runs. A repair or a re-check must read its files after they were found damaged or changed, so
 * it never joins a pass under way; a re-check reads only those files and keeps the rest of the
 * inventory, so it leaves the watcher's "something changed" flag to the next scan.
 */
export async function reindex(
  s: EngineState,
  run: RunOptions & { keepRecords?: boolean } = {},
  extra: PassKind = {},
): Promise<IndexResult> {
  const shared = !extra.repair && !extra.recheck && !extra.watched;
  // A snapshot being written sweeps the keys it does not name: no pass may use one meanwhile.
  while ((s.passes.running && !(shared && s.passes.runningShared)) || (!s.passes.running && s.passes.saving))
    await (s.passes.running ?? s.passes.saving)!.catch(() => {});
  if (s.passes.running) return s.passes.running;
  s.passes.runningShared = shared;
  const running = (s.passes.running = indexPass(s, run, extra).finally(() => {
    s.passes.running = undefined;
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

/**
 * The body of {@link reindex}: runs the indexer, keeps the new snapshot (or the old one when nothing changed), and
 * (re)starts the watchers.
 */
async function indexPass(
  s: EngineState,
  run: RunOptions & { keepRecords?: boolean },
  extra: PassKind,
): Promise<IndexResult> {
  const { platform, options } = s;
  const full = !extra.recheck;
  const touched = s.passes.touched;
  if (full) {
    s.passes.dirty = false; // events from here on mean another pass
    s.passes.touched = new Set();
    cancelSettle(s);
  }
  let result: IndexResult;
  let watched: Set<string> | undefined;
  try {
    watched =
      extra.watched && touched && s.passes.index ? await watchedFiles(s, s.passes.index.snapshot, touched) : undefined;
    const recheck = extra.recheck ?? watched;
    // A watching engine writes a re-check's snapshot after the answer (see saveSoon); any other
    // pass first writes one still unsaved, so that the store never goes back to an older one.
    const defer = s.options.watch === true && s.passes.watcher !== undefined && !!recheck?.size;
    if (!defer) await saveNow(s);
    const opts: IndexOptions = {
      ...run,
      ...(defer ? { deferSave: true } : {}),
      ...defined({ maxFileBytes: options.maxFileBytes }),
      ...(options.exclude ? { exclude: options.exclude } : {}),
      ...defined({ jobs: options.jobs }),
      ...(extra.repair ? { repair: extra.repair } : {}),
      ...(recheck ? { recheck } : {}),
    };
    result = watched?.size === 0 ? unchanged(s) : await runIndex(platform, opts, s.passes.index);
  } catch (error) {
    markStale(s); // a failed pass proves nothing about the files: check again next time
    throw error;
  }
  // Nothing changed: keep the same snapshot so everything derived from it stays cached.
  // (Its skipped files, with the stat changes matches against the git index, are the scan's own.)
  if (!result.changed && s.passes.index)
    result.snapshot = Object.assign(s.passes.index.snapshot, { skipped: result.snapshot.skipped });
  else s.passes.index = { snapshot: result.snapshot, records: result.records };
  if (result.unsaved) saveSoon(s, result.unsaved);
  if (result.repaired > 0)
    platform.logger?.log(
      "warn",
      `the index cache had ${result.repaired} damaged or missing entr${result.repaired === 1 ? "y" : "ies"}; ` +
        `made again from the source files.`,
    );
  if (full) s.passes.lastAt = Date.now();
  // A re-check of watched files adds no folder (new names mean a scan): the watchers stay as they are.
  if (!s.passes.watcher || (result.changed && !watched)) {
    const first = !s.passes.watcher;
    startWatching(s, s.passes.index.snapshot);
    // Edits made while this pass ran, before the watchers existed, were not seen: re-scan once more.
    if (first && s.passes.watcher) {
      markStale(s);
      scheduleSettle(s);
    }
  }
  return result;
}

/** The result of a pass that found nothing to do (watch events only for names already gone). */
function unchanged(s: EngineState): IndexResult {
  return {
    snapshot: s.passes.index!.snapshot,
    records: s.passes.index!.records,
    parsed: [],
    reused: 0,
    removed: 0,
    changed: false,
    repaired: 0,
    durationMs: 0,
  };
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
export async function loadAll(
  s: EngineState,
  run: RunOptions = {},
): Promise<{ snapshot: Snapshot; records: FileRecord[] }> {
  const { platform } = s;
  if (!s.passes.index) await reindex(s, run);
  const unloaded = s.passes.index!.snapshot.files.reduce(
    (n, f) => n + (f.record && !s.passes.index!.records.has(f.path) ? (f.definitions ?? 0) : 0),
    0,
  );
  if (unloaded > 0)
    ensureHeadroom(
      platform.memory,
      unloaded * HEAP_PER_SYMBOL.records,
      `the records of ${unloaded.toLocaleString("en-US")} symbols`,
    );
  // A record that does not read back whole (truncated, flipped, deleted, replaced) is made again
  // from its file: the answer stays correct and the cache heals. Twice at most, in case the
  // files change under the repair itself.
  for (let attempt = 0; ; attempt++) {
    const { snapshot, records } = s.passes.index!;
    const damaged = await loadRecords(s, snapshot, records);
    if (damaged.size === 0)
      return { snapshot, records: snapshot.files.filter((f) => f.record).map((f) => records.get(f.path)!) };
    if (attempt >= 2) {
      throw new EngineError(
        "no_index",
        `The index cache ${platform.store.label} could not be repaired: ${damaged.size} records stay unreadable ` +
          `(${[...damaged].slice(0, 3).join(", ")}).`,
        {
          hint: "Delete the cache folder; it is rebuilt on the next run.",
          data: { store: platform.store.label, paths: [...damaged].slice(0, 20) },
        },
      );
    }
    await reindex(s, run, { repair: damaged });
  }
}

/**
 * Makes the records of `paths` again from their files, and every other record of the index whose
 * calls or bindings do not read back (snapshot.ts `isDamagedRecord`: they are checked when first
 * read, so one damaged record found means others may be): each is decoded now, on this rare path.
 */
export async function repairRecords(s: EngineState, paths: string[], run: RunOptions = {}): Promise<void> {
  const { records } = await loadAll(s, run);
  const damaged = new Set(paths);
  for (const r of records) if (!readsWhole(r)) damaged.add(r.path);
  for (const path of damaged) s.passes.index?.records.delete(path);
  await reindex(s, run, { repair: damaged });
}

/** Something may have changed (the engine wrote files): the next pass checks again. */
export function markDirty(s: EngineState): void {
  s.passes.dirty = true;
}

/** Anything may have changed: the next pass re-scans the tree instead of re-checking watched paths. */
export function markStale(s: EngineState): void {
  s.passes.dirty = true;
  s.passes.touched = undefined;
}

/** Forgets the index (it was replaced in the store): the next pass reads it afresh. */
export function dropIndex(s: EngineState): void {
  if (s.passes.unsaved?.timer !== undefined) clearTimeout(s.passes.unsaved.timer);
  s.passes.unsaved = undefined; // the old index's: never to be written over the new one
  s.passes.index = undefined;
  markStale(s);
}

/** What the settle pass found since the last call, which starts the count again. */
export function takeLate(s: EngineState): PassState["late"] {
  const late = s.passes.late;
  s.passes.late = { parsed: 0, removed: 0, repaired: 0 };
  return late;
}
