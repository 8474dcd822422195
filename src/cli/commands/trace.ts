/** `codeslice trace`: the shortest cited paths from a symbol or route to a symbol. */
import { LIMITS } from "../../index.ts";
import { defineCommand } from "../command.ts";
import { budgetFlags, engineFlags, integerFlag } from "../flags.ts";
import { budgetOptions, printAnswer, withEngine } from "../with-engine.ts";

/** `codeslice trace`. */
export const traceCommand = defineCommand({
  name: "trace",
  summary: 'Shortest call/inheritance/import paths from a symbol or "METHOD /path" to a symbol',
  args: [
    { name: "from", what: "<from>", help: 'A symbol, or a route "METHOD /path" (quoted)' },
    { name: "to", what: "<to>", help: "A symbol" },
  ],
  argsNote: ' (quote a route: "GET /users/{id}")',
  flags: {
    k: integerFlag("k", "N", 1, LIMITS.trace.paths.max, `Paths to find, 1-${LIMITS.trace.paths.max}`, {
      default: String(LIMITS.trace.paths.default),
    }),
    maxHops: integerFlag("max-hops", "N", 1, LIMITS.trace.hops.max, `Hops to search, 1-${LIMITS.trace.hops.max}`, {
      default: String(LIMITS.trace.hops.default),
    }),
    ...budgetFlags(LIMITS.budget.list),
    ...engineFlags,
  },
  help: `The shortest paths (up to --k) from <from> to <to>, within --max-hops hops, through calls,
constructor and super calls, inheritance, overriding methods (dynamic dispatch), type
annotations and, between files, imports. Each hop is cited with its line. A dispatch hop (a
call through a base method reaching its override) continues that call and does not count
against --max-hops. When no path exists it says what was searched, and whether <to> reaches
<from> the other way round.`,
  examples: ["codeslice trace login get_user_model", 'codeslice trace "POST /api/orders" Order.save --k 1 --json'],
  async run({ args: [from, to], flags }) {
    return withEngine(flags, async (engine, progress) => {
      const answer = await engine.trace(from!, to!, {
        onProgress: progress.onProgress,
        ...(flags.k !== undefined ? { k: flags.k } : {}),
        ...(flags.maxHops !== undefined ? { maxHops: flags.maxHops } : {}),
        ...budgetOptions(flags),
        ...(flags.json ? { json: true } : {}),
      });
      return printAnswer(progress, answer, flags.json);
    });
  },
});
