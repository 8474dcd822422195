#!/usr/bin/env node
/** The `codeslice` command line: argument parsing, one engine call per command, rendering. */
import { parseArgs } from "node:util";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import * as nodePath from "node:path";
import { cite, createEngine, ENCODINGS, LIMITS, TESTS_MODES, type Encoding, type Engine, type TestsMode } from "../index.ts";
import { createHostPlatform } from "./platform.ts";
import { EXIT, UsageError, createProgressReporter, reportError, writeJson, writeOut } from "./output.ts";
import { renderIndexSummary, renderSearch } from "./render.ts";
import { readBinary, writeBinary } from "./files.ts";
import type { ConfigClient, ServerCommand } from "../mcp/client-config.ts";

/** Commands that take one positional argument. */
const ARG_COMMANDS = new Set(["callers", "callees", "importers", "tests", "impact", "signature", "context", "pack", "search", "locate"]);

// Never throws at load: under Deno without --allow-read, main() must still run to name the missing flag.
const VERSION = (() => {
  try {
    return (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }).version;
  } catch {
    return "unknown";
  }
})();

const HELP = `codeslice ${VERSION}: a code-context engine for AI coding agents

Usage: codeslice <command> [options]

Commands:
  index               Index the project (incremental) and print a summary
  map                 Print the repo map: languages, layout, most referenced symbols
  context <target>    The smallest bundle of whole symbols for a target, within --budget
                      (target: symbol, path::symbol, file path, "METHOD /path", or words;
                      at most ${LIMITS.targetChars} characters)
  pack "<task>"       Like context, seeded by the best search hits for a task in words
  locate "<task>"     Where a task points (a whole bug report, an error, a commit message):
                      ranked files and functions with the evidence for each
  search <words>      Find symbols by name, path, signature and docstring words
  callers <symbol>    Who calls a symbol (--depth N for transitive callers), one page at a time
  callees <symbol>    What a symbol calls, including external packages
  importers <file>    Files that import a file (--depth N)
  tests <target>      The tests that exercise a symbol or file, with runnable ids and commands
  impact <target>     The blast radius of a symbol, file or path:lines (--direction up|down|both,
                      --depth N, default 3): by depth, routes and tests reached, a risk summary
  trace <from> <to>   Shortest call/inheritance/import paths from a symbol or "METHOD /path" to a symbol
  signature <symbol>  Header and docstring without the body; classes with members stubbed
  changes             What changed (working tree vs HEAD, --staged, --base/--head, --diff)
                      and what it reaches: callers, routes, tests, within --budget
  graph               Print the code graph as JSON (graph-gold format)
  scip --out FILE     Write the code graph as a SCIP index (Sourcegraph and other code intelligence)
  mcp                 Serve the tools to an agent over MCP stdio (codeslice mcp --help)

Symbols: qualified (pkg.mod.Class.method, src/a.ts#Class.method), path::Class.method,
a dotted suffix (Class.method) or a bare name when unique.

Options:
  --root DIR       Project folder (default: current folder)
  --cache-dir DIR  Where the index is kept (default: <root>/.codeslice)
  --depth N        Hops for callers/callees/importers (${LIMITS.depth.min}-${LIMITS.depth.max}, default ${LIMITS.depth.default}) and impact (default 3)
  --budget N       Token budget for the whole answer, ${LIMITS.budget.min}-${LIMITS.budget.max}
                   (context/pack default ${LIMITS.budget.context}, map ${LIMITS.budget.map},
                   callers/callees/importers/tests/trace/impact ${LIMITS.budget.list})
  --limit N        Results for search (${LIMITS.searchResults.min}-${LIMITS.searchResults.max}, default ${LIMITS.searchResults.default}); entries per page for
                   callers, callees, importers, tests and impact (default 50, at most ${LIMITS.page.max})
  --cursor C       The next page of callers/callees/importers/tests/impact: the cursor a page names
                   (it carries the tests filter, depth and impact's direction it was made with)
  --tests MODE     Test code in callers/callees/importers/impact: summary (default: production
                   listed, tests counted by file), include, exclude or only
  --k N            Paths for trace (default 3, at most ${LIMITS.trace.paths.max})
  --max-hops N     Hops trace searches (default 6, at most ${LIMITS.trace.hops.max})
  --encoding E     Tokenizer: ${ENCODINGS.join(" (default) or ")}
  --max-file-bytes N  Skip files larger than N bytes (default ${LIMITS.maxFileBytes})
  --jobs N         Threads that parse (default: the cores minus one, at most 8; 1 parses in the main thread)
  --export FILE    index: also write the index as a portable artifact another machine can load
  --import FILE    index: load such an artifact first, then index (only files that differ are parsed)
  --json           Machine-readable output on stdout
  --quiet          No progress bar (shown on a terminal's stderr for runs over a second)
  -h, --help       Show this help (also: codeslice <command> --help)
  -v, --version    Print the version

Exit codes: 0 success, 1 the engine could not answer (message on stderr), 2 bad usage.
`;

