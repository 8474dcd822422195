/** `route_map`: every HTTP route with its handler, the client calls in the project that reach it, and its tests. */
import { z } from "zod";
import { LIMITS } from "../../index.ts";
import { budget } from "../schemas.ts";
import { defineTool } from "../tool.ts";
import { groupRouteMap } from "../group.ts";

const site = z.string().describe("path:line");

export const routeMapTool = defineTool({
  name: "route_map",
  title: "Routes and their callers",
  description:
    "Every HTTP route (full path), its handler, the client calls reaching it (fetch, axios, test clients) and its tests.",
  input: z.strictObject({
    prefix: z.string({ error: "prefix must be a string" }).min(1).max(1000).optional().describe("e.g. /api/v1/items"),
    method: z.enum(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"], { error: "method must be GET, POST, PUT, PATCH, DELETE, HEAD or OPTIONS" }).optional(),
    budget: budget("", LIMITS.budget.list),
  }),
  output: z.object({
    total: z.int().describe("Routes matching the filter; the text lists what the budget holds."),
    routes: z.array(z.object({ method: z.string(), path: z.string(), handler: site, clients: z.array(site), tests: z.array(site) })),
  }),
  async run(args, ctx) {
    const requested = Math.min(args.budget ?? LIMITS.budget.list, ctx.cap);
    // Half for the text; the structured content repeats each listed route's ids in about as many tokens.
    if (ctx.group) return groupRouteMap(ctx, args, Math.max(LIMITS.budget.min, Math.floor(requested / 2)));
    const a = await ctx.engine.routeMap({ ...(args.prefix ? { prefix: args.prefix } : {}), ...(args.method ? { method: args.method } : {}), budget: Math.max(LIMITS.budget.min, Math.floor(requested / 2)), signal: ctx.signal });
    const at = (c: { path: string; line: number }) => `${c.path}:${c.line}`;
    const routes = a.routes.map((r) => ({ method: r.method, path: r.path, handler: `${r.file}:${r.line}`, clients: r.clients.map(at), tests: r.tests.map(at) }));
    return { text: a.text, data: { total: a.total, routes } };
  },
});
