/**
 * `shape_check`: the fields of a response model (or a route's response) each consumer reads, and the reads a rename or
 * removal breaks.
 */
import { z } from "zod";
import { LIMITS } from "../../index.ts";
import { defineTool } from "../tool.ts";

// No maxItems in the list (every session pays for its tokens): the engine checks each name against the model's fields.
const fields = (name: string) =>
  z
    .array(
      z
        .string({ error: `${name} items must be strings` })
        .min(1)
        .max(200),
      { error: `${name} must be a list of strings` },
    )
    .optional();

export const shapeCheckTool = defineTool({
  name: "shape_check",
  title: "Response shape check",
  description:
    "Fields of a response model or METHOD /path that each consumer reads, with path:line; rename/remove lists " +
    "the reads that break.",
  input: z.strictObject({
    target: z
      .string({ error: "target must be a string" })
      .min(1, { error: "target must not be empty" })
      .max(1000, { error: "target must be at most 1000 characters" }),
    rename: fields("rename").describe("old=new"),
    remove: fields("remove"),
    budget: z
      .int({ error: "budget must be a whole number of tokens" })
      .min(LIMITS.budget.min, { error: `budget must be at least ${LIMITS.budget.min} token` })
      .optional(),
  }),
  output: z.object({
    resolvedAs: z.string().describe("model or route."),
    models: z.array(
      z.object({ qualified: z.string(), at: z.string().describe("path:start-end"), fields: z.array(z.string()) }),
    ),
    routes: z.array(z.object({ method: z.string(), path: z.string(), as: z.string() })),
    reads: z
      .array(z.object({ at: z.string().describe("path:line"), field: z.string(), breaks: z.boolean().optional() }))
      .describe("The reads the text lists, breaks first."),
    total: z.object({ reads: z.int(), breaks: z.int() }),
  }),
  async run(args, ctx) {
    const requested = Math.min(args.budget ?? LIMITS.budget.list, ctx.cap);
    // Half for the text: the structured content repeats each listed read's place and field.
    const options = {
      ...(args.rename ? { rename: args.rename } : {}),
      ...(args.remove ? { remove: args.remove } : {}),
      budget: Math.max(LIMITS.budget.min, Math.floor(requested / 2)),
      signal: ctx.signal,
    };
    // In a group, the other repositories' reads of the routes returning the model join (cited repo:path:line).
    const a =
      ctx.group && ctx.repo
        ? await ctx.group.shapeCheck(ctx.repo, args.target, options)
        : await ctx.engine.shapeCheck(args.target, options);
    const broken = new Set(a.breaks);
    return {
      text: a.text,
      data: {
        resolvedAs: a.resolvedAs,
        models: a.models.map((m) => ({
          qualified: m.qualified,
          at: `${m.path}:${m.start}-${m.end}`,
          fields: m.fields.map((f) => f.name),
        })),
        routes: a.routes.map((r) => ({ method: r.method, path: r.path, as: r.as })),
        reads: a.reads.slice(0, a.listed).map((r) => ({
          at: `${r.repo ? `${r.repo}:` : ""}${r.path}:${r.line}`,
          field: r.field,
          ...(broken.has(r as never) ? { breaks: true } : {}),
        })),
        total: { reads: a.reads.length, breaks: a.breaks.length },
      },
    };
  },
});
