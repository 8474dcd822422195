/**
 * The warm CLI's caller side: decides whether a command line may be answered by the project's
 * background server, asks it, and starts one when there is none. Loaded by main.ts before
 * anything else, so it imports only node's own modules and warm-socket.ts: a call the server
 * answers never loads the engine, the grammars or the tokenizer.
 */
import {
  builtin,
  FRAME,
  frameReader,
  refuseSocket,
  SERVE_WORD,
  socketLocation,
  type Refusal,
  type SocketLocation,
  type WarmRequest,
} from "./warm-socket.ts";

// node's own modules without ESM imports (see builtin): the caller's start is most of a served call.
const fs = builtin("node:fs");
const nodePath = builtin("node:path");

/**
 * The commands the server answers: they read the index and print an answer. The others stay in
 * the calling process: `index`, `graph`, `scip` (they write files or print whole indexes),
 * `changes` (diffs on stdin), `rename` (its `--apply` writes the project's files), `mcp` and `lsp`
 * (servers of their own) and `stop`.
 */
export const SERVED_COMMANDS: ReadonlySet<string> = new Set([
  "map",
  "context",
  "pack",
  "locate",
  "search",
  "grep",
  "callers",
  "callees",
  "importers",
  "tests",
  "impact",
  "trace",
  "dataflow",
  "query",
  "routes",
  "shape-check",
  "tools",
  "signature",
  "check",
]);

/**
 * The commands whose one argument is the project folder (`map ../api` is `map --root ../api`; see rootArg in
 * flags.ts; test/cli/warm-server.test.ts checks the set against the table).
 */
export const ROOT_ARG_COMMANDS: ReadonlySet<string> = new Set([
  "index",
  "map",
  "routes",
  "graph",
  "scip",
  "check",
  "stop",
  "tools",
  "mcp",
  "lsp",
]);

/** Every flag of the command table that takes a value (test/cli/warm-server.test.ts checks it against the table). */
export const VALUE_FLAGS: ReadonlySet<string> = new Set([
  "apply",
  "base",
  "budget",
  "cache-dir",
  "config",
  "cursor",
  "depth",
  "diff",
  "direction",
  "encoding",
  "export",
  "format",
  "group",
  "head",
  "import",
  "jobs",
  "k",
  "kind",
  "limit",
  "line",
  "log-level",
  "max-file-bytes",
  "max-hops",
  "max-matches",
  "max-response-tokens",
  "method",
  "min-confidence",
  "out",
  "paths",
  "prefix",
  "print-config",
  "project",
  "remove",
  "rename",
  "repo",
  "root",
  "tests",
  "time",
  "time-ms",
  "timeout",
  "var",
]);

/** A command line the server may answer: the project it is about. */
export interface WarmPlan {
  /** The project root, a real path. */
  root: string;
  /** Its cache folder, absolute. */
  cacheDir: string;
  location: SocketLocation;
  argv: string[];
  cwd: string;
}

/** A value that turns a switch on: set, and not "0" or "false". */
function on(value: string | undefined): boolean {
  return value !== undefined && value !== "" && value !== "0" && value.toLowerCase() !== "false";
}

/**
 * Whether the warm CLI is on for this process: off with `CODESLICE_NO_SERVER=1`; on with
 * `CODESLICE_SERVER=1`; else off under CI (the `CI` variable set, as CI services do), on elsewhere.
 * Off under Deno and on Windows (named pipes are not built yet).
 */
export function serverEnabled(env: NodeJS.ProcessEnv): boolean {
  // First, before reading the environment: Deno without --allow-env refuses that read.
  if ((globalThis as { Deno?: unknown }).Deno !== undefined || process.platform === "win32") return false;
  if (on(env.CODESLICE_NO_SERVER)) return false;
  if (on(env.CODESLICE_SERVER)) return true;
  return !on(env.CI);
}

/**
 * The plan for `argv`, or undefined when this call must run in-process: the server is off, the
 * command is not one it serves, the line asks for help, the version, `--no-server`, reads stdin
 * ("-"), or is not spelled plainly enough to read here (short flags, `--`, a value missing: the
 * full CLI reports those), asks for debug output, or names a root that does not exist.
 */
export function planWarm(argv: readonly string[], env: NodeJS.ProcessEnv, cwd: string): WarmPlan | undefined {
  if (!serverEnabled(env) || on(env.CODESLICE_DEBUG)) return undefined;
  const values = new Map<string, string>();
  const words: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === "-") return undefined;
    if (word.length < 2 || !word.startsWith("-")) {
      words.push(word);
      continue;
    }
    if (!word.startsWith("--") || word === "--") return undefined;
    const eq = word.indexOf("=");
    const name = word.slice(2, eq < 0 ? undefined : eq);
    if (name === "help" || name === "version" || name === "no-server") return undefined;
    // `tests --run` starts the project's test runner: in the caller's process, with the caller's
    // environment (PATH, PYTHONPATH, a virtualenv) and no server call timeout over a long suite.
    if (name === "run") return undefined;
    if (!VALUE_FLAGS.has(name)) continue;
    // --root more than once is a group of repositories: answered in-process, one engine per folder.
    if (name === "root" && values.has("root")) return undefined;
    const value = eq >= 0 ? word.slice(eq + 1) : argv[++i];
    if (value === undefined || value === "" || value === "-") return undefined;
    values.set(name, value);
  }
  const [command, positionalRoot] = words;
  if (command === undefined || !SERVED_COMMANDS.has(command)) return undefined;
  const given = values.get("root");
  if (positionalRoot !== undefined && ROOT_ARG_COMMANDS.has(command)) {
    // Two folders, or two that differ, are a usage error the full CLI reports.
    if (words.length > 2) return undefined;
    if (given !== undefined && nodePath.resolve(cwd, given) !== nodePath.resolve(cwd, positionalRoot)) return undefined;
  }
  const rootWord = ROOT_ARG_COMMANDS.has(command) ? (positionalRoot ?? given) : given;
  let root: string;
  try {
    root = fs.realpathSync(nodePath.resolve(cwd, rootWord ?? "."));
  } catch {
    return undefined;
  }
  const cacheGiven = values.get("cache-dir");
  const cacheDir = cacheGiven !== undefined ? nodePath.resolve(cwd, cacheGiven) : nodePath.join(root, ".codeslice");
  return { root, cacheDir, location: socketLocation(root, cacheDir, env), argv: [...argv], cwd };
}