const COMMAND_HELP: Record<string, string> = {
  mcp: `Usage: codeslice mcp [--root DIR] [--cache-dir DIR] [--log-level L] [--max-response-tokens N]
       codeslice mcp --print-config <client> [same options]

Serves codeslice's tools (repo_map, context, search, signature, callers, callees, importers,
tests, trace, impact, changes, read_snippet, pack), resources (codeslice://map, codeslice://outline/<path>,
codeslice://symbol/<name>) and prompts (explain_symbol, review_diff, plan_change) to an AI
agent over the Model Context Protocol on stdin/stdout. The project is --root DIR (or a
positional folder), else the folder the client starts the server in. The first tool call
indexes it; later calls notice edits on their own.

Setup: --print-config claude-code|cursor|vscode|codex|deno prints the snippet that registers
this codeslice with that client (deno: Claude Code's line, run under Deno), with its absolute
path; the options given with it go into the snippet. For example:
  codeslice mcp --print-config claude-code     # then run the line it prints
  codeslice mcp --print-config cursor > .cursor/mcp.json

Options:
  --root DIR                 Project folder (default: current folder)
  --cache-dir DIR            Where the index is kept (default: <root>/.codeslice)
  --log-level L              debug, info, warn (default), error or silent; logs go to stderr
  --max-response-tokens N    Largest answer in tokens, text and structured content together
                             (default ${LIMITS.responseTokens.default}, at least ${LIMITS.responseTokens.min})
  --print-config CLIENT      Print the client's setup snippet instead of serving
`,
  index: `Usage: codeslice index [--root DIR] [--cache-dir DIR] [--jobs N] [--json]
       codeslice index --export FILE [same options]
       codeslice index --import FILE [same options]

Scans the project (git-aware: tracked files plus untracked files git would not ignore),
parses supported files with tree-sitter and stores per-file records in the cache folder.
A second run re-parses only files whose content changed. Prints files by language, symbols,
skipped files with reasons, and the time taken. --jobs N parses on N threads (default: the
cores minus one, at most 8; 1 parses in the main thread); the index is the same for every N.

--export FILE  After indexing, writes the index as one portable file ("-": stdout): the
               records and the file list, paths relative to the root, versioned and
               SHA-256-checksummed. Build it once (in CI), load it anywhere.
--import FILE  Before indexing, loads such a file ("-": stdin) into the cache folder,
               replacing the index there; the project may sit under another path. Every
               part is checked first and nothing is written unless all of it holds: a
               file that is not an artifact, cut short, damaged, or made by another
               codeslice version is refused (exit 1) with the reason. The index that
               follows reads each file once and parses only files that differ.
`,
  scip: `Usage: codeslice scip --out FILE [--project NAME] [--root DIR] [--json]

Writes the code graph as a SCIP index (github.com/sourcegraph/scip; "-": stdout), the
protobuf format Sourcegraph and other code-intelligence services ingest: one document per
indexed file with its language, an occurrence for every definition, call site and import,
and per symbol its kind, docstring, signature and relationships (a class to the classes and
interfaces it extends or implements, an overriding method to the method it overrides).
Symbols read "codeslice . NAME . path/\`file.py\`/Class#method()." with NAME from --project
(default: the root folder's name). Indexes first if needed. Prints the counts it wrote.
`,
  map: `Usage: codeslice map [--root DIR] [--budget N] [--encoding E] [--json]

Prints a map of the project fitted to --budget tokens (default ${LIMITS.budget.map}, counted with the real tokenizer):
languages, top-level layout and the most referenced symbols with path:line citations.
Indexes first if needed.
`,
  graph: `Usage: codeslice graph [--root DIR] --json [--min-confidence X]

Prints the code graph (definitions, call edges, import edges, inherits) as JSON in the
code-graph-gold/1 shape, for scoring and for tools. Each call edge carries how it was
resolved (scope, import, self, type, unique-name) and a confidence; --min-confidence drops
edges below X (0-1).
`,
  context: `Usage: codeslice context <target> [--budget N] [--encoding E] [--json]

Prints the smallest bundle of whole symbols that answers <target>, within --budget tokens
(default ${LIMITS.budget.context}, ${LIMITS.budget.min}-${LIMITS.budget.max}) counted over the whole answer with the real tokenizer. Chunks come in
priority order, each headed "## path:start-end [role] name": the seed, the types it uses,
its callees, its callers, mount lines (for routes) and witnesses (tests). A chunk that does
not fit in full is shown as an outline, else listed as cut with its token cost.

Targets: a symbol (Session.send, pkg.mod.func, src/a.ts#Class.method), path::symbol,
a file path, an HTTP route ("POST /api/users", prefixes followed through mounts),
or a few words (search picks the seed and says which).
`,
  pack: `Usage: codeslice pack "<task in words>" [--budget N] [--encoding E] [--json]

Searches for the symbols that best match the task and fills the budget around them
(default ${LIMITS.budget.context} tokens), like context with several seeds. The task is at most
${LIMITS.targetChars} characters.
`,
  locate: `Usage: codeslice locate "<task>" [--limit N] [--budget N] [--json]

Ranks the files a task points at and, under each, its functions and classes, with the evidence
that put each there: trace frames mapped into the project (by path suffix, so a traceback from an
installed copy or another machine works), paths and names the task gives, the task's words each
file holds. Pass the task whole (a bug report with its code blocks, tracebacks and logs, up to
${LIMITS.targetChars} characters; - reads it from standard input).

--limit N: files, 1-50 (default 10). --budget N: tokens for the text (default 600).
--json: { "files": [ { "path", "score", "why", "symbols": [ { "qualified", "line", "score" } ] } ], … }
`,
  search: `Usage: codeslice search <words> [--limit N] [--json]

--limit N: ${LIMITS.searchResults.min}-${LIMITS.searchResults.max} results (default ${LIMITS.searchResults.default}).

Finds symbols whose names, paths, signatures or docstrings contain the words; identifiers
are split on camelCase and snake_case. Name matches rank above docstring matches.
`,
  callers: `Usage: codeslice callers <symbol> [--depth N] [--limit N] [--cursor C] [--tests MODE] [--budget N] [--json]

Lists the call sites that call <symbol>, each with the calling symbol, path:line, how the
call was resolved and a confidence (and, in a test, the test's runnable id). --depth N
(at most ${LIMITS.depth.max}) follows callers of callers. Calls that only match by name (several definitions share it)
are listed separately as possible callers.

One page at a time: --limit entries (default 50) within --budget tokens (default 4000),
production code first; test code is counted by file unless --tests include (everything,
production first), exclude or only. The answer states the totals, names the cursor of the
next page (--cursor C) and says what it could not see: call sites naming the symbol that
are linked to nothing, files with syntax errors, languages whose calls are not extracted,
overriding methods reached by dynamic dispatch.
`,
  callees: `Usage: codeslice callees <symbol> [--depth N] [--limit N] [--cursor C] [--tests MODE] [--budget N] [--json]

Lists what <symbol> calls (project symbols with path:line and resolution), then calls into
external packages and the standard library; paged like callers, and says which of its
calls are linked to nothing.
`,
  importers: `Usage: codeslice importers <file> [--depth N] [--limit N] [--cursor C] [--tests MODE] [--budget N] [--json]

Lists the files that import <file> (a path relative to the project root); --depth N adds
the files that import those, and so on (at most ${LIMITS.depth.max} hops). Paged like callers; says which imports resolve to
no file and which files have syntax errors.
`,
  tests: `Usage: codeslice tests <symbol|file> [--depth N] [--limit N] [--cursor C] [--budget N] [--json]

Lists the tests that exercise a symbol or a file: test functions among its callers (through
helpers, up to --depth hops, default 2), test files that import its file and name it, and,
for languages whose calls are not extracted, tests that name it. Each comes with a runnable
id in its runner's own syntax (pytest node ids, Vitest/Jest -t names, go test -run, cargo
test paths, JUnit Class#method) and the command lines that run just those tests, with the
runner found from the project's manifests and configs. codeslice never runs them.
`,
  trace: `Usage: codeslice trace <from> <to> [--k N] [--max-hops N] [--budget N] [--json]

The shortest paths (up to --k, default 3) from <from> (a symbol, or a route "METHOD /path")
to <to> (a symbol), within --max-hops hops (default 6), through calls, constructor and super
calls, inheritance, overriding methods (dynamic dispatch), type annotations and, between
files, imports. Each hop is cited with its line. When no path exists it says what was
searched, and whether <to> reaches <from> the other way round.
`,
  impact: `Usage: codeslice impact <symbol|file|path:start-end> [--direction up|down|both] [--depth N] [--limit N] [--cursor C] [--tests MODE] [--budget N] [--json]

What a change to <target> could break: its callers (--direction up, the default), what it
calls (down) or both, to --depth hops (default 3, at most ${LIMITS.depth.max}), grouped by depth, each
with the call site, how the call was resolved and a confidence (and the product of the
confidences along its path). A file stands for everything it defines; path:start-end for
the definitions those lines touch. The head of the answer is a risk summary: production
callers and the directories they sit in, routes whose handlers are reached, tests reached
(by calls, or test files importing the file) with runnable ids, and the deepest path.
Paged like callers: production code first, test code counted unless --tests include or only.
`,
  changes: `Usage: codeslice changes [--staged] [--base REF] [--head REF] [--diff FILE|-] [--budget N] [--json]

Lists what changed, by definition (added, removed, renamed, signature changed, body changed),
and answers with the changed code plus its impact as one bundle fitted to --budget tokens
(default 8000), each chunk headed "## path:start-end [role] name": the changed code
(signatures and removals first, as diffs), callers of changed signatures and code still
calling removed names, routes whose handlers reach the change, tests that reach it within
3 calls (or import a changed file), then callers of changed bodies. Cut chunks are listed.

What is compared:
  (nothing)              the working tree (untracked files included) against HEAD
  --staged               the index against HEAD
  --base REF             the working tree against REF
  --base A --head B      commit B against commit A
  --head REF             commit REF against its first parent
  --diff FILE, --diff -  a unified diff (git diff, diff -u, a PR's .diff/.patch) from a file
                         or stdin, matched against the files on disk: already applied, or
                         still to apply (then the changed code is cited as it would be)
REF: a commit id (or a prefix), a branch, a tag, HEAD, or any of those followed by ~N or ^N.
`,
  signature: `Usage: codeslice signature <symbol> [--json]

Prints the symbol's header and docstring without its body; for a class, its members'
headers with bodies stubbed. Cheaper than reading the file.
`,
};

