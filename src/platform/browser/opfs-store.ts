/**
 * A Store in the origin private file system: one file per key under a folder, key segments as
 * folder names. The folder is codeslice's own: it carries a marker file, and a folder holding
 * anything else (another app's files on the same origin, a folder handle passed by mistake) is
 * refused with `cache_refused` before anything is written or deleted there. Inside its own folder
 * the store heals what stands in its way (a folder where a value should be, a file where a folder
 * should be).
 *
 * Writes are atomic: a value is written to a dot-named temp file with `createWritable()` (whose
 * swap file only replaces the temp on `close()`) and then moved onto its key. A plain
 * `getFileHandle(key, { create: true })` would make an empty file under the key before the bytes
 * arrive, and a reload at that moment left a 0-byte value behind; a key now either holds a whole
 * value or none.
 */
import { EngineError } from "../../shared/errors.ts";
import { checkStoreKey } from "../store-key.ts";
import type { Store } from "../../core/ports.ts";
import { domErrorName } from "./dom-errors.ts";

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
  // A "v<N>" file is a damaged index folder, not somebody's document: it is taken as ours too.
  const legacy = entries.every(
    ([name, kind]) => /^v\d+$/.test(name) || (kind === "file" && (name === "probe" || isScratch(name))),
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

/**
 * A Store over an OPFS folder that codeslice owns (see the top of this file). Failures (quota,
 * refused storage) surface as the browser's DOMException; a folder that is not its own as
 * `cache_refused`, from the first call on.
 */
export class OpfsStore implements Store {
  readonly label: string;
  // Writes to one key are queued: two writes of one key would race to the move.
  private readonly writes = new Map<string, Promise<void>>();
  private claimed: Promise<void> | undefined;

  private readonly staleScratchMs: number;

  /**
   * @param options.staleScratchMs temp and swap files older than this that a full key listing
   *   comes across are left from writes cut off midway (a reload): they are deleted (default 60 s).
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
   * before the marker. Throws `cache_refused` for a folder holding anything else. Every method
   * calls it first; a refusal stands, a passing failure is tried again on the next call.
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
    if (ownership !== "marked")
      await writeFileAtomic(this.dir, STORE_MARKER, new TextEncoder().encode(MARKER_TEXT), true);
  }

  // Folder handles by path: each key lives a few folders down ("v10/records/ab/…"), and every
  // folder step is a round trip to the browser process. Measured in Chromium here: a cold get
  // costs about 2.6 ms with the walk and well under half that without it.
  private readonly folders = new Map<string, Promise<FileSystemDirectoryHandle>>();

  private folder(path: string, create: boolean): Promise<FileSystemDirectoryHandle> {
    if (path === "") return Promise.resolve(this.dir);
    const known = this.folders.get(path);
    if (known) return known;
    const cut = path.lastIndexOf("/");
    const name = path.slice(cut + 1);
    const p = this.folder(cut < 0 ? "" : path.slice(0, cut), create).then(async (parent) => {
      try {
        return await parent.getDirectoryHandle(name, { create });
      } catch (error) {
        // A file where a folder of keys should be: inside our own folder, so it goes.
        if (!create || domErrorName(error) !== "TypeMismatchError") throw error;
        await parent.removeEntry(name);
        return parent.getDirectoryHandle(name, { create: true });
      }
    });
    // Only folders that exist are remembered; a miss is asked again next time.
    this.folders.set(path, p);
    p.catch(() => this.folders.delete(path));
    return p;
  }

  private async folderOf(
    key: string,
    create: boolean,
  ): Promise<{ dir: FileSystemDirectoryHandle; name: string } | undefined> {
    const cut = key.lastIndexOf("/");
    const name = key.slice(cut + 1);
    try {
      return { dir: await this.folder(cut < 0 ? "" : key.slice(0, cut), create), name };
    } catch (error) {
      const n = domErrorName(error);
      if (!create && (n === "NotFoundError" || n === "TypeMismatchError")) return undefined;
      throw error;
    }
  }

  /**
   * Writes one value atomically (see {@link writeFileAtomic}). Each value costs Chromium 4-5 ms of
   * CPU whatever the API: creating the temp file, opening it, the quota bookkeeping of the write
   * and the `move()` each cost about 1 ms (`test/bench/opfs-ops-bench.mjs`).
   * Sync access handles in a worker (temp file, then `move()`) measured no cheaper for 2,000
   * records (9.8 against 10.4 CPU-s, ranges overlapping, `test/bench/opfs-store-bench.mjs`,
   * results/opfs-store-sync-handles.json) and slower in wall time (7.8 s against 6.2 s, an earlier
   * measurement): they hold the worker thread on synchronous quota requests. What would cut the
   * cost is fewer files: records packed several to a file.
   */
  private async writeFile(key: string, bytes: Uint8Array): Promise<void> {
    const at = (await this.folderOf(key, true))!;
    await writeFileAtomic(at.dir, at.name, bytes, true);
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    checkStoreKey(key);
    await this.open();
    await this.writes.get(key)?.catch(() => {});
    const at = await this.folderOf(key, false);
    if (!at) return undefined;
    try {
      const file = await (await at.dir.getFileHandle(at.name)).getFile();
      return new Uint8Array(await file.arrayBuffer());
    } catch (error) {
      // A key that is only a prefix of other keys is a folder here: like a missing key, no value.
      const name = domErrorName(error);
      if (name === "NotFoundError" || name === "TypeMismatchError") return undefined;
      throw error;
    }
  }

  set(key: string, value: Uint8Array): Promise<void> {
    try {
      checkStoreKey(key);
    } catch (error) {
      return Promise.reject(error);
    }
    const copy = value.slice(); // the caller may change its array while the write is queued
    const previous = this.writes.get(key) ?? Promise.resolve();
    const write = previous
      .catch(() => {})
      .then(async () => {
        await this.open();
        try {
          await this.writeFile(key, copy);
        } catch (error) {
          // A cached folder deleted under this store (the index was cleared): walk again, once.
          if (domErrorName(error) !== "NotFoundError") throw error;
          this.folders.clear();
          await this.writeFile(key, copy);
        }
      });
    const tracked = write.finally(() => {
      if (this.writes.get(key) === tracked) this.writes.delete(key);
    });
    this.writes.set(key, tracked);
    return tracked;
  }

  async delete(key: string): Promise<void> {
    checkStoreKey(key);
    await this.open();
    await this.writes.get(key)?.catch(() => {});
    const at = await this.folderOf(key, false);
    if (!at) return;
    try {
      await at.dir.removeEntry(at.name);
    } catch (error) {
      const name = domErrorName(error);
      if (name === "NotFoundError" || name === "TypeMismatchError" || name === "InvalidModificationError") return;
      throw error;
    }
  }

  async keys(prefix = ""): Promise<string[]> {
    await this.open();
    const out: string[] = [];
    const scratch: { dir: FileSystemDirectoryHandle; name: string; handle: FileSystemFileHandle }[] = [];
    // Only descend into folders that can hold keys with this prefix.
    const walk = async (dir: FileSystemDirectoryHandle, base: string): Promise<void> => {
      for await (const [name, handle] of (dir as IterableDirectory).entries()) {
        // The marker, temp files of writes in flight, Chromium's swap files ("x.crswap") are not keys.
        if (name.startsWith(".") || name.endsWith(".crswap")) {
          if (handle.kind === "file" && isScratch(name))
            scratch.push({ dir, name, handle: handle as FileSystemFileHandle });
          continue;
        }
        const key = base === "" ? name : `${base}/${name}`;
        if (handle.kind === "directory") {
          const asFolder = `${key}/`;
          if (asFolder.startsWith(prefix) || prefix.startsWith(asFolder))
            await walk(handle as FileSystemDirectoryHandle, key);
        } else if (key.startsWith(prefix)) out.push(key);
      }
    };
    await walk(this.dir, "");
    // The engine lists every key after a run without a usable snapshot, which is what follows a
    // reload mid-index: the time to sweep what the cut-off writes left.
    if (prefix === "" && scratch.length) await this.sweep(scratch);
    return out.sort();
  }

  private async sweep(
    scratch: { dir: FileSystemDirectoryHandle; name: string; handle: FileSystemFileHandle }[],
  ): Promise<void> {
    const before = Date.now() - this.staleScratchMs;
    for (const s of scratch) {
      const modified = await s.handle.getFile().then(
        (f) => f.lastModified,
        () => undefined,
      );
      if (modified !== undefined && modified <= before) await s.dir.removeEntry(s.name).catch(() => {});
    }
  }

  /** Deletes every key (the folder and its marker stay). Refuses a folder that is not its own. */
  async clear(): Promise<void> {
    await this.open();
    await Promise.all([...this.writes.values()].map((w) => w.catch(() => {})));
    const names: string[] = [];
    for await (const [name] of (this.dir as IterableDirectory).entries()) if (name !== STORE_MARKER) names.push(name);
    for (const name of names)
      await this.dir.removeEntry(name, { recursive: true }).catch((error) => {
        if (domErrorName(error) !== "NotFoundError") throw error;
      });
    this.folders.clear();
  }
}
