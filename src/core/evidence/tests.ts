/**
 * tests(target): the tests that exercise a symbol or a file — test code among its callers (up to a
 * depth, through helpers), test files that import its file and name it, and, for languages whose
 * calls the index does not extract, tests that name it — each with a runnable id in its runner's
 * own syntax, and the command lines that run just those. Runners are detected from the project's
 * manifests and configs through each language's conventions; codeslice never runs them.
 */
import type { Route } from "../query/routes.ts";
import { requestsTo } from "../query/route-calls.ts";
import { languageById } from "../../languages/index.ts";
import type { TestCase, TestRunner, TestToRun } from "../../languages/types.ts";
import { EngineError } from "../../shared/errors.ts";
import { cite } from "../../shared/paths.ts";
import { LIMITS } from "../limits.ts";
import { callsCompleteness, importsCompleteness, type Completeness } from "../query/completeness.ts";
import { symbolRef, type SymbolRef } from "../query/lookup.ts";
import type { CodeGraph, SymbolNode } from "../graph/model.ts";
import {
  completenessLines,
  fitPage,
  fmt,
  pageInfo,
  pastTheEnd,
  plural,
  withUsage,
  type ListArgs,
  type PageInfo,
  type Usage,
} from "../query/pages.ts";
import { conventionsOf, holdsTests, scopeAt, siteOf, testAt } from "../graph/test-code.ts";

/** How a test reaches the target. */
export type TestEvidence = "call" | "mention" | "import";

/** One test (or a group, or a whole file) that exercises the target. */
export interface TestHit {
  path: string;
  start: number;
  end: number;
  /** The runnable id in its runner's syntax. */
  id: string;
  /** The runner that runs it (an id from its language's conventions), when the language names one. */
  runner?: string;
  /** A group of tests (a describe block, a test class) or the whole file, rather than one test. */
  group?: boolean;
  file?: boolean;
  parametrized?: boolean;
  evidence: TestEvidence;
  /** Call hops from the target (1: the test calls it itself). */
  depth: number;
  /** Where the test calls (or names) the target or the helper that leads to it. */
  site: { path: string; line: number };
  /** The symbols between the test and the target, nearest the test first (calls through helpers). */
  through: string[];
  confidence: number;
}

/** The command lines for one runner in one folder. */
export interface RunPlan {
  runner: string;
  name: string;
  /** Where to run them: the folder of the file that shows the runner ("" for the project root). */
  cwd: string;
  /** The file that shows the project uses this runner; absent when none does and it is assumed. */
  detectedBy?: string;
  tests: number;
  commands: string[];
}

/** The answer to tests. */
export interface TestsAnswer {
  target: string;
  resolvedAs: "symbol" | "file";
  symbol?: SymbolRef;
  path?: string;
  depth: number;
  /** This page's tests. */
  tests: TestHit[];
  /** Tests found in all, and by evidence. */
  total: number;
  byEvidence: Record<TestEvidence, number>;
  /** Commands that run this page's tests. */
  run: RunPlan[];
  /** Commands that run the files of every test found, when they span more than this page. */
  runAll?: RunPlan[];
  page: PageInfo;
  completeness: Completeness;
  /**
   * When no test is found within `depth` but callers reach tests further up: the fewest hops that
   * find some, and how many tests that depth finds (impact walks 3 hops by default, tests 2).
   */
  deeper?: { depth: number; tests: number };
  usage: Usage;
  text: string;
}

/** What tests needs from the engine besides the graph: the inventory and file text. */
export interface TestsIO {
  /** Every inventory path (manifests and configs included). */
  paths(): Iterable<string>;
  readText(path: string): Promise<string | undefined>;
  /** The project's HTTP routes: a test that sends a request to a route handled by a seed tests it. */
  routes?(): Route[];
}

/** Test files read for names at most, per answer. */
export const MAX_SCANNED_FILES = 2_000;
const CONFIDENCE = { mention: 0.4, import: 0.3 };

