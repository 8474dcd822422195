/**
 * Big answers in pages: callers, callees and importers (and the tests and trace answers, through
 * the same helpers) take a limit and a cursor, always state their totals, list production code
 * first and test code summarised by file unless asked for, say what they could not see, and fit
 * a token budget that covers the whole text (and, when asked, the answer's JSON too).
 */
import { EngineError } from "../../shared/errors.ts";
import { cite, citePath } from "../../shared/paths.ts";
import { fitPrefix } from "../budget/fit.ts";
import { ENCODINGS, lineMemoCounter, loadTokenCounter, type Encoding } from "../budget/tokenizer.ts";
import { isTestSite, isTestPath, testAt } from "../graph/test-code.ts";
import { LIMITS } from "../limits.ts";
import { callsCompleteness, importsCompleteness, type Completeness } from "./completeness.ts";
import type { CodeGraph } from "../graph/model.ts";
import type { CallsAnswer, ImportersAnswer, RelatedSymbol } from "./queries.ts";
import { quoted } from "../../shared/quote.ts";

/** Which test code a list shows: production listed and tests counted by file (`summary`), all, none, or only tests. */
export type TestsMode = "summary" | "include" | "exclude" | "only";
export const TESTS_MODES: readonly TestsMode[] = ["summary", "include", "exclude", "only"];

/** Paging and budget options of list answers. */
export interface ListOptions {
  /** Entries per page (default 50, at most 1,000); the budget may show fewer. */
  limit?: number;
  /**
   * The cursor an earlier page named as `next`: carries the offset, the tests filter, the depth (and impact's
   * direction).
   */
  cursor?: string;
  tests?: TestsMode;
  /** Tokens for the whole text (default 4,000). */
  budget?: number;
  encoding?: Encoding;
  /** The budget covers the answer's JSON (every field but `text`) too: for hosts that hand both to a model. */
  json?: boolean;
}

/** Where a page sits in the whole list. */
export interface PageInfo {
  tests: TestsMode;
  /** Entries the tests filter keeps: what the pages go through. */
  matching: number;
  offset: number;
  /** Entries on this page (fewer than `limit` when the budget is reached). */
  shown: number;
  limit: number;
  /** Cursor of the next page; absent on the last one. */
  next?: string;
}

export interface Usage {
  tokens: number;
  budget: number;
  encoding: Encoding;
}

/** Counts of entries in test code, with the files that hold the most. */
export interface TestCodeSummary {
  entries: number;
  files: { path: string; count: number }[];
  /** Files in all. */
  fileCount: number;
}

/** Callers or callees, one page of them. `results`, `external` and `possible` hold this page's entries. */
export interface CallsPage extends CallsAnswer {
  /** Entries of the whole answer, before the tests filter and paging. */
  total: { results: number; external: number; possible: number };
  /** Of those, entries in test code. */
  testCode: TestCodeSummary & { results: number; possible: number };
  page: PageInfo;
  completeness: Completeness;
  usage: Usage;
  text: string;
}

/** Importers, one page of them. */
export interface ImportersPage extends ImportersAnswer {
  total: number;
  testCode: TestCodeSummary;
  page: PageInfo;
  completeness: Completeness;
  usage: Usage;
  text: string;
}

/** The validated arguments of a list answer. */
export interface ListArgs {
  limit: number;
  offset: number;
  tests: TestsMode;
  depth: number | undefined;
  /** impact's direction, when a cursor carried it. */
  direction: string | undefined;
  budget: number;
  encoding: Encoding;
  json: boolean;
  count: (text: string) => number;
  /** The index version the cursor was made on, when it names one. */
  cursorVersion?: string;
  /** This index's version ({@link bindIndexVersion}): the next page's cursor carries it. */
  version?: string;
}

const CURSOR = /^(\d{1,9})\.(summary|include|exclude|only)\.(\d{1,2})(?:\.(up|down|both))?(?:\.v([0-9a-z]{1,8}))?$/;

/**
 * A page's cursor: `<offset>.<tests>.<depth>`, `.<direction>` for impact, and `.v<version>` of the
 * index it was made on: readable, enough to ask for the next page alone, and known stale after an
 * edit (an offset into a list that changed would repeat some entries and skip others).
 */
