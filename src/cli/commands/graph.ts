/** `codeslice graph`: the code graph as JSON in the graph-gold shape. */
import { defineCommand, defineFlag } from "../command.ts";
import { engineFlags, rootArg } from "../flags.ts";
import { EXIT, UsageError, writeJson } from "../output.ts";
import { goldGraphStream } from "../../index.ts";
import { withEngine } from "../with-engine.ts";

/** `codeslice graph`. */
export const graphCommand = defineCommand({
  name: "graph",
  summary: "The code graph in the graph-gold JSON shape",
  args: [rootArg],
  flags: {
    minConfidence: defineFlag({
      name: "min-confidence",
      value: "X",
      help: "Drop call edges resolved with a confidence below X (0-1)",
      parse: (raw) => {
        const x = Number(raw);
        if (!(x >= 0 && x <= 1)) throw new UsageError("--min-confidence must be a number from 0 to 1");
        return x;
      },
    }),
    ...engineFlags,
  },
  help: `Prints the code graph (definitions, call edges, import edges, inherits) as JSON in the
code-graph-gold/1 shape, for scoring and for tools; the output is JSON with or without
--json. Each call edge carries how it was resolved (scope, import, self, type, unique-name)
and a confidence.`,
  examples: ["codeslice graph --json > graph.json", "codeslice graph --min-confidence 0.9"],
  async run({ flags }) {
    return withEngine(flags, async (engine, progress) => {
      const graph = await engine.codeGraph({ onProgress: progress.onProgress });
      progress.done();
      // streamed: the kernel's graph is millions of edges, too many to hold as a second document
      writeJson(goldGraphStream(graph, flags.minConfidence ?? 0));
      return EXIT.ok;
    });
  },
});