const rank = (h: TestHit) => (h.evidence === "call" ? 0 : h.evidence === "mention" ? 1 : 2);

/** The symbols a tests answer starts from (a symbol with its members, or a file's definitions) and their files. */
function seedsOf(
  graph: CodeGraph,
  target: { symbol?: SymbolNode; file?: string },
): { seeds: number[]; files: Set<string> } {
  const seeds: number[] = [];
  const files = new Set<string>();
  if (target.symbol) {
    const s = target.symbol;
    seeds.push(s.id);
    for (let i = 0; i < seeds.length; i++) for (const c of graph.children.get(seeds[i]!) ?? []) seeds.push(c);
    files.add(s.file);
  } else {
    const moduleId = graph.moduleSymbol.get(target.file!)!;
    seeds.push(moduleId);
    const count = graph.records.get(target.file!)!.definitions.length;
    for (let i = 0; i < count; i++) seeds.push(moduleId + 1 + i);
    files.add(target.file!);
  }
  return { seeds, files };
}

/** Keeps one hit per file and test id: the strongest evidence, then the fewest hops, then the highest confidence. */
function addHit(hits: Map<string, TestHit>, h: TestHit): void {
  const key = `${h.path}\0${h.id}`;
  const old = hits.get(key);
  if (
    !old ||
    rank(h) < rank(old) ||
    (rank(h) === rank(old) && (h.depth < old.depth || (h.depth === old.depth && h.confidence > old.confidence)))
  )
    hits.set(key, h);
}

/** A hit on one test case. */
function caseHit(
  c: TestCase,
  path: string,
  evidence: TestEvidence,
  depth: number,
  site: { path: string; line: number },
  through: string[],
  confidence: number,
): TestHit {
  return {
    path,
    start: c.start,
    end: c.end,
    id: c.id,
    ...(c.group ? { group: true } : {}),
    ...(c.parametrized ? { parametrized: true } : {}),
    evidence,
    depth,
    site,
    through,
    confidence,
  };
}

/** A hit on a whole test file. */
function fileHit(
  graph: CodeGraph,
  path: string,
  evidence: TestEvidence,
  depth: number,
  site: { path: string; line: number },
  through: string[],
  confidence: number,
): TestHit {
  return {
    path,
    start: 1,
    end: graph.records.get(path)!.lines,
    id: fileId(graph, path),
    file: true,
    evidence,
    depth,
    site,
    through,
    confidence,
  };
}

/**
 * Tests that send a request to a route a seed handles (`client.put(f"{API}/items/{id}")`,
 * supertest, `app.request("/x")`): the request calls the handler, one hop, through the route.
 */
function requestTests(graph: CodeGraph, seeds: number[], routes: Route[], hits: Map<string, TestHit>): void {
  for (const { call, route } of requestsTo(graph, routes, new Set(seeds))) {
    const caller = graph.symbols[call.callerId]!;
    const test = testAt(graph, call.path, call.line, caller.index);
    const site = { path: call.path, line: call.line };
    if (test)
      addHit(hits, caseHit(test, call.path, "call", 1, site, [`${route.method} ${route.path}`], REQUEST_CONFIDENCE));
    else if (caller.kind === "module" && holdsTests(call.path, caller.language))
      addHit(hits, fileHit(graph, call.path, "call", 1, site, [`${route.method} ${route.path}`], REQUEST_CONFIDENCE));
  }
}

/** A request matched to a route by its URL template: surer than a name, less than a resolved call. */
const REQUEST_CONFIDENCE = 0.7;

