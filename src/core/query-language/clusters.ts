/**
 * Functional clusters: files grouped by how they call and import each other, found by Louvain
 * community detection (graphology-communities-louvain, pure JS) over an undirected file graph whose
 * edge weights count the calls and imports between two files. Each cluster gets its cohesion (the
 * share of its files' call and import weight that stays inside it), its central symbols and the
 * entry points whose flows reach it.
 */
import { mulberry32 } from "../../shared/rng.ts";
import type { UndirectedGraph } from "graphology";
import type { CodeGraph } from "../graph/model.ts";
import type { Route } from "../query/routes.ts";
import { allFlows, type EntryKind, type Flow } from "./flows.ts";

// A CommonJS module whose types declare an ES default export: Node and bundlers hand the function
// over as the default, TypeScript's node16 resolution as `.default` of it; take whichever is there.
interface Louvain {
  detailed(
    graph: UndirectedGraph,
    options: { getEdgeWeight: string; rng: () => number; resolution: number },
  ): { communities: Record<string, number>; modularity: number };
}
const louvainOf = (m: unknown): Louvain | undefined =>
  typeof (m as Partial<Louvain> | undefined)?.detailed === "function" ? (m as Louvain) : undefined;

/**
 * graphology and its Louvain, imported on the first clusters answer: every answer of the engine's
 * bundle paid ~25 ms of CPU to load them (measured on this project's machines), and a `locate` or
 * `context` never uses them.
 */
let library: Promise<{ Graph: typeof UndirectedGraph; louvain: Louvain }> | undefined;
function clusterLibrary(): Promise<{ Graph: typeof UndirectedGraph; louvain: Louvain }> {
  library ??= Promise.all([import("graphology"), import("graphology-communities-louvain")]).then(
    ([graphology, louvainModule]) => ({
      Graph: graphology.UndirectedGraph,
      louvain:
        louvainOf((louvainModule as { default?: unknown }).default) ??
        louvainOf((louvainModule as { default?: { default?: unknown } }).default?.default) ??
        (louvainModule as unknown as Louvain),
    }),
  );
  return library;
}

/** Entry points a cluster lists at most. */
const ENTRIES_SHOWN = 5;
/** Central symbols a cluster lists at most. */
const SYMBOLS_SHOWN = 5;

/** One cluster. */
export interface Cluster {
  id: number;
  /** The folder its files share when it is two levels deep or more, else its most common folder. */
  name: string;
  files: string[];
  symbols: number;
  /** Internal weight / (internal + boundary weight), 0-1; 1 for a cluster nothing outside touches. */
  cohesion: number;
  /** Symbols with the most calls from inside the cluster, qualified. */
  central: string[];
  /** Entry points whose flows reach the cluster, most symbols reached first. */
  entries: { kind: EntryKind; name: string; reached: number }[];
  /** Entry points reaching it in all. */
  entryCount: number;
}

/** The clusters and the partition's modularity. */
export interface ClustersResult {
  clusters: Cluster[];
  modularity: number;
  /** Files with no call or import to another file, left out. */
  isolated: number;
}

/** The file graph's weights: calls between two files' symbols, plus one per import. */
function fileWeights(graph: CodeGraph): Map<string, Map<string, number>> {
  const w = new Map<string, Map<string, number>>();
  const add = (a: string, b: string, x: number) => {
    if (a === b) return;
    const [p, q] = a < b ? [a, b] : [b, a];
    const m = w.get(p) ?? w.set(p, new Map()).get(p)!;
    m.set(q, (m.get(q) ?? 0) + x);
  };
  for (const e of graph.calls) add(graph.symbols[e.caller]!.file, graph.symbols[e.callee]!.file, e.confidence);
  for (const e of graph.imports) add(e.from, e.to, 1);
  return w;
}

function commonFolder(files: string[]): string {
  const dirs = files.map((f) => (f.includes("/") ? f.slice(0, f.lastIndexOf("/")) : ""));
  let prefix = dirs[0] ?? "";
  for (const d of dirs)
    while (prefix && d !== prefix && !d.startsWith(`${prefix}/`))
      prefix = prefix.includes("/") ? prefix.slice(0, prefix.lastIndexOf("/")) : "";
  // A deep shared folder names the cluster; a shallow one (the project's `src`) says nothing.
  if (prefix.split("/").length >= 2) return prefix;
  const counts = new Map<string, number>();
  for (const d of dirs) counts.set(d, (counts.get(d) ?? 0) + 1);
  const top = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0] ?? "";
  const name = top === "" ? "(root)" : top;
  return counts.size > 1 ? `${name} (${counts.get(top)} of ${files.length} files; +${counts.size - 1} folders)` : name;
}

