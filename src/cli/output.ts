/**
 * CLI output helpers: stdout for answers, stderr for progress and errors, exit codes. The engine's
 * hints are neutral; here an error's code and data become advice in the CLI's own terms (its
 * commands and flags).
 */
import { EngineError, isEngineError, LIMITS, type EngineErrorOf } from "../index.ts";

/** Exit codes: 0 success, 1 the engine could not answer, 2 bad usage. */
export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

/** A usage error (bad flag, missing argument): exit code 2. */
export class UsageError extends Error {}

export function writeOut(text: string): void {
  process.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
}

export function writeJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/**
 * The `--allow-*` flag a Deno permission refusal names (`Deno.errors.NotCapable`, here or as the
 * cause of an EngineError); undefined for other errors, the OS refusing access included.
 */
function missingDenoPermission(error: unknown): { flag: string; detail: string } | undefined {
  for (let e = error as { name?: string; message?: string; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (e.name !== "NotCapable" && e.name !== "PermissionDenied") continue;
    const message = String(e.message ?? "");
    const access = /Requires (\w+) access/.exec(message)?.[1];
    const flag = /--allow-[a-z-]+/.exec(message)?.[0] ?? (access ? `--allow-${access}` : undefined);
    if (flag) return { flag, detail: message.replace(/,? run again with the --allow-[a-z-]+ flag\.?$/, "") };
  }
  return undefined;
}

/** Flags that carry an argument the engine checks, by the data key that names it. */
const FLAGS: Record<string, { flag: string; min: number; max: number }> = {
  budget: { flag: "--budget", ...LIMITS.budget },
  depth: { flag: "--depth", ...LIMITS.depth },
  limit: { flag: "--limit", ...LIMITS.searchResults },
};

/**
 * What to do next, in the CLI's terms, for an engine error while running `command`: its flags
 * and commands, from the error's code and data; the engine's neutral hint where the CLI has
 * nothing better to say.
 */
export function cliHint(error: EngineError, command?: string): string | undefined {
  const e = error as EngineErrorOf;
  const again = command ? `codeslice ${command}` : "the command";
  switch (e.code) {
    case "unknown_symbol": {
      const names = (e.data.suggestions ?? []).map((s) => s.qualified);
      if (names.length) return `Did you mean ${names.join(", ")}? Run ${again} with one of them.`;
      if (e.data.known !== undefined) return e.hint ? `${e.hint} \`codeslice map\` lists the routes.` : "`codeslice map` lists the routes.";
      return "Try `codeslice search <words>` to find it.";
    }
    case "ambiguous_symbol": {
      const names = e.data.candidates.map((c) => c.qualified);
      return `Run ${again} with one of ${names.slice(0, 3).join(", ")}${e.data.total > 3 ? ", …" : ""}, or with path::name.`;
    }
    case "budget_too_small":
      return `Run ${again} with --budget ${e.data.needed} or more${e.data.seedOutlineTokens !== undefined ? ", or `codeslice signature <symbol>` for the header alone" : ""}.`;
    case "invalid_argument": {
      const key = Object.keys(FLAGS).find((k) => k in e.data);
      if (key) {
        const { flag, min, max } = FLAGS[key]!;
        return `${flag} takes a whole number from ${min} to ${max}.`;
      }
      if (e.data.length !== undefined) return `Pass at most ${LIMITS.targetChars} characters: a symbol, a path, or the task's key words.`;
      return e.hint;
    }
    case "root_not_found":
    case "root_not_directory":
      return "Pass the project folder with --root DIR (default: the current folder).";
    case "no_supported_files":
      return `codeslice reads ${(e.data.languages ?? []).join(", ") || "the supported languages"}. Pass the project folder with --root DIR, or check whether its files are ignored by git.`;
    case "not_found":
      return e.data.suggestions?.length ? `Did you mean ${e.data.suggestions.join(", ")}? Paths are relative to --root.` : "Paths are relative to the project folder (--root, default: the current folder).";
    case "outside_root":
      return "Pass a path inside the project folder (--root), relative to it or absolute.";
    case "memory_limit":
      return `Give node more heap: NODE_OPTIONS=--max-old-space-size=${Math.max(512, 2 ** Math.ceil(Math.log2(e.data.suggestedMiB)))} codeslice …, or pass a smaller folder with --root.`;
    case "no_index":
      return `Delete the cache folder${e.data.store ? ` ${e.data.store}` : ""} (or pick another with --cache-dir); the next run rebuilds it.`;
    case "cache_refused":
      return "Pass a new or empty folder with --cache-dir DIR, or leave it out for <root>/.codeslice.";
    case "not_a_repository":
      return "Pass the repository's top folder with --root DIR, or the changes as a diff: `git diff HEAD | codeslice changes --diff -`.";
    case "empty_repository":
      return "Make a first commit, or run `codeslice changes --staged` (every staged file counts as added).";
    case "shallow_history":
      return "Fetch more history (`git fetch --deepen=50` or `git fetch --unshallow`), or pass the diff: `git diff <base> | codeslice changes --diff -`.";
    case "unknown_revision":
      return e.data.suggestions?.length ? `Did you mean ${e.data.suggestions.join(", ")}?` : (e.hint ?? "Pass a commit id, a branch, a tag, or HEAD~N to --base/--head.");
    case "diff_not_applicable":
      return "Pass a diff made against this tree (`git diff`, or the pull request's patch on its base branch), or check out the branch it was made on.";
    default:
      return e.hint;
  }
}

/** Prints an error for people (or as JSON) and returns the exit code; `command` is the one that failed. */
export function reportError(error: unknown, json: boolean, command?: string): number {
  const denied = missingDenoPermission(error);
  if (denied) {
    // One line, no stack: the user's fix is a flag on the deno command line.
    if (json) process.stdout.write(`${JSON.stringify({ error: { code: "permission_denied", message: denied.detail, hint: `Run deno with ${denied.flag}.`, data: { flag: denied.flag } } }, null, 2)}\n`);
    process.stderr.write(`codeslice: Deno needs ${denied.flag} (${denied.detail}); add it to the deno command line.\n`);
    return EXIT.failure;
  }
  if (error instanceof UsageError) {
    process.stderr.write(`codeslice: ${error.message}\nRun \`codeslice --help\` for usage.\n`);
    return EXIT.usage;
  }
  if (isEngineError(error)) {
    const hint = cliHint(error, command);
    if (json) process.stdout.write(`${JSON.stringify({ error: { code: error.code, message: error.message, hint, data: error.data } }, null, 2)}\n`);
    process.stderr.write(`codeslice: ${error.message}\n${hint ? `hint: ${hint}\n` : ""}`);
    return error.code === "invalid_argument" ? EXIT.usage : EXIT.failure;
  }
  // A bug of ours, not the user's doing: one line saying so, the stack only when asked for.
  const e = error as Error;
  const first = String(e?.message ?? e).split("\n")[0]!.slice(0, 300);
  if (json) process.stdout.write(`${JSON.stringify({ error: { code: "internal_error", message: first } }, null, 2)}\n`);
  let debug = false;
  try {
    debug = (process.env.CODESLICE_DEBUG ?? "0") !== "0" && process.env.CODESLICE_DEBUG !== "";
  } catch {
    // Deno without --allow-env: no debug output
  }
  process.stderr.write(`codeslice: internal error: ${first}\n${debug ? `${e?.stack ?? ""}\n` : "hint: this is a bug in codeslice; run again with CODESLICE_DEBUG=1 for the details and report them with the command you ran.\n"}`);
  return EXIT.failure;
}

/**
 * Progress on stderr, shown only once an operation has run for a second, so quick runs stay quiet.
 * On a terminal it rewrites one line; otherwise it prints a line per phase change.
 */
export function createProgressReporter(enabled: boolean): { update(phase: string, done: number, total?: number): void; done(): void } {
  const started = Date.now();
  const tty = process.stderr.isTTY === true;
  let lastPhase = "";
  let shown = false;
  return {
    update(phase, done, total) {
      if (!enabled || Date.now() - started < 1000) return;
      const line = `${phase}: ${done}${total ? `/${total}` : ""} files`;
      if (tty) {
        process.stderr.write(`\r\x1b[K${line}`);
        shown = true;
      } else if (phase !== lastPhase) {
        process.stderr.write(`${line}…\n`);
      }
      lastPhase = phase;
    },
    done() {
      if (shown) process.stderr.write("\r\x1b[K");
    },
  };
}

export { EngineError };
