/**
 * createMcpServer(engine): the MCP server over one engine. Every tool call first brings the index
 * up to date (the first call builds it, with progress notifications when the client asked for
 * them), then makes one engine call, renders it under the response cap and reports freshness.
 * Whatever goes wrong becomes a tool error with text saying what to do; nothing a client sends
 * can take the server down. The server also lists its tools itself (tool-list.ts: what a model
 * reads, no output schemas), serves the index as `codeslice://` resources (resources.ts) and
 * offers prompts for common flows (prompts.ts).
 */
import { z } from "zod";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  ListToolsRequestSchema,
  type CallToolResult,
  type ServerNotification,
  type ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  EngineError,
  LIMITS,
  loadTokenCounter,
  type Engine,
  type EngineGroup,
  type FileSystem,
  type Progress,
  type RefreshOptions,
  type RefreshResult,
} from "../index.ts";
import { noSourceText, toToolError } from "./errors.ts";
import { plural } from "./render.ts";
import { freshness as freshnessSchema } from "./schemas.ts";
import { leanContent, withoutProse } from "./lean.ts";
import { listedTool } from "./tool-list.ts";
import { unknownArgument } from "./unknown-args.ts";
import { registerPrompts } from "./prompts.ts";
import { registerResources } from "./resources.ts";
import type { McpLogger, ToolContext, ToolSpec } from "./tool.ts";
import { calleesTool } from "./tools/callees.ts";
import { changesTool } from "./tools/changes.ts";
import { checkTool } from "./tools/check.ts";
import { runTestsTool } from "./tools/run-tests.ts";
import { impactTool } from "./tools/impact.ts";
import { callersTool } from "./tools/callers.ts";
import { contextTool } from "./tools/context.ts";
import { dataflowTool } from "./tools/dataflow.ts";
import { importersTool } from "./tools/importers.ts";
import { packTool } from "./tools/pack.ts";
import { queryTool } from "./tools/query.ts";
import { locateTool } from "./tools/locate.ts";
import { readSnippetTool } from "./tools/read-snippet.ts";
import { renameTool } from "./tools/rename.ts";
import { repoMapTool } from "./tools/repo-map.ts";
import { searchTool } from "./tools/search.ts";
import { shapeCheckTool } from "./tools/shape-check.ts";
import { grepTool } from "./tools/grep.ts";
import { signatureTool } from "./tools/signature.ts";
import { testsTool } from "./tools/tests.ts";
import { traceTool } from "./tools/trace.ts";
import { listRepos, reposTool } from "./tools/repos.ts";
import { citeRepo, citesRepos, GROUP_INSTRUCTIONS, spansGroup, withRepoArg } from "./group.ts";

/** The group's repositories as a resource (served for a group only). */
export const REPOS_URI = "codeslice://repos";

/**
 * The key of an answer's `_meta` that says how fresh the index behind it is (`indexedAt`,
 * `refreshed`, `parsed`, `removed`, `mode`: {@link freshnessSchema}).
 */
export const FRESHNESS_META = "codeslice/freshness";

/** Default response cap: under Claude Code's 25,000-token limit for one tool result. */
export const DEFAULT_MAX_RESPONSE_TOKENS = LIMITS.responseTokens.default;
/** Smallest cap accepted: below this even a map header and a few entries would not fit. */
export const MIN_MAX_RESPONSE_TOKENS = LIMITS.responseTokens.min;
/**
 * Tokens the server keeps for the freshness line and field it adds to every answer (JSON and line together, well under
 * it).
 */
const FRESHNESS_RESERVE = 120;

/** Every tool, in the order clients list them (each spec's handler takes its own argument type). */
export const TOOLS: readonly ToolSpec[] = [
  repoMapTool,
  locateTool,
  contextTool,
  searchTool,
  grepTool,
  signatureTool,
  callersTool,
  calleesTool,
  importersTool,
  testsTool,
  traceTool,
  readSnippetTool,
  packTool,
  impactTool,
  changesTool,
  shapeCheckTool,
  checkTool,
  renameTool,
  queryTool,
  dataflowTool,
] as unknown as readonly ToolSpec[];

/** Tools that run the project's code: served only when the server is started with `allowRun` (`--allow-run`). */
export const RUN_TOOLS: readonly ToolSpec[] = [runTestsTool] as unknown as readonly ToolSpec[];

