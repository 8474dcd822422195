/** `codeslice signature`: a symbol's header and docstring without its body. */
import { cite, LIMITS } from "../../index.ts";
import { defineCommand } from "../command.ts";
import { engineFlags } from "../flags.ts";
import { EXIT, writeJson, writeOut } from "../output.ts";
import { withEngine } from "../with-engine.ts";

/** `codeslice signature`. */
export const signatureCommand = defineCommand({
  name: "signature",
  summary: "Header and docstring without the body; classes with members stubbed",
  args: [
    {
      name: "symbol",
      what: "a symbol",
      maxChars: { limit: LIMITS.targetChars, noun: "argument" },
      help: "The symbol to show",
    },
  ],
  flags: { ...engineFlags },
  help: `Prints the symbol's header and docstring without its body; for a class, its members'
headers with bodies stubbed. Cheaper than reading the file.`,
  examples: ["codeslice signature Session.send", "codeslice signature src/cart.ts#Cart --json"],
  async run({ args: [symbol], flags }) {
    return withEngine(flags, async (engine, progress) => {
      const answer = await engine.signature(symbol!, { onProgress: progress.onProgress });
      progress.done();
      if (flags.json) writeJson(answer);
      else
        writeOut(
          `## ${cite(answer.symbol.path, answer.symbol.line, answer.symbol.end)} ` +
            `${answer.symbol.qualified}\n${answer.text}`,
        );
      return EXIT.ok;
    });
  },
});
