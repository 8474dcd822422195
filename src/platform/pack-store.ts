/**
 * The packed store, once for every host: values gathered in memory and written several to a file
 * (`store-pack.ts`: a CRC-checked table of keys and lengths, then the values), over a small file
 * port each host adapts (`PackFiles`: the disk store's folder through file descriptors,
 * `disk-store.ts`; an OPFS folder through its async API, `browser/opfs-store.ts`). Pure: no
 * `node:*`, no DOM, so a fix here is a fix for both.
 *
 * Why packs: a file per record cost four or five file operations each (OPFS: 4-5 ms of Chromium's
 * CPU per file, `test/bench/opfs-ops-bench.mjs`; the disk: four syscalls and a temp name).
 *
 * - **Writes.** `set` copies a value into the batch (into a buffer reused batch after batch, see
 *   ARENA_BYTES) and returns once it is queued; a batch is written as one pack when it holds
 *   `packOps` values or `packBytes` bytes, when writes pause for 100 ms, at most `maxDelayMs` after
 *   its first value, and on `flush()`. The port writes a pack whole or not at all (a temp file moved
 *   onto its name), and packs land in order, so a kill leaves a prefix of the writes: every key
 *   whole, older or absent, never a part. `set` waits for the disk when the values not landed pass
 *   `maxUnlandedBytes` (the indexer runs ahead of the disk by a few batches at most).
 * - **Failures.** A batch that fails to land stays queued and readable from memory. With
 *   `stickyFailure` the store has failed from then on (`set`, `delete` and `flush` throw it, the
 *   `onFailure` listeners hear it once: a browser moves to memory); without it the failure rejects
 *   the `flush` or `set` that waited for that write, and the next write tries again.
 * - **Reads** are lazy: opening reads each pack's table only; a value is read from its pack when
 *   asked for (a pack of up to 2 MiB whole, kept for the next reads: the engine reads records about
 *   in the order written).
 * - **Recovery.** Opening deletes damaged packs (a table that fails its check holds nothing
 *   readable), temp and swap files older than `staleScratchMs` (left by a killed write) and
 *   anything else (the layout before packs, a stray folder: never read, the engine makes its
 *   records again). A pack gone or changed under a read (compacted by another process) makes the
 *   folder read again; where the port has a folder `stamp` (the disk), a key not found does too
 *   when the stamp moved: a warm server and a CLI call share one folder. Values are
 *   content-addressed (one key, one value), so a pack seen late never shows a wrong value.
 * - **Compaction**: when superseded and deleted values outgrow the live ones, the live values go
 *   into new packs and the old ones are deleted oldest first (cut off midway, the folder holds
 *   both, and a delete still hides what it deleted until that value's pack is gone).
 */
import { EngineError } from "../shared/errors.ts";
import {
  encodePackHead,
  type Landed,
  type Ops,
  type Pack,
  type PackEntry,
  type PackOp,
  packName,
  packSeq,
  readPackTable,
} from "./store-pack.ts";

/** The file operations of one folder a packed store needs; names are plain file names in it. */
export interface PackFiles {
  /**
   * The folder's entries ("file", "directory", or another kind), the host's own files (a marker)
   * left out; empty when the folder does not exist.
   */
  list(): Promise<{ name: string; kind: string }[]>;
  /** Up to `length` bytes of file `name` from `offset` (fewer at its end), and the file's size. */
  readAt(name: string, offset: number, length: number): Promise<{ bytes: Uint8Array; size: number }>;
  /** The whole file `name`. */
  read(name: string): Promise<Uint8Array>;
  /** Writes file `name` made of `parts` in order, whole or not at all (temp file, then moved onto the name). */
  write(name: string, parts: readonly Uint8Array[]): Promise<void>;
  /** Removes the entry `name`; `recursive` for a folder (or another kind) with what it holds. */
  remove(name: string, recursive: boolean): Promise<void>;
  /** When file `name` was last modified (ms since epoch), or undefined. */
  modifiedMs(name: string): Promise<number | undefined>;
  /**
   * Optional: a stamp that moves when another process adds or removes files (the folder's mtime).
   * Without it the folder is read again only when a pack is found gone.
   */
  stamp?(): Promise<number | undefined>;
  /** True when `error` says a file is gone or is not a file (it was compacted or deleted behind the store). */
  gone(error: unknown): boolean;
  /** The error to throw for a failed read of `key` that is not `gone` (default: the error itself). */
  mapError?(error: unknown, key: string): unknown;
}

