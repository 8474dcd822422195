/**
 * `impact`: the blast radius of a symbol, a file or lines of a file. Callers (up) and callees
 * (down) are walked breadth-first from every symbol the target names, each symbol reached kept
 * once at its smallest depth with the edge that reached it (resolution, confidence, and the
 * product of the confidences along its path); then the routes whose handlers are reached, the
 * tests reached (by calls, or by importing a target file), and a risk summary: production callers,
 * the directories they sit in, the deepest path. One page at a time within a budget, like callers.
 */
import { reachIsHigh, reachIsMedium, reachOf, type Reach } from "./reach.ts";
import { cite } from "../../shared/paths.ts";
import { EngineError } from "../../shared/errors.ts";
import { findFile, parseLocation } from "../../shared/locations.ts";
import { isTestPath, isTestSite, testAt } from "../graph/test-code.ts";
import { LIMITS } from "../limits.ts";
import type { Route } from "./routes.ts";
import { type ClientCall, closestRoutes, ROUTE, routeClients, routesNamed, routeSymbols } from "./route-calls.ts";
import { callsCompleteness, type Completeness } from "./completeness.ts";
import { findSymbol, symbolRef, type SymbolRef } from "./lookup.ts";
import type { CodeGraph, Resolution, SymbolNode } from "../graph/model.ts";
import {
  completenessLines,
  filterTests,
  fitPage,
  fmt,
  pageInfo,
  pagingLines,
  pastTheEnd,
  plural,
  summarizeByFile,
  withUsage,
  type ListArgs,
  type PageInfo,
  type TestCodeSummary,
  type Usage,
} from "./pages.ts";
import { defined } from "../../shared/defined.ts";
import { quoted } from "../../shared/quote.ts";

/** Which way an impact walk goes: up to callers, down to callees, or both. */
export type ImpactDirection = "up" | "down" | "both";
export const IMPACT_DIRECTIONS: readonly ImpactDirection[] = ["up", "down", "both"];
/** Default hops: three levels of callers hold most of what a change breaks and the tests that see it. */
export const IMPACT_DEFAULT_DEPTH = 3;
/** Directories, tests and routes the summary names before "…". */
const SUMMARY_SHOWN = 8;

/** One symbol the walk reached. */
export interface ImpactEntry extends SymbolRef {
  end: number;
  /** up: it calls toward the target; down: the target calls toward it. */
  direction: "up" | "down";
  /** Hops from the nearest target symbol (1 = direct). */
  depth: number;
  /** The call site of the hop that reached it. */
  site: { path: string; line: number };
  via: "call" | "constructor" | "super";
  /** How that hop's call was resolved (`via-base`: through a base method to its override). */
  resolution: Resolution;
  /** Confidence of that hop. */
  confidence: number;
  /** Product of the confidences along its path from the target. */
  pathConfidence: number;
  /** In test code. */
  inTest: boolean;
  /** For test code: the test's runnable id in its runner's syntax. */
  test?: string;
}

/** A test the target reaches: by calls (up), or a test file importing a target file. */
export interface ImpactTest {
  path: string;
  line: number;
  /** The runnable id, when the test's language knows its runner. */
  id?: string;
  qualified: string;
  depth: number;
  /** request: a test that sends an HTTP request to the route an impact is about. */
  via: "call" | "import" | "request";
}

/** A route whose handler is a target symbol or one of its callers. */
export interface ImpactRoute {
  method: string;
  path: string;
  file: string;
  line: number;
  handler?: string;
  /** Hops from the handler to the target (0: the handler is the target). */
  depth: number;
}

/** A client call that reaches the route an impact is about, or a caller of the function holding one. */
export interface ImpactConsumer {
  path: string;
  line: number;
  /** The function the call is in (its name in the file), or the file for module-level code. */
  caller: string;
  /** The HTTP call itself (`call`), or a function that calls a consumer (`caller`, hops from the call). */
  via: "call" | "caller";
  depth: number;
  method?: string;
  url?: string;
  test: boolean;
}

