/** `pack`: like context, seeded by the best search hits for a task described in words. */
import { z } from "zod";
import { LIMITS } from "../../index.ts";
import { budget, contextOutput, targetArg } from "../schemas.ts";
import { defineTool } from "../tool.ts";
import { budgetedContext, DEFAULT_CONTEXT_BUDGET } from "./context.ts";

export const packTool = defineTool({
  name: "pack",
  title: "Code context for a task in words",
  description: [
    "Returns a budgeted bundle of whole code chunks for a task described in words (\"add retry to the HTTP client\", \"where are sessions persisted\"): search picks several seed symbols, then their types, callees, callers and tests fill the budget.",
    "Chunks are headed `## path:start-end [role] name` (cite those); cut chunks are listed with handles and token costs. The answer says which seeds search picked: if they are wrong, call context with the right symbol instead.",
    `Use it when you know what you want to do but not which symbol to start from. Limits: word search over names, paths, signatures and docstrings (not a language model); task at most ${LIMITS.targetChars} characters; the budget covers the text and the structured content together and is capped by the server's response limit.`,
  ].join("\n"),
  input: z.strictObject({
    task: targetArg("task", "The task in a few words; identifiers and domain words work best.", "keep the key words"),
    budget: budget("", DEFAULT_CONTEXT_BUDGET),
  }),
  output: contextOutput,
  async run(args, ctx) {
    const requested = args.budget ?? DEFAULT_CONTEXT_BUDGET;
    return budgetedContext(ctx, args.task, (b, envelope) => ctx.engine.pack(args.task, { budget: b, envelope, signal: ctx.signal }), requested);
  },
});
