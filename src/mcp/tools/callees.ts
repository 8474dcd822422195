/** `callees`: what a symbol calls, in the project and outside it. */
import { defineTool } from "../tool.ts";
import { callsInput, callsOutput, runCalls } from "./calls.ts";

export const calleesTool = defineTool({
  name: "callees",
  title: "Callees of a symbol",
  description: [
    "Lists what a symbol calls: project symbols with their `path:line`, the call site, how each call was resolved and a confidence from 0 to 1; then calls into external packages and the standard library (e.g. os.path.join) with their call sites. depth > 1 follows callees of callees.",
    "Use it to see what a function depends on before reading or changing it; use context to get those callees' code within a budget, trace for the path to one symbol.",
    "One page at a time (limit, cursor, budget default 4000 tokens) with the totals. The answer names the calls it makes that are linked to no definition and overriding methods (dynamic dispatch) it does not follow. Limits: static analysis; depth at most 10.",
  ].join("\n"),
  input: callsInput,
  output: callsOutput,
  run: (args, ctx) => runCalls("callees", args, ctx),
});
