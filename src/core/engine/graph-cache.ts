/**
 * The code graph of the engine's current snapshot, cached per snapshot: patched from the previous
 * graph after an edit when it can be, built afresh otherwise; and what is derived from a graph
 * (its routes, the search index carried from graph to graph).
 */
import { LANGUAGES } from "../../languages/index.ts";
import type { HostEnvironment } from "../../languages/types.ts";
import { EngineError } from "../../shared/errors.ts";
import type { FileRecord } from "../extract/record.ts";
import { buildGraph, graphFromEdges, resolveDeferred } from "../graph/build.ts";
import type { CodeGraph } from "../graph/model.ts";
import { patchGraph } from "../graph/patch.ts";
import { loadSearchIndex, saveSearchIndex, updateSearchIndex, type SearchIndex } from "../search/search.ts";
import { findRoutes, type Route } from "../query/routes.ts";
import type { RunOptions } from "./api.ts";
import { CONFIG_FILE, snapshotInputs } from "./inputs.ts";
import { ensureHeadroom, HEAP_PER_SYMBOL } from "./memory.ts";
import { consistent } from "./consistent.ts";
import { decodeDerived, DERIVED_KEY, derivedIdentity, edgesFit, edgesOf, encodeDerived } from "./derived.ts";
import { loadAll } from "./passes.ts";
import type { Snapshot } from "./snapshot.ts";
import type { BuiltGraph, EngineState } from "./state.ts";

export type { BuiltGraph } from "./state.ts";

/** The names of the languages the engine indexes. */
export function supportedLanguageNames(): string[] {
  return LANGUAGES.map((l) => l.name);
}

/**
 * The code graph of the current snapshot, with the inputs it was built from. The configs it
 * resolves modules with are read through those inputs: when one changed since it was indexed, the
 * graph is not built from it (the caller's `consistent` re-indexes it and asks again).
 */
export async function graphOf(s: EngineState, run: RunOptions = {}): Promise<BuiltGraph> {
  const { platform } = s;
  const { snapshot, records } = await loadAll(s, run);
  if (records.length === 0) {
    throw new EngineError(
      "no_supported_files",
      `No source files in a supported language under ${platform.fs.rootLabel}.`,
      {
        hint:
          `Supported languages: ${supportedLanguageNames().join(", ")}. Check the project folder, or ` +
          `whether its files are ignored by git.`,
        data: { root: platform.fs.rootLabel, languages: supportedLanguageNames() },
      },
    );
  }
  if (s.graph.cache?.snapshot !== snapshot) {
    const previous = s.graph.cache;
    const built = buildOrPatch(s, snapshot, records, previous);
    s.graph.cache = { snapshot, built };
    // A graph that could not be built is not kept: the next call builds again, from the last good one.
    built.catch(() => {
      if (s.graph.cache?.built === built) s.graph.cache = previous;
    });
  }
  return s.graph.cache.built;
}

/**
 * The graph of `snapshot`: after an edit the previous graph can often be updated instead of
 * rebuilt (the same files and configuration, and a few records changed in ways no other file can
 * see); otherwise built afresh, once the heap has room for it.
 */
async function buildOrPatch(
  s: EngineState,
  snapshot: Snapshot,
  records: FileRecord[],
  previous: EngineState["graph"]["cache"],
): Promise<BuiltGraph> {
  const inputs = snapshotInputs(s.platform.fs, snapshot);
  const paths = snapshot.files.map((f) => f.path);
  const configs = new Map<string, string>();
  for (const f of snapshot.files) {
    if (!CONFIG_FILE.test(f.path)) continue;
    try {
      configs.set(f.path, await inputs.text(f.path));
    } catch {
      // unreadable config: resolution falls back to plain relative paths
    }
  }
  inputs.check();
  const prior = previous ? await previous.built.catch(() => undefined) : undefined;
  const updated =
    prior && samePaths(prior.paths, paths) && sameConfigs(prior.configs, configs)
      ? updateGraph(prior.graph, records)
      : undefined;
  if (updated) return { graph: updated, snapshot, paths, configs };
  const symbols = records.reduce((n, r) => n + r.definitions.length, 0);
  ensureHeadroom(
    s.platform.memory,
    symbols * HEAP_PER_SYMBOL.graph,
    `the code graph of ${symbols.toLocaleString("en-US")} symbols`,
  );
  const host = hostOf(s);
  const identity =
    s.options.buildId !== undefined
      ? await derivedIdentity(`${s.options.buildId}\u0000${hostKey(host)}`, snapshot, configs)
      : undefined;
  const loaded = identity ? await loadDerived(s, identity, snapshot, records, paths, configs) : undefined;
  if (loaded) return { graph: loaded, snapshot, paths, configs };
  const keep = identity ? (g: CodeGraph) => keepDerivedSoon(s, snapshot, g, identity) : undefined;
  // An engine for one answer resolves the calls it reads (a `locate` reads few); one that lives on
  // (`watch`: servers, editors) resolves them all at once, as answers after the first expect.
  const deferCalls = s.options.watch !== true;
  const graph = buildGraph(records, paths, configs, {
    deferCalls,
    ...(keep ? { onResolved: keep } : {}),
    ...(host ? { host } : {}),
  });
  keep?.(graph);
  return { graph, snapshot, paths, configs };
}

/** The host environment the engine resolves with: its option's, else its platform's. */
export function hostOf(s: EngineState): HostEnvironment | undefined {
  return s.options.host ?? s.platform.host;
}

