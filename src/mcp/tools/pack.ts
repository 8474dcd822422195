/** `pack`: like context, seeded by the best search hits for a task described in words. */
import { z } from "zod";
import { budget, contextOutput, targetArg } from "../schemas.ts";
import { defineTool } from "../tool.ts";
import { budgetedContext, DEFAULT_CONTEXT_BUDGET } from "./context.ts";

export const packTool = defineTool({
  name: "pack",
  title: "Code context for a task in words",
  description:
    'Like context, for a task in words ("add retry to the HTTP client"): search picks seed symbols, and their ' +
    ("types, callees, callers and tests fill the budget. The answer names the seeds; if they are wrong, call " +
      "context with the right symbol."),
  input: z.strictObject({
    task: targetArg("task", "The task's key words and identifiers.", "keep the key words"),
    budget: budget("", DEFAULT_CONTEXT_BUDGET),
  }),
  output: contextOutput,
  async run(args, ctx) {
    const requested = args.budget ?? DEFAULT_CONTEXT_BUDGET;
    return budgetedContext(
      ctx,
      args.task,
      (b, envelope) => ctx.engine.pack(args.task, { budget: b, envelope, signal: ctx.signal }),
      requested,
    );
  },
});
