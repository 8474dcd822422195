/**
 * CLI output helpers: stdout for answers, stderr for progress and errors, exit codes. The engine's
 * hints are neutral; here an error's code and data become advice in the CLI's own terms (its
 * commands and flags).
 */
import { EngineError, isEngineError, LIMITS, type EngineErrorOf } from "../index.ts";

/** Exit codes: 0 success, 1 the engine could not answer, 2 bad usage. */
export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

/**
 * A usage error (bad flag, missing argument): exit code 2. `command`, when known, is the command whose help to point
 * at.
 */
export class UsageError extends Error {
  command?: string;
}

/** Writes an answer to stdout, ending it with one newline. */
export function writeOut(text: string): void {
  process.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
}

/**
 * Writes `value` as `JSON.stringify(value, null, 2)` would, byte for byte, without ever holding the
 * whole text: the top-level object's arrays are written element by element in chunks of about 1 MB.
 * The Linux kernel's `graph --json` is well past the 2^29 characters V8 allows a string. A list of
 * the top-level object (or the top-level value) may also be a plain object that is iterable
 * (`{ *[Symbol.iterator]() {…} }`): it is written as the array of its items, made one at a time, so
 * the whole list is never in memory either. (Deeper down, JSON.stringify writes such an object.)
 */
export function writeJson(value: unknown): void {
  const chunks: string[] = [];
  let size = 0;
  const push = (s: string) => {
    chunks.push(s);
    size += s.length;
    if (size >= JSON_CHUNK) {
      process.stdout.write(chunks.join(""));
      chunks.length = 0;
      size = 0;
    }
  };
  jsonValue(value, "", 0, push);
  push("\n");
  process.stdout.write(chunks.join(""));
}

const JSON_CHUNK = 1 << 20;
/** Below this depth arrays and plain objects are written piecewise; deeper values in one `JSON.stringify`. */
const JSON_STREAM_DEPTH = 2;

const skipped = (v: unknown) => v === undefined || typeof v === "function" || typeof v === "symbol";

/** A plain object that is iterable: a list made item by item (see writeJson). */
const isLazyList = (v: object): v is Iterable<unknown> =>
  typeof (v as { [Symbol.iterator]?: unknown })[Symbol.iterator] === "function";

function jsonValue(value: unknown, indent: string, depth: number, push: (s: string) => void): void {
  const plain =
    value !== null &&
    typeof value === "object" &&
    Object.getPrototypeOf(value) === Object.prototype &&
    typeof (value as { toJSON?: unknown }).toJSON !== "function";
  const list = Array.isArray(value) || (plain && depth < JSON_STREAM_DEPTH && isLazyList(value as object));
  if (depth >= JSON_STREAM_DEPTH || !(plain || list)) {
    const text = String(JSON.stringify(value, null, 2));
    push(indent ? text.replaceAll("\n", `\n${indent}`) : text);
    return;
  }
  const inner = `${indent}  `;
  if (list && depth + 1 >= JSON_STREAM_DEPTH) return batchedList(value as Iterable<unknown>, indent, push);
  if (list) {
    let first = true;
    for (const item of value as Iterable<unknown>) {
      push(first ? "[\n" : ",\n");
      first = false;
      push(inner);
      if (skipped(item)) push("null");
      else jsonValue(item, inner, depth + 1, push);
    }
    return push(first ? "[]" : `\n${indent}]`);
  }
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => !skipped(v));
  if (!entries.length) return push("{}");
  push("{\n");
  entries.forEach(([key, v], i) => {
    push(`${inner}${JSON.stringify(key)}: `);
    jsonValue(v, inner, depth + 1, push);
    push(i < entries.length - 1 ? ",\n" : "\n");
  });
  push(`${indent}}`);
}

/** Items of a list whose items are written whole, given to one JSON.stringify together. */
const JSON_BATCH = 512;

/**
 * A list whose items are written whole, JSON_BATCH items to one `JSON.stringify` of an array:
 * the array's text less its brackets is the items' text, indented as the list's (one call per item
 * was a third of the kernel subtree's `graph --json`).
 */
