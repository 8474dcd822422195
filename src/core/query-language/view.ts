/**
 * The code graph as the query language sees it: labelled nodes (File, Symbol, Route, Test) with
 * properties, and typed edges (CALLS, IMPORTS, INHERITS, OVERRIDES, TESTS, SERVES, DEFINES), each
 * with a confidence. Built once per code graph (memoized on it) from what the graph already holds;
 * nothing here resolves anything anew.
 */
import { isTestPath, testAt } from "../graph/test-code.ts";
import type { CodeGraph } from "../graph/model.ts";
import type { Route } from "../query/routes.ts";
import type { Literal } from "./parse.ts";

/** Node labels. */
export type Label = "File" | "Symbol" | "Route" | "Test";
/** Every label, in the order the schema lists them. */
export const LABELS: readonly Label[] = ["File", "Symbol", "Route", "Test"];
/** Edge types. */
export type EdgeType = "CALLS" | "IMPORTS" | "INHERITS" | "OVERRIDES" | "TESTS" | "SERVES" | "DEFINES";
/** Every edge type, in the order the schema lists them. */
export const EDGE_TYPES: readonly EdgeType[] = [
  "CALLS",
  "IMPORTS",
  "INHERITS",
  "OVERRIDES",
  "TESTS",
  "SERVES",
  "DEFINES",
];

/** One node: a label and flat properties. */
export interface QNode {
  id: number;
  label: Label;
  props: Record<string, Literal>;
}

/** One edge, with its confidence (also readable as the property `confidence`). */
export interface QEdge {
  id: number;
  type: EdgeType;
  from: number;
  to: number;
  props: Record<string, Literal>;
  /** A call made by a class body when the class is defined: a path may start with it, never pass through it. */
  classBody?: true;
}

/** The graph as nodes and edges, with adjacency by type and look-ups by property. */
export interface QueryGraph {
  nodes: QNode[];
  edges: QEdge[];
  /** type → node → edge ids leaving it / arriving at it. */
  out: Map<EdgeType, Map<number, number[]>>;
  in: Map<EdgeType, Map<number, number[]>>;
  byLabel: Map<Label, number[]>;
  /** `Label.prop` → value → node ids, for the properties queries anchor on. */
  index: Map<string, Map<Literal, number[]>>;
  /** Symbol id → node id (the same number: symbols come first). */
  symbolNode(symbol: number): number;
}

/** Properties each label and edge type has (the schema resource lists them with their meaning). */
export const NODE_PROPS: Record<Label, readonly string[]> = {
  File: ["path", "name", "language", "lines", "inTest"],
  Symbol: ["name", "qualified", "kind", "path", "line", "start", "end", "language", "inTest"],
  Route: ["method", "path", "file", "line", "handler", "inTest"],
  Test: ["id", "name", "path", "line", "end"],
};
/** Properties each edge type has (`confidence` on all). */
export const EDGE_PROPS: Record<EdgeType, readonly string[]> = {
  CALLS: ["confidence", "resolution", "via", "path", "line"],
  IMPORTS: ["confidence", "line"],
  INHERITS: ["confidence", "kind"],
  OVERRIDES: ["confidence"],
  TESTS: ["confidence", "resolution", "path", "line"],
  SERVES: ["confidence", "method", "path"],
  DEFINES: ["confidence"],
};
/** Properties indexed for anchoring a match. */
const INDEXED: Record<Label, readonly string[]> = {
  File: ["path", "name"],
  Symbol: ["name", "qualified", "path", "kind"],
  Route: ["path", "method", "file"],
  Test: ["id", "path"],
};

const views = new WeakMap<CodeGraph, { routes: Route[]; view: QueryGraph }>();

/** The query view of `graph` (memoized per graph and routes list). */
export function queryGraph(graph: CodeGraph, routes: Route[]): QueryGraph {
  const known = views.get(graph);
  if (known && known.routes === routes) return known.view;
  const view = buildView(graph, routes);
  views.set(graph, { routes, view });
  return view;
}

