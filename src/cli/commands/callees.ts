/** `codeslice callees`: what a symbol calls, including calls into external packages. */
import { LIMITS } from "../../index.ts";
import { defineCommand } from "../command.ts";
import { budgetFlags, depthFlag, engineFlags, pagingFlags } from "../flags.ts";
import { listRun } from "../with-engine.ts";

/** `codeslice callees`. */
export const calleesCommand = defineCommand({
  name: "callees",
  summary: "What a symbol calls, including calls into external packages",
  args: [
    {
      name: "symbol",
      what: "a symbol",
      maxChars: { limit: LIMITS.targetChars, noun: "argument" },
      help: "The symbol whose calls to list",
    },
  ],
  flags: { depth: depthFlag(LIMITS.depth.default), ...pagingFlags, ...budgetFlags(LIMITS.budget.list), ...engineFlags },
  help: `Lists what <symbol> calls (project symbols with path:line and resolution), then calls into
external packages and the standard library; paged like callers, and says which of its
calls are linked to nothing.`,
  examples: ["codeslice callees Session.send", "codeslice callees build_app --depth 2 --json"],
  run: listRun((engine, target, options) => engine.callees(target, options)),
});
