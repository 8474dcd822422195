/** `repo_map`: the map of the project, the first call of a session. */
import { z } from "zod";
import { budget } from "../schemas.ts";
import { defineTool } from "../tool.ts";

const DEFAULT_MAP_BUDGET = 2000;

export const repoMapTool = defineTool({
  name: "repo_map",
  title: "Repository map",
  description: [
    "Returns a map of the project fitted to a token budget: services (folders with a manifest), languages, entry points (routes, CLI commands, handlers), the most central symbols with `path:start-end` citations, the folder layout and the tests/HTTP files/OpenAPI documents found.",
    "Call it first in a session to learn the project's shape and the names to pass to context, signature, callers and callees.",
    "The first call of a session indexes the project (a few seconds on a large repository; progress is reported); later calls notice edited files by themselves. Pass refresh: true only to force a full re-scan. Limits: an overview, not code; raise budget (default 2000) for more symbols.",
  ].join("\n"),
  input: z.strictObject({
    refresh: z.boolean({ error: "refresh must be true or false" }).optional().describe("Re-scan the whole project before answering (default false: changes are noticed automatically)."),
    budget: budget("", DEFAULT_MAP_BUDGET),
  }),
  output: z.object({
    root: z.string(),
    text: z.string().describe("The map, with `path:start-end` citations."),
    languages: z.array(z.object({ language: z.string(), files: z.int(), symbols: z.int() })),
    tokens: z.int(),
    budget: z.int(),
    encoding: z.string(),
    omitted: z.int().describe("Map lines left out to fit the budget."),
    budgetRequested: z.int().optional(),
  }),
  rescan: (args) => args.refresh === true,
  async run(args, ctx) {
    const requested = args.budget ?? DEFAULT_MAP_BUDGET;
    let b = Math.min(requested, ctx.cap);
    for (let attempt = 0; ; attempt++) {
      const map = await ctx.engine.map({ budget: b, signal: ctx.signal });
      const note = b < requested ? `Note: budget lowered from ${requested} to ${b} tokens to fit this server's response cap (${ctx.responseCap} tokens).` : undefined;
      const text = note ? `${map.text}\n\n${note}` : map.text;
      const data = {
        root: ctx.root,
        text,
        languages: map.languages.map((l) => ({ language: l.language, files: l.files, symbols: l.symbols })),
        tokens: map.tokens,
        budget: map.budget,
        encoding: map.encoding,
        omitted: map.omitted,
        ...(b < requested ? { budgetRequested: requested } : {}),
      };
      const size = ctx.measure(text, data);
      if (size <= ctx.cap || attempt >= 3) return { text, data };
      b = Math.max(1, Math.floor((b * ctx.cap) / size) - 64);
    }
  },
});
