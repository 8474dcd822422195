/** FileSystem over node:fs, confined to one root folder (symbolic links included). */
import {
  closeSync,
  constants as fsConstants,
  fstatSync,
  lstatSync,
  openSync,
  readFileSync,
  readSync,
  readdirSync,
  promises as fsp,
  watch as fsWatch,
  type FSWatcher,
} from "node:fs";
import * as nodePath from "node:path";
import { EngineError } from "../../shared/errors.ts";
import { normalizeRelative } from "../../shared/paths.ts";
import { LinkFreeFolders } from "../link-free-folders.ts";
import type { DirEntry, EntryKind, FileStat, FileSystem } from "../../core/ports.ts";

/** Maps a node:fs error to an EngineError with a canonical code. */
export function mapNodeError(error: unknown, path: string, action: "read" | "write" = "read"): EngineError {
  const code = (error as NodeJS.ErrnoException)?.code;
  const data = { path };
  switch (code) {
    case "ENOENT":
      return new EngineError("not_found", `No such file or folder: ${path}`, { data, cause: error });
    case "ENOTDIR":
      return new EngineError("not_directory", `Not a folder: ${path}`, { data, cause: error });
    case "EACCES":
    case "EPERM":
      return new EngineError("permission_denied", `Permission denied: ${path}`, { data, cause: error });
    case "ELOOP":
      return new EngineError("symlink_loop", `Symbolic link loop: ${path}`, { data, cause: error });
    case "EROFS":
      return new EngineError("read_only", `Read-only file system: ${path}`, { data, cause: error });
    default:
      return new EngineError("io_error", `Cannot ${action} ${path}: ${(error as Error)?.message ?? error}`, {
        data,
        cause: error,
      });
  }
}

// On POSIX a backslash is part of a file name; only Windows reads it as a separator.
const SEPARATORS = process.platform === "win32" ? "any" : "posix";

/**
 * A path that may need normalizing before use: "." or ".." segments, doubled or edge slashes, a backslash on Windows.
 */
const NOT_PLAIN =
  process.platform === "win32"
    ? /(^|[/\\])\.\.?([/\\]|$)|\/\/|^\/|\/$|\\|^[a-zA-Z]:/
    : /(^|\/)\.\.?(\/|$)|\/\/|^\/|\/$/;

// O_NOFOLLOW is POSIX; on Windows it is undefined and every read goes through realpath.
const NOFOLLOW: number | undefined = (fsConstants as { O_NOFOLLOW?: number }).O_NOFOLLOW;
// Opening a named pipe for reading blocks until a writer appears (forever, in a scan). O_NONBLOCK
// makes that open return at once; the fstat after it then refuses anything but a regular file.
const NONBLOCK: number = (fsConstants as { O_NONBLOCK?: number }).O_NONBLOCK ?? 0;

/**
 * Reads a regular file through an open descriptor; a FIFO, socket, device or folder is refused.
 * Synchronous: a source file is read in well under a millisecond, and the promise API's file
 * handle cost more CPU than the read itself (a tenth of a second per thousand files). The size
 * comes from the one `fstat` that checks the kind: `readFileSync(fd)` would stat it again.
 */
async function readRegularFile(target: string, flags: number, path: string): Promise<Uint8Array> {
  const fd = openSync(target, flags);
  try {
    const s = fstatSync(fd);
    if (!s.isFile()) {
      const kind = s.isDirectory() ? "directory" : "other";
      throw new EngineError("io_error", `Not a regular file: ${path}`, { data: { path, kind } });
    }
    // A size of 0 may be a file whose length its file system does not report: read to its end.
    if (s.size === 0) {
      const buf = readFileSync(fd);
      return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
    }
    // The allocator readFileSync uses (pooled, not zeroed): a zeroed array per file cost ~2 MB of peak RSS on django.
    const buf = Buffer.allocUnsafe(s.size);
    let at = 0;
    for (let n = 1; at < buf.length && n > 0; at += n) n = readSync(fd, buf, at, buf.length - at, null);
    return new Uint8Array(buf.buffer, buf.byteOffset, at);
  } finally {
    closeSync(fd);
  }
}

function kindOf(d: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }): EntryKind {
  if (d.isSymbolicLink()) return "symlink";
  if (d.isFile()) return "file";
  if (d.isDirectory()) return "directory";
  return "other";
}

