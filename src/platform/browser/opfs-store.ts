/**
 * A Store in the origin private file system, records packed several to a file. The folder is
 * codeslice's own: it carries a marker file, and a folder holding anything else (another app's
 * files on the same origin, a folder handle passed by mistake) is refused with `cache_refused`
 * before anything is written or deleted there.
 *
 * Why packs: OPFS costs Chromium 4-5 ms of CPU per file written, whatever the API, so one file per
 * record cost a 2,000-file index ~9.5 CPU-s of writes, three times its parsing. Operations are
 * now gathered in memory and written as one pack file per batch (`../store-pack.ts`: a checked table
 * of keys, then the values), each pack written to a dot-named temp file and moved onto its name,
 * so a pack is whole or absent. `set` returns once the value is in the batch: the indexer is never
 * held by the disk. A batch is written when it reaches 1 MiB or 512 operations, when writes pause
 * for 100 ms, or at most a second after its first operation; `flush()` waits for what was
 * acknowledged. Packs land in order, so a reload or a killed worker leaves a prefix of the
 * writes: every key whole, older or absent, never a part (the engine re-makes what is absent).
 *
 * Reads stay lazy: opening reads each pack's table only (keys, offsets), and a value is read from
 * its pack when asked for (a pack of up to 2 MiB whole, kept for the next reads). Superseded
 * values and deletes make garbage; when it outgrows the live data the store compacts: the live
 * values go into new packs and the old ones are deleted oldest first, so a compaction cut off
 * midway never brings a deleted key back. Anything else in the folder (the per-record files of
 * the layout before packs, a stray folder) is deleted when the store opens: an old layout is
 * never read, and the index is made again.
 */
import { EngineError } from "../../shared/errors.ts";
import { checkStoreKey } from "../store-key.ts";
import type { Store } from "../../core/ports.ts";
import { domErrorName } from "./dom-errors.ts";
import {
  encodePack,
  PACK_HEAD_GUESS,
  PACK_NAME,
  type PackEntry,
  type PackOp,
  packName,
  packSeq,
  readPackTable,
  type Landed,
  type Ops,
  type Pack,
} from "../store-pack.ts";

type IterableDirectory = FileSystemDirectoryHandle & { entries(): AsyncIterableIterator<[string, FileSystemHandle]> };
type MovableFile = FileSystemFileHandle & { move?(name: string): Promise<void> };

/** The marker file of a store folder (dot-named: no store key can collide with it). */
export const STORE_MARKER = ".codeslice-store";
const MARKER_TEXT =
  "codeslice index store\n# This folder holds a codeslice index. It is safe to delete; it is rebuilt on the " +
  "next index.\n";

/** The root of this origin's private file system, or undefined where there is none (insecure context, old browser). */
export async function opfsRoot(): Promise<FileSystemDirectoryHandle | undefined> {
  const storage = (
    globalThis as { navigator?: { storage?: { getDirectory?: () => Promise<FileSystemDirectoryHandle> } } }
  ).navigator?.storage;
  if (typeof storage?.getDirectory !== "function") return undefined;
  return storage.getDirectory();
}

/** True when this browser can write OPFS files from this context (Safari only offers sync handles in workers). */
export function canWriteOpfs(): boolean {
  const proto = (globalThis as { FileSystemFileHandle?: { prototype: object } }).FileSystemFileHandle?.prototype;
  return proto !== undefined && "createWritable" in proto;
}

/** Opens (creating) the folder at `path` ("a/b") under `root`. */
export async function openDirectory(root: FileSystemDirectoryHandle, path: string): Promise<FileSystemDirectoryHandle> {
  let dir = root;
  for (const part of path.split("/").filter(Boolean)) dir = await dir.getDirectoryHandle(part, { create: true });
  return dir;
}

/** The folder at `path` under `root` when it exists (nothing is created), else undefined. */
export async function findDirectory(
  root: FileSystemDirectoryHandle,
  path: string,
): Promise<FileSystemDirectoryHandle | undefined> {
  let dir = root;
  try {
    for (const part of path.split("/").filter(Boolean)) dir = await dir.getDirectoryHandle(part);
  } catch (error) {
    const name = domErrorName(error);
    if (name === "NotFoundError" || name === "TypeMismatchError") return undefined;
    throw error;
  }
  return dir;
}

