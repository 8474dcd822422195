/**
 * The warm CLI's server: one per project, started detached by the first call that found none
 * (`codeslice __serve <root> <cacheDir>`). It keeps one engine warm (watching the tree, as the MCP
 * server's does), runs each caller's command line through the same command table the CLI runs,
 * with stdout and stderr captured per call, and sends back the bytes and the exit code. It exits
 * after an idle time, on `codeslice stop`, when a caller of another version calls, when the root or
 * its socket goes away, and on any failure of its own (a caller then answers in-process).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import * as fs from "node:fs";
import * as net from "node:net";
import * as nodePath from "node:path";
import { isEngineError, loadTokenCounter, type Engine } from "../index.ts";
import { CACHE_TAG_FILE } from "../platform/node/index.ts";
import { COMMANDS } from "./commands/index.ts";
import { runCli, type CliHost } from "./dispatch.ts";
import {
  DEFAULT_IDLE_MS,
  FRAME,
  frame,
  PID_SUFFIX,
  refuseSocket,
  socketLocation,
  type SocketLocation,
  type WarmRequest,
} from "./warm-socket.ts";
import { lendEngines, makeEngine, type ProjectValues, useBuild } from "./with-engine.ts";

/** One call being answered: its working folder, the frames it printed, why it was declined. */
interface Call {
  cwd: string;
  frames: Buffer[];
  declined?: string;
}

const calls = new AsyncLocalStorage<Call>();

/** A call this server must not answer: the caller answers it in-process. */
class Declined extends Error {}

/** How often the server checks that its root and its socket are still there. */
const WATCH_MS = 1_000;
/** The largest request line accepted. */
const MAX_REQUEST_BYTES = 1 << 20;

/** Sends what commands write to stdout and stderr during a call to that call's frames. */
function captureOutput(): void {
  for (const [stream, kind] of [
    [process.stdout, FRAME.stdout],
    [process.stderr, FRAME.stderr],
  ] as const) {
    const original = stream.write.bind(stream) as (...args: unknown[]) => boolean;
    stream.write = ((
      chunk: string | Uint8Array,
      encoding?: BufferEncoding | ((e?: Error) => void),
      callback?: (e?: Error) => void,
    ) => {
      const call = calls.getStore();
      if (!call) return original(chunk, encoding, callback);
      const done = typeof encoding === "function" ? encoding : callback;
      call.frames.push(
        frame(
          kind,
          typeof chunk === "string" ? Buffer.from(chunk, typeof encoding === "string" ? encoding : "utf8") : chunk,
        ),
      );
      if (done) queueMicrotask(() => done());
      return true;
    }) as typeof stream.write;
  }
}

/** How long the server waits for a call before it exits: CODESLICE_SERVER_IDLE_MS, else 10 minutes. */
function idleMs(): number {
  const raw = Number(process.env.CODESLICE_SERVER_IDLE_MS);
  return Number.isFinite(raw) && raw > 0 ? raw : DEFAULT_IDLE_MS;
}

