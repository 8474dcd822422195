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
const SUMMARY = new RegExp(
  String.raw`^=+ .*\b\d+ (failed|passed|error)s?\b.* =+$|^\s*Tests\s+.*\b\d+ (failed|passed)\b|` +
    String.raw`^Tests: .*\b\d+ (failed|passed)\b|^test result: |^(FAIL|ok)\s+\S+\s+[\d.]+s$|` +
    String.raw`^\d+ examples?, \d+ failures?|^Tests run: \d+|^(FAILURES!|OK \()|^(Failed|Passed)!\s+-`,
);

/** Lines of raw output kept when nothing is recognized. */
export const TAIL_LINES = 40;

/** Reduces `output` to its failing ids, detail lines and summary (or its tail). */
export function summarizeOutput(output: string): RunOutputSummary {
  const lines = output
    .replace(ANSI, "")
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((l) => l.replace(/\s+$/, ""));
  const failed: string[] = [];
  const details: string[] = [];
  const seenFailed = new Set<string>();
  const seenDetail = new Set<string>();
  let summary: string | undefined;
  // pytest's closing summary repeats each failure's first error line: ids only from there on.
  let idsOnly = false;
  // pytest's "Full diff:" block prints again, item by item, what the lines above it said (the
  // first difference, the extra items): measured on flask, 13 of a failure's 19 lines.
  let fullDiff = false;
  for (const line of lines) {
    if (!line.trim()) continue;
    if (/^=+ short test summary info =+$/.test(line)) idsOnly = true;
    if (/^E\s+Full diff:$/.test(line)) {
      fullDiff = true;
      continue;
    }
    if (fullDiff && /^E {9,}/.test(line)) continue;
    fullDiff = false;
    // A comment in the quoted source that names an error is not an error line.
    if (/^\s*(#|\/\/|\*) /.test(line) && !/^E /.test(line)) continue;
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
  // Clipped pairs of several failures often read the same: each is shown once (their frames still follow each failure).
  const clipped = clipPairs(details).filter((l, i, all) => !/^(Expected|Received)/.test(l) || all.indexOf(l) === i);
  details.splice(0, details.length, ...clipped);
  const count = lines.filter((l) => l.trim()).length;
  if (!failed.length && !details.length)
    return {
      failed,
      details,
      ...(summary ? { summary } : {}),
      tail: lines.filter((l) => l.trim()).slice(-TAIL_LINES),
      lines: count,
    };
  return { failed, details, ...(summary ? { summary } : {}), lines: count };
}

function firstCapture(patterns: readonly RegExp[], line: string): string | undefined {
  for (const re of patterns) {
    const m = re.exec(line);
    if (m?.[1]) return m[1].trim();
  }
  return undefined;
}

/** Characters kept either side of the first difference of a long Expected/Received pair. */
const PAIR_CONTEXT = 40;

/**
 * Clips each long `Expected: …` / `Received: …` pair (Vitest, Jest) to the part around their first
 * difference: two 170-character cookie strings that differ in one letter cost 90 tokens whole and
 * 40 clipped, and the difference is what the reader looks for.
 */
function clipPairs(details: string[]): string[] {
  for (let i = 0; i + 1 < details.length; i++) {
    const e = /^(Expected:?\s+)(.*)$/.exec(details[i]!);
    const r = /^(Received:?\s+)(.*)$/.exec(details[i + 1]!);
    if (!e || !r || Math.max(e[2]!.length, r[2]!.length) <= 2 * PAIR_CONTEXT + 20) continue;
    const a = e[2]!;
    const b = r[2]!;
    let at = 0;
    while (at < a.length && at < b.length && a[at] === b[at]) at++;
    const from = Math.max(0, at - PAIR_CONTEXT);
    const clip = (x: string) =>
      `${from > 0 ? "…" : ""}${x.slice(from, at + PAIR_CONTEXT)}${at + PAIR_CONTEXT < x.length ? "…" : ""}`;
    details[i] = `${e[1]}${clip(a)}`;
    details[i + 1] = `${r[1]}${clip(b)}`;
    i++;
  }
  return details;
}
