/** `callees`: what a symbol calls, in the project and outside it. */
import { defineTool } from "../tool.ts";
import { callsInput, callsOutput, runCalls } from "./calls.ts";

export const calleesTool = defineTool({
  name: "callees",
  title: "Callees of a symbol",
  description:
    "What a symbol calls: project symbols with `path:line`, resolution and confidence, then calls into external " +
    "packages. Paged like callers.",
  input: callsInput,
  output: callsOutput,
  run: (args, ctx) => runCalls("callees", args, ctx),
});