/** Clusters of the project's files, largest first. */
export async function findClusters(
  graph: CodeGraph,
  routes: Route[],
  flows: Flow[] = allFlows(graph, routes),
): Promise<ClustersResult> {
  const { Graph, louvain } = await clusterLibrary();
  const weights = fileWeights(graph);
  const g = new Graph({ allowSelfLoops: false });
  for (const [a, m] of weights) {
    for (const [b, x] of m) {
      if (!g.hasNode(a)) g.addNode(a);
      if (!g.hasNode(b)) g.addNode(b);
      g.addEdge(a, b, { weight: x });
    }
  }
  if (g.order === 0) return { clusters: [], modularity: 0, isolated: graph.records.size };
  const detailed = louvain.detailed(g, { getEdgeWeight: "weight", rng: mulberry32(26), resolution: 1 });
  const byCommunity = new Map<number, string[]>();
  for (const [file, c] of Object.entries(detailed.communities))
    (byCommunity.get(c) ?? byCommunity.set(c, []).get(c)!).push(file);
  const community = new Map(Object.entries(detailed.communities));
  const internal = new Map<number, number>();
  const boundary = new Map<number, number>();
  for (const [a, m] of weights) {
    for (const [b, x] of m) {
      const ca = community.get(a)!;
      const cb = community.get(b)!;
      if (ca === cb) internal.set(ca, (internal.get(ca) ?? 0) + x);
      else {
        boundary.set(ca, (boundary.get(ca) ?? 0) + x);
        boundary.set(cb, (boundary.get(cb) ?? 0) + x);
      }
    }
  }
  // One pass over the calls for every cluster's central symbols, one over each flow for its entries.
  const inCalls = new Map<number, Map<number, number>>();
  for (const e of graph.calls) {
    const ca = community.get(graph.symbols[e.caller]!.file);
    if (
      ca === undefined ||
      ca !== community.get(graph.symbols[e.callee]!.file) ||
      graph.symbols[e.callee]!.kind === "module"
    )
      continue;
    const m = inCalls.get(ca) ?? inCalls.set(ca, new Map()).get(ca)!;
    m.set(e.callee, (m.get(e.callee) ?? 0) + 1);
  }
  const reaching = new Map<number, { kind: EntryKind; name: string; reached: number }[]>();
  for (const f of flows) {
    const counts = new Map<number, number>();
    for (const id of [f.entry.symbol, ...f.reached]) {
      const c = community.get(graph.symbols[id]!.file);
      if (c !== undefined) counts.set(c, (counts.get(c) ?? 0) + 1);
    }
    for (const [c, reached] of counts)
      (reaching.get(c) ?? reaching.set(c, []).get(c)!).push({ kind: f.entry.kind, name: f.entry.name, reached });
  }
  const clusters: Cluster[] = [];
  for (const [c, files] of byCommunity) {
    files.sort();
    let symbols = 0;
    for (const f of files) symbols += graph.records.get(f)?.definitions.length ?? 0;
    const central = [...(inCalls.get(c) ?? [])]
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, SYMBOLS_SHOWN)
      .map(([id]) => graph.symbols[id]!.qualified);
    const entries = (reaching.get(c) ?? []).sort(
      (a, b) => b.reached - a.reached || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
    );
    const i = internal.get(c) ?? 0;
    const o = boundary.get(c) ?? 0;
    clusters.push({
      id: 0,
      name: commonFolder(files),
      files,
      symbols,
      cohesion: Math.round((i + o === 0 ? 1 : i / (i + o)) * 1000) / 1000,
      central,
      entries: entries.slice(0, ENTRIES_SHOWN),
      entryCount: entries.length,
    });
  }
  clusters.sort((a, b) => b.files.length - a.files.length || b.symbols - a.symbols || (a.name < b.name ? -1 : 1));
  clusters.forEach((c, i) => (c.id = i + 1));
  return {
    clusters,
    modularity: Math.round(detailed.modularity * 1000) / 1000,
    isolated: graph.records.size - g.order,
  };
}
