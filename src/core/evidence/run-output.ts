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
  /**
   * The same detail lines failure by failure, where the runner reports failures one by one (pytest's `____ name ____`
   * parts, Vitest's `FAIL` headers in its Failed Tests part): an answer with several shows the first in full and the
   * rest one line each.
   */
  failures?: FailureReport[];
}

/** One failure of a run, as the runner reported it. */
export interface FailureReport {
  /** The failing ids it reports (Vitest prints one error once for the tests that share it); empty when unmatched. */
  ids: string[];
  /** Its detail lines, in `details`' form (where `details` shows a line once, each failure here keeps its own). */
  lines: string[];
  /** Where it failed: pytest's `path:line`, Vitest's first project frame `path:line:col`. */
  at?: string;
  /** The failure in one line: the differing values, or the error. */
  brief: string;
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
  /^[\w./-]+\.py:\d+: (\w*(Error|Exception|Warning|Failed)\b|[A-Z]\w*$)/, // pytest's location line
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

/**
 * Headers of the part of a runner's output that reports its failures: pytest's `FAILURES` and `ERRORS`, Vitest's
 * `Failed Tests`, `Failed Suites` and `Unhandled Errors`. Where one is present, detail lines come from those parts
 * only: what passing tests log (Vitest's `stderr | …` blocks, a caught error a test prints on purpose) is not a
 * failure.
 */
const SECTION_START = /^=+ (FAILURES|ERRORS) =+$|^⎯+ (Failed Tests|Failed Suites|Unhandled Errors?)\b.*⎯+$/;
/** What ends such a part: pytest's next `=== … ===` header, Vitest's closing counts. */
const SECTION_END = /^=+ .+ =+$|^\s*Test Files\s/;
/** A pytest failure's header, `____ test_name ____`: each failure's lines are read apart. */
const PYTEST_BLOCK = /^_{3,} .+ _{3,}$/;
/** pytest error lines after the exception that state a difference: the ones after it repeat or extend it. */
const PYTEST_DIFFERENCE = /\bdiff\b|^(Left|Right) contains|^Differing |^[-+?] |^(Omitting|Extra items)/;
/** pytest error lines kept per failure at most (the exception and what explains it). */
const PYTEST_E_LINES = 4;

/** Reduces `output` to its failing ids, detail lines and summary (or its tail). */
export function summarizeOutput(output: string): RunOutputSummary {
  const lines = output
    .replace(ANSI, "")
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((l) => l.replace(/\s+$/, ""));
  const failed: string[] = [];
  let summary: string | undefined;
  const sectioned = lines.some((l) => SECTION_START.test(l));
  let inSection = false;
  const details: string[] = [];
  const seenFailed = new Set<string>();
  const seenDetail = new Set<string>();
  // Failure by failure, where the runner reports them apart (pytest's and Vitest's failure parts).
  const blocks: { name?: string; ids: string[]; lines: string[] }[] = [];
  let current: (typeof blocks)[number] | undefined;
  const keep = (line: string) => {
    const trimmed = line.trim();
    const kept = trimmed.length > 300 ? `${trimmed.slice(0, 300)}…` : trimmed;
    if (!seenDetail.has(kept)) details.push(kept);
    seenDetail.add(kept);
    // (a line before any failure's header, an unhandled error, is a failure of its own)
    if (!current && inSection) blocks.push((current = { ids: [], lines: [] }));
    if (current && !current.lines.includes(kept)) current.lines.push(kept);
  };

  // pytest's closing summary repeats each failure's first error line: ids only from there on.
  let idsOnly = false;
  // pytest's "Full diff:" block prints again, item by item, what the lines above it said (the
  // first difference, the extra items): measured on flask, 13 of a failure's 19 lines.
  let fullDiff = false;
  const block = { arrow: undefined as string | undefined, eLines: 0, differed: false, pairOpen: false };
  const flushArrow = () => {
    if (block.arrow !== undefined) keep(`> ${block.arrow.slice(1).trim()}`);
    block.arrow = undefined;
  };
  for (const line of lines) {
    if (!line.trim()) continue;
    if (/^=+ short test summary info =+$/.test(line)) idsOnly = true;
    if (SECTION_START.test(line)) {
      // (a new part's lines are not the last failure's: Vitest's unhandled errors after its failed tests)
      flushArrow();
      inSection = true;
      current = undefined;
    } else if (SECTION_END.test(line) && inSection) {
      // (the part's last failure keeps its quoted source line)
      flushArrow();
      inSection = false;
      current = undefined;
    }
    if (PYTEST_BLOCK.test(line)) {
      // A failure with no error line (a failed fixture's setup) keeps its quoted source line.
      flushArrow();
      Object.assign(block, { eLines: 0, differed: false, pairOpen: false });
      if (inSection) blocks.push((current = { name: line.replace(/^_+ | _+$/g, ""), ids: [], lines: [] }));
    }
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
      // Vitest heads each failure with `FAIL  id`, several when the tests share one error.
      if (inSection && /^ FAIL /.test(line)) {
        flushArrow();
        if (current && !current.name && !current.lines.length) current.ids.push(id);
        else blocks.push((current = { ids: [id], lines: [] }));
      }
      continue;
    }
    if (idsOnly || (sectioned && !inSection) || !DETAIL.some((re) => re.test(line))) continue;
    // pytest lists each frame's source, indented: a line that names an error there (`except (ValueError, …):`)
    // is code, not the failure (a traceback's `File "…"` frame in captured output is kept).
    if (current?.name !== undefined && /^\s/.test(line) && !/^\s*File "/.test(line)) continue;
    // pytest quotes a source line (`>`) in every frame it passes through: the last one before the
    // error lines is the one that raised, and the error says the rest.
    if (/^>\s/.test(line)) {
      block.arrow = line;
      continue;
    }
    if (/^E\s/.test(line)) {
      const text = line.slice(1).trim();
      if (block.differed || block.eLines >= PYTEST_E_LINES || /^Use -v to get/.test(text)) continue;
      flushArrow();
      // A `- expected` line is read with the `+ got` line after it (and the `?` line that marks the characters
      // between them): the difference is the pair.
      const inPair = block.pairOpen && /^\? /.test(text);
      if (block.eLines++ > 0 && PYTEST_DIFFERENCE.test(text) && !(/^- /.test(text) && !block.pairOpen) && !inPair) {
        block.differed = true;
      }
      block.pairOpen = /^- /.test(text) || inPair;
      keep(text);
      continue;
    }
    flushArrow();
    // Vitest's diff headers say nothing the `-`/`+` lines below them do not; its equality note neither.
    if (/^\s*[-+] (Expected|Received):?$/.test(line)) continue;
    keep(line.replace(/ \/\/ Object\.is equality$/, ""));
  }
  flushArrow();
  const failures = blocks.length ? failureReports(blocks, failed) : undefined;
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
  return { failed, details, ...(summary ? { summary } : {}), lines: count, ...(failures ? { failures } : {}) };
}

/** A pytest failure's header names the test as `Class.test[param]` (`ERROR at setup of …`, `ERROR collecting path`). */
function headerName(name: string): string {
  return name.replace(/^ERROR (at (setup|teardown) of|collecting) /, "");
}

/** The reports of `blocks`, each matched to its ids (pytest's headers name the test, its ids come later). */
function failureReports(
  blocks: { name?: string; ids: string[]; lines: string[] }[],
  failed: string[],
): FailureReport[] {
  return blocks.map((b) => {
    const ids =
      b.name === undefined
        ? b.ids
        : failed.filter((id) => {
            const name = headerName(b.name!);
            return id === name || id.split("::").slice(1).join(".") === name;
          });
    const at = locationOf(b.lines);
    return { ids, lines: clipPairs([...b.lines]), ...(at ? { at } : {}), brief: briefOf(b.lines) };
  });
}

/** Where a failure's lines say it failed: pytest's `path:line: Error` line, else the first project frame. */
function locationOf(lines: readonly string[]): string | undefined {
  for (const l of lines) {
    const m = /^([\w./-]+\.py:\d+): \w/.exec(l);
    if (m) return m[1];
  }
  for (const l of lines) {
    const m = /^❯ (\S+:\d+:\d+)/.exec(l) ?? /^at (?:.* \()?([^()\s]+:\d+:\d+)\)?$/.exec(l);
    if (m) return m[1];
  }
  return undefined;
}

/** Characters of a failure's one-line form at most. */
const BRIEF_CHARS = 140;

/** A line that states an error or a difference, not where it happened. */
const isStatement = (l: string) =>
  !/^(> |❯ |at )/.test(l) && !/^[\w./-]+\.py:\d+: \w/.test(l) && !/^(Expected|Received)\b/.test(l);

/**
 * A failure in one line, its values cut to where they differ: an `Expected:`/`Received:` pair (Vitest, Jest) or a
 * `- expected`/`+ got` pair (pytest, Vitest) as `expected …, got …`, else pytest's `At index 0 diff: a != b` line
 * when the error line elides its values (`...`), else the error line (`assert a == b` cut the same way).
 */
function briefOf(lines: readonly string[]): string {
  for (let i = 0; i + 1 < lines.length; i++) {
    const e = /^Expected:?\s+(.*)$/.exec(lines[i]!);
    const r = /^Received:?\s+(.*)$/.exec(lines[i + 1]!);
    if (e && r && e[1] !== r[1]) {
      const [a, b] = differingPart(e[1]!, r[1]!);
      return `expected ${a}, got ${b}`;
    }
  }
  const statements = lines.filter(isStatement).filter((l) => !/^\? /.test(l));
  const error = (statements[0] ?? lines[0] ?? "").replace(/^AssertionError: (?=assert )/, "");
  const diff = statements.find((l) => /\bdiff: /.test(l));
  const minus = statements.findIndex((l) => /^- /.test(l));
  const plus = minus >= 0 && /^\+ /.test(statements[minus + 1] ?? "") ? statements[minus + 1] : undefined;
  // pytest's and Vitest's `- expected`/`+ got` pair holds the whole values, where the error line may elide them:
  // read the same way whatever the error line printed, failures that differ the same way share their line.
  if (plus) {
    const [a, b] = differingPart(statements[minus]!.slice(2), plus.slice(2));
    return `expected ${a}, got ${b}`;
  }
  const line = diff && (/\.\.\.|…/.test(error) || !sides(error)) ? diff : error;
  const two = sides(line);
  const brief = two ? `${two.head}${differingPart(two.left, two.right).join(two.op)}` : line;
  return brief.length > BRIEF_CHARS ? `${brief.slice(0, BRIEF_CHARS)}…` : brief;
}

/** The two sides of a comparison a line states once (`assert a == b`, `diff: a != b`), if it states one. */
function sides(line: string): { head: string; left: string; op: string; right: string } | undefined {
  const m = /^(.*?(?:\bassert |\bdiff: ))(.*)$/.exec(line);
  if (!m) return undefined;
  const ops = [...m[2]!.matchAll(/ (==|!=) /g)];
  if (ops.length !== 1) return undefined;
  const at = ops[0]!.index;
  return { head: m[1]!, left: m[2]!.slice(0, at), op: ops[0]![0], right: m[2]!.slice(at + ops[0]![0].length) };
}

/** Characters of each side of a difference shown at most. */
const DIFFERENCE_CHARS = 50;

/**
 * The part two values differ in, widened to whole words, with `…` where the common part is cut:
 * `"a=1; HttpOnly; Secure"` against `"a=1; Httponly; Secure"` gives `…HttpOnly…` and `…Httponly…`.
 */
export function differingPart(a: string, b: string): [string, string] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const word = /[\w$-]/;
  while (head > 0 && word.test(a[head - 1]!)) head--;
  while (tail > 0 && word.test(a[a.length - tail]!)) tail--;
  // (the common ends are cut whatever their length, so failures that differ the same way read the same)
  const part = (x: string) => {
    const middle = x.slice(head, x.length - tail);
    const cut = middle.length > DIFFERENCE_CHARS ? `${middle.slice(0, DIFFERENCE_CHARS)}…` : middle;
    return `${head > 0 ? "…" : ""}${cut}${tail > 0 && middle.length <= DIFFERENCE_CHARS ? "…" : ""}`;
  };
  return [part(a), part(b)];
}

