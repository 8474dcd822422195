/**
 * A test runner's output reduced to what an agent acts on: the failing test ids, the assertion and
 * traceback lines, and the runner's summary line; the last lines of the raw output when none of
 * that is recognized. Patterns cover pytest, Vitest/Jest, go test, cargo test, rspec, phpunit,
 * Maven/Gradle and dotnet test output in their default reporters, colours stripped.
 */

/** What was kept of one run's output. */
export interface RunOutputSummary {
  /** Failing test ids as the runner printed them (pytest node ids, Vitest `file > group > name`, go test names, …). */
  failed: string[];
  /** Assertion, error and traceback lines (project frames only), in output order, without repeats. */
  details: string[];
  /** The runner's closing count line (`1 failed, 3 passed in 0.12s`). */
  summary?: string;
  /** The last lines of the output, when neither failures nor details were recognized. */
  tail?: string[];
  /** Lines of output in all. */
  lines: number;
}

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]|\u001b\][^\u0007]*\u0007/g;

/** Failing test ids: the first capture group of the first pattern that matches a line. */
const FAILED: RegExp[] = [
  /^(?:FAILED|ERROR) (\S+?)(?: - .*)?$/, // pytest short summary
  /^ FAIL {1,2}(.+?)(?: \[.*\])?$/, // vitest failure header: " FAIL  file > group > test"
  /^\s*● (.+?)$/, // jest
  /^\s*--- FAIL: (\S+)/, // go test
  /^test (\S+) \.\.\. FAILED$/, // cargo test
  /^rspec (\S+)/, // rspec rerun lines
  /^\s*Failed (\S+) \[/, // dotnet test
  /^\d+\) (\S+::\S+|\S+\.\S+)$/, // phpunit
  /^\[ERROR\] {2,}(\S+(?:#|\.)\S+?):\d+/, // maven surefire
];

/** Assertion, error and traceback lines. */
const DETAIL: RegExp[] = [
  /^E {2,}\S/, // pytest's error lines
  /^>\s{2,}\S/, // pytest's failing source line
  /^[\w./-]+\.py:\d+: \w*(Error|Exception|Warning|Failed)\b/, // pytest's location line
  /^\s*File "[^"]+", line \d+, in /, // a Python traceback frame
  /\b(AssertionError|AssertError|TypeError|ReferenceError|RangeError|SyntaxError|ValueError|KeyError|Error:)/,
  /^\s*[-+] (Expected|Received)\b|^\s*(Expected|Received)\b|^\s*[-+] {1,2}\S/, // expected/received diffs
  /^\s*❯ (?!.*node_modules)\S+:\d+:\d+/, // vitest frame in the project
  /^\s*at (?!.*node_modules)(?!node:).*\((?![a-z]+:)[^)]*:\d+:\d+\)$/, // jest/node frame in the project
  /^\s+\w+_test\.go:\d+: /, // go test
  /panicked at|assertion `?left|^\s*(left|right): /, // cargo
  /^\s*(expected|got|Expected|Got):? /, // rspec, others
  /^\s*Failure\/Error: /, // rspec
  /^\s*Assert\.\w+\(\) Failure|^\s*Failed asserting that /, // dotnet, phpunit
];

/** The runner's closing count line. */
const SUMMARY = /^=+ .*\b\d+ (failed|passed|error)s?\b.* =+$|^\s*Tests\s+.*\b\d+ (failed|passed)\b|^Tests: .*\b\d+ (failed|passed)\b|^test result: |^(FAIL|ok)\s+\S+\s+[\d.]+s$|^\d+ examples?, \d+ failures?|^Tests run: \d+|^(FAILURES!|OK \()|^(Failed|Passed)!\s+-/;

/** Lines of raw output kept when nothing is recognized. */
export const TAIL_LINES = 40;

/** Reduces `output` to its failing ids, detail lines and summary (or its tail). */
export function summarizeOutput(output: string): RunOutputSummary {
  const lines = output.replace(ANSI, "").replace(/\r\n?/g, "\n").split("\n").map((l) => l.replace(/\s+$/, ""));
  const failed: string[] = [];
  const details: string[] = [];
  const seenFailed = new Set<string>();
  const seenDetail = new Set<string>();
  let summary: string | undefined;
  // pytest's closing summary repeats each failure's first error line: ids only from there on.
  let idsOnly = false;
  for (const line of lines) {
    if (!line.trim()) continue;
    if (/^=+ short test summary info =+$/.test(line)) idsOnly = true;
    if (SUMMARY.test(line)) summary = line.replace(/^=+ | =+$/g, "").trim();
    const id = firstCapture(FAILED, line);
    if (id !== undefined) {
      if (!seenFailed.has(id)) failed.push(id);
      seenFailed.add(id);
      continue;
    }
    if (!idsOnly && DETAIL.some((re) => re.test(line))) {
      const trimmed = line.trim();
      const kept = trimmed.length > 300 ? `${trimmed.slice(0, 300)}…` : trimmed;
      if (!seenDetail.has(kept)) details.push(kept);
      seenDetail.add(kept);
    }
  }
  const count = lines.filter((l) => l.trim()).length;
  if (!failed.length && !details.length) return { failed, details, ...(summary ? { summary } : {}), tail: lines.filter((l) => l.trim()).slice(-TAIL_LINES), lines: count };
  return { failed, details, ...(summary ? { summary } : {}), lines: count };
}

function firstCapture(patterns: readonly RegExp[], line: string): string | undefined {
  for (const re of patterns) {
    const m = re.exec(line);
    if (m?.[1]) return m[1].trim();
  }
  return undefined;
}
