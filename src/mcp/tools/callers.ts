/** `callers`: who calls a symbol, with call sites and how sure each link is. */
import { defineTool } from "../tool.ts";
import { callsInput, callsOutput, MAX_DEPTH, runCalls } from "./calls.ts";

export const callersTool = defineTool({
  name: "callers",
  title: "Callers of a symbol",
  description: [
    "Lists the call sites that call a symbol: for each, the calling symbol with `path:line`, the call site's `path:line`, how the call was resolved (scope, import, self, type, unique-name) and a confidence from 0 to 1. depth > 1 adds callers of callers (each listed once).",
    "Calls that match only by name (several definitions share it) are listed separately as possible callers.",
    `Use it before changing a function's behaviour or signature, to see who depends on it. Limits: static analysis (no dynamic dispatch through strings, reflection or untyped containers); depth at most ${MAX_DEPTH}; long lists are cut to whole entries with a count of those not shown.`,
  ].join("\n"),
  input: callsInput,
  output: callsOutput,
  run: (args, ctx) => runCalls("callers", args, ctx),
});
