/**
 * A folder of the disk store whose values are packed several to a file (the records folder,
 * `v<N>/records/`): a cold index wrote one file per record, four syscalls and a temp name each,
 * where it now writes one pack per 64 records. The pack format is the OPFS store's
 * (`store-pack.ts`: a CRC-checked table of keys and lengths, then the values).
 *
 * - **Writes.** `set` queues a value; a batch of 64 values (or 1 MiB) is written at once, as one
 *   pack to a dot-named temp file renamed onto `cs-<sequence>-<random>.pack`, so a pack is whole
 *   or absent (the crash-safety of every other value's temp file and rename). A set that fills a
 *   batch returns once its pack landed (so a refused write surfaces there); a smaller batch is
 *   written by `flush()`, before any plain value of the store (the snapshot never lands before the
 *   records it names), or after writes paused for 100 ms.
 * - **Reads** are lazy: opening reads each pack's table only; a value is read from its pack when
 *   asked for, the whole pack kept for the next reads (a warm start reads every record in order).
 * - **Other processes** (a warm server beside a CLI call) share the folder: a key not found, or a
 *   pack gone (compacted by another process), makes the folder read again when its mtime moved.
 *   Values here are content-addressed (the same key always holds the same bytes), so a pack seen
 *   late, or two processes' packs with one sequence number, never show a wrong value.
 * - **Compaction**: when superseded and deleted values outgrow the live ones, the live values go
 *   into new packs and the old ones are deleted oldest first (cut off midway, the folder holds
 *   both, and a delete still hides what it deleted until that value's pack is gone).
 * - **The layout before packs** (a file per record in two-letter folders) and anything else in the
 *   folder is deleted when the folder is first read: it is never read, and the records are made
 *   again (the engine repairs the snapshot's missing records).
 */
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
import type { DiskOps } from "./disk-store.ts";

/** A batch is written once it holds this many values… */
const PACK_OPS = 64;
/**
 * …or this many bytes of them. Smaller than the browser's 1 MiB: a value waiting in a batch
 * outlives V8's young generation and is freed only by a full GC, so bigger batches raised a cold
 * index's peak RSS (django: +5 MB with 64 records of ~15 kB a batch against one each).
 */
const PACK_BYTES = 256 << 10;
/** …or writes paused this long (ms). */
const IDLE_MS = 100;
/**
 * Queued values are copied into buffers of this size (a batch's bytes and its last value fit in
 * one), reused batch after batch, instead of a buffer of its own per value: a copy waiting in a
 * batch outlives V8's young generation, so its memory came back only with a full collection. (On
 * effect the peak of V8's backing stores stayed within run-to-run noise either way, 53-58 MB, 32
 * of them the parser's wasm memory: what bounded the peak was the heap's growth, see
 * `boundHeapGrowth` in node/index.ts.)
 */
const ARENA_BYTES = 2 * PACK_BYTES;
/** Packs up to this size are read whole when one of their values is asked for… */
const READ_WHOLE_BYTES = 2 << 20;
/** …and kept, up to this many bytes of them, least recently used first out. */
const CACHE_BYTES = 8 << 20;
/** Compaction waits until the garbage passes half the live bytes plus this. */
const COMPACT_MIN_DEAD = 4 << 20;
/** How many bytes of a pack to read first: its header and, for 64 records, its whole table (~5 KB). */
const HEAD_GUESS = 16 << 10;
/** A temp file older than this is left from a killed write: no write takes that long. */
const STALE_TEMP_MS = 60_000;

/** What a packed folder needs from its store. */
export interface PackHost {
  ops: DiskOps;
  /**
   * Writes the file `rel` (relative to the cache folder), made of `parts` in order, atomically,
   * creating folders as needed.
   */
  writeFile(rel: string, parts: readonly Uint8Array[]): Promise<void>;
}

/** A pack read back shorter or longer than its table said: changed behind this process's back. */
const changed = (name: string) => Object.assign(new Error(`pack ${name} changed`), { code: "ECHANGED" });