/** How much could break, in numbers. */
export interface ImpactRisk {
  /**
   * low: a few production callers, no route; high: many callers, routes across several directories, or half the tests
   * or routes reaching it.
   */
  level: "low" | "medium" | "high";
  productionCallers: number;
  directCallers: number;
  /** Directories holding production callers (the nearest thing to packages the graph knows), most callers first. */
  directories: { path: string; count: number }[];
  directoryCount: number;
  routes: number;
  tests: number;
  /** Tests and routes whose calls lead to the target at any depth (up to LIMITS.depth.max), of all of them. */
  reach: Reach;
  /** The longest caller chain found, target last (qualified names). */
  deepest: { depth: number; path: string[] };
}

/** The answer to impact: one page of entries plus the whole walk's summary. */
export interface ImpactAnswer {
  target: string;
  resolvedAs: "symbol" | "file" | "lines" | "route";
  /** The symbols the target names (the first 8; `total.targets` counts them all). */
  targets: SymbolRef[];
  direction: ImpactDirection;
  depth: number;
  /** This page's entries. */
  entries: ImpactEntry[];
  total: { targets: number; up: number; down: number; tests: number; routes: number };
  byDepth: { direction: "up" | "down"; depth: number; production: number; test: number }[];
  /** The first 8 routes reached (`total.routes` counts them all). */
  routes: ImpactRoute[];
  /**
   * The first 8 tests reached, nearest first (`total.tests` counts them all; tests=only pages through every test-code
   * entry).
   */
  tests: ImpactTest[];
  risk: ImpactRisk;
  /**
   * For a route target (`METHOD /path`), the route impact: the client calls that reach it (the
   * route map's consumers), production first, each with the function it is in, and the production
   * callers of those functions within the walk's depth.
   */
  consumers?: ImpactConsumer[];
  testCode: TestCodeSummary;
  page: PageInfo;
  completeness: Completeness;
  usage: Usage;
  notes: string[];
  text: string;
}

/** What the walk reads besides the graph: the routes. */
export interface ImpactIO {
  root?: string;
  routes(): Route[];
}

/** Validates the direction. */
export function checkDirection(direction: string | undefined): ImpactDirection {
  const d = direction ?? "up";
  if (!IMPACT_DIRECTIONS.includes(d as ImpactDirection)) {
    throw new EngineError(
      "invalid_argument",
      `direction must be one of ${IMPACT_DIRECTIONS.join(", ")}, got ${quoted(direction)}.`,
      { data: { direction, key: "direction" } },
    );
  }
  return d as ImpactDirection;
}

/** Validates the depth (default 3, from 1 to LIMITS.depth.max). */
export function checkImpactDepth(depth: number | undefined): number {
  const d = depth ?? IMPACT_DEFAULT_DEPTH;
  if (!Number.isInteger(d) || d < LIMITS.depth.min || d > LIMITS.depth.max) {
    throw new EngineError(
      "invalid_argument",
      `depth must be a whole number from ${LIMITS.depth.min} to ${LIMITS.depth.max}, got ${String(depth)}.`,
      {
        hint:
          `${IMPACT_DEFAULT_DEPTH} hops hold most of what a change reaches; the deepest levels are mostly ` +
          `test code.`,
        data: { depth, min: LIMITS.depth.min, max: LIMITS.depth.max },
      },
    );
  }
  return d;
}