/** What a folder is, to a store: its own (marked), empty, left by a version before the marker, or someone else's. */
export type FolderOwnership = "marked" | "empty" | "legacy" | "foreign";

/** Swap files Chromium keeps next to a file being written ("x.crswap"), and our own temp files. */
const isScratch = (name: string) => name.endsWith(".crswap") || /^\..+\.tmp$/.test(name);

/**
 * Looks at the top of `dir`. A version before the marker wrote `v<N>` folders and, while opening,
 * a `probe` file: a folder holding only those (and swap files) is taken as codeslice's.
 */
export async function inspectFolder(
  dir: FileSystemDirectoryHandle,
): Promise<{ ownership: FolderOwnership; entries: string[] }> {
  const entries: [string, FileSystemHandle["kind"]][] = [];
  for await (const [name, handle] of (dir as IterableDirectory).entries()) entries.push([name, handle.kind]);
  const names = entries.map(([n]) => n).sort();
  if (entries.some(([name]) => name === STORE_MARKER)) return { ownership: "marked", entries: names };
  if (entries.length === 0) return { ownership: "empty", entries: names };
  // A "v<N>" file is a damaged index folder, not somebody's document: it is taken as ours too; so
  // are pack files (a store whose marker was lost).
  const legacy = entries.every(
    ([name, kind]) =>
      /^v\d+$/.test(name) || PACK_NAME.test(name) || (kind === "file" && (name === "probe" || isScratch(name))),
  );
  return { ownership: legacy ? "legacy" : "foreign", entries: names };
}

/** The refusal for a folder that is not a store's own. */
export function refuseFolder(label: string, entries: string[]): EngineError {
  return new EngineError(
    "cache_refused",
    `Refusing to use ${label} as the index store: it already holds entries codeslice did not write ` +
      `(${entries.slice(0, 5).join(", ")}${entries.length > 5 ? ", …" : ""}).`,
    {
      hint:
        "Use another namespace (one per project) or another folder; codeslice only writes into folders it " +
        "created, and never deletes what it did not write.",
      data: { store: label, reason: "not_empty", entries: entries.slice(0, 20) },
    },
  );
}

let tempCounter = 0;
const tempName = (name: string) =>
  `.${name}.${Date.now().toString(36)}${(tempCounter++).toString(36)}${Math.random().toString(36).slice(2, 6)}.tmp`;

/**
 * Writes `bytes` under `name` in `dir` so that a reader sees the old value or the new one, never
 * a part: into a temp file, then moved onto the name. Where `move()` is missing (older engines)
 * the write goes through the target's own writable, whose swap file is atomic for an existing file.
 * A folder standing where the file should be is removed first when `heal` says so.
 */
export async function writeFileAtomic(
  dir: FileSystemDirectoryHandle,
  name: string,
  bytes: Uint8Array,
  heal = false,
): Promise<void> {
  const write = async (handle: FileSystemFileHandle) => {
    const writable = await handle.createWritable();
    try {
      await writable.write(bytes as Uint8Array<ArrayBuffer>);
      await writable.close();
    } catch (error) {
      await writable.abort().catch(() => {});
      throw error;
    }
  };
  const clearWay = async (error: unknown) => {
    const n = domErrorName(error);
    if (!heal || (n !== "TypeMismatchError" && n !== "InvalidModificationError")) throw error;
    await dir.removeEntry(name, { recursive: true });
  };
  const probeProto = (globalThis as { FileSystemFileHandle?: { prototype: object } }).FileSystemFileHandle?.prototype;
  if (!probeProto || !("move" in probeProto)) {
    const target = await dir.getFileHandle(name, { create: true }).catch(async (error) => {
      await clearWay(error);
      return dir.getFileHandle(name, { create: true });
    });
    return write(target);
  }
  const temp = tempName(name);
  const handle = (await dir.getFileHandle(temp, { create: true })) as MovableFile;
  try {
    await write(handle);
    try {
      await handle.move!(name);
    } catch (error) {
      await clearWay(error);
      await handle.move!(name);
    }
  } catch (error) {
    await dir.removeEntry(temp).catch(() => {});
    throw error;
  }
}

