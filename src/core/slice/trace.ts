/**
 * A pasted stack trace as a target: Python tracebacks, pytest failures, Node/V8 and Deno `at`
 * frames, vitest and jest failures. Frames name files as they were on another machine or checkout,
 * so the engine matches them by the longest path suffix inside the root (locations.ts); the
 * innermost project frame is where to look first.
 */

/** One frame of a trace. */
export interface TraceFrame {
  path: string;
  line: number;
  /** The function the frame is in, when the trace says. */
  fn?: string;
}

/** A parsed trace: frames outermost first, and the error line when there is one. */
export interface ParsedTrace {
  frames: TraceFrame[];
  error?: string;
}

/** Python: `  File "/x/y.py", line 12, in handler`. */
const PY_FRAME = /^\s*File "([^"]+)", line (\d+)(?:, in (.+))?$/;
/** pytest: `src/pkg/mod.py:45: in handler`, `tests/test_x.py:12: AssertionError`. */
const PYTEST_FRAME = /^([^\s:][^:]*\.pyi?):(\d+):(?: (?:in (\S+)|([A-Z]\w*(?:Error|Exception|Warning|Exit)\b.*)))?\s*$/;
/** V8, Deno, jest: `    at fn (/x/y.ts:10:5)`, `    at /x/y.js:10:5`, `    at async fn (file:///x.mjs:3:9)`. */
const V8_FRAME =
  /^\s*at (?:(?:async |new )?([^\s(]+(?: \[as [^\]]+\])?) \()?((?:file:\/\/)?[^\s()]+?):(\d+):(\d+)\)?\s*$/;
/** vitest: ` ❯ src/file.ts:10:5` or ` ❯ functionName src/file.ts:10:5`. */
const VITEST_FRAME = /^\s*❯ (?:(\S+) )?([^\s:]+\.[cm]?[jt]sx?):(\d+):(\d+)\s*$/;
/**
 * An error line: `ValueError: bad`, `TypeError: x is not a function`, `E   KeyError: 'a'`,
 * `error: Uncaught (in promise) TypeError: …` — the error's name wherever the line puts it.
 */
const ERROR_LINE = /(?:^|\s)((?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception|Warning|Exit|Interrupt|Failure)\b(?::.*)?)\s*$/;

/**
 * The frames of a stack trace in `text`, or undefined when `text` is not one (fewer than one frame
 * line, or a single line that is something else). Frames come outermost first whatever the format
 * (V8 prints innermost first: those are reversed).
 */
export function parseTrace(text: string): ParsedTrace | undefined {
  const lines = text.split(/\r?\n/);
  const py: TraceFrame[] = [];
  const v8: TraceFrame[] = [];
  let error: string | undefined;
  for (const line of lines) {
    let m: RegExpExecArray | null;
    if ((m = PY_FRAME.exec(line))) py.push({ path: m[1]!, line: Number(m[2]), ...(m[3] ? { fn: m[3].trim() } : {}) });
    else if ((m = PYTEST_FRAME.exec(line))) {
      py.push({ path: m[1]!, line: Number(m[2]), ...(m[3] ? { fn: m[3] } : {}) });
      if (m[4]) error ??= m[4];
    } else if ((m = V8_FRAME.exec(line)))
      v8.push({ path: fileUrlPath(m[2]!), line: Number(m[3]), ...(m[1] ? { fn: m[1] } : {}) });
    else if ((m = VITEST_FRAME.exec(line))) v8.push({ path: m[2]!, line: Number(m[3]), ...(m[1] ? { fn: m[1] } : {}) });
    else if (!error && (m = ERROR_LINE.exec(line.trim()))) error = m[1];
  }
  const frames = py.length >= v8.length ? py : v8.reverse();
  if (frames.length === 0) return undefined;
  // One line that happens to look like a frame is a trace only when it is nothing but the frame.
  if (lines.filter((l) => l.trim() !== "").length === 1 && !/^\s*(File "|at |❯ )/.test(lines[0]!)) return undefined;
  return { frames, ...(error ? { error } : {}) };
}

/** `file:///x/y.mjs` → `/x/y.mjs` (URL-decoded); other paths as they are. */
function fileUrlPath(text: string): string {
  if (!text.startsWith("file://")) return text;
  try {
    return decodeURIComponent(new URL(text).pathname);
  } catch {
    return text.slice("file://".length);
  }
}
