/**
 * Reach: how much of what runs the project passes through a symbol (issue 24 item 7). Depth and
 * caller counts miss the symbol every request goes through: hono's `compose` has one production
 * caller, yet every test that sends a request runs it. Reach counts the project's entry points
 * whose call closure holds the symbol:
 *
 * - tests: the test cases, per each language's runner rules (`testCasesOf`); a test reaches the
 *   symbol when a chain of calls from it leads there;
 * - routes: the project's own routes (not those a test registers) whose handler's calls lead there.
 *
 * Share = the larger of the two fractions. Chains are followed up to LIMITS.depth.max hops, the
 * most any answer follows.
 */
import { LIMITS } from "../limits.ts";
import { inTestCode, testAt, testCasesOf } from "../graph/test-code.ts";
import type { Route } from "./routes.ts";
import type { CodeGraph } from "../graph/model.ts";

/** How many tests and routes run through a symbol, of how many. */
export interface Reach {
  /** The larger of tests/testsTotal and routes/routesTotal (0 when there are none). */
  share: number;
  tests: number;
  testsTotal: number;
  routes: number;
  routesTotal: number;
}

/** Tests of fewer than this many in all, or routes of fewer, say too little for a share to raise a risk. */
export const REACH_MIN = { tests: 10, routes: 3 } as const;

/** The id of the test a call edge sits in, or undefined when it is not test code. */
function testOfEdge(graph: CodeGraph, edge: number): string | undefined {
  const e = graph.calls[edge]!;
  const caller = graph.symbols[e.caller];
  const record = graph.records.get(e.file);
  if (!caller || !record) return undefined;
  const t = testAt(graph, e.file, e.line, caller.kind === "module" ? -1 : caller.index);
  // A group (a describe body, a test class's setup) is not a test case of its own.
  return t && !t.group ? `${e.file}\0${t.id}` : undefined;
}

/** Every test case of the project, by its runner's rules. */
function countTests(graph: CodeGraph): number {
  let n = 0;
  for (const ids of testCasesOf(graph).values()) n += ids.size;
  return n;
}

/** The reach of `targets` (one symbol, or the definitions of a file or lines) over tests and routes. */
export function reachOf(graph: CodeGraph, targets: readonly number[], routes: readonly Route[]): Reach {
  // Callers of the targets at any depth up to the bound, and the call edges that reach them.
  const closure = new Set<number>(targets);
  const edges: number[] = [];
  let frontier = [...targets];
  for (let d = 1; d <= LIMITS.depth.max && frontier.length; d++) {
    const next: number[] = [];
    for (const id of frontier) {
      for (const ei of graph.callsTo.get(id) ?? []) {
        edges.push(ei);
        const caller = graph.calls[ei]!.caller;
        if (closure.has(caller) || graph.calls[ei]!.classBody) continue;
        closure.add(caller);
        next.push(caller);
      }
    }
    frontier = next;
  }
  const reached = new Set<string>();
  for (const ei of edges) {
    const e = graph.calls[ei]!;
    if (!inTestCode(graph, e.file, e.line, e.caller)) continue;
    const id = testOfEdge(graph, ei);
    if (id) reached.add(id);
  }
  const own = routes.filter((r) => !r.test);
  const routesReached = own.filter((r) => r.handler !== undefined && closure.has(r.handler)).length;
  const testsTotal = countTests(graph);
  const share = Math.max(testsTotal ? reached.size / testsTotal : 0, own.length ? routesReached / own.length : 0);
  return {
    share: Math.round(share * 1000) / 1000,
    tests: reached.size,
    testsTotal,
    routes: routesReached,
    routesTotal: own.length,
  };
}

/** True when most tests or most routes run through the symbol, with enough of them for the share to mean something. */
export function reachIsHigh(r: Reach): boolean {
  return (
    (r.testsTotal >= REACH_MIN.tests && r.tests / r.testsTotal >= 0.5) ||
    (r.routesTotal >= REACH_MIN.routes && r.routes / r.routesTotal >= 0.5)
  );
}

/** True when a fifth of the tests or routes run through it. */
export function reachIsMedium(r: Reach): boolean {
  return (
    (r.testsTotal >= REACH_MIN.tests && r.tests / r.testsTotal >= 0.2) ||
    (r.routesTotal >= REACH_MIN.routes && r.routes / r.routesTotal >= 0.2)
  );
}