function batchedList(items: Iterable<unknown>, indent: string, push: (s: string) => void): void {
  const batch: unknown[] = [];
  let any = false;
  const flush = () => {
    const text = JSON.stringify(batch, null, 2);
    // "[\n  a,\n  b\n]" → "\n  a,\n  b", indented as the list
    const body = text.slice(1, -2);
    push(any ? "," : "[");
    push(indent ? body.replaceAll("\n", `\n${indent}`) : body);
    any = true;
    batch.length = 0;
  };
  for (const item of items) {
    batch.push(item);
    if (batch.length === JSON_BATCH) flush();
  }
  if (batch.length) flush();
  push(any ? `\n${indent}]` : "[]");
}

/**
 * The `--allow-*` flag a Deno permission refusal names (`Deno.errors.NotCapable`, here or as the
 * cause of an EngineError); undefined for other errors, the OS refusing access included.
 */
function missingDenoPermission(error: unknown): { flag: string; detail: string } | undefined {
  for (
    let e = error as { name?: string; message?: string; cause?: unknown } | undefined, depth = 0;
    e && depth < 5;
    e = e.cause as typeof e, depth++
  ) {
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
  maxMatches: { flag: "--max-matches", ...LIMITS.grep.matches },
  timeMs: { flag: "--time-ms", ...LIMITS.grep.timeMs },
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
      if (e.data.known !== undefined)
        return e.hint ? `${e.hint} \`codeslice map\` lists the routes.` : "`codeslice map` lists the routes.";
      return "Try `codeslice search <words>` to find it.";
    }
    case "ambiguous_symbol": {
      // Overloads share a qualified name: only path:line tells them apart.
      const shared = new Set(e.data.candidates.map((c) => c.qualified)).size < e.data.candidates.length;
      const names = e.data.candidates.map((c) => (shared ? `${c.path}:${c.line}` : c.qualified));
      return (
        `Run ${again} with one of ${names.slice(0, 3).join(", ")}${e.data.total > 3 ? ", …" : ""}` +
        (shared ? "." : ", or with path::name.")
      );
    }
    case "budget_too_small":
      return (
        `Run ${again} with --budget ${e.data.needed} or more` +
        (e.data.seedOutlineTokens !== undefined ? ", or `codeslice signature <symbol>` for the header alone." : ".")
      );
    case "invalid_argument": {
      const key = Object.keys(FLAGS).find((k) => k in e.data);
      if (key) {
        const { flag, min, max } = FLAGS[key]!;
        return `${flag} takes a whole number from ${min} to ${max}.`;
      }
      if (e.data.length !== undefined)
        return `Pass at most ${LIMITS.targetChars} characters: a symbol, a path, or the task's key words.`;
      return e.hint;
    }
    case "root_not_found":
    case "root_not_directory":
      return "Pass the project folder with --root DIR (default: the current folder).";
    case "no_supported_files":
      return (
        `codeslice reads ${(e.data.languages ?? []).join(", ") || "the supported languages"}. Pass the ` +
        `project folder with --root DIR, or check whether its files are ignored by git.`
      );
    case "check_config_missing":
      return `${e.hint ?? ""} \`codeslice check --help\` lists every rule.`.trim();
    case "not_found":
      if (e.data.skipped === "too_large")
        return "Index it with --max-file-bytes N above its size, or name a source file or a symbol.";
      if (e.data.skipped) return "Name a source file or a symbol instead (`codeslice search <words>` finds one).";
      return e.data.suggestions?.length
        ? `Did you mean ${e.data.suggestions.join(", ")}? Paths are relative to --root.`
        : "Paths are relative to the project folder (--root, default: the current folder).";
    case "outside_root":
      return command === "grep"
        ? 'Pass --paths globs relative to the project folder (--root), e.g. "src/**/*.py,*.md".'
        : "Pass a path inside the project folder (--root), relative to it or absolute.";
    case "unknown_repo":
      return (
        `Name one of the repositories given with --root: ${e.data.repos.join(", ")} (each is named after ` +
        `its folder).`
      );
    case "invalid_pattern":
      return (
        `${e.hint ?? ""} Run ${again} with the pattern fixed at column ${e.data.column ?? 1} (quote it for ` +
        `the shell).`
      ).trim();
    case "memory_limit":
      return (
        `Give node more heap: ` +
        (`NODE_OPTIONS=--max-old-space-size=${Math.max(512, 2 ** Math.ceil(Math.log2(e.data.suggestedMiB)))} ` +
          `codeslice …, or pass a smaller folder with --root.`)
      );
    case "no_index":
      return (
        `Delete the cache folder${e.data.store ? ` ${e.data.store}` : ""} (or pick another with ` +
        `--cache-dir); the next run rebuilds it.`
      );
    case "cache_refused":
      return "Pass a new or empty folder with --cache-dir DIR, or leave it out for <root>/.codeslice.";
    case "not_a_repository":
      return (
        "Pass the repository's top folder with --root DIR, or the changes as a diff: `git diff HEAD | " +
        "codeslice changes --diff -`."
      );
    case "empty_repository":
      return "Make a first commit, or run `codeslice changes --staged` (every staged file counts as added).";
    case "shallow_history":
      return (
        "Fetch more history (`git fetch --deepen=50` or `git fetch --unshallow`), or pass the diff: `git " +
        "diff <base> | codeslice changes --diff -`."
      );
    case "unknown_revision":
      return e.data.suggestions?.length
        ? `Did you mean ${e.data.suggestions.join(", ")}?`
        : (e.hint ?? "Pass a commit id, a branch, a tag, or HEAD~N to --base/--head.");
    case "artifact_foreign":
      return "Pass a file written by `codeslice index --export FILE`.";
    case "artifact_truncated":
    case "artifact_corrupt":
      return (
        "Copy or download the artifact again (as binary), or write it again with `codeslice index --export " +
        "FILE`; the cache was left as it was."
      );
    case "artifact_version_mismatch":
      return (
        "Write the artifact again with this codeslice (`codeslice --version`) using `codeslice index " +
        "--export FILE`, or run `codeslice index` to build the index from source."
      );
    case "plan_unknown":
    case "plan_stale":
      return (
        "Nothing was written. Run `codeslice rename <symbol> <new-name>` again for a fresh preview, then " +
        "add --apply with the planToken it prints."
      );
    case "apply_failed":
      return (
        `${e.hint ?? ""} Then preview again (\`codeslice rename <symbol> <new-name>\`) ` + "and apply its planToken."
      ).trim();
    case "invalid_query":
      return `\n${e.data.excerpt}\n${e.hint ?? ""} \`codeslice query --help\` and docs/query.md describe the subset.`;
    case "query_over_budget":
      if (e.data.limit === "tokens")
        return e.data.fits
          ? `Add LIMIT ${e.data.fits} (SKIP to page), return fewer columns, or run with --budget ${e.data.needed}.`
          : `Run with --budget ${e.data.needed}.`;
      if (e.data.limit === "time") return `${e.hint ?? ""} Or raise --time (now ${e.data.timeMs} ms).`;
      return e.hint;
    case "diff_not_applicable":
      return (
        "Pass a diff made against this tree (`git diff`, or the pull request's patch on its base branch), " +
        "or check out the branch it was made on."
      );
    default:
      return e.hint;
  }
}

