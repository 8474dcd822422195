/**
 * A Store in the origin private file system, records packed several to a file. The folder is
 * codeslice's own: it carries a marker file, and a folder holding anything else (another app's
 * files on the same origin, a folder handle passed by mistake) is refused with `cache_refused`
 * before anything is written or deleted there.
 *
 * Why packs: OPFS costs Chromium 4-5 ms of CPU per file written, whatever the API, so one file per
 * record cost a 2,000-file index ~9.5 CPU-s of writes, three times its parsing. The batching,
 * reads, recovery and compaction are the disk store's too (`../pack-store.ts`); this file adapts
 * the folder's async API to its file port (`opfsPackFiles`) and sets the browser's numbers: a
 * batch is written at 1 MiB or 512 values, when writes pause for 100 ms, or at most a second
 * after its first value; `set` returns once the value is in the batch (the indexer is never held
 * by the disk until 8 MiB wait); a batch that fails (quota) fails the store, its values readable
 * from memory.
 */
import { EngineError } from "../../shared/errors.ts";
import { checkStoreKey } from "../store-key.ts";
import type { Store } from "../../core/ports.ts";
import { domErrorName } from "./dom-errors.ts";
import { PACK_NAME } from "../store-pack.ts";
import { isScratch, type PackFiles, PackStore } from "../pack-store.ts";

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

/** Stores of this page or worker with writes not yet landed: a store opening waits for them. */
const unlanded = new Set<OpfsStore>();

/** `parts` in one buffer. */
function joined(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  parts.reduce((at, p) => (out.set(p, at), at + p.length), 0);
  return out;
}

/** An OPFS folder as the packed store's file port (its marker left out of the listing). */
function opfsPackFiles(dir: FileSystemDirectoryHandle): PackFiles {
  const file = async (name: string) => (await dir.getFileHandle(name)).getFile();
  return {
    list: async () => {
      const out: { name: string; kind: string }[] = [];
      for await (const [name, handle] of (dir as IterableDirectory).entries())
        if (name !== STORE_MARKER) out.push({ name, kind: handle.kind });
      return out;
    },
    readAt: async (name, offset, length) => {
      const f = await file(name);
      return { bytes: new Uint8Array(await f.slice(offset, offset + length).arrayBuffer()), size: f.size };
    },
    read: async (name) => new Uint8Array(await (await file(name)).arrayBuffer()),
    // One write of the joined pack: each write() of a writable is a round trip to the browser
    // process, and a write per record made the store cost 1.94 CPU-s where one cost 0.25
    // (`npm run bench -- browser-store`, 2,000 files).
    write: (name, parts) => writeFileAtomic(dir, name, joined(parts)),
    remove: (name, recursive) => dir.removeEntry(name, recursive ? { recursive: true } : undefined),
    modifiedMs: (name) =>
      file(name).then(
        (f) => f.lastModified,
        () => undefined,
      ),
    gone: (error) => {
      const name = domErrorName(error);
      return name === "NotFoundError" || name === "NotReadableError" || name === "TypeMismatchError";
    },
  };
}

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
  private isOpen = false;
  private readonly packs: PackStore;

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
    this.packs = new PackStore(opfsPackFiles(dir), {
      packOps: 512,
      packBytes: 1 << 20,
      maxDelayMs: 1000,
      maxUnlandedBytes: 8 << 20,
      stickyFailure: true,
      staleScratchMs: options.staleScratchMs ?? 60_000,
      onUnlanded: (waiting) => void (waiting ? unlanded.add(this) : unlanded.delete(this)),
    });
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
    await this.packs.load();
    this.isOpen = true;
  }

  /** Calls `listener` when a batch of acknowledged writes fails to land (once; at once if it already did). */
  onFailure(listener: (error: unknown) => void): void {
    this.packs.onFailure(listener);
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
    return this.packs.flush();
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    checkStoreKey(key);
    await this.open();
    return this.packs.get(key);
  }

  async set(key: string, value: Uint8Array): Promise<void> {
    checkStoreKey(key);
    if (!this.isOpen) {
      const copy = value.slice(); // the caller may change its array while the folder is checked
      await this.open();
      value = copy;
    }
    return this.packs.set(key, value);
  }

  async delete(key: string): Promise<void> {
    checkStoreKey(key);
    await this.open();
    return this.packs.delete(key);
  }

  async keys(prefix = ""): Promise<string[]> {
    await this.open();
    return this.packs.keys(prefix);
  }

  /** Deletes every key (the folder and its marker stay). Refuses a folder that is not its own. */
  async clear(): Promise<void> {
    await this.open();
    return this.packs.clear();
  }
}