function firstCapture(patterns: readonly RegExp[], line: string): string | undefined {
  for (const re of patterns) {
    const m = re.exec(line);
    if (m?.[1]) return m[1].trim();
  }
  return undefined;
}

/** Characters kept either side of the first difference of a long Expected/Received pair. */
const PAIR_CONTEXT = 30;

/**
 * Clips each long `Expected: …` / `Received: …` pair (Vitest, Jest) to the part around their first
 * difference: two 170-character cookie strings that differ in one letter cost 90 tokens whole and
 * 40 clipped, and the difference is what the reader looks for.
 */
function clipPairs(details: string[]): string[] {
  for (let i = 0; i + 1 < details.length; i++) {
    const e = /^(Expected:?\s+)(.*)$/.exec(details[i]!);
    const r = /^(Received:?\s+)(.*)$/.exec(details[i + 1]!);
    if (!e || !r) continue;
    // The message above a pair quotes the same values cut at their start (`expected '__Secure-great_cookie=banana;
    // Max-Age…' to be '…'`, 33 tokens on hono): the pair says them, the message keeps its words.
    if (i > 0 && /^\w*Error: expected '.*…' to /.test(details[i - 1]!))
      details[i - 1] = details[i - 1]!.replace(/'[^']*…'/g, "…");
    if (Math.max(e[2]!.length, r[2]!.length) <= 2 * PAIR_CONTEXT + 20) continue;
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