/** How a host's packed store batches (the numbers differ by what a file costs there). */
export interface PackPolicy {
  /** A batch is written once it holds this many values… */
  packOps: number;
  /** …or this many bytes of them… */
  packBytes: number;
  /** …or its first value waited this long (ms); writes pausing for 100 ms write it too. */
  maxDelayMs: number;
  /** `set` waits for the disk while more than this many bytes are queued and not landed. */
  maxUnlandedBytes: number;
  /** After a failed write, the store has failed (see the module note). */
  stickyFailure: boolean;
  /** Temp and swap files older than this are left from a killed write and deleted (ms). */
  staleScratchMs: number;
  /** Called when the store starts (true) and stops (false) holding values not landed. */
  onUnlanded?(unlanded: boolean): void;
}

/** Writes paused this long (ms) write the batch. */
const IDLE_MS = 100;
/** Packs up to this size are read whole when one of their values is asked for… */
const READ_WHOLE_BYTES = 2 << 20;
/** …and kept, up to this many bytes of them, least recently used first out. */
const CACHE_BYTES = 8 << 20;
/** Compaction waits until the garbage passes half the live bytes plus this. */
const COMPACT_MIN_DEAD = 4 << 20;
/** How many bytes of a pack to read first: its header and, for 64 records, its whole table (~5 KB). */
const HEAD_GUESS = 16 << 10;
/** Keys longer than this are refused (a pack's table holds a key's length in 16 bits). */
export const MAX_PACK_KEY_LENGTH = 4096;

/** Temp files of the store's writes ("\.x.tmp") and the swap files Chromium keeps beside a file being written. */
export const isScratch = (name: string) => name.endsWith(".crswap") || /^\..+\.tmp$/.test(name);

/** A pack read back shorter or longer than its table said: changed behind this store's back. */
class PackChanged extends Error {}

/** A store of values packed several to a file in one folder (see the module note). */
export class PackStore {
  private loaded: Promise<void> | undefined;
  /** The folder has been read. */
  private ready = false;
  private landed = new Map<string, Landed>();
  private packs = new Map<string, Pack>();
  /** Tables already read, by pack name: a re-read of the folder reads only new packs. */
  private readonly tables = new Map<string, { size: number; entries: PackEntry[] }>();
  private nextSeq = 1;
  private totalBytes = 0;
  private liveBytes = 0;
  private batch: Ops = new Map();
  private batchBytes = 0;
  private inFlight: Ops | undefined;
  private inFlightBytes = 0;
  /**
   * Queued values are copied into buffers of `2 × packBytes` (a batch's bytes and its last value
   * fit in one), reused batch after batch, instead of a buffer of its own per value: a copy waiting
   * in a batch outlives V8's young generation, so its memory came back only with a full collection.
   */
  private arena: Uint8Array = new Uint8Array(0);
  private arenaUsed = 0;
  /** Every buffer the batch's values lie in (a value too big for what is left starts another). */
  private batchArenas: Uint8Array[] = [];
  /** A buffer whose batch has landed, for the next batch. */
  private spareArena: Uint8Array | undefined;
  private firstQueuedAt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The batch is to be written whatever its size (a flush, a pause, its delay passed). */
  private due = false;
  private writing: Promise<void> | undefined;
  private compactionFailed = false;
  private failure: unknown;
  private readonly failureListeners: ((error: unknown) => void)[] = [];
  /** The folder's stamp when it was last read or written by this store. */
  private stamp: number | undefined;
  /** Pack work one at a time: writes, compaction, re-reads of the folder. */
  private chain: Promise<unknown> = Promise.resolve();
  private readonly cache = new Map<string, Promise<Uint8Array>>();
  private readonly cacheSizes = new Map<string, number>();
  private cacheBytes = 0;

