/**
 * The cache folder as a Store, written once for every runtime with a disk (Node, Deno): each
 * host hands it a few native file operations. The folder is codeslice's own: it is created with a
 * cache tag, and a folder codeslice did not make is never written into, so a mistyped
 * `--cache-dir` cannot delete a user's files. Inside its own folder the store heals what it
 * finds in its way (a file where a folder should be, a folder where a value should be).
 */
import { EngineError } from "../shared/errors.ts";
import { extname } from "../shared/paths.ts";
import { languageForExtension } from "../languages/index.ts";
import { checkStoreKey } from "./store-key.ts";
import { PackStore, type PackFiles, type PackPolicy } from "./pack-store.ts";
import type { EntryKind, Store } from "../core/ports.ts";

/**
 * Keys whose folder is packed (`pack-store.ts`, over `diskPackFiles` below): the records,
 * `v<N>/records/…`. Their keys are content-addressed and written by the thousand in a cold index;
 * every other value (the snapshot, the scan's listings, rename plans) is rewritten under one key
 * and stays a file of its own.
 */
const PACKED_KEY = /^(v\d+\/records)\/./;
/** The folder of a packed key, as `keys()` meets it in its walk. */
const PACKED_FOLDER = /^v\d+\/records$/;

/**
 * How the disk store batches: 64 values a pack (a cold index wrote one file per record, four
 * syscalls and a temp name each), or 256 KiB of them. Smaller than the browser's 1 MiB: a value
 * waiting in a batch outlives V8's young generation and is freed only by a full GC, so bigger
 * batches raised a cold index's peak RSS (django: +5 MB with 64 records of ~15 kB a batch against
 * one each). A set waits for a pack being written (`maxUnlandedBytes` 0), so a refused write
 * surfaces at the set that filled the batch and a cold index never runs ahead of the disk.
 */
const DISK_PACK_POLICY: Omit<PackPolicy, "onUnlanded"> = {
  packOps: 64,
  packBytes: 256 << 10,
  maxDelayMs: Number.POSITIVE_INFINITY,
  maxUnlandedBytes: 0,
  stickyFailure: false,
  staleScratchMs: 60_000,
};

/**
 * The packed folder `rel` of the cache folder `dir` as the packed store's file port: reads through
 * `ops` (a pack's table with `readAt`, one open and a read of its first bytes), writes through
 * `write` (the store's temp file and rename, folders made or mended), the folder's mtime as the
 * stamp another process's packs move.
 */
function diskPackFiles(
  ops: DiskOps,
  dir: string,
  rel: string,
  write: (key: string, parts: readonly Uint8Array[]) => Promise<void>,
): PackFiles {
  const folder = ops.join(dir, rel);
  const at = (name: string) => ops.join(folder, name);
  return {
    list: async () => {
      try {
        return await ops.list(folder);
      } catch (error) {
        const code = ops.code(error);
        if (code === "ENOENT" || code === "ENOTDIR") return [];
        throw ops.mapError(error, rel);
      }
    },
    readAt: async (name, offset, length) => {
      if (ops.readAt) return ops.readAt(at(name), offset, length);
      const all = await ops.readFile(at(name));
      return { bytes: all.subarray(offset, offset + length), size: all.length };
    },
    read: (name) => ops.readFile(at(name)),
    write: (name, parts) => write(`${rel}/${name}`, parts),
    remove: (name, recursive) => ops.remove(at(name), recursive),
    modifiedMs: (name) => ops.modifiedMs(at(name)),
    stamp: () => ops.modifiedMs(folder),
    gone: (error) => {
      const code = ops.code(error);
      return code === "ENOENT" || code === "ENOTDIR" || code === "EISDIR";
    },
    mapError: (error, key) => ops.mapError(error, key),
  };
}

/** The cache directory tag (https://bford.info/cachedir/): backup tools skip a folder holding it. */
export const CACHE_TAG_FILE = "CACHEDIR.TAG";
const TAG_SIGNATURE = "Signature: 8a477f597d28d172789f06886806bc55";
export const CACHE_TAG =
  `${TAG_SIGNATURE}\n# This file is a cache directory tag created by codeslice.\n# It ` +
  (`marks this folder as codeslice's index cache: safe to delete.\n# For information about cache directory tags ` +
    `see https://bford.info/cachedir/\n`);
