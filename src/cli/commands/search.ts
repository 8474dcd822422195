/** `codeslice search`: symbols by name, path, signature and docstring words. */
import { LIMITS } from "../../index.ts";
import { defineCommand } from "../command.ts";
import { engineFlags, limitFlag } from "../flags.ts";
import { EXIT, writeJson, writeOut } from "../output.ts";
import { renderSearch } from "../render.ts";
import { withEngine } from "../with-engine.ts";

/** `codeslice search`. */
export const searchCommand = defineCommand({
  name: "search",
  summary: "Symbols by name, path, signature and docstring words",
  args: [
    {
      name: "words",
      what: "words to search for",
      rest: true,
      maxChars: { limit: LIMITS.targetChars, noun: "query" },
      help: "What to look for, quoted or not",
    },
  ],
  flags: { limit: limitFlag("Results", LIMITS.searchResults.max, LIMITS.searchResults.default), ...engineFlags },
  help: `Finds symbols whose names, paths, signatures or docstrings contain the words; identifiers
are split on camelCase and snake_case. Name matches rank above docstring matches.`,
  examples: ["codeslice search parse config", 'codeslice search "retry backoff" --limit 5 --json'],
  async run({ args: [words], flags }) {
    return withEngine(flags, async (engine, progress) => {
      const hits = await engine.search(words!, {
        onProgress: progress.onProgress,
        ...(flags.limit ? { limit: flags.limit } : {}),
      });
      progress.done();
      if (flags.json) writeJson({ query: words, results: hits });
      else writeOut(renderSearch(words!, hits));
      return EXIT.ok;
    });
  },
});
