/** `codeslice grep`: a bounded, linear-time regex over the project's files, each hit with its enclosing symbol. */
import { LIMITS } from "../../index.ts";
import { defineCommand } from "../command.ts";
import { budgetFlags, engineFlags, integerFlag, switchFlag, textFlag } from "../flags.ts";
import { budgetOptions, printAnswer, withEngine } from "../with-engine.ts";

/** Splits `a,b,{c,d}` on the commas outside braces. */
export function splitGlobs(list: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < list.length; i++) {
    if (list[i] === "{") depth++;
    else if (list[i] === "}") depth = Math.max(0, depth - 1);
    else if (list[i] === "," && depth === 0) {
      out.push(list.slice(from, i));
      from = i + 1;
    }
  }
  out.push(list.slice(from));
  return out.map((g) => g.trim()).filter((g) => g !== "");
}

/** `codeslice grep`. */
export const grepCommand = defineCommand({
  name: "grep",
  summary: "Lines matching a regex (RE2, linear time), with path:line and the enclosing symbol, bounded",
  args: [
    {
      name: "pattern",
      what: "a pattern",
      maxChars: { limit: LIMITS.grep.patternChars, noun: "pattern" },
      help: "A regular expression in RE2 syntax (no lookaround or backreferences); quote it for the shell",
    },
  ],
  flags: {
    paths: textFlag(
      "paths",
      "GLOBS",
      "Comma-separated globs the paths must match (src/**/*.py, *.md, docs/); !GLOB leaves paths out",
    ),
    ignoreCase: switchFlag("ignore-case", "Match without regard to case", "i"),
    maxMatches: integerFlag(
      "max-matches",
      "N",
      LIMITS.grep.matches.min,
      LIMITS.grep.matches.max,
      "Matching lines to list at most; the answer says when more exist",
      { default: String(LIMITS.grep.matches.default) },
    ),
    timeMs: integerFlag(
      "time-ms",
      "MS",
      LIMITS.grep.timeMs.min,
      LIMITS.grep.timeMs.max,
      "Milliseconds to search at most",
      { default: String(LIMITS.grep.timeMs.default) },
    ),
    ...budgetFlags(LIMITS.budget.list),
    ...engineFlags,
  },
  help: `Searches the files of the index inventory (source, docs, configuration: what the scan keeps;
nothing ignored, nothing outside the root) for lines matching <pattern>, in RE2 syntax: matching
takes time linear in the text, so no pattern can hang the search. Each hit is printed as
path:line:column with the line and the definition around it ([function app.api.deps.get_db]).
One hit per line; binary files are passed over. The search stops at --max-matches lines,
--time-ms milliseconds or ${LIMITS.grep.bytes / (1024 * 1024)} MiB read, and says so; the text fits --budget tokens.
An invalid pattern is refused with the column of the error.`,
  examples: [
    'codeslice grep "os\\.environ\\[" --paths "*.py"',
    'codeslice grep -i "todo|fixme" --paths "src/,!src/vendor/" --max-matches 50',
    'codeslice grep "POSTGRES_\\w+" --json',
  ],
  async run({ args: [pattern], flags }) {
    return withEngine(flags, async (engine, progress) => {
      const answer = await engine.grep(pattern!, {
        onProgress: progress.onProgress,
        ...(flags.paths !== undefined ? { paths: splitGlobs(flags.paths) } : {}),
        ...(flags.ignoreCase ? { ignoreCase: true } : {}),
        ...(flags.maxMatches !== undefined ? { maxMatches: flags.maxMatches } : {}),
        ...(flags.timeMs !== undefined ? { timeMs: flags.timeMs } : {}),
        ...budgetOptions(flags),
      });
      return printAnswer(progress, answer, flags.json);
    });
  },
});
