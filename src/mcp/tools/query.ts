/**
 * `query`: the code graph's query language (a read-only Cypher subset), and with `kind` the
 * execution flows and functional clusters. One tool for the three: they share a shape (words in,
 * a budgeted list out), and tools/list is paid by every session (this entry is held to 140 tokens).
 */
import { z } from "zod";
import { defineTool } from "../tool.ts";
import { inToolBudget, listBudget } from "./list.ts";

const KINDS = ["cypher", "flows", "clusters"] as const;

/** `query`: a graph query, or with `kind` the flows or clusters. */
export const queryTool = defineTool({
  name: "query",
  title: "Graph query",
  // Every word here is paid by every session: the grammar and the schema live in codeslice://schema.
  description:
    "Read-only Cypher subset, e.g. MATCH (a)-[:CALLS*1..3]->(b {name:'f'}) RETURN a.qualified LIMIT 20; schema: " +
    "codeslice://schema. kind flows|clusters: entry-point flows, file clusters (q filters).",
  input: z.strictObject({
    q: z.string().optional(),
    kind: z.enum(KINDS).optional(),
    budget: z
      .int({ error: "budget must be a whole number of tokens" })
      .min(1, { error: "budget must be at least 1 token" })
      .optional(),
  }),
  output: z.object({
    kind: z.enum(KINDS),
    columns: z.array(z.string()).optional(),
    total: z.int(),
    flows: z
      .array(
        z.object({
          kind: z.string(),
          name: z.string(),
          entry: z.string(),
          path: z.string(),
          line: z.int(),
          size: z.int(),
          files: z.int(),
          depth: z.int(),
          steps: z.array(z.string()),
        }),
      )
      .optional(),
    clusters: z
      .array(
        z.object({
          id: z.int(),
          name: z.string(),
          files: z.array(z.string()),
          fileCount: z.int(),
          symbols: z.int(),
          cohesion: z.number(),
          central: z.array(z.string()),
          entries: z.array(z.object({ kind: z.string(), name: z.string(), reached: z.int() })),
          entryCount: z.int(),
        }),
      )
      .optional(),
    notes: z.array(z.string()),
  }),
  async run(args, ctx) {
    const kind = args.kind ?? "cypher";
    const { budget: b, withheld, note } = listBudget(ctx, args.budget);
    const notes = note ? [note] : [];
    const common = { budget: b, json: true, signal: ctx.signal };
    const filter = args.q?.trim() ? { filter: args.q } : {};
    if (kind === "flows") {
      const a = await inToolBudget(args.budget, withheld, () => ctx.engine.flows({ ...common, ...filter }));
      return { text: a.text, data: { kind, total: a.total, flows: a.flows, notes } };
    }
    if (kind === "clusters") {
      const a = await inToolBudget(args.budget, withheld, () => ctx.engine.clusters({ ...common, ...filter }));
      return { text: a.text, data: { kind, total: a.total, clusters: a.clusters, notes } };
    }
    const a = await ctx.engine.query(args.q ?? "", common);
    // The rows are the text: a model reads them there, and the structured content does not repeat
    // them (it would cost as much again, issue 24 item 6); programs take them from the CLI's --json
    // or the library's engine.query.
    return { text: a.text, data: { kind, columns: a.columns, total: a.total, notes: [...notes, ...a.notes] } };
  },
});
