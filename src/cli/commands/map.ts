/** `codeslice map`: the repo map fitted to a budget. */
import { LIMITS } from "../../index.ts";
import { defineCommand } from "../command.ts";
import { budgetFlags, engineFlags, rootArg } from "../flags.ts";
import { EXIT, writeJson, writeOut } from "../output.ts";
import { budgetOptions, withEngine } from "../with-engine.ts";

/** `codeslice map`. */
export const mapCommand = defineCommand({
  name: "map",
  summary: "The repo map: services, languages, entry points, central symbols, layout, witnesses",
  args: [rootArg],
  flags: { ...budgetFlags(LIMITS.budget.map), ...engineFlags },
  help: `Prints a map of the project fitted to --budget tokens, counted with the real tokenizer:
services (the root package first), languages, entry points of the product's own code (routes,
commands, handlers, top-level main functions; when it has none, the first three of its tests'
and examples' with their count), the most
central symbols of the product's own code with path:line citations (definitions in tests,
examples, benchmarks and vendored folders counted apart), top-level layout and witnesses
(test files, and test cases by their runner's rules: each it(/test( call, each pytest
test_ function). Indexes first if needed.`,
  examples: ["codeslice map", "codeslice map --budget 4000 --json"],
  async run({ flags }) {
    return withEngine(flags, async (engine, progress) => {
      const map = await engine.map({ onProgress: progress.onProgress, ...budgetOptions(flags) });
      progress.done();
      if (flags.json) {
        const { text: _t, ...data } = map;
        writeJson({ ...data, text: map.text });
      } else writeOut(map.text);
      return EXIT.ok;
    });
  },
});