/** The host's globals as one line of text, for the identity of what a build derives (the edges depend on them). */
function hostKey(host: HostEnvironment | undefined): string {
  const globals = Object.entries(host?.globals ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return globals.map(([id, names]) => `${id}=${[...names].sort().join(",")}`).join(";");
}

/**
 * The graph of `records` from the edges and search index kept for `identity`, with that index
 * made the engine's; undefined when none is kept, or what is kept does not fit (then it is built).
 */
async function loadDerived(
  s: EngineState,
  identity: string,
  snapshot: Snapshot,
  records: FileRecord[],
  paths: string[],
  configs: Map<string, string>,
): Promise<CodeGraph | undefined> {
  const derived = decodeDerived(await s.platform.store.get(DERIVED_KEY).catch(() => undefined), identity);
  if (!derived) return undefined;
  try {
    const host = hostOf(s);
    // (kept before the calls were resolved: kept again, whole, once an answer resolves them)
    const onResolved = (g: CodeGraph) => keepDerivedSoon(s, snapshot, g, identity);
    const graph = graphFromEdges(records, paths, configs, derived.edges, {
      onResolved,
      ...(host ? { host } : {}),
    });
    if (!edgesFit(derived.edges, graph.symbols.length, records)) return undefined;
    if (s.options.watch === true) resolveDeferred(graph); // (kept early by an engine for one answer)
    s.graph.saved = { graph, search: derived.search, snapshot, identity };
    return graph;
  } catch {
    return undefined; // a value that passed its seal but does not make a graph: build afresh
  }
}

/**
 * Keeps what `graph` derives (its edges, and its search index if an answer built one) in the cache
 * once no engine call is in flight, so the answer never waits for it; dropped when another
 * snapshot's graph has replaced it by then. A failed write only costs the next engine a build. An
 * index is not built only to be kept: the first call that needs one builds it and keeps it again.
 */
function keepDerivedSoon(s: EngineState, snapshot: Snapshot, graph: CodeGraph, identity: string): void {
  if (s.graph.keeping !== undefined) clearTimeout(s.graph.keeping);
  const fire = async () => {
    s.graph.keeping = undefined;
    if (s.passes.calls > 0 || s.passes.running) {
      s.graph.keeping = setTimeout(fire, KEEP_RETRY_MS);
      return;
    }
    const current = await s.graph.cache?.built.catch(() => undefined);
    if (current?.graph !== graph || current.snapshot !== snapshot) return;
    // (an index loaded with the graph and not used yet is kept as it was loaded)
    const search =
      s.graph.search?.graph === graph
        ? saveSearchIndex(s.graph.search)
        : s.graph.saved?.graph === graph
          ? s.graph.saved.search
          : undefined;
    const bytes = encodeDerived(identity, { edges: edgesOf(graph), search });
    if (!bytes) return;
    // keep, not set: a cache folder that refuses writes drops it without a word (it is rebuilt)
    const { store } = s.platform;
    await (store.keep ? store.keep(DERIVED_KEY, bytes) : store.set(DERIVED_KEY, bytes)).catch((error) =>
      s.platform.logger?.log("warn", `the derived index could not be kept: ${(error as Error).message}`),
    );
  };
  s.graph.keeping = setTimeout(fire, 0);
}

/** How long a derived write waits for the engine calls in flight to end before it looks again. */
const KEEP_RETRY_MS = 50;

/** Cancels a derived write not started yet (the engine is closing). */
export function stopKeeping(s: EngineState): void {
  if (s.graph.keeping !== undefined) clearTimeout(s.graph.keeping);
  s.graph.keeping = undefined;
}

/** The code graph, checked against the inputs it was built from (see `consistent`). */
export function codeGraph(s: EngineState, run: RunOptions = {}): Promise<CodeGraph> {
  return consistent(s, run, async () => (await graphOf(s, run)).graph);
}

/** The routes of a graph, found once per graph. */
export function routesOf(s: EngineState, graph: CodeGraph): Route[] {
  return s.graph.routes.get(graph) ?? s.graph.routes.set(graph, findRoutes(graph)).get(graph)!;
}

/** The search index of a graph: the engine's one index, updated with the files that changed. */
export function searchIndexOf(s: EngineState, graph: CodeGraph): SearchIndex {
  if (s.graph.search?.graph === graph) return s.graph.search;
  const saved = s.graph.saved;
  s.graph.saved = undefined;
  if (saved?.graph === graph) {
    const loaded = saved.search && loadSearchIndex(graph, saved.search);
    if (loaded) return (s.graph.search = loaded);
    keepDerivedSoon(s, saved.snapshot, graph, saved.identity); // not kept, or damaged: built below, and kept
  }
  if (!s.graph.search)
    ensureHeadroom(
      s.platform.memory,
      graph.symbols.length * HEAP_PER_SYMBOL.search,
      `the search index of ${graph.symbols.length.toLocaleString("en-US")} symbols`,
    );
  return (s.graph.search = updateSearchIndex(s.graph.search, graph));
}

/** The previous graph patched with the records that changed, or undefined when it must be rebuilt. */
function updateGraph(prior: CodeGraph, records: FileRecord[]): CodeGraph | undefined {
  try {
    return patchGraph(
      prior,
      records.filter((r) => prior.records.get(r.path) !== r),
    );
  } catch {
    return undefined; // a patch that fails leaves the previous graph as it was: build afresh
  }
}

function samePaths(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((p, i) => p === b[i]);
}

function sameConfigs(a: Map<string, string>, b: Map<string, string>): boolean {
  if (a.size !== b.size) return false;
  for (const [k, v] of a) if (b.get(k) !== v) return false;
  return true;
}

/** Forgets the graph and the search index (the index they came from was replaced). */
export function dropGraph(s: EngineState): void {
  s.graph.cache = undefined;
  s.graph.search = undefined;
  s.graph.saved = undefined;
}
