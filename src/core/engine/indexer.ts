/** The index pipeline: scan, reuse what the snapshot and store already know, parse the rest. */
import { languagesForProject } from "../../languages/index.ts";
import type { LanguageSpec } from "../../languages/types.ts";
import type { Platform } from "../ports.ts";
import type { FileRecord } from "../extract/record.ts";
import { createParserRuntime, loadWasmLock, verifyGrammar, type ParserRuntime } from "../parse/runtime.ts";
import { classifyContent, type SkippedFile } from "../../shared/skip-rules.ts";
import {
  checkScanCache,
  DEFAULT_MAX_FILE_BYTES,
  scanRepository,
  type ScanCache,
  type ScanResult,
  type ScannedFile,
} from "../scan/scan.ts";
import { EngineError, isEngineError, throwIfAborted } from "../../shared/errors.ts";
import { gitBlobId, sha256Hex } from "../../shared/hash.ts";
import { isSnapshotInput } from "./inputs.ts";
import { parseFile } from "./parse-file.ts";
import { createParsePool, type ParsePool } from "./parse-pool.ts";
import { RecordMap } from "./record-map.ts";
import {
  checkSnapshot,
  decodeJson,
  decodeRecord,
  readsWhole,
  encodeJson,
  freshRecord,
  OWN_KEY,
  recordKey,
  SCAN_KEY,
  SCHEMA_VERSION,
  SNAPSHOT_KEY,
  storedBytes,
  type Snapshot,
  type SnapshotFile,
} from "./snapshot.ts";

/** Progress of a long operation. */
export interface Progress {
  phase: "scan" | "parse" | "graph";
  done: number;
  total?: number;
}

/** Options for one index run. */
export interface IndexOptions {
  signal?: AbortSignal;
  onProgress?: (p: Progress) => void;
  maxFileBytes?: number;
  /** Workspace-relative folders to leave out (a cache folder inside the root). */
  exclude?: string[];
  /**
   * Files whose stored record was found damaged or missing: they are read and looked up again
   * (and parsed when no valid record is found), whatever their stat says.
   */
  repair?: ReadonlySet<string>;
  /**
   * Files to read again whatever their stat says, with the rest of the inventory taken from the
   * previous snapshot instead of a scan: the re-index after a read found that a file's bytes are
   * no longer the indexed ones (see inputs.ts). Without a previous snapshot the run scans as usual.
   */
  recheck?: ReadonlySet<string>;
  /**
   * Threads that parse: 1 parses in this thread; N > 1 hands files to N workers of the platform's
   * `workers` (in-thread when it has none). Default: the platform's parallelism minus one (the
   * engine's thread keeps a core for reading, hashing and storing), at most MAX_DEFAULT_JOBS. The
   * records, their order and the snapshot are the same for every value.
   */
  jobs?: number;
  /**
   * False: the records this run parses go to the store only, none is kept in memory for a graph
   * (read back from the store when one is asked for). For a host that answers nothing else from
   * this engine (the CLI's `index`): a cold index of the Linux kernel kept 1.7 GB of records.
   */
  keepRecords?: boolean;
  /**
   * True: a run over a previous snapshot that changes it does not write the new one; the result's
   * `unsaved` holds it and the record keys it leaves unused, for the caller to write later with
   * {@link saveSnapshot} (a watching engine writes it after the answer the run was for, see
   * passes.ts). The run's records are written before it ends, as always, so whichever snapshot the
   * store holds names records that are there: a process killed before the write leaves the old
   * snapshot, and the next run finds the edited files changed and their records by content.
   */
  deferSave?: boolean;
}

/** A run's snapshot not written yet, and the stored record keys it no longer uses (see `deferSave`). */
export interface UnsavedSnapshot {
  snapshot: Snapshot;
  garbage: string[];
}

/** What an index run did. */
export interface IndexResult {
  snapshot: Snapshot;
  /** Records in memory after this run (parsed or read); the rest stay in the store until asked for. */
  records: Map<string, FileRecord>;
  /** Files parsed this run (new or changed). */
  parsed: string[];
  /** Files whose record came from the store. */
  reused: number;
  removed: number;
  /** False when the inventory and every file's content are as in the previous snapshot. */
  changed: boolean;
  /** Cache entries found damaged or missing and made again this run (the snapshot counts as one). */
  repaired: number;
  durationMs: number;
  /** With `deferSave`, the snapshot this run made and did not write. */
  unsaved?: UnsavedSnapshot;
}