/** Keeps the cache out of `git status` and out of codeslice's own scan. */
export const CACHE_IGNORE = "# codeslice cache: safe to delete\n*\n";

/** True for a tag file codeslice wrote. */
export function isOwnCacheTag(text: string | undefined): boolean {
  return text !== undefined && text.startsWith(TAG_SIGNATURE) && text.includes("created by codeslice");
}

/**
 * A folder codeslice made whose tag is missing or damaged (or left by a version before the tag):
 * its own .gitignore and nothing but index folders, the tag and dot-files beside it.
 */
function isOwnWithoutTag(ignoreText: string | undefined, names: string[]): boolean {
  return (
    ignoreText?.startsWith("# codeslice cache") === true &&
    names.every((n) => n === ".gitignore" || n === CACHE_TAG_FILE || /^v\d+$/.test(n) || n.startsWith("."))
  );
}

/** The native operations a disk store needs. Paths are absolute and native; `rel` keys are POSIX. */
export interface DiskOps {
  /** `base` + a "/"-separated relative path. */
  join(base: string, rel: string): string;
  dirname(path: string): string;
  /** True when `path` is `root` or lies under it (both absolute, normalized). */
  isInside(path: string, root: string): boolean;
  /** What is at `path`, following symbolic links; "missing" when nothing is. */
  kind(path: string): Promise<EntryKind | "missing">;
  /** When the file at `path` was last modified (ms since epoch). */
  modifiedMs(path: string): Promise<number>;
  realpath(path: string): Promise<string>;
  list(path: string): Promise<{ name: string; kind: EntryKind }[]>;
  readFile(path: string): Promise<Uint8Array>;
  /**
   * Optional: up to `length` bytes of a regular file from `offset` (fewer at its end), and the
   * file's size. Without it a pack's table is read by reading the whole pack.
   */
  readAt?(path: string, offset: number, length: number): Promise<{ bytes: Uint8Array; size: number }>;
  /**
   * Optional: writes a file made of `parts` in order (a pack: its table, then each record), without
   * joining them into one buffer first. Without it the parts are joined.
   */
  writeFileParts?(path: string, parts: readonly Uint8Array[]): Promise<void>;
  /** Writes a file; with `createNew`, fails with EEXIST when it exists. */
  writeFile(path: string, bytes: Uint8Array, createNew?: boolean): Promise<void>;
  /** Creates one folder (never its parents). */
  mkdir(path: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  remove(path: string, recursive: boolean): Promise<void>;
  /** The POSIX-style code of a native error ("ENOENT", "EEXIST", "ENOTDIR", "EISDIR", "ENOTEMPTY", …). */
  code(error: unknown): string | undefined;
  /** A native error as an EngineError (`permission_denied`, `read_only`, …). */
  mapError(error: unknown, path: string, action?: "read" | "write"): EngineError;
  /** A temp-file name next to `target`, unique in this process. */
  tempFor(target: string): string;
}

/** Options for {@link DiskStore}. */
export interface DiskStoreOptions {
  /** The project root: a cache folder containing it, or inside one of its source folders, is refused. */
  root?: string;
}

/** Why a folder is refused as a cache. */
export type CacheRefusal = "contains_root" | "not_a_folder" | "not_empty" | "inside_sources";

function refuse(dir: string, reason: CacheRefusal, detail: string, data: Record<string, unknown> = {}): EngineError {
  return new EngineError("cache_refused", `Refusing to use ${dir} as the index cache: ${detail}`, {
    hint:
      "Choose a new or empty folder for the cache (or leave the option out for the default " +
      "<root>/.codeslice); codeslice only writes into folders it created.",
    data: { cacheDir: dir, reason, ...data },
  });
}

/** A Store in a cache folder codeslice owns. Call `open()` (or any method) to check the folder first. */
export class DiskStore implements Store {
  readonly label: string;
  private claimed: Promise<void> | undefined;
  /** Folders between the anchor and the cache, top-down, to create on the first write. */
  private toCreate: string[] = [];
  /** True once the folder holds our tag (written by us, or found there). */
  private tagged = false;
  /** The folder is ours but its tag is damaged: overwrite it on the first write. */
  private damagedTag = false;
  /** Packed folders met so far, by folder ("v29/records"). */
  private readonly packed = new Map<string, PackStore>();

