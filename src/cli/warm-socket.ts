/**
 * Where the warm CLI's server listens for one project, how a caller tells its own socket from a
 * foreign one, and the frames an answer travels in. Loaded by the thin client (main.ts), so it
 * imports nothing but node's own modules: no engine, grammar or tokenizer.
 */
import type * as Fs from "node:fs";

/** The node modules the warm CLI's caller and socket code use. */
interface Builtins {
  "node:child_process": typeof import("node:child_process");
  "node:crypto": typeof import("node:crypto");
  "node:fs": typeof import("node:fs");
  "node:net": typeof import("node:net");
  "node:os": typeof import("node:os");
  "node:path": typeof import("node:path");
  "node:url": typeof import("node:url");
}

const getBuiltin = (process as { getBuiltinModule?: <K extends keyof Builtins>(id: K) => Builtins[K] })
  .getBuiltinModule;

/** Before node 20.16 (no getBuiltinModule): every module imported up front, as the client always did. */
const imported: Builtins | undefined = getBuiltin
  ? undefined
  : {
      "node:child_process": await import("node:child_process"),
      "node:crypto": await import("node:crypto"),
      "node:fs": await import("node:fs"),
      "node:net": await import("node:net"),
      "node:os": await import("node:os"),
      "node:path": await import("node:path"),
      "node:url": await import("node:url"),
    };

/**
 * One of node's own modules, taken when first needed with `process.getBuiltinModule` (node 20.16
 * and later, Deno) instead of an ESM `import`: importing a builtin builds a facade over all its
 * exports, and node:fs's getters then load its streams, promises and watchers (a served call's
 * process loaded 77 internal modules past a bare `node -e 0`, 16 of them node:crypto's, which
 * only a too-long socket path needs). Measured with `test/bench/warm-cli-bench.mjs`.
 */
export function builtin<K extends keyof Builtins>(id: K): Builtins[K] {
  return (getBuiltin ? getBuiltin.call(process, id) : imported![id]) as Builtins[K];
}

const fs = builtin("node:fs");
const nodePath = builtin("node:path");

/** The socket's name in the cache folder: dot-named, so the store never lists it as a key. */
export const SOCKET_NAME = ".cli.sock";
/** The server's process id, next to its socket (`kill $(cat .codeslice/.cli.pid)`). */
export const PID_SUFFIX = ".pid";
/** Longest socket path Linux accepts: `sun_path` is 108 bytes, the last one a NUL. */
export const MAX_SOCKET_PATH_BYTES = 107;
/** How long the server waits for another call before it exits: 10 minutes. */
export const DEFAULT_IDLE_MS = 10 * 60_000;
/** The hidden first word that starts the server (`codeslice __serve <root> <cacheDir>`). */
export const SERVE_WORD = "__serve";

/** Where a project's server listens. */
export interface SocketLocation {
  /** The socket's path. */
  path: string;
  /** The private folder a short path lives in (the cache path was too long for a socket), else undefined. */
  privateDir?: string;
}

/** The socket for the project at `root` (real path) whose index is in `cacheDir`. */
export function socketLocation(root: string, cacheDir: string, env: NodeJS.ProcessEnv = process.env): SocketLocation {
  const inCache = nodePath.join(cacheDir, SOCKET_NAME);
  if (Buffer.byteLength(inCache) <= MAX_SOCKET_PATH_BYTES) return { path: inCache };
  // Too long for a socket: a short name under the user's runtime folder (or the temp folder), in
  // a folder only this user can enter, named by a hash of the root and the cache folder.
  const runtime =
    env.XDG_RUNTIME_DIR && nodePath.isAbsolute(env.XDG_RUNTIME_DIR) ? env.XDG_RUNTIME_DIR : builtin("node:os").tmpdir();
  const privateDir = nodePath.join(runtime, `codeslice-${process.getuid?.() ?? "user"}`);
  const hash = builtin("node:crypto").createHash("sha256").update(`${root}\0${cacheDir}`).digest("hex").slice(0, 24);
  return { path: nodePath.join(privateDir, `${hash}.sock`), privateDir };
}

/** Why a socket path is not one to talk to. */
export type Refusal = "missing" | "not_a_socket" | "foreign_owner" | "open_mode" | "open_folder";

/**
 * Checks the socket at `location` before anyone connects to it or replaces it: a socket, owned by
 * this user, mode 0600, and (for a short path) in a folder owned by this user with mode 0700.
 * Undefined when all hold.
 */
export function refuseSocket(location: SocketLocation): Refusal | undefined {
  const uid = process.getuid?.();
  if (location.privateDir) {
    let dir: Fs.Stats;
    try {
      dir = fs.lstatSync(location.privateDir);
    } catch {
      return "missing";
    }
    if (!dir.isDirectory() || (uid !== undefined && dir.uid !== uid) || (dir.mode & 0o777) !== 0o700)
      return "open_folder";
  }
  let stat: Fs.Stats;
  try {
    stat = fs.lstatSync(location.path);
  } catch {
    return "missing";
  }
  if (!stat.isSocket()) return "not_a_socket";
  if (uid !== undefined && stat.uid !== uid) return "foreign_owner";
  if ((stat.mode & 0o777) !== 0o600) return "open_mode";
  return undefined;
}

/** Frame kinds, server to client. */
export const FRAME = { stdout: 1, stderr: 2, exit: 3, decline: 4, accepted: 5, stopped: 6 } as const;

/** One frame: a kind byte, a 4-byte big-endian length, the payload. */
export function frame(kind: number, payload: Uint8Array | string): Buffer {
  const body =
    typeof payload === "string"
      ? Buffer.from(payload, "utf8")
      : Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength);
  const head = Buffer.alloc(5);
  head[0] = kind;
  head.writeUInt32BE(body.length, 1);
  return Buffer.concat([head, body]);
}

/** Reads frames from a stream of chunks; `push` returns the frames completed by a chunk. */
export function frameReader(): { push(chunk: Buffer): { kind: number; payload: Buffer }[] } {
  let pending: Buffer = Buffer.alloc(0);
  return {
    push(chunk) {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      const out: { kind: number; payload: Buffer }[] = [];
      while (pending.length >= 5) {
        const length = pending.readUInt32BE(1);
        if (pending.length < 5 + length) break;
        out.push({ kind: pending[0]!, payload: pending.subarray(5, 5 + length) });
        pending = pending.subarray(5 + length);
      }
      return out;
    },
  };
}

/** What a caller sends, as one JSON line. */
export interface WarmRequest {
  /** The caller's codeslice version and build time (main.ts): a server of another declines and exits. */
  version: string;
  /** The words after `codeslice`. */
  argv?: string[];
  /** The caller's working folder: `--root` and `--cache-dir` are relative to it. */
  cwd?: string;
  /** Stop the server instead of answering. */
  stop?: boolean;
}