interface Flags {
  root: string;
  cacheDir?: string;
  budget?: number;
  encoding?: Encoding;
  maxFileBytes?: number;
  jobs?: number;
  json: boolean;
  quiet: boolean;
}

function parseInteger(name: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value.trim())) throw new UsageError(`--${name} must be a whole number, got ${JSON.stringify(value)}`);
  const n = Number(value);
  if (n < min || n > max) throw new UsageError(`--${name} must be between ${min} and ${max}, got ${n}`);
  return n;
}

/** The --budget and --encoding flags, when given, as engine options. */
function budgetFlags(flags: Flags): { budget?: number; encoding?: Encoding } {
  return { ...(flags.budget !== undefined ? { budget: flags.budget } : {}), ...(flags.encoding ? { encoding: flags.encoding } : {}) };
}

async function makeEngine(flags: Flags): Promise<Engine> {
  const platform = await createHostPlatform({ root: flags.root, shortLived: true, ...(flags.cacheDir ? { cacheDir: flags.cacheDir } : {}) });
  // A cache folder inside the root must not be indexed itself.
  const rel = nodePath.relative(platform.fs.rootLabel, platform.store.label);
  const exclude = rel && !rel.startsWith("..") && !nodePath.isAbsolute(rel) ? [rel.split(nodePath.sep).join("/")] : [];
  return createEngine(platform, {
    exclude, ...(flags.maxFileBytes !== undefined ? { maxFileBytes: flags.maxFileBytes } : {}), ...(flags.jobs !== undefined ? { jobs: flags.jobs } : {}),
  });
}

