/** `codeslice context`: the smallest bundle of whole symbols for a target, within a budget. */
import { LIMITS } from "../../index.ts";
import { defineCommand } from "../command.ts";
import { budgetFlags, engineFlags } from "../flags.ts";
import { budgetOptions, printAnswer, withEngine } from "../with-engine.ts";

/** `codeslice context`. */
export const contextCommand = defineCommand({
  name: "context",
  summary:
    "The smallest bundle of whole symbols for a symbol, file, route, location, stack trace or words, within --budget",
  args: [
    {
      name: "target",
      what: "a target",
      rest: true,
      maxChars: { limit: LIMITS.targetChars, noun: "argument" },
      help:
        `A symbol (Session.send, pkg.mod.func, src/a.ts#Class.method), path::symbol, a file path, an HTTP ` +
        `route ("POST /api/users") or a few words; at most ${LIMITS.targetChars} characters`,
    },
  ],
  flags: { ...budgetFlags(LIMITS.budget.context), ...engineFlags },
  help: `Prints the smallest bundle of whole symbols that answers <target>, within --budget tokens
counted over the whole answer with the real tokenizer. Chunks come in priority order, each
headed "## path:start-end [role] name": the seed, the types it uses, its callees, its callers,
mount lines (for routes) and witnesses (tests). A chunk that does not fit in full is shown as
an outline, else listed as cut with its token cost.

A route's prefixes are followed through mounts; for a few words, search picks the seed and
the answer says which.`,
  examples: [
    "codeslice context Session.send",
    'codeslice context "POST /api/users" --budget 4000',
    "codeslice context src/auth.py::login --json",
  ],
  async run({ args: [target], flags }) {
    return withEngine(flags, async (engine, progress) => {
      const answer = await engine.context(target!, { onProgress: progress.onProgress, ...budgetOptions(flags) });
      return printAnswer(progress, answer, flags.json);
    });
  },
});
