/** `callers`: who calls a symbol, with call sites and how sure each link is. */
import { defineTool } from "../tool.ts";
import { callsInput, callsOutput, runCalls } from "./calls.ts";

export const callersTool = defineTool({
  name: "callers",
  title: "Callers of a symbol",
  description: [
    "Lists the call sites that call a symbol: for each, the calling symbol with `path:line`, the call site's `path:line`, how the call was resolved (scope, import, self, type, unique-name) and a confidence from 0 to 1; a call inside a test also names the test's runnable id. depth > 1 adds callers of callers (each listed once).",
    "One page at a time (limit, default 50, within the budget, default 4000 tokens): production code first, test code counted by file unless tests is include, exclude or only. The answer always states the totals and names the cursor of the next page.",
    "Calls that match only by name (several definitions share it) are listed separately as possible callers. The answer says what it could not see — call sites naming the symbol that are linked to nothing, files with syntax errors, languages whose calls are not extracted, overriding methods reached by dynamic dispatch — so an empty list is never proof that nothing calls it.",
    "Use it before changing a function's behaviour or signature, to see who depends on it; use tests for the tests to run after the change. Limits: static analysis; depth at most 10.",
  ].join("\n"),
  input: callsInput,
  output: callsOutput,
  run: (args, ctx) => runCalls("callers", args, ctx),
});