/** Told to the agent on connect. */
export const INSTRUCTIONS = [
  "codeslice answers questions about this repository's code from an index (files, symbols, imports, " +
    "calls), in a few hundred to a few thousand tokens, with exact citations.",
  "- Start with repo_map: the project's services, entry points, central symbols and layout, with the " +
    "names the other tools take.",
  "- Given a task (a bug report, an error, a feature request), pass it whole to locate: the files and " +
    "functions it points at, with the evidence.",
  '- To understand or change code, call context with a symbol, a file path, "METHOD /path" or a few ' +
    "words, instead of reading whole files: it returns the target with the types, callees, callers and " +
    "tests that matter, fitted to a token budget, and lists what it cut with handles to ask for.",
  "- Use signature to see how to call something, callers/callees/importers before changing it (one page " +
    "at a time: pass the cursor an answer names for the next), tests for the tests to run after a change " +
    "(with their commands), trace for how one symbol or route reaches another, search when you don't know " +
    "a name, read_snippet for exact lines that context did not include.",
  '- Use impact for what a change to a symbol, file or route ("METHOD /path": plus the client calls ' +
    "reaching it) could break (callers by depth, routes, tests, risk); shape_check for which consumers " +
    "read which fields of a response model, and what a field rename breaks; repo_map kind routes|tools " +
    "for the route map and the project's tools and commands; changes to review what changed (the working " +
    "tree, staged files, two commits or a pasted diff): the changed definitions with their callers, " +
    "routes and tests.",
  "- For a question no tool anticipates (e.g. which functions call X within 3 hops and live under db/), " +
    "call query with a read-only Cypher subset (codeslice://schema); kind flows|clusters lists execution " +
    "flows from entry points and clusters of files.",
  "- Cite code by the chunk headers (## path:start-end), which are exact line ranges in the current " + "files.",
  "- The index follows edits on its own; each answer says when it was refreshed.",
].join("\n");

/** Options for {@link createMcpServer}. */
export interface McpServerOptions {
  /** Name and version the server reports on initialize. */
  name?: string;
  version?: string;
  /** Largest answer in tokens: its text and the JSON of its structured content together; default 20,000. */
  maxResponseTokens?: number;
  /** The engine's file system: names the project root in messages. */
  fs?: FileSystem;
  log?: McpLogger;
  /** Serve run_tests, which starts the project's test runner (off by default: see docs/safety.md). */
  allowRun?: boolean;
  /**
   * Several repositories served together (`engine` is then the group's first member). With more
   * than one member every tool takes an optional `repo`, citations read `repo:path:line`, and the
   * `repos` tool lists them; with one, the server is exactly the single-root server.
   */
  group?: EngineGroup;
}

/** A logger that drops everything. */
export const silentLogger: McpLogger = { debug() {}, info() {}, warn() {}, error() {} };

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

interface Freshness {
  indexedAt: string;
  refreshed: boolean;
  parsed: number;
  removed: number;
  mode: string;
  /** Source files in the index: 0 makes every answer a no_supported_files error. */
  sourceFiles: number;
  /** Files in the inventory, for that error's message. */
  files: number;
  /** One line for the answer's text when something changed; empty otherwise. */
  line: string;
}

/** What an answer says about the index it came from: the refresh's figures and one line of text. */
function freshnessOf(r: RefreshResult): Freshness {
  const base = {
    indexedAt: new Date(r.at).toISOString().replace(/\.\d+Z$/, "Z"),
    refreshed: r.refreshed,
    parsed: r.parsed,
    removed: r.removed,
    mode: r.mode,
    sourceFiles: r.sourceFiles,
    files: r.files,
  };
  if (r.mode === "initial") {
    const files = plural(r.sourceFiles, "source file");
    const took = `${(r.durationMs / 1000).toFixed(1)} s`;
    return {
      ...base,
      line:
        r.parsed === 0
          ? `index loaded from the cache: ${files} in ${took}`
          : `index built: ${files} (${r.parsed} parsed) in ${took}`,
    };
  }
  return { ...base, line: r.refreshed ? `index refreshed: ${refreshWords(r.parsed, r.removed)}` : "" };
}

/** Throws no_supported_files when a refresh found no source file under `root`. */
function requireSources(r: RefreshResult, root: string): RefreshResult {
  if (r.sourceFiles === 0) {
    const { message, hint } = noSourceText(root, r.files);
    throw new EngineError("no_supported_files", message, { hint, data: { root, files: r.files } });
  }
  return r;
}

