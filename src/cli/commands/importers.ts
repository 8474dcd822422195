/** `codeslice importers`: files that import a file, transitively with --depth N. */
import { LIMITS } from "../../index.ts";
import { defineCommand } from "../command.ts";
import { budgetFlags, depthFlag, engineFlags, pagingFlags } from "../flags.ts";
import { listRun } from "../with-engine.ts";

/** `codeslice importers`. */
export const importersCommand = defineCommand({
  name: "importers",
  summary: "Files that import a file, transitively with --depth N",
  args: [
    {
      name: "file",
      what: "a file",
      maxChars: { limit: LIMITS.targetChars, noun: "argument" },
      help: "A path relative to the project root",
    },
  ],
  flags: { depth: depthFlag(LIMITS.depth.default), ...pagingFlags, ...budgetFlags(LIMITS.budget.list), ...engineFlags },
  help: `Lists the files that import <file> (a path relative to the project root); --depth N adds
the files that import those, and so on. Paged like callers; says which imports resolve to
no file and which files have syntax errors.`,
  examples: ["codeslice importers src/util.ts", "codeslice importers app/models.py --depth 2 --tests exclude"],
  run: listRun((engine, target, options) => engine.importers(target, options)),
});
