/** In-memory platform: a file tree from a plain object and a Map-backed store. Tests, zips, uploads. */
import { EngineError } from "../../shared/errors.ts";
import { normalizeRelative } from "../../shared/paths.ts";
import { checkStoreKey } from "../store-key.ts";
import type { DirEntry, FileStat, FileSystem, Store } from "../../core/ports.ts";
export * from "../host-environments.ts";

/** A file's content, or a symbolic link to a path relative to the link's folder (may escape). */
export type MemoryEntry = string | Uint8Array | { symlink: string };

const encoder = new TextEncoder();

/** A FileSystem over `{ "path/to/file": content }`; folders are implied by the paths. */
export class MemoryFileSystem implements FileSystem {
  readonly rootLabel: string;
  private readonly files = new Map<string, Uint8Array | { symlink: string }>();
  private readonly dirs = new Map<string, Map<string, "file" | "directory" | "symlink">>();
  private readonly mtimes = new Map<string, number>();
  private clock = 1;

  constructor(files: Record<string, MemoryEntry> = {}, rootLabel = "memory") {
    this.rootLabel = rootLabel;
    this.dirs.set("", new Map());
    for (const [path, content] of Object.entries(files)) this.write(path, content);
  }

  /** Adds or replaces an entry (tests use this to simulate edits). */
  write(path: string, content: MemoryEntry): void {
    const p = normalizeRelative(path, "posix");
    if (p === undefined || p === "") throw new EngineError("invalid_argument", `Bad memory path: ${path}`);
    const parts = p.split("/");
    for (let i = 0; i < parts.length - 1; i++) {
      const dir = parts.slice(0, i).join("/");
      const child = parts.slice(0, i + 1).join("/");
      this.dirs.get(dir)!.set(parts[i]!, "directory");
      if (!this.dirs.has(child)) this.dirs.set(child, new Map());
    }
    const isLink = typeof content === "object" && !(content instanceof Uint8Array);
    this.dirs.get(parts.slice(0, -1).join("/"))!.set(parts.at(-1)!, isLink ? "symlink" : "file");
    this.files.set(p, typeof content === "string" ? encoder.encode(content) : content);
    this.mtimes.set(p, this.clock++);
  }

  /** Removes a file. */
  remove(path: string): void {
    const p = normalizeRelative(path, "posix") ?? "";
    this.files.delete(p);
    const i = p.lastIndexOf("/");
    this.dirs.get(i < 0 ? "" : p.slice(0, i))?.delete(p.slice(i + 1));
  }

  /** Follows symbolic links (at most 40 hops, like POSIX) to a real entry path. */
  private resolve(path: string): string {
    let p = normalizeRelative(path, "posix");
    if (p === undefined) throw new EngineError("outside_root", `Path escapes the root: ${path}`, { data: { path } });
    for (let hops = 0; hops < 40; hops++) {
      // Resolve links in parent folders first, then the entry itself.
      const parts: string[] = p.split("/");
      let changed = false;
      for (let i = 1; i <= parts.length; i++) {
        const prefix = parts.slice(0, i).join("/");
        const entry = this.files.get(prefix);
        if (entry && !(entry instanceof Uint8Array)) {
          const base = parts.slice(0, i - 1).join("/");
          // An absolute target has no meaning inside a memory tree: it always lies outside the root.
          const absolute = /^(\/|\\|[a-zA-Z]:[\\/])/.test(entry.symlink);
          const target = absolute
            ? undefined
            : normalizeRelative(base === "" ? entry.symlink : `${base}/${entry.symlink}`, "posix");
          if (target === undefined)
            throw new EngineError("outside_root", `Symbolic link points outside the root: ${path}`, { data: { path } });
          p = [target, ...parts.slice(i)].filter((s) => s !== "").join("/");
          changed = true;
          break;
        }
        // A file in the middle of the path: the same answer a disk gives (ENOTDIR).
        if (entry && i < parts.length)
          throw new EngineError("not_directory", `Not a folder: ${prefix} (in ${path})`, { data: { path } });
      }
      if (!changed) return p;
    }
    throw new EngineError("symlink_loop", `Too many symbolic links: ${path}`, { data: { path } });
  }

  async readFile(path: string): Promise<Uint8Array> {
    const p = this.resolve(path);
    const entry = this.files.get(p);
    if (entry instanceof Uint8Array) return entry;
    if (this.dirs.has(p)) throw new EngineError("io_error", `Is a directory: ${path}`, { data: { path } });
    throw new EngineError("not_found", `No such file: ${path}`, { data: { path } });
  }

  async stat(path: string): Promise<FileStat> {
    const p = this.resolve(path);
    const entry = this.files.get(p);
    if (entry instanceof Uint8Array) return { kind: "file", size: entry.length, mtimeMs: this.mtimes.get(p) ?? 0 };
    if (this.dirs.has(p)) return { kind: "directory", size: 0, mtimeMs: 0 };
    throw new EngineError("not_found", `No such file or folder: ${path}`, { data: { path } });
  }

  async readDir(path: string): Promise<DirEntry[]> {
    const p = this.resolve(path);
    const dir = this.dirs.get(p);
    if (!dir) {
      if (this.files.has(p)) throw new EngineError("not_directory", `Not a folder: ${path}`, { data: { path } });
      throw new EngineError("not_found", `No such folder: ${path}`, { data: { path } });
    }
    return [...dir].map(([name, kind]) => ({ name, kind }));
  }
}

/** A Store in a Map. */
export class MemoryStore implements Store {
  constructor(readonly label = "memory") {}
  private readonly map = new Map<string, Uint8Array>();
  async get(key: string): Promise<Uint8Array | undefined> {
    checkStoreKey(key);
    return this.map.get(key)?.slice();
  }
  async set(key: string, value: Uint8Array): Promise<void> {
    checkStoreKey(key);
    this.map.set(key, value.slice());
  }
  async delete(key: string): Promise<void> {
    checkStoreKey(key);
    this.map.delete(key);
  }
  async keys(prefix = ""): Promise<string[]> {
    return [...this.map.keys()].filter((k) => k.startsWith(prefix)).sort();
  }
}