/** Test code among the callers of the seeds, breadth-first through helpers and production code, up to `depth` hops. */
function callerTests(graph: CodeGraph, seeds: number[], depth: number, hits: Map<string, TestHit>): void {
  const parent = new Map<number, number>();
  const chain = (id: number): string[] => {
    const out: string[] = [];
    for (let at: number | undefined = id; at !== undefined && !seeds.includes(at); at = parent.get(at))
      out.push(graph.symbols[at]!.qualified);
    return out;
  };
  const seen = new Set(seeds);
  let frontier = [...seeds];
  for (let d = 1; d <= depth && frontier.length; d++) {
    const next: number[] = [];
    for (const id of frontier) {
      for (const ei of graph.callsTo.get(id) ?? []) {
        const e = graph.calls[ei]!;
        const caller = graph.symbols[e.caller]!;
        const site = { path: e.file, line: e.line };
        const test = testAt(graph, e.file, e.line, caller.index);
        if (test) {
          addHit(hits, caseHit(test, e.file, "call", d, site, chain(id), e.confidence));
          continue;
        }
        // Module code of a test file outside every test (shared setup) runs for each of its tests.
        if (caller.kind === "module" && holdsTests(e.file, caller.language)) {
          addHit(hits, fileHit(graph, e.file, "call", d, site, chain(id), e.confidence));
          continue;
        }
        if (seen.has(caller.id) || caller.kind === "module") continue;
        seen.add(caller.id);
        parent.set(caller.id, id);
        next.push(caller.id);
      }
    }
    frontier = next;
  }
}

/**
 * Test files that name the target without a resolved call: those importing its file, and, for a
 * language whose calls the index does not extract, every test file of that language. Returns the
 * notes on what was not read.
 */
async function mentionTests(
  graph: CodeGraph,
  target: { symbol?: SymbolNode },
  seeds: number[],
  files: Set<string>,
  hits: Map<string, TestHit>,
  io: TestsIO,
): Promise<string[]> {
  const notes: string[] = [];
  const names = nameSet(graph, seeds, target.symbol);
  const scan = new Set<string>();
  for (const f of files) {
    for (const from of graph.importedBy.get(f) ?? [])
      if (holdsTests(from, graph.records.get(from)?.language)) scan.add(from);
    const language = graph.records.get(f)?.language ?? "";
    if (!fullDepth(language)) {
      scan.add(f); // tests may sit beside the code (a `mod tests` in the same file)
      for (const r of graph.records.values())
        if (r.language === language && holdsTests(r.path, language)) scan.add(r.path);
    }
  }
  const pattern = names.length ? mentionPattern(graph, names, target.symbol) : undefined;
  let scanned = 0;
  for (const path of scan) {
    if (!pattern) break;
    if (scanned >= MAX_SCANNED_FILES) {
      notes.push(`only ${fmt(MAX_SCANNED_FILES)} of ${fmt(scan.size)} test files were read for the name`);
      break;
    }
    scanned++;
    const text = await io.readText(path);
    if (text === undefined) continue;
    const record = graph.records.get(path)!;
    const lines = text.split("\n");
    let mentioned = false;
    const imported = [...files].some((f) => (graph.importsFrom.get(path) ?? []).includes(f));
    for (let i = 0; i < lines.length; i++) {
      if (!pattern.test(lines[i]!)) continue;
      const line = i + 1;
      const scope = scopeAt(record, line);
      // The target's own definition lines are not a mention.
      if (
        files.has(path) &&
        scope.length &&
        seeds.some(
          (id) =>
            graph.symbols[id]!.file === path &&
            graph.symbols[id]!.start <= line &&
            graph.symbols[id]!.end >= line &&
            graph.symbols[id]!.kind !== "module",
        )
      )
        continue;
      const conv = conventionsOf(record.language);
      const test = conv?.testAt(siteOf(record, line));
      if (test) {
        mentioned = true;
        addHit(hits, caseHit(test, path, "mention", 1, { path, line }, [], CONFIDENCE.mention));
      }
    }
    if (!mentioned && imported && ![...hits.values()].some((h) => h.path === path)) {
      const first = (graph.records.get(path)?.imports ?? []).find(() => true)?.line ?? 1;
      addHit(hits, fileHit(graph, path, "import", 1, { path, line: first }, [], CONFIDENCE.import));
    }
  }
  return notes;
}

