/** FileSystem over Deno's file APIs, confined to one root folder (symbolic links included). */
import { EngineError } from "../../shared/errors.ts";
import { normalizeRelative } from "../../shared/paths.ts";
import { LinkFreeFolders } from "../link-free-folders.ts";
import type { DirEntry, EntryKind, FileStat, FileSystem } from "../../core/ports.ts";
import {
  type DenoApi,
  type DenoFileInfo,
  type DenoFsFile,
  mapDenoError,
  missingDenoFlag,
  requireDeno,
} from "./deno-api.ts";
import { type NativePaths, nativePaths } from "./deno-paths.ts";

function kindOf(d: { isFile: boolean; isDirectory: boolean; isSymlink: boolean }): EntryKind {
  if (d.isSymlink) return "symlink";
  if (d.isFile) return "file";
  if (d.isDirectory) return "directory";
  return "other";
}

function toStat(s: DenoFileInfo): FileStat {
  return { kind: kindOf(s), size: s.size, mtimeMs: s.mtime ? Math.floor(s.mtime.getTime()) : 0 };
}

function notRegular(path: string, s: DenoFileInfo): EngineError {
  return new EngineError("io_error", `Not a regular file: ${path}`, {
    data: { path, kind: s.isDirectory ? "directory" : "other" },
  });
}

/** Reads the rest of an open file; `size` is the expected length (the file may change under us). */
async function readAll(file: DenoFsFile, size: number): Promise<Uint8Array> {
  let buf = new Uint8Array(size + 1);
  let length = 0;
  for (;;) {
    if (length === buf.length) {
      const bigger = new Uint8Array(buf.length * 2);
      bigger.set(buf);
      buf = bigger;
    }
    const n = await file.read(buf.subarray(length));
    if (n === null) break;
    length += n;
  }
  return buf.slice(0, length);
}

/**
 * A read-only FileSystem rooted at a real (symlink-free, absolute) folder. Use
 * `createDenoFileSystem` to validate the root first.
 *
 * Deno cannot open with O_NOFOLLOW or O_NONBLOCK, so a read checks what it is about to open
 * (lstat, or realpath + stat) and then checks the open handle is that same regular file (device and
 * inode): a file swapped for a link to outside the root in between is refused, not returned.
 */
export class DenoFileSystem implements FileSystem {
  readonly rootLabel: string;
  private readonly deno: DenoApi;
  private readonly paths: NativePaths;
  /** Folders known to be reached without any symbolic link; entries under them need no realpath. */
  private readonly safeDirs = new LinkFreeFolders();
  /** On POSIX a backslash is part of a file name; only Windows reads it as a separator. */
  private readonly separators: "any" | "posix";

  constructor(
    private readonly realRoot: string,
    deno: DenoApi = requireDeno(),
  ) {
    this.rootLabel = realRoot;
    this.deno = deno;
    this.paths = nativePaths(deno);
    this.separators = deno.build.os === "windows" ? "any" : "posix";
  }

  private lexical(path: string): { rel: string; full: string; parent: string } {
    const rel = normalizeRelative(path, this.separators);
    if (rel === undefined) throw new EngineError("outside_root", `Path escapes the root: ${path}`, { data: { path } });
    const i = rel.lastIndexOf("/");
    return { rel, full: this.paths.join(this.realRoot, rel), parent: i < 0 ? "" : rel.slice(0, i) };
  }

  /** The real absolute path for `path`, after refusing escapes (lexical, then through realpath). */
  async resolve(path: string): Promise<string> {
    const { full } = this.lexical(path);
    let real: string;
    try {
      real = await this.deno.realPath(full);
    } catch (error) {
      throw mapDenoError(error, path);
    }
    if (!this.paths.isInside(real, this.realRoot)) {
      throw new EngineError("outside_root", `Path leads outside the root through a symbolic link: ${path}`, {
        data: { path },
        hint: "codeslice only reads inside the project root.",
      });
    }
    return real;
  }