/** The symbols a target names: a symbol, a file (all it defines), or lines of a file (the definitions they touch). */
export function impactTargets(
  graph: CodeGraph,
  target: string,
  root?: string,
  routes?: Route[],
): { ids: number[]; how: ImpactAnswer["resolvedAs"]; files: string[]; routes?: Route[] } {
  const t = target.trim();
  if (t === "")
    throw new EngineError("invalid_argument", "The target is empty.", {
      hint: "Pass a symbol, a file path, `METHOD /path`, or path:start-end.",
      data: { key: "target" },
    });
  if (t.length > LIMITS.targetChars)
    throw new EngineError(
      "invalid_argument",
      `The target is ${fmt(t.length)} characters; the limit is ${fmt(LIMITS.targetChars)}.`,
      { data: { length: t.length, max: LIMITS.targetChars } },
    );
  const route = routes ? ROUTE.exec(t) : null;
  if (route) {
    const hits = closestRoutes(routesNamed(routes!, route[1]!, route[2]!, t), route[2]!);
    return { ids: routeSymbols(graph, hits), how: "route", files: [], routes: hits };
  }
  const files = { has: (p: string) => graph.moduleSymbol.has(p), paths: () => graph.moduleSymbol.keys() };
  const fileSymbols = (path: string) => {
    const moduleId = graph.moduleSymbol.get(path)!;
    const n = graph.records.get(path)?.definitions.length ?? 0;
    return Array.from({ length: n + 1 }, (_, i) => moduleId + i);
  };
  const location = parseLocation(t);
  if (location && location.symbol === undefined) {
    const found = findFile(files, location.path, root, { quoted: location.quoted });
    if (found && location.start !== undefined) {
      const total = graph.records.get(found.path)?.lines;
      const { start, end } = { start: location.start, end: location.end ?? location.start };
      if (start < 1 || (total !== undefined && start > total)) {
        throw new EngineError(
          "invalid_argument",
          `${found.path} has ${total ?? "?"} lines; ${start} is not one of them.`,
          { data: { path: found.path, start, end, ...defined({ totalLines: total }) } },
        );
      }
      // Lines name every definition they touch (innermost ones), else the module code around them.
      const touched = fileSymbols(found.path).filter((id) => {
        const s = graph.symbols[id]!;
        return s.kind !== "module" && s.start <= end && s.end >= start;
      });
      const innermost = touched.filter((id) => !touched.some((o) => o !== id && graph.symbols[o]!.parent === id));
      return {
        ids: innermost.length ? innermost : [graph.moduleSymbol.get(found.path)!],
        how: "lines",
        files: [found.path],
      };
    }
    if (found) return { ids: fileSymbols(found.path), how: "file", files: [found.path] };
  }
  const looksLikePath =
    !t.includes("::") &&
    !/\s/.test(t) &&
    (t.includes("/") || (/\.[a-z]{1,5}$/i.test(t) && graph.byQualified.get(t) === undefined));
  if (looksLikePath) {
    const found = findFile(files, t, root, { bySuffix: false });
    if (found) return { ids: fileSymbols(found.path), how: "file", files: [found.path] };
  }
  return { ids: [findSymbol(graph, t).id], how: "symbol", files: [] };
}

interface Reached {
  id: number;
  direction: "up" | "down";
  depth: number;
  edge: number;
  /** The symbol one hop nearer the target. */
  from: number;
  pathConfidence: number;
}

/** Breadth-first from `roots` along callers (up) or callees (down). */
function walk(graph: CodeGraph, roots: number[], direction: "up" | "down", depth: number): Map<number, Reached> {
  const adjacency = direction === "up" ? graph.callsTo : graph.callsFrom;
  const rootSet = new Set(roots);
  const reached = new Map<number, Reached>();
  const conf = new Map<number, number>(roots.map((r) => [r, 1]));
  let frontier = [...roots];
  for (let d = 1; d <= depth && frontier.length; d++) {
    const next: number[] = [];
    for (const id of frontier) {
      for (const ei of adjacency.get(id) ?? []) {
        const e = graph.calls[ei]!;
        const other = direction === "up" ? e.caller : e.callee;
        if (rootSet.has(other) || reached.has(other)) continue;
        const pathConfidence = conf.get(id)! * e.confidence;
        reached.set(other, { id: other, direction, depth: d, edge: ei, from: id, pathConfidence });
        conf.set(other, pathConfidence);
        // A class-body call's caller is the class, but calling the class does not run its body.
        if (!(direction === "up" && e.classBody)) next.push(other);
      }
    }
    frontier = next;
  }
  return reached;
}

