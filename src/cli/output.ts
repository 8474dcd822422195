/** CLI output helpers: stdout for answers, stderr for progress and errors, exit codes. */
import { EngineError, isEngineError } from "../index.ts";

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

/** Prints an error for people (or as JSON) and returns the exit code. */
export function reportError(error: unknown, json: boolean): number {
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
    if (json) process.stdout.write(`${JSON.stringify({ error: { code: error.code, message: error.message, hint: error.hint, data: error.data } }, null, 2)}\n`);
    process.stderr.write(`codeslice: ${error.message}\n${error.hint ? `hint: ${error.hint}\n` : ""}`);
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
