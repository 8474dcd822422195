/**
 * The engine's answers that need more than the code graph: those that read files (context, pack,
 * snippet, the map, tests, trace, changes), each through the snapshot's inputs where the file's
 * hash can be checked.
 */
import { EngineError } from "../../shared/errors.ts";
import { findFile } from "../../shared/locations.ts";
import { cite, normalizeRelative, readQuotedPath } from "../../shared/paths.ts";
import type { ChangesAnswer } from "../changes/answer.ts";
import { findTests, testsDepth, type TestsAnswer } from "../evidence/tests.ts";
import { runTests, type RunTestsAnswer, type RunTestsOptions } from "../evidence/run-tests.ts";
import { runCheck, type CheckAnswer } from "../check/check.ts";
import { loadCheckConfig, parseCheckConfig } from "../check/config.ts";
import { loadTokenCounter } from "../budget/tokenizer.ts";
import { findSymbol } from "../query/lookup.ts";
import type { CodeGraph, SymbolNode } from "../graph/model.ts";
import { bindIndexVersion, listArgs, type ListOptions } from "../query/pages.ts";
import { trace, traceLimits, type TraceAnswer } from "../query/trace.ts";
import { LIMITS } from "../limits.ts";
import { buildRepoMap, isManifest, type RepoMap, type RepoMapOptions } from "../map/repo-map.ts";
import { DEFAULT_MAX_FILE_BYTES } from "../scan/scan.ts";
import { buildContext, type ContextAnswer, type ContextIO, type ContextOptions } from "../slice/context.ts";
import { closestRoutes, ROUTE, routesNamed, severalRoutes } from "../query/route-calls.ts";
import type { Route } from "../query/routes.ts";
import { findTools, toolMapAnswer, type ToolMapAnswer, type ToolMapOptions } from "../map/tool-map.ts";
import {
  shapeCheck,
  shapeReadsAt,
  type FieldRead,
  type ShapeAnswer,
  type ShapeOptions,
  type ShapeSite,
} from "../slice/shape-check.ts";
import type { ModelNode } from "../slice/shape-fields.ts";
import { runChanges, type ChangesOptions } from "./changes.ts";
import { buildLocate, type LocateAnswer, type LocateOptions } from "../locate/locate.ts";
import { consistent } from "./consistent.ts";
import type { RunOptions, SnippetAnswer } from "./api.ts";
import { codeGraph, graphOf, routesOf, searchIndexOf } from "./graph-cache.ts";
import type { Inputs } from "./inputs.ts";
import { reindex } from "./passes.ts";
import type { EngineState } from "./state.ts";
import {
  documentFrequency,
  inverseFrequency,
  searchSymbols,
  type SearchHit,
  type SearchIndex,
} from "../search/search.ts";
import { searchText, textFrequency, textTerms, type TextHit, type TextIndex } from "../text/text-index.ts";
import { queryTerms } from "../extract/words.ts";
import { textIndexOf } from "./text.ts";
import { mayPointAtText } from "../slice/text-seeds.ts";
import { defined } from "../../shared/defined.ts";
import { quoted } from "../../shared/quote.ts";

/**
 * What the slicer may read and ask for: files through the snapshot's inputs, the search index, the routes, the text
 * index.
 */
function contextIO(s: EngineState, graph: CodeGraph, inputs: Inputs): ContextIO {
  return {
    root: s.platform.fs.rootLabel,
    readText: (path) => inputs.text(path),
    searchIndex: () => searchIndexOf(s, graph),
    routes: () => routesOf(s, graph),
    textIndex: () => textIndexOf(s, inputs),
  };
}

/** A text chunk as a search hit: its handle is the name, its heading or key the signature. */
function textSearchHit(h: TextHit): SearchHit {
  const c = h.chunk;
  const signature =
    c.kind === "markdown"
      ? `${"#".repeat(Math.max(1, c.depth))} ${c.name || c.path}`
      : c.kind === "env"
        ? `${c.name}=`
        : c.name || c.path;
  return {
    qualified: h.handle,
    kind: c.kind === "markdown" ? "section" : c.name === "" ? c.kind : `${c.kind} key`,
    path: c.path,
    line: c.start,
    end: c.end,
    signature,
    score: h.score,
    matched: h.matched,
  };
}

/**
 * A word's inverse document frequency over the definitions and the text chunks together. Each index
 * alone gives its own: a word every test's body holds (`pytester`) is common among definitions and
 * rare among doc sections, so a section holding it in its prose outscored the method named by the
 * whole query (`Pytester.path`) three to one. Weighed alike in both, the two scores compare.
 */
