/**
 * An architecture map as Mermaid diagrams, built from the code graph and fitted to a token
 * budget: imports between the top folders, the functional clusters with the calls between them
 * and the entry points that reach them, and the largest execution flows. What the
 * `generate_map` prompt hands an agent; every node and edge comes from the graph, none is guessed.
 */
import type { CodeGraph } from "../graph/model.ts";
import { findClusters, type Cluster } from "../query-language/clusters.ts";
import { allFlows, type Flow } from "../query-language/flows.ts";
import type { Route } from "../query/routes.ts";

/** The map: its Markdown (headings and ```mermaid blocks) and how much of the graph it shows. */
export interface MermaidMap {
  text: string;
  tokens: number;
  /** The folder depth the first diagram groups files by. */
  folderDepth: number;
  shown: { folders: number; folderEdges: number; clusters: number; clusterEdges: number; flows: number };
  total: { folders: number; folderEdges: number; clusters: number; flows: number };
}

/** How many of each the map shows at most, before the budget cuts them down. */
interface Sizes {
  folderEdges: number;
  clusters: number;
  clusterEdges: number;
  flows: number;
  steps: number;
}

const START: Sizes = { folderEdges: 24, clusters: 12, clusterEdges: 20, flows: 5, steps: 4 };

/** A label Mermaid reads inside `["…"]`. */
const label = (s: string) => `"${s.replace(/"/g, "#quot;").replace(/[<>]/g, (c) => (c === "<" ? "#lt;" : "#gt;"))}"`;

/** The folder a file sits in at `depth` segments (a file above that depth is its own folder's, or the root's). */
function folderOf(path: string, depth: number): string {
  const parts = path.split("/");
  return parts.length <= 1 ? "(root)" : parts.slice(0, Math.min(depth, parts.length - 1)).join("/");
}

/** Import counts between folders at `depth` (within-folder imports left out). */
function folderEdges(graph: CodeGraph, depth: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const e of graph.imports) {
    const a = folderOf(e.from, depth);
    const b = folderOf(e.to, depth);
    if (a === b) continue;
    const key = `${a}\u0000${b}`;
    out.set(key, (out.get(key) ?? 0) + 1);
  }
  return out;
}

/**
 * The shallowest depth (1..4) at which imports connect at least five folders, else the one that
 * connects the most: a project with all its code under `src/` is mapped by `src/*`, not by one box.
 */
function pickDepth(graph: CodeGraph): number {
  let best = { depth: 1, folders: 0 };
  for (let depth = 1; depth <= 4; depth++) {
    const folders = new Set([...folderEdges(graph, depth).keys()].flatMap((k) => k.split("\u0000"))).size;
    if (folders >= 5) return depth;
    if (folders > best.folders) best = { depth, folders };
  }
  return best.depth;
}

/** Calls between clusters, by count. */
function clusterEdges(graph: CodeGraph, clusters: Cluster[]): Map<string, number> {
  const of = new Map<string, number>();
  clusters.forEach((c, i) => c.files.forEach((f) => of.set(f, i)));
  const out = new Map<string, number>();
  for (const call of graph.calls) {
    const a = of.get(call.file);
    const b = of.get(graph.symbols[call.callee]!.file);
    if (a === undefined || b === undefined || a === b) continue;
    const key = `${a}\u0000${b}`;
    out.set(key, (out.get(key) ?? 0) + 1);
  }
  return out;
}

const top = (m: Map<string, number>, n: number) =>
  [...m].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1)).slice(0, n);

function foldersDiagram(edges: [string, number][], depth: number): string[] {
  const ids = new Map<string, string>();
  const id = (f: string) => ids.get(f) ?? (ids.set(f, `f${ids.size}`), ids.get(f)!);
  const lines = ["flowchart LR"];
  for (const [key, n] of edges) {
    const [a, b] = key.split("\u0000") as [string, string];
    const ia = id(a);
    const ib = id(b);
    lines.push(`  ${ia}[${label(a)}] -->|${n}| ${ib}[${label(b)}]`);
  }
  if (edges.length === 0) lines.push(`  none["no imports between folders at depth ${depth}"]`);
  return lines;
}

