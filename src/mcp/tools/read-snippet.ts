/** `read_snippet`: a bounded line range of a project file; nothing outside the project is readable. */
import { z } from "zod";
import { LIMITS } from "../../index.ts";
import { at, fenceLines, fitLines, plural } from "../render.ts";
import { pathArg } from "../schemas.ts";
import { defineTool } from "../tool.ts";

const MAX_SNIPPET_LINES = LIMITS.snippetLines;
/** A number as wide as any line number or count, for the envelope's worst case. */
const WIDEST = 9_999_999;

const line = (name: string) =>
  z
    .int({ error: `${name} must be a whole number` })
    .min(1, { error: `${name} must be at least 1 (lines are numbered from 1)` })
    .describe(name === "start_line" ? "1-based." : "Inclusive.");

export const readSnippetTool = defineTool({
  name: "read_snippet",
  title: "Read lines of a project file",
  description:
    `Lines start_line..end_line of a project file (at most ${MAX_SNIPPET_LINES}), headed \`## ` +
    `path:start-end\`. For code context left out; only indexed files inside the project.`,
  input: z.strictObject({
    path: pathArg("Relative to the project root, e.g. src/app.ts."),
    start_line: line("start_line"),
    end_line: line("end_line"),
  }),
  output: z.object({
    path: z.string(),
    start: z.int(),
    end: z.int().describe("Last line returned (may be before end_line when capped)."),
    totalLines: z.int(),
    capped: z.boolean().describe("True when fewer lines than asked were returned (or the only line was cut short)."),
  }),
  async run(args, ctx) {
    const s = await ctx.engine.snippet(args.path, args.start_line, args.end_line, {
      maxLines: MAX_SNIPPET_LINES,
      signal: ctx.signal,
    });
    const asked = Math.min(args.end_line, s.totalLines);
    const { open, close } = fenceLines(s.path, s.text);
    const last = (kept: number) => s.start + Math.max(1, kept) - 1;
    // The lines themselves are the text content; the structured content says which they are.
    const fit = fitLines({
      lines: s.text.split("\n"),
      header: (kept) => `## ${at(s.path, s.start, last(kept))} (of ${plural(s.totalLines, "line")})\n${open}`,
      footer: (kept, clipped) => {
        const end = last(kept);
        const note =
          end < asked || clipped
            ? `\nNote: shortened to ${clipped ? `the start of line ${end}` : `lines ${s.start}-${end}`} of the ` +
              (`${asked - s.start + 1} asked (at most ${MAX_SNIPPET_LINES} lines and ${ctx.responseCap} tokens ` +
                `per call); continue with start_line ${end + 1}.`)
            : args.end_line > s.totalLines
              ? `\nNote: the file ends at line ${s.totalLines}.`
              : "";
        return `${close}${note}`;
      },
      budget: ctx.cap,
      envelope: ctx.count(
        JSON.stringify({ path: s.path, start: WIDEST, end: WIDEST, totalLines: WIDEST, capped: false }),
      ),
      count: ctx.count,
    });
    const end = last(fit.kept);
    return {
      text: fit.text,
      data: { path: s.path, start: s.start, end, totalLines: s.totalLines, capped: end < asked || fit.clipped },
    };
  },
});
