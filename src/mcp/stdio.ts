/**
 * `codeslice mcp`: the MCP server over stdio. Picks the root (--root, a positional folder, or the
 * working directory the client started us in), creates the Node platform and a watching engine,
 * and serves until stdin closes. Nothing is indexed before the first tool call, so `initialize`
 * answers at once. stdout carries protocol only: logs and stray console output go to stderr.
 */
import { parseArgs } from "node:util";
import * as nodePath from "node:path";
import {
  createEngine,
  type EngineError,
  isEngineError,
  type Engine,
  type Logger,
  type LogLevel,
  type Platform,
} from "../index.ts";
import { createMcpServer, DEFAULT_MAX_RESPONSE_TOKENS, MIN_MAX_RESPONSE_TOKENS } from "./server.ts";
import { StdioServerTransport } from "./stdio-transport.ts";
import type { McpLogger } from "./tool.ts";
import { entriesFromRoots, openGroup, readGroupFile, type GroupEntry } from "./group-file.ts";
import { quoted } from "../shared/quote.ts";

const LEVELS: readonly LogLevel[] = ["debug", "info", "warn", "error", "silent"];

/** A logger writing `codeslice mcp: level: message` lines to stderr, at `level` and above. */
export function createStderrLogger(level: LogLevel): McpLogger {
  const min = LEVELS.indexOf(level);
  const at = (l: Exclude<LogLevel, "silent">) => (message: string) => {
    if (LEVELS.indexOf(l) >= min) process.stderr.write(`codeslice mcp: ${l}: ${message}\n`);
  };
  return { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

/** Options of `codeslice mcp`. */
export interface StdioOptions {
  root: string;
  /** More than one repository (`--root` more than once, or `--group FILE`): served as a group. */
  group?: GroupEntry[];
  cacheDir?: string;
  logLevel: LogLevel;
  maxResponseTokens: number;
  /** Serve run_tests (`--allow-run`). */
  allowRun?: boolean;
}

/** Parses `codeslice mcp` arguments; throws a message for the user on bad usage. */
export function parseStdioArgs(argv: string[], cwd = process.cwd()): StdioOptions {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      root: { type: "string", multiple: true },
      group: { type: "string" },
      "cache-dir": { type: "string" },
      "log-level": { type: "string" },
      "max-response-tokens": { type: "string" },
      "allow-run": { type: "boolean" },
    },
  });
  const roots = values.root ?? [];
  const [positional] = positionals;
  // A positional folder is --root DIR written short: with --root, both must name the same folder.
  const same = roots.length === 1 && nodePath.resolve(cwd, roots[0]!) === nodePath.resolve(cwd, positional ?? ".");
  if (positionals.length > 1 || (positional !== undefined && ((roots.length > 0 && !same) || values.group))) {
    throw new Error(
      `mcp takes one project folder (--root DIR or a positional one; --root more than once or --group FILE for ` +
        `several), got ${[...roots, ...positionals].filter(Boolean).join(" and ")}`,
    );
  }
  if (values.group !== undefined && roots.length) throw new Error("mcp takes --group FILE or --root folders, not both");
  let group: GroupEntry[] | undefined;
  try {
    group =
      values.group !== undefined
        ? readGroupFile(nodePath.resolve(cwd, values.group))
        : roots.length > 1
          ? entriesFromRoots(roots, cwd)
          : undefined;
  } catch (error) {
    throw new Error((error as Error).message);
  }
  const logLevel = (values["log-level"] ?? "warn") as LogLevel;
  if (!LEVELS.includes(logLevel)) throw new Error(`--log-level must be one of ${LEVELS.join(", ")}`);
  const capText = values["max-response-tokens"];
  const maxResponseTokens = capText === undefined ? DEFAULT_MAX_RESPONSE_TOKENS : Number(capText);
  if (
    !/^\d+$/.test(capText ?? "0") ||
    !Number.isSafeInteger(maxResponseTokens) ||
    maxResponseTokens < MIN_MAX_RESPONSE_TOKENS
  ) {
    throw new Error(
      `--max-response-tokens must be a whole number ≥ ${MIN_MAX_RESPONSE_TOKENS}, got ${quoted(capText)}`,
    );
  }
  return {
    root: group ? group[0]!.root : nodePath.resolve(cwd, roots[0] ?? positionals[0] ?? "."),
    ...(group && group.length > 1 ? { group } : {}),
    ...(values["cache-dir"] ? { cacheDir: nodePath.resolve(cwd, values["cache-dir"]) } : {}),
    logLevel,
    maxResponseTokens,
    ...(values["allow-run"] ? { allowRun: true } : {}),
  };
}

/**
 * The server options given alongside `--print-config`, as the printed command should carry them:
 * checked as the server would check them, with folders made absolute (a client starts the server
 * elsewhere).
 */