/** One line about an index artifact: its size and what it holds. */
function artifactLine(a: { bytes: number; files: number; records: number }): string {
  return `${a.records.toLocaleString("en-US")} records for ${a.files.toLocaleString("en-US")} files, ${(a.bytes / 1048576).toFixed(1)} MB`;
}

/** The text of `--diff FILE`, or of stdin for `--diff -`. */
function readDiff(file: string): string {
  try {
    return readFileSync(file === "-" ? 0 : file, "utf8");
  } catch (error) {
    throw new UsageError(`cannot read the diff ${file === "-" ? "from stdin" : JSON.stringify(file)}: ${(error as Error).message.split("\n")[0]}`);
  }
}

/**
 * How a client should start this codeslice: an installed package by its bin (`node_modules/.bin`
 * of a local install, `<prefix>/bin` of a global one), a clone by node and the absolute path of
 * its dist/cli/main.js; under Deno, by that file.
 */
function serverCommands(): { node: ServerCommand; deno: ServerCommand } {
  const main = fileURLToPath(import.meta.url);
  // Deno run from its own npm cache (`deno run npm:codeslice`): that folder has no node_modules
  // for node to resolve from, so every client gets the npm: specifier Deno resolved.
  if (/[\\/]registry\.npmjs\.org[\\/]codeslice[\\/]/.test(main)) {
    const viaNpm = { command: "deno", args: ["run", "-A", `npm:codeslice@${VERSION}`, "mcp"] };
    return { node: viaNpm, deno: viaNpm };
  }
  const deno = { command: "deno", args: ["run", "-A", main, "mcp"] };
  const pkg = nodePath.resolve(main, "..", "..", "..");
  const modules = nodePath.dirname(pkg);
  if (nodePath.basename(modules) === "node_modules") {
    for (const bin of [nodePath.join(modules, ".bin", "codeslice"), nodePath.join(modules, "..", "..", "bin", "codeslice")]) {
      if (existsSync(bin)) return { node: { command: bin, args: ["mcp"] }, deno };
    }
  }
  return { node: { command: "node", args: [main, "mcp"] }, deno };
}