/** Creates the MCP server (not yet connected to a transport). */
export function createMcpServer(engine: Engine, options: McpServerOptions = {}): McpServer {
  const log = options.log ?? silentLogger;
  const responseCap = options.maxResponseTokens ?? DEFAULT_MAX_RESPONSE_TOKENS;
  if (!Number.isInteger(responseCap) || responseCap < MIN_MAX_RESPONSE_TOKENS) {
    throw new EngineError(
      "invalid_argument",
      `maxResponseTokens must be a whole number ≥ ${MIN_MAX_RESPONSE_TOKENS}, got ${responseCap}.`,
      { data: { maxResponseTokens: responseCap } },
    );
  }
  const root = options.fs?.rootLabel ?? "the project";
  const group = options.group && options.group.members.length > 1 ? options.group : undefined;
  const server = new McpServer(
    { name: options.name ?? "codeslice", version: options.version ?? "0.0.0" },
    {
      instructions: group ? `${INSTRUCTIONS}\n${GROUP_INSTRUCTIONS(group.members.map((m) => m.name))}` : INSTRUCTIONS,
      capabilities: { tools: { listChanged: false } },
    },
  );

  // Every refresh, whoever asks for it (a tool call, a resource read, the subscription poll), goes
  // through here so that subscribers hear of it and the first index is logged once.
  let resources: ReturnType<typeof registerResources> | undefined;
  const refreshOf = async (target: Engine, label: string, options: RefreshOptions = {}): Promise<RefreshResult> => {
    const r = await target.refresh(options);
    if (r.mode === "initial") {
      log.info(`indexed ${label}: ${r.sourceFiles} source files (${r.parsed} parsed) in ${r.durationMs} ms`);
      // The word-search index is built on first use (1.4 s on django); build it while the agent
      // reads the first answer rather than during its first search.
      if (r.sourceFiles > 0) setTimeout(() => void target.search("warm up").catch(() => {}), 100).unref?.();
    }
    if (target === engine) resources?.refreshed(r);
    return r;
  };
  const refresh = (options: RefreshOptions = {}) => refreshOf(engine, root, options);

  // The engine's refresh does the work: the first index shared by concurrent calls (each with its
  // progress), the settle re-scan after it, recovery after a failure, the root check. The server
  // reports what it says.
  const freshen = async (extra: Extra, rescan: boolean, target = engine, label = root): Promise<Freshness> => {
    const listener = progressSender(extra);
    const r = await refreshOf(target, label, {
      ...(listener ? { onProgress: listener } : {}),
      ...(rescan ? { rescan: true } : {}),
    });
    return freshnessOf(r);
  };

  const register = (tool: ToolSpec) => {
    const handler = async (given: Record<string, unknown>, extra: Extra): Promise<CallToolResult> => {
      const started = performance.now();
      try {
        const unknown = unknownArgument(tool, given);
        if (unknown) throw unknown;
        const { repo, ...args } = given;
        const member = group?.member(repo as string | undefined);
        const here = member?.root ?? root;
        const rescan = tool.rescan?.(args as never) === true;
        const fresh = await freshen(extra, rescan, member?.engine ?? engine, here);
        const spanning = group !== undefined && repo === undefined && spansGroup(tool.name);
        if (spanning) for (const m of group.members) if (m !== member) await freshen(extra, rescan, m.engine, m.root);
        if (fresh.sourceFiles === 0) {
          const { message, hint } = noSourceText(here, fresh.files);
          throw new EngineError("no_supported_files", message, { hint, data: { root: here, files: fresh.files } });
        }
        const count = await loadTokenCounter("o200k_base");
        const ctx: ToolContext = {
          engine: member?.engine ?? engine,
          root: here,
          ...(group && member ? { group, repo: member.name } : {}),
          ...(spanning ? { spanning } : {}),
          cap: responseCap - FRESHNESS_RESERVE,
          responseCap,
          count,
          measure: (text, data) => count(text) + count(JSON.stringify(data)),
          signal: extra.signal,
          log,
        };
        const answer = await tool.run(args as never, ctx);
        const { line, sourceFiles: _sources, files: _files, ...freshness } = fresh;
        // In a group every citation names its repository; the tools that span the group write their own.
        const one = member && !spanning ? member : undefined;
        const own = one && !citesRepos(tool.name, args) ? citeRepo(answer.text, one.name) : answer.text;
        const body = answer.suffix ? `${own}\n\n${answer.suffix}` : own;
        const text = line ? `${body}\n\n(${line}${one ? ` in ${one.name}` : ""})` : body;
        if (one) answer.data.repo = one.name;
        log.debug(`${tool.name} answered in ${(performance.now() - started).toFixed(1)} ms`);
        // Freshness is about the call, not the answer: in `_meta`, which clients keep from the model, so
        // the ~25 tokens it took in every answer's structured content are not paid again and again.
        return {
          content: [{ type: "text", text }],
          structuredContent: leanContent(answer.data) as Record<string, unknown>,
          _meta: { [FRESHNESS_META]: freshness },
        };
      } catch (error) {
        return toToolError(error, tool.name, log);
      }
    };
    // The SDK validates the arguments against `input` and routes the call; the list is ours. Unknown
    // arguments pass its check, to be refused by the handler with what to pass instead (unknown-args.ts).
    server.registerTool(
      tool.name,
      { title: tool.title, description: tool.description, inputSchema: tool.input.loose() },
      handler as never,
    );
  };
  const served = options.allowRun ? [...TOOLS, ...RUN_TOOLS] : TOOLS;
  const tools = group ? [...served.map(withRepoArg), reposTool as unknown as ToolSpec] : served;
  for (const tool of tools) register(tool);
  const listed = tools.map(listedTool);
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));

  resources = registerResources(server, {
    engine,
    cap: responseCap,
    log,
    refresh: async () => requireSources(await refresh(), root),
  });
  if (group) {
    server.registerResource(
      "repos",
      REPOS_URI,
      {
        title: "Repositories served",
        description: "The repositories of this group, with their folders and freshness.",
        mimeType: "text/markdown",
      },
      async () => ({
        contents: [{ uri: REPOS_URI, mimeType: "text/markdown", text: (await listRepos(group)).text }],
      }),
    );
  }
  registerPrompts(server, 3 * responseCap, async (budget) => {
    requireSources(await refresh(), root);
    return engine.mermaidMap({ budget });
  });
  // The SDK announces listChanged for every kind it registers; the tools and prompts never change.
  server.server.registerCapabilities({ tools: { listChanged: false }, prompts: { listChanged: false } });
  server.server.onclose = () => resources?.close();

  server.server.onerror = (error) => log.warn(`protocol error: ${error.message}`);
  // Load the tokenizer's tables (0.35 s) once the client is connected and idle, not during the
  // first answer; nothing is indexed before a tool asks.
  server.server.oninitialized = () => void loadTokenCounter("o200k_base").catch(() => {});
  return server;
}