/** The impact answer's notes and listed entries, grouped by direction and depth. */
function impactListLines(
  a: ListArgs,
  all: ImpactEntry[],
  kept: ImpactEntry[],
  shown: ImpactEntry[],
  notes: string[],
  hasConsumers: boolean,
): string[] {
  const lines: string[] = [];
  for (const n of notes) lines.push(`Note: ${n}`);
  const filter =
    a.tests === "only"
      ? "test code only"
      : a.tests === "include"
        ? "production code first, then test code"
        : "production code";
  if (kept.length === 0)
    lines.push(
      all.length === 0
        ? hasConsumers
          ? "No code calls the handler directly: its callers are the consumers above."
          : "None found among resolved calls."
        : `None in ${filter}.`,
    );
  else if (a.offset >= kept.length) lines.push(pastTheEnd(a.offset, kept.length));
  else lines.push(`Listed (${filter}): ${fmt(a.offset + 1)}-${fmt(a.offset + shown.length)} of ${fmt(kept.length)}.`);
  let group = "";
  for (const e of shown) {
    const g = `${e.direction}.${e.depth}`;
    if (g !== group) {
      group = g;
      lines.push("", `## ${e.direction === "up" ? "Callers" : "Callees"} at depth ${e.depth}`);
    }
    const who =
      e.kind === "module" ? `module code of ${e.path}` : `${e.qualified} (${e.kind}, ${cite(e.path, e.line)})`;
    lines.push(
      `- ${who} ${e.direction === "up" ? "calls at" : "called at"} ${cite(e.site.path, e.site.line)} ` +
        (`[${e.resolution}, ` +
          (`${e.confidence.toFixed(2)}${e.depth > 1 ? `; path ${e.pathConfidence.toFixed(2)}` : ""}]` +
            `${e.test ? ` test: ${e.test}` : ""}`)),
    );
  }
  return lines;
}

/** The impact answer's summary: risk, what is reached by depth, routes, consumers and tests. */
function impactSummaryLines(s: {
  direction: ImpactDirection;
  directories: ReturnType<typeof impactRisk>["directories"];
  dirCount: number;
  risk: ImpactAnswer["risk"];
  directCallers: number;
  chain: string[];
  routes: ImpactAnswer["routes"];
  tests: ImpactAnswer["tests"];
  total: ImpactAnswer["total"];
  byDepth: ImpactAnswer["byDepth"];
  consumers: ImpactAnswer["consumers"];
}): string[] {
  const { direction, directories, dirCount, risk, directCallers, chain, routes, tests, total, byDepth, consumers } = s;
  const lines: string[] = [];
  if (direction !== "down") {
    const dirs = directories
      .slice(0, SUMMARY_SHOWN)
      .map((d) => `${d.path} (${fmt(d.count)})`)
      .join(", ");
    lines.push(
      `Risk: ${risk.level} — ${plural(risk.productionCallers, "production caller")} (${fmt(directCallers)} ` +
        "direct)" +
        (dirCount
          ? ` in ${plural(dirCount, "directory", "directories")}: ${dirs}${dirCount > SUMMARY_SHOWN ? ", …" : ""}`
          : "") +
        `; ${plural(routes.length, "route")}; ${plural(tests.length, "test")}${reachText(risk.reach)}` +
        (risk.deepest.depth ? `; deepest path ${plural(risk.deepest.depth, "hop")}: ${chain.join(" → ")}` : "") +
        ".",
    );
  }
  const reachedTotals = [
    direction !== "down" && plural(total.up, "caller"),
    direction !== "up" && plural(total.down, "callee"),
  ]
    .filter(Boolean)
    .join(", ");
  const reachedByDepth = byDepth
    .map(
      (r) =>
        `${r.direction === "up" ? "callers" : "callees"} at depth ${r.depth}: ${fmt(r.production)}` +
        (r.test ? ` + ${fmt(r.test)} in tests` : ""),
    )
    .join("; ");
  lines.push(`Reached: ${reachedTotals} — ${reachedByDepth || "none"}.`);
  if (routes.length)
    lines.push(
      `Routes: ${routes
        .slice(0, SUMMARY_SHOWN)
        .map(
          (r) =>
            `${r.method} ${r.path} (${cite(r.file, r.line)}` +
            (r.depth ? `, ${plural(r.depth, "hop")})` : ", handler)"),
        )
        .join("; ")}${routes.length > SUMMARY_SHOWN ? `; … and ${fmt(routes.length - SUMMARY_SHOWN)} more` : ""}.`,
    );
  if (consumers) lines.push(consumersLine(consumers));
  if (tests.length)
    lines.push(
      `Tests reached: ${tests
        .slice(0, SUMMARY_SHOWN)
        .map((t) => t.id ?? (t.via === "import" ? `${t.path} (imports it)` : cite(t.path, t.line)))
        .join("; ")}${tests.length > SUMMARY_SHOWN ? `; … and ${fmt(tests.length - SUMMARY_SHOWN)} more` : ""}.`,
    );
  return lines;
}