/** What a tests answer could not see: the walk's own limits, runners assumed, and what no static walk sees. */
function testsCompleteness(
  graph: CodeGraph,
  target: { symbol?: SymbolNode; file?: string },
  all: TestHit[],
  runners: RunnerIndex,
  notes: string[],
): Completeness {
  const completeness: Completeness = target.symbol
    ? callsCompleteness(
        graph,
        target.symbol,
        "callers",
        graph.ambiguous.filter((a) => a.candidates.includes(target.symbol!.id)).length,
      )
    : importsCompleteness(graph, target.file!);
  completeness.notes.push(...notes);
  const assumed = new Set<string>();
  for (const h of all) {
    const r = runners.of(h.path);
    if (r && !r.detectedBy) assumed.add(r.runner.name);
  }
  if (assumed.size)
    completeness.notes.push(
      `no project file names a test runner for ${[...assumed].join(", ")}'s language; the commands assume ` +
        `${[...assumed].join(", ")}`,
    );
  // Parameters a framework fills by name (pytest fixtures, LanguageSemantics.injected) are typed from what
  // their provider returns (core/graph/injected.ts): those tests are seen; a provider whose value has no
  // type the graph reads (`request.param`) is not followed.
  const file = target.symbol?.file ?? target.file;
  const injects = file !== undefined && graph.context.files.get(file)?.semantics.injected !== undefined;
  completeness.notes.push(
    injects
      ? "tests reached only through reflection, strings, dependency injection, or a fixture whose value " +
          "the code does not type (`request.param`, an unannotated call) are not seen"
      : "tests reached only through dependency injection, reflection or strings are not seen",
  );
  return completeness;
}

/** Finds the tests of `seeds` (a symbol with its members, or a file's definitions). */
export async function findTests(
  graph: CodeGraph,
  target: { symbol?: SymbolNode; file?: string },
  args: ListArgs & { depth: number },
  io: TestsIO,
): Promise<TestsAnswer> {
  const { seeds, files } = seedsOf(graph, target);
  const hits = new Map<string, TestHit>();
  callerTests(graph, seeds, args.depth, hits);
  if (io.routes) requestTests(graph, seeds, io.routes(), hits);
  const notes = await mentionTests(graph, target, seeds, files, hits, io);
  const all = [...hits.values()].sort(
    (a, b) =>
      rank(a) - rank(b) ||
      a.depth - b.depth ||
      b.confidence - a.confidence ||
      (a.path < b.path ? -1 : a.path > b.path ? 1 : a.start - b.start),
  );
  const runners = await runnerIndex(graph, io);
  for (const h of all) {
    const r = runners.of(h.path);
    if (r) h.runner = r.runner.id;
  }
  const byEvidence = { call: 0, mention: 0, import: 0 };
  for (const h of all) byEvidence[h.evidence]++;
  const deeper = all.length === 0 ? deeperTests(graph, seeds, args.depth) : undefined;
  const found: FoundTests = {
    target,
    ...(deeper ? { deeper } : {}),
    all,
    byEvidence,
    runners,
    completeness: testsCompleteness(graph, target, all, runners, notes),
    runAll:
      all.length > 0
        ? plans(
            runners,
            all.map((h) => ({ ...h, id: fileId(graph, h.path), file: true })),
          )
        : [],
  };
  const rest = all.slice(args.offset);
  return fitPage(Math.min(args.limit, rest.length), (k) => testsPage(graph, found, args, k), args);
}

/**
 * For a walk of `depth` hops that found no test: the fewest hops (up to LIMITS.depth.max) at which
 * callers reach a test, and the tests found there; undefined when none does at any depth.
 */
