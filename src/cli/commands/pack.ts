/** `codeslice pack`: a context bundle seeded by the best search hits for a task in words. */
import { LIMITS } from "../../index.ts";
import { defineCommand } from "../command.ts";
import { budgetFlags, engineFlags } from "../flags.ts";
import { budgetOptions, printAnswer, withEngine } from "../with-engine.ts";

/** `codeslice pack`. */
export const packCommand = defineCommand({
  name: "pack",
  summary: "Like context, seeded by the best search hits for a task in words",
  args: [
    {
      name: "task",
      what: "a task",
      rest: true,
      maxChars: { limit: LIMITS.targetChars, noun: "task" },
      help: `The task in words (quoted or not), at most ${LIMITS.targetChars} characters`,
    },
  ],
  flags: { ...budgetFlags(LIMITS.budget.context), ...engineFlags },
  help: `Searches for the symbols that best match the task and fills the budget around them, like
context with several seeds.`,
  examples: [
    'codeslice pack "retry failed uploads with backoff"',
    "codeslice pack add a rate limit to login --budget 6000",
  ],
  async run({ args: [task], flags }) {
    return withEngine(flags, async (engine, progress) => {
      const answer = await engine.pack(task!, { onProgress: progress.onProgress, ...budgetOptions(flags) });
      return printAnswer(progress, answer, flags.json);
    });
  },
});