/** How the impact answer names its target: the symbol, the file's symbols, or the route and its handlers. */
function targetLineOf(
  targets: SymbolNode[],
  files: string[],
  named: ReturnType<typeof impactTargets>["routes"],
): string {
  const handlers =
    targets.length === 1
      ? `${targets[0]!.qualified} (${targets[0]!.kind}, ` +
        `${cite(targets[0]!.file, targets[0]!.kind === "module" ? 1 : targets[0]!.start)})`
      : `${plural(targets.length, "symbol")}${files.length ? ` of ${files.join(", ")}` : ""}: ${targets
          .filter((s) => s.kind !== "module")
          .slice(0, 5)
          .map((s) => s.qualified)
          .join(", ")}${targets.length > 6 ? ", …" : ""}`;
  return named
    ? `route ${[...new Set(named.map((r) => `${r.method} ${r.path}`))].join(", ")}, handled by ${handlers}`
    : handlers;
}

/** The impact of `target`, one page within the budget of `a`. */
export function impact(
  graph: CodeGraph,
  target: string,
  direction: ImpactDirection,
  depth: number,
  a: ListArgs,
  io: ImpactIO,
): ImpactAnswer {
  const { ids, how, files, routes: named } = impactTargets(graph, target, io.root, io.routes());
  const targets = ids.map((id) => graph.symbols[id]!);
  const up = direction === "down" ? new Map<number, Reached>() : walk(graph, ids, "up", depth);
  const down = direction === "up" ? new Map<number, Reached>() : walk(graph, ids, "down", depth);
  const sym = (id: number) => graph.symbols[id]!;

  const entryOf = (r: Reached): ImpactEntry => {
    const s = sym(r.id);
    const e = graph.calls[r.edge]!;
    const inTest = r.direction === "up" ? isTestSite(graph, e.file, e.line, r.id) : isTestPath(s.file, s.language);
    const test = inTest
      ? testAt(graph, s.file, s.kind === "module" ? e.line : s.start, s.kind === "module" ? undefined : s.index)?.id
      : undefined;
    return {
      ...symbolRef(s),
      end: s.end,
      direction: r.direction,
      depth: r.depth,
      site: { path: e.file, line: e.line },
      via: e.via,
      resolution: e.resolution,
      confidence: e.confidence,
      pathConfidence: Math.round(r.pathConfidence * 1000) / 1000,
      inTest,
      ...(test ? { test } : {}),
    };
  };
  const order = (x: ImpactEntry, y: ImpactEntry) =>
    (x.direction === y.direction ? 0 : x.direction === "up" ? -1 : 1) ||
    x.depth - y.depth ||
    y.pathConfidence - x.pathConfidence ||
    (x.path < y.path ? -1 : x.path > y.path ? 1 : x.line - y.line);
  const entryById = new Map<string, ImpactEntry>();
  const all = [...up.values(), ...down.values()]
    .map((r) => {
      const e = entryOf(r);
      entryById.set(`${r.direction}.${r.id}`, e);
      return e;
    })
    .sort(order);

  const tests = impactTests(graph, all, files, direction);

  const routes = impactRoutes(graph, ids, targets, up, io);
  const consumers = named ? routeConsumers(graph, io.routes(), named, depth) : undefined;
  for (const c of consumers ?? []) {
    if (!c.test || c.via !== "call") continue;
    const t = testAt(graph, c.path, c.line);
    if (t && !tests.some((x) => x.id === t.id))
      tests.push({ path: c.path, line: c.line, id: t.id, qualified: c.caller, depth: 1, via: "request" });
  }

  const reach = reachOf(graph, ids, io.routes());
  const { risk, directories, dirCount, chain, directCallers } = impactRisk(
    graph,
    all,
    up,
    entryById,
    routes.length,
    tests.length,
    reach,
  );

  const byDepthMap = new Map<string, ImpactAnswer["byDepth"][number]>();
  for (const e of all) {
    const key = `${e.direction}.${e.depth}`;
    const row =
      byDepthMap.get(key) ??
      byDepthMap.set(key, { direction: e.direction, depth: e.depth, production: 0, test: 0 }).get(key)!;
    if (e.inTest) row.test++;
    else row.production++;
  }
  const byDepth = [...byDepthMap.values()];

  // What the walk could not see, for a single symbol target (a file's is the union of many).
  const completeness: Completeness =
    targets.length === 1 && targets[0]!.kind !== "module"
      ? mergeCompleteness(direction, graph, targets[0]!)
      : {
          notes: [
            `the walk starts from ${plural(targets.length, "symbol")}; ask for one of them for what its callers ` +
              `could not show (unlinked call sites, dynamic dispatch)`,
          ],
        };

  const notes: string[] = [];
  if (how === "lines" && targets.length === 1 && targets[0]!.kind === "module")
    notes.push(`the lines are module-level code of ${targets[0]!.file}: its callers are the files that run it`);
  const { kept, tests: testEntries } = filterTests(all, (e) => e.inTest, a.tests);
  const testCode = summarizeByFile(testEntries.map((e) => e.path));
  const rest = kept.slice(a.offset);
  const total = { targets: targets.length, up: up.size, down: down.size, tests: tests.length, routes: routes.length };
  const targetLine = targetLineOf(targets, files, named);

  const make = (k: number): ImpactAnswer => {
    const shown = rest.slice(0, k);
    const page = pageInfo(a, kept.length, shown.length, depth, direction);
    const render = (usage: string) => {
      const lines = [
        `# Impact of ${targetLine}, ` +
          (`${direction === "both" ? "callers and callees" : direction === "up" ? "callers" : "callees"} to ` +
            `depth ${depth}`),
      ];
      lines.push(
        ...impactSummaryLines({
          direction,
          directories,
          dirCount,
          risk,
          directCallers,
          chain,
          routes,
          tests,
          total,
          byDepth,
          consumers,
        }),
      );
      lines.push(...impactListLines(a, all, kept, shown, notes, consumers !== undefined && consumers.length > 0));
      const paging = pagingLines(page, "entries", { testCode, testWhat: (n) => plural(n, "entry", "entries") });
      if (paging.length) lines.push("", ...paging);
      lines.push("", ...completenessLines(completeness, kept.length === 0, "every call naming it is linked"));
      lines.push("", usage);
      return lines.join("\n");
    };
    const { text, tokens } = withUsage(render, a);
    return {
      target,
      resolvedAs: how,
      targets: targets.slice(0, SUMMARY_SHOWN).map(symbolRef),
      direction,
      depth,
      entries: shown,
      total,
      byDepth,
      routes: routes.slice(0, SUMMARY_SHOWN),
      tests: tests.slice(0, SUMMARY_SHOWN),
      risk,
      ...(consumers ? { consumers: consumers.slice(0, CONSUMERS_LISTED) } : {}),
      testCode,
      page,
      completeness,
      usage: { tokens, budget: a.budget, encoding: a.encoding },
      notes,
      text,
    };
  };
  return fitPage(Math.min(a.limit, rest.length), make, a);
}

