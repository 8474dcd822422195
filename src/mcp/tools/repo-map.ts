/**
 * `repo_map`: the map of the project, the first call of a session, fitted in one pass under the
 * response cap; `kind: "routes"` is the route map (every HTTP route with its handler, client calls
 * and tests) and `kind: "tools"` the tool map (MCP tools, RPC methods, CLI commands). They share
 * one tool because they share its shape — a map of the project, filtered — and each tool in
 * tools/list costs every session its tokens (route_map alone was 143).
 */
import { z } from "zod";
import { EngineError, LIMITS } from "../../index.ts";
import { budget } from "../schemas.ts";
import { defineTool, type ToolContext } from "../tool.ts";
import { groupRouteMap } from "../group.ts";

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"] as const;
const site = z.string().describe("path:line");
const at = (c: { path: string; line: number }) => `${c.path}:${c.line}`;

/**
 * kind routes: the route map. Half the budget for the text; the structured content repeats each listed route's ids in
 * about as many tokens.
 */
async function routeMap(
  args: { prefix?: string | undefined; method?: string | undefined; budget?: number | undefined },
  ctx: ToolContext,
) {
  const requested = Math.min(args.budget ?? LIMITS.budget.list, ctx.cap);
  if (ctx.group) return groupRouteMap(ctx, args, Math.max(LIMITS.budget.min, Math.floor(requested / 2)));
  const a = await ctx.engine.routeMap({
    ...(args.prefix ? { prefix: args.prefix } : {}),
    ...(args.method ? { method: args.method } : {}),
    budget: Math.max(LIMITS.budget.min, Math.floor(requested / 2)),
    signal: ctx.signal,
  });
  const routes = a.routes.map((r) => ({
    method: r.method,
    path: r.path,
    handler: `${r.file}:${r.line}`,
    clients: r.clients.map(at),
    tests: r.tests.map(at),
  }));
  return { text: a.text, data: { total: a.total, routes } };
}

/** kind tools: the tool map, halved the same way. */
async function toolMap(args: { budget?: number | undefined }, ctx: ToolContext) {
  const requested = Math.min(args.budget ?? LIMITS.budget.list, ctx.cap);
  const a = await ctx.engine.toolMap({
    budget: Math.max(LIMITS.budget.min, Math.floor(requested / 2)),
    signal: ctx.signal,
  });
  const tools = a.tools.map((t) => ({
    kind: t.kind,
    name: t.name,
    at: `${t.file}:${t.line}`,
    ...(t.handledAt ? { handler: at(t.handledAt) } : {}),
  }));
  return { text: a.text, data: { total: a.total, tools } };
}

const DEFAULT_MAP_BUDGET = LIMITS.budget.map;
/** A number as wide as any this answer reports, for the envelope's worst case. */
const WIDEST = 9_999_999;
/** Tokens kept over the envelope's sum, where its JSON pieces meet. */
const JOIN_SLACK = 8;

export const repoMapTool = defineTool({
  name: "repo_map",
  title: "Repository map",
  description:
    "The project's shape: services, languages, entry points (routes, commands, handlers, main), central symbols with " +
    ("`path:start-end`, layout, tests. Call it first: the names it shows are what the other tools take. The " +
      ("first call indexes the project; later edits are noticed. Raise budget for more symbols. kind " +
        "routes: HTTP routes, handlers, client calls, tests; tools: MCP tools, RPC methods, CLI commands.")),
  input: z.strictObject({
    kind: z.enum(["repo", "routes", "tools"], { error: "kind must be repo, routes or tools" }).optional(),
    prefix: z
      .string({ error: "prefix must be a string" })
      .min(1)
      .max(1000)
      .optional()
      .describe("routes: /api/v1/items"),
    method: z.enum(METHODS, { error: `method must be ${METHODS.join(", ")}` }).optional(),
    refresh: z.boolean({ error: "refresh must be true or false" }).optional().describe("Force a full re-scan."),
    budget: budget("", DEFAULT_MAP_BUDGET),
  }),
  // kind repo answers the first group of fields, kind routes and tools the second.
  output: z.object({
    root: z.string().optional(),
    languages: z.array(z.object({ language: z.string(), files: z.int(), symbols: z.int() })).optional(),
    tokens: z.int().optional().describe("Tokens of the map's text (the text content)."),
    budget: z.int().optional().describe("Tokens for the map's text and this structured content together."),
    encoding: z.string().optional(),
    envelope: z.int().optional().describe("Tokens of the budget kept for this structured content."),
    omitted: z.int().optional().describe("Map lines left out to fit the budget."),
    budgetRequested: z.int().optional(),
    total: z.int().optional().describe("Routes or tools matching the filter; the text lists what the budget holds."),
    routes: z
      .array(
        z.object({ method: z.string(), path: z.string(), handler: site, clients: z.array(site), tests: z.array(site) }),
      )
      .optional(),
    tools: z.array(z.object({ kind: z.string(), name: z.string(), at: site, handler: site.optional() })).optional(),
  }),
  rescan: (args) => args.refresh === true,
  async run(args, ctx) {
    if ((args.prefix !== undefined || args.method !== undefined) && args.kind !== "routes") {
      throw new EngineError("invalid_argument", 'prefix and method filter routes: pass them with kind "routes".', {
        hint: 'Call repo_map with kind "routes".',
        data: { key: args.prefix !== undefined ? "prefix" : "method" },
      });
    }
    if (args.kind === "routes") return routeMap(args, ctx);
    if (args.kind === "tools") return toolMap(args, ctx);
    const requested = args.budget ?? DEFAULT_MAP_BUDGET;
    const b = Math.min(requested, ctx.cap);
    const note =
      b < requested
        ? `Note: budget lowered from ${requested} to ${b} tokens to fit this server's response cap ` +
          `(${ctx.responseCap} tokens).`
        : undefined;
    const shape = (m: {
      languages: { language: string; files: number; symbols: number }[];
      tokens: number;
      budget: number;
      encoding: string;
      envelope?: number;
      omitted: number;
    }) => ({
      root: ctx.root,
      languages: m.languages.map((l) => ({ language: l.language, files: l.files, symbols: l.symbols })),
      tokens: m.tokens,
      budget: m.budget,
      encoding: m.encoding,
      ...(m.envelope !== undefined ? { envelope: m.envelope } : {}),
      omitted: m.omitted,
      ...(b < requested ? { budgetRequested: requested } : {}),
    });
    // The envelope: these fields at their widest and the note; the engine adds each language's record.
    const fixed =
      ctx.count(
        JSON.stringify(
          shape({
            languages: [],
            tokens: WIDEST,
            budget: b,
            encoding: "o200k_base",
            envelope: WIDEST,
            omitted: WIDEST,
          }),
        ),
      ) +
      (note ? ctx.count(`\n\n${note}`) + 1 : 0) +
      JOIN_SLACK;
    const map = await ctx.engine.map({ budget: b, envelope: { fixed, perRecord: 1 }, signal: ctx.signal });
    const text = note ? `${map.text}\n\n${note}` : map.text;
    const data = shape(map);
    const size = ctx.measure(text, data);
    if (size > b)
      ctx.log.warn(`repo_map answer of ${size} tokens (text and structured content) exceeds its budget of ${b}`);
    return { text, data };
  },
});
