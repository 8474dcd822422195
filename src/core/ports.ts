/**
 * The adapter boundary: the only interfaces through which the engine touches the outside world.
 * Paths are workspace-relative POSIX strings ("" is the root). Implementations map native errors
 * to EngineError codes (`not_found`, `not_directory`, `outside_root`, `permission_denied`,
 * `symlink_loop`, `io_error`) with the native error as `cause`.
 */
import type { HostEnvironment } from "../shared/host-environment.ts";

/** What an entry is. A symbolic link is reported as "symlink" by `readDir`, never followed there. */
export type EntryKind = "file" | "directory" | "symlink" | "other";

/** The stat facts the engine needs for change detection. */
export interface FileStat {
  kind: EntryKind;
  size: number;
  /** Modification time in milliseconds; 0 when the backend has none. */
  mtimeMs: number;
  /**
   * Optional, from `lstatMany`: the status-change time in milliseconds and the inode number. With
   * the mtime they tell whether a folder's entries or a file's bytes may have changed: `touch -d`
   * can set an mtime back, but not a ctime, and a replaced file has another inode.
   */
  ctimeMs?: number;
  ino?: number;
}

/** One directory entry. */
export interface DirEntry {
  name: string;
  kind: EntryKind;
  /**
   * Optional, for regular files only: stat facts the backend had at hand while listing. A scan
   * uses them instead of one `stat` per file (on django: 4,355 async stats vs one listing).
   */
  size?: number;
  mtimeMs?: number;
}

/**
 * A read-only view of one directory tree. Every method refuses a path that escapes the root,
 * whether by "..", an absolute path or a symbolic link whose target lies outside (`outside_root`).
 */
export interface FileSystem {
  /** A human-readable name for the root (an absolute path on disk, a folder name in a browser). */
  readonly rootLabel: string;
  /** The bytes of a file. */
  readFile(path: string): Promise<Uint8Array>;
  /** Stat following symbolic links (confined to the root). */
  stat(path: string): Promise<FileStat>;
  /** The entries of a directory, with symbolic links reported as "symlink". */
  readDir(path: string): Promise<DirEntry[]>;
  /**
   * Optional: the stat of many paths at once, without following a final symbolic link (reported
   * as "symlink"), with `ctimeMs` and `ino`; undefined for a path that is missing or cannot be
   * stat'ed. Paths are given parents first: a folder in the batch vouches for the entries after
   * it (a batch that starts at the root "" starts over). The scan checks its cached folder
   * listings with it (one call instead of one listing per folder); hosts without it re-list.
   */
  lstatMany?(paths: readonly string[]): Promise<(FileStat | undefined)[]>;
  /**
   * Optional: calls `onChange` when an entry of one of `dirs` (folders, not recursive) is
   * added, removed or modified. Returns a handle to stop watching. Throws when the host cannot
   * watch that many folders; callers then fall back to re-scanning.
   */
  watch?(dirs: string[], onChange: (path: string) => void): { close(): void };
}

/**
 * A small key → bytes store for the persistent index. Keys are "/"-separated, made of
 * `[A-Za-z0-9._-]` segments that do not start with "." (see `checkStoreKey`); any other key is
 * refused with `invalid_argument`. `set` is atomic: a reader sees the old value or the new one.
 */
export interface Store {
  get(key: string): Promise<Uint8Array | undefined>;
  set(key: string, value: Uint8Array): Promise<void>;
  delete(key: string): Promise<void>;
  /** All keys starting with `prefix`. */
  keys(prefix?: string): Promise<string[]>;
  /**
   * Optional, for a store that acknowledges writes before they land (the browser's OPFS store
   * writes them in batches): resolves once every write acknowledged so far has landed. The engine
   * calls it when an index run has written its snapshot, so a run that returned survives a reload.
   */
  flush?(): Promise<void>;
  /**
   * Optional: writes a value the engine can always rebuild (what it derives from the records) when
   * the store takes it, and resolves whether it landed. A store whose writes are refused drops it
   * silently: a read-only cache is no reason to tell the user, or to keep the value in memory.
   * Without it the engine uses `set`.
   */
  keep?(key: string, value: Uint8Array): Promise<boolean>;
  /** A description for reports ("/repo/.codeslice", "memory"). */
  readonly label: string;
}

