/** `codeslice locate`: the files and functions a task points at, ranked, with the evidence for each. */
import { readFileSync } from "node:fs";
import { LIMITS, LOCATE_LIMITS } from "../../index.ts";
import { checkArgLength, defineCommand, type Arg } from "../command.ts";
import { budgetFlags, engineFlags, limitFlag } from "../flags.ts";
import { budgetOptions, printAnswer, withEngine } from "../with-engine.ts";

const task: Arg = {
  name: "task",
  what: "a task",
  rest: true,
  maxChars: { limit: LIMITS.targetChars, noun: "task" },
  help:
    `The task whole: a bug report with its code blocks, tracebacks and logs, an error, a commit message; up ` +
    `to ${LIMITS.targetChars} characters; - reads it from standard input`,
};

/** `codeslice locate`. */
export const locateCommand = defineCommand({
  name: "locate",
  summary:
    "Where a task points (a whole bug report, an error, a commit message): ranked files and functions with the " +
    "evidence for each",
  args: [task],
  flags: {
    limit: limitFlag("Files", LOCATE_LIMITS.files.max, LOCATE_LIMITS.files.default),
    ...budgetFlags(LOCATE_LIMITS.budget),
    ...engineFlags,
  },
  help: `Ranks the files a task points at and, under each, its functions and classes, with the evidence
that put each there: trace frames mapped into the project (by path suffix, so a traceback from an
installed copy or another machine works), paths and names the task gives, the task's words each
file holds. Pass the task whole; --budget counts the text only.

--json: { "files": [ { "path", "score", "why", "symbols": [ { "qualified", "line", "score" } ] } ], … }`,
  examples: [
    "codeslice locate \"TypeError: send() got an unexpected keyword argument 'timeout'\"",
    "codeslice locate - < issue.md",
    'codeslice locate "login fails after password reset" --limit 5 --json',
  ],
  async run({ args: [given], flags }) {
    // `-` reads a task from standard input (a bug report is long and full of quotes).
    const text = given === "-" ? readFileSync(0, "utf8") : given!;
    checkArgLength(task, text);
    return withEngine(flags, async (engine, progress) => {
      const answer = await engine.locate(text, {
        onProgress: progress.onProgress,
        ...(flags.limit !== undefined ? { limit: flags.limit } : {}),
        ...budgetOptions(flags),
      });
      return printAnswer(progress, answer, flags.json);
    });
  },
});
