/**
 * createMcpServer(engine): the MCP server over one engine. Every tool call first brings the index
 * up to date (the first call builds it, with progress notifications when the client asked for
 * them), then makes one engine call, renders it under the response cap and reports freshness.
 * Whatever goes wrong becomes a tool error with text saying what to do; nothing a client sends
 * can take the server down.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult, ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import { EngineError, isEngineError, LIMITS, loadTokenCounter, type Engine, type FileSystem, type Progress } from "../index.ts";
import { noSourceText, toToolError } from "./errors.ts";
import { plural } from "./render.ts";
import { freshness as freshnessSchema } from "./schemas.ts";
import type { McpLogger, ToolContext, ToolSpec } from "./tool.ts";
import { calleesTool } from "./tools/callees.ts";
import { callersTool } from "./tools/callers.ts";
import { contextTool } from "./tools/context.ts";
import { importersTool } from "./tools/importers.ts";
import { packTool } from "./tools/pack.ts";
import { readSnippetTool } from "./tools/read-snippet.ts";
import { repoMapTool } from "./tools/repo-map.ts";
import { searchTool } from "./tools/search.ts";
import { signatureTool } from "./tools/signature.ts";
import { testsTool } from "./tools/tests.ts";
import { traceTool } from "./tools/trace.ts";

/** Default response cap: under Claude Code's 25,000-token limit for one tool result. */
export const DEFAULT_MAX_RESPONSE_TOKENS = LIMITS.responseTokens.default;
/** Smallest cap accepted: below this even a map header and a few entries would not fit. */
export const MIN_MAX_RESPONSE_TOKENS = LIMITS.responseTokens.min;
/** Tokens the server keeps for the freshness line and field it adds to every answer. */
const FRESHNESS_RESERVE = 120;

/** Every tool, in the order clients list them (each spec's handler takes its own argument type). */
export const TOOLS: readonly ToolSpec[] = [
  repoMapTool, contextTool, searchTool, signatureTool, callersTool, calleesTool, importersTool, testsTool, traceTool, readSnippetTool, packTool,
] as unknown as readonly ToolSpec[];

/** Told to the agent on connect. */
export const INSTRUCTIONS = `codeslice answers questions about this repository's code from an index (files, symbols, imports, calls), in a few hundred to a few thousand tokens, with exact citations.
- Start with repo_map: the project's services, entry points, central symbols and layout, with the names the other tools take.
- To understand or change code, call context with a symbol, a file path, "METHOD /path" or a few words, instead of reading whole files: it returns the target with the types, callees, callers and tests that matter, fitted to a token budget, and lists what it cut with handles to ask for.
- Use signature to see how to call something, callers/callees/importers before changing it (one page at a time: pass the cursor an answer names for the next), tests for the tests to run after a change (with their commands), trace for how one symbol or route reaches another, search when you don't know a name, read_snippet for exact lines that context did not include.
- Cite code by the chunk headers (## path:start-end), which are exact line ranges in the current files.
- The index follows edits on its own; each answer says when it was refreshed.`;

/** Options for {@link createMcpServer}. */
export interface McpServerOptions {
  /** Name and version the server reports on initialize. */
  name?: string;
  version?: string;
  /** Largest answer in tokens (text, and the JSON of the structured content); default 20,000. */
  maxResponseTokens?: number;
  /** The engine's file system: used to check before each call that the project root still exists. */
  fs?: FileSystem;
  log?: McpLogger;
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
  /** One line for the answer's text when something changed; empty otherwise. */
  line: string;
}

