/**
 * `codeslice lsp`: the language server over stdio. The project is --root DIR (or a positional
 * folder), else the root the client opens, else the working directory. Opens the host platform
 * with the open documents laid over its file system and a watching engine (as the MCP server
 * does), and serves until the client exits. stdout carries protocol only: logs go to stderr.
 */
import { parseArgs } from "node:util";
import * as nodePath from "node:path";
import { availableParallelism } from "node:os";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  createConnection,
  ErrorCodes,
  ResponseError,
  StreamMessageReader,
  StreamMessageWriter,
} from "vscode-languageserver/node";
import { createEngine, isEngineError, type Logger, type LogLevel, type Platform } from "../index.ts";
import { LspHandlers } from "./handlers.ts";
import { OverlayFileSystem } from "./overlay-fs.ts";
import { serveLsp } from "./server.ts";
import { quoted } from "../shared/quote.ts";

const LEVELS: readonly LogLevel[] = ["debug", "info", "warn", "error", "silent"];

/** Options of `codeslice lsp`. */
export interface LspStdioOptions {
  /** The project folder when given on the command line; else the client's root decides. */
  root?: string;
  cacheDir?: string;
  logLevel: LogLevel;
  /** Parse threads; default: at least 2 (see {@link serverJobs}). */
  jobs?: number;
}

/**
 * The parse threads a server uses unless told: the engine's default (the cores minus one, at most
 * 8), but never fewer than 2. An editor's requests are answered on the engine's thread, so the
 * first index must not parse there: on this project's 2-core machines (load ~18) a cold index of
 * src/ in-thread stalled that thread for up to 1.3–1.5 s at a time, and with 2 parse workers for
 * 0.15 s, for a cold index 1.2 s longer (7.7 against 8.9 s). A cancel or a hover waits for a stall.
 */
export function serverJobs(given: number | undefined): number {
  return given ?? Math.max(2, Math.min(8, availableParallelism() - 1));
}

/** Parses `codeslice lsp` arguments; throws a message for the user on bad usage. */
export function parseLspArgs(argv: string[], cwd = process.cwd()): LspStdioOptions {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      root: { type: "string" },
      "cache-dir": { type: "string" },
      "log-level": { type: "string" },
      jobs: { type: "string" },
      stdio: { type: "boolean" },
    },
  });
  // A positional folder is --root DIR written short: with --root, both must name the same folder.
  const differs =
    positionals.length === 1 &&
    values.root !== undefined &&
    nodePath.resolve(cwd, values.root) !== nodePath.resolve(cwd, positionals[0]!);
  if (positionals.length > 1 || differs) {
    throw new Error(
      `lsp takes one project folder (--root DIR or a positional one), got ` +
        `${[values.root, ...positionals].filter(Boolean).join(" and ")}`,
    );
  }
  const logLevel = (values["log-level"] ?? "warn") as LogLevel;
  if (!LEVELS.includes(logLevel)) throw new Error(`--log-level must be one of ${LEVELS.join(", ")}`);
  const root = values.root ?? positionals[0];
  const jobs = values.jobs === undefined ? undefined : Number(values.jobs);
  if (jobs !== undefined && (!/^\d+$/.test(values.jobs!) || jobs < 1 || jobs > 64))
    throw new Error(`--jobs must be a whole number from 1 to 64, got ${quoted(values.jobs)}`);
  return {
    ...(jobs !== undefined ? { jobs } : {}),
    ...(root !== undefined ? { root: nodePath.resolve(cwd, root) } : {}),
    ...(values["cache-dir"] ? { cacheDir: nodePath.resolve(cwd, values["cache-dir"]) } : {}),
    logLevel,
  };
}

/** The folder to serve: the command line's, else the client's `file:` root, else the working directory. */
function chooseRoot(options: LspStdioOptions, clientRoot: string | undefined): string {
  if (options.root) return options.root;
  if (clientRoot?.startsWith("file:")) {
    try {
      return fileURLToPath(clientRoot);
    } catch {
      // not a local path: fall through
    }
  }
  return process.cwd();
}

/**
 * Runs the server until the client exits. Returns the exit code: 0 after the client's `exit`,
 * 2 for bad arguments (printed on stderr).
 */
export async function runLspStdio(
  argv: string[],
  meta: {
    version: string;
    createPlatform: (options: { root: string; cacheDir?: string; logger?: Logger }) => Promise<Platform>;
  },
): Promise<number> {
  // Anything printed with console.* would corrupt the protocol stream.
  console.log = console.info = console.debug = console.warn = (...args: unknown[]) => console.error(...args);
  let options: LspStdioOptions;
  try {
    options = parseLspArgs(argv);
  } catch (error) {
    process.stderr.write(`codeslice lsp: ${(error as Error).message}\nRun \`codeslice lsp --help\` for usage.\n`);
    return 2;
  }
  const min = LEVELS.indexOf(options.logLevel);
  const log = (level: Exclude<LogLevel, "silent">, message: string) => {
    if (LEVELS.indexOf(level) >= min) process.stderr.write(`codeslice lsp: ${level}: ${message}\n`);
  };
  process.on("uncaughtException", (error) => log("error", `uncaught: ${error.stack ?? error.message}`));
  process.on("unhandledRejection", (reason) =>
    log("error", `unhandled rejection: ${(reason as Error)?.stack ?? String(reason)}`),
  );

  const connection = createConnection(new StreamMessageReader(process.stdin), new StreamMessageWriter(process.stdout));
  let close = () => {};
  const exited = new Promise<void>((resolve) => connection.onExit(() => resolve()));
  serveLsp(connection, {
    version: meta.version,
    log,
    async createHandlers(clientRoot) {
      const root = chooseRoot(options, clientRoot);
      let platform: Platform;
      try {
        platform = await meta.createPlatform({
          root,
          ...(options.cacheDir ? { cacheDir: options.cacheDir } : {}),
          logger: { log },
        });
      } catch (error) {
        if (!isEngineError(error)) throw error;
        throw new ResponseError(
          ErrorCodes.InvalidParams,
          `${error.message} (start the server with --root DIR, or open a project folder)`,
          { code: error.code },
        );
      }
      // A cache folder inside the root must not be indexed itself.
      const rel = nodePath.relative(platform.fs.rootLabel, platform.store.label);
      const exclude =
        rel && !rel.startsWith("..") && !nodePath.isAbsolute(rel) ? [rel.split(nodePath.sep).join("/")] : [];
      const overlay = new OverlayFileSystem(platform.fs);
      const engine = createEngine(
        { ...platform, fs: overlay },
        { watch: true, exclude, jobs: serverJobs(options.jobs) },
      );
      close = () => engine.close();
      log("info", `serving ${platform.fs.rootLabel} (index in ${platform.store.label})`);
      return new LspHandlers({ engine, overlay, rootUri: pathToFileURL(platform.fs.rootLabel).href });
    },
  });
  // The client hung up without `exit`: nothing left to answer.
  process.stdin.on("end", () => process.exit(0));
  await exited;
  close();
  setTimeout(() => process.exit(0), 200).unref();
  return 0;
}