/** A batch is written once it holds this many bytes of values… */
const PACK_BYTES = 1 << 20;
/** …or this many operations… */
const PACK_OPS = 512;
/** …or writes paused this long (ms)… */
const IDLE_MS = 100;
/** …or its first operation waited this long (ms). */
const MAX_DELAY_MS = 1000;
/** `set` waits for the disk only when this many bytes are acknowledged and not yet written. */
const MAX_UNLANDED_BYTES = 8 << 20;
/** Packs up to this size are read whole on the first read of one of their values, and kept… */
const READ_WHOLE_BYTES = 2 << 20;
/** …up to this many bytes of them, least recently used first out. */
const CACHE_BYTES = 8 << 20;
/** Compaction waits until the garbage passes half the live bytes plus this. */
const COMPACT_MIN_DEAD = 4 << 20;
/** Keys longer than this are refused (a pack's table holds a key's length in 16 bits). */
const MAX_KEY_LENGTH = 4096;

/** Stores of this page or worker with writes not yet landed: a store opening waits for them. */
const unlanded = new Set<OpfsStore>();

/**
 * A Store over an OPFS folder that codeslice owns, records packed several to a file (see the top
 * of this file). Failures (quota, refused storage) surface as the browser's DOMException: from
 * `set` and `delete` when the store has already failed, and for a batch that fails after its
 * values were acknowledged, to the `onFailure` listeners (the values stay readable from memory).
 * A folder that is not its own is refused with `cache_refused`, from the first call on.
 */
export class OpfsStore implements Store {
  readonly label: string;
  private claimed: Promise<void> | undefined;
  private readonly staleScratchMs: number;
  private readonly landed = new Map<string, Landed>();
  private readonly packs = new Map<string, Pack>();
  private nextSeq = 1;
  private totalBytes = 0;
  private liveBytes = 0;
  private batch: Ops = new Map();
  private batchBytes = 0;
  private inFlight: Ops | undefined;
  private inFlightBytes = 0;
  private firstQueuedAt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private due = false;
  private writing: Promise<void> | undefined;
  private compactionFailed = false;
  private failure: unknown;
  private readonly failureListeners: ((error: unknown) => void)[] = [];
  private readonly cache = new Map<string, Promise<Uint8Array>>();
  private cacheBytes = 0;

  /**
   * @param options.staleScratchMs temp and swap files older than this that the store finds when it
   *   opens are left from writes cut off midway (a reload): they are deleted (default 60 s).
   */
  constructor(
    private readonly dir: FileSystemDirectoryHandle,
    label = `opfs:${dir.name}`,
    options: { staleScratchMs?: number } = {},
  ) {
    this.label = label;
    this.staleScratchMs = options.staleScratchMs ?? 60_000;
  }

  /**
   * Checks that the folder is the store's own, marking it when it is empty or left by a version
   * before the marker, and reads the table of every pack. Throws `cache_refused` for a folder
   * holding anything else. Every method calls it first; a refusal stands, a passing failure is
   * tried again on the next call.
   */
  open(): Promise<void> {
    this.claimed ??= this.claim().catch((error) => {
      if (!(error instanceof EngineError && error.code === "cache_refused")) this.claimed = undefined;
      throw error;
    });
    return this.claimed;
  }

  private async claim(): Promise<void> {
    const { ownership, entries } = await inspectFolder(this.dir);
    if (ownership === "foreign") throw refuseFolder(this.label, entries);
    // What another store of this page or worker acknowledged lands first, so it is read here.
    await Promise.all([...unlanded].filter((s) => s !== this).map((s) => s.flush().catch(() => {})));
    if (ownership !== "marked")
      await writeFileAtomic(this.dir, STORE_MARKER, new TextEncoder().encode(MARKER_TEXT), true);
    await this.load();
  }