function sharedFrequency(code: SearchIndex, text: TextIndex): (word: string) => number {
  return (word) => {
    const a = documentFrequency(code, word);
    const b = textFrequency(text, word);
    if (a.n === 0 || b.n === 0) return inverseFrequency(a.n + b.n, a.df + b.df);
    // A word as common as it is in the collection where it is commonest: prose words (`expected`,
    // `reproduce`) are rare in code but everywhere in doc sections and issue templates, and summing
    // the two counts let a long report's prose lift those sections over the code it names.
    return Math.min(inverseFrequency(a.n, a.df), inverseFrequency(b.n, b.df));
  };
}

/**
 * `Engine.search`: definitions and text chunks (doc sections, configuration keys) by words, in one
 * ranking. Both scores are BM25 over like fields (name, path, body) with each word weighed over both
 * collections (sharedFrequency), so they compare; a project with text but no source still answers from its text.
 */
export function answerSearch(
  s: EngineState,
  query: string,
  opts: RunOptions & { limit?: number },
): Promise<SearchHit[]> {
  const limit = opts.limit ?? LIMITS.searchResults.default;
  return consistent(s, opts, async (read) => {
    const { graph, snapshot } = await graphOf(s, opts);
    const codeIndex = searchIndexOf(s, graph);
    const text = await textIndexOf(s, read(snapshot));
    const idf = sharedFrequency(codeIndex, text);
    // The code search scales its own weighting; the ratio moves it onto the shared one.
    const ratio = new Map(
      queryTerms(query.slice(0, 2000), 32).map((t) => {
        const own = documentFrequency(codeIndex, t);
        return [t, idf(t) / inverseFrequency(own.n, own.df)];
      }),
    );
    const code = searchSymbols(codeIndex, query, limit, ratio);
    const merged = [...code, ...searchText(text, query, limit, textTerms(query), idf).map(textSearchHit)];
    merged.sort((a, b) => b.score - a.score);
    return merged.slice(0, limit);
  });
}

/** `context` (no task) and `pack` (a task seeds the slice from search hits). */
export function answerContext(
  s: EngineState,
  target: string,
  opts: ContextOptions & RunOptions,
  task?: Parameters<typeof buildContext>[4],
): Promise<ContextAnswer> {
  return consistent(s, opts, async (read) => {
    const { graph, snapshot } = await graphOf(s, opts);
    return buildContext(graph, target, opts, contextIO(s, graph, read(snapshot)), task);
  });
}

/** `locate`: files and symbols for a task, reading quoted messages through the snapshot's inputs. */
export function answerLocate(s: EngineState, task: string, opts: LocateOptions & RunOptions): Promise<LocateAnswer> {
  return consistent(s, opts, async (read) => {
    const { graph, snapshot } = await graphOf(s, opts);
    const inputs = read(snapshot);
    const textIndex = mayPointAtText(task) ? await textIndexOf(s, inputs) : undefined;
    return buildLocate(graph, searchIndexOf(s, graph), task, opts, {
      root: s.platform.fs.rootLabel,
      readText: (path) => inputs.text(path),
      ...(textIndex ? { textIndex } : {}),
    });
  });
}

