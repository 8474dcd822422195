/** `run_tests`: runs the tests of a symbol or file with the runner found (served only with --allow-run). */
import { z } from "zod";
import { RUN_LIMITS } from "../../index.ts";
import { defineTool } from "../tool.ts";

export const runTestsTool = defineTool({
  name: "run_tests",
  title: "Run tests",
  description:
    "Runs the tests of a symbol or file (as `tests` finds them) with the project's runner; answers the exit " +
    "code, failing ids and assertion lines.",
  // It runs the project's tests, which may write anything: not read-only, possibly destructive, not idempotent.
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  input: z.strictObject({
    target: z.string({ error: "target must be a string" }).min(1, { error: "target must not be empty" }).max(4096),
    timeout: z
      .int()
      .min(RUN_LIMITS.timeoutSeconds.min)
      .max(RUN_LIMITS.timeoutSeconds.max)
      .optional()
      .describe("Seconds (default 300)."),
    budget: z.int().min(RUN_LIMITS.budget.min).max(RUN_LIMITS.budget.max).optional(),
  }),
  output: z.object({
    target: z.string(),
    tests: z.int(),
    passed: z.boolean(),
    runs: z.array(
      z.object({
        command: z.string(),
        cwd: z.string(),
        runner: z.string(),
        exitCode: z.int().nullable(),
        timedOut: z.boolean(),
        durationMs: z.int(),
        failed: z.array(z.string()),
        summary: z.string().optional(),
      }),
    ),
    notRun: z.array(z.string()).optional().describe("Commands not run: after a timeout, or past 4 per call."),
    usage: z.object({ tokens: z.int(), budget: z.int(), encoding: z.string() }),
  }),
  async run(args, ctx) {
    const a = await ctx.engine.runTests(args.target, {
      signal: ctx.signal,
      ...(args.timeout !== undefined ? { timeoutSeconds: args.timeout } : {}),
      budget: Math.min(
        args.budget ?? RUN_LIMITS.budget.default,
        Math.max(RUN_LIMITS.budget.min, Math.floor(ctx.cap / 2)),
      ),
    });
    const runs = a.runs.map((r) => ({
      command: r.command,
      cwd: r.cwd,
      runner: r.runner,
      exitCode: r.exitCode,
      timedOut: r.timedOut,
      durationMs: r.durationMs,
      failed: r.result.failed.slice(0, 20),
      ...(r.result.summary ? { summary: r.result.summary } : {}),
    }));
    return {
      text: a.text,
      data: {
        target: a.target,
        tests: a.tests,
        passed: a.passed,
        runs,
        ...(a.notRun ? { notRun: a.notRun } : {}),
        usage: a.usage,
      },
    };
  },
});
