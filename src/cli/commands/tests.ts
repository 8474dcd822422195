/** `codeslice tests`: the tests that exercise a symbol or file: runnable ids and the commands to run them. */
import { LIMITS } from "../../index.ts";
import { defineCommand } from "../command.ts";
import { budgetFlags, depthFlag, engineFlags, pagingFlags } from "../flags.ts";
import { listRun } from "../with-engine.ts";

/** `codeslice tests`. */
export const testsCommand = defineCommand({
  name: "tests",
  summary: "The tests that exercise a symbol or file: runnable ids and the commands to run them",
  args: [{ name: "target", what: "a target", maxChars: { limit: LIMITS.targetChars, noun: "argument" }, help: "A symbol, a file, or a route as METHOD /path" }],
  flags: { depth: depthFlag(2), ...pagingFlags, ...budgetFlags(LIMITS.budget.list), ...engineFlags },
  help: `Lists the tests that exercise a symbol or a file: test functions among its callers (through
helpers, up to --depth hops), test files that import its file and name it, and, for
languages whose calls are not extracted, tests that name it. A route handler's tests include the
tests that send a request to its route (test clients, supertest, app.request), and a route
target (METHOD /path) stands for its handler. Each comes with a runnable id
in its runner's own syntax (pytest node ids, Vitest/Jest -t names, go test -run, cargo test
paths, JUnit Class#method) and the command lines that run just those tests, with the runner
found from the project's manifests and configs. codeslice never runs them.`,
  examples: ["codeslice tests Session.send", "codeslice tests src/cart.ts --json", "codeslice tests \"PUT /api/v1/items/{id}\""],
  run: listRun((engine, target, options) => engine.tests(target, options)),
});