/** `Engine.snippet`: lines of a file in the inventory, read through its hash check. */
export async function answerSnippet(
  s: EngineState,
  pathArg: string,
  start: number,
  end: number,
  opts: RunOptions & { maxLines?: number },
): Promise<SnippetAnswer> {
  const maxLines = opts.maxLines ?? LIMITS.snippetLines;
  if (!Number.isInteger(start) || !Number.isInteger(end) || start < 1 || end < start) {
    throw new EngineError(
      "invalid_argument",
      `Lines must be whole numbers with 1 ≤ start ≤ end, got ${start}-${end}.`,
      { data: { start, end } },
    );
  }
  let decoded = pathArg;
  try {
    decoded = decodeURIComponent(pathArg);
  } catch {
    // not URL-encoded
  }
  if (!s.passes.index) await reindex(s, opts);
  return consistent(s, opts, async (read) => {
    const snapshot = s.passes.index!.snapshot;
    const inventory = new Set(snapshot.files.map((f) => f.path));
    // An exact inventory path (quoted when its name needed it), or one written relative to the
    // root or absolute inside it; never a suffix guess, never a path that climbs out.
    const written = readQuotedPath(pathArg.trim())?.path ?? pathArg.trim();
    const found = findFile({ has: (p) => inventory.has(p), paths: () => inventory }, written, s.platform.fs.rootLabel, {
      bySuffix: false,
    });
    const path = found?.path ?? normalizeRelative(written);
    if (path === undefined || path === "" || (!found && normalizeRelative(decoded.trim()) === undefined)) {
      throw new EngineError("outside_root", `${quoted(pathArg)} is not a path inside the project.`, {
        hint: "Paths are relative to the project root (or absolute inside it); .. out of it is refused.",
        data: { path: pathArg },
      });
    }
    if (!inventory.has(path)) {
      throw new EngineError("not_found", `${path} is not a project file in the index (missing, ignored, or skipped).`, {
        hint: "Use a path from the map or from a context header.",
        data: { path },
      });
    }
    const inputs = read(snapshot);
    const lines = (await inputs.text(path)).split("\n");
    inputs.check();
    const total = lines.length;
    if (start > total) {
      throw new EngineError("invalid_argument", `${path} has ${total} lines; start ${start} is past the end.`, {
        data: { path, totalLines: total },
      });
    }
    const last = Math.min(end, total, start + maxLines - 1);
    return {
      path,
      start,
      end: last,
      totalLines: total,
      capped: last < end,
      text: lines.slice(start - 1, last).join("\n"),
    };
  });
}

/** A file's text as it is now, or undefined when it cannot be read (gone since the index). */
function readNow(s: EngineState): (path: string) => Promise<string | undefined> {
  return async (path) => {
    try {
      return new TextDecoder().decode(await s.platform.fs.readFile(path));
    } catch {
      return undefined;
    }
  };
}

/** `Engine.shapeCheck`: files read as they are now (an unreadable one has no reads). */
export async function answerShapeCheck(
  s: EngineState,
  target: string,
  opts: RunOptions & ShapeOptions,
): Promise<ShapeAnswer> {
  const graph = await codeGraph(s, opts);
  const read = readNow(s);
  return shapeCheck(graph, routesOf(s, graph), target, async (p) => (await read(p)) ?? "", opts);
}

/**
 * `Engine.shapeReads`: the reads of model trees at this project's call sites and typed parameters, files read as they
 * are now.
 */
export async function answerShapeReads(
  s: EngineState,
  sites: readonly ShapeSite[],
  typed: readonly ModelNode[],
  opts: RunOptions,
): Promise<FieldRead[]> {
  const graph = await codeGraph(s, opts);
  const read = readNow(s);
  return shapeReadsAt(graph, sites, typed, async (p) => (await read(p)) ?? "");
}

/** `Engine.toolMap`: registrations read as the files are now. */
export async function answerToolMap(s: EngineState, opts: RunOptions & ToolMapOptions): Promise<ToolMapAnswer> {
  const graph = await codeGraph(s, opts);
  const read = readNow(s);
  return toolMapAnswer(await findTools(graph, async (p) => (await read(p)) ?? ""), opts);
}

/** `Engine.tests`: the target is a file when one matches exactly, else a symbol; tests only unless asked. */
export async function answerTests(
  s: EngineState,
  target: string,
  opts: RunOptions & ListOptions & { depth?: number },
): Promise<TestsAnswer> {
  const args = await listArgs({
    ...opts,
    ...(opts.tests === undefined && opts.cursor === undefined ? { tests: "only" as const } : {}),
  });
  const depth = testsDepth(args.depth);
  const graph = await codeGraph(s, opts);
  const written = readQuotedPath(target.trim())?.path ?? target.trim();
  const file = findFile(
    { has: (p) => graph.moduleSymbol.has(p), paths: () => graph.moduleSymbol.keys() },
    written,
    s.platform.fs.rootLabel,
    { bySuffix: false },
  );
  const resolved = file
    ? { file: file.path }
    : { symbol: routeHandler(graph, routesOf(s, graph), target.trim()) ?? findSymbol(graph, target) };
  // An unreadable file is skipped, as a file gone since the index.
  return findTests(
    graph,
    resolved,
    { ...bindIndexVersion(args, graph), depth },
    {
      paths: () => s.passes.index!.snapshot.files.map((f) => f.path),
      readText: readNow(s),
      routes: () => routesOf(s, graph),
    },
  );
}

/**
 * The handler of a target written `METHOD /path`, or undefined for any other target. A route with
 * an inline handler, or several routes with different handlers, cannot stand for one symbol.
 */
