/**
 * The index as `codeslice://` resources, for clients that let a user (or the model) attach context
 * without a tool call: the repo map, a file's outline and a symbol's source. Clients that subscribe
 * get `notifications/resources/updated` when the index refreshes, and `list_changed` when files
 * come or go; while anything is subscribed the server checks the index every few seconds, which
 * costs next to nothing with the folder watcher.
 */
import { type McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  ErrorCode,
  McpError,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type ReadResourceResult,
} from "@modelcontextprotocol/sdk/types.js";
import {
  citePath,
  isEngineError,
  LIMITS,
  loadTokenCounter,
  querySchemaText,
  type Engine,
  type FileRecord,
  type RefreshResult,
} from "../index.ts";
import { engineErrorText } from "./errors.ts";
import { at, fenceLines, fitLines, plural } from "./render.ts";
import type { McpLogger } from "./tool.ts";
import { quoted } from "../shared/quote.ts";

export const MAP_URI = "codeslice://map";
/** The query language's schema and grammar, and the flows and clusters the query tool's kinds answer. */
export const SCHEMA_URI = "codeslice://schema";
export const FLOWS_URI = "codeslice://flows";
export const CLUSTERS_URI = "codeslice://clusters";
export const OUTLINE_TEMPLATE = "codeslice://outline/{+path}";
export const SYMBOL_TEMPLATE = "codeslice://symbol/{+symbol}";

/** The URI of a file's outline. */
export const outlineUri = (path: string) => `codeslice://outline/${encodeURI(path)}`;
/** The URI of a symbol's source. */
export const symbolUri = (symbol: string) => `codeslice://symbol/${encodeURIComponent(symbol)}`;

/** Outlines listed in `resources/list` at most: the template reaches every other file. */
const MAX_LISTED_OUTLINES = 500;
/** How often a subscribed server checks the index, in ms. */
const POLL_MS = 2000;
/** JSON-RPC code the MCP spec gives a resource that does not exist. */
const RESOURCE_NOT_FOUND = -32002;
/**
 * Subscriptions a session may hold, and the longest URI one may name: each refresh notifies every
 * subscriber, so without bounds one client made an edit cost 103 notifications and 104 MB.
 */
export const MAX_SUBSCRIPTIONS = 100;
export const MAX_SUBSCRIPTION_URI_CHARS = 8192;

/**
 * Why `uri` cannot be subscribed to, or undefined: only this server's own resources (the map, an
 * outline, a symbol), each URI bounded in length.
 */
export function subscriptionRefusal(uri: string, held: number): string | undefined {
  if (uri.length > MAX_SUBSCRIPTION_URI_CHARS)
    return `the URI is ${uri.length} characters; the limit is ${MAX_SUBSCRIPTION_URI_CHARS}`;
  const own =
    uri === MAP_URI ||
    uri === FLOWS_URI ||
    uri === CLUSTERS_URI ||
    (/^codeslice:\/\/(outline|symbol)\/./.test(uri) && !/[\s\u0000-\u001f]/.test(uri));
  if (!own)
    return (
      `${quoted(uri.slice(0, 100))} is not one of this server's resources (${MAP_URI}, ` +
      `codeslice://outline/<path>, codeslice://symbol/<name>)`
    );
  if (held >= MAX_SUBSCRIPTIONS)
    return `this session holds ${held} subscriptions, the most the server keeps; unsubscribe from some first`;
  return undefined;
}

/** What the resources need from the server. */
export interface ResourceContext {
  engine: Engine;
  /** Brings the index up to date (throws what a tool call would) and reports the refresh. */
  refresh(): Promise<RefreshResult>;
  /** Largest resource in tokens: the server's response cap. */
  cap: number;
  log: McpLogger;
}