/**
 * The default pool is at most this many workers: each holds its own runtime, grammars and compiled
 * queries (tens of MB), so a 64-core host does not multiply the index's peak memory by 64.
 */
export const MAX_DEFAULT_JOBS = 8;

/**
 * Fewer files to read than this are parsed in-thread whatever `jobs` says: a worker's start
 * (thread, wasm runtime, grammar and query compile: 0.1–0.3 s) costs more than ~100 small parses.
 */
const POOL_MIN_FILES = 100;

/**
 * The number of parse threads for a run: `jobs` when given, else the host's parallelism minus one,
 * capped. On two cores that is 1 (in-thread): there bench:pool measured the pool's own cost (a
 * fresh isolate per worker compiling its queries, +1–1.3 CPU-s each on django) eating its gain
 * (an idle-machine bound of 5.73 s against 5.97 s, for +90 MB of RSS).
 */
export function parseJobs(platform: Platform, jobs: number | undefined): number {
  if (jobs !== undefined) return Math.max(1, Math.floor(jobs));
  return Math.max(1, Math.min(MAX_DEFAULT_JOBS, Math.floor(platform.workers?.parallelism ?? 1) - 1));
}

/** Past this share of the heap limit, an index run stops keeping parsed records in memory. */
const RETAIN_SHARE = 0.5;

// A file modified this close to the last snapshot may have changed again within the same mtime
// tick ("racy git"); such files are re-hashed instead of trusted by stat.
const RACY_WINDOW_MS = 2000;

const extractorVersions = new Map<string, string>();

/**
 * The version of the records a language's extractor makes: a hash of the schema, the language, its
 * grammar's sha256 and its query. Part of every record key, and what an index artifact is checked
 * against on import (another codeslice build would make other records).
 */
export async function extractorVersion(platform: Platform, spec: LanguageSpec): Promise<string> {
  const cached = extractorVersions.get(spec.id);
  if (cached) return cached;
  const lock = await loadWasmLock(platform.wasm);
  const grammar = lock.files.find((f) => f.file === spec.grammar)?.sha256 ?? "missing";
  const v = (await sha256Hex(`${SCHEMA_VERSION}\0${spec.id}\0${grammar}\0${spec.query}`)).slice(0, 16);
  extractorVersions.set(spec.id, v);
  return v;
}

/**
 * Loads the last snapshot: `missing` when there is none, `damaged` when one is there but does not
 * read back whole and well-formed (then the index is rebuilt from the records that do).
 */
export async function loadSnapshot(platform: Platform): Promise<{ snapshot?: Snapshot; damaged: boolean }> {
  let bytes: Uint8Array | undefined;
  try {
    bytes = await platform.store.get(SNAPSHOT_KEY);
  } catch {
    return { damaged: true };
  }
  if (!bytes) return { damaged: false };
  const snapshot = checkSnapshot(decodeJson<unknown>(bytes));
  return snapshot ? { snapshot, damaged: false } : { damaged: true };
}

/**
 * A stored record by key, or undefined when absent, unreadable, damaged, or not the record of that
 * content and language (a whole value moved under another key reads as valid otherwise).
 */
async function readRecord(
  platform: Platform,
  key: string,
  path: string,
  hash: string,
  language: string,
): Promise<FileRecord | undefined> {
  const bytes = await platform.store.get(key).catch(() => undefined);
  const record = bytes ? decodeRecord(bytes, path) : undefined;
  return record && record.hash === hash && record.language === language ? record : undefined;
}

/** What one run builds up for its snapshot and result, shared by its steps. */
interface RunState {
  platform: Platform;
  options: IndexOptions;
  repair: ReadonlySet<string>;
  recheck: ReadonlySet<string>;
  prevSnap: Snapshot | undefined;
  files: SnapshotFile[];
  skipped: SkippedFile[];
  contentSkips: NonNullable<Snapshot["contentSkips"]>;
  records: RecordMap;
  parsed: string[];
  reused: number;
  repaired: number;
  /**
   * Every key the store held when a run without a snapshot began, or undefined (a run with one,
   * or a store that could not list): a record key not in it is not looked up (it would miss), and
   * the store sweep after the run takes its candidates from it instead of listing again.
   */
  storedKeys: Set<string> | undefined;
  /** The first record write that failed: the run fails with it once the writes have settled. */
  writeError?: unknown;
  /** The scan's listings as stored by the last walk (see ScanCache). */
  scanCache?: ScanCache | undefined;
}