function deeperTests(graph: CodeGraph, seeds: number[], depth: number): TestsAnswer["deeper"] {
  if (depth >= LIMITS.depth.max) return undefined;
  const hits = new Map<string, TestHit>();
  callerTests(graph, seeds, LIMITS.depth.max, hits);
  if (!hits.size) return undefined;
  const at = Math.min(...[...hits.values()].map((h) => h.depth));
  return { depth: at, tests: [...hits.values()].filter((h) => h.depth <= at).length };
}

/** Every test found for a target, before paging. */
interface FoundTests {
  target: { symbol?: SymbolNode; file?: string };
  deeper?: TestsAnswer["deeper"];
  /** In answer order: strongest evidence, fewest hops, highest confidence, then by place. */
  all: TestHit[];
  byEvidence: Record<TestEvidence, number>;
  runners: RunnerIndex;
  completeness: Completeness;
  /** Commands that run the files of every test found. */
  runAll: RunPlan[];
}

/** The page of `k` tests from the cursor's offset, rendered with its run commands and usage line. */
function testsPage(graph: CodeGraph, found: FoundTests, args: ListArgs & { depth: number }, k: number): TestsAnswer {
  const { target, all, byEvidence, runners, completeness, runAll, deeper } = found;
  const shown = all.slice(args.offset).slice(0, k);
  const page = pageInfo(args, all.length, shown.length, args.depth);
  const run = plans(runners, shown);
  const wholeFiles =
    page.next && runAll.reduce((n, p) => n + p.commands.join(" ").length, 0) < 2_000 ? runAll : undefined;
  const head = target.symbol
    ? `${target.symbol.qualified} (${target.symbol.kind}, ${cite(target.symbol.file, target.symbol.start)})`
    : target.file!;
  const render = (usage: string) => {
    const lines = [`# Tests of ${head}`];
    const parts = [
      byEvidence.call && `${plural(byEvidence.call, "calls", "call")} it`,
      byEvidence.mention && `${plural(byEvidence.mention, "names", "name")} it`,
      byEvidence.import && `${plural(byEvidence.import, "file imports", "files import")} its file`,
    ].filter(Boolean);
    lines.push(
      all.length
        ? `${plural(all.length, "test reaches", "tests reach")} it (calls followed up to depth ${args.depth}): ` +
            `${parts.join(", ")}.`
        : `No test found within depth ${args.depth} (callers followed through helpers; test files importing its ` +
            `file read for its name).` +
            (deeper
              ? ` ${plural(deeper.tests, "test reaches", "tests reach")} it within depth ${deeper.depth}: ask again ` +
                `with depth=${deeper.depth}.`
              : ""),
    );
    if (all.length && args.offset >= all.length) lines.push(pastTheEnd(args.offset, all.length));
    else if (shown.length)
      lines.push(`Listed: ${fmt(args.offset + 1)}-${fmt(args.offset + shown.length)} of ${fmt(all.length)}.`);
    for (const p of run) {
      lines.push(
        "",
        `## ${p.name}: ${plural(p.tests, "test")}${p.cwd ? `, run in ${p.cwd}/` : ""} ` +
          `(${p.detectedBy ? `found by ${p.detectedBy}` : "assumed"})`,
        ...p.commands.map((c) => `    ${c}`),
      );
    }
    if (shown.length) lines.push("");
    for (const h of shown)
      lines.push(
        `- ${h.id}${h.file ? " (whole file)" : h.group ? " (group)" : ""}` +
          `${h.parametrized ? " (parametrized)" : ""}  ${cite(h.path, h.start, h.end)}  [${why(h)}]`,
      );
    if (page.next)
      lines.push(
        "",
        `Next page: ask again with cursor=${page.next} ` +
          `(${plural(all.length - args.offset - shown.length, "more test")}).`,
      );
    if (wholeFiles) {
      lines.push("", "Every test found, by whole files:");
      for (const p of wholeFiles) lines.push(...p.commands.map((c) => `    ${p.cwd ? `(in ${p.cwd}/) ` : ""}${c}`));
    }
    lines.push("", ...completenessLines(completeness, all.length === 0, "every call is linked"));
    lines.push("", usage);
    return lines.join("\n");
  };
  const { text, tokens } = withUsage(render, args);
  return {
    target: target.symbol ? target.symbol.qualified : target.file!,
    resolvedAs: target.symbol ? "symbol" : "file",
    ...(target.symbol ? { symbol: symbolRef(target.symbol) } : { path: target.file! }),
    depth: args.depth,
    tests: shown,
    total: all.length,
    byEvidence,
    run,
    ...(wholeFiles ? { runAll: wholeFiles } : {}),
    page,
    completeness,
    ...(deeper ? { deeper } : {}),
    usage: { tokens, budget: args.budget, encoding: args.encoding },
    text,
  };
}

