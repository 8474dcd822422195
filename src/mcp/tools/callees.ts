/** `callees`: what a symbol calls, in the project and outside it. */
import { defineTool } from "../tool.ts";
import { callsInput, callsOutput, MAX_DEPTH, runCalls } from "./calls.ts";

export const calleesTool = defineTool({
  name: "callees",
  title: "Callees of a symbol",
  description: [
    "Lists what a symbol calls: project symbols with their `path:line`, the call site, how each call was resolved and a confidence from 0 to 1; then calls into external packages and the standard library (e.g. os.path.join) with their call sites. depth > 1 follows callees of callees.",
    "Use it to see what a function depends on before reading or changing it; use context to get those callees' code within a budget.",
    `Limits: static analysis (calls through dynamic dispatch may be missing); depth at most ${MAX_DEPTH}; long lists are cut to whole entries with a count of those not shown.`,
  ].join("\n"),
  input: callsInput,
  output: callsOutput,
  run: (args, ctx) => runCalls("callees", args, ctx),
});