/** One scanned source file, and for one that is not unchanged, the IO that reads it. */
interface Job {
  f: ScannedFile;
  spec: LanguageSpec;
  prev?: SnapshotFile;
  work?: () => Promise<Prepared>;
  pending?: Promise<Prepared> | undefined;
}

/** The IO for a file that is not unchanged: read, classify, hash, look in the store. */
type Prepared =
  | { kind: "record"; record: FileRecord; hash: string; key: string }
  | { kind: "parse"; text: string; hash: string; key: string; extracted?: Promise<Uint8Array | undefined> }
  | { kind: "skip"; skip: SkippedFile & { size?: number; mtimeMs?: number } };

/** Indexes the platform's root incrementally. `previous` records avoid store reads when warm. */
export async function runIndex(
  platform: Platform,
  options: IndexOptions = {},
  previous?: { snapshot: Snapshot; records: Map<string, FileRecord> },
): Promise<IndexResult> {
  const started = Date.now();
  const state: RunState = {
    platform,
    options,
    repair: options.repair ?? new Set(),
    recheck: options.recheck ?? new Set(),
    prevSnap: previous?.snapshot,
    files: [],
    skipped: [],
    contentSkips: [],
    records: new RecordMap(),
    parsed: [],
    reused: 0,
    repaired: 0,
    storedKeys: undefined,
  };
  if (!state.prevSnap) {
    const loaded = await loadSnapshot(platform);
    state.prevSnap = loaded.snapshot;
    if (loaded.damaged) state.repaired++;
    // A run without a snapshot (a cold one) lists the store once instead of looking up every
    // record key, most of which miss: on django 800 failed opens. A store that cannot list is
    // asked key by key, as before.
    if (!state.prevSnap)
      state.storedKeys = await platform.store.keys("").then(
        (keys) => new Set(keys),
        () => undefined,
      );
  }
  const scan = await scanInventory(state);
  for (const s of scan.skipped) state.skipped.push(s); // a loop: a spread of 100k+ skipped files overflows the stack
  // A new walk's listings are kept for the next scan; a reused one is already stored.
  const scanCacheWrite =
    scan.cache && scan.cache !== state.scanCache
      ? platform.store.set(SCAN_KEY, encodeJson(scan.cache)).catch(() => {})
      : undefined;
  const ctx = createParseContext(platform);
  // A file's language can hang on the project's (a `.h` is C++ in a project of C++ sources).
  const languageOf = languagesForProject(scan.files.map((f) => f.path));
  const { jobs, inputHashes } = await planJobs(state, scan, ctx, languageOf);
  const sources = scan.files.filter((f) => languageOf(f.path)).length;
  const writes = await processJobs(state, ctx, jobs, sources, previous?.records);
  await Promise.all([...writes, ...inputHashes, scanCacheWrite]);
  // A project deleted while it was indexed leaves a run of unreadable files and failed writes:
  // that is a missing root, not an index to keep.
  await platform.fs.stat("").catch((error) => {
    if (isEngineError(error, "not_found", "not_directory"))
      throw new EngineError("root_not_found", `The project root no longer exists: ${platform.fs.rootLabel}`, {
        data: { root: platform.fs.rootLabel },
        cause: error,
      });
  });
  if (state.writeError) throw state.writeError;
  return { ...(await finishRun(state, scan.mode)), durationMs: Date.now() - started };
}

/** The run's inventory: a re-stat of the files to re-check on the previous snapshot, else a scan. */
async function scanInventory(state: RunState): Promise<ScanResult> {
  const { platform, options, prevSnap, recheck } = state;
  const { signal, onProgress } = options;
  onProgress?.({ phase: "scan", done: 0 });
  if (prevSnap && recheck.size > 0) {
    const scan = await restatFiles(platform, prevSnap, recheck, options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES);
    // Files skipped for their content are not in the inventory the re-stat starts from: carried as they were.
    for (const f of prevSnap.contentSkips ?? []) if (!recheck.has(f.path)) state.contentSkips.push(f);
    return scan;
  }
  // The listings of the last walk: a missing or damaged one only means this scan lists every folder.
  // A scan that reuses them takes no blob ids from the git index, so it is not used when the
  // snapshot cannot vouch for files by their stat: none (a cold run), or one imported from an
  // artifact (stat times zeroed), where git's ids spare reading every file.
  if (prevSnap && prevSnap.createdAt > 0)
    state.scanCache = checkScanCache(decodeJson<unknown>(await platform.store.get(SCAN_KEY).catch(() => undefined)));
  return scanRepository(platform.fs, {
    ...(state.scanCache ? { cache: state.scanCache } : {}),
    ...(options.maxFileBytes !== undefined ? { maxFileBytes: options.maxFileBytes } : {}),
    ...(options.exclude ? { exclude: options.exclude } : {}),
    ...(signal ? { signal } : {}),
    onProgress: (seen) => onProgress?.({ phase: "scan", done: seen }),
  });
}