/** `codeslice mcp --print-config <client> [server options]`: the snippet on stdout, where it goes on stderr. */
async function printMcpConfig(args: string[], at: number): Promise<number> {
  const { CONFIG_CLIENTS, clientConfig } = await import("../mcp/client-config.ts");
  const { configArgs } = await import("../mcp/stdio.ts");
  const flag = args[at]!;
  const inline = flag.includes("=") ? flag.slice(flag.indexOf("=") + 1) : undefined;
  const client = inline ?? args[at + 1];
  const rest = [...args.slice(0, at), ...args.slice(at + (inline === undefined ? 2 : 1))];
  if (!client || !(CONFIG_CLIENTS as readonly string[]).includes(client)) {
    process.stderr.write(`codeslice mcp: --print-config takes one of ${CONFIG_CLIENTS.join(", ")}${client ? `, got ${JSON.stringify(client)}` : ""}\n`);
    return EXIT.usage;
  }
  let extra: string[];
  try {
    extra = configArgs(rest);
  } catch (error) {
    process.stderr.write(`codeslice mcp: ${(error as Error).message}\nRun \`codeslice mcp --help\` for usage.\n`);
    return EXIT.usage;
  }
  const config = clientConfig(client as ConfigClient, serverCommands(), extra);
  process.stderr.write(`# ${config.where}\n`);
  writeOut(config.snippet);
  return EXIT.ok;
}