export function encodeCursor(
  offset: number,
  tests: TestsMode,
  depth: number,
  direction?: string,
  version?: string,
): string {
  return `${offset}.${tests}.${depth}${direction ? `.${direction}` : ""}${version ? `.v${version}` : ""}`;
}

const versions = new WeakMap<CodeGraph, string>();

/**
 * The index's version: a hash of every indexed file's path and content hash, so it changes with
 * any edit and is the same for the same code (a cursor survives a server restart, not an edit).
 */
export function indexVersion(graph: CodeGraph): string {
  let v = versions.get(graph);
  if (v) return v;
  let h = 0x811c9dc5;
  const mix = (text: string) => {
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  };
  for (const path of [...graph.records.keys()].sort()) {
    mix(path);
    mix("\0");
    mix(graph.records.get(path)!.hash);
    mix("\n");
  }
  v = (h >>> 0).toString(36);
  versions.set(graph, v);
  return v;
}

/**
 * Binds list arguments to the graph they page: the next cursor carries its version, and a cursor
 * made on another version is refused as stale (code `invalid_argument`, reason `stale_cursor`).
 */
export function bindIndexVersion(a: ListArgs, graph: CodeGraph): ListArgs {
  a.version = indexVersion(graph);
  if (a.cursorVersion !== undefined && a.cursorVersion !== a.version) {
    throw new EngineError(
      "invalid_argument",
      "The cursor is stale: it was made before the code changed; the list it pages is not the same any more, " +
        "and paging on would repeat some entries and skip others.",
      {
        hint: "Ask again without a cursor for the first page of the current list.",
        data: {
          cursor: encodeCursor(a.offset, a.tests, a.depth ?? 0, a.direction, a.cursorVersion),
          reason: "stale_cursor",
        },
      },
    );
  }
  return a;
}

function badArgument(message: string, data: Record<string, unknown>, hint?: string): EngineError {
  return new EngineError("invalid_argument", message, { ...(hint ? { hint } : {}), data });
}

/** Validates paging options against each other (a cursor carries the filter and depth it was made with). */
export async function listArgs(
  opts: ListOptions & { depth?: number; direction?: string },
  defaultBudget: number = LIMITS.budget.list,
): Promise<ListArgs> {
  const limit = opts.limit ?? LIMITS.page.default;
  if (!Number.isInteger(limit) || limit < LIMITS.page.min || limit > LIMITS.page.max) {
    throw badArgument(
      `limit must be a whole number from ${LIMITS.page.min} to ${LIMITS.page.max}, got ${String(opts.limit)}.`,
      { limit: opts.limit },
    );
  }
  if (opts.tests !== undefined && !TESTS_MODES.includes(opts.tests)) {
    throw badArgument(`tests must be one of ${TESTS_MODES.join(", ")}, got ${quoted(opts.tests)}.`, {
      tests: opts.tests,
    });
  }
  const budget = opts.budget ?? defaultBudget;
  if (!Number.isInteger(budget) || budget < 1 || budget > LIMITS.budget.max) {
    throw badArgument(
      `budget must be a whole number of tokens from 1 to ${LIMITS.budget.max}, got ${String(opts.budget)}.`,
      { budget: opts.budget },
    );
  }
  const encoding = opts.encoding ?? "o200k_base";
  if (!ENCODINGS.includes(encoding))
    throw badArgument(`encoding must be one of ${ENCODINGS.join(", ")}, got ${quoted(encoding)}.`, {
      encoding,
    });
  let offset = 0;
  let tests = opts.tests ?? "summary";
  let depth = opts.depth;
  let direction: string | undefined;
  let cursorVersion: string | undefined;
  if (opts.cursor !== undefined) {
    const m = CURSOR.exec(String(opts.cursor).trim());
    if (!m) {
      throw badArgument(
        `cursor ${quoted(opts.cursor)} is not one this engine made.`,
        { cursor: opts.cursor },
        "Pass the cursor exactly as the previous page named it, or leave it out for the first page.",
      );
    }
    offset = Number(m[1]);
    const [cursorTests, cursorDepth] = [m[2] as TestsMode, Number(m[3])];
    if (opts.tests !== undefined && opts.tests !== cursorTests) {
      throw badArgument(
        `the cursor was made with tests=${cursorTests}, not ${opts.tests}.`,
        { cursor: opts.cursor, tests: opts.tests },
        `Leave tests out with this cursor, or start again without a cursor to change it.`,
      );
    }
    if (opts.depth !== undefined && opts.depth !== cursorDepth) {
      throw badArgument(
        `the cursor was made with depth ${cursorDepth}, not ${opts.depth}.`,
        { cursor: opts.cursor, depth: opts.depth },
        `Leave depth out with this cursor, or start again without a cursor to change it.`,
      );
    }
    if (opts.direction !== undefined && m[4] !== undefined && opts.direction !== m[4]) {
      throw badArgument(
        `the cursor was made with direction ${m[4]}, not ${opts.direction}.`,
        { cursor: opts.cursor, direction: opts.direction },
        `Leave direction out with this cursor, or start again without a cursor to change it.`,
      );
    }
    tests = cursorTests;
    depth = cursorDepth;
    direction = m[4];
    cursorVersion = m[5];
  }
  // Remembers each line's count: a page is rendered and counted several times while it is fitted.
  return {
    limit,
    offset,
    tests,
    depth,
    direction,
    budget,
    encoding,
    json: opts.json === true,
    count: lineMemoCounter(await loadTokenCounter(encoding)),
    ...(cursorVersion ? { cursorVersion } : {}),
  };
}

