/** `codeslice map`: the repo map fitted to a budget. */
import { LIMITS } from "../../index.ts";
import { defineCommand } from "../command.ts";
import { budgetFlags, engineFlags } from "../flags.ts";
import { EXIT, writeJson, writeOut } from "../output.ts";
import { budgetOptions, withEngine } from "../with-engine.ts";

/** `codeslice map`. */
export const mapCommand = defineCommand({
  name: "map",
  summary: "The repo map: services, languages, entry points, central symbols, layout, witnesses",
  flags: { ...budgetFlags(LIMITS.budget.map), ...engineFlags },
  help: `Prints a map of the project fitted to --budget tokens, counted with the real tokenizer:
services, languages, entry points, the most referenced symbols with path:line citations,
top-level layout and witnesses. Indexes first if needed.`,
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