async function main(argv: string[]): Promise<number> {
  // The MCP server parses its own options and runs until the client hangs up; loaded only here
  // so the other commands never pay for the MCP SDK.
  if (argv[0] === "mcp") {
    if (argv.includes("--help") || argv.includes("-h")) {
      writeOut(COMMAND_HELP.mcp!);
      return EXIT.ok;
    }
    const at = argv.findIndex((a) => a === "--print-config" || a.startsWith("--print-config="));
    if (at >= 0) return printMcpConfig(argv.slice(1), at - 1);
    const { runMcpStdio } = await import("../mcp/stdio.ts");
    return runMcpStdio(argv.slice(1), { version: VERSION, createPlatform: createHostPlatform });
  }
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        root: { type: "string" },
        "cache-dir": { type: "string" },
        budget: { type: "string" },
        encoding: { type: "string" },
        "max-file-bytes": { type: "string" },
        jobs: { type: "string" },
        depth: { type: "string" },
        "min-confidence": { type: "string" },
        staged: { type: "boolean", default: false },
        base: { type: "string" },
        head: { type: "string" },
        diff: { type: "string" },
        json: { type: "boolean", default: false },
        limit: { type: "string" },
        cursor: { type: "string" },
        tests: { type: "string" },
        k: { type: "string" },
        direction: { type: "string" },
        "max-hops": { type: "string" },
        export: { type: "string" },
        import: { type: "string" },
        out: { type: "string" },
        project: { type: "string" },
        quiet: { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
        version: { type: "boolean", short: "v", default: false },
      },
    });
  } catch (error) {
    return reportError(new UsageError((error as Error).message), false);
  }
  const { values, positionals } = parsed;
  const command = positionals[0];
  if (values.version) {
    writeOut(VERSION);
    return EXIT.ok;
  }
  if (values.help || !command) {
    writeOut(command && COMMAND_HELP[command] ? COMMAND_HELP[command] : HELP);
    return command || values.help ? EXIT.ok : EXIT.usage;
  }
  const json = values.json === true;
  try {
    if (!COMMAND_HELP[command]) throw new UsageError(`unknown command ${JSON.stringify(command)}`);
    const wantsArg = ARG_COMMANDS.has(command);
    if (wantsArg && positionals.length < 2) throw new UsageError(`${command} needs ${command === "importers" ? "a file" : command === "pack" || command === "locate" ? "a task" : command === "search" ? "words to search for" : command === "context" || command === "tests" || command === "impact" ? "a target" : "a symbol"}`);
    // Words may come unquoted (codeslice search parse config); symbols and files are one argument.
    if (wantsArg && positionals.length > 2 && !["search", "pack", "context", "locate"].includes(command)) throw new UsageError(`${command} takes exactly one argument`);
    if (command === "trace" && positionals.length !== 3) throw new UsageError(`trace takes two arguments, <from> and <to> (quote a route: "GET /users/{id}")`);
    // `-` reads a task from standard input (a bug report is long and full of quotes).
    const arg = command === "locate" && positionals[1] === "-" && positionals.length === 2 ? readFileSync(0, "utf8") : positionals.slice(1).join(" ");
    const limit = parseInteger("limit", values.limit, LIMITS.searchResults.min, command === "search" ? LIMITS.searchResults.max : LIMITS.page.max);
    if (!wantsArg && command !== "trace" && positionals.length > 1) throw new UsageError(`${command} takes no arguments, got ${JSON.stringify(positionals.slice(1).join(" "))}`);
    const tests = values.tests as TestsMode | undefined;
    if (tests !== undefined && !TESTS_MODES.includes(tests)) throw new UsageError(`--tests must be one of ${TESTS_MODES.join(", ")}`);
    const k = parseInteger("k", values.k, 1, LIMITS.trace.paths.max);
    const maxHops = parseInteger("max-hops", values["max-hops"], 1, LIMITS.trace.hops.max);
    // The paging options callers, callees, importers and tests share.
    const page = {
      ...(limit !== undefined ? { limit } : {}), ...(values.cursor !== undefined ? { cursor: values.cursor } : {}), ...(tests ? { tests } : {}),
    };
    const depth = parseInteger("depth", values.depth, LIMITS.depth.min, LIMITS.depth.max);
    const minConfidence = values["min-confidence"] === undefined ? undefined : Number(values["min-confidence"]);
    if (minConfidence !== undefined && !(minConfidence >= 0 && minConfidence <= 1)) throw new UsageError("--min-confidence must be a number from 0 to 1");
    const encoding = values.encoding as Encoding | undefined;
    if (encoding !== undefined && !ENCODINGS.includes(encoding)) throw new UsageError(`--encoding must be one of ${ENCODINGS.join(", ")}`);
    const budget = parseInteger("budget", values.budget, LIMITS.budget.min, LIMITS.budget.max);
    const maxFileBytes = parseInteger("max-file-bytes", values["max-file-bytes"], 1, 2 ** 31);
    const jobs = parseInteger("jobs", values.jobs, 1, 64);
    if (wantsArg && arg.length > LIMITS.targetChars) throw new UsageError(`the ${command === "pack" ? "task" : command === "search" ? "query" : "argument"} is ${arg.length} characters; the limit is ${LIMITS.targetChars}`);
    const flags: Flags = {
      root: values.root ?? process.cwd(),
      json,
      quiet: values.quiet === true,
      ...(values["cache-dir"] ? { cacheDir: values["cache-dir"] } : {}),
      ...(budget !== undefined ? { budget } : {}),
      ...(encoding ? { encoding } : {}),
      ...(maxFileBytes !== undefined ? { maxFileBytes } : {}),
      ...(jobs !== undefined ? { jobs } : {}),
    };
    const direction = values.direction;
    if (direction !== undefined && command !== "impact") throw new UsageError("--direction is an option of `codeslice impact`");
    if (direction !== undefined && !["up", "down", "both"].includes(direction)) throw new UsageError(`--direction must be up, down or both, got ${JSON.stringify(direction)}`);
    const changeFlags = ["staged", "base", "head", "diff"].filter((f) => values[f as "staged"] !== undefined && values[f as "staged"] !== false);
    if (command !== "changes" && changeFlags.length) throw new UsageError(`--${changeFlags[0]} is an option of \`codeslice changes\``);
    const diff = command === "changes" && values.diff !== undefined ? readDiff(values.diff) : undefined;
    for (const [flag, owner] of [["export", "index"], ["import", "index"], ["out", "scip"], ["project", "scip"]] as const) {
      if (values[flag] !== undefined && command !== owner) throw new UsageError(`--${flag} is an option of \`codeslice ${owner}\``);
    }
    if (values.export !== undefined && values.import !== undefined) throw new UsageError("--export and --import do not go together: import on one machine, export on another");
    if (command === "scip" && !values.out) throw new UsageError("scip needs --out FILE (\"-\" for stdout)");
    const artifact = values.import !== undefined ? readBinary(values.import, "index artifact") : undefined;
    const engine = await makeEngine(flags);
    const progress = createProgressReporter(!flags.quiet);
    const onProgress = (p: { phase: string; done: number; total?: number }) => progress.update(p.phase, p.done, p.total);
    try {
      switch (command) {
        case "index": {
          const imported = artifact ? await engine.importIndex(artifact) : undefined;
          const summary = await engine.index({ onProgress });
          progress.done();
          const artifactOut = values.export !== undefined ? await engine.exportIndex() : undefined;
          if (artifactOut) writeBinary(values.export!, [artifactOut.bytes]);
          const exported = artifactOut?.summary;
          // With the artifact on stdout, the summary goes to stderr.
          const say = values.export === "-" ? (text: string) => process.stderr.write(`${text}\n`) : writeOut;
          const notes = [
            ...(imported ? [`Imported ${values.import === "-" ? "stdin" : values.import}: ${artifactLine(imported)}`] : []),
            ...(exported ? [`Exported ${values.export === "-" ? "to stdout" : values.export}: ${artifactLine(exported)}`] : []),
          ];
          if (json) say(JSON.stringify({ ...summary, ...(imported ? { imported } : {}), ...(exported ? { exported: { file: values.export, ...exported } } : {}) }, null, 2));
          else say([renderIndexSummary(summary), ...notes].join("\n"));
          return EXIT.ok;
        }
        case "scip": {
          const answer = await engine.scip({ onProgress, toolVersion: VERSION, ...(values.project !== undefined ? { project: values.project } : {}) });
          progress.done();
          writeBinary(values.out!, answer.parts);
          const { parts: _parts, ...counts } = answer;
          const say = values.out === "-" ? (text: string) => process.stderr.write(`${text}\n`) : writeOut;
          if (json) say(JSON.stringify({ file: values.out, ...counts }, null, 2));
          else say(`Wrote ${values.out === "-" ? "the SCIP index to stdout" : values.out}: ${counts.documents} documents, ${counts.definitions} definitions, ${counts.references} references, ${counts.symbols} symbols, ${counts.relationships} relationships (${counts.bytes.toLocaleString("en-US")} bytes)`);
          return EXIT.ok;
        }
        case "map": {
          const map = await engine.map({ onProgress, ...(flags.budget ? { budget: flags.budget } : {}), ...(flags.encoding ? { encoding: flags.encoding } : {}) });
          progress.done();
          if (json) {
            const { text: _t, ...data } = map;
            writeJson({ ...data, text: map.text });
          } else writeOut(map.text);
          return EXIT.ok;
        }
        case "context":
        case "pack": {
          const answer = await engine[command](arg, {
            onProgress, ...(flags.budget !== undefined ? { budget: flags.budget } : {}), ...(flags.encoding ? { encoding: flags.encoding } : {}),
          });
          progress.done();
          if (json) writeJson(answer);
          else writeOut(answer.text);
          return EXIT.ok;
        }
        case "locate": {
          const answer = await engine.locate(arg, {
            onProgress, ...(limit !== undefined ? { limit } : {}), ...(flags.budget !== undefined ? { budget: flags.budget } : {}), ...(flags.encoding ? { encoding: flags.encoding } : {}),
          });
          progress.done();
          if (json) writeJson(answer);
          else writeOut(answer.text);
          return EXIT.ok;
        }
        case "search": {
          const hits = await engine.search(arg, { onProgress, ...(limit ? { limit } : {}) });
          progress.done();
          if (json) writeJson({ query: arg, results: hits });
          else writeOut(renderSearch(arg, hits));
          return EXIT.ok;
        }
        case "callers":
        case "callees":
        case "importers":
        case "tests": {
          const answer = await engine[command](arg, {
            onProgress, ...(depth ? { depth } : {}), ...page, ...budgetFlags(flags), ...(json ? { json: true } : {}),
          });
          progress.done();
          if (json) writeJson(answer);
          else writeOut(answer.text);
          return EXIT.ok;
        }
        case "impact": {
          const answer = await engine.impact(arg, {
            onProgress, ...(depth ? { depth } : {}), ...(direction ? { direction: direction as "up" | "down" | "both" } : {}), ...page, ...budgetFlags(flags), ...(json ? { json: true } : {}),
          });
          progress.done();
          if (json) writeJson(answer);
          else writeOut(answer.text);
          return EXIT.ok;
        }
        case "trace": {
          const answer = await engine.trace(positionals[1]!, positionals[2]!, {
            onProgress, ...(k !== undefined ? { k } : {}), ...(maxHops !== undefined ? { maxHops } : {}), ...budgetFlags(flags), ...(json ? { json: true } : {}),
          });
          progress.done();
          if (json) writeJson(answer);
          else writeOut(answer.text);
          return EXIT.ok;
        }
        case "signature": {
          const answer = await engine.signature(arg, { onProgress });
          progress.done();
          if (json) writeJson(answer);
          else writeOut(`## ${cite(answer.symbol.path, answer.symbol.line, answer.symbol.end)} ${answer.symbol.qualified}\n${answer.text}`);
          return EXIT.ok;
        }
        case "changes": {
          const answer = await engine.changes({
            onProgress,
            ...(values.staged ? { staged: true } : {}),
            ...(values.base !== undefined ? { base: values.base } : {}),
            ...(values.head !== undefined ? { head: values.head } : {}),
            ...(diff !== undefined ? { diff } : {}),
            ...(flags.budget !== undefined ? { budget: flags.budget } : {}),
            ...(flags.encoding ? { encoding: flags.encoding } : {}),
          });
          progress.done();
          if (json) writeJson(answer);
          else writeOut(answer.text);
          return EXIT.ok;
        }
        case "graph": {
          const graph = await engine.graph({ onProgress, ...(minConfidence !== undefined ? { minConfidence } : {}) });
          progress.done();
          writeJson(graph);
          return EXIT.ok;
        }
      }
    } finally {
      progress.done();
    }
    return EXIT.ok;
  } catch (error) {
    return reportError(error, json, command);
  }
}

// A reader that stops early (`codeslice map | head`) closes the pipe: that is the reader's choice,
// not a failure, so stop quietly as other command-line tools do instead of crashing on EPIPE.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(process.exitCode ?? EXIT.ok);
    throw error;
  });
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.exitCode = reportError(error, false);
  },
);