/** A read-only FileSystem rooted at `root`. Use `createNodeFileSystem` to validate the root first. */
export class NodeFileSystem implements FileSystem {
  readonly rootLabel: string;
  private readonly realRoot: string;

  constructor(realRoot: string) {
    this.realRoot = realRoot;
    this.rootLabel = realRoot;
  }

  /**
   * The absolute path for `path`, after refusing escapes. Paths are checked lexically first and
   * then through realpath, so a symbolic link anywhere on the way cannot lead outside the root.
   */
  async resolve(path: string): Promise<string> {
    const rel = normalizeRelative(path, SEPARATORS);
    if (rel === undefined) throw new EngineError("outside_root", `Path escapes the root: ${path}`, { data: { path } });
    const full = rel === "" ? this.realRoot : nodePath.join(this.realRoot, rel);
    let real: string;
    try {
      real = await fsp.realpath(full);
    } catch (error) {
      throw mapNodeError(error, path);
    }
    if (
      real !== this.realRoot &&
      !real.startsWith(this.realRoot.endsWith(nodePath.sep) ? this.realRoot : this.realRoot + nodePath.sep)
    ) {
      throw new EngineError("outside_root", `Path leads outside the root through a symbolic link: ${path}`, {
        data: { path },
        hint: "codeslice only reads inside the project root.",
      });
    }
    return real;
  }

  /** Folders known to be reached without any symbolic link; entries under them need no realpath. */
  private readonly safeDirs = new LinkFreeFolders();

  private lexical(path: string): { rel: string; full: string; parent: string } {
    const rel = normalizeRelative(path, SEPARATORS);
    if (rel === undefined) throw new EngineError("outside_root", `Path escapes the root: ${path}`, { data: { path } });
    const i = rel.lastIndexOf("/");
    return {
      rel,
      full: rel === "" ? this.realRoot : nodePath.join(this.realRoot, rel),
      parent: i < 0 ? "" : rel.slice(0, i),
    };
  }

  async readFile(path: string): Promise<Uint8Array> {
    const { full, parent } = this.lexical(path);
    // Under a link-free folder, O_NOFOLLOW refuses a final symbolic link; only then do we pay for realpath.
    let target = full;
    if (!this.safeDirs.has(parent) || !NOFOLLOW) target = await this.resolve(path);
    try {
      const nofollow = target === full && NOFOLLOW ? NOFOLLOW : 0;
      return await readRegularFile(target, fsConstants.O_RDONLY | NONBLOCK | nofollow, path);
    } catch (error) {
      if (error instanceof EngineError) throw error;
      const code = (error as NodeJS.ErrnoException).code;
      if (target === full && (code === "ELOOP" || code === "EMLINK")) {
        return this.readFileResolved(path);
      }
      throw mapNodeError(error, path);
    }
  }

  private async readFileResolved(path: string): Promise<Uint8Array> {
    const real = await this.resolve(path);
    try {
      return await readRegularFile(real, fsConstants.O_RDONLY | NONBLOCK, path);
    } catch (error) {
      if (error instanceof EngineError) throw error;
      throw mapNodeError(error, path);
    }
  }

  async stat(path: string): Promise<FileStat> {
    const { rel, full, parent } = this.lexical(path);
    if (this.safeDirs.has(parent)) {
      try {
        const s = await fsp.lstat(full);
        if (!s.isSymbolicLink()) {
          if (s.isDirectory()) this.safeDirs.add(rel);
          return { kind: kindOf(s), size: s.size, mtimeMs: Math.floor(s.mtimeMs) };
        }
      } catch (error) {
        throw mapNodeError(error, path);
      }
    }
    const real = await this.resolve(path);
    try {
      const s = await fsp.stat(real);
      if (real === full && s.isDirectory()) this.safeDirs.add(rel);
      return { kind: kindOf(s), size: s.size, mtimeMs: Math.floor(s.mtimeMs) };
    } catch (error) {
      throw mapNodeError(error, path);
    }
  }

