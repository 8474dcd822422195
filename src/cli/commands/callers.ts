/** `codeslice callers`: who calls a symbol, with call sites, resolution and confidence, one page at a time. */
import { LIMITS } from "../../index.ts";
import { defineCommand } from "../command.ts";
import { budgetFlags, depthFlag, engineFlags, pagingFlags } from "../flags.ts";
import { listRun } from "../with-engine.ts";

/** `codeslice callers`. */
export const callersCommand = defineCommand({
  name: "callers",
  summary: "Who calls a symbol, with call sites, resolution and confidence, one page at a time",
  args: [
    {
      name: "symbol",
      what: "a symbol",
      maxChars: { limit: LIMITS.targetChars, noun: "argument" },
      help: "The symbol whose callers to list, or METHOD /path (its route's handler)",
    },
  ],
  flags: { depth: depthFlag(LIMITS.depth.default), ...pagingFlags, ...budgetFlags(LIMITS.budget.list), ...engineFlags },
  help: `Lists the call sites that call <symbol>, each with the calling symbol, path:line, how the
call was resolved and a confidence (and, in a test, the test's runnable id). --depth N
follows callers of callers. Calls that only match by name (several definitions share it)
are listed separately as possible callers.

One page at a time: --limit entries within --budget tokens, production code first; test
code is counted by file unless --tests include (everything, production first), exclude or
only. The answer states the totals, names the cursor of the next page (--cursor C) and says
what it could not see: call sites naming the symbol that are linked to nothing, files with
syntax errors, languages whose calls are not extracted, overriding methods reached by
dynamic dispatch.

A route (codeslice callers "PUT /api/v1/items/42") stands for its handler: its callers are the
handler's callers plus the client calls in the project that reach the route (fetch, axios,
httpx, requests, test clients; resolution "route"), and --depth follows their callers.`,
  examples: [
    "codeslice callers Session.send",
    'codeslice callers "PUT /api/v1/items/42" --depth 2',
    "codeslice callers src/db.py::connect --depth 2 --tests include",
    "codeslice callers Hono.request --cursor 50.summary.1",
  ],
  run: listRun((engine, target, options) => engine.callers(target, options)),
});