/** What asking the server came to. */
export type WarmOutcome =
  | { answered: true; code: number; stdout: Buffer[]; stderr: Buffer[] }
  | { answered: false; reason: Refusal | "refused" | "declined" | "broken" | "timeout"; detail?: string };

/** How long a caller waits for the server to accept a call before answering in-process. */
const ACCEPT_TIMEOUT_MS = 2_000;

/**
 * Sends one request to the server at `location` and collects its answer whole (so a server that
 * dies halfway leaves nothing printed and the call can still be answered in-process). A socket
 * that fails the ownership and mode checks is never connected to.
 */
export function askServer(location: SocketLocation, request: WarmRequest): Promise<WarmOutcome> {
  const refusal = refuseSocket(location);
  if (refusal) return Promise.resolve({ answered: false, reason: refusal });
  return new Promise((resolve) => {
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let settled = false;
    const socket = builtin("node:net").createConnection(location.path);
    const finish = (outcome: WarmOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(() => finish({ answered: false, reason: "timeout" }), ACCEPT_TIMEOUT_MS);
    const reader = frameReader();
    socket.on("connect", () => socket.write(`${JSON.stringify(request)}\n`));
    socket.on("error", (error: NodeJS.ErrnoException) =>
      finish({
        answered: false,
        reason: error.code === "ECONNREFUSED" || error.code === "ENOENT" ? "refused" : "broken",
        detail: error.code ?? error.message,
      }),
    );
    socket.on("close", () => finish({ answered: false, reason: "broken" }));
    socket.on("data", (chunk: Buffer) => {
      for (const { kind, payload } of reader.push(chunk)) {
        if (kind === FRAME.accepted) clearTimeout(timer);
        else if (kind === FRAME.stdout) stdout.push(Buffer.from(payload));
        else if (kind === FRAME.stderr) stderr.push(Buffer.from(payload));
        else if (kind === FRAME.decline)
          finish({ answered: false, reason: "declined", detail: payload.toString("utf8") });
        else if (kind === FRAME.stopped) finish({ answered: true, code: 0, stdout, stderr });
        else if (kind === FRAME.exit) finish({ answered: true, code: payload.readInt32BE(0), stdout, stderr });
      }
    });
  });
}

/** Whether a call answered in-process after `outcome` should start a server for the next one. */
export function shouldStartServer(outcome: WarmOutcome | undefined): boolean {
  if (!outcome || outcome.answered) return false;
  // A foreign or open socket is not replaced; a declined call means a live server (another
  // version's has just exited: start ours), and "timeout" a busy one.
  if (outcome.reason === "declined") return outcome.detail === "version";
  return outcome.reason === "missing" || outcome.reason === "refused" || outcome.reason === "broken";
}

/**
 * Starts the server for `plan`'s project, detached from this process (it outlives the call,
 * with no terminal and no open stdio), running the same file this call runs (`entry`); not
 * when the cache folder is not codeslice's or cannot be written.
 */
export function startServer(plan: WarmPlan, entry: string): void {
  try {
    // Where a server could not listen (no cache folder of codeslice's, a read-only one), starting
    // one after every call would only cost a process each time.
    if (!fs.existsSync(nodePath.join(plan.cacheDir, "CACHEDIR.TAG"))) return;
    fs.accessSync(nodePath.dirname(plan.location.privateDir ?? plan.location.path), fs.constants.W_OK);
    const child = builtin("node:child_process").spawn(
      process.execPath,
      [...process.execArgv, entry, SERVE_WORD, plan.root, plan.cacheDir],
      {
        detached: true,
        stdio: "ignore",
        cwd: plan.root,
        env: process.env,
      },
    );
    child.on("error", () => {});
    child.unref();
  } catch {
    // No server this time; the call was answered in-process and the next one tries again.
  }
}

/** Writes an answer the server gave; resolves when stdout and stderr have taken it. */
export async function writeAnswer(outcome: { stdout: Buffer[]; stderr: Buffer[] }): Promise<void> {
  const put = (stream: NodeJS.WriteStream, parts: Buffer[]) =>
    new Promise<void>((resolve) => {
      if (!parts.length) return resolve();
      stream.write(Buffer.concat(parts), () => resolve());
    });
  await Promise.all([put(process.stderr, outcome.stderr), put(process.stdout, outcome.stdout)]);
}