/** Registers the resources and the subscribe handlers; returns what the server calls after every refresh. */
export function registerResources(
  server: McpServer,
  ctx: ResourceContext,
): { refreshed(r: RefreshResult): void; close(): void } {
  const subscribed = new Set<string>();
  let poll: ReturnType<typeof setInterval> | undefined;
  let lastSources: number | undefined;
  let indexed = false;
  let listedEarly = false;

  const read: ResourceReader = async (uri, make) => {
    try {
      await ctx.refresh();
      const count = await loadTokenCounter("o200k_base");
      return { contents: [{ uri: uri.href, mimeType: "text/markdown", text: await make(count) }] };
    } catch (error) {
      if (!isEngineError(error)) throw error;
      const missing = ["unknown_symbol", "ambiguous_symbol", "not_found", "outside_root"].includes(error.code);
      throw new McpError(
        missing ? RESOURCE_NOT_FOUND : ErrorCode.InvalidParams,
        engineErrorText(error, "resources/read"),
        { uri: uri.href, code: error.code },
      );
    }
  };

  registerGraphResources(server, ctx, read);

  server.registerResource(
    "file-outline",
    new ResourceTemplate(OUTLINE_TEMPLATE, {
      list: async () => {
        // Clients list resources as they connect; indexing then would hold up the session's start
        // (and break "nothing is indexed before it is asked for"). Until the first index, only the
        // map is listed, and list_changed follows that index.
        if (!indexed) {
          listedEarly = true;
          return { resources: [] };
        }
        const files = await sourceFiles(ctx);
        return {
          resources: files
            .slice(0, MAX_LISTED_OUTLINES)
            .map((path) => ({ uri: outlineUri(path), name: path, mimeType: "text/markdown" })),
        };
      },
      complete: { path: async (value) => (await sourceFiles(ctx)).filter((p) => p.startsWith(value)).slice(0, 100) },
    }),
    {
      title: "File outline",
      description: "A project file's symbols (kind, name, lines, header), nested, without bodies.",
      mimeType: "text/markdown",
    },
    (uri, vars) => read(uri, async (count) => outline(await fileRecord(ctx, variable(vars.path)), ctx.cap, count)),
  );

  server.registerResource(
    "symbol-source",
    new ResourceTemplate(SYMBOL_TEMPLATE, {
      list: undefined,
      complete: {
        symbol: async (value) => (value ? (await ctx.engine.search(value, { limit: 20 })).map((h) => h.qualified) : []),
      },
    }),
    {
      title: "Symbol source",
      description: "A symbol's whole definition, headed ## path:start-end. The name as the tools take it, URI-encoded.",
      mimeType: "text/markdown",
    },
    (uri, vars) => read(uri, (count) => symbolSource(ctx, variable(vars.symbol), count)),
  );

  // McpServer handles list and read; subscriptions are the protocol's own requests.
  server.server.registerCapabilities({ resources: { subscribe: true, listChanged: true } });
  server.server.setRequestHandler(SubscribeRequestSchema, (request) => {
    const uri = request.params.uri;
    const refusal = subscribed.has(uri) ? undefined : subscriptionRefusal(uri, subscribed.size);
    if (refusal)
      throw new McpError(ErrorCode.InvalidParams, `Cannot subscribe: ${refusal}.`, { uri: uri.slice(0, 200) });
    subscribed.add(uri);
    poll ??= setInterval(
      () => void ctx.refresh().catch((error: Error) => ctx.log.debug(`resource check: ${error.message}`)),
      POLL_MS,
    );
    poll.unref?.();
    return {};
  });
  server.server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
    subscribed.delete(request.params.uri);
    if (subscribed.size === 0 && poll) {
      clearInterval(poll);
      poll = undefined;
    }
    return {};
  });

  return {
    refreshed(r) {
      const sourcesChanged =
        (lastSources !== undefined && (r.sourceFiles !== lastSources || r.removed > 0)) || (!indexed && listedEarly);
      lastSources = r.sourceFiles;
      indexed = true;
      if (!server.isConnected()) return;
      if (r.refreshed && r.mode !== "initial") {
        for (const uri of subscribed) server.server.sendResourceUpdated({ uri }).catch(() => {});
      }
      if (sourcesChanged) server.sendResourceListChanged();
    },
    close() {
      if (poll) clearInterval(poll);
      poll = undefined;
      subscribed.clear();
    },
  };
}

/** Reads a resource: refreshes first, and turns an engine error into the protocol's. */
type ResourceReader = (
  uri: URL,
  make: (count: (text: string) => number) => Promise<string>,
) => Promise<ReadResourceResult>;

/** The fixed resources: the repository map, the query schema, the flows and the clusters. */
function registerGraphResources(server: McpServer, ctx: ResourceContext, read: ResourceReader): void {
  server.registerResource(
    "repo-map",
    MAP_URI,
    {
      title: "Repository map",
      description:
        "Services, languages, entry points, central symbols with path:line, layout and tests (what the repo_map " +
        "tool returns).",
      mimeType: "text/markdown",
    },
    (uri) => read(uri, async () => (await ctx.engine.map({ budget: Math.min(LIMITS.budget.map, ctx.cap) })).text),
  );

  server.registerResource(
    "schema",
    SCHEMA_URI,
    {
      title: "Query schema",
      description: "The query tool's nodes, relationships (with confidence), grammar, limits and examples.",
      mimeType: "text/markdown",
    },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: "text/markdown", text: querySchemaText() }] }),
  );
  server.registerResource(
    "flows",
    FLOWS_URI,
    {
      title: "Execution flows",
      description: "Flows from each entry point (route, command, main, test) through the call graph, largest first.",
      mimeType: "text/markdown",
    },
    (uri) => read(uri, async () => (await ctx.engine.flows({ budget: Math.min(LIMITS.budget.list, ctx.cap) })).text),
  );
  server.registerResource(
    "clusters",
    CLUSTERS_URI,
    {
      title: "Functional clusters",
      description:
        "Clusters of files by calls and imports (Louvain), with cohesion and the entry points reaching them.",
      mimeType: "text/markdown",
    },
    (uri) => read(uri, async () => (await ctx.engine.clusters({ budget: Math.min(LIMITS.budget.list, ctx.cap) })).text),
  );
}