/**
 * The tests an impact reaches: test code among the callers, then (upwards) test files importing a
 * target file (fixtures, parametrized cases and calls through untyped receivers link no call to it).
 */
function impactTests(graph: CodeGraph, all: ImpactEntry[], files: string[], direction: ImpactDirection): ImpactTest[] {
  const tests: ImpactTest[] = [];
  const seenTests = new Set<string>();
  for (const e of all) {
    // A helper in test code is no test: the tests that call it are further up the walk.
    if (e.direction !== "up" || !e.inTest || e.test === undefined) continue;
    const key = e.test;
    if (seenTests.has(key)) continue;
    seenTests.add(key);
    tests.push({
      path: e.path,
      line: e.line,
      ...(e.test ? { id: e.test } : {}),
      qualified: e.qualified,
      depth: e.depth,
      via: "call",
    });
  }
  if (direction !== "down") {
    const testFilesByCall = new Set(tests.map((t) => t.path));
    for (const f of files) {
      for (const imp of graph.importedBy.get(f) ?? []) {
        const language = graph.records.get(imp)?.language;
        if (!isTestPath(imp, language) || testFilesByCall.has(imp)) continue;
        testFilesByCall.add(imp);
        const line = graph.imports.find((x) => x.from === imp && x.to === f)?.line ?? 1;
        tests.push({ path: imp, line, qualified: imp, depth: 1, via: "import" });
      }
    }
  }
  return tests;
}