/** The values of one folder of the cache, packed (see the module comment). */
export class PackedFolder {
  private readonly ops: DiskOps;
  private readonly path: string;
  private loaded: Promise<void> | undefined;
  private landed = new Map<string, Landed>();
  private packs = new Map<string, Pack>();
  /** Tables already read, by pack name: a re-read of the folder reads only new packs. */
  private readonly tables = new Map<string, { size: number; entries: PackEntry[] }>();
  private nextSeq = 1;
  private totalBytes = 0;
  private liveBytes = 0;
  private batch: Ops = new Map();
  private batchBytes = 0;
  /** The buffer the batch's values are copied into (the batch's values are views of it), and how much is used. */
  private arena: Uint8Array = new Uint8Array(0);
  private arenaUsed = 0;
  /** Every buffer the batch's values lie in (a value too big for what is left starts another). */
  private batchArenas: Uint8Array[] = [];
  /** A buffer whose batch has landed, for the next batch. */
  private spareArena: Uint8Array | undefined;
  private inFlight: Ops | undefined;
  private writing: Promise<void> | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private compactionFailed = false;
  /** The folder's mtime when it was last read or written by this process. */
  private stamp: number | undefined;
  /** Pack work one at a time: writes, compaction, re-reads of the folder. */
  private chain: Promise<unknown> = Promise.resolve();
  private readonly cache = new Map<string, Promise<Uint8Array>>();
  private readonly cacheSizes = new Map<string, number>();
  private cacheBytes = 0;

  /**
   * @param rel the folder, relative to the cache folder ("v29/records"); its keys start with `rel/`
   * @param dir the cache folder (absolute)
   */
  constructor(
    private readonly host: PackHost,
    readonly rel: string,
    dir: string,
  ) {
    this.ops = host.ops;
    this.path = host.ops.join(dir, rel);
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.chain.then(work, work);
    this.chain = run.catch(() => {});
    return run;
  }

  private load(): Promise<void> {
    this.loaded ??= this.exclusive(() => this.scan()).catch((error) => {
      this.loaded = undefined;
      throw error;
    });
    return this.loaded;
  }

  /** True when another process may have written or deleted packs since this one last looked. */
  private async movedOnDisk(): Promise<boolean> {
    return (await this.ops.modifiedMs(this.path).catch(() => undefined)) !== this.stamp;
  }

  /**
   * Reads the folder: every pack's table (those not read before), the index rebuilt in sequence
   * order. Deletes damaged packs, stale temp files and whatever else is there (the old layout).
   */
  private async scan(): Promise<void> {
    const { ops } = this;
    let entries: { name: string; kind: string }[];
    try {
      entries = await ops.list(this.path);
    } catch (error) {
      const code = ops.code(error);
      if (code !== "ENOENT" && code !== "ENOTDIR") throw ops.mapError(error, this.rel);
      entries = [];
    }
    const found: { name: string; seq: number }[] = [];
    for (const e of entries) {
      const seq = e.kind === "file" ? packSeq(e.name) : undefined;
      const full = ops.join(this.path, e.name);
      if (seq !== undefined) found.push({ name: e.name, seq });
      else if (e.kind === "file" && /^\..+\.tmp$/.test(e.name)) {
        const modified = await ops.modifiedMs(full).catch(() => undefined);
        if (modified !== undefined && Date.now() - modified > STALE_TEMP_MS)
          await ops.remove(full, false).catch(() => {});
      } else await ops.remove(full, true).catch(() => {}); // the layout before packs, or a stray entry
    }
    found.sort((a, b) => a.seq - b.seq || (a.name < b.name ? -1 : 1));
    this.landed = new Map();
    this.packs = new Map();
    this.totalBytes = this.liveBytes = 0;
    const names = new Set(found.map((f) => f.name));
    for (const name of this.tables.keys()) if (!names.has(name)) this.tables.delete(name);
    for (const name of [...this.cache.keys()]) if (!names.has(name)) this.uncache(name);
    for (const f of found) {
      this.nextSeq = Math.max(this.nextSeq, f.seq + 1);
      const read = await this.readTable(f.name, f.seq);
      if (!read) {
        await ops.remove(ops.join(this.path, f.name), false).catch(() => {}); // damaged: nothing in it is readable
        continue;
      }
      this.addPack({ name: f.name, seq: f.seq, size: read.size, live: 0 }, read.entries);
    }
    this.stamp = await ops.modifiedMs(this.path).catch(() => undefined);
  }