  /** Reads every pack's table into the index; deletes damaged packs, old layouts and stale scratch files. */
  private async load(): Promise<void> {
    const found: { name: string; seq: number; handle: FileSystemFileHandle }[] = [];
    const stray: string[] = [];
    const scratch: { name: string; handle: FileSystemFileHandle }[] = [];
    for await (const [name, handle] of (this.dir as IterableDirectory).entries()) {
      if (name === STORE_MARKER) continue;
      const seq = handle.kind === "file" ? packSeq(name) : undefined;
      if (seq !== undefined) found.push({ name, seq, handle: handle as FileSystemFileHandle });
      else if (handle.kind === "file" && isScratch(name))
        scratch.push({ name, handle: handle as FileSystemFileHandle });
      else stray.push(name);
    }
    // The layout before packs (a file per record under v<N>/), or anything else: never read.
    for (const name of stray) await this.dir.removeEntry(name, { recursive: true }).catch(() => {});
    const before = Date.now() - this.staleScratchMs;
    for (const s of scratch) {
      const modified = await s.handle.getFile().then(
        (f) => f.lastModified,
        () => undefined,
      );
      if (modified !== undefined && modified <= before) await this.dir.removeEntry(s.name).catch(() => {});
    }
    found.sort((a, b) => a.seq - b.seq || (a.name < b.name ? -1 : 1));
    const tables = await Promise.all(found.map((f) => readTableOf(f.handle, f.seq)));
    found.forEach((f, i) => {
      this.nextSeq = Math.max(this.nextSeq, f.seq + 1);
      const table = tables[i];
      if (!table) return void this.dir.removeEntry(f.name).catch(() => {}); // damaged: holds nothing readable
      const pack: Pack = { name: f.name, seq: f.seq, size: table.size, live: 0 };
      this.packs.set(f.name, pack);
      this.totalBytes += pack.size;
      this.apply(pack, table.entries);
    });
  }

  /** Points the index at a landed pack's entries, later packs over earlier ones. */
  private apply(pack: Pack, entries: PackEntry[]): void {
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

  /** Checks that the store takes a write now (a scratch file, deleted): storage that refuses data says so here. */
  async probe(): Promise<void> {
    await this.open();
    const name = `.probe-${Math.random().toString(36).slice(2, 8)}.tmp`;
    const writable = await (await this.dir.getFileHandle(name, { create: true })).createWritable();
    try {
      await writable.write(Uint8Array.of(1));
      await writable.close();
    } catch (error) {
      await writable.abort().catch(() => {});
      throw error;
    } finally {
      await this.dir.removeEntry(name).catch(() => {});
    }
  }

  /** Resolves once every write acknowledged so far has landed; rejects with the failure when one did not. */
  async flush(): Promise<void> {
    await this.open();
    for (;;) {
      if (this.failure !== undefined) throw this.failure;
      if (this.batch.size === 0 && !this.writing) return;
      await this.startWriting();
    }
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    checkStoreKey(key);
    await this.open();
    for (const ops of [this.batch, this.inFlight]) {
      if (ops?.has(key)) return ops.get(key)?.slice();
    }
    const at = this.landed.get(key);
    if (!at) return undefined;
    try {
      return await this.read(at);
    } catch (error) {
      // A pack compaction replaced meanwhile (its values are in the new packs), or one deleted or
      // changed behind the store's back (its values are gone).
      const name = domErrorName(error);
      if (name !== "NotFoundError" && name !== "NotReadableError") throw error;
      const now = this.landed.get(key);
      if (now && now !== at) return this.read(now).catch(() => undefined);
      return undefined;
    }
  }

  set(key: string, value: Uint8Array): Promise<void> {
    try {
      checkStoreKey(key);
      if (key.length > MAX_KEY_LENGTH)
        throw new EngineError("invalid_argument", `Store key too long: ${key.length} characters`, {
          hint: `Store keys are at most ${MAX_KEY_LENGTH} characters.`,
          data: { key: key.slice(0, 100) },
        });
    } catch (error) {
      return Promise.reject(error);
    }
    const copy = value.slice(); // the caller may change its array while the write is queued
    return this.open().then(async () => {
      if (this.failure !== undefined) throw this.failure;
      this.queue(key, copy);
      // The indexer runs ahead of the disk by a few batches at most.
      while (this.batchBytes + this.inFlightBytes > MAX_UNLANDED_BYTES && this.writing) await this.writing;
      if (this.failure !== undefined) throw this.failure;
    });
  }

  async delete(key: string): Promise<void> {
    checkStoreKey(key);
    await this.open();
    if (this.failure !== undefined) throw this.failure;
    const inFlight = this.inFlight?.get(key);
    const onDisk = inFlight !== undefined ? inFlight !== null : this.landed.has(key);
    if (onDisk) return this.queue(key, null);
    // Nothing written holds the key: dropping it from the batch is the whole delete.
    const queued = this.batch.get(key);
    if (queued) this.batchBytes -= queued.length;
    this.batch.delete(key);
  }

  async keys(prefix = ""): Promise<string[]> {
    await this.open();
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

  /** Deletes every key (the folder and its marker stay). Refuses a folder that is not its own. */
  async clear(): Promise<void> {
    await this.open();
    this.dropBatch();
    await this.writing;
    this.dropBatch();
    const names: string[] = [];
    for await (const [name] of (this.dir as IterableDirectory).entries()) if (name !== STORE_MARKER) names.push(name);
    for (const name of names)
      await this.dir.removeEntry(name, { recursive: true }).catch((error) => {
        if (domErrorName(error) !== "NotFoundError") throw error;
      });
    this.landed.clear();
    this.packs.clear();
    this.cache.clear();
    this.totalBytes = this.liveBytes = this.cacheBytes = 0;
  }

  private dropBatch(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.batch = new Map();
    this.batchBytes = 0;
    this.firstQueuedAt = 0;
    if (!this.writing) unlanded.delete(this);
  }

  private queue(key: string, value: Uint8Array | null): void {
    const old = this.batch.get(key);
    if (old) this.batchBytes -= old.length;
    this.batch.set(key, value);
    if (value) this.batchBytes += value.length;
    unlanded.add(this);
    this.firstQueuedAt ||= Date.now();
    if (this.batchBytes >= PACK_BYTES || this.batch.size >= PACK_OPS) void this.startWriting();
    else this.arm();
  }

  /** Sets the timer that writes a batch that stopped growing (the write loop sets it when it ends). */
  private arm(): void {
    if (this.writing) return;
    if (this.timer !== undefined) clearTimeout(this.timer);
    const wait = Math.max(0, Math.min(IDLE_MS, this.firstQueuedAt + MAX_DELAY_MS - Date.now()));
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.startWriting();
    }, wait);
  }