function why(h: TestHit): string {
  const at = cite(h.site.path, h.site.line);
  if (h.evidence === "call")
    return h.through.length
      ? `calls it through ${h.through.join(" → ")} (${h.depth} hop${h.depth === 1 ? "" : "s"}), at ${at}`
      : `calls it at ${at}`;
  if (h.evidence === "mention") return `names it at ${at}; the call is not resolved`;
  return `imports its file at ${at}; no test in it names it`;
}

/** False for a language whose calls the index does not extract: its tests are found by name. */
const fullDepth = (language: string) => languageById(language)?.fullDepth !== false;

/** The names a test would write to use the seeds: the symbol's own name, or a file's top-level names. */
function nameSet(graph: CodeGraph, seeds: number[], symbol: SymbolNode | undefined): string[] {
  if (symbol) return symbol.kind === "module" ? [] : [symbol.name];
  const names = seeds
    .map((id) => graph.symbols[id]!)
    .filter((s) => s.kind !== "module" && graph.symbols[s.parent]?.kind === "module")
    .map((s) => s.name);
  return [...new Set(names)].filter((n) => n.length > 2).slice(0, 50);
}

/** Lines that name a member by call (`.name(`, `::name(`), or anything else by the whole word. */
function mentionPattern(graph: CodeGraph, names: string[], symbol: SymbolNode | undefined): RegExp {
  const esc = names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const member = symbol && graph.symbols[symbol.parent]?.kind !== "module" && symbol.kind !== "class";
  return member
    ? new RegExp(`(\\.|::|->)(${esc.join("|")})\\s*\\(`)
    : new RegExp(`(?<![\\w$])(${esc.join("|")})(?![\\w$])`);
}

/** The runner of each test file. */
interface RunnerIndex {
  of(path: string): RunnerChoice | undefined;
}

interface RunnerChoice {
  runner: TestRunner;
  cwd: string;
  detectedBy?: string;
}