/** Prints an error for people (or as JSON) and returns the exit code; `command` is the one that failed. */
export function reportError(error: unknown, json: boolean, command?: string): number {
  const denied = missingDenoPermission(error);
  if (denied) {
    // One line, no stack: the user's fix is a flag on the deno command line.
    if (json)
      process.stdout.write(
        `${JSON.stringify(
          {
            error: {
              code: "permission_denied",
              message: denied.detail,
              hint: `Run deno with ${denied.flag}.`,
              data: { flag: denied.flag },
            },
          },
          null,
          2,
        )}\n`,
      );
    process.stderr.write(`codeslice: Deno needs ${denied.flag} (${denied.detail}); add it to the deno command line.\n`);
    return EXIT.failure;
  }
  if (error instanceof UsageError) {
    process.stderr.write(
      `codeslice: ${error.message}\nRun \`codeslice ${error.command ? `${error.command} ` : ""}--help\` for usage.\n`,
    );
    return EXIT.usage;
  }
  if (isEngineError(error)) {
    const hint = cliHint(error, command);
    if (json)
      process.stdout.write(
        `${JSON.stringify({ error: { code: error.code, message: error.message, hint, data: error.data } }, null, 2)}\n`,
      );
    process.stderr.write(`codeslice: ${error.message}\n${hint ? `hint: ${hint}\n` : ""}`);
    return error.code === "invalid_argument" || error.code === "invalid_query" ? EXIT.usage : EXIT.failure;
  }
  // A bug of ours, not the user's doing: one line saying so, the stack only when asked for.
  const e = error as Error;
  const first = String(e?.message ?? e)
    .split("\n")[0]!
    .slice(0, 300);
  if (json) process.stdout.write(`${JSON.stringify({ error: { code: "internal_error", message: first } }, null, 2)}\n`);
  let debug = false;
  try {
    debug = (process.env.CODESLICE_DEBUG ?? "0") !== "0" && process.env.CODESLICE_DEBUG !== "";
  } catch {
    // Deno without --allow-env: no debug output
  }
  process.stderr.write(
    `codeslice: internal error: ${first}\n` +
      (debug
        ? `${e?.stack ?? ""}\n`
        : "hint: this is a bug in codeslice; run again with CODESLICE_DEBUG=1 for the details " +
          "and report them with the command you ran.\n"),
  );
  return EXIT.failure;
}