  private startWriting(): Promise<void> {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.due = true;
    this.writing ??= this.writeLoop().finally(() => {
      this.writing = undefined;
      if (this.failure !== undefined) return void unlanded.delete(this);
      if (this.batch.size === 0) return void unlanded.delete(this);
      if (this.due || this.batchBytes >= PACK_BYTES || this.batch.size >= PACK_OPS) void this.startWriting();
      else this.arm();
    });
    return this.writing;
  }

  /** Writes batches, one pack each, while one is due; compacts when the garbage has grown. */
  private async writeLoop(): Promise<void> {
    while (this.failure === undefined && this.batch.size > 0) {
      if (!this.due && this.batchBytes < PACK_BYTES && this.batch.size < PACK_OPS) break;
      const ops = this.batch;
      this.inFlight = ops;
      this.inFlightBytes = this.batchBytes;
      this.batch = new Map();
      this.batchBytes = 0;
      this.firstQueuedAt = 0;
      this.due = false;
      try {
        await this.writePack([...ops].map(([key, value]) => ({ key, value: value ?? undefined })));
      } catch (error) {
        this.fail(error, ops);
        break;
      } finally {
        this.inFlight = undefined;
        this.inFlightBytes = 0;
      }
      if (!this.compactionFailed && this.compactionDue()) {
        // A compaction that fails leaves the old packs as they were; it is not tried again here.
        await this.compact().catch(() => void (this.compactionFailed = true));
      }
    }
  }

  /** Writes one pack (temp file, then moved onto its name) and points the index at it. */
  private async writePack(ops: PackOp[]): Promise<Pack> {
    const seq = this.nextSeq++;
    const bytes = encodePack(seq, ops);
    const name = packName(seq);
    await writeFileAtomic(this.dir, name, bytes);
    const pack: Pack = { name, seq, size: bytes.length, live: 0 };
    this.packs.set(name, pack);
    this.totalBytes += pack.size;
    this.apply(pack, readPackTable(bytes, bytes.length, seq) as PackEntry[]);
    return pack;
  }

  private fail(error: unknown, ops: Ops): void {
    this.failure = error;
    // What did not land stays readable from memory; what was queued since is newer.
    for (const [key, value] of ops) {
      if (this.batch.has(key)) continue;
      this.batch.set(key, value);
      if (value) this.batchBytes += value.length;
    }
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    for (const listener of this.failureListeners.splice(0)) listener(error);
  }

  private compactionDue(): boolean {
    const dead = this.totalBytes - this.liveBytes;
    return (
      dead > this.liveBytes / 2 + COMPACT_MIN_DEAD || this.packs.size > 2 * Math.ceil(this.liveBytes / PACK_BYTES) + 32
    );
  }