/**
 * Plans the run: which source files are unchanged (no IO at all), which were skipped for their
 * content before and still are, and which need reading (a job with `work`). Files of no supported
 * language go into the snapshot as they are, with the hash of those the engine reads again.
 */
async function planJobs(
  state: RunState,
  scan: ScanResult,
  ctx: ParseContext,
  languageOf: (path: string) => LanguageSpec | undefined,
): Promise<{ jobs: Job[]; inputHashes: Promise<void>[] }> {
  const { platform, prevSnap, repair, recheck, files } = state;
  const prevByPath = new Map(prevSnap?.files.map((f) => [f.path, f]));
  const prevContentSkips = new Map(prevSnap?.contentSkips?.map((f) => [f.path, f]));
  // Whether a file whose stat matches the previous snapshot may be trusted without reading it.
  const trusted = (f: ScannedFile, prev: SnapshotFile | undefined): prev is SnapshotFile & { hash: string } =>
    prev?.hash !== undefined &&
    prev.size === f.size &&
    prev.mtimeMs === f.mtimeMs &&
    f.mtimeMs < prevSnap!.createdAt - RACY_WINDOW_MS &&
    !repair.has(f.path) &&
    !recheck.has(f.path);
  const prepare = createPreparer(state, ctx);
  const versions = new Map<LanguageSpec, string>();
  const jobs: Job[] = [];
  // Configs and manifests are read again after indexing (inputs.ts): their hash goes in the
  // snapshot too, from the git index when it vouches for the file, else from reading it.
  const inputHashes: Promise<void>[] = [];
  for (const f of scan.files) {
    const spec = languageOf(f.path);
    if (!spec) {
      const entry: SnapshotFile = { path: f.path, size: f.size, mtimeMs: f.mtimeMs };
      files.push(entry);
      if (!isSnapshotInput(f.path)) continue;
      const prev = prevByPath.get(f.path);
      if (trusted(f, prev)) entry.hash = prev.hash;
      else if (f.blobId && !recheck.has(f.path)) entry.hash = f.blobId;
      else {
        inputHashes.push(
          platform.fs.readFile(f.path).then(
            async (bytes) => void (entry.hash = await gitBlobId(bytes)),
            () => {}, // unreadable now: read unchecked later, as any file the index holds no hash for
          ),
        );
      }
      continue;
    }
    // (one await per language, not per file: ~900 awaits were a visible share of a one-file re-check)
    let version = versions.get(spec);
    if (version === undefined) versions.set(spec, (version = await extractorVersion(platform, spec)));
    const prev = prevByPath.get(f.path);
    if (trusted(f, prev) && prev.record === recordKey(version, prev.hash)) {
      jobs.push({ f, spec, prev });
      continue;
    }
    const skippedBefore = prevContentSkips.get(f.path);
    if (
      skippedBefore &&
      skippedBefore.size === f.size &&
      skippedBefore.mtimeMs === f.mtimeMs &&
      f.mtimeMs < prevSnap!.createdAt - RACY_WINDOW_MS
    ) {
      const { size: _s, mtimeMs: _m, ...skip } = skippedBefore;
      state.skipped.push(skip);
      state.contentSkips.push(skippedBefore);
      continue;
    }
    const blobKey = f.blobId && !recheck.has(f.path) ? recordKey(version, f.blobId) : undefined;
    jobs.push({ f, spec, work: () => prepare(f, spec, version, blobKey) });
  }
  return { jobs, inputHashes };
}