/** Where progress goes: stderr, or a stand-in in tests. */
export interface ProgressStream {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

/** Redraws at most this often, in ms: a terminal needs no more, and each write costs a syscall. */
const REDRAW_MS = 100;

/**
 * A progress bar on a terminal's stderr for runs longer than a second (quick runs stay quiet):
 * one line rewritten in place, with the phase, a bar and files per second while parsing. Nothing
 * when stderr is not a terminal (logs and CI output stay clean) or `enabled` is false (--quiet).
 */
export function createProgressReporter(
  enabled: boolean,
  stream: ProgressStream = process.stderr,
  now: () => number = Date.now,
): { update(phase: string, done: number, total?: number): void; done(): void } {
  const started = now();
  const on = enabled && stream.isTTY === true;
  let shown = false;
  let drawnAt = 0;
  let phase = "";
  let phaseAt = started;
  let phaseDone = 0;
  return {
    update(p, done, total) {
      if (!on) return;
      const t = now();
      if (p !== phase) {
        phase = p;
        phaseAt = t;
        phaseDone = done;
      }
      if (t - started < 1000 || (t - drawnAt < REDRAW_MS && !(total && done === total))) return;
      drawnAt = t;
      const rate = (done - phaseDone) / Math.max(0.001, (t - phaseAt) / 1000);
      stream.write(`\r\x1b[K${progressLine(p, done, total, rate, stream.columns || 80)}`);
      shown = true;
    },
    done() {
      if (shown) stream.write("\r\x1b[K");
      shown = false;
    },
  };
}

/** One line of the bar, at most `columns` wide: `parse [####----]  512/1,200 files  43%  210 files/s`. */
export function progressLine(
  phase: string,
  done: number,
  total: number | undefined,
  rate: number,
  columns: number,
): string {
  const n = (x: number) => x.toLocaleString("en-US");
  if (phase === "graph") return "building the code graph…".slice(0, columns - 1);
  if (!total) return `${phase === "scan" ? "scanning" : phase}: ${n(done)} files found`.slice(0, columns - 1);
  const pct = Math.min(100, Math.floor((100 * done) / total));
  const tail =
    `  ${n(done)}/${n(total)} files  ` +
    `${pct}%${rate > 0 && Number.isFinite(rate) ? `  ${n(Math.round(rate))} files/s` : ""}`;
  const width = Math.max(0, Math.min(30, columns - 1 - phase.length - 3 - tail.length));
  const filled = Math.round((width * done) / total);
  const bar = width > 0 ? ` [${"#".repeat(filled)}${"-".repeat(width - filled)}]` : "";
  return `${phase}${bar}${tail}`.slice(0, columns - 1);
}

export { EngineError };