/** Routes whose handler is a target or reached upwards, nearest first. */
function impactRoutes(
  graph: CodeGraph,
  ids: number[],
  targets: SymbolNode[],
  up: Map<number, Reached>,
  io: ImpactIO,
): ImpactRoute[] {
  const sym = (id: number) => graph.symbols[id]!;
  const routes: ImpactRoute[] = [];
  const targetSet = new Set(ids);
  for (const r of io.routes()) {
    let d: number | undefined;
    if (r.handler !== undefined && targetSet.has(r.handler)) d = 0;
    else if (r.handler !== undefined && up.has(r.handler)) d = up.get(r.handler)!.depth;
    else if (
      r.handler === undefined &&
      targets.some((s) => s.file === r.file && s.kind !== "module" && s.start <= r.span.end && s.end >= r.span.start)
    )
      d = 0;
    if (d === undefined) continue;
    routes.push({
      method: r.method,
      path: r.path,
      file: r.file,
      line: r.line,
      ...(r.handler !== undefined ? { handler: sym(r.handler).qualified } : {}),
      depth: d,
    });
  }
  routes.sort((x, y) => x.depth - y.depth || (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
  return routes;
}

/** Consumers the answer lists in its structured part (the text names the first SUMMARY_SHOWN of each kind). */
const CONSUMERS_LISTED = 20;

/**
 * The route impact's consumers: the client calls that reach the routes (production first, then
 * tests), and the production functions that call the functions holding them, up to `depth - 1`
 * hops: the frontend code a changed handler reaches.
 */
function routeConsumers(graph: CodeGraph, all: Route[], named: Route[], depth: number): ImpactConsumer[] {
  const calls: ClientCall[] = [];
  for (const r of named)
    for (const c of routeClients(graph, all, r))
      if (!calls.some((x) => x.path === c.path && x.line === c.line)) calls.push(c);
  calls.sort(
    (a, b) => Number(a.test) - Number(b.test) || (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line),
  );
  const out: ImpactConsumer[] = calls.map((c) => ({
    path: c.path,
    line: c.line,
    caller: c.caller,
    via: "call",
    depth: 0,
    method: c.method,
    url: c.url,
    test: c.test,
  }));
  const holders = [
    ...new Set(calls.filter((c) => !c.test && graph.symbols[c.callerId]!.kind !== "module").map((c) => c.callerId)),
  ];
  const seen = new Set(holders);
  for (const r of walk(graph, holders, "up", Math.max(1, depth - 1)).values()) {
    const s = graph.symbols[r.id]!;
    const e = graph.calls[r.edge]!;
    if (seen.has(r.id) || isTestSite(graph, e.file, e.line, r.id)) continue;
    seen.add(r.id);
    out.push({
      path: e.file,
      line: e.line,
      caller: s.kind === "module" ? s.file : s.qualified,
      via: "caller",
      depth: r.depth,
      test: false,
    });
  }
  return out;
}

/** The consumers line of a route impact. */
function consumersLine(consumers: ImpactConsumer[]): string {
  const calls = consumers.filter((c) => c.via === "call");
  const prod = calls.filter((c) => !c.test);
  const up = consumers.filter((c) => c.via === "caller");
  const site = (c: ImpactConsumer) => `${cite(c.path, c.line)} in ${c.caller}${c.url ? ` (${c.method} ${c.url})` : ""}`;
  const list = (xs: ImpactConsumer[]) =>
    `${xs.slice(0, SUMMARY_SHOWN).map(site).join("; ")}` +
    `${xs.length > SUMMARY_SHOWN ? `; … and ${fmt(xs.length - SUMMARY_SHOWN)} more` : ""}`;
  if (!calls.length)
    return (
      "Consumers: no client call in the project reaches this route (fetch, axios, httpx/requests and test " +
      "clients are read)."
    );
  const parts = [
    `Consumers: ${plural(prod.length, "client call")} from production code${prod.length ? `: ${list(prod)}` : ""}`,
  ];
  if (up.length) parts.push(`their callers: ${list(up)}`);
  if (calls.length > prod.length)
    parts.push(`${plural(calls.length - prod.length, "call")} from tests: ${list(calls.filter((c) => c.test))}`);
  return `${parts.join("; ")}.`;
}

/** The reach clause of the risk line: the tests and routes that run through the target, of all. */
function reachText(r: Reach): string {
  const parts: string[] = [];
  if (r.testsTotal) parts.push(`${fmt(r.tests)} of ${plural(r.testsTotal, "test")}`);
  if (r.routesTotal) parts.push(`${fmt(r.routes)} of ${plural(r.routesTotal, "route")}`);
  return parts.length ? `; at any depth, ${parts.join(" and ")} reach it (${Math.round(r.share * 100)}%)` : "";
}

/** The risk summary: production callers, the folders they live in, the deepest chain of callers. */
function impactRisk(
  graph: CodeGraph,
  all: ImpactEntry[],
  up: Map<number, Reached>,
  entryById: Map<string, ImpactEntry>,
  routeCount: number,
  testCount: number,
  reach: Reach,
) {
  const sym = (id: number) => graph.symbols[id]!;
  const prodUp = all.filter((e) => e.direction === "up" && !e.inTest);
  const dirCounts = new Map<string, number>();
  for (const e of prodUp) {
    const dir = e.path.includes("/") ? e.path.slice(0, e.path.lastIndexOf("/")) : ".";
    dirCounts.set(dir, (dirCounts.get(dir) ?? 0) + 1);
  }
  const directories = [...dirCounts]
    .map(([path, count]) => ({ path, count }))
    .sort((x, y) => y.count - x.count || (x.path < y.path ? -1 : 1));
  let deepestEntry: Reached | undefined;
  for (const r of up.values())
    if (!entryById.get(`up.${r.id}`)!.inTest && (!deepestEntry || r.depth > deepestEntry.depth)) deepestEntry = r;
  const chain: string[] = [];
  for (let r: Reached | undefined = deepestEntry; r; r = up.get(r.from)) {
    chain.push(sym(r.id).qualified);
    if (!up.has(r.from)) chain.push(sym(r.from).qualified);
  }
  const directCallers = prodUp.filter((e) => e.depth === 1).length;
  // Many callers, or routes across folders; or reach: most tests or routes run through it (a
  // middleware `compose`, a dispatcher), however few its callers.
  const level: ImpactRisk["level"] =
    prodUp.length >= 25 || (routeCount > 0 && dirCounts.size >= 3) || reachIsHigh(reach)
      ? "high"
      : prodUp.length >= 5 || routeCount > 0 || dirCounts.size >= 3 || reachIsMedium(reach)
        ? "medium"
        : "low";
  const risk: ImpactRisk = {
    level,
    productionCallers: prodUp.length,
    directCallers,
    directories: directories.slice(0, SUMMARY_SHOWN),
    directoryCount: dirCounts.size,
    routes: routeCount,
    tests: testCount,
    reach,
    deepest: { depth: deepestEntry?.depth ?? 0, path: chain },
  };
  return { risk, directories, dirCount: dirCounts.size, chain, directCallers };
}

/** The completeness of callers (up), callees (down) or both of one symbol. */
function mergeCompleteness(direction: ImpactDirection, graph: CodeGraph, s: SymbolNode): Completeness {
  if (direction === "up")
    return callsCompleteness(graph, s, "callers", graph.ambiguous.filter((x) => x.candidates.includes(s.id)).length);
  if (direction === "down") return callsCompleteness(graph, s, "callees", 0);
  const upC = callsCompleteness(graph, s, "callers", graph.ambiguous.filter((x) => x.candidates.includes(s.id)).length);
  const downC = callsCompleteness(graph, s, "callees", 0);
  return { ...downC, ...upC, notes: [...new Set([...upC.notes, ...downC.notes])] };
}