/** What the parse step shares with the read step: the pool and what it was handed. */
interface ParseContext {
  /** The parse pool, when this run has one (started in processJobs, before the first read). */
  pool?: ParsePool;
  lockHash?: string;
  /** Records being made by the pool this run, by store key: identical files share one parse. */
  dispatched: Map<string, Promise<Uint8Array | undefined>>;
  /** Records parsed this run by store key (while the heap allows): a copy of a file is not parsed again. */
  parsedThisRun: Map<string, Made>;
  grammarOk(spec: LanguageSpec): Promise<boolean>;
}

function createParseContext(platform: Platform): ParseContext {
  /** Per language: whether the engine's own WasmSource holds the grammar its lock names. */
  const grammarChecks = new Map<string, Promise<boolean>>();
  return {
    dispatched: new Map(),
    parsedThisRun: new Map(),
    grammarOk: (spec) => {
      let ok = grammarChecks.get(spec.id);
      if (!ok)
        grammarChecks.set(
          spec.id,
          (ok = verifyGrammar(platform.wasm, spec).then(
            () => true,
            () => false,
          )),
        );
      return ok;
    },
  };
}

/**
 * The read step for one file: its record from the store when there is one for its content, else
 * its text to parse (handed to the pool at once when the run has one), or why it is skipped.
 */
function createPreparer(
  state: RunState,
  ctx: ParseContext,
): (f: ScannedFile, spec: LanguageSpec, version: string, blobKey: string | undefined) => Promise<Prepared> {
  const { platform, storedKeys, repair } = state;
  // A file under repair may be there for its calls or bindings (checked when first read): read them now.
  const lookUp = (key: string, path: string, hash: string, language: string) =>
    storedKeys && !storedKeys.has(key)
      ? undefined
      : readRecord(platform, key, path, hash, language).then((r) =>
          r && repair.has(path) && !readsWhole(r) ? undefined : r,
        );
  return async (f, spec, version, blobKey) => {
    if (blobKey) {
      const record = await lookUp(blobKey, f.path, f.blobId!, spec.id);
      if (record) return { kind: "record", record, hash: f.blobId!, key: blobKey };
    }
    let bytes: Uint8Array;
    try {
      bytes = await platform.fs.readFile(f.path);
    } catch (error) {
      return { kind: "skip", skip: { path: f.path, reason: "unreadable", detail: (error as Error).message } };
    }
    const content = classifyContent(bytes);
    if ("reason" in content)
      return {
        kind: "skip",
        skip: { path: f.path, reason: content.reason, detail: content.detail, size: f.size, mtimeMs: f.mtimeMs },
      };
    // A file the git index vouches for (same size and mtime, not racy: the scan's blobId) has git's
    // id as its content hash, as planJobs trusts it for configs: git hashed those very bytes when it
    // staged them. Only bytes of another length than the stat say it changed since, and are hashed.
    // (Web Crypto's SHA-1 cost 0.18 of a cold index's 3.7 CPU-s on django, all of it for ids git
    // already held.) A file changed within the same size and mtime tick fools git's own status too.
    const hash = blobKey && bytes.length === f.size ? f.blobId! : await gitBlobId(bytes);
    const key = recordKey(version, hash);
    // The git index's id is the content's id unless the file changed since it was staged: then
    // this is the key just looked up, and a second lookup would only miss again.
    const record = key === blobKey ? undefined : await lookUp(key, f.path, hash, spec.id);
    if (record) return { kind: "record", record, hash, key };
    const { pool, dispatched, parsedThisRun } = ctx;
    // A grammar the engine's own wasm fails is left to the in-thread parse, which reports it.
    if (!pool || parsedThisRun.has(key) || !(await ctx.grammarOk(spec)))
      return { kind: "parse", text: content.text, hash, key };
    let extracted = dispatched.get(key);
    if (!extracted)
      dispatched.set(
        key,
        (extracted = pool.extract({ language: spec.id, lock: ctx.lockHash!, path: f.path, hash, text: content.text })),
      );
    return { kind: "parse", text: content.text, hash, key, extracted };
  };
}

/**
 * Runs the jobs in scan order: unchanged files keep their snapshot entry, the others are read
 * (ahead of this loop, within a window) and reused from the store or parsed. Returns the record
 * writes still in flight (a failed one sets `state.writeError`).
 */
