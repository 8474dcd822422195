/**
 * Example adapter: a codeslice FileSystem over a VS Code-style workspace file API
 * (`readFile`, `readDirectory`, `stat` on URIs, as in `vscode.workspace.fs`). The Chromium test
 * suite runs the FileSystem contract against it (test/browser/workspace-adapter.chromium.ts).
 *
 * In an extension, pass `vscode.workspace.fs`, the folder's `Uri` and `(base, path) =>
 * vscode.Uri.joinPath(base, ...path.split("/"))`; in a web IDE, whatever its API calls these.
 */
import { EngineError, normalizeRelative as relative, type DirEntry, type EntryKind, type FileStat, type FileSystem } from "codeslice";

/** VS Code's FileType values (bit flags: a link to a file is `File | SymbolicLink`). */
export const FileType = { Unknown: 0, File: 1, Directory: 2, SymbolicLink: 64 } as const;

/** The part of a workspace file API the adapter needs. */
export interface WorkspaceFs<U> {
  readFile(uri: U): PromiseLike<Uint8Array>;
  readDirectory(uri: U): PromiseLike<[name: string, type: number][]>;
  stat(uri: U): PromiseLike<{ type: number; size: number; mtime: number; ctime: number }>;
}

function kindOf(type: number): EntryKind {
  if (type & FileType.SymbolicLink) return "symlink";
  if (type & FileType.Directory) return "directory";
  if (type & FileType.File) return "file";
  return "other";
}

/** Maps the host's errors (VS Code's FileSystemError codes) to codeslice's codes. */
function mapError(error: unknown, path: string): EngineError {
  const code = (error as { code?: string }).code;
  const data = { path };
  switch (code) {
    case "FileNotFound":
      return new EngineError("not_found", `No such file or folder: ${path}`, { data, cause: error });
    case "FileNotADirectory":
      return new EngineError("not_directory", `Not a folder: ${path}`, { data, cause: error });
    case "NoPermissions":
      return new EngineError("permission_denied", `Permission denied: ${path}`, { data, cause: error });
    default:
      return new EngineError("io_error", `Cannot read ${path}: ${(error as Error)?.message ?? error}`, { data, cause: error });
  }
}

/**
 * A FileSystem rooted at `root`. Paths are confined lexically; the API follows symbolic links
 * without saying where they lead, so links are listed as "symlink" (the engine's scan then
 * leaves linked folders alone) and reads through them are the host's responsibility.
 */
export function workspaceFileSystem<U>(fs: WorkspaceFs<U>, root: U, join: (base: U, path: string) => U, rootLabel: string): FileSystem {
  const uri = (path: string): { uri: U; rel: string } => {
    const rel = relative(path);
    if (rel === undefined) throw new EngineError("outside_root", `Path escapes the root: ${path}`, { data: { path } });
    return { uri: rel === "" ? root : join(root, rel), rel };
  };
  return {
    rootLabel,
    async readFile(path) {
      const { uri: u } = uri(path);
      const st = await Promise.resolve(fs.stat(u)).catch((e) => Promise.reject(mapError(e, path)));
      if (st.type & FileType.Directory) throw new EngineError("io_error", `Is a directory: ${path}`, { data: { path } });
      return Promise.resolve(fs.readFile(u)).catch((e) => Promise.reject(mapError(e, path)));
    },
    async stat(path): Promise<FileStat> {
      const { uri: u } = uri(path);
      const st = await Promise.resolve(fs.stat(u)).catch((e) => Promise.reject(mapError(e, path)));
      // stat follows links: report what the link points at.
      const kind = st.type & FileType.Directory ? "directory" : st.type & FileType.File ? "file" : "other";
      return { kind, size: kind === "file" ? st.size : 0, mtimeMs: st.mtime };
    },
    async readDir(path): Promise<DirEntry[]> {
      const { uri: u } = uri(path);
      const entries = await Promise.resolve(fs.readDirectory(u)).catch((e) => Promise.reject(mapError(e, path)));
      return entries.map(([name, type]) => ({ name, kind: kindOf(type) }));
    },
  };
}
