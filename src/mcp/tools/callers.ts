/** `callers`: who calls a symbol, with call sites and how sure each link is. */
import { defineTool } from "../tool.ts";
import { callsInput, callsOutput, runCalls } from "./calls.ts";

export const callersTool = defineTool({
  name: "callers",
  title: "Callers of a symbol",
  description:
    "Call sites of a symbol: the caller with `path:line`, how the call was resolved and a confidence; a test " +
    ("caller's runnable id; name-only matches apart. Paged, production code first, with totals and the next " +
      ("cursor. It says what it could not see (unlinked calls, parse errors, dynamic dispatch): an empty list is " +
        "no proof. Use it before changing a function.")),
  input: callsInput,
  output: callsOutput,
  run: (args, ctx) => runCalls("callers", args, ctx),
});
