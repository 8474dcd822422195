/** `read_snippet`: a bounded line range of a project file; nothing outside the project is readable. */
import { z } from "zod";
import { LIMITS } from "../../index.ts";

const MAX_SNIPPET_LINES = LIMITS.snippetLines;
import { capLines } from "../fit.ts";
import { at, fence, plural } from "../render.ts";
import { pathArg } from "../schemas.ts";
import { defineTool } from "../tool.ts";

const line = (name: string) =>
  z
    .int({ error: `${name} must be a whole number` })
    .min(1, { error: `${name} must be at least 1 (lines are numbered from 1)` })
    .describe(`${name === "start_line" ? "First" : "Last"} line, 1-based, inclusive.`);

export const readSnippetTool = defineTool({
  name: "read_snippet",
  title: "Read lines of a project file",
  description: [
    `Returns lines start_line..end_line (1-based, inclusive) of a project file, headed \`## path:start-end\`; at most ${MAX_SNIPPET_LINES} lines per call, and never more than the response cap (a note says when the range was shortened and where to continue).`,
    "Use it for code that context did not include: a cut chunk's lines, a few lines around a citation, a config block. Prefer context or signature for whole symbols.",
    "Limits: only files the index knows (inside the project root, not ignored by git, not binary or oversized); paths are relative to the root or absolute inside it; `..`, paths elsewhere and symbolic links leading outside are refused.",
  ].join("\n"),
  input: z.strictObject({
    path: pathArg("A project file relative to the project root, e.g. src/app.ts (as in map and context headers)."),
    start_line: line("start_line"),
    end_line: line("end_line"),
  }),
  output: z.object({
    path: z.string(),
    start: z.int(),
    end: z.int().describe("Last line returned (may be before end_line when capped)."),
    totalLines: z.int(),
    capped: z.boolean().describe("True when fewer lines than asked were returned."),
    text: z.string(),
  }),
  async run(args, ctx) {
    const s = await ctx.engine.snippet(args.path, args.start_line, args.end_line, { maxLines: MAX_SNIPPET_LINES, signal: ctx.signal });
    const render = (body: string, end: number, capped: boolean) => {
      const head = `## ${at(s.path, s.start, end)} (of ${plural(s.totalLines, "line")})`;
      const asked = Math.min(args.end_line, s.totalLines);
      const note = capped
        ? `\nNote: shortened to lines ${s.start}-${end} of the ${asked - s.start + 1} asked (at most ${MAX_SNIPPET_LINES} lines and ${ctx.responseCap} tokens per call); continue with start_line ${end + 1}.`
        : args.end_line > s.totalLines ? `\nNote: the file ends at line ${s.totalLines}.` : "";
      return `${head}\n${fence(s.path, body)}${note}`;
    };
    let text = render(s.text, s.end, s.capped && s.end < Math.min(args.end_line, s.totalLines));
    let data = { path: s.path, start: s.start, end: s.end, totalLines: s.totalLines, capped: s.end < Math.min(args.end_line, s.totalLines), text };
    let limit = ctx.cap - 300;
    while (ctx.measure(text, data) > ctx.cap && limit > 1) {
      // Long lines (minified code, data): keep whole lines that fit.
      const kept = capLines(s.text, limit, ctx.count);
      const end = s.start + kept.keptLines - 1;
      text = render(kept.text, end, true);
      data = { path: s.path, start: s.start, end, totalLines: s.totalLines, capped: true, text };
      limit = Math.floor(limit * 0.8);
    }
    return { text, data };
  },
});