function routeHandler(graph: CodeGraph, routes: Route[], target: string): SymbolNode | undefined {
  const m = ROUTE.exec(target);
  if (!m) return undefined;
  const hits = closestRoutes(routesNamed(routes, m[1]!, m[2]!, target), m[2]!);
  const handlers = [...new Set(hits.flatMap((r) => (r.handler !== undefined ? [r.handler] : [])))];
  if (handlers.length === 1) return graph.symbols[handlers[0]!]!;
  if (handlers.length) throw severalRoutes(target, hits, "routes with different handlers");
  throw new EngineError(
    "invalid_argument",
    `${target} is handled inline (${hits.map((r) => cite(r.file, r.span.start, r.span.end)).join(", ")}): ` +
      `no symbol to find the tests of.`,
    { hint: "Ask for the tests of the file that registers it.", data: { target } },
  );
}

/**
 * `Engine.check`: the config given, or the one the project holds (codeslice.check.json, package.json,
 * pyproject.toml), run over the current graph. Files are read as they are now.
 */
export async function answerCheck(
  s: EngineState,
  opts: RunOptions & { config?: unknown; configLabel?: string },
): Promise<CheckAnswer> {
  const read = readNow(s);
  const label = { file: opts.configLabel ?? "(given)" };
  const { config, source } =
    opts.config !== undefined
      ? { config: parseCheckConfig(opts.config, label), source: label }
      : await loadCheckConfig(read);
  const graph = await codeGraph(s, opts);
  const sizes = new Map(s.passes.index!.snapshot.files.map((f) => [f.path, f.size]));
  return runCheck(graph, config, source, { sizes, readText: read });
}

/** `Engine.runTests`: the tests of `target` as `tests` finds them, run by the host's process runner. */
export async function answerRunTests(
  s: EngineState,
  target: string,
  opts: RunOptions & RunTestsOptions & { depth?: number },
): Promise<RunTestsAnswer> {
  const runner = s.platform.processes;
  if (!runner) {
    throw new EngineError(
      "run_refused",
      "This host cannot start processes (a browser): tests can only be run from the Node or Deno front ends.",
      { hint: "Run the commands the tests answer lists in a terminal.", data: { reason: "unsupported" } },
    );
  }
  const found = await answerTests(s, target, {
    ...defined({ depth: opts.depth }),
    ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
  return runTests(found, runner, opts, await loadTokenCounter("o200k_base"));
}

/** `Engine.trace`: a hop in a file gone since the index is cited without its line. */
export async function answerTrace(
  s: EngineState,
  fromArg: string,
  toArg: string,
  opts: RunOptions & Omit<ListOptions, "limit" | "cursor" | "tests"> & { k?: number; maxHops?: number },
): Promise<TraceAnswer> {
  const limits = traceLimits(opts.k, opts.maxHops);
  const args = await listArgs(opts);
  const graph = await codeGraph(s, opts);
  return trace(graph, fromArg, toArg, limits, args, { routes: () => routesOf(s, graph), readText: readNow(s) });
}

/** `Engine.map`: manifests read through the snapshot's inputs (an unreadable one still marks a service folder). */
export function answerMap(s: EngineState, opts: RepoMapOptions & RunOptions): Promise<RepoMap> {
  return consistent(s, opts, async (read) => {
    const { graph, snapshot } = await graphOf(s, opts);
    const inputs = read(snapshot);
    const manifests = new Map<string, string>();
    for (const f of snapshot.files) {
      if (!isManifest(f.path)) continue;
      try {
        manifests.set(f.path, await inputs.text(f.path));
      } catch {
        manifests.set(f.path, "");
      }
    }
    inputs.check();
    return buildRepoMap(snapshot.files, graph, manifests, routesOf(s, graph), opts);
  });
}

/** `Engine.changes`: read through the snapshot's inputs, so a cited file edited since indexing is re-indexed first. */
export function answerChanges(s: EngineState, opts: ChangesOptions & RunOptions): Promise<ChangesAnswer> {
  return consistent(s, opts, async (read) => {
    const { graph, snapshot } = await graphOf(s, opts);
    const inputs = read(snapshot);
    return runChanges(
      {
        platform: s.platform,
        graph,
        snapshot,
        routes: routesOf(s, graph),
        maxFileBytes: s.options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
        readText: (path) => inputs.text(path),
        git: s.git,
        ...(opts.signal ? { signal: opts.signal } : {}),
      },
      opts,
    );
  });
}