/** A template variable, percent-decoded (a malformed escape is taken as written). */
function variable(value: string | string[] | undefined): string {
  const raw = Array.isArray(value) ? value.join(",") : (value ?? "");
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** Indexed source files, sorted. */
async function sourceFiles(ctx: ResourceContext): Promise<string[]> {
  await ctx.refresh();
  return (await ctx.engine.records()).map((r) => r.path).sort();
}

async function fileRecord(ctx: ResourceContext, path: string): Promise<FileRecord> {
  const rel = path.replace(/^\.\//, "");
  const records = await ctx.engine.records();
  // The exact name, else the one file with the same name in another Unicode normalization (NFC typed for an NFD name).
  const record =
    records.find((r) => r.path === rel) ??
    oneOf(records.filter((r) => r.path.normalize("NFC") === rel.normalize("NFC")));
  if (record) return record;
  // Let the engine say why (outside the root, not indexed, did-you-mean): a one-line read does.
  await ctx.engine.snippet(rel, 1, 1);
  throw new McpError(
    RESOURCE_NOT_FOUND,
    `${rel} is not an indexed source file; codeslice://map lists the project's layout.`,
    { path: rel },
  );
}

const oneOf = <T>(xs: T[]): T | undefined => (xs.length === 1 ? xs[0] : undefined);

/** Nesting an outline shows by indentation; deeper entries stay at this indent and say their depth. */
const OUTLINE_INDENT = 24;

/**
 * Characters of outline entries built per token of the response cap, at most: a token is rarely
 * under 2 characters, so no reply is cut from more than this, and a file of 3,000 nested functions
 * no longer builds (and counts) 9 million characters of indentation: 41 s with a ping waiting.
 */
const OUTLINE_CHARS_PER_TOKEN = 6;

/**
 * A file's definitions, nested by parent, each with its lines and its header's first line (or
 * kind and name). Depths come from one pass (a parent precedes its children; a record from an
 * artifact may hold a 50,000-deep chain, which a recursion overflowed), indentation stops at
 * OUTLINE_INDENT, and entries stop once their text passes what the cap could ever show.
 */
function outline(record: FileRecord, cap: number, count: (text: string) => number): string {
  const defs = record.definitions;
  const depths: number[] = new Array(defs.length);
  const lines: string[] = [];
  const maxChars = cap * OUTLINE_CHARS_PER_TOKEN;
  let chars = 0;
  for (let i = 0; i < defs.length && chars <= maxChars; i++) {
    const d = defs[i]!;
    const parent = d.parent;
    const depth = (depths[i] = parent >= 0 && parent < i ? depths[parent]! + 1 : 0);
    const header = d.signature.split("\n", 1)[0]!.trim();
    const indent = depth > OUTLINE_INDENT ? `${"  ".repeat(OUTLINE_INDENT)}(depth ${depth}) ` : "  ".repeat(depth);
    const line = `${indent}- ${d.start}-${d.end} ${header.includes(d.name) ? header : `${d.kind} ${d.name}`}`;
    lines.push(line);
    chars += line.length + 1;
  }
  const head =
    `# ${citePath(record.path)} (${record.language}, ${plural(record.lines, "line")}, ` +
    `${plural(defs.length, "symbol")})`;
  if (lines.length === 0) return `${head}\n\nNo definitions.`;
  return fitLines({
    lines,
    header: () => head,
    footer: (kept) =>
      kept < defs.length ? `\n(${defs.length - kept} more not shown: over the server's response cap)` : "",
    budget: cap,
    envelope: 0,
    count,
  }).text;
}

/** A symbol's whole definition, fenced, cut at a whole line if it passes the response cap. */
async function symbolSource(ctx: ResourceContext, symbol: string, count: (text: string) => number): Promise<string> {
  const { symbol: s } = await ctx.engine.signature(symbol);
  const snippet = await ctx.engine.snippet(s.path, s.line, s.end, { maxLines: s.end - s.line + 1 });
  const lines = snippet.text.split("\n");
  const { open, close } = fenceLines(s.path, snippet.text);
  return fitLines({
    lines,
    header: () => `## ${at(s.path, s.line, s.end)} ${s.kind} ${s.qualified}\n${open}`,
    footer: (kept) =>
      kept < lines.length
        ? `${close}\n(cut after ${plural(kept, "line")} to fit the server's response cap; read the rest with ` +
          `read_snippet)`
        : close,
    budget: ctx.cap,
    envelope: 0,
    count,
  }).text;
}
