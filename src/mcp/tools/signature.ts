/** `signature`: a symbol's header and docstring without its body; a class with its members stubbed. */
import { z } from "zod";
import { at, fenceLines, fitLines, plural } from "../render.ts";
import { symbolArg } from "../schemas.ts";
import { defineTool } from "../tool.ts";

export const signatureTool = defineTool({
  name: "signature",
  title: "Signature of a symbol",
  description:
    "A symbol's declaration without its body (decorators, parameters, types, docstring); for a class, its " +
    "members' headers. Use it to learn how to call something; context gives the implementation.",
  input: z.strictObject({ symbol: symbolArg }),
  output: z.object({
    symbol: z.object({ qualified: z.string(), kind: z.string(), path: z.string(), line: z.int(), end: z.int() }),
    members: z
      .array(z.object({ qualified: z.string(), kind: z.string(), line: z.int() }))
      .describe("Its members (the first 100 when the outline was cut)."),
    truncated: z.boolean().describe("True when the outline was cut at a whole line to fit the response cap."),
  }),
  async run(args, ctx) {
    const answer = await ctx.engine.signature(args.symbol, { signal: ctx.signal });
    const s = answer.symbol;
    const symbol = { qualified: s.qualified, kind: s.kind, path: s.path, line: s.line, end: s.end };
    const all = answer.members.map((m) => ({ qualified: m.qualified, kind: m.kind, line: m.line }));
    const lines = answer.text.split("\n");
    const { open, close } = fenceLines(s.path, answer.text);
    // The outline is the text content; the structured content lists the members. When the whole
    // outline does not fit, a class so large lists its first 100 members and keeps whole lines.
    const fitWith = (members: typeof all) =>
      fitLines({
        lines,
        header: () => `## ${at(s.path, s.line, s.end)} ${s.kind} ${s.qualified}\n${open}`,
        footer: (kept, clipped) =>
          kept < lines.length || clipped
            ? `${close}\nNote: outline cut after ${plural(kept, "line")} (${lines.length - kept} more) to fit ` +
              `the response cap; read the rest with read_snippet on ${s.path} or ask for a member by name.`
            : close,
        budget: ctx.cap,
        envelope: ctx.count(JSON.stringify({ symbol, members, truncated: false })),
        count: ctx.count,
      });
    let members = all;
    let fit = fitWith(members);
    if (fit.kept < lines.length || fit.clipped) {
      members = all.slice(0, 100);
      fit = fitWith(members);
    }
    return { text: fit.text, data: { symbol, members, truncated: fit.kept < lines.length || fit.clipped } };
  },
});