  constructor(
    private readonly ops: DiskOps,
    private readonly dir: string,
    private readonly options: DiskStoreOptions = {},
  ) {
    this.label = dir;
  }

  private repairs: Promise<unknown> = Promise.resolve();

  /** Runs `work` after every repair queued before it. */
  private serially<T>(work: () => Promise<T>): Promise<T> {
    const run = this.repairs.then(work, work);
    this.repairs = run.catch(() => {});
    return run;
  }

  /** Checks that the folder is codeslice's own (or new, or empty); throws `cache_refused` otherwise. */
  open(): Promise<void> {
    this.claimed ??= this.claim().catch((error) => {
      // A refusal stands; a passing IO failure is tried again on the next call.
      if (!(error instanceof EngineError && error.code === "cache_refused")) this.claimed = undefined;
      throw error;
    });
    return this.claimed;
  }

  private async claim(): Promise<void> {
    const { ops, dir } = this;
    // Find the nearest existing folder at or above the cache folder.
    const missing: string[] = [];
    let at = dir;
    let kind = await ops.kind(at);
    while (kind === "missing") {
      missing.unshift(at);
      const up = ops.dirname(at);
      if (up === at) break;
      at = up;
      kind = await ops.kind(at);
    }
    const root = this.options.root;
    // The cache never creates the project folder (or a folder above it): when that is gone (deleted
    // during a cold index, before the first record write opened the cache), writing it again would
    // bring back a project the user removed.
    if (root !== undefined && missing.some((m) => ops.isInside(root, m))) {
      throw new EngineError(
        "cache_unavailable",
        `The cache folder ${dir} cannot be created: the project folder ${root} no longer exists.`,
        { data: { cacheDir: dir } },
      );
    }
    const real = kind === "missing" ? at : await ops.realpath(at).catch(() => at);
    const realDir =
      missing.length === 0 ? real : ops.join(real, missing.map((m) => m.slice(ops.dirname(m).length + 1)).join("/"));
    if (root !== undefined && (ops.isInside(root, realDir) || ops.isInside(root, dir))) {
      throw refuse(dir, "contains_root", `it is the project folder or contains it (${root}).`, { root });
    }
    if (missing.length === 0) {
      if (kind !== "directory") throw refuse(dir, "not_a_folder", "it is not a folder.");
      const entries = await ops.list(dir);
      const names = entries.map((e) => e.name);
      const tag = names.includes(CACHE_TAG_FILE) ? await this.readText(ops.join(dir, CACHE_TAG_FILE)) : undefined;
      if (isOwnCacheTag(tag)) this.tagged = true;
      else if (
        names.length > 0 &&
        !isOwnWithoutTag(
          names.includes(".gitignore") ? await this.readText(ops.join(dir, ".gitignore")) : undefined,
          names,
        )
      ) {
        throw refuse(
          dir,
          "not_empty",
          `it already holds files codeslice did not write ` +
            `(${names.slice(0, 5).join(", ")}${names.length > 5 ? ", …" : ""}).`,
          { entries: names.slice(0, 20) },
        );
        // ours by its .gitignore and layout: the tag is written again
      } else if (tag !== undefined) this.damagedTag = true;
    }
    // Inside the project, the cache may sit at the top or under folders without source files, not
    // among the sources: a folder of code is the user's, whatever the cache would add to it.
    if (root !== undefined && ops.isInside(realDir, root)) {
      for (let up = ops.dirname(realDir); up !== root && ops.isInside(up, root); up = ops.dirname(up)) {
        if ((await ops.kind(up)) !== "directory") continue;
        const source = (await ops.list(up)).find((e) => e.kind === "file" && languageForExtension(extname(e.name)));
        if (source)
          throw refuse(
            dir,
            "inside_sources",
            `it would sit inside a source folder of the project (${up} holds ${source.name}).`,
            { folder: up },
          );
      }
    }
    this.toCreate = missing;
    // Ours by its .gitignore and layout, with a damaged tag: mend it now (a run that writes
    // nothing would otherwise leave it damaged); a read-only folder keeps it as it is.
    if (this.damagedTag) {
      await ops.writeFile(ops.join(dir, CACHE_TAG_FILE), new TextEncoder().encode(CACHE_TAG)).then(
        () => {
          this.damagedTag = false;
          this.tagged = true;
        },
        () => {},
      );
    }
  }