  /** A pack's table, from memory when read before, else from its first bytes; undefined when damaged. */
  private async readTable(name: string, seq: number): Promise<{ size: number; entries: PackEntry[] } | undefined> {
    const known = this.tables.get(name);
    const full = this.ops.join(this.path, name);
    try {
      // A pack is never rewritten under its name: another size is damage.
      if (known) return (await this.sizeOf(full)) === known.size ? known : undefined;
      let { bytes, size } = await this.readAt(full, 0, HEAD_GUESS);
      let table = readPackTable(bytes, size, seq);
      if (table && "more" in table) {
        ({ bytes, size } = await this.readAt(full, 0, table.more));
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

  private async sizeOf(path: string): Promise<number | undefined> {
    return (await this.readAt(path, 0, 0).catch(() => undefined))?.size;
  }

  /** Up to `length` bytes of a file from `offset`, and the file's size. */
  private async readAt(path: string, offset: number, length: number): Promise<{ bytes: Uint8Array; size: number }> {
    if (this.ops.readAt) return this.ops.readAt(path, offset, length);
    const all = await this.ops.readFile(path);
    return { bytes: all.subarray(offset, offset + length), size: all.length };
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

  async get(key: string): Promise<Uint8Array | undefined> {
    await this.load();
    for (const ops of [this.batch, this.inFlight]) {
      if (ops?.has(key)) return ops.get(key)?.slice();
    }
    let at = this.landed.get(key);
    if (!at) {
      // Written by another process since this one read the folder?
      if (!(await this.movedOnDisk())) return undefined;
      await this.exclusive(() => this.scan());
      at = this.landed.get(key);
      if (!at) return undefined;
    }
    try {
      return await this.read(at);
    } catch (error) {
      // A pack compacted or deleted by another process, or damaged: read the folder again.
      const code = this.ops.code(error);
      if (code !== "ENOENT" && code !== "ENOTDIR" && code !== "ECHANGED" && code !== "EISDIR")
        throw this.ops.mapError(error, key);
      this.tables.delete(at.pack.name);
      await this.exclusive(() => this.scan());
      const now = this.landed.get(key);
      return now ? this.read(now).catch(() => undefined) : undefined;
    }
  }

  /** Queues `value` under `key` (copied); returns once queued, or once landed when it filled a batch. */
  async set(key: string, value: Uint8Array): Promise<void> {
    await this.load();
    // Copied (the caller may reuse its buffer while the value waits in the batch) and queued with no
    // await between: a buffer is handed to the next batch once its own batch landed.
    this.queue(key, this.copyIn(value));
    if (this.batch.size >= PACK_OPS || this.batchBytes >= PACK_BYTES) await this.startWriting();
  }

  async delete(key: string): Promise<void> {
    await this.load();
    const inFlight = this.inFlight?.get(key);
    if (inFlight !== undefined ? inFlight !== null : this.landed.has(key)) return this.queue(key, null);
    // Nothing written holds the key: dropping it from the batch is the whole delete.
    const queued = this.batch.get(key);
    if (queued) this.batchBytes -= queued.length;
    this.batch.delete(key);
  }

  /** The folder's keys starting with `prefix`, what is queued included. */
  async keys(prefix: string): Promise<string[]> {
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
    return [...out];
  }

  /** Resolves once everything queued so far has landed; rejects with the write's failure. */
  async flush(): Promise<void> {
    while (this.batch.size > 0 || this.writing) await this.startWriting();
  }

  /** A copy of `value` in the batch's buffer (see ARENA_BYTES). */
  private copyIn(value: Uint8Array): Uint8Array {
    if (this.arenaUsed + value.length > this.arena.length) {
      const spare = this.spareArena;
      this.spareArena = undefined;
      this.arena = spare && spare.length >= value.length ? spare : new Uint8Array(Math.max(ARENA_BYTES, value.length));
      this.arenaUsed = 0;
      this.batchArenas.push(this.arena);
    }
    const copy = this.arena.subarray(this.arenaUsed, this.arenaUsed + value.length);
    copy.set(value);
    this.arenaUsed += value.length;
    return copy;
  }

  private queue(key: string, value: Uint8Array | null): void {
    const old = this.batch.get(key);
    if (old) this.batchBytes -= old.length;
    this.batch.set(key, value);
    if (value) this.batchBytes += value.length;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      // A failure here is the next set's or flush's to report: the values stay queued.
      this.startWriting().catch(() => {});
    }, IDLE_MS);
  }

  private startWriting(): Promise<void> {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.writing ??= this.exclusive(() => this.writeLoop()).finally(() => {
      this.writing = undefined;
    });
    return this.writing;
  }

  /** Writes what is queued, one pack per batch; compacts when the garbage has grown. */
  private async writeLoop(): Promise<void> {
    while (this.batch.size > 0) {
      const ops = this.batch;
      const arenas = this.batchArenas;
      this.inFlight = ops;
      this.batch = new Map();
      this.batchBytes = 0;
      // The next values go into another buffer: this batch's stay as they are until its pack lands.
      this.batchArenas = [];
      this.arena = new Uint8Array(0);
      this.arenaUsed = 0;
      try {
        await this.writePack([...ops].map(([key, value]) => ({ key, value: value ?? undefined })));
        // Landed: nothing reads these values any more (get copies), so the buffer can take the next
        // batch's. (A failed batch's buffers stay with its values, queued again below.)
        const last = arenas[arenas.length - 1];
        if (last && last.length === ARENA_BYTES) this.spareArena = last;
      } catch (error) {
        // What did not land stays readable (and queued) in memory; what was queued since is newer.
        for (const [key, value] of ops) {
          if (this.batch.has(key)) continue;
          this.batch.set(key, value);
          if (value) this.batchBytes += value.length;
        }
        throw error;
      } finally {
        this.inFlight = undefined;
      }
      if (!this.compactionFailed && this.compactionDue()) {
        // A compaction that fails leaves the old packs as they were; it is not tried again.
        await this.compact().catch(() => void (this.compactionFailed = true));
      }
    }
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
    await this.host.writeFile(`${this.rel}/${name}`, parts);
    const entries = readPackTable(head, size, seq) as PackEntry[];
    this.tables.set(name, { size, entries });
    this.addPack({ name, seq, size, live: 0 }, entries);
    this.stamp = await this.ops.modifiedMs(this.path).catch(() => undefined);
  }

  private compactionDue(): boolean {
    const dead = this.totalBytes - this.liveBytes;
    const needed = Math.max(Math.ceil(this.liveBytes / PACK_BYTES), Math.ceil(this.landed.size / PACK_OPS));
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
      if (!value) continue; // unreadable: it would read as absent anyway
      ops.push({ key, value });
      size += value.length;
      if (size >= PACK_BYTES || ops.length >= PACK_OPS) {
        await this.writePack(ops);
        ops = [];
        size = 0;
      }
    }
    if (ops.length > 0) await this.writePack(ops);
    for (const p of old) {
      await this.ops.remove(this.ops.join(this.path, p.name), false).catch(() => {});
      this.packs.delete(p.name);
      this.tables.delete(p.name);
      this.totalBytes -= p.size;
      this.uncache(p.name);
    }
    this.stamp = await this.ops.modifiedMs(this.path).catch(() => undefined);
  }

  /** A landed value's bytes (a copy). */
  private async read(at: Landed): Promise<Uint8Array> {
    const { pack } = at;
    if (pack.size > READ_WHOLE_BYTES) {
      const { bytes, size } = await this.readAt(this.ops.join(this.path, pack.name), at.offset, at.length);
      if (size !== pack.size || bytes.length !== at.length) throw changed(pack.name);
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
    const read = this.ops.readFile(this.ops.join(this.path, pack.name)).then((bytes) => {
      if (bytes.length !== pack.size) throw changed(pack.name);
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