const usageLine = (tokens: number, a: ListArgs) => `-- ${tokens}/${a.budget} tokens (${a.encoding})`;

/** The text with its usage line reporting the text's own count (recounted until it holds still). */
export function withUsage(render: (usage: string) => string, a: ListArgs): { text: string; tokens: number } {
  let tokens = a.count(render(usageLine(0, a)));
  let text = render(usageLine(tokens, a));
  for (let k = 0; k < 3; k++) {
    const again = a.count(text);
    if (again === tokens) break;
    tokens = again;
    text = render(usageLine(tokens, a));
  }
  return { text, tokens: a.count(text) };
}

/**
 * Tokens added to a "needs N" figure: the answer repeats its budget (in its usage line, and in its
 * JSON), and N may take more tokens to write than the budget it was counted with.
 */
export const BUDGET_DIGITS_MARGIN = 4;

/**
 * The answer with the most entries, up to `max`, that fits the budget: `make(k)` renders k entries.
 * The one fitter decides ({@link fitPrefix}); this says what a page costs (its text, and with
 * `json` its JSON too) and, when not even none fits, throws `budget_too_small` naming the budget needed.
 */
export function fitPage<T extends { text: string; usage: Usage }>(max: number, make: (k: number) => T, a: ListArgs): T {
  // With `json`, a front end sends the data beside the text: the budget covers both together.
  const cost = (answer: T) =>
    answer.usage.tokens + (a.json ? a.count(JSON.stringify({ ...answer, text: undefined })) : 0);
  const { answer, fits } = fitPrefix(max, make, cost, a.budget);
  if (!fits) {
    const needed = cost(answer) + BUDGET_DIGITS_MARGIN;
    throw new EngineError(
      "budget_too_small",
      `A budget of ${a.budget} tokens cannot hold even the answer's header and notes; it needs ${needed}.`,
      {
        hint: `Ask again with budget ≥ ${needed}.`,
        data: { budget: a.budget, needed },
      },
    );
  }
  return answer;
}

export const fmt = (n: number) => n.toLocaleString("en-US");
export const plural = (n: number, one: string, many = `${one}s`) => `${fmt(n)} ${n === 1 ? one : many}`;

/** Test-code entries counted per file, biggest first. */
export function summarizeByFile(paths: string[]): TestCodeSummary {
  const counts = new Map<string, number>();
  for (const p of paths) counts.set(p, (counts.get(p) ?? 0) + 1);
  const files = [...counts]
    .map(([path, count]) => ({ path, count }))
    .sort((a, b) => b.count - a.count || (a.path < b.path ? -1 : 1));
  return { entries: paths.length, files: files.slice(0, 8), fileCount: counts.size };
}

