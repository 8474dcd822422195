/**
 * runTests(target): runs the commands a tests answer gives, each checked against the allowlist and
 * started without a shell through the host's ProcessRunner, with a timeout; the answer keeps the
 * command, the exit code, the failing ids, the assertion and traceback lines and the runner's
 * summary (or the last lines of raw output when none is recognized), fitted to a token budget.
 */
import { EngineError } from "../../shared/errors.ts";
import type { ProcessRunner } from "../ports.ts";
import { allowedArgv } from "./run-command.ts";
import { failureLines, groupedIds } from "./run-failures.ts";
import { summarizeOutput, type RunOutputSummary } from "./run-output.ts";
import type { RunPlan, TestsAnswer } from "./tests.ts";

/** Bounds of runTests' options. */
export const RUN_LIMITS = {
  /** Seconds one command may run: default and bounds. */
  timeoutSeconds: { default: 300, min: 1, max: 3_600 },
  /** Tokens of the answer's text: default and bounds. */
  budget: { default: 600, min: 200, max: 20_000 },
  /** Output bytes kept per command (the first part and the last). */
  maxOutputBytes: 4 << 20,
  /** Commands run per call at most (one per runner and folder). */
  maxCommands: 4,
} as const;

/** One command's run. */
export interface TestRun {
  command: string;
  argv: string[];
  /** Folder it ran in, relative to the root ("" for the root). */
  cwd: string;
  /** The allowlist entry it matched. */
  runner: string;
  exitCode: number | null;
  signal?: string;
  timedOut: boolean;
  /** What the kill reached after a timeout: the runner's process group, or the runner alone. */
  killScope?: "group" | "process";
  durationMs: number;
  outputBytes: number;
  /** Tokens of the raw output (what the answer spared). */
  rawTokens: number;
  result: RunOutputSummary;
}

/** The answer to runTests. */
export interface RunTestsAnswer {
  target: string;
  /** Tests the tests answer found. */
  tests: number;
  runs: TestRun[];
  /** Commands not run: past the per-call limit, or left after a timeout or a cancel. */
  notRun?: string[];
  /** True when every command exited 0 and none timed out. */
  passed: boolean;
  text: string;
  usage: { tokens: number; budget: number; encoding: string };
}

/** Options of runTests. */
export interface RunTestsOptions {
  /** Seconds each command may run before it is killed (default 300). */
  timeoutSeconds?: number;
  /** Tokens of the answer's text (default 600). */
  budget?: number;
  signal?: AbortSignal;
}

/** Checks a bounded whole-number option. */
export function runOption(name: "timeoutSeconds" | "budget", value: number | undefined): number {
  const { default: d, min, max } = RUN_LIMITS[name];
  if (value === undefined) return d;
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new EngineError("invalid_argument", `${name} must be a whole number from ${min} to ${max}, got ${value}.`, {
      data: { [name]: value, min, max },
    });
  }
  return value;
}

/**
 * The commands to run for a tests answer: this page's, or every file's when the tests span pages; each checked before
 * any runs.
 */
export function plannedCommands(a: TestsAnswer): { plan: RunPlan; command: string; argv: string[]; runner: string }[] {
  if (a.total === 0) {
    throw new EngineError("run_refused", `No tests found for ${a.target}: nothing to run.`, {
      hint: "Name a symbol or file that tests exercise, or run the project's whole suite yourself.",
      data: { reason: "no_tests" },
    });
  }
  const plans = a.page.next && a.runAll?.length ? a.runAll : a.run;
  const out = plans.flatMap((plan) => plan.commands.map((command) => ({ plan, command, ...allowedArgv(command) })));
  return out;
}