  private async readText(path: string): Promise<string | undefined> {
    try {
      return new TextDecoder().decode(await this.ops.readFile(path));
    } catch {
      return undefined;
    }
  }

  /**
   * Makes sure the cache folder exists and carries its tag. Folders are created one at a time from
   * the anchor down, never recursively: when the anchor itself is gone (a deleted project), nothing
   * is created and the write fails with `cache_unavailable`.
   */
  private async ensureFolder(): Promise<void> {
    const { ops, dir } = this;
    if ((await ops.kind(dir)) !== "directory") {
      const chain = this.toCreate.length ? this.toCreate : [dir];
      for (const folder of chain) {
        try {
          await ops.mkdir(folder);
        } catch (error) {
          const code = ops.code(error);
          if (code === "EEXIST") continue;
          if (code === "ENOENT" || code === "ENOTDIR") {
            throw new EngineError(
              "cache_unavailable",
              `The cache folder ${dir} cannot be created: ${ops.dirname(folder)} no longer exists.`,
              { data: { cacheDir: dir }, cause: error },
            );
          }
          throw ops.mapError(error, folder);
        }
      }
      this.toCreate = [];
      this.tagged = false;
    }
    if (!this.tagged) {
      for (const [name, text] of [
        [CACHE_TAG_FILE, CACHE_TAG],
        [".gitignore", CACHE_IGNORE],
      ] as const) {
        const overwrite = name === CACHE_TAG_FILE && this.damagedTag;
        await ops.writeFile(ops.join(dir, name), new TextEncoder().encode(text), !overwrite).catch((error) => {
          if (ops.code(error) !== "EEXIST") throw error;
        });
      }
      this.tagged = true;
      this.damagedTag = false;
    }
  }

  /** Creates the folders of `key` under the cache folder, clearing a file found in the way (it is ours). */
  private async ensureKeyFolders(key: string): Promise<void> {
    const parts = key.split("/").slice(0, -1);
    let rel = "";
    for (const part of parts) {
      rel = rel ? `${rel}/${part}` : part;
      const path = this.ops.join(this.dir, rel);
      const kind = await this.ops.kind(path);
      if (kind === "directory") continue;
      if (kind !== "missing") await this.ops.remove(path, true);
      try {
        await this.ops.mkdir(path);
      } catch (error) {
        if (this.ops.code(error) !== "EEXIST") throw error;
      }
    }
  }

  /** The packed folder `key` lies in, or undefined for a key stored as a file of its own. */
  private packedFolder(key: string): PackStore | undefined {
    const folder = PACKED_KEY.exec(key)?.[1];
    return folder === undefined ? undefined : this.packedAt(folder);
  }

  private packedAt(folder: string): PackStore {
    let packed = this.packed.get(folder);
    if (!packed) {
      const files = diskPackFiles(this.ops, this.dir, folder, (key, parts) => this.writeValue(key, parts));
      packed = new PackStore(files, DISK_PACK_POLICY);
      this.packed.set(folder, packed);
    }
    return packed;
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    checkStoreKey(key);
    await this.open();
    const packed = this.packedFolder(key);
    if (packed) return packed.get(key);
    try {
      return await this.ops.readFile(this.ops.join(this.dir, key));
    } catch (error) {
      // A key that is only a prefix of others is a folder here; like a missing key, it has no value.
      const code = this.ops.code(error);
      if (code === "ENOENT" || code === "EISDIR" || code === "ENOTDIR") return undefined;
      throw this.ops.mapError(error, key);
    }
  }

  async set(key: string, value: Uint8Array): Promise<void> {
    checkStoreKey(key);
    if (key === CACHE_TAG_FILE)
      throw new EngineError("invalid_argument", `The store key ${key} is reserved for the cache tag.`, {
        data: { key },
      });
    await this.open();
    const packed = this.packedFolder(key);
    if (packed) return packed.set(key, value);
    // A value of its own lands after every packed value acknowledged before it: the snapshot is
    // never on disk before the records it names.
    await this.flush();
    await this.writeValue(key, value.slice()); // the caller may reuse its buffer while the write is in flight
  }

  /** Resolves once every packed value acknowledged so far has landed. */
  async flush(): Promise<void> {
    for (const packed of this.packed.values()) await packed.flush();
  }