async function processJobs(
  state: RunState,
  ctx: ParseContext,
  jobs: Job[],
  sources: number,
  previousRecords: Map<string, FileRecord> | undefined,
): Promise<Promise<void>[]> {
  const { platform, options, repair, records, files } = state;
  const { signal, onProgress } = options;
  // Reads run ahead of parsing (a window of concurrent IO) and record writes run behind it, so the
  // CPU-bound parse never waits on the disk. Measured on django: 1.2 s of 4.6 s was idle waiting.
  const READ_AHEAD = 24;
  const withWork = jobs.filter((j) => j.work);
  const threads = parseJobs(platform, options.jobs);
  if (threads > 1 && platform.workers && withWork.length >= POOL_MIN_FILES) {
    ctx.lockHash = await sha256Hex(await platform.wasm.load("wasm.lock.json"));
    ctx.pool = createParsePool(platform.workers, {
      size: threads,
      ...(platform.logger ? { logger: platform.logger } : {}),
    });
  }
  let launched = 0;
  const startMore = (upTo: number) => {
    for (; launched < Math.min(upTo, withWork.length); launched++)
      withWork[launched]!.pending = withWork[launched]!.work!();
  };
  const maker = createRecordMaker(state, ctx, withWork.length);
  const writes: Promise<void>[] = [];
  const keep = options.keepRecords !== false;
  let retain = keep;
  let done = 0;
  let workIndex = 0;
  try {
    for (const job of jobs) {
      throwIfAborted(signal);
      const { f, spec, prev } = job;
      if (!job.work) {
        // Unchanged since the last snapshot; the record is loaded later, only if asked for.
        if (previousRecords) records.carry(previousRecords, f.path);
        state.reused++;
        files.push({ ...prev!, size: f.size, mtimeMs: f.mtimeMs });
        if (++done % 100 === 0) onProgress?.({ phase: "parse", done, total: sources });
        continue;
      }
      startMore(workIndex + READ_AHEAD);
      workIndex++;
      const prepared = await job.pending!;
      job.pending = undefined;
      if (prepared.kind === "skip") {
        const { size, mtimeMs, ...skip } = prepared.skip;
        state.skipped.push(skip);
        if (size !== undefined && mtimeMs !== undefined) state.contentSkips.push({ ...skip, size, mtimeMs });
        continue;
      }
      if (repair.has(f.path)) state.repaired++;
      const { hash, key } = prepared;
      let made: Made | undefined;
      if (prepared.kind === "record") {
        const { record } = prepared;
        made = { record, definitions: record.definitions.length, diagnostics: record.diagnostics.length };
        state.reused++;
      } else if ((made = ctx.parsedThisRun.get(key))) {
        // Same content as a file parsed earlier in this run (empty __init__.py files, copies).
        if (made.record) made = { ...made, record: { ...made.record, path: f.path } };
        state.reused++;
      } else {
        made = await maker.make(f, spec, prepared);
        if (!made) continue;
        // Same content later in this run is neither parsed nor written again; without the record
        // kept, only its counts are remembered (the record is in the store).
        ctx.parsedThisRun.set(key, retain ? made : { definitions: made.definitions, diagnostics: made.diagnostics });
        writes.push(platform.store.set(key, made.bytes!).catch((error) => void (state.writeError ??= error)));
        if (writes.length >= 64) await Promise.all(writes.splice(0));
        state.parsed.push(f.path);
      }
      // Keep the record for the graph unless the heap is getting full: then it stays in the store
      // only and is read back when asked for (a cold index under a small heap streams).
      if (done % 64 === 0 && platform.memory) {
        const { used, limit } = platform.memory();
        retain = keep && used < limit * RETAIN_SHARE;
      }
      if (retain) {
        if (made.record) records.set(f.path, made.record);
        else if (made.bytes) records.hold(f.path, made.bytes);
      }
      files.push({
        path: f.path,
        size: f.size,
        mtimeMs: f.mtimeMs,
        hash,
        language: spec.id,
        record: key,
        definitions: made.definitions,
        diagnostics: made.diagnostics,
      });
      if (++done % 100 === 0) onProgress?.({ phase: "parse", done, total: sources });
    }
  } finally {
    ctx.pool?.close();
  }
  onProgress?.({ phase: "parse", done, total: sources });
  return writes;
}

/**
 * A record made (or found) for a file: its stored bytes when made this run, and the record itself
 * when decoded (a pool's reply, a store read); an in-thread parse keeps only the bytes, decoded
 * when the record is first asked for (see RecordMap), and the counts the snapshot lists.
 */
interface Made {
  bytes?: Uint8Array;
  record?: FileRecord;
  definitions: number;
  diagnostics: number;
}