/** The lines that tell what the page holds and how to get the rest. */
export function pagingLines(
  page: PageInfo,
  what: string,
  rest: { testCode: TestCodeSummary; testWhat: string | ((n: number) => string) },
): string[] {
  const lines: string[] = [];
  if (page.tests === "summary" && rest.testCode.entries > 0) {
    const files = rest.testCode.files.map((f) => `${citePath(f.path)} (${fmt(f.count)})`).join(", ");
    const more = rest.testCode.fileCount - rest.testCode.files.length;
    const where = files
      ? ` in ${plural(rest.testCode.fileCount, "test file")}: ` +
        `${files}${more > 0 ? `, and ${plural(more, "more file")}` : ""}`
      : "";
    const counted =
      typeof rest.testWhat === "string"
        ? plural(rest.testCode.entries, rest.testWhat)
        : rest.testWhat(rest.testCode.entries);
    lines.push(
      `Tests: ${counted}${where} (counted, not listed). To list them, ask again with tests=only (or ` +
        `tests=include for everything).`,
    );
  }
  if (page.next)
    lines.push(
      `Next page: ask again with cursor=${page.next} ` +
        `(${plural(page.matching - page.offset - page.shown, `more ${what}`, `more ${what}`)}).`,
    );
  else if (page.offset < page.matching && (page.offset > 0 || page.shown < page.matching))
    lines.push(`Last page: ${what} ${fmt(page.offset + 1)}-${fmt(page.offset + page.shown)} of ${fmt(page.matching)}.`);
  return lines;
}

/** What a page past the last entry says (a cursor kept across an edit that shortened the list). */
export function pastTheEnd(offset: number, matching: number): string {
  return (
    `The cursor points past the end: there are ${fmt(matching)} entries (the code may have changed since ` +
    `it was made); ask again without a cursor.`
  );
}

/** A page's info for `k` entries from `offset` of `matching` (`direction`: impact's, carried by the cursor). */
export function pageInfo(a: ListArgs, matching: number, k: number, depth: number, direction?: string): PageInfo {
  const end = a.offset + k;
  return {
    tests: a.tests,
    matching,
    offset: a.offset,
    shown: k,
    limit: a.limit,
    ...(end < matching && k > 0 ? { next: encodeCursor(end, a.tests, depth, direction, a.version) } : {}),
  };
}

/** Keeps the entries the tests filter asks for, production first. */
export function filterTests<T>(entries: T[], isTest: (e: T) => boolean, mode: TestsMode): { kept: T[]; tests: T[] } {
  const prod: T[] = [];
  const tests: T[] = [];
  for (const e of entries) (isTest(e) ? tests : prod).push(e);
  const kept = mode === "only" ? tests : mode === "include" ? [...prod, ...tests] : prod;
  return { kept, tests };
}

/** The completeness section: what the answer could not see. */
export function completenessLines(c: Completeness, empty: boolean, nothingMissed: string): string[] {
  if (!c.notes.length) return [`Seen in full: ${nothingMissed}.`];
  return [
    empty ? "Not seen (so an empty list does not prove nothing is there):" : "Not seen:",
    ...c.notes.map((n) => `- ${n}`),
  ];
}

type Entry =
  | { kind: "result"; r: RelatedSymbol; test: boolean }
  | { kind: "external"; x: CallsAnswer["external"][number]; test: boolean }
  | { kind: "possible"; p: CallsAnswer["possible"][number]; test: boolean };

/** The listed call sites of a callers or callees page, in sections by kind. */
function callEntryLines(shown: Entry[], callers: boolean): string[] {
  const lines: string[] = [];
  let section = "";
  for (const e of shown) {
    if (e.kind !== section) {
      section = e.kind;
      if (e.kind === "external") lines.push("", "Calls into packages:");
      if (e.kind === "possible")
        lines.push(
          "",
          "Possible callers by name only (several definitions share the name; nothing ties these calls to " +
            "this one):",
        );
      if (e.kind === "result") lines.push("");
    }
    if (e.kind === "result") {
      const r = e.r;
      // Module-level code is named by its file, which the site already cites.
      const who =
        r.kind === "module" && r.path === r.site.path
          ? "module code"
          : `${r.qualified} (${r.kind}, ${cite(r.path, r.line)})`;
      lines.push(
        `${"  ".repeat(r.depth - 1)}- ${cite(r.site.path, r.site.line)} ` +
          (`${callers ? "in " : "→ "}${who}${r.via !== "call" ? ` via ${r.via}` : ""}` +
            (`${r.through ? ` dispatch through ${r.through}` : ""} [${r.resolution}, ` +
              `${r.confidence.toFixed(2)}]${r.test ? ` test: ${r.test}` : ""}`)),
      );
    } else if (e.kind === "external") lines.push(`- ${cite(e.x.site.path, e.x.site.line)} → ${e.x.target}`);
    else
      lines.push(`- ${cite(e.p.site.path, e.p.site.line)} in ${e.p.caller.qualified} [${e.p.candidates} candidates]`);
  }
  return lines;
}