/** Which runner runs each test file: the nearest folder (from the file up) with a file that names one. */
async function runnerIndex(graph: CodeGraph, io: TestsIO): Promise<RunnerIndex> {
  const byFolder = new Map<string, string[]>();
  for (const p of io.paths()) {
    const i = p.lastIndexOf("/");
    const folder = i < 0 ? "" : p.slice(0, i);
    (byFolder.get(folder) ?? byFolder.set(folder, []).get(folder)!).push(p);
  }
  const texts = new Map<string, string | undefined>();
  const memo = new Map<string, RunnerChoice | undefined>();
  // Contents are read up front for the files a rule wants text of, so `of` stays synchronous.
  const wanted = new Set<string>();
  for (const conv of new Set([...graph.records.values()].map((r) => conventionsOf(r.language)))) {
    for (const runner of conv?.runners ?? []) {
      for (const rule of runner.detect) {
        if (!rule.contains) continue;
        for (const list of byFolder.values()) for (const p of list) if (rule.file.test(p)) wanted.add(p);
      }
    }
  }
  for (const p of [...wanted].slice(0, 500)) texts.set(p, await io.readText(p));
  const choose = (language: string, folder: string): RunnerChoice | undefined => {
    const conv = conventionsOf(language);
    if (!conv?.runners.length) return undefined;
    const key = `${language}\0${folder}`;
    if (memo.has(key)) return memo.get(key);
    let found: RunnerChoice | undefined;
    const here = byFolder.get(folder) ?? [];
    // A runner's own config file (`.mocharc.yml`) before a file that only mentions one: mocha's package.json names
    // "jest" among its keywords, and Jest, listed first, took its tests.
    for (const byConfig of [true, false]) {
      for (const runner of conv.runners) {
        const hit = here.find((p) =>
          runner.detect.some(
            (rule) =>
              rule.file.test(p) && (rule.contains ? !byConfig && rule.contains.test(texts.get(p) ?? "") : byConfig),
          ),
        );
        if (hit) {
          found = { runner, cwd: folder, detectedBy: hit };
          break;
        }
      }
      if (found) break;
    }
    if (!found)
      found =
        folder === ""
          ? { runner: conv.runners[0]!, cwd: "" }
          : choose(language, folder.includes("/") ? folder.slice(0, folder.lastIndexOf("/")) : "");
    memo.set(key, found);
    return found;
  };
  return {
    of(path) {
      const record = graph.records.get(path);
      if (!record) return undefined;
      const i = path.lastIndexOf("/");
      return choose(record.language, i < 0 ? "" : path.slice(0, i));
    },
  };
}

/** Command lines per runner and folder for `hits`. */
function plans(runners: { of(path: string): RunnerChoice | undefined }, hits: readonly TestHit[]): RunPlan[] {
  const groups = new Map<string, { choice: RunnerChoice; tests: TestToRun[]; count: number }>();
  for (const h of hits) {
    const choice = runners.of(h.path);
    if (!choice) continue;
    const key = `${choice.runner.id}\0${choice.cwd}`;
    const g = groups.get(key) ?? groups.set(key, { choice, tests: [], count: 0 }).get(key)!;
    g.count++;
    const path = choice.cwd ? h.path.slice(choice.cwd.length + 1) : h.path;
    // Ids that carry a root-relative path (a pytest node id) are made relative to the runner's folder too.
    const id = choice.cwd && h.id.startsWith(`${choice.cwd}/`) ? h.id.slice(choice.cwd.length + 1) : h.id;
    g.tests.push({
      path,
      id: h.file && h.id === h.path ? path : id,
      ...(h.file ? { file: true } : {}),
      ...(h.group ? { group: true } : {}),
    });
  }
  return [...groups.values()].map(({ choice, tests, count }) => ({
    runner: choice.runner.id,
    name: choice.runner.name,
    cwd: choice.cwd,
    ...(choice.detectedBy ? { detectedBy: choice.detectedBy } : {}),
    tests: count,
    commands: choice.runner.commands(dedupe(tests)),
  }));
}

function dedupe(tests: TestToRun[]): TestToRun[] {
  const seen = new Set<string>();
  return tests.filter((t) => {
    const k = `${t.path}\0${t.id}\0${t.file ? 1 : 0}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** The id that runs every test of a file, per its language (default: the path). */
function fileId(graph: CodeGraph, path: string): string {
  const record = graph.records.get(path)!;
  const top = record.definitions
    .filter((d) => d.parent < 0)
    .map((d) => ({ name: d.name, kind: d.kind, start: d.start, end: d.end }));
  return conventionsOf(record.language)?.fileId?.(path, top) ?? path;
}

/** Validates the depth of a tests walk. */
export function testsDepth(depth: number | undefined): number {
  const d = depth ?? 2;
  if (!Number.isInteger(d) || d < 1 || d > LIMITS.depth.max) {
    throw new EngineError(
      "invalid_argument",
      `depth must be a whole number from 1 to ${LIMITS.depth.max}, got ${String(depth)}.`,
      { data: { depth } },
    );
  }
  return d;
}