function buildView(graph: CodeGraph, routes: Route[]): QueryGraph {
  const nodes: QNode[] = [];
  const edges: QEdge[] = [];
  const addEdge = (type: EdgeType, from: number, to: number, props: Record<string, Literal>, classBody?: boolean) => {
    edges.push({ id: edges.length, type, from, to, props, ...(classBody ? { classBody: true as const } : {}) });
  };
  for (const s of graph.symbols) {
    nodes.push({
      id: s.id,
      label: "Symbol",
      props: {
        name: s.name,
        qualified: s.qualified,
        kind: s.kind,
        path: s.file,
        line: s.kind === "module" ? 1 : s.nameLine,
        start: s.kind === "module" ? 1 : s.start,
        end: s.end,
        language: s.language,
        inTest: isTestPath(s.file, s.language),
      },
    });
  }
  const fileNode = new Map<string, number>();
  for (const [path, record] of graph.records) {
    const id = nodes.length;
    fileNode.set(path, id);
    nodes.push({
      id,
      label: "File",
      props: {
        path,
        name: path.slice(path.lastIndexOf("/") + 1),
        language: record.language,
        lines: record.lines,
        inTest: isTestPath(path, record.language),
      },
    });
  }
  for (const r of routes) {
    const id = nodes.length;
    nodes.push({
      id,
      label: "Route",
      props: {
        method: r.method,
        path: r.path,
        file: r.file,
        line: r.line,
        handler: r.handler !== undefined ? graph.symbols[r.handler]!.qualified : null,
        inTest: r.test === true,
      },
    });
    if (r.handler !== undefined) addEdge("SERVES", id, r.handler, { confidence: 1, method: r.method, path: r.path });
  }
  for (const e of graph.calls) {
    addEdge(
      "CALLS",
      e.caller,
      e.callee,
      { confidence: e.confidence, resolution: e.resolution, via: e.via, path: e.file, line: e.line },
      e.classBody,
    );
  }
  testEdges(graph, nodes, addEdge);
  for (const e of graph.imports) {
    const from = fileNode.get(e.from);
    const to = fileNode.get(e.to);
    if (from !== undefined && to !== undefined) addEdge("IMPORTS", from, to, { confidence: 1, line: e.line });
  }
  for (const e of graph.inherits) addEdge("INHERITS", e.child, e.base, { confidence: 1, kind: e.kind });
  overrideEdges(graph, addEdge);
  for (const s of graph.symbols) {
    if (s.kind === "module") continue;
    const file = fileNode.get(s.file);
    if (file !== undefined) addEdge("DEFINES", file, s.id, { confidence: 1 });
  }
  return finish(nodes, edges);
}

/** A Test node per test case that calls project code, and a TESTS edge per call it makes. */
function testEdges(
  graph: CodeGraph,
  nodes: QNode[],
  addEdge: (type: EdgeType, from: number, to: number, props: Record<string, Literal>) => void,
): void {
  const testNode = new Map<string, number>();
  for (const e of graph.calls) {
    const caller = graph.symbols[e.caller]!;
    // As the tests answer reads a site: module code too (a Vitest `it(…, () => …)` callback is no definition).
    const test = testAt(graph, e.file, e.line, caller.index);
    if (!test) continue;
    const key = `${e.file}\0${test.id}`;
    let id = testNode.get(key);
    if (id === undefined) {
      id = nodes.length;
      testNode.set(key, id);
      const name =
        test.id
          .split(/::|#|\.| /)
          .filter(Boolean)
          .pop() ?? test.id;
      nodes.push({ id, label: "Test", props: { id: test.id, name, path: e.file, line: test.start, end: test.end } });
    }
    addEdge("TESTS", id, e.callee, { confidence: e.confidence, resolution: e.resolution, path: e.file, line: e.line });
  }
}

/** A method → the nearest method of the same name up its class's bases. */
function overrideEdges(
  graph: CodeGraph,
  addEdge: (type: EdgeType, from: number, to: number, props: Record<string, Literal>) => void,
): void {
  const bases = new Map<number, number[]>();
  for (const e of graph.inherits) (bases.get(e.child) ?? bases.set(e.child, []).get(e.child)!).push(e.base);
  const methodNamed = (cls: number, name: string) =>
    (graph.children.get(cls) ?? []).find((c) => graph.symbols[c]!.name === name && graph.symbols[c]!.kind === "method");
  for (const [cls, direct] of bases) {
    for (const m of graph.children.get(cls) ?? []) {
      const method = graph.symbols[m]!;
      if (method.kind !== "method") continue;
      const seen = new Set([cls]);
      const queue = [...direct];
      for (let i = 0; i < queue.length && i < 1_000; i++) {
        const b = queue[i]!;
        if (seen.has(b)) continue;
        seen.add(b);
        const found = methodNamed(b, method.name);
        if (found !== undefined) {
          addEdge("OVERRIDES", m, found, { confidence: 1 });
          break;
        }
        queue.push(...(bases.get(b) ?? []));
      }
    }
  }
}

function finish(nodes: QNode[], edges: QEdge[]): QueryGraph {
  const out = new Map<EdgeType, Map<number, number[]>>(EDGE_TYPES.map((t) => [t, new Map()]));
  const inn = new Map<EdgeType, Map<number, number[]>>(EDGE_TYPES.map((t) => [t, new Map()]));
  for (const e of edges) {
    const o = out.get(e.type)!;
    (o.get(e.from) ?? o.set(e.from, []).get(e.from)!).push(e.id);
    const i = inn.get(e.type)!;
    (i.get(e.to) ?? i.set(e.to, []).get(e.to)!).push(e.id);
  }
  const byLabel = new Map<Label, number[]>(LABELS.map((l) => [l, []]));
  const index = new Map<string, Map<Literal, number[]>>();
  for (const n of nodes) {
    byLabel.get(n.label)!.push(n.id);
    for (const key of INDEXED[n.label]) {
      const k = `${n.label}.${key}`;
      const m = index.get(k) ?? index.set(k, new Map()).get(k)!;
      const v = n.props[key] ?? null;
      (m.get(v) ?? m.set(v, []).get(v)!).push(n.id);
    }
  }
  return { nodes, edges, out, in: inn, byLabel, index, symbolNode: (s) => s };
}