/** Callers or callees as one page: `full` is the whole walk. */
export function pageCalls(graph: CodeGraph, full: CallsAnswer, a: ListArgs): CallsPage {
  const callers = full.direction === "callers";
  const root = graph.byQualified.get(full.symbol.qualified) ?? -1;
  const idOf = (qualified: string) => graph.byQualified.get(qualified) ?? -1;
  // Callers are test code when the call site is; callees when the called definition is.
  const resultIsTest = (r: RelatedSymbol) =>
    callers
      ? isTestSite(graph, r.site.path, r.site.line, idOf(r.qualified))
      : isTestPath(r.path, graph.symbols[idOf(r.qualified)]?.language);
  // A caller in a test is named by its runnable id too: that is what an agent runs.
  const withTest = (r: RelatedSymbol): RelatedSymbol => {
    if (!callers) return r;
    const id = testAt(graph, r.site.path, r.site.line, graph.symbols[idOf(r.qualified)]?.index)?.id;
    return id ? { ...r, test: id } : r;
  };
  const entries: Entry[] = [
    ...full.results
      .map((r) => ({ kind: "result" as const, r, test: resultIsTest(r) }))
      .map((e) => (e.test ? { ...e, r: withTest(e.r) } : e)),
    ...full.external.map((x) => ({
      kind: "external" as const,
      x,
      test: isTestSite(graph, x.site.path, x.site.line, root),
    })),
    ...full.possible.map((p) => ({
      kind: "possible" as const,
      p,
      test: isTestSite(graph, p.site.path, p.site.line, idOf(p.caller.qualified)),
    })),
  ];
  const order = { result: 0, external: 1, possible: 2 };
  const { kept, tests } = filterTests(entries, (e) => e.test, a.tests);
  // stable: production before tests within a kind
  if (a.tests === "include") kept.sort((x, y) => order[x.kind] - order[y.kind]);
  const testPaths = tests.map((e) =>
    e.kind === "result" ? e.r.site.path : e.kind === "external" ? e.x.site.path : e.p.site.path,
  );
  const testCode = {
    ...summarizeByFile(testPaths),
    results: tests.filter((e) => e.kind === "result").length,
    possible: tests.filter((e) => e.kind === "possible").length,
  };
  const symbol = graph.symbols[root];
  const completeness = symbol ? callsCompleteness(graph, symbol, full.direction, full.possible.length) : { notes: [] };
  const depth = full.depth;
  const rest = kept.slice(a.offset);
  const what = callers ? "call sites" : "calls";

  const make = (k: number): CallsPage => {
    const shown = rest.slice(0, k);
    const page = pageInfo(a, kept.length, shown.length, depth);
    const results = shown.flatMap((e) => (e.kind === "result" ? [e.r] : []));
    const external = shown.flatMap((e) => (e.kind === "external" ? [e.x] : []));
    const possible = shown.flatMap((e) => (e.kind === "possible" ? [e.p] : []));
    const render = (usage: string) => {
      const s = full.symbol;
      const lines = [
        `# ${callers ? "Callers of" : "Callees of"} ${s.qualified} (${s.kind}, ` +
          `${cite(s.path, s.line)})${depth > 1 ? `, depth ${depth}` : ""}`,
      ];
      const prodResults = full.results.length - testCode.results;
      const testNote = testCode.results
        ? `: ${fmt(prodResults)} in production code, ${fmt(testCode.results)} in test code`
        : "";
      lines.push(
        `${plural(full.results.length, callers ? "resolved call site" : "resolved call")}${testNote}` +
          (`${full.external.length ? `; ${plural(full.external.length, "call")} into packages` : ""}` +
            `${full.possible.length ? `; ${plural(full.possible.length, "possible call site")} by name only` : ""}.`),
      );
      const filter =
        a.tests === "only"
          ? "test code only"
          : a.tests === "include"
            ? "production code first, then test code"
            : "production code";
      if (kept.length === 0)
        lines.push(
          full.results.length + full.possible.length + full.external.length === 0
            ? `None found${callers ? " among resolved calls" : ""}.`
            : `None in ${filter}.`,
        );
      else if (a.offset >= kept.length) lines.push(pastTheEnd(a.offset, kept.length));
      else
        lines.push(`Listed (${filter}): ${fmt(a.offset + 1)}-${fmt(a.offset + shown.length)} of ${fmt(kept.length)}.`);
      lines.push(...callEntryLines(shown, callers));
      const testWhat = () =>
        [
          testCode.results && plural(testCode.results, callers ? "resolved call site" : "call"),
          testCode.possible && plural(testCode.possible, "possible call site"),
          testCode.entries - testCode.results - testCode.possible &&
            plural(
              testCode.entries - testCode.results - testCode.possible,
              "call into packages",
              "calls into packages",
            ),
        ]
          .filter(Boolean)
          .join(" and ");
      const paging = pagingLines(page, what, { testCode, testWhat });
      if (paging.length) lines.push("", ...paging);
      lines.push(
        "",
        ...completenessLines(
          completeness,
          kept.length === 0,
          callers
            ? `every call naming \`${s.qualified.split(/[.#]/).pop()}\` in its language's files is linked, and ` +
                `no such file has syntax errors`
            : "every call it makes is linked",
        ),
      );
      lines.push("", usage);
      return lines.join("\n");
    };
    const { text, tokens } = withUsage(render, a);
    return {
      symbol: full.symbol,
      direction: full.direction,
      depth,
      results,
      external,
      possible,
      total: { results: full.results.length, external: full.external.length, possible: full.possible.length },
      testCode,
      page,
      completeness,
      usage: { tokens, budget: a.budget, encoding: a.encoding },
      text,
    };
  };
  return fitPage(Math.min(a.limit, rest.length), make, a);
}

