/**
 * A FileSystem over a FileSystemDirectoryHandle: a folder the user picked (File System Access API)
 * or a folder in the origin private file system (OPFS). Handles cannot name anything outside their
 * folder and the API exposes no symbolic links, so confinement is lexical: a path that climbs out
 * of the root is refused before any handle is touched.
 */
import { EngineError } from "../../shared/errors.ts";
import { normalizeRelative } from "../../shared/paths.ts";
import type { DirEntry, FileStat, FileSystem } from "../../core/ports.ts";
import { domErrorName, mapDomError } from "./dom-errors.ts";

/** The async iteration TypeScript's DOM lib leaves to the separate DOM.AsyncIterable lib. */
type IterableDirectory = FileSystemDirectoryHandle & { entries(): AsyncIterableIterator<[string, FileSystemHandle]> };

/** A FileSystem whose root is `root`; `rootLabel` defaults to the folder's name. */
export class HandleFileSystem implements FileSystem {
  readonly rootLabel: string;
  // Folder handles by path: a scan opens every file, and walking from the root for each costs one
  // async hop per segment. A handle outlives its folder (a folder deleted and re-created is a new
  // one), so the cache is dropped whenever the root is listed, which is how every scan begins.
  private readonly dirs = new Map<string, Promise<FileSystemDirectoryHandle>>();

  constructor(
    private readonly root: FileSystemDirectoryHandle,
    rootLabel?: string,
  ) {
    this.rootLabel = rootLabel ?? (root.name || "folder");
    this.forget();
  }

  private forget(): void {
    this.dirs.clear();
    this.dirs.set("", Promise.resolve(this.root));
  }

  private relative(path: string): string {
    const rel = normalizeRelative(path);
    if (rel === undefined) throw new EngineError("outside_root", `Path escapes the root: ${path}`, { data: { path } });
    return rel;
  }

  private directory(rel: string): Promise<FileSystemDirectoryHandle> {
    let p = this.dirs.get(rel);
    if (!p) {
      const i = rel.lastIndexOf("/");
      const parent = i < 0 ? "" : rel.slice(0, i);
      p = this.directory(parent).then((h) => h.getDirectoryHandle(rel.slice(i + 1)));
      p.catch(() => this.dirs.delete(rel));
      this.dirs.set(rel, p);
    }
    return p;
  }

  private async guard<T>(path: string, op: () => Promise<T>): Promise<T> {
    try {
      return await op();
    } catch (error) {
      throw mapDomError(error, path);
    }
  }

  /** The handle at `rel`: a file, or a folder when no file has that name. */
  private async entry(rel: string): Promise<FileSystemFileHandle | FileSystemDirectoryHandle> {
    if (rel === "") return this.root;
    const i = rel.lastIndexOf("/");
    const parent = await this.directory(i < 0 ? "" : rel.slice(0, i));
    const name = rel.slice(i + 1);
    try {
      return await parent.getFileHandle(name);
    } catch (error) {
      if (domErrorName(error) !== "TypeMismatchError") throw error;
      return parent.getDirectoryHandle(name);
    }
  }

  async readFile(path: string): Promise<Uint8Array> {
    const rel = this.relative(path);
    return this.guard(path, async () => {
      const handle = await this.entry(rel);
      if (handle.kind === "directory") throw new EngineError("io_error", `Is a directory: ${path}`, { data: { path } });
      const file = await (handle as FileSystemFileHandle).getFile();
      return new Uint8Array(await file.arrayBuffer());
    });
  }

  async stat(path: string): Promise<FileStat> {
    const rel = this.relative(path);
    return this.guard(path, async () => {
      const handle = await this.entry(rel);
      if (handle.kind === "directory") return { kind: "directory", size: 0, mtimeMs: 0 };
      const file = await (handle as FileSystemFileHandle).getFile();
      return { kind: "file", size: file.size, mtimeMs: file.lastModified };
    });
  }

  async readDir(path: string): Promise<DirEntry[]> {
    const rel = this.relative(path);
    if (rel === "") this.forget();
    return this.guard(path, async () => {
      const dir = (await this.directory(rel)) as IterableDirectory;
      const out: DirEntry[] = [];
      for await (const [name, handle] of dir.entries()) out.push({ name, kind: handle.kind });
      return out;
    });
  }
}
