/** `signature`: a symbol's header and docstring without its body; a class with its members stubbed. */
import { z } from "zod";
import { capLines } from "../fit.ts";
import { at, fence, plural } from "../render.ts";
import { symbolArg } from "../schemas.ts";
import { defineTool } from "../tool.ts";

export const signatureTool = defineTool({
  name: "signature",
  title: "Signature of a symbol",
  description: [
    "Returns a symbol's declaration without its body: decorators, header with parameters and types, docstring; for a class or interface, each member's header with bodies stubbed. Headed `## path:start-end kind name` for citation.",
    "Use it to learn how to call something or what a class offers, at a fraction of the tokens of reading the file. Use context when you need the implementation too.",
    "Limits: one symbol per call; an ambiguous name returns the candidates to choose from.",
  ].join("\n"),
  input: z.strictObject({ symbol: symbolArg }),
  output: z.object({
    symbol: z.object({ qualified: z.string(), kind: z.string(), path: z.string(), line: z.int(), end: z.int() }),
    text: z.string().describe("The outline, headed `## path:start-end kind name`."),
    members: z.array(z.object({ qualified: z.string(), kind: z.string(), line: z.int() })),
    truncated: z.boolean().describe("True when the outline was cut at a whole line to fit the response cap."),
  }),
  async run(args, ctx) {
    const answer = await ctx.engine.signature(args.symbol, { signal: ctx.signal });
    const s = answer.symbol;
    const symbol = { qualified: s.qualified, kind: s.kind, path: s.path, line: s.line, end: s.end };
    const members = answer.members.map((m) => ({ qualified: m.qualified, kind: m.kind, line: m.line }));
    const head = `## ${at(s.path, s.line, s.end)} ${s.kind} ${s.qualified}`;
    let text = `${head}\n${fence(s.path, answer.text)}`;
    let data = { symbol, text, members, truncated: false };
    if (ctx.measure(text, data) <= ctx.cap) return { text, data };
    // A class so large its outline passes the cap: keep whole lines, and say where the rest is.
    const listed = members.slice(0, 100);
    let limit = ctx.cap - ctx.count(JSON.stringify(listed)) - 200;
    for (;;) {
      const kept = capLines(answer.text, Math.max(1, limit), ctx.count);
      text = `${head}\n${fence(s.path, kept.text)}\nNote: outline cut after ${plural(kept.keptLines, "line")} (${kept.droppedLines} more) to fit the response cap; read the rest with read_snippet on ${s.path} or ask for a member by name.`;
      data = { symbol, text, members: listed, truncated: true };
      if (ctx.measure(text, data) <= ctx.cap || limit <= 1) break;
      limit = Math.floor(limit * 0.8);
    }
    return { text, data };
  },
});
