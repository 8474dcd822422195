/** Reads the git index (tracked paths, blob ids, stat) through isomorphic-git, strictly read-only. */
import git from "isomorphic-git";
import { EngineError } from "../shared/errors.ts";
import type { FileSystem } from "../../platform/types.ts";

/** One tracked file as the git index records it. */
export interface IndexEntry {
  oid: string;
  size: number;
  /** Index mtime in whole milliseconds (seconds * 1000 + nanoseconds / 1e6). */
  mtimeMs: number;
  mode: number;
}

function errnoError(code: string, cause: unknown): Error {
  return Object.assign(new Error(`${code}: ${(cause as Error)?.message ?? cause}`), { code });
}

/**
 * The `fs` shape isomorphic-git expects, over our read-only FileSystem port. Paths arrive absolute
 * under "/" (we pass dir "/"); every write refuses, so `.git/index` is never rewritten.
 */
function gitFs(fs: FileSystem) {
  const rel = (p: string) => p.replace(/^\/+/, "");
  const wrap = async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (error) {
      const code = (error as EngineError).code === "not_directory" ? "ENOTDIR" : "ENOENT";
      throw errnoError(code, error);
    }
  };
  const toStat = (s: { kind: string; size: number; mtimeMs: number }) => ({
    isFile: () => s.kind === "file",
    isDirectory: () => s.kind === "directory",
    isSymbolicLink: () => false,
    size: s.size,
    mtimeMs: s.mtimeMs,
    ctimeMs: s.mtimeMs,
    mode: s.kind === "directory" ? 0o40755 : 0o100644,
    uid: 0,
    gid: 0,
    ino: 0,
    dev: 0,
  });
  const refuse = async () => {
    throw errnoError("EROFS", "codeslice never writes to a repository");
  };
  return {
    promises: {
      readFile: (p: string, opts?: { encoding?: string } | string) =>
        wrap(async () => {
          const bytes = await fs.readFile(rel(p));
          const enc = typeof opts === "string" ? opts : opts?.encoding;
          return enc ? new TextDecoder().decode(bytes) : bytes;
        }),
      readdir: (p: string) => wrap(async () => (await fs.readDir(rel(p))).map((e) => e.name)),
      stat: (p: string) => wrap(async () => toStat(await fs.stat(rel(p)))),
      lstat: (p: string) => wrap(async () => toStat(await fs.stat(rel(p)))),
      readlink: refuse,
      writeFile: refuse,
      mkdir: refuse,
      rmdir: refuse,
      unlink: refuse,
      symlink: refuse,
      chmod: refuse,
    },
  };
}

/**
 * The tracked files of the repository whose git dir is `gitdir` (workspace-relative, usually ".git").
 * Gitlinks (submodules) are left out; their files belong to another repository.
 */
export async function readGitIndex(fs: FileSystem, gitdir = ".git"): Promise<Map<string, IndexEntry>> {
  const out = new Map<string, IndexEntry>();
  await git.walk({
    fs: gitFs(fs),
    dir: "/",
    gitdir: `/${gitdir}`,
    trees: [git.STAGE()],
    map: async (path: string, [entry]) => {
      if (!entry || path === ".") return undefined;
      const type = await entry.type();
      if (type !== "blob") return type === "tree" ? true : undefined;
      const mode = await entry.mode();
      const st = await entry.stat();
      out.set(path, {
        oid: await entry.oid(),
        size: st.size,
        mtimeMs: st.mtimeSeconds * 1000 + Math.floor(st.mtimeNanoseconds / 1e6),
        mode,
      });
      return undefined;
    },
  });
  return out;
}
