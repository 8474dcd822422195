/** The cache folder over Deno's APIs (see DiskStore): same layout as NodeStore, so either runtime reads the other's. */
import { DiskStore, type DiskOps, type DiskStoreOptions } from "../disk-store.ts";
import type { EntryKind } from "../../core/ports.ts";
import { type DenoApi, errorCode, isNotFound, mapDenoError, requireDeno } from "./deno-api.ts";
import { nativePaths } from "./deno-paths.ts";

let tmpCounter = 0;

/** Deno's error names as the POSIX codes DiskStore branches on. */
const NAMED: Record<string, string> = {
  NotFound: "ENOENT",
  AlreadyExists: "EEXIST",
  NotADirectory: "ENOTDIR",
  IsADirectory: "EISDIR",
  DirectoryNotEmpty: "ENOTEMPTY",
};

/** Deno's file APIs as DiskStore operations. */
export function denoDiskOps(deno: DenoApi): DiskOps {
  const paths = nativePaths(deno);
  const kindOf = (i: { isFile: boolean; isDirectory: boolean; isSymlink: boolean }): EntryKind =>
    i.isFile ? "file" : i.isDirectory ? "directory" : i.isSymlink ? "symlink" : "other";
  const code = (error: unknown) => errorCode(error) ?? NAMED[(error as { name?: string } | undefined)?.name ?? ""];
  return {
    join: paths.join,
    dirname: paths.dirname,
    isInside: paths.isInside,
    kind: async (p) => {
      try {
        return kindOf(await deno.stat(p));
      } catch (error) {
        if (isNotFound(error) || code(error) === "ENOTDIR") return "missing";
        throw mapDenoError(error, p);
      }
    },
    realpath: (p) => deno.realPath(p),
    list: async (p) => {
      const out: { name: string; kind: EntryKind }[] = [];
      for await (const e of deno.readDir(p)) out.push({ name: e.name, kind: kindOf(e) });
      return out;
    },
    // Only a regular file is read: a named pipe where a value should be would wait for ever.
    readFile: async (p) => {
      const info = await deno.stat(p);
      if (!info.isFile) throw Object.assign(new Error(`not a regular file: ${p}`), { code: "EISDIR" });
      return deno.readFile(p);
    },
    modifiedMs: async (p) => (await deno.stat(p)).mtime?.getTime() ?? Date.now(),
    writeFile: (p, bytes, createNew) => deno.writeFile(p, bytes, createNew ? { createNew: true } : undefined),
    mkdir: (p) => deno.mkdir(p),
    rename: (a, b) => deno.rename(a, b),
    remove: (p, recursive) =>
      deno.remove(p, recursive ? { recursive: true } : undefined).catch((error: unknown) => {
        if (!(recursive && isNotFound(error))) throw error;
      }),
    code,
    mapError: mapDenoError,
    tempFor: (target) =>
      paths.join(paths.dirname(target), `.${paths.basename(target)}.${deno.pid}.${tmpCounter++}.tmp`),
  };
}

/**
 * A Store in the cache folder `dir`, created on first write with a cache tag and a `.gitignore` of
 * `*`. A folder that holds anything codeslice did not write is refused (`cache_refused`).
 */
export class DenoStore extends DiskStore {
  constructor(dir: string, deno: DenoApi = requireDeno(), options: DiskStoreOptions = {}) {
    super(denoDiskOps(deno), nativePaths(deno).absolute(dir), options);
  }
}