/** Hands the engine the bytes of files in `wasm/` (runtime, grammars, lock file). */
export interface WasmSource {
  load(file: string): Promise<Uint8Array>;
  /**
   * Optional: told, before an index run compiles any wasm in this thread, how many files at most
   * the run will parse here (`files`; most runs on a warm cache parse one or none). A host whose
   * wasm engine compiles hot code a second time, optimized (V8's tier-up), may skip that second
   * compile for a handful of files, where it costs more than it saves. A hint only: the records
   * are the same either way.
   */
  expectParses?(files: number): void;
}

/** Log levels, most to least verbose. */
export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";

/** Where the engine's diagnostics go; front ends route it to stderr. */
export interface Logger {
  log(level: Exclude<LogLevel, "silent">, message: string): void;
}

/** The heap in use and the most it may grow to, in bytes (V8's `used_heap_size`, `heap_size_limit`). */
export interface HeapUsage {
  used: number;
  limit: number;
}

/**
 * A message channel to one worker thread running `serveParseWorker`. Messages are plain data
 * (structured-clone safe); `transfer` lists buffers the sender gives up.
 */
export interface WorkerChannel {
  post(message: unknown, transfer?: ArrayBuffer[]): void;
  /**
   * Registers the handlers, once: `onMessage` for each message the worker posts, `onFailure` when
   * it dies (an uncaught error, out of memory, an entry that failed to load, an exit). After a
   * failure the worker posts nothing more.
   */
  listen(onMessage: (message: unknown) => void, onFailure: (error: Error) => void): void;
  terminate(): void;
}

/** Optional: threads that parse and extract files off the engine's thread (the parse pool). */
export interface ParseWorkers {
  /** How many threads the host runs at once (`os.availableParallelism()`, `navigator.hardwareConcurrency`). */
  readonly parallelism: number;
  /** Starts one worker. May throw when the host cannot; the engine then parses in its own thread. */
  spawn(): WorkerChannel;
}

/** How one program run ended, with its output (stdout and stderr as they arrived, interleaved). */
export interface ProcessResult {
  /** The exit code; null when a signal ended it. */
  exitCode: number | null;
  /** The signal that ended it (`SIGKILL` after a timeout). */
  signal?: string;
  /** It ran past its timeout (or was cancelled) and was killed. */
  timedOut: boolean;
  /** What a kill reached: the program's whole process group (Node), or the program alone (Deno). */
  killScope?: "group" | "process";
  /** The program was not found (ENOENT). */
  notFound?: boolean;
  /**
   * The output, at most `maxOutputBytes` of it: the first part and the last, with a marker line where bytes were
   * dropped.
   */
  output: string;
  /** Bytes it wrote in all. */
  outputBytes: number;
  durationMs: number;
}

/**
 * Optional: starting a program, never through a shell (argv as given, no expansion), in a folder
 * of the project, with a timeout after which it is killed with every process it started. The Node
 * and Deno platforms have it; a browser does not. Only `runTests` uses it, on commands it checked.
 */
export interface ProcessRunner {
  run(
    argv: readonly string[],
    options: { cwd: string; timeoutMs: number; maxOutputBytes: number; signal?: AbortSignal },
  ): Promise<ProcessResult>;
}

/** Everything the engine needs from its host. */
export interface Platform {
  fs: FileSystem;
  store: Store;
  wasm: WasmSource;
  logger?: Logger;
  /**
   * Optional: the heap in use and its limit. With it the engine refuses work that would not fit
   * (`memory_limit`, naming the sizes) instead of letting the process die out of memory.
   */
  memory?: () => HeapUsage;
  /**
   * Optional: worker threads for the parse pool. Without it (or with `jobs: 1`) files are parsed
   * in the engine's own thread; results are identical either way.
   */
  workers?: ParseWorkers;
  /** Optional: running a program (the tests `runTests` runs). Absent in browsers. */
  processes?: ProcessRunner;
  /**
   * Optional: the host's own CRC-32 (IEEE) of `bytes`, continuing from `previous` (0 to start),
   * the same values as the engine's (Node's native `zlib.crc32`). The engine checks every stored
   * value's seal with it; without it, a table loop that every runtime runs.
   */
  crc32?: (bytes: Uint8Array, previous: number) => number;
  /**
   * Optional: what the hosts of the indexed code add to its languages (a server runtime's `process`, a browser's
   * `window`); `EngineOptions.host` wins over it. Every platform factory sets the default profile
   * (`DEFAULT_HOST_ENVIRONMENT`); without either the engine knows only the languages' own globals.
   */
  host?: HostEnvironment;
}
