/** `trace`: the shortest cited paths from a symbol or a route to a symbol. */
import { z } from "zod";
import { LIMITS } from "../../index.ts";
import { budget, completeness, symbolArg, symbolRef } from "../schemas.ts";
import { defineTool } from "../tool.ts";
import { DEFAULT_LIST_BUDGET, inToolBudget, listBudget } from "./list.ts";

const hop = z.object({
  from: z.string(),
  to: z.string(),
  toAt: z.object({ path: z.string(), line: z.int() }),
  kind: z
    .string()
    .describe(
      "route, call, constructor, super, extends, implements, dispatch (an overriding method: only for objects " +
        "of that class), type, import or member.",
    ),
  site: z.object({ path: z.string(), line: z.int() }).describe("Where the link is written."),
  resolution: z.string().optional(),
  confidence: z.number(),
  code: z.string().optional().describe("The source line at the site."),
});

export const traceTool = defineTool({
  name: "trace",
  title: "Paths between two symbols",
  description:
    "Shortest paths from a symbol or route to a symbol, through calls, inheritance, dynamic dispatch, types and " +
    "imports; each hop cited `path:line` with its source line. With no path, it says what was searched.",
  input: z.strictObject({
    from: z
      .string({ error: "from must be a string" })
      .min(1, { error: "from must not be empty" })
      .max(1000, { error: "from must be at most 1000 characters" })
      .describe('A symbol or a route, e.g. "GET /users/{id}".'),
    to: symbolArg.describe("A symbol (a class is reached through any member)."),
    k: z
      .int({ error: "k must be a whole number" })
      .min(1, { error: "k must be at least 1" })
      .max(LIMITS.trace.paths.max, { error: `k must be at most ${LIMITS.trace.paths.max}` })
      .optional()
      .describe("Paths to return (default 3)."),
    maxHops: z
      .int({ error: "maxHops must be a whole number" })
      .min(1, { error: "maxHops must be at least 1" })
      .max(LIMITS.trace.hops.max, { error: `maxHops must be at most ${LIMITS.trace.hops.max}` })
      .optional()
      .describe("Longest path (default 6)."),
    budget: budget("", DEFAULT_LIST_BUDGET),
  }),
  output: z.object({
    from: z.object({
      label: z.string(),
      symbol: symbolRef.optional(),
      route: z
        .object({ method: z.string(), path: z.string(), at: z.object({ path: z.string(), line: z.int() }) })
        .optional(),
    }),
    to: symbolRef,
    k: z.int(),
    maxHops: z.int(),
    paths: z.array(z.object({ hops: z.array(hop), confidence: z.number(), level: z.string() })),
    cut: z.int().describe("Paths found but left out by the budget."),
    searched: z.object({
      edges: z.array(z.string()),
      reachableFrom: z.int(),
      reachingTo: z.int(),
      reverse: z.int().optional(),
    }),
    completeness,
    notes: z.array(z.string()),
  }),
  async run(args, ctx) {
    const { budget: b, withheld, note } = listBudget(ctx, args.budget);
    const notes = note ? [note] : [];
    const a = await inToolBudget(args.budget, withheld, () =>
      ctx.engine.trace(args.from, args.to, {
        signal: ctx.signal,
        budget: b,
        json: true,
        ...(args.k !== undefined ? { k: args.k } : {}),
        ...(args.maxHops !== undefined ? { maxHops: args.maxHops } : {}),
      }),
    );
    // The usage is the text's last line (`-- 235/3880 tokens (o200k_base)`): not said twice.
    const { text: _text, usage: _usage, ...rest } = a;
    return {
      text: notes.length ? [a.text, ...notes.map((n) => `Note: ${n}`)].join("\n") : a.text,
      data: { ...rest, notes },
    };
  },
});
