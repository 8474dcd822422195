/** `repo_map`: the map of the project, the first call of a session, fitted in one pass under the response cap. */
import { z } from "zod";
import { LIMITS } from "../../index.ts";
import { budget } from "../schemas.ts";
import { defineTool } from "../tool.ts";

const DEFAULT_MAP_BUDGET = LIMITS.budget.map;
/** A number as wide as any this answer reports, for the envelope's worst case. */
const WIDEST = 9_999_999;
/** Tokens kept over the envelope's sum, where its JSON pieces meet. */
const JOIN_SLACK = 8;

export const repoMapTool = defineTool({
  name: "repo_map",
  title: "Repository map",
  description: "The project's shape: services, languages, entry points (routes, commands, handlers), central symbols with `path:start-end`, layout, tests. Call it first: the names it shows are what the other tools take. The first call indexes the project; edits are noticed on their own. Raise budget for more symbols.",
  input: z.strictObject({
    refresh: z.boolean({ error: "refresh must be true or false" }).optional().describe("Force a full re-scan."),
    budget: budget("", DEFAULT_MAP_BUDGET),
  }),
  output: z.object({
    root: z.string(),
    languages: z.array(z.object({ language: z.string(), files: z.int(), symbols: z.int() })),
    tokens: z.int().describe("Tokens of the map's text (the text content)."),
    budget: z.int().describe("Tokens for the map's text and this structured content together."),
    encoding: z.string(),
    envelope: z.int().optional().describe("Tokens of the budget kept for this structured content."),
    omitted: z.int().describe("Map lines left out to fit the budget."),
    budgetRequested: z.int().optional(),
  }),
  rescan: (args) => args.refresh === true,
  async run(args, ctx) {
    const requested = args.budget ?? DEFAULT_MAP_BUDGET;
    const b = Math.min(requested, ctx.cap);
    const note = b < requested ? `Note: budget lowered from ${requested} to ${b} tokens to fit this server's response cap (${ctx.responseCap} tokens).` : undefined;
    const shape = (m: { languages: { language: string; files: number; symbols: number }[]; tokens: number; budget: number; encoding: string; envelope?: number; omitted: number }) => ({
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
    const fixed = ctx.count(JSON.stringify(shape({ languages: [], tokens: WIDEST, budget: b, encoding: "o200k_base", envelope: WIDEST, omitted: WIDEST })))
      + (note ? ctx.count(`\n\n${note}`) + 1 : 0) + JOIN_SLACK;
    const map = await ctx.engine.map({ budget: b, envelope: { fixed, perRecord: 1 }, signal: ctx.signal });
    const text = note ? `${map.text}\n\n${note}` : map.text;
    const data = shape(map);
    const size = ctx.measure(text, data);
    if (size > b) ctx.log.warn(`repo_map answer of ${size} tokens (text and structured content) exceeds its budget of ${b}`);
    return { text, data };
  },
});