/** Creates the MCP server (not yet connected to a transport). */
export function createMcpServer(engine: Engine, options: McpServerOptions = {}): McpServer {
  const log = options.log ?? silentLogger;
  const responseCap = options.maxResponseTokens ?? DEFAULT_MAX_RESPONSE_TOKENS;
  if (!Number.isInteger(responseCap) || responseCap < MIN_MAX_RESPONSE_TOKENS) {
    throw new EngineError("invalid_argument", `maxResponseTokens must be a whole number ≥ ${MIN_MAX_RESPONSE_TOKENS}, got ${responseCap}.`, { data: { maxResponseTokens: responseCap } });
  }
  const root = options.fs?.rootLabel ?? "the project";
  const server = new McpServer(
    { name: options.name ?? "codeslice", version: options.version ?? "0.0.0" },
    { instructions: INSTRUCTIONS, capabilities: { tools: { listChanged: false } } },
  );

  // The first index is shared by every call that arrives while it runs; each caller that sent a
  // progress token gets the notifications.
  let initial: Promise<{ durationMs: number; parsed: number }> | undefined;
  let initialDone = false;
  const progressListeners = new Set<(p: Progress) => void>();
  // After a failed refresh the engine may believe it is up to date; the next call re-scans fully.
  let rescanNext = false;
  // Source files in the index: checked after every change so an empty project is an error, not an empty answer.
  let sourceFiles: number | undefined;
  let inventoryFiles = 0;

  const checkRoot = async () => {
    if (!options.fs) return;
    try {
      const s = await options.fs.stat("");
      if (s.kind !== "directory") throw new EngineError("root_not_directory", `The project root is no longer a folder: ${root}`, { data: { root } });
    } catch (error) {
      if (isEngineError(error, "root_not_directory")) throw error;
      if (isEngineError(error, "not_found", "not_directory")) throw new EngineError("root_not_found", `The project root no longer exists: ${root}`, { data: { root }, cause: error });
      throw error;
    }
  };

  const countSources = async () => {
    sourceFiles = (await engine.records()).length;
    // The inventory size only matters for the message about an empty project.
    if (sourceFiles === 0) inventoryFiles = (await engine.index()).files;
  };

  // The engine starts watching when the first index is done, so an edit made while it ran would go
  // unnoticed: one more pass right after it (a re-scan that parses only what changed) catches
  // those. Calls that arrive meanwhile wait for it; its changes are reported by the next answer.
  let settling: Promise<void> | undefined;
  let settled = { parsed: 0, removed: 0 };
  const settle = () => {
    settling = (async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      try {
        const summary = await engine.index();
        settled = { parsed: settled.parsed + summary.parsed, removed: settled.removed + summary.removed };
        if (summary.parsed + summary.removed > 0) await countSources();
      } catch (error) {
        rescanNext = true;
        log.debug(`re-scan after the first index failed: ${(error as Error).message}`);
      }
    })().finally(() => {
      settling = undefined;
      // The word-search index is built on first use (1.4 s on django); build it while the agent
      // reads the first answer rather than during its first search.
      if (sourceFiles) setTimeout(() => void engine.search("warm up").catch(() => {}), 100).unref?.();
    });
  };

  const freshen = async (extra: Extra, rescan: boolean): Promise<Freshness> => {
    const listener = progressSender(extra);
    if (listener) progressListeners.add(listener);
    try {
      await checkRoot();
      // Let pending watcher events land before asking the engine whether anything changed.
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (!initialDone) {
        initial ??= (async () => {
          const started = Date.now();
          const summary = await engine.index({ onProgress: (p) => progressListeners.forEach((l) => l(p)) });
          sourceFiles = summary.sourceFiles;
          inventoryFiles = summary.files;
          if (summary.sourceFiles > 0) {
            // Building the graph is part of the first answer's cost; say so while it happens.
            progressListeners.forEach((l) => l({ phase: "graph", done: 0 }));
            await engine.codeGraph();
          }
          settle();
          return { durationMs: Date.now() - started, parsed: summary.parsed };
        })();
        try {
          const first = await initial;
          const wasFirst = !initialDone;
          initialDone = true;
          if (wasFirst) {
            log.info(`indexed ${root}: ${sourceFiles} source files (${first.parsed} parsed) in ${first.durationMs} ms`);
            const files = plural(sourceFiles ?? 0, "source file");
            const took = `${(first.durationMs / 1000).toFixed(1)} s`;
            return {
              indexedAt: new Date().toISOString(), refreshed: true, parsed: first.parsed, removed: 0, mode: "initial",
              line: first.parsed === 0 ? `index loaded from the cache: ${files} in ${took}` : `index built: ${files} (${first.parsed} parsed) in ${took}`,
            };
          }
        } catch (error) {
          initial = undefined;
          throw error;
        }
      }
      if (settling) await settling;
      const late = settled;
      settled = { parsed: 0, removed: 0 };
      if (rescan || rescanNext) {
        rescanNext = false;
        const summary = await engine.index();
        sourceFiles = summary.sourceFiles;
        inventoryFiles = summary.files;
        const parsed = summary.parsed + late.parsed;
        const removed = summary.removed + late.removed;
        return {
          indexedAt: new Date().toISOString(), refreshed: parsed + removed > 0, parsed, removed, mode: "scan",
          line: parsed + removed > 0 ? `index refreshed: ${refreshWords(parsed, removed)}` : "",
        };
      }
      const r = await engine.refresh();
      if (r.refreshed) await countSources();
      const parsed = r.parsed + late.parsed;
      const removed = r.removed + late.removed;
      const refreshed = r.refreshed || parsed + removed > 0;
      return {
        indexedAt: new Date(r.at).toISOString(), refreshed, parsed, removed, mode: r.mode,
        line: refreshed ? `index refreshed: ${refreshWords(parsed, removed)}` : "",
      };
    } catch (error) {
      // The engine may now hold a stale "up to date" flag or watchers on deleted folders: drop the
      // watchers and re-scan on the next call, which also starts watching afresh.
      rescanNext = true;
      engine.close();
      throw error;
    } finally {
      if (listener) progressListeners.delete(listener);
    }
  };

  const register = (tool: ToolSpec) => {
    const outputSchema = tool.output.extend({ freshness: freshnessSchema.describe("How fresh the index behind this answer is.") });
    const handler = async (args: Record<string, unknown>, extra: Extra): Promise<CallToolResult> => {
      const started = performance.now();
      try {
        const fresh = await freshen(extra, tool.rescan?.(args as never) === true);
        if (sourceFiles === 0) {
          const { message, hint } = noSourceText(root, inventoryFiles);
          throw new EngineError("no_supported_files", message, { hint, data: { root, files: inventoryFiles } });
        }
        const count = await loadTokenCounter("o200k_base");
        const ctx: ToolContext = {
          engine,
          root,
          cap: responseCap - FRESHNESS_RESERVE,
          responseCap,
          count,
          measure: (text, data) => Math.max(count(text), count(JSON.stringify(data))),
          signal: extra.signal,
          log,
        };
        const answer = await tool.run(args as never, ctx);
        const { line, ...freshness } = fresh;
        const text = line ? `${answer.text}\n\n(${line})` : answer.text;
        log.debug(`${tool.name} answered in ${(performance.now() - started).toFixed(1)} ms`);
        return { content: [{ type: "text", text }], structuredContent: { ...answer.data, freshness } };
      } catch (error) {
        return toToolError(error, tool.name, log);
      }
    };
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.input,
        outputSchema,
        annotations: { title: tool.title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      },
      handler as never,
    );
  };
  for (const tool of TOOLS) register(tool);

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
    const pct = p.phase === "scan" ? Math.min(10, p.done / 200) : p.phase === "parse" ? 10 + (p.total ? (80 * p.done) / p.total : 0) : 90;
    const value = Math.round(pct * 10) / 10;
    const now = Date.now();
    // The spec wants progress to increase with every notification; phase changes always go out.
    if (value <= last || (now - lastAt < 100 && p.phase !== "graph" && value < 90)) return;
    last = value;
    lastAt = now;
    const message = p.phase === "scan" ? `scanning: ${p.done} files found` : p.phase === "parse" ? `parsing: ${p.done}${p.total ? `/${p.total}` : ""} files` : "building the code graph";
    extra.sendNotification({ method: "notifications/progress", params: { progressToken: token, progress: value, total: 100, message } }).catch(() => {});
  };
}

/** Tool names, for tests and docs. */
export const TOOL_NAMES = TOOLS.map((t) => t.name);