  /**
   * Rewrites the live values into new packs, then deletes the old packs oldest first: cut off
   * midway, the folder holds the old packs and some new ones with the same values, and a delete
   * in an old pack still hides the older value it deleted until that value's pack is gone.
   */
  private async compact(): Promise<void> {
    const old = [...this.packs.values()].sort((a, b) => a.seq - b.seq);
    const live = [...this.landed].sort(([, a], [, b]) => a.pack.seq - b.pack.seq || a.offset - b.offset);
    const written: { pack: Pack; bytes: Uint8Array }[] = [];
    let ops: PackOp[] = [];
    let size = 0;
    const writeOut = async () => {
      if (ops.length === 0) return;
      const seq = this.nextSeq++;
      const bytes = encodePack(seq, ops);
      const name = packName(seq);
      await writeFileAtomic(this.dir, name, bytes);
      written.push({ pack: { name, seq, size: bytes.length, live: 0 }, bytes });
      ops = [];
      size = 0;
    };
    for (const [key, at] of live) {
      const value = await this.read(at).catch(() => undefined);
      if (!value) continue; // unreadable: it would read as absent anyway
      ops.push({ key, value });
      size += value.length;
      if (size >= PACK_BYTES || ops.length >= PACK_OPS) await writeOut();
    }
    await writeOut();
    this.landed.clear();
    this.packs.clear();
    this.totalBytes = this.liveBytes = 0;
    for (const { pack, bytes } of written) {
      this.packs.set(pack.name, pack);
      this.totalBytes += pack.size;
      this.apply(pack, readPackTable(bytes, bytes.length, pack.seq) as PackEntry[]);
    }
    for (const p of old) {
      await this.dir.removeEntry(p.name).catch(() => {});
      this.cache.delete(p.name);
    }
    this.cacheBytes = 0;
    this.cache.clear();
  }

  /** A landed value's bytes (a copy). */
  private async read(at: Landed): Promise<Uint8Array> {
    const { pack } = at;
    if (pack.size <= READ_WHOLE_BYTES) return (await this.packBytes(pack)).slice(at.offset, at.offset + at.length);
    const file = await (await this.dir.getFileHandle(pack.name)).getFile();
    if (file.size !== pack.size) throw new DOMException(`${pack.name} changed`, "NotReadableError");
    return new Uint8Array(await file.slice(at.offset, at.offset + at.length).arrayBuffer());
  }

  /** A small pack's whole bytes, kept for the next reads (the engine reads records about in the order written). */
  private packBytes(pack: Pack): Promise<Uint8Array> {
    const known = this.cache.get(pack.name);
    if (known) {
      this.cache.delete(pack.name);
      this.cache.set(pack.name, known);
      return known;
    }
    const p = this.dir
      .getFileHandle(pack.name)
      .then((h) => h.getFile())
      .then(async (file) => {
        if (file.size !== pack.size) throw new DOMException(`${pack.name} changed`, "NotReadableError");
        return new Uint8Array(await file.arrayBuffer());
      });
    this.cache.set(pack.name, p);
    this.cacheBytes += pack.size;
    p.catch(() => {
      if (this.cache.get(pack.name) !== p) return;
      this.cache.delete(pack.name);
      this.cacheBytes -= pack.size;
    });
    for (const [name] of this.cache) {
      if (this.cacheBytes <= CACHE_BYTES || name === pack.name) break;
      this.cache.delete(name);
      this.cacheBytes -= this.packs.get(name)?.size ?? 0;
    }
    return p;
  }
}

/** A pack's table read from its file, or undefined when the pack is damaged or of another format. */
async function readTableOf(
  handle: FileSystemFileHandle,
  seq: number,
): Promise<{ size: number; entries: PackEntry[] } | undefined> {
  try {
    const file = await handle.getFile();
    let head = new Uint8Array(await file.slice(0, PACK_HEAD_GUESS).arrayBuffer());
    let table = readPackTable(head, file.size, seq);
    if (table && "more" in table) {
      head = new Uint8Array(await file.slice(0, table.more).arrayBuffer());
      table = readPackTable(head, file.size, seq);
    }
    return table && !("more" in table) ? { size: file.size, entries: table } : undefined;
  } catch {
    return undefined;
  }
}
