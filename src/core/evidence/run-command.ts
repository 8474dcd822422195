/**
 * What `runTests` will run: a test command line (as `tests` writes it) split into argv without a
 * shell, and checked against the allowlist of test runners. A line that would need a shell to mean
 * what it says (pipes, `;`, `$(…)`, globs, redirections, backslashes) is refused, not interpreted.
 */
import { fromLanguages } from "../../languages/index.ts";
import type { AllowedRunner } from "../../languages/types.ts";
import { EngineError } from "../../shared/errors.ts";
import { quoted } from "../../shared/quote.ts";

/**
 * The runners `runTests` starts, as their argv begins (every language's `testRunners`, first
 * declaration of a name wins); nothing else is run.
 */
export const allowedRunners = fromLanguages((langs) => {
  const out = new Map<string, AllowedRunner>();
  for (const l of langs) for (const r of l.testRunners ?? []) if (!out.has(r.name)) out.set(r.name, r);
  return [...out.values()];
});

/** Characters that mean something to a shell outside quotes: refused there. */
const SHELL = /[|&;<>()$`\\*?[\]{}~#!\n\r\t"]/;

/**
 * A command line as argv: words split on spaces; `'…'` literal; `"…"` literal when it holds no
 * `$`, backquote or backslash; `\x` outside quotes is x. `run_refused` (`shell_syntax`, with the character) for
 * anything a
 * shell would expand, redirect or chain.
 */
export function splitCommand(command: string): string[] {
  const refuse = (character: string): never => {
    throw new EngineError(
      "run_refused",
      `Refused to run ${quoted(command)}: ${quoted(character)} would need a shell, and ` +
        `codeslice runs tests without one.`,
      {
        hint: "Run the command yourself in a terminal; codeslice only runs plain test commands from its allowlist.",
        data: { command, reason: "shell_syntax", character },
      },
    );
  };
  const argv: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (c === " ") {
      if (word !== undefined) argv.push(word);
      word = undefined;
    } else if (c === "'") {
      const end = command.indexOf("'", i + 1);
      if (end < 0) refuse("'");
      word = (word ?? "") + command.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      const end = command.indexOf('"', i + 1);
      if (end < 0) refuse('"');
      const inner = command.slice(i + 1, end);
      const bad = /[$`\\]/.exec(inner);
      if (bad) refuse(bad[0]);
      word = (word ?? "") + inner;
      i = end;
    } else if (c === "\\" && i + 1 < command.length && command[i + 1] !== "\n") {
      // `\x` is x, as a shell reads it (shellQuote writes a quote inside quotes as '\'').
      word = (word ?? "") + command[++i];
    } else if (SHELL.test(c)) refuse(c);
    else word = (word ?? "") + c;
  }
  if (word !== undefined) argv.push(word);
  return argv;
}

/**
 * `command` as the argv to start, or `run_refused` (`not_allowed` with the allowlist, or
 * `shell_syntax`). `npx vitest`/`npx jest` get `--no`, so npx never downloads a package to run.
 */
export function allowedArgv(command: string): { argv: string[]; runner: string } {
  let argv = splitCommand(command);
  if (argv[0] === "npx" && argv[1] !== "--no") argv = ["npx", "--no", ...argv.slice(1)];
  const runner = allowedRunners().find((r) => r.matches(argv));
  if (!runner) {
    const allowed = allowedRunners().map((r) => r.name);
    throw new EngineError(
      "run_refused",
      `Refused to run ${quoted(command)}: ${quoted(argv.slice(0, 2).join(" "))} is not a test ` +
        `runner codeslice runs (allowed: ${allowed.join(", ")}).`,
      {
        hint: "Run that command yourself; codeslice starts only the test runners on its allowlist.",
        data: { command, reason: "not_allowed", allowed },
      },
    );
  }
  return { argv, runner: runner.name };
}