  async readDir(path: string): Promise<DirEntry[]> {
    const { rel, full } = this.lexical(path);
    const { target, safe } = await this.safeDirs.listingTarget(rel, full, () => this.resolve(path));
    try {
      // Synchronous: one listing is ~50 µs of syscalls, while an async one waits a thread-pool round
      // trip; on django the scan went from ~80 ms of readdir to ~25 ms.
      const entries = readdirSync(target, { withFileTypes: true });
      // An entry's name is one segment (no separator, never "." or ".."): plain concatenation is
      // the joined path, without path.join's normalizing pass per entry.
      const prefix = target.endsWith(nodePath.sep) ? target : target + nodePath.sep;
      return entries.map((d): DirEntry => {
        const kind = kindOf(d);
        if (safe && kind === "directory") this.safeDirs.addChild(rel, d.name);
        if (safe && kind === "file") {
          // A synchronous lstat costs ~4 µs; the async one ~30 µs of round trip. Measured on
          // django: 15 ms for 4,355 files synchronously against 130 ms of async stat calls.
          const st = lstatSync(prefix + d.name, { throwIfNoEntry: false });
          if (st?.isFile()) return { name: d.name, kind, size: st.size, mtimeMs: Math.floor(st.mtimeMs) };
        }
        return { name: d.name, kind };
      });
    } catch (error) {
      throw mapNodeError(error, path);
    }
  }

  /**
   * Many `lstat`s in one call, synchronously: ~4 µs each against ~30 µs for an async call's round
   * trip. A path is stat'ed only under a folder known to be reached without links (the root, a
   * folder listed or stat'ed earlier in this batch or scan); any other path reads as undefined, so
   * a cached listing the caller checks with it is listed again instead. A batch that starts at the
   * root forgets what was known first, as a listing of the root does.
   */
  async lstatMany(paths: readonly string[]): Promise<(FileStat | undefined)[]> {
    const out = new Array<FileStat | undefined>(paths.length);
    const prefix = this.realRoot.endsWith(nodePath.sep) ? this.realRoot : this.realRoot + nodePath.sep;
    for (let i = 0; i < paths.length; i++) {
      let rel: string | undefined = paths[i]!;
      if (rel === "" && i === 0) this.safeDirs.reset();
      // Paths the engine passes are normalized already; anything else goes through the full check.
      if (NOT_PLAIN.test(rel)) rel = normalizeRelative(rel, SEPARATORS);
      if (rel === undefined) continue;
      const slash = rel.lastIndexOf("/");
      if (rel !== "" && !this.safeDirs.has(slash < 0 ? "" : rel.slice(0, slash))) continue;
      let s;
      try {
        s = lstatSync(rel === "" ? this.realRoot : prefix + rel, { throwIfNoEntry: false });
      } catch {
        continue; // no access, not a folder on the way: unknown, as a missing path
      }
      if (!s) continue;
      const kind = kindOf(s);
      if (kind === "directory") this.safeDirs.add(rel);
      out[i] = { kind, size: s.size, mtimeMs: Math.floor(s.mtimeMs), ctimeMs: Math.floor(s.ctimeMs), ino: s.ino };
    }
    return out;
  }

  watch(dirs: string[], onChange: (path: string) => void): { close(): void } {
    const watchers: FSWatcher[] = [];
    const close = () => {
      for (const w of watchers.splice(0)) w.close();
    };
    try {
      for (const dir of dirs) {
        const rel = normalizeRelative(dir, SEPARATORS);
        if (rel === undefined) continue;
        const full = rel === "" ? this.realRoot : nodePath.join(this.realRoot, rel);
        const w = fsWatch(full, { persistent: false }, (_event, name) =>
          onChange(rel === "" ? String(name ?? "") : `${rel}/${name ?? ""}`),
        );
        w.on("error", () => onChange(rel));
        watchers.push(w);
      }
    } catch (error) {
      close();
      throw mapNodeError(error, "watch");
    }
    return { close };
  }
}

/** Validates `root` (exists, is a folder) and returns a FileSystem confined to it. */
export async function createNodeFileSystem(root: string): Promise<NodeFileSystem> {
  const abs = nodePath.resolve(root);
  let real: string;
  try {
    real = await fsp.realpath(abs);
  } catch (error) {
    throw new EngineError("root_not_found", `The project root does not exist: ${abs}`, {
      hint: "Pass an existing folder as the project root.",
      data: { root: abs },
      cause: error,
    });
  }
  const s = await fsp.stat(real);
  if (!s.isDirectory()) {
    throw new EngineError("root_not_directory", `The project root is not a folder: ${abs}`, {
      hint: "Pass a folder as the project root, not a file.",
      data: { root: abs },
    });
  }
  return new NodeFileSystem(real);
}