/** Importers as one page. */
export function pageImporters(graph: CodeGraph, full: ImportersAnswer, a: ListArgs): ImportersPage {
  const { kept, tests } = filterTests(
    full.results,
    (r) => isTestPath(r.path, graph.records.get(r.path)?.language),
    a.tests,
  );
  const testCode = summarizeByFile(tests.map((r) => r.path));
  const completeness = importsCompleteness(graph, full.path);
  const rest = kept.slice(a.offset);
  const make = (k: number): ImportersPage => {
    const shown = rest.slice(0, k);
    const page = pageInfo(a, kept.length, shown.length, full.depth);
    const render = (usage: string) => {
      const lines = [`# Files importing ${citePath(full.path)}${full.depth > 1 ? ` (depth ${full.depth})` : ""}`];
      lines.push(
        plural(full.results.length, "file") +
          (tests.length ? `: ${fmt(full.results.length - tests.length)} production, ${fmt(tests.length)} test` : "") +
          ".",
      );
      const filter =
        a.tests === "only"
          ? "test files only"
          : a.tests === "include"
            ? "production files first, then test files"
            : "production files";
      if (kept.length === 0)
        lines.push(full.results.length === 0 ? "No project file imports it." : `None among ${filter}.`);
      else if (a.offset >= kept.length) lines.push(pastTheEnd(a.offset, kept.length));
      else if (shown.length)
        lines.push(
          `Listed (${filter}): ${fmt(a.offset + 1)}-${fmt(a.offset + shown.length)} of ${fmt(kept.length)}.`,
          "",
        );
      for (const r of shown)
        lines.push(`${"  ".repeat(r.depth - 1)}- ${citePath(r.path)}${r.depth > 1 ? ` (depth ${r.depth})` : ""}`);
      const paging = pagingLines(page, "files", { testCode: { ...testCode, files: [] }, testWhat: "test file" });
      if (paging.length) lines.push("", ...paging);
      lines.push(
        "",
        ...completenessLines(
          completeness,
          kept.length === 0,
          "every import in its language's files resolves, and none of them has syntax errors",
        ),
      );
      lines.push("", usage);
      return lines.join("\n");
    };
    const { text, tokens } = withUsage(render, a);
    return {
      path: full.path,
      depth: full.depth,
      results: shown,
      total: full.results.length,
      testCode,
      page,
      completeness,
      usage: { tokens, budget: a.budget, encoding: a.encoding },
      text,
    };
  };
  return fitPage(Math.min(a.limit, rest.length), make, a);
}