  async readFile(path: string): Promise<Uint8Array> {
    const { full, parent } = this.lexical(path);
    let target = full;
    let expected: DenoFileInfo | undefined;
    try {
      if (this.safeDirs.has(parent)) {
        const s = await this.deno.lstat(full);
        if (!s.isSymlink) {
          if (!s.isFile) throw notRegular(path, s);
          expected = s;
        }
      }
      if (!expected) {
        target = await this.resolve(path);
        expected = await this.deno.stat(target);
        if (!expected.isFile) throw notRegular(path, expected);
      }
      const file = await this.deno.open(target, { read: true });
      try {
        const s = await file.stat();
        if (!s.isFile || s.dev !== expected.dev || s.ino !== expected.ino) {
          throw new EngineError("io_error", `The file changed while it was being read: ${path}`, { data: { path } });
        }
        return await readAll(file, s.size);
      } finally {
        file.close();
      }
    } catch (error) {
      throw mapDenoError(error, path);
    }
  }

  async stat(path: string): Promise<FileStat> {
    const { rel, full, parent } = this.lexical(path);
    if (this.safeDirs.has(parent)) {
      try {
        const s = await this.deno.lstat(full);
        if (!s.isSymlink) {
          if (s.isDirectory) this.safeDirs.add(rel);
          return toStat(s);
        }
      } catch (error) {
        throw mapDenoError(error, path);
      }
    }
    const real = await this.resolve(path);
    try {
      const s = await this.deno.stat(real);
      if (real === full && s.isDirectory) this.safeDirs.add(rel);
      return toStat(s);
    } catch (error) {
      throw mapDenoError(error, path);
    }
  }

  async readDir(path: string): Promise<DirEntry[]> {
    const { rel, full } = this.lexical(path);
    const { target, safe } = await this.safeDirs.listingTarget(rel, full, () => this.resolve(path));
    try {
      const out: DirEntry[] = [];
      for await (const d of this.deno.readDir(target)) {
        const kind = kindOf(d);
        if (safe && kind === "directory") this.safeDirs.addChild(rel, d.name);
        out.push({ name: d.name, kind });
      }
      return out;
    } catch (error) {
      throw mapDenoError(error, path);
    }
  }

  watch(dirs: string[], onChange: (path: string) => void): { close(): void } {
    const native = new Map<string, string>();
    for (const dir of dirs) {
      const rel = normalizeRelative(dir, this.separators);
      if (rel !== undefined) native.set(this.paths.join(this.realRoot, rel), rel);
    }
    if (native.size === 0) return { close() {} };
    let watcher;
    try {
      watcher = this.deno.watchFs([...native.keys()], { recursive: false });
    } catch (error) {
      throw mapDenoError(error, "watch");
    }
    const toRel = (p: string): string => {
      const parent = native.get(this.paths.dirname(p));
      if (parent !== undefined) return parent === "" ? this.paths.basename(p) : `${parent}/${this.paths.basename(p)}`;
      return native.get(p) ?? "";
    };
    let closed = false;
    (async () => {
      try {
        for await (const event of watcher) for (const p of event.paths) onChange(toRel(p));
      } catch {
        if (!closed) onChange(""); // the watcher broke: report a change so the caller re-scans
      }
    })();
    return {
      close() {
        if (closed) return;
        closed = true;
        try {
          watcher.close();
        } catch {
          // already closed by the runtime
        }
      },
    };
  }
}

/** Validates `root` (exists, is a folder) and returns a FileSystem confined to it. */
export async function createDenoFileSystem(root: string, deno: DenoApi = requireDeno()): Promise<DenoFileSystem> {
  const abs = nativePaths(deno).absolute(root);
  let real: string;
  try {
    real = await deno.realPath(abs);
  } catch (error) {
    // Deno refusing to look (no --allow-read) is not a missing root.
    if (missingDenoFlag(error)) throw mapDenoError(error, abs);
    throw new EngineError("root_not_found", `The project root does not exist: ${abs}`, {
      hint: "Pass an existing folder as the project root.",
      data: { root: abs },
      cause: error,
    });
  }
  let s: DenoFileInfo;
  try {
    s = await deno.stat(real);
  } catch (error) {
    throw mapDenoError(error, abs);
  }
  if (!s.isDirectory) {
    throw new EngineError("root_not_directory", `The project root is not a folder: ${abs}`, {
      hint: "Pass a folder as the project root, not a file.",
      data: { root: abs },
    });
  }
  return new DenoFileSystem(real, deno);
}