function refreshWords(parsed: number, removed: number): string {
  const parts = [];
  if (parsed) parts.push(`${plural(parsed, "file")} re-parsed`);
  if (removed) parts.push(`${plural(removed, "file")} removed`);
  return parts.join(", ") || "no file changed";
}

/**
 * Progress notifications for one request, when it carries a progress token: one increasing
 * percentage (scan 0–10, parse 10–90, graph 90–100) with a message, at most every 100 ms.
 */
function progressSender(extra: Extra): ((p: Progress) => void) | undefined {
  const token = extra._meta?.progressToken;
  if (token === undefined) return undefined;
  let last = -1;
  let lastAt = 0;
  return (p) => {
    const pct =
      p.phase === "scan"
        ? Math.min(10, p.done / 200)
        : p.phase === "parse"
          ? 10 + (p.total ? (80 * p.done) / p.total : 0)
          : 90;
    const value = Math.round(pct * 10) / 10;
    const now = Date.now();
    // The spec wants progress to increase with every notification; phase changes always go out.
    if (value <= last || (now - lastAt < 100 && p.phase !== "graph" && value < 90)) return;
    last = value;
    lastAt = now;
    const message =
      p.phase === "scan"
        ? `scanning: ${p.done} files found`
        : p.phase === "parse"
          ? `parsing: ${p.done}${p.total ? `/${p.total}` : ""} files`
          : "building the code graph";
    extra
      .sendNotification({
        method: "notifications/progress",
        params: { progressToken: token, progress: value, total: 100, message },
      })
      .catch(() => {});
  };
}

export { expandContent } from "./lean.ts";

/** Tool names, for tests and docs. */
export const TOOL_NAMES = TOOLS.map((t) => t.name);

/**
 * The shape of a tool's structured content once {@link expandContent} has
 * turned the lean form the server sends (lean.ts) back into objects: the tool's output schema
 * without its prose fields. Not sent in `tools/list` (see tool-list.ts); the tests check every
 * answer against it, and programs can import it.
 */
export function structuredContentSchema(tool: ToolSpec) {
  return (withoutProse(tool.output) as z.ZodObject).extend({
    repo: z.string().optional().describe("The repository that answered (a group only)."),
  });
}
