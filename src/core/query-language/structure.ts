/**
 * The flows and clusters answers: the data of flows.ts and clusters.ts, filtered by words, paged
 * by a limit and fitted to a token budget like every list answer.
 */
import { EngineError } from "../../shared/errors.ts";
import { cite } from "../../shared/paths.ts";
import type { Encoding } from "../budget/tokenizer.ts";
import type { CodeGraph } from "../graph/model.ts";
import { fitPage, listArgs, plural, withUsage, type Usage } from "../query/pages.ts";
import { LIMITS } from "../limits.ts";
import type { Route } from "../query/routes.ts";
import { findClusters } from "./clusters.ts";
import { allFlows, FLOW_DEPTH, type EntryKind } from "./flows.ts";
import { defined } from "../../shared/defined.ts";
import { quoted } from "../../shared/quote.ts";

/** Options of flows and clusters. */
export interface StructureOptions {
  /** Keep only flows whose entry (or clusters whose name, files or entries) contain these words. */
  filter?: string;
  /** Items at most (default 20, at most LIMITS.page.max). */
  limit?: number;
  budget?: number;
  encoding?: Encoding;
  json?: boolean;
}

/** Steps of a flow an answer lists. */
const STEPS_SHOWN = 6;
/** Files of a cluster an answer lists. */
const FILES_SHOWN = 6;
const DEFAULT_ITEMS = 20;

/** One flow as answered. */
export interface FlowItem {
  kind: EntryKind;
  name: string;
  entry: string;
  path: string;
  line: number;
  size: number;
  files: number;
  depth: number;
  /** The first symbols it reaches, nearest first. */
  steps: string[];
}

/** The answer to flows. */
export interface FlowsAnswer {
  flows: FlowItem[];
  /** Flows after the filter; `entries` counts every entry point by kind. */
  total: number;
  entries: Record<EntryKind, number>;
  depth: number;
  usage: Usage;
  text: string;
}

/** One cluster as answered. */
export interface ClusterItem {
  id: number;
  name: string;
  files: string[];
  fileCount: number;
  symbols: number;
  cohesion: number;
  central: string[];
  entries: { kind: EntryKind; name: string; reached: number }[];
  entryCount: number;
}

/** The answer to clusters. */
export interface ClustersAnswer {
  clusters: ClusterItem[];
  total: number;
  modularity: number;
  isolated: number;
  usage: Usage;
  text: string;
}

function checkLimit(limit: number | undefined): number {
  const n = limit ?? DEFAULT_ITEMS;
  if (!Number.isInteger(n) || n < 1 || n > LIMITS.page.max) {
    throw new EngineError(
      "invalid_argument",
      `limit must be a whole number from 1 to ${LIMITS.page.max}, got ${String(limit)}.`,
      { data: { limit, min: 1, max: LIMITS.page.max } },
    );
  }
  return n;
}

const words = (filter: string | undefined) => (filter ?? "").toLowerCase().split(/\s+/).filter(Boolean);

/** The list arguments of a flows or clusters answer: budget, encoding and JSON as the options give them. */
function structureArgs(opts: StructureOptions) {
  return listArgs({
    ...defined({ budget: opts.budget }),
    ...(opts.encoding ? { encoding: opts.encoding } : {}),
    json: opts.json === true,
  });
}

