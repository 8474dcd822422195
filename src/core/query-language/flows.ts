/**
 * Execution flows: from each entry point (a route's handler, a CLI command, a `main`, a test)
 * through the call graph, breadth-first to a few hops, each symbol once at its fewest hops. A flow
 * is named by its entry and ranked by how much code it reaches.
 */
import { isTestPath, testAt } from "../graph/test-code.ts";
import { isCommandDecorator, isCommandFileMethod } from "../../languages/index.ts";
import type { CodeGraph } from "../graph/model.ts";
import type { Route } from "../query/routes.ts";

/** Hops a flow follows from its entry. */
export const FLOW_DEPTH = 6;

/** What starts a flow. */
export type EntryKind = "route" | "command" | "handler" | "main" | "test";

/** An entry point. */
export interface EntryPoint {
  kind: EntryKind;
  /** The flow's name: `GET /users`, a command's name, a test id, `main`. */
  name: string;
  /** The entry symbol's id in the code graph. */
  symbol: number;
  qualified: string;
  path: string;
  line: number;
  /** A test written as a callback (no definition of its own): the symbols its calls reach first. */
  starts?: number[];
}

/** One flow: an entry and what it reaches. */
export interface Flow {
  entry: EntryPoint;
  /** Symbols reached (the entry excluded). */
  size: number;
  /** Files those symbols sit in. */
  files: number;
  /** The deepest hop reached. */
  depth: number;
  /** Symbol ids reached, by hops then order found. */
  reached: number[];
}

/** Entry points of the project: routes with a named handler, commands, `main` functions, tests. */
export function entryPoints(graph: CodeGraph, routes: Route[]): EntryPoint[] {
  const out: EntryPoint[] = [];
  const at = (kind: EntryKind, name: string, id: number) => {
    const s = graph.symbols[id]!;
    out.push({
      kind,
      name,
      symbol: id,
      qualified: s.qualified,
      path: s.file,
      line: s.kind === "module" ? 1 : s.nameLine,
    });
  };
  const seen = new Set<string>();
  for (const r of routes) {
    if (r.handler === undefined || r.test) continue;
    const key = `${r.method} ${r.path} ${r.handler}`;
    if (seen.has(key)) continue;
    seen.add(key);
    at("route", `${r.method} ${r.path}`, r.handler);
  }
  for (const s of graph.symbols) {
    if (s.kind === "module") continue;
    const inTest = isTestPath(s.file, s.language);
    const d = graph.records.get(s.file)!.definitions[s.index]!;
    const decorator = inTest ? undefined : d.decorators?.find((x) => isCommandDecorator(s.language, x));
    if (decorator) at(/command|group|subcommand|callback|cli/.test(decorator) ? "command" : "handler", s.name, s.id);
    else if (!inTest && s.name === "main" && (s.kind === "function" || s.kind === "method"))
      at("main", s.qualified, s.id);
    else if (!inTest && s.kind === "method" && isCommandFileMethod(s.language, s.file, s.name)) {
      // a command named by its file
      at("command", s.file.slice(s.file.lastIndexOf("/") + 1).replace(/\.[^.]*$/, ""), s.id);
    }
  }
  testEntries(graph, out);
  return out;
}

/** A test entry per test case that calls project code (by its call sites, as the tests answer finds them). */
function testEntries(graph: CodeGraph, out: EntryPoint[]): void {
  const tests = new Map<string, EntryPoint & { starts: number[] }>();
  for (const e of graph.calls) {
    const caller = graph.symbols[e.caller]!;
    if (!isTestPath(e.file, caller.language)) continue;
    const test = testAt(graph, e.file, e.line, caller.index);
    if (!test || test.group) continue;
    const key = `${e.file}\0${test.id}`;
    let entry = tests.get(key);
    if (!entry)
      tests.set(
        key,
        (entry = {
          kind: "test",
          name: test.id,
          symbol: e.caller,
          qualified: test.id,
          path: e.file,
          line: test.start,
          starts: [],
        }),
      );
    if (!entry.starts.includes(e.callee)) entry.starts.push(e.callee);
  }
  out.push(...tests.values());
}

/** The flow from one entry: callees breadth-first to FLOW_DEPTH hops (a class-body call only as the first hop). */
export function flowFrom(graph: CodeGraph, entry: EntryPoint, depth = FLOW_DEPTH): Flow {
  const seen = new Set<number>([entry.symbol, ...(entry.starts ?? [])]);
  const reached: number[] = [...(entry.starts ?? [])];
  let frontier = entry.starts ?? [entry.symbol];
  let deepest = entry.starts?.length ? 1 : 0;
  for (let d = entry.starts ? 2 : 1; d <= depth && frontier.length; d++) {
    const next: number[] = [];
    for (const id of frontier) {
      for (const ei of graph.callsFrom.get(id) ?? []) {
        const e = graph.calls[ei]!;
        if ((e.classBody && d > 1) || seen.has(e.callee)) continue;
        seen.add(e.callee);
        reached.push(e.callee);
        next.push(e.callee);
        deepest = d;
      }
    }
    frontier = next;
  }
  const files = new Set(reached.map((id) => graph.symbols[id]!.file));
  return { entry, size: reached.length, files: files.size, depth: deepest, reached };
}

/** Every entry's flow, largest first (then by kind and name, so the order is stable). */
export function allFlows(graph: CodeGraph, routes: Route[]): Flow[] {
  const order: Record<EntryKind, number> = { route: 0, command: 1, handler: 2, main: 3, test: 4 };
  return entryPoints(graph, routes)
    .map((e) => flowFrom(graph, e))
    .sort(
      (a, b) =>
        b.size - a.size ||
        order[a.entry.kind] - order[b.entry.kind] ||
        (a.entry.name < b.entry.name ? -1 : a.entry.name > b.entry.name ? 1 : 0),
    );
}