function clustersDiagram(graph: CodeGraph, clusters: Cluster[], sizes: Sizes): string[] {
  const shown = clusters.slice(0, sizes.clusters);
  const lines = ["flowchart TB"];
  shown.forEach((c, i) => {
    const size = c.name.includes(" files") ? "" : ` (${c.files.length} files)`;
    lines.push(`  c${i}[${label(`${c.name}${size} · cohesion ${c.cohesion}`)}]`);
  });
  for (const [key, n] of top(clusterEdges(graph, shown), sizes.clusterEdges)) {
    const [a, b] = key.split("\u0000");
    lines.push(`  c${a} -->|${n} calls| c${b}`);
  }
  // Each cluster's busiest entry point, so the diagram says where requests and commands come in.
  shown.forEach((c, i) => {
    const e = c.entries.find((x) => x.kind !== "test");
    if (e) lines.push(`  e${i}([${label(`${e.kind}: ${e.name}`)}]) -.-> c${i}`);
  });
  return lines;
}

function flowsDiagram(graph: CodeGraph, flows: Flow[], sizes: Sizes): string[] {
  const lines = ["flowchart LR"];
  flows.slice(0, sizes.flows).forEach((f, i) => {
    const steps = f.reached
      .slice(0, sizes.steps)
      .map((id) => graph.symbols[id]!.qualified.split(/[.#/]/).slice(-2).join("."));
    const chain = [
      `  s${i}_0([${label(`${f.entry.kind}: ${f.entry.name}`)}])`,
      ...steps.map((s, j) => `s${i}_${j + 1}[${label(s)}]`),
    ];
    lines.push(
      chain.join(" --> ") +
        (f.size > steps.length ? ` --> s${i}_more[${label(`… ${f.size - steps.length} more symbols`)}]` : ""),
    );
  });
  if (lines.length === 1) lines.push(`  none["no entry points found"]`);
  return lines;
}

/**
 * The map within `budget` tokens (counted with `count`): each part shrinks (fewer edges, clusters,
 * flows, steps) until the whole fits; the smallest map is returned if even that does not.
 */
export async function mermaidMap(
  graph: CodeGraph,
  routes: Route[],
  budget: number,
  count: (text: string) => number,
): Promise<MermaidMap> {
  const depth = pickDepth(graph);
  const fEdges = folderEdges(graph, depth);
  const every = allFlows(graph, routes);
  const flows = every.filter((f) => f.entry.kind !== "test");
  const clusters = (await findClusters(graph, routes, every)).clusters;
  const folders = new Set([...fEdges.keys()].flatMap((k) => k.split("\u0000")));
  const build = (sizes: Sizes): MermaidMap => {
    const edges = top(fEdges, sizes.folderEdges);
    const text = [
      `### Imports between folders (depth ${depth}; edge labels count import statements)`,
      "```mermaid",
      ...foldersDiagram(edges, depth),
      "```",
      "### Clusters of files (Louvain over calls and imports) and the entry points that reach them",
      "```mermaid",
      ...clustersDiagram(graph, clusters, sizes),
      "```",
      `### The ${Math.min(sizes.flows, flows.length)} largest execution flows (entry → first callees)`,
      "```mermaid",
      ...flowsDiagram(graph, flows, sizes),
      "```",
    ].join("\n");
    const shownClusters = clusters.slice(0, sizes.clusters);
    return {
      text,
      tokens: count(text),
      folderDepth: depth,
      shown: {
        folders: new Set(edges.flatMap(([k]) => k.split("\u0000"))).size,
        folderEdges: edges.length,
        clusters: shownClusters.length,
        clusterEdges: Math.min(sizes.clusterEdges, clusterEdges(graph, shownClusters).size),
        flows: Math.min(sizes.flows, flows.length),
      },
      total: { folders: folders.size, folderEdges: fEdges.size, clusters: clusters.length, flows: flows.length },
    };
  };
  let sizes = { ...START };
  let map = build(sizes);
  while (map.tokens > budget) {
    const next: Sizes = {
      folderEdges: Math.max(3, Math.floor(sizes.folderEdges * 0.7)),
      clusters: Math.max(2, sizes.clusters - 2),
      clusterEdges: Math.max(2, Math.floor(sizes.clusterEdges * 0.7)),
      flows: Math.max(1, sizes.flows - 1),
      steps: Math.max(2, sizes.steps - 1),
    };
    if (JSON.stringify(next) === JSON.stringify(sizes)) break;
    sizes = next;
    map = build(sizes);
  }
  return map;
}