  /**
   * Writes `bytes` (or the `parts` of a pack, in order) as the file of `key`: a temp file, then
   * renamed onto it, folders made or mended on the way.
   */
  private async writeValue(key: string, bytes: Uint8Array | readonly Uint8Array[]): Promise<void> {
    const target = this.ops.join(this.dir, key);
    const tmp = this.ops.tempFor(target);
    const write = () => {
      if (bytes instanceof Uint8Array) return this.ops.writeFile(tmp, bytes);
      if (this.ops.writeFileParts) return this.ops.writeFileParts(tmp, bytes);
      const joined = new Uint8Array(bytes.reduce((n, b) => n + b.length, 0));
      bytes.reduce((at, b) => (joined.set(b, at), at + b.length), 0);
      return this.ops.writeFile(tmp, joined);
    };
    try {
      try {
        await write();
      } catch (error) {
        const code = this.ops.code(error);
        if (code !== "ENOENT" && code !== "ENOTDIR") throw error;
        // The key's folder is missing, or a file stands where a folder should (the cache folder was
        // deleted while this store lived on — it is "safe to delete" — or damaged). One writer at a
        // time repairs: concurrent writers each removing "the file in the way" removed each
        // other's new folders (the fault suite saw 2 of 30 indexes fail so).
        await this.serially(async () => {
          await this.ensureFolder();
          await this.ensureKeyFolders(key);
        });
        await write();
      }
      if (!this.tagged) await this.ensureFolder();
      try {
        await this.ops.rename(tmp, target);
      } catch (error) {
        const code = this.ops.code(error);
        if (code !== "EISDIR" && code !== "ENOTEMPTY" && code !== "EEXIST" && code !== "EPERM") throw error;
        // A folder where the value should be: inside our own folder, so it goes.
        if ((await this.ops.kind(target)) !== "directory") throw error;
        await this.ops.remove(target, true);
        await this.ops.rename(tmp, target);
      }
    } catch (error) {
      await this.ops.remove(tmp, false).catch(() => {});
      if (error instanceof EngineError) throw error;
      throw this.ops.mapError(error, key, "write");
    }
  }

  async delete(key: string): Promise<void> {
    checkStoreKey(key);
    await this.open();
    const packed = this.packedFolder(key);
    if (packed) return packed.delete(key);
    try {
      await this.ops.remove(this.ops.join(this.dir, key), false);
    } catch (error) {
      const code = this.ops.code(error);
      if (code === "ENOENT" || code === "ENOTDIR" || code === "EISDIR" || code === "EPERM") return;
      throw this.ops.mapError(error, key);
    }
  }

  /** Removes a temp file older than a minute: no write in progress takes that long. */
  private async sweepTemp(path: string): Promise<void> {
    const modified = await this.ops.modifiedMs(path).catch(() => undefined);
    if (modified !== undefined && Date.now() - modified > 60_000) await this.ops.remove(path, false).catch(() => {});
  }

  async keys(prefix = ""): Promise<string[]> {
    await this.open();
    const out: string[] = [];
    const walk = async (rel: string): Promise<void> => {
      let entries;
      try {
        entries = await this.ops.list(this.ops.join(this.dir, rel));
      } catch (error) {
        const code = this.ops.code(error);
        if (code === "ENOENT" || code === "ENOTDIR") return;
        throw this.ops.mapError(error, rel);
      }
      for (const e of entries) {
        const key = rel === "" ? e.name : `${rel}/${e.name}`;
        // A temp file a killed write left behind (older than any write in progress) is swept.
        if (e.kind === "file" && /^\..+\.tmp$/.test(e.name)) await this.sweepTemp(this.ops.join(this.dir, key));
        // The .gitignore, the tag and temp files of writes in progress are not keys; links are never followed.
        if (e.name.startsWith(".") || key === CACHE_TAG_FILE) continue;
        if (e.kind === "directory" && PACKED_FOLDER.test(key))
          this.packedAt(key); // listed below, from its packs
        else if (e.kind === "directory") {
          if (`${key}/`.startsWith(prefix) || prefix.startsWith(`${key}/`)) await walk(key);
        } else if (e.kind === "file" && key.startsWith(prefix)) out.push(key);
      }
    };
    await walk("");
    for (const [folder, packed] of this.packed)
      if (`${folder}/`.startsWith(prefix) || prefix.startsWith(`${folder}/`)) out.push(...(await packed.keys(prefix)));
    return out.sort();
  }
}
