/** Store as files under a cache folder over Deno's APIs, written atomically (temp file + rename). */
import { checkStoreKey } from "../store-key.ts";
import type { Store } from "../types.ts";
import { type DenoApi, errorCode, isAlreadyExists, isNotFound, mapDenoError, requireDeno } from "./deno-api.ts";
import { type NativePaths, nativePaths } from "./deno-paths.ts";

let tmpCounter = 0;

/** True for the errors `get` treats as "no value": missing, or a key that is a folder of other keys. */
function isNoValue(error: unknown): boolean {
  const name = (error as { name?: string } | undefined)?.name;
  const code = errorCode(error);
  return isNotFound(error) || name === "IsADirectory" || name === "NotADirectory" || code === "EISDIR" || code === "ENOTDIR";
}

/**
 * A Store in `dir` (absolute). The folder is created on first write with a `.gitignore` of `*`, so
 * the cache never shows up in `git status` and is skipped by codeslice's own scan. Same layout as
 * NodeStore: a cache folder written by one runtime is read by the other.
 */
export class DenoStore implements Store {
  readonly label: string;
  private ready: Promise<void> | undefined;
  private readonly deno: DenoApi;
  private readonly paths: NativePaths;

  constructor(private readonly dir: string, deno: DenoApi = requireDeno()) {
    this.deno = deno;
    this.paths = nativePaths(deno);
    this.dir = this.paths.absolute(dir);
    this.label = this.dir;
  }

  private async writeIgnoreFile(): Promise<void> {
    const ignore = this.paths.join(this.dir, ".gitignore");
    await this.deno.writeFile(ignore, new TextEncoder().encode("# codeslice cache: safe to delete\n*\n"), { createNew: true }).catch((e: unknown) => {
      if (!isAlreadyExists(e)) throw e;
    });
  }

  private ensureDir(): Promise<void> {
    this.ready ??= (async () => {
      await this.deno.mkdir(this.dir, { recursive: true });
      await this.writeIgnoreFile();
    })().catch((error) => {
      this.ready = undefined;
      throw mapDenoError(error, this.dir);
    });
    return this.ready;
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    checkStoreKey(key);
    try {
      return await this.deno.readFile(this.paths.join(this.dir, key));
    } catch (error) {
      if (isNoValue(error)) return undefined;
      throw mapDenoError(error, key);
    }
  }

  async set(key: string, value: Uint8Array): Promise<void> {
    checkStoreKey(key);
    await this.ensureDir();
    const target = this.paths.join(this.dir, key);
    const folder = this.paths.dirname(target);
    // Keys never start with ".", so a dot-named temp file can't be mistaken for one (see keys()).
    const tmp = this.paths.join(folder, `.${this.paths.basename(target)}.${this.deno.pid}.${tmpCounter++}.tmp`);
    // Copy first: the caller may reuse its buffer while the write is in flight.
    const bytes = value.slice();
    try {
      try {
        await this.deno.writeFile(tmp, bytes);
      } catch (error) {
        if (!isNotFound(error)) throw error;
        // The key's folder is missing. The cache folder itself may have been deleted since ("safe to
        // delete") while this store lived on, as in a long-running server: then it comes back with
        // its .gitignore, but its parent never does (a deleted project must stay deleted).
        const dirGone = await this.deno.stat(this.dir).then(() => false, (e: unknown) => isNotFound(e));
        if (dirGone) {
          // Concurrent writes may race to re-create it; the losers find it there, which is fine.
          await this.deno.mkdir(this.dir).catch((e: unknown) => {
            if (!isAlreadyExists(e)) throw e;
          });
          await this.writeIgnoreFile();
        }
        await this.deno.mkdir(folder, { recursive: true });
        await this.deno.writeFile(tmp, bytes);
      }
      await this.deno.rename(tmp, target);
    } catch (error) {
      await this.deno.remove(tmp).catch(() => {});
      throw mapDenoError(error, key);
    }
  }

  async delete(key: string): Promise<void> {
    checkStoreKey(key);
    try {
      await this.deno.remove(this.paths.join(this.dir, key));
    } catch (error) {
      if (isNotFound(error) || errorCode(error) === "ENOTDIR" || (error as { name?: string }).name === "NotADirectory") return;
      throw mapDenoError(error, key);
    }
  }

  async keys(prefix = ""): Promise<string[]> {
    const out: string[] = [];
    const walk = async (rel: string): Promise<void> => {
      const entries = [];
      try {
        for await (const e of this.deno.readDir(this.paths.join(this.dir, rel))) entries.push(e);
      } catch (error) {
        if (isNotFound(error)) return;
        throw mapDenoError(error, rel);
      }
      for (const e of entries) {
        const key = rel === "" ? e.name : `${rel}/${e.name}`;
        if (e.name.startsWith(".")) continue; // the .gitignore and temp files of writes in progress
        if (e.isDirectory) await walk(key);
        else if (e.isFile && key.startsWith(prefix)) out.push(key);
      }
    };
    await walk("");
    return out.sort();
  }
}
