/** `trace`: the shortest cited paths from a symbol or a route to a symbol. */
import { z } from "zod";
import { LIMITS } from "../../index.ts";
import { budget, completeness, symbolArg, symbolRef, usage } from "../schemas.ts";
import { defineTool } from "../tool.ts";
import { DEFAULT_LIST_BUDGET, listBudget } from "./list.ts";

const hop = z.object({
  from: z.string(),
  to: z.string(),
  toAt: z.object({ path: z.string(), line: z.int() }),
  kind: z.string().describe("route, call, constructor, super, extends, implements, dispatch (an overriding method: only for objects of that class), type, import or member."),
  site: z.object({ path: z.string(), line: z.int() }).describe("Where the link is written."),
  resolution: z.string().optional(),
  confidence: z.number(),
  code: z.string().optional().describe("The source line at the site."),
});

export const traceTool = defineTool({
  name: "trace",
  title: "Paths between two symbols",
  description: [
    "Finds the shortest paths from one symbol — or an HTTP route written \"METHOD /path\" — to another: through calls, constructor and super calls, inheritance, overriding methods (dynamic dispatch, marked), type annotations, and imports between files when no symbol path exists. Up to k paths (default 3), shortest first, each hop cited `path:line` with its source line, fitted to the budget (default 4000 tokens).",
    "Use it to learn how a request reaches some code, or how a change in one place can affect another. When no path exists within maxHops (default 6), the answer says what was searched and whether the path exists the other way round.",
  ].join("\n"),
  input: z.strictObject({
    from: z
      .string({ error: "from must be a string" })
      .min(1, { error: "from must not be empty" })
      .max(1000, { error: "from must be at most 1000 characters" })
      .describe("Where paths start: a symbol (as for callers) or a route such as \"GET /users/{id}\"."),
    to: symbolArg.describe("Where paths end: a symbol; reaching any member of a class counts as reaching the class."),
    k: z.int({ error: "k must be a whole number" }).min(1, { error: "k must be at least 1" }).max(LIMITS.trace.paths.max, { error: `k must be at most ${LIMITS.trace.paths.max}` }).optional().describe("Paths to return (default 3)."),
    maxHops: z.int({ error: "maxHops must be a whole number" }).min(1, { error: "maxHops must be at least 1" }).max(LIMITS.trace.hops.max, { error: `maxHops must be at most ${LIMITS.trace.hops.max}` }).optional().describe("Longest path searched, in hops (default 6)."),
    budget: budget("Paths that do not fit lose their source lines first, then are counted as left out.", DEFAULT_LIST_BUDGET),
  }),
  output: z.object({
    from: z.object({ label: z.string(), symbol: symbolRef.optional(), route: z.object({ method: z.string(), path: z.string(), at: z.object({ path: z.string(), line: z.int() }) }).optional() }),
    to: symbolRef,
    k: z.int(),
    maxHops: z.int(),
    paths: z.array(z.object({ hops: z.array(hop), confidence: z.number(), level: z.string() })),
    cut: z.int().describe("Paths found but left out by the budget."),
    searched: z.object({ edges: z.array(z.string()), reachableFrom: z.int(), reachingTo: z.int(), reverse: z.int().optional() }),
    completeness,
    usage,
    notes: z.array(z.string()),
  }),
  async run(args, ctx) {
    const { budget: b, note } = listBudget(ctx, args.budget);
    const notes = note ? [note] : [];
    const a = await ctx.engine.trace(args.from, args.to, {
      signal: ctx.signal, budget: b, json: true, ...(args.k !== undefined ? { k: args.k } : {}), ...(args.maxHops !== undefined ? { maxHops: args.maxHops } : {}),
    });
    const { text: _text, ...rest } = a;
    return { text: notes.length ? [a.text, ...notes.map((n) => `Note: ${n}`)].join("\n") : a.text, data: { ...rest, notes } };
  },
});