  constructor(
    private readonly files: PackFiles,
    private readonly policy: PackPolicy,
  ) {}

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.chain.then(work, work);
    this.chain = run.catch(() => {});
    return run;
  }

  /** Reads the folder once (every pack's table; see Recovery in the module note); later calls wait for that. */
  load(): Promise<void> {
    this.loaded ??= this.exclusive(() => this.scan()).then(
      () => void (this.ready = true),
      (error) => {
        this.loaded = undefined;
        throw error;
      },
    );
    return this.loaded;
  }

  /** True when another process may have written or deleted packs since this store last looked. */
  private async movedOnDisk(): Promise<boolean> {
    if (!this.files.stamp) return false;
    return (await this.files.stamp().catch(() => undefined)) !== this.stamp;
  }

  /** Reads the folder: every pack's table (those not read before), the index rebuilt in sequence order. */
  private async scan(): Promise<void> {
    const { files } = this;
    const found: { name: string; seq: number }[] = [];
    const before = Date.now() - this.policy.staleScratchMs;
    for (const e of await files.list()) {
      const seq = e.kind === "file" ? packSeq(e.name) : undefined;
      if (seq !== undefined) found.push({ name: e.name, seq });
      else if (e.kind === "file" && isScratch(e.name)) {
        const modified = await files.modifiedMs(e.name).catch(() => undefined);
        if (modified !== undefined && modified <= before) await files.remove(e.name, false).catch(() => {});
      } else await files.remove(e.name, true).catch(() => {}); // the layout before packs, or a stray entry
    }
    found.sort((a, b) => a.seq - b.seq || (a.name < b.name ? -1 : 1));
    const names = new Set(found.map((f) => f.name));
    for (const name of this.tables.keys()) if (!names.has(name)) this.tables.delete(name);
    for (const name of [...this.cache.keys()]) if (!names.has(name)) this.uncache(name);
    const tables = await Promise.all(found.map((f) => this.readTable(f.name, f.seq)));
    this.landed = new Map();
    this.packs = new Map();
    this.totalBytes = this.liveBytes = 0;
    for (const [i, f] of found.entries()) {
      this.nextSeq = Math.max(this.nextSeq, f.seq + 1);
      const read = tables[i];
      if (!read)
        await files.remove(f.name, false).catch(() => {}); // damaged: nothing in it is readable
      else this.addPack({ name: f.name, seq: f.seq, size: read.size, live: 0 }, read.entries);
    }
    this.stamp = await files.stamp?.().catch(() => undefined);
  }

  /** A pack's table, from memory when read before, else from its first bytes; undefined when damaged. */
  private async readTable(name: string, seq: number): Promise<{ size: number; entries: PackEntry[] } | undefined> {
    const known = this.tables.get(name);
    try {
      // A pack is never rewritten under its name: another size is damage.
      if (known) return (await this.files.readAt(name, 0, 0)).size === known.size ? known : undefined;
      let { bytes, size } = await this.files.readAt(name, 0, HEAD_GUESS);
      let table = readPackTable(bytes, size, seq);
      if (table && "more" in table) {
        ({ bytes, size } = await this.files.readAt(name, 0, table.more));
        table = readPackTable(bytes, size, seq);
      }
      if (!table || "more" in table) return undefined;
      const read = { size, entries: table };
      this.tables.set(name, read);
      return read;
    } catch {
      return undefined;
    }
  }

  /** Points the index at a pack's entries, later packs over earlier ones. */
  private addPack(pack: Pack, entries: PackEntry[]): void {
    this.packs.set(pack.name, pack);
    this.totalBytes += pack.size;
    for (const e of entries) {
      const old = this.landed.get(e.key);
      if (old) {
        old.pack.live -= old.length;
        this.liveBytes -= old.length;
      }
      if (e.offset === undefined || e.length === undefined) this.landed.delete(e.key);
      else {
        this.landed.set(e.key, { pack, offset: e.offset, length: e.length });
        pack.live += e.length;
        this.liveBytes += e.length;
      }
    }
  }

  /** Calls `listener` when a batch of acknowledged writes fails to land (once; at once if it already did). */
  onFailure(listener: (error: unknown) => void): void {
    if (this.failure !== undefined) listener(this.failure);
    else this.failureListeners.push(listener);
  }

  /** The value of `key` (a copy), or undefined. */
  async get(key: string): Promise<Uint8Array | undefined> {
    await this.load();
    for (const ops of [this.batch, this.inFlight]) {
      if (ops?.has(key)) return ops.get(key)?.slice();
    }
    let at = this.landed.get(key);
    if (!at) {
      // Written by another process since this store read the folder?
      if (!(await this.movedOnDisk())) return undefined;
      await this.exclusive(() => this.scan());
      at = this.landed.get(key);
      if (!at) return undefined;
    }
    try {
      return await this.read(at);
    } catch (error) {
      // A pack compacted or deleted (by this store meanwhile, or another process), or damaged.
      if (!(error instanceof PackChanged) && !this.files.gone(error)) throw this.files.mapError?.(error, key) ?? error;
      const moved = this.landed.get(key);
      if (moved && moved !== at) return this.read(moved).catch(() => undefined);
      this.tables.delete(at.pack.name);
      await this.exclusive(() => this.scan());
      const now = this.landed.get(key);
      return now ? this.read(now).catch(() => undefined) : undefined;
    }
  }

  /** Queues `value` under `key` (copied); waits only while too much is queued and not landed. */
  async set(key: string, value: Uint8Array): Promise<void> {
    if (key.length > MAX_PACK_KEY_LENGTH)
      throw new EngineError("invalid_argument", `Store key too long: ${key.length} characters`, {
        hint: `Store keys are at most ${MAX_PACK_KEY_LENGTH} characters.`,
        data: { key: key.slice(0, 100) },
      });
    if (!this.ready) {
      // The caller may change its array while the folder is read: queue a copy taken now.
      const copy = value.slice();
      await this.load();
      value = copy;
    }
    if (this.failure !== undefined) throw this.failure;
    // Copied (the caller may reuse its buffer while the value waits in the batch) and queued with no
    // await between: a buffer is handed to the next batch once its own batch landed.
    this.queue(key, this.copyIn(value));
    while (this.batchBytes + this.inFlightBytes > this.policy.maxUnlandedBytes && this.writing) {
      if (this.failure !== undefined) break;
      await this.writing;
    }
    if (this.failure !== undefined) throw this.failure;
  }

  /** Deletes `key`: queued as a delete when a written pack holds it, else dropped from the batch. */
  async delete(key: string): Promise<void> {
    await this.load();
    if (this.failure !== undefined) throw this.failure;
    const inFlight = this.inFlight?.get(key);
    if (inFlight !== undefined ? inFlight !== null : this.landed.has(key)) return this.queue(key, null);
    const queued = this.batch.get(key);
    if (queued) this.batchBytes -= queued.length;
    this.batch.delete(key);
  }

  /** The keys starting with `prefix`, what is queued included, sorted. */
  async keys(prefix = ""): Promise<string[]> {
    await this.load();
    if (await this.movedOnDisk()) await this.exclusive(() => this.scan());
    const out = new Set<string>();
    for (const key of this.landed.keys()) if (key.startsWith(prefix)) out.add(key);
    for (const ops of [this.inFlight, this.batch]) {
      if (!ops) continue;
      for (const [key, value] of ops) {
        if (!key.startsWith(prefix)) continue;
        if (value) out.add(key);
        else out.delete(key);
      }
    }
    return [...out].sort();
  }

  /** Resolves once everything queued so far has landed; rejects with the write's failure. */
  async flush(): Promise<void> {
    await this.load();
    for (;;) {
      if (this.failure !== undefined) throw this.failure;
      if (this.batch.size === 0 && !this.writing) return;
      await this.startWriting();
    }
  }

  /** Drops what is queued and every pack, after the write in progress (the folder itself stays). */
  async clear(): Promise<void> {
    await this.load();
    this.dropBatch();
    await this.writing?.catch(() => {});
    this.dropBatch();
    await this.exclusive(async () => {
      for (const e of await this.files.list())
        await this.files.remove(e.name, true).catch((error) => {
          if (!this.files.gone(error)) throw error;
        });
      this.landed.clear();
      this.packs.clear();
      this.tables.clear();
      for (const name of [...this.cache.keys()]) this.uncache(name);
      this.totalBytes = this.liveBytes = 0;
    });
  }

  private dropBatch(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.batch = new Map();
    this.batchBytes = 0;
    this.batchArenas = [];
    this.arena = new Uint8Array(0);
    this.arenaUsed = 0;
    this.firstQueuedAt = 0;
    if (!this.writing) this.policy.onUnlanded?.(false);
  }

  /** A copy of `value` in the batch's buffer (see `arena`). */
  private copyIn(value: Uint8Array): Uint8Array {
    if (this.arenaUsed + value.length > this.arena.length) {
      const spare = this.spareArena;
      this.spareArena = undefined;
      const size = Math.max(2 * this.policy.packBytes, value.length);
      this.arena = spare && spare.length >= value.length ? spare : new Uint8Array(size);
      this.arenaUsed = 0;
      this.batchArenas.push(this.arena);
    }
    const copy = this.arena.subarray(this.arenaUsed, this.arenaUsed + value.length);
    copy.set(value);
    this.arenaUsed += value.length;
    return copy;
  }

  private full(): boolean {
    return this.batchBytes >= this.policy.packBytes || this.batch.size >= this.policy.packOps;
  }

  private queue(key: string, value: Uint8Array | null): void {
    const old = this.batch.get(key);
    if (old) this.batchBytes -= old.length;
    this.batch.set(key, value);
    if (value) this.batchBytes += value.length;
    this.policy.onUnlanded?.(true);
    this.firstQueuedAt ||= Date.now();
    // A failure here is the next set's or flush's to report: the values stay queued.
    if (this.full()) this.startWriting().catch(() => {});
    else this.arm();
  }

  /** Sets the timer that writes a batch that stopped growing (the write loop sets it when it ends). */
  private arm(): void {
    if (this.writing) return;
    if (this.timer !== undefined) clearTimeout(this.timer);
    const wait = Math.max(0, Math.min(IDLE_MS, this.firstQueuedAt + this.policy.maxDelayMs - Date.now()));
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.startWriting().catch(() => {});
    }, wait);
  }

  private startWriting(): Promise<void> {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.due = true;
    if (this.writing) return this.writing;
    let failed = false;
    const run = this.exclusive(() => this.writeLoop()).catch((error) => {
      failed = true;
      throw error;
    });
    this.writing = run.finally(() => {
      this.writing = undefined;
      if (failed || this.failure !== undefined || this.batch.size === 0) {
        if (this.batch.size === 0 || this.failure !== undefined) this.policy.onUnlanded?.(false);
        return;
      }
      if (this.due || this.full()) this.startWriting().catch(() => {});
      else this.arm();
    });
    return this.writing;
  }

  /** Writes batches, one pack each, while one is due; compacts when the garbage has grown. */
  private async writeLoop(): Promise<void> {
    while (this.failure === undefined && this.batch.size > 0) {
      if (!this.due && !this.full()) break;
      const ops = this.batch;
      const arenas = this.batchArenas;
      this.inFlight = ops;
      this.inFlightBytes = this.batchBytes;
      this.batch = new Map();
      this.batchBytes = 0;
      this.firstQueuedAt = 0;
      this.due = false;
      // The next values go into another buffer: this batch's stay as they are until its pack lands.
      this.batchArenas = [];
      this.arena = new Uint8Array(0);
      this.arenaUsed = 0;
      try {
        await this.writePack([...ops].map(([key, value]) => ({ key, value: value ?? undefined })));
        // Landed: nothing reads these values any more (get copies), so the buffer can take the next
        // batch's. (A failed batch's buffers stay with its values, queued again below.)
        const last = arenas[arenas.length - 1];
        if (last && last.length === 2 * this.policy.packBytes) this.spareArena = last;
      } catch (error) {
        this.requeue(ops, arenas);
        if (!this.policy.stickyFailure) throw error;
        this.failure = error;
        for (const listener of this.failureListeners.splice(0)) listener(error);
        break;
      } finally {
        this.inFlight = undefined;
        this.inFlightBytes = 0;
      }
      if (!this.compactionFailed && this.compactionDue()) {
        // A compaction that fails leaves the old packs as they were; it is not tried again.
        await this.compact().catch(() => void (this.compactionFailed = true));
      }
    }
  }

  /** A batch that did not land, back in the queue: still readable; what was queued since is newer. */
  private requeue(ops: Ops, arenas: Uint8Array[]): void {
    for (const [key, value] of ops) {
      if (this.batch.has(key)) continue;
      this.batch.set(key, value);
      if (value) this.batchBytes += value.length;
    }
    this.batchArenas.push(...arenas);
  }

  /** Writes one pack and points the index at it. */
  private async writePack(ops: PackOp[]): Promise<void> {
    const seq = this.nextSeq++;
    // The table, then the values as they are: no megabyte-sized copy of the batch per pack (it
    // raised a cold django index's peak RSS by ~10 MB).
    const head = encodePackHead(seq, ops);
    const parts = [head];
    let size = head.length;
    for (const op of ops) {
      if (!op.value) continue;
      parts.push(op.value);
      size += op.value.length;
    }
    const name = packName(seq);
    await this.files.write(name, parts);
    const entries = readPackTable(head, size, seq) as PackEntry[];
    this.tables.set(name, { size, entries });
    this.addPack({ name, seq, size, live: 0 }, entries);
    this.stamp = await this.files.stamp?.().catch(() => undefined);
  }

  private compactionDue(): boolean {
    const { packBytes, packOps } = this.policy;
    const dead = this.totalBytes - this.liveBytes;
    const needed = Math.max(Math.ceil(this.liveBytes / packBytes), Math.ceil(this.landed.size / packOps));
    return dead > this.liveBytes / 2 + COMPACT_MIN_DEAD || this.packs.size > 2 * needed + 32;
  }

  /**
   * Rewrites the live values into new packs, then deletes the old packs oldest first: cut off
   * midway, the folder holds the old packs and some new ones with the same values.
   */
  private async compact(): Promise<void> {
    const old = [...this.packs.values()].sort((a, b) => a.seq - b.seq);
    const live = [...this.landed].sort(([, a], [, b]) => a.pack.seq - b.pack.seq || a.offset - b.offset);
    let ops: PackOp[] = [];
    let size = 0;
    for (const [key, at] of live) {
      const value = await this.read(at).catch(() => undefined);
      if (!value) {
        // Unreadable: it would read as absent anyway, and its pack is about to go.
        this.landed.delete(key);
        this.liveBytes -= at.length;
        continue;
      }
      ops.push({ key, value });
      size += value.length;
      if (size >= this.policy.packBytes || ops.length >= this.policy.packOps) {
        await this.writePack(ops);
        ops = [];
        size = 0;
      }
    }
    if (ops.length > 0) await this.writePack(ops);
    for (const p of old) {
      await this.files.remove(p.name, false).catch(() => {});
      this.packs.delete(p.name);
      this.tables.delete(p.name);
      this.totalBytes -= p.size;
      this.uncache(p.name);
    }
    this.stamp = await this.files.stamp?.().catch(() => undefined);
  }

  /** A landed value's bytes (a copy). */
  private async read(at: Landed): Promise<Uint8Array> {
    const { pack } = at;
    if (pack.size > READ_WHOLE_BYTES) {
      const { bytes, size } = await this.files.readAt(pack.name, at.offset, at.length);
      if (size !== pack.size || bytes.length !== at.length) throw new PackChanged(pack.name);
      return bytes.slice();
    }
    return (await this.packBytes(pack)).slice(at.offset, at.offset + at.length);
  }

  /** A small pack's whole bytes, kept for the next reads (concurrent reads of one pack share one). */
  private packBytes(pack: Pack): Promise<Uint8Array> {
    const known = this.cache.get(pack.name);
    if (known) {
      this.cache.delete(pack.name);
      this.cache.set(pack.name, known);
      return known;
    }
    const read = this.files.read(pack.name).then((bytes) => {
      if (bytes.length !== pack.size) throw new PackChanged(pack.name);
      return bytes;
    });
    this.cache.set(pack.name, read);
    this.cacheSizes.set(pack.name, pack.size);
    this.cacheBytes += pack.size;
    read.catch(() => {
      if (this.cache.get(pack.name) === read) this.uncache(pack.name);
    });
    for (const [name] of this.cache) {
      if (this.cacheBytes <= CACHE_BYTES || name === pack.name) break;
      this.uncache(name);
    }
    return read;
  }

  private uncache(name: string): void {
    if (!this.cache.delete(name)) return;
    this.cacheBytes -= this.cacheSizes.get(name) ?? 0;
    this.cacheSizes.delete(name);
  }
}
