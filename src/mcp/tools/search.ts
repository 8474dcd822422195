/** `search`: symbols by words, trimmed to whole entries under the response cap by the one fitter. */
import { z } from "zod";
import { fitBlocks, LIMITS, type SearchHit } from "../../index.ts";
import { at, plural } from "../render.ts";
import { targetArg } from "../schemas.ts";
import { defineTool } from "../tool.ts";
import { quoted } from "../../shared/quote.ts";

const hit = z.object({
  repo: z.string().optional().describe("The repository (a group searched without repo)."),
  qualified: z.string(),
  kind: z.string(),
  path: z.string(),
  line: z.int(),
  end: z.int(),
  signature: z.string(),
  score: z.number(),
});

export const searchTool = defineTool({
  name: "search",
  title: "Find symbols by words",
  description:
    "Symbols whose name, path, signature or docstring match the words (camelCase and snake_case split; name " +
    ("matches first), with kind, `path:start-end` and signature. Use it when you don't know the name, then call " +
      "context or signature with the qualified name. Also finds doc sections and config keys."),
  input: z.strictObject({
    query: targetArg("query", 'Words or identifier parts, e.g. "parse config".'),
    limit: z
      .int({ error: "limit must be a whole number" })
      .min(LIMITS.searchResults.min, { error: `limit must be at least ${LIMITS.searchResults.min}` })
      .max(LIMITS.searchResults.max, { error: `limit must be at most ${LIMITS.searchResults.max}` })
      .optional()
      .describe(`Results (default ${LIMITS.searchResults.default}).`),
  }),
  // Which fields matched (name, signature, doc, body) and the total (the results and the omitted
  // ones) are left out: on a two-result answer they made the data larger than the text.
  output: z.object({
    query: z.string(),
    results: z.array(hit),
    omitted: z.int().describe("Results left out to fit the response cap."),
  }),
  async run(args, ctx) {
    const options = { limit: args.limit ?? LIMITS.searchResults.default, signal: ctx.signal };
    const hits: (SearchHit & { repo?: string })[] = ctx.spanning
      ? // Every repository's best, best first by score (a tie keeps the group's order), up to the limit.
        (
          await Promise.all(
            ctx.group!.members.map(async (m) =>
              (await m.engine.search(args.query, options)).map((h) => ({ ...h, repo: m.name })),
            ),
          )
        )
          .flat()
          .sort((a, b) => b.score - a.score)
          .slice(0, options.limit)
      : await ctx.engine.search(args.query, options);
    const where = (h: (typeof hits)[number]) => `${h.repo ? `${h.repo}:` : ""}${at(h.path, h.line, h.end)}`;
    const results = hits.map((h) => ({
      ...(h.repo ? { repo: h.repo } : {}),
      qualified: h.qualified,
      kind: h.kind,
      path: h.path,
      line: h.line,
      end: h.end,
      signature: h.signature,
      score: h.score,
    }));
    const total = hits.length;
    // Whole entries, best first; each costs its line in the text and its record in the structured content.
    // (the query quoted back at most 80 characters long, as locate and context do: a long one is the agent's own)
    const said = quoted(args.query.length > 80 ? `${args.query.slice(0, 80)}…` : args.query);
    const fit = fitBlocks({
      header:
        total === 0
          ? `No symbols match ${said}. Try other words, part of an identifier, or a file path with context.`
          : `${plural(total, "result")} for ${said} (best first):`,
      blocks: hits.map((h, i) => ({
        full: `- ${where(h)} ${h.kind} ${h.qualified}  — ${h.signature}`,
        envelope: { full: ctx.count(JSON.stringify(results[i])) + 1 },
      })),
      budget: ctx.cap,
      count: ctx.count,
      separator: "\n",
      prefix: true,
      envelope: ctx.count(JSON.stringify({ results: [], omitted: total })),
      footer: (s) => (s.omitted > 0 ? `${s.omitted} more not shown (response cap); use more specific words.` : ""),
    });
    const shown = total - fit.omitted;
    return {
      text: fit.text,
      data: { query: args.query, results: results.slice(0, shown), omitted: fit.omitted },
    };
  },
});