export function configArgs(argv: string[], cwd = process.cwd()): string[] {
  const options = parseStdioArgs(argv, cwd);
  const given = (name: string) => argv.some((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  const positional = argv.some(
    (a, i) => !a.startsWith("-") && !(i > 0 && /^--(root|cache-dir|log-level|max-response-tokens)$/.test(argv[i - 1]!)),
  );
  // A group is printed as its folders, each named: the client starts the server elsewhere.
  const roots = options.group
    ? options.group.flatMap((e) => ["--root", `${e.name}=${e.root}`])
    : given("root") || positional
      ? ["--root", options.root]
      : [];
  return [
    ...roots,
    ...(options.cacheDir ? ["--cache-dir", options.cacheDir] : []),
    ...(given("log-level") ? ["--log-level", options.logLevel] : []),
    ...(given("max-response-tokens") ? ["--max-response-tokens", String(options.maxResponseTokens)] : []),
    ...(options.allowRun ? ["--allow-run"] : []),
  ];
}

/** An engine stand-in whose every call fails with `error` (the root could not be opened). */
function failingEngine(error: EngineError): Engine {
  return new Proxy({} as Engine, {
    get: (_target, prop) => (prop === "close" ? () => {} : prop === "then" ? undefined : () => Promise.reject(error)),
  });
}

/**
 * Runs the stdio server until stdin ends or a signal arrives. Returns the exit code: 0 after a
 * normal end of session, 2 for bad arguments (printed on stderr).
 */
export async function runMcpStdio(
  argv: string[],
  meta: {
    version: string;
    createPlatform: (options: { root: string; cacheDir?: string; logger?: Logger }) => Promise<Platform>;
  },
): Promise<number> {
  // Anything printed with console.* would corrupt the protocol stream.
  console.log = console.info = console.debug = console.warn = (...args: unknown[]) => console.error(...args);

  let options: StdioOptions;
  try {
    options = parseStdioArgs(argv);
  } catch (error) {
    process.stderr.write(`codeslice mcp: ${(error as Error).message}\nRun \`codeslice mcp --help\` for usage.\n`);
    return 2;
  }
  const log = createStderrLogger(options.logLevel);
  process.on("uncaughtException", (error) => log.error(`uncaught: ${error.stack ?? error.message}`));
  process.on("unhandledRejection", (reason) =>
    log.error(`unhandled rejection: ${(reason as Error)?.stack ?? String(reason)}`),
  );
  // The client hung up: nothing left to answer.
  process.stdout.on("error", () => process.exit(0));

  if (options.group) return serveGroup(options, options.group, meta, log);
  let engine: Engine;
  let fs;
  try {
    // The CLI picks the platform for the runtime (Node or Deno): detection stays in the front end.
    const platform = await meta.createPlatform({
      root: options.root,
      ...(options.cacheDir ? { cacheDir: options.cacheDir } : {}),
      logger: { log: (level, message) => log[level](message) },
    });
    fs = platform.fs;
    // A cache folder inside the root must not be indexed itself.
    const rel = nodePath.relative(platform.fs.rootLabel, platform.store.label);
    const exclude =
      rel && !rel.startsWith("..") && !nodePath.isAbsolute(rel) ? [rel.split(nodePath.sep).join("/")] : [];
    engine = createEngine(platform, { watch: true, exclude });
    log.info(`serving ${platform.fs.rootLabel} (index in ${platform.store.label})`);
  } catch (error) {
    if (!isEngineError(error)) throw error;
    // Serve anyway: every tool call then says what is wrong with the root, which the agent can
    // relay; a server that exits at start-up only shows the user "failed to connect".
    log.error(error.message);
    engine = failingEngine(error);
  }

  const server = createMcpServer(engine, {
    name: "codeslice",
    version: meta.version,
    maxResponseTokens: options.maxResponseTokens,
    ...(options.allowRun ? { allowRun: true } : {}),
    ...(fs ? { fs } : {}),
    log,
  });
  return serveUntilClosed(server, () => engine.close(), log);
}

/**
 * Serves a group of repositories: one engine each, every folder checked before any is opened. A
 * missing folder or one outside the group file's folder ends the server at start (exit 2, the
 * reason on stderr): a group half served would answer for some repositories and not others.
 */
async function serveGroup(
  options: StdioOptions,
  entries: GroupEntry[],
  meta: Parameters<typeof runMcpStdio>[1],
  log: McpLogger,
): Promise<number> {
  let opened;
  try {
    opened = await openGroup(entries, meta.createPlatform, {
      ...(options.cacheDir ? { cacheDir: options.cacheDir } : {}),
      logger: { log: (level, message) => log[level](message) },
      watch: true,
    });
  } catch (error) {
    if (!isEngineError(error)) throw error;
    process.stderr.write(`codeslice mcp: ${error.message}\n${error.hint ?? ""}\n`);
    return 2;
  }
  const { group } = opened;
  log.info(`serving ${group.members.map((m) => `${m.name} (${m.root})`).join(", ")}`);
  const first = group.members[0]!;
  const server = createMcpServer(first.engine, {
    name: "codeslice",
    version: meta.version,
    maxResponseTokens: options.maxResponseTokens,
    ...(options.allowRun ? { allowRun: true } : {}),
    group,
    log,
  });
  return serveUntilClosed(server, () => opened.close(), log);
}

/** Connects the server to stdio and waits for the client to hang up. */
async function serveUntilClosed(
  server: ReturnType<typeof createMcpServer>,
  close: () => void,
  log: McpLogger,
): Promise<number> {
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  const stop = () => void transport.close();
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  await server.connect(transport);
  await closed;
  close();
  log.info("session ended");
  // Leave once pending writes are flushed, even if a stray handle would keep the process alive.
  setTimeout(() => process.exit(0), 500).unref();
  return 0;
}
