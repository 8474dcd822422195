/**
 * `codeslice tests`: the tests that exercise a symbol or file: runnable ids and the commands to run them; with --run,
 * runs them.
 */
import { LIMITS, RUN_LIMITS } from "../../index.ts";
import { defineCommand } from "../command.ts";
import { budgetFlags, depthFlag, engineFlags, integerFlag, pagingFlags, switchFlag } from "../flags.ts";
import { EXIT, UsageError, writeJson, writeOut } from "../output.ts";
import { listRun, withEngine } from "../with-engine.ts";

const list = listRun((engine, target, options) => engine.tests(target, options));

/** `codeslice tests`. */
export const testsCommand = defineCommand({
  name: "tests",
  summary: "The tests that exercise a symbol or file: runnable ids and the commands to run them (--run runs them)",
  args: [
    {
      name: "target",
      what: "a target",
      maxChars: { limit: LIMITS.targetChars, noun: "argument" },
      help: "A symbol, a file, or a route as METHOD /path",
    },
  ],
  flags: {
    depth: depthFlag(2),
    run: switchFlag(
      "run",
      "Run the tests with the runner found and print only the exit code, failing ids and assertion lines",
    ),
    timeout: integerFlag(
      "timeout",
      "S",
      RUN_LIMITS.timeoutSeconds.min,
      RUN_LIMITS.timeoutSeconds.max,
      "With --run: seconds each command may run before it and its processes are killed",
      { default: String(RUN_LIMITS.timeoutSeconds.default) },
    ),
    ...pagingFlags,
    ...budgetFlags(LIMITS.budget.list),
    ...engineFlags,
  },
  help: `Lists the tests that exercise a symbol or a file: test functions among its callers (through
helpers, up to --depth hops), test files that import its file and name it, and, for
languages whose calls are not extracted, tests that name it. A route handler's tests include the
tests that send a request to its route (test clients, supertest, app.request), and a route
target (METHOD /path) stands for its handler. Each comes with a runnable id
in its runner's own syntax (pytest node ids, Vitest/Jest -t names, go test -run, cargo test
paths, JUnit Class#method) and the command lines that run just those tests, with the runner
found from the project's manifests and configs. When none is found within --depth but callers
reach tests further up, the answer says how many at which depth: ask again with that --depth.
With --run, codeslice runs those commands (at most ${RUN_LIMITS.maxCommands}) without a shell, only when the
program is an allowlisted runner (pytest, npm/pnpm/yarn test, vitest, jest, go test, cargo
test, mvn/gradle test, dotnet test, rspec, phpunit), each killed after --timeout seconds,
and prints the command, the exit code, the failing test ids and the assertion and traceback
lines (with several failures, the first whole and a line per other difference) within
--budget (default ${RUN_LIMITS.budget.default} with --run), or the output's last lines when no failure
is recognized. Exit code 0 when the tests pass, 1 when they fail or time out.`,
  examples: [
    "codeslice tests Session.send",
    "codeslice tests src/cart.ts --json",
    'codeslice tests "PUT /api/v1/items/{id}"',
    "codeslice tests src/cart.ts --run --timeout 120",
  ],
  run(ctx) {
    const {
      args: [target],
      flags,
    } = ctx;
    if (!flags.run) return list(ctx);
    const { min, max } = RUN_LIMITS.budget;
    if (flags.budget !== undefined && (flags.budget < min || flags.budget > max))
      throw new UsageError(`--budget with --run must be between ${min} and ${max}, got ${flags.budget}`);
    return withEngine(flags, async (engine, progress) => {
      const answer = await engine.runTests(target!, {
        onProgress: progress.onProgress,
        ...(flags.depth ? { depth: flags.depth } : {}),
        ...(flags.timeout !== undefined ? { timeoutSeconds: flags.timeout } : {}),
        ...(flags.budget !== undefined ? { budget: flags.budget } : {}),
      });
      progress.done();
      if (flags.json) writeJson(answer);
      else writeOut(answer.text);
      return answer.passed ? EXIT.ok : EXIT.failure;
    });
  },
});