/** Execution flows from each entry point, largest first. */
export async function answerFlows(
  graph: CodeGraph,
  routes: Route[],
  opts: StructureOptions = {},
): Promise<FlowsAnswer> {
  const limit = checkLimit(opts.limit);
  const a = await structureArgs(opts);
  const flows = allFlows(graph, routes);
  const entries: Record<EntryKind, number> = { route: 0, command: 0, handler: 0, main: 0, test: 0 };
  for (const f of flows) entries[f.entry.kind]++;
  const w = words(opts.filter);
  const kept = flows.filter((f) =>
    w.every((x) => `${f.entry.kind} ${f.entry.name} ${f.entry.qualified} ${f.entry.path}`.toLowerCase().includes(x)),
  );
  const items: FlowItem[] = kept.slice(0, limit).map((f) => ({
    kind: f.entry.kind,
    name: f.entry.name,
    entry: f.entry.qualified,
    path: f.entry.path,
    line: f.entry.line,
    size: f.size,
    files: f.files,
    depth: f.depth,
    steps: f.reached.slice(0, STEPS_SHOWN).map((id) => graph.symbols[id]!.qualified),
  }));
  const counts =
    (Object.keys(entries) as EntryKind[])
      .filter((k) => entries[k])
      .map((k) => plural(entries[k], k))
      .join(", ") || "none";
  const make = (k: number): FlowsAnswer => {
    const { text, tokens } = withUsage((usage) => {
      const lines = [
        `# Flows: ${plural(kept.length, "flow")}${w.length ? ` matching ${quoted(opts.filter)}` : ""}, ` +
          `largest first (entry points: ${counts}; callees to ${FLOW_DEPTH} hops)`,
      ];
      if (kept.length === 0)
        lines.push(
          flows.length
            ? "None match the filter."
            : "No entry points found (routes with a named handler, decorated commands, main functions, tests).",
        );
      for (const f of items.slice(0, k)) {
        lines.push(
          `- ${f.kind} ${f.name}${f.entry !== f.name ? ` → ${f.entry}` : ""} (${cite(f.path, f.line)}): ` +
            (`${plural(f.size, "symbol")} in ${plural(f.files, "file")}, ` +
              (`${plural(f.depth, "hop")}` +
                `${f.steps.length ? `; ${f.steps.join(", ")}${f.size > f.steps.length ? ", …" : ""}` : ""}`)),
        );
      }
      if (k < kept.length)
        lines.push(`Listed ${k} of ${kept.length}; filter by words or raise the limit or budget for more.`);
      lines.push(usage);
      return lines.join("\n");
    }, a);
    return {
      flows: items.slice(0, k),
      total: kept.length,
      entries,
      depth: FLOW_DEPTH,
      usage: { tokens, budget: a.budget, encoding: a.encoding },
      text,
    };
  };
  return fitPage(items.length, make, a);
}

/** Functional clusters of files, largest first. */
export async function answerClusters(
  graph: CodeGraph,
  routes: Route[],
  opts: StructureOptions = {},
): Promise<ClustersAnswer> {
  const limit = checkLimit(opts.limit);
  const a = await structureArgs(opts);
  const result = await findClusters(graph, routes);
  const w = words(opts.filter);
  const kept = result.clusters.filter((c) =>
    w.every((x) =>
      `${c.name} ${c.files.join(" ")} ${c.entries.map((e) => e.name).join(" ")}`.toLowerCase().includes(x),
    ),
  );
  const items: ClusterItem[] = kept.slice(0, limit).map((c) => ({
    id: c.id,
    name: c.name,
    files: c.files.slice(0, FILES_SHOWN),
    fileCount: c.files.length,
    symbols: c.symbols,
    cohesion: c.cohesion,
    central: c.central,
    entries: c.entries,
    entryCount: c.entryCount,
  }));
  const make = (k: number): ClustersAnswer => {
    const { text, tokens } = withUsage((usage) => {
      const lines = [
        `# Clusters: ` +
          (`${plural(kept.length, "cluster")}${w.length ? ` matching ${quoted(opts.filter)}` : ""} of ` +
            (`files by calls and imports (Louvain, modularity ${result.modularity}; ` +
              `${plural(result.isolated, "file")} with no link left out)`)),
      ];
      for (const c of items.slice(0, k)) {
        lines.push(
          `## ${c.id}. ${c.name}: ${plural(c.fileCount, "file")}, ${plural(c.symbols, "symbol")}, cohesion ` +
            `${c.cohesion}`,
        );
        lines.push(`files: ${c.files.join(", ")}${c.fileCount > c.files.length ? ", …" : ""}`);
        if (c.central.length) lines.push(`central: ${c.central.join(", ")}`);
        lines.push(
          "entry points reaching it: " +
            (c.entryCount
              ? c.entries.map((e) => `${e.kind} ${e.name} (${e.reached})`).join(", ") +
                (c.entryCount > c.entries.length ? `, … ${c.entryCount} in all` : "")
              : "none"),
        );
      }
      if (k < kept.length)
        lines.push(`Listed ${k} of ${kept.length}; filter by words or raise the limit or budget for more.`);
      lines.push(usage);
      return lines.join("\n");
    }, a);
    return {
      clusters: items.slice(0, k),
      total: kept.length,
      modularity: result.modularity,
      isolated: result.isolated,
      usage: { tokens, budget: a.budget, encoding: a.encoding },
      text,
    };
  };
  return fitPage(items.length, make, a);
}
