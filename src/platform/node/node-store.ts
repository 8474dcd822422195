/** Store as files under a cache folder, written atomically (temp file + rename). */
import { promises as fsp } from "node:fs";
import * as nodePath from "node:path";
import { checkStoreKey as checkKey } from "../store-key.ts";
import type { Store } from "../types.ts";
import { mapNodeError } from "./node-file-system.ts";

let tmpCounter = 0;

/**
 * A Store in `dir`. The folder is created on first write with a `.gitignore` of `*`, so the cache
 * never shows up in `git status` and is skipped by codeslice's own scan.
 */
export class NodeStore implements Store {
  readonly label: string;
  private ready: Promise<void> | undefined;

  constructor(private readonly dir: string) {
    this.label = dir;
  }

  private async writeIgnoreFile(): Promise<void> {
    const ignore = nodePath.join(this.dir, ".gitignore");
    await fsp.writeFile(ignore, "# codeslice cache: safe to delete\n*\n", { flag: "wx" }).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== "EEXIST") throw e;
    });
  }

  private ensureDir(): Promise<void> {
    this.ready ??= (async () => {
      await fsp.mkdir(this.dir, { recursive: true });
      await this.writeIgnoreFile();
    })().catch((error) => {
      this.ready = undefined;
      throw mapNodeError(error, this.dir);
    });
    return this.ready;
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    checkKey(key);
    try {
      const buf = await fsp.readFile(nodePath.join(this.dir, key));
      return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
    } catch (error) {
      // A key that is only a prefix of others is a folder here; like a missing key, it has no value.
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "EISDIR" || code === "ENOTDIR") return undefined;
      throw mapNodeError(error, key);
    }
  }

  async set(key: string, value: Uint8Array): Promise<void> {
    checkKey(key);
    await this.ensureDir();
    const target = nodePath.join(this.dir, key);
    // Keys never start with ".", so a dot-named temp file can't be mistaken for one (see keys()).
    const tmp = nodePath.join(nodePath.dirname(target), `.${nodePath.basename(target)}.${process.pid}.${tmpCounter++}.tmp`);
    try {
      // The folder may have been deleted since ("safe to delete") while this store lived on, as in a
      // long-running server: if this mkdir re-created it, its .gitignore must come back too.
      // Write first and create the folder only when missing: a mkdir per record cost ~90 ms on django.
      try {
        await fsp.writeFile(tmp, value);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
        // Re-create the cache folder itself but never its parent: if the project root was deleted,
        // a recursive mkdir would bring it back to life as an empty folder holding only a cache.
        const madeCache = await fsp.mkdir(this.dir).then(() => true, (e: NodeJS.ErrnoException) => {
          if (e.code === "EEXIST") return false;
          throw e;
        });
        if (madeCache) await this.writeIgnoreFile();
        await fsp.mkdir(nodePath.dirname(target), { recursive: true });
        await fsp.writeFile(tmp, value);
      }
      await fsp.rename(tmp, target);
    } catch (error) {
      await fsp.rm(tmp, { force: true }).catch(() => {});
      throw mapNodeError(error, key);
    }
  }

  async delete(key: string): Promise<void> {
    checkKey(key);
    try {
      await fsp.rm(nodePath.join(this.dir, key), { force: true });
    } catch (error) {
      throw mapNodeError(error, key);
    }
  }

  async keys(prefix = ""): Promise<string[]> {
    const out: string[] = [];
    const walk = async (rel: string): Promise<void> => {
      let entries;
      try {
        entries = await fsp.readdir(nodePath.join(this.dir, rel), { withFileTypes: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
        throw mapNodeError(error, rel);
      }
      for (const e of entries) {
        const key = rel === "" ? e.name : `${rel}/${e.name}`;
        if (e.name.startsWith(".")) continue; // the .gitignore and temp files of writes in progress
        if (e.isDirectory()) await walk(key);
        else if (e.isFile() && key.startsWith(prefix)) out.push(key);
      }
    };
    await walk("");
    return out.sort();
  }
}
