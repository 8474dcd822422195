/**
 * The slice of Deno's runtime API the Deno platform uses, typed locally so `tsc` checks this folder
 * without Deno's type library (the project compiles with `types: ["node"]`).
 */
import { EngineError } from "../../shared/errors.ts";

/** What Deno.stat / Deno.lstat return (the fields used here). */
export interface DenoFileInfo {
  isFile: boolean;
  isDirectory: boolean;
  isSymlink: boolean;
  size: number;
  mtime: Date | null;
  dev: number;
  ino: number | null;
}

/** One entry of Deno.readDir. */
export interface DenoDirEntry {
  name: string;
  isFile: boolean;
  isDirectory: boolean;
  isSymlink: boolean;
}

/** An open file (Deno.FsFile). */
export interface DenoFsFile {
  stat(): Promise<DenoFileInfo>;
  read(buffer: Uint8Array): Promise<number | null>;
  close(): void;
}

/** A file-system watcher (Deno.FsWatcher). */
export interface DenoFsWatcher extends AsyncIterable<{ kind: string; paths: string[] }> {
  close(): void;
}

/** A started program (Deno.ChildProcess). */
export interface DenoChildProcess {
  stdout: ReadableStream<Uint8Array>;
  stderr: ReadableStream<Uint8Array>;
  status: Promise<{ code: number; signal: string | null }>;
  kill(signal?: string): void;
}

/** The Deno namespace, as far as codeslice uses it. */
export interface DenoApi {
  readFile(path: string | URL): Promise<Uint8Array>;
  writeFile(path: string, data: Uint8Array, options?: { createNew?: boolean }): Promise<void>;
  stat(path: string): Promise<DenoFileInfo>;
  lstat(path: string): Promise<DenoFileInfo>;
  realPath(path: string): Promise<string>;
  readDir(path: string): AsyncIterable<DenoDirEntry>;
  mkdir(path: string, options?: { recursive?: boolean }): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  remove(path: string, options?: { recursive?: boolean }): Promise<void>;
  open(path: string, options?: { read?: boolean }): Promise<DenoFsFile>;
  watchFs(paths: string | string[], options?: { recursive?: boolean }): DenoFsWatcher;
  cwd(): string;
  /** Starts a program without a shell (Deno.Command); optional in this type so hosts without it still type-check. */
  Command?: new (
    program: string,
    options: {
      args: string[];
      cwd: string;
      env: Record<string, string>;
      stdin: "null";
      stdout: "piped";
      stderr: "piped";
    },
  ) => { spawn(): DenoChildProcess };
  env: { toObject(): Record<string, string> };
  readonly pid: number;
  readonly build: { os: string };
}

/** Deno's API, or undefined outside Deno. */
export function denoApi(): DenoApi | undefined {
  return (globalThis as { Deno?: DenoApi }).Deno;
}

/** Deno's API; throws when not running under Deno. */
export function requireDeno(): DenoApi {
  const api = denoApi();
  if (!api)
    throw new EngineError("invalid_argument", "The Deno platform needs the Deno runtime.", {
      hint: "Use codeslice/node under Node.",
    });
  return api;
}

/** Error names Deno uses for file-system failures (Deno.errors.*). */
function errorName(error: unknown): string | undefined {
  return (error as { name?: string } | undefined)?.name;
}

/** The OS error code of a Deno error ("ENOENT", …), when it has one. */
export function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === "string" ? code : undefined;
}

/** True when Deno reports a missing file or folder. */
export function isNotFound(error: unknown): boolean {
  return errorName(error) === "NotFound" || errorCode(error) === "ENOENT";
}

/**
 * The `--allow-*` flag a Deno permission refusal asks for (`NotCapable`: the process was started
 * without it), or undefined for any other error, including the OS refusing access.
 */
export function missingDenoFlag(error: unknown): string | undefined {
  if (errorName(error) !== "NotCapable") return undefined;
  const message = String((error as Error).message ?? "");
  const named = /--allow-[a-z-]+/.exec(message);
  if (named) return named[0];
  const kind = /Requires (\w+) access/.exec(message)?.[1];
  return kind ? `--allow-${kind}` : undefined;
}

/** Maps a Deno file-system error to an EngineError with a canonical code (the original as `cause`). */
export function mapDenoError(error: unknown, path: string, action: "read" | "write" = "read"): EngineError {
  if (error instanceof EngineError) return error;
  const data = { path };
  const flag = missingDenoFlag(error);
  if (flag) {
    return new EngineError("permission_denied", `Deno refused access to ${path}`, {
      hint: `Run deno with ${flag}.`,
      data: { ...data, flag },
      cause: error,
    });
  }
  const name = errorName(error);
  const code = errorCode(error);
  if (name === "NotFound" || code === "ENOENT")
    return new EngineError("not_found", `No such file or folder: ${path}`, { data, cause: error });
  if (name === "NotADirectory" || code === "ENOTDIR")
    return new EngineError("not_directory", `Not a folder: ${path}`, { data, cause: error });
  if (name === "FilesystemLoop" || code === "ELOOP")
    return new EngineError("symlink_loop", `Symbolic link loop: ${path}`, { data, cause: error });
  if (code === "EROFS") return new EngineError("read_only", `Read-only file system: ${path}`, { data, cause: error });
  if (name === "PermissionDenied" || code === "EACCES" || code === "EPERM") {
    return new EngineError("permission_denied", `Permission denied: ${path}`, { data, cause: error });
  }
  return new EngineError("io_error", `Cannot ${action} ${path}: ${(error as Error)?.message ?? error}`, {
    data,
    cause: error,
  });
}