/**
 * Makes the record of a file to parse: the pool's when it made one, else (no pool, a worker that
 * died or could not load the grammar) parsed in this thread, which also reports a failure as a
 * one-thread run does. Undefined when the file's grammar is unavailable (the file is skipped, and
 * says why).
 */
function createRecordMaker(state: RunState, ctx: ParseContext, toRead: number) {
  const { platform } = state;
  let runtime: ParserRuntime | undefined;
  const grammarFailures = new Map<string, string>();
  const unavailable = (path: string, detail: string) =>
    void state.skipped.push({ path, reason: "grammar_unavailable", detail });
  return {
    async make(f: ScannedFile, spec: LanguageSpec, prepared: Prepared & { kind: "parse" }): Promise<Made | undefined> {
      const failed = grammarFailures.get(spec.id);
      if (failed) return unavailable(f.path, failed);
      const bytes = prepared.extracted ? await prepared.extracted : undefined;
      ctx.dispatched.delete(prepared.key);
      const pooled = bytes && freshRecord(bytes, f.path);
      if (bytes && pooled)
        return {
          bytes,
          record: pooled,
          definitions: pooled.definitions.length,
          diagnostics: pooled.diagnostics.length,
        };
      if (!runtime) {
        // At most the files read this run are parsed here (fewer: most reads find their record).
        platform.wasm.expectParses?.(toRead);
        runtime = await createParserRuntime(platform.wasm);
      }
      try {
        await runtime.load(spec);
      } catch (error) {
        // One broken grammar must not sink the whole index: that language's files are skipped, and
        // every one of them says why.
        if (!isEngineError(error, "wasm_missing", "wasm_mismatch", "grammar_incompatible")) throw error;
        grammarFailures.set(
          spec.id,
          `${(error as EngineError).message}${(error as EngineError).hint ? ` (${(error as EngineError).hint})` : ""}`,
        );
        return unavailable(f.path, grammarFailures.get(spec.id)!);
      }
      try {
        // Not decoded back here (storedForm's round trip, 0.27 CPU-s on django): the bytes are held
        // until asked for, and a cold `codeslice index` never asks.
        const extracted = await parseFile(runtime, spec, prepared.text, f.path, prepared.hash);
        return {
          bytes: storedBytes(extracted),
          definitions: extracted.definitions.length,
          diagnostics: extracted.diagnostics.length,
        };
      } catch (error) {
        // One file the parser cannot take is skipped with its reason; the run goes on. So is one
        // that meets a bug of extraction's own (a JS exception, not an EngineError): it would
        // otherwise cost every other file of the run, as a stack overflow over error nodes did.
        if (isEngineError(error, "parse_failed")) {
          state.skipped.push({ path: f.path, reason: "parse_failed", detail: (error as EngineError).message });
          return undefined;
        }
        if (isEngineError(error)) throw error;
        const message = (error as Error)?.message ?? String(error);
        platform.logger?.log("warn", `${f.path}: extraction failed (${message}); the file is skipped`);
        state.skipped.push({ path: f.path, reason: "parse_failed", detail: `internal error: ${message}` });
        return undefined;
      }
    },
  };
}

/** The snapshot of a finished run, written (with a store sweep) when anything changed, unless deferred. */
async function finishRun(state: RunState, scanMode: ScanResult["mode"]): Promise<Omit<IndexResult, "durationMs">> {
  const { platform, prevSnap, files, skipped, contentSkips, parsed, repaired } = state;
  const live = new Set(files.filter((f) => f.record).map((f) => f.path));
  const removed = prevSnap ? prevSnap.files.filter((f) => f.record && !live.has(f.path)).length : 0;
  skipped.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const snapshot: Snapshot = { schema: SCHEMA_VERSION, createdAt: Date.now(), scanMode, files, skipped, contentSkips };
  const changed =
    parsed.length > 0 ||
    removed > 0 ||
    repaired > 0 ||
    !prevSnap ||
    prevSnap.files.length !== files.length ||
    (prevSnap.contentSkips?.length ?? 0) !== contentSkips.length ||
    prevSnap.files.some(
      (f, i) => files[i]?.path !== f.path || files[i]?.mtimeMs !== f.mtimeMs || files[i]?.hash !== f.hash,
    );
  const result = { snapshot, records: state.records, parsed, reused: state.reused, removed, changed, repaired };
  if (!changed) {
    snapshot.createdAt = prevSnap!.createdAt; // nothing moved: keep the racy window anchored to the write
    return result;
  }
  const sweep = parsed.length > 0 || removed > 0 || !prevSnap;
  if (state.options.deferSave && prevSnap) {
    // Every key the change leaves unused, not only a parse's: records live on until the write, so
    // an edit undone finds its old record stored and makes none (the key it drops must go too).
    const garbage = await garbageOf(platform, snapshot, prevSnap, undefined);
    // The records must have landed before any snapshot naming them can.
    await platform.store.flush?.();
    return { ...result, unsaved: { snapshot, garbage } };
  }
  await platform.store.set(SNAPSHOT_KEY, encodeJson(snapshot));
  if (sweep) await deleteKeys(platform, await garbageOf(platform, snapshot, prevSnap, state.storedKeys));
  // A store that writes in batches acknowledged the records long ago; the run ends once they landed.
  await platform.store.flush?.();
  return result;
}