/** Whether `location` may be listened on: nothing there, or a socket of ours no one answers on (removed). */
async function claimSocket(location: SocketLocation): Promise<boolean> {
  if (location.privateDir) {
    try {
      fs.mkdirSync(location.privateDir, { mode: 0o700 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") return false;
    }
  }
  const refusal = refuseSocket(location);
  if (refusal === "missing") return location.privateDir === undefined || fs.existsSync(location.privateDir);
  if (refusal) return false;
  const alive = await new Promise<boolean>((resolve) => {
    const probe = net.createConnection(location.path);
    probe.on("connect", () => {
      probe.destroy();
      resolve(true);
    });
    probe.on("error", () => resolve(false));
  });
  if (alive) return false;
  fs.rmSync(location.path, { force: true });
  return true;
}

/** The identity of the file at `path` (device and inode), or undefined when it is gone. */
function identity(path: string): string | undefined {
  try {
    const s = fs.lstatSync(path);
    return `${s.dev}:${s.ino}`;
  } catch {
    return undefined;
  }
}

/**
 * Runs the server for `[root, cacheDir]` until it stops; resolves to the exit code (0 when it
 * stopped as planned, 1 when it could not start). `build` is what callers must send to be
 * answered (the version and the entry file's time, main.ts).
 */
export async function serveWarm(args: string[], host: CliHost, build: string): Promise<number> {
  const [root, cacheDir] = args;
  if (!root || !cacheDir || !nodePath.isAbsolute(root) || !nodePath.isAbsolute(cacheDir)) return 1;
  // Only a cache folder codeslice made holds the socket; the server never creates one.
  if (!fs.existsSync(nodePath.join(cacheDir, CACHE_TAG_FILE))) return 1;
  const location = socketLocation(root, cacheDir);
  if (!(await claimSocket(location))) return 1;
  useBuild(build);
  const server = net.createServer();
  // The socket is born 0600 (no moment when others could connect); the cache's own files keep
  // the user's umask, as the in-process CLI writes them.
  const umask = process.umask(0o177);
  const listening = await new Promise<boolean>((resolve) => {
    server.once("error", () => resolve(false));
    server.listen(location.path, () => resolve(true));
  }).finally(() => process.umask(umask));
  if (!listening) return 1;
  fs.chmodSync(location.path, 0o600);
  fs.writeFileSync(location.path + PID_SUFFIX, `${process.pid}\n`, { mode: 0o600 });
  return new Promise<number>((resolve) => runServer(server, { root, cacheDir, location, host, build, resolve }));
}

interface ServerState {
  root: string;
  cacheDir: string;
  location: SocketLocation;
  host: CliHost;
  build: string;
  resolve(code: number): void;
}

/** The server's engines, one per `--max-file-bytes` value (the one option that changes answers). */
function engineCache(
  root: string,
  cacheDir: string,
  onFailure: () => void,
): { engineFor(maxFileBytes?: number): Promise<Engine>; closeAll(): void } {
  const engines = new Map<string, Promise<Engine>>();
  return {
    engineFor(maxFileBytes) {
      const key = String(maxFileBytes ?? "");
      let engine = engines.get(key);
      if (!engine) {
        const flags: ProjectValues = {
          root,
          ...(cacheDir !== nodePath.join(root, ".codeslice") ? { cacheDir } : {}),
          ...(maxFileBytes !== undefined ? { maxFileBytes } : {}),
        };
        engine = makeEngine(flags, true);
        engines.set(key, engine);
        engine.catch(onFailure);
      }
      return engine;
    },
    closeAll() {
      for (const engine of engines.values())
        void engine.then(
          (e) => e.close(),
          () => {},
        );
    },
  };
}

/**
 * What commands run on inside the server: its engine for their project, refreshed first (fresh
 * answers: the tree is checked before each one, as the MCP server does). A command about another
 * root or cache folder, or one whose refresh fails, is declined: the caller answers it itself.
 */
function serverLender(
  root: string,
  cacheDir: string,
  engineFor: (maxFileBytes?: number) => Promise<Engine>,
  stop: () => void,
) {
  return async (flags: ProjectValues): Promise<Engine> => {
    const call = calls.getStore()!;
    const decline = (why: string): never => {
      call.declined = why;
      throw new Declined(why);
    };
    let asked = "";
    try {
      asked = fs.realpathSync(nodePath.resolve(call.cwd, flags.root ?? "."));
    } catch {
      decline("root");
    }
    const askedCache =
      flags.cacheDir !== undefined ? nodePath.resolve(call.cwd, flags.cacheDir) : nodePath.join(asked, ".codeslice");
    if (asked !== root || askedCache !== cacheDir) decline("another project");
    const engine = await engineFor(flags.maxFileBytes);
    try {
      await engine.refresh();
    } catch (error) {
      if (isEngineError(error, "root_not_found", "root_not_directory")) stop();
      decline("refresh failed");
    }
    return engine;
  };
}

/** Reads each connection's one request line (at most MAX_REQUEST_BYTES) and hands it on. */
function onRequests(server: net.Server, handle: (socket: net.Socket, request: WarmRequest) => void): void {
  server.on("connection", (socket) => {
    let line = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      line = Buffer.concat([line, chunk]);
      const end = line.indexOf(10);
      if (end < 0) {
        if (line.length > MAX_REQUEST_BYTES) socket.destroy();
        return;
      }
      socket.off("data", onData);
      try {
        handle(socket, JSON.parse(line.subarray(0, end).toString("utf8")) as WarmRequest);
      } catch {
        socket.destroy();
      }
    };
    socket.on("data", onData);
    socket.on("error", () => socket.destroy());
  });
}

function runServer(server: net.Server, state: ServerState): void {
  const { root, cacheDir, location, host, build } = state;
  const socketId = identity(location.path);
  const rootId = identity(root);
  let served = 0;
  let active = 0;
  let stopping = false;

  const stop = () => {
    if (stopping) return;
    stopping = true;
    clearInterval(watch);
    clearTimeout(idle);
    server.close();
    // Only our own socket is removed: another server may have replaced it.
    if (identity(location.path) === socketId) {
      fs.rmSync(location.path, { force: true });
      fs.rmSync(location.path + PID_SUFFIX, { force: true });
    }
    engines.closeAll();
    // Let the last answers leave before the process goes.
    setTimeout(() => state.resolve(0), 50).unref();
    setTimeout(() => process.exit(0), 100).unref();
  };
  for (const event of ["uncaughtException", "unhandledRejection", "SIGTERM", "SIGINT"] as const)
    process.on(event, stop);

  const limit = idleMs();
  let idle = setTimeout(() => {}, 0);
  const touch = () => {
    clearTimeout(idle);
    idle = setTimeout(() => (active ? touch() : stop()), limit);
  };
  touch();
  const watch = setInterval(
    () => {
      if (identity(root) !== rootId || identity(location.path) !== socketId) stop();
    },
    Math.min(WATCH_MS, limit),
  );

  const engines = engineCache(root, cacheDir, stop);
  lendEngines(serverLender(root, cacheDir, engines.engineFor, stop));
  captureOutput();

  onRequests(server, (socket, request) => {
    touch();
    if (request.stop) {
      socket.end(Buffer.concat([frame(FRAME.stdout, String(served)), frame(FRAME.stopped, "")]));
      return stop();
    }
    if (request.version !== build) {
      socket.end(frame(FRAME.decline, "version"));
      return stop();
    }
    if (stopping || !Array.isArray(request.argv) || typeof request.cwd !== "string")
      return void socket.end(frame(FRAME.decline, "stopping"));
    socket.write(frame(FRAME.accepted, ""));
    active++;
    const call: Call = { cwd: request.cwd, frames: [] };
    void calls
      .run(call, () => runCli(request.argv!, COMMANDS, host))
      .then((code) => {
        if (call.declined !== undefined) return void socket.end(frame(FRAME.decline, call.declined));
        served++;
        const exit = Buffer.alloc(4);
        exit.writeInt32BE(code, 0);
        socket.end(Buffer.concat([...call.frames, frame(FRAME.exit, exit)]));
      })
      .finally(() => {
        active--;
        touch();
      });
  });

  // Warm up while no one waits: the index and its graph, the word index, the tokenizer.
  void engines
    .engineFor()
    .then(async (engine) => {
      const r = await engine.refresh();
      if (r.sourceFiles > 0) await engine.search("warm up").catch(() => {});
      await loadTokenCounter("o200k_base").catch(() => {});
    })
    .catch(() => {});
}
