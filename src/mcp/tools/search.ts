/** `search`: symbols by words, trimmed to whole entries under the response cap. */
import { z } from "zod";
import type { SearchHit } from "../../index.ts";
import { largestFitting } from "../fit.ts";
import { at, plural } from "../render.ts";
import { defineTool } from "../tool.ts";

const hit = z.object({
  qualified: z.string(),
  kind: z.string(),
  path: z.string(),
  line: z.int(),
  end: z.int(),
  signature: z.string(),
  score: z.number(),
  matched: z.array(z.string()).describe("Fields that matched: name, path, signature, doc."),
});

function render(query: string, hits: SearchHit[], total: number): string {
  if (total === 0) return `No symbols match ${JSON.stringify(query)}. Try other words, part of an identifier, or a file path with context.`;
  const lines = [`${plural(total, "result")} for ${JSON.stringify(query)} (best first):`];
  for (const h of hits) lines.push(`- ${at(h.path, h.line, h.end)} ${h.kind} ${h.qualified}  — ${h.signature}`);
  if (hits.length < total) lines.push(`${total - hits.length} more not shown (response cap); use more specific words.`);
  return lines.join("\n");
}

export const searchTool = defineTool({
  name: "search",
  title: "Find symbols by words",
  description: [
    "Finds symbols (functions, classes, methods, types) whose name, path, signature or docstring contain the words; identifiers are split on camelCase and snake_case, and name matches rank above path, signature and docstring matches.",
    "Returns each hit's kind, qualified name, `path:start-end` and first signature line, best first.",
    "Use it to find where something lives when you don't know the exact name; then call context or signature with the qualified name. Limits: word matching, not semantics; definitions only (not call sites or comments); at most 200 results.",
  ].join("\n"),
  input: z.strictObject({
    query: z
      .string({ error: "query must be a string" })
      .min(1, { error: "query must not be empty" })
      .max(2000, { error: "query must be at most 2000 characters" })
      .describe("A few words or identifier fragments, e.g. \"parse config\" or \"sessionStore\"."),
    limit: z
      .int({ error: "limit must be a whole number" })
      .min(1, { error: "limit must be at least 1" })
      .max(200, { error: "limit must be at most 200" })
      .optional()
      .describe("Most results to return (default 10, at most 200)."),
  }),
  output: z.object({
    query: z.string(),
    results: z.array(hit),
    total: z.int(),
    omitted: z.int().describe("Results left out to fit the response cap."),
  }),
  async run(args, ctx) {
    const hits = await ctx.engine.search(args.query, { limit: args.limit ?? 10, signal: ctx.signal });
    const shape = (k: number) => {
      const shown = hits.slice(0, k);
      const results = shown.map((h) => ({ qualified: h.qualified, kind: h.kind, path: h.path, line: h.line, end: h.end, signature: h.signature, score: h.score, matched: h.matched }));
      return { text: render(args.query, shown, hits.length), data: { query: args.query, results, total: hits.length, omitted: hits.length - k } };
    };
    const k = largestFitting(hits.length, (n) => {
      const s = shape(n);
      return ctx.measure(s.text, s.data) <= ctx.cap;
    });
    return shape(k);
  },
});