/**
 * Writes a snapshot a run left unsaved (`deferSave`), then deletes the record keys in `garbage`
 * that it does not name (a key a later run used again stays), then waits for a batching store.
 */
export async function saveSnapshot(platform: Platform, snapshot: Snapshot, garbage: Iterable<string>): Promise<void> {
  await platform.store.set(SNAPSHOT_KEY, encodeJson(snapshot));
  const live = new Set(snapshot.files.map((f) => f.record));
  await deleteKeys(
    platform,
    [...garbage].filter((k) => !live.has(k)),
  );
  await platform.store.flush?.();
}

/**
 * The inventory of `prev` with `paths` stat'ed again, for a re-check: a file that is gone leaves
 * the inventory, one that grew past the size limit or stopped being a readable file is skipped.
 */
async function restatFiles(
  platform: Platform,
  prev: Snapshot,
  paths: ReadonlySet<string>,
  maxBytes: number,
): Promise<ScanResult> {
  const files: ScannedFile[] = [];
  const skipped = prev.skipped.filter((s) => !paths.has(s.path));
  for (const f of prev.files) {
    if (!paths.has(f.path)) {
      files.push({ path: f.path, size: f.size, mtimeMs: f.mtimeMs });
      continue;
    }
    let st;
    try {
      st = await platform.fs.stat(f.path);
    } catch (error) {
      if (isEngineError(error, "not_found", "not_directory")) continue;
      const reason = isEngineError(error, "outside_root")
        ? "symlink_outside_root"
        : isEngineError(error, "symlink_loop")
          ? "symlink_loop"
          : "unreadable";
      skipped.push({ path: f.path, reason, ...(reason === "unreadable" ? { detail: (error as Error).message } : {}) });
      continue;
    }
    if (st.kind !== "file") continue; // a folder now: the next full scan walks it
    if (st.size > maxBytes)
      skipped.push({ path: f.path, reason: "too_large", detail: `${st.size} bytes, limit ${maxBytes}` });
    else files.push({ path: f.path, size: st.size, mtimeMs: st.mtimeMs });
  }
  return { mode: prev.scanMode, files, skipped };
}

/**
 * The stored records no file of `snapshot` points at. After an incremental run only the records
 * the previous snapshot used are candidates (no listing: a full key listing cost ~100 ms on
 * django); a run without a usable previous snapshot sweeps everything, older schemas included,
 * from `listed` (the keys the store held when the run began) when it has it. A key another process
 * wrote since is then left alone: the sweep only ever deletes what it knew was there.
 */
async function garbageOf(
  platform: Platform,
  snapshot: Snapshot,
  prevSnap: Snapshot | undefined,
  listed: Set<string> | undefined,
): Promise<string[]> {
  const live = new Set(snapshot.files.map((f) => f.record).filter(Boolean));
  const candidates = prevSnap
    ? prevSnap.files.map((f) => f.record).filter((k): k is string => k !== undefined)
    : [...(listed ?? (await platform.store.keys("")))].filter((k) => k !== SNAPSHOT_KEY && k !== SCAN_KEY);
  // Only keys of the engine's own layout are ever swept: whatever else a store lists is left alone.
  return [...new Set(candidates)].filter((key) => !live.has(key) && OWN_KEY.test(key));
}

/** Deletes `keys` from the store; one that will not go is left for a later sweep. */
async function deleteKeys(platform: Platform, keys: Iterable<string>): Promise<void> {
  for (const key of keys) await platform.store.delete(key).catch(() => {});
}