/** Runs the planned commands one after the other and fits what matters into the budget. */
export async function runTests(
  a: TestsAnswer,
  runner: ProcessRunner,
  opts: RunTestsOptions,
  count: (text: string) => number,
): Promise<RunTestsAnswer> {
  const timeoutSeconds = runOption("timeoutSeconds", opts.timeoutSeconds);
  const budget = runOption("budget", opts.budget);
  const all = plannedCommands(a);
  const planned = all.slice(0, RUN_LIMITS.maxCommands);
  const runs: TestRun[] = [];
  for (const p of planned) {
    const r = await runner.run(p.argv, {
      cwd: p.plan.cwd,
      timeoutMs: timeoutSeconds * 1000,
      maxOutputBytes: RUN_LIMITS.maxOutputBytes,
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    if (r.notFound) {
      throw new EngineError(
        "run_refused",
        `${p.argv[0]} is not installed here (or not on the PATH): could not run ${p.command}.`,
        { hint: `Install ${p.runner} or run the tests yourself.`, data: { command: p.command, reason: "no_runner" } },
      );
    }
    runs.push({
      command: p.command,
      argv: p.argv,
      cwd: p.plan.cwd,
      runner: p.runner,
      exitCode: r.exitCode,
      ...(r.signal ? { signal: r.signal } : {}),
      timedOut: r.timedOut,
      ...(r.killScope ? { killScope: r.killScope } : {}),
      durationMs: Math.round(r.durationMs),
      outputBytes: r.outputBytes,
      rawTokens: count(r.output),
      result: summarizeOutput(r.output),
    });
    if (r.timedOut || opts.signal?.aborted) break;
  }
  const notRun = all.slice(runs.length).map((p) => p.command);
  // Tests left unrun have not passed: the call passes only when every command ran and exited 0.
  const passed = notRun.length === 0 && runs.every((r) => r.exitCode === 0 && !r.timedOut);
  const text = fitRunText(runs, a, timeoutSeconds, budget, count, notRun.length);
  return {
    target: a.target,
    tests: a.total,
    runs,
    ...(notRun.length ? { notRun } : {}),
    passed,
    text,
    usage: { tokens: count(text), budget, encoding: "o200k_base" },
  };
}

/** Characters of a command line the text shows; the JSON keeps it whole. */
const COMMAND_CHARS = 160;

/** The command as the text shows it: whole when short, else its first arguments and how many more there are. */
function shortCommand(r: TestRun): string {
  if (r.command.length <= COMMAND_CHARS) return r.command;
  let shown = 0;
  let length = 0;
  while (shown < r.argv.length && length + r.argv[shown]!.length + 1 <= COMMAND_CHARS)
    length += r.argv[shown++]!.length + 1;
  shown = Math.max(shown, Math.min(2, r.argv.length));
  const more = r.argv.length - shown;
  return `${r.argv.slice(0, shown).join(" ")} … (${more} more argument${more === 1 ? "" : "s"})`;
}

/** The header lines of one run (always shown) and its body lines (shown while the budget lasts). */
function runLines(r: TestRun, timeoutSeconds: number): { head: string[]; body: string[] } {
  const where = r.cwd ? ` (in ${r.cwd}/)` : "";
  const took = `${(r.durationMs / 1000).toFixed(1)} s`;
  const status = r.timedOut
    ? `error: timed out after ${timeoutSeconds} s; ` +
      (r.killScope === "group"
        ? "the runner and every process it started were killed"
        : "the runner was killed (processes it started may outlive it on this host)") +
      ". Pass a longer timeout if the tests need it, or look for a test that hangs."
    : `exit ${r.exitCode ?? `signal ${r.signal}`} after ${took}${r.exitCode === 0 ? " (passed)" : ""}`;
  // The runner's count line completes the status: `exit 1 after 3.2 s: 2 failed, 35 passed in 1.46s`.
  const summary = r.result.summary?.replace(/\s{2,}/g, " ");
  const head = [`$ ${shortCommand(r)}${where}`, summary && !r.timedOut ? `${status}: ${summary}` : status];
  if (summary && r.timedOut) head.push(`summary: ${summary}`);
  const body: string[] = [];
  // A clean pass needs no output: what its tests log on purpose (a caught error) is not a failure.
  if (r.exitCode === 0 && !r.timedOut && !r.result.failed.length) return { head, body };
  if (r.result.failed.length) {
    // Vitest prefixes every id with its project (`|main| src/a.test.ts > …`): one project is said once.
    const project = /^\|[^|]+\| /.exec(r.result.failed[0]!)?.[0];
    const shared = project !== undefined && r.result.failed.every((id) => id.startsWith(project));
    const ids = shared ? r.result.failed.map((id) => id.slice(project.length)) : r.result.failed;
    const label = shared ? `, project ${project.trim().slice(1, -1)}` : "";
    body.push(`failed (${ids.length}${label}):`, ...groupedIds(ids));
  }
  // Several failures: the first whole, the others a line per difference (what an agent compares them by).
  if ((r.result.failures?.length ?? 0) > 1) body.push(...failureLines(r.result.failures!));
  else if (r.result.details.length)
    body.push("assertions and tracebacks:", ...r.result.details.map((d) => `  ${d.trim()}`));
  // A clean pass needs no output; a failure nobody recognized shows its last lines.
  if (r.result.tail?.length && (r.exitCode !== 0 || r.timedOut))
    body.push(
      `last ${r.result.tail.length} lines of output (no failure recognized):`,
      ...r.result.tail.map((l) => `  ${l}`),
    );
  return { head, body };
}

/** Every run's head, then body lines in order while they fit `budget`; a count of the lines left out. */
function fitRunText(
  runs: readonly TestRun[],
  a: TestsAnswer,
  timeoutSeconds: number,
  budget: number,
  count: (text: string) => number,
  notRun: number,
): string {
  const parts = runs.map((r) => runLines(r, timeoutSeconds));
  const raw = runs.reduce((n, r) => n + r.rawTokens, 0);
  const commands = runs.length === 1 ? "" : `${runs.length} commands for `;
  const footer = (left: number) =>
    `(${commands}${a.total} test${a.total === 1 ? "" : "s"} found; raw output ${raw} tokens` +
    (notRun
      ? `; ${notRun} more command${notRun === 1 ? "" : "s"} not run ` +
        `(after a timeout, or past ${RUN_LIMITS.maxCommands} per call)`
      : "") +
    `${left ? `, ${left} more lines left out for the budget of ${budget}` : ""})`;
  const render = (shown: number[]) =>
    [
      ...parts.flatMap((p, i) => [
        ...p.head,
        ...p.body.slice(0, shown[i]),
        ...(shown[i]! < p.body.length ? [`  … ${p.body.length - shown[i]!} more`] : []),
      ]),
      footer(parts.reduce((n, p, i) => n + p.body.length - shown[i]!, 0)),
    ].join("\n");
  const shown = parts.map(() => 0);
  // Round-robin over the runs, one line at a time, so a long first run cannot crowd out the rest.
  for (let progress = true; progress; ) {
    progress = false;
    for (let i = 0; i < parts.length; i++) {
      if (shown[i]! >= parts[i]!.body.length) continue;
      shown[i]!++;
      if (count(render(shown)) > budget) {
        shown[i]!--;
        continue;
      }
      progress = true;
    }
  }
  return render(shown);
}
