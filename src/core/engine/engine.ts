/** createEngine: the one object front ends talk to. The only core code that calls the ports. */
import type { Platform } from "../ports.ts";
import { languageById } from "../../languages/index.ts";
import { toGoldGraph } from "../query/gold-json.ts";
import { calls, importers, signature } from "../query/queries.ts";
import { bindIndexVersion, listArgs, pageCalls, pageImporters } from "../query/pages.ts";
import { checkDirection, checkImpactDepth, impact } from "../query/impact.ts";
import { findSymbol, symbolRef } from "../query/lookup.ts";
import { DEFAULT_TASK_SEEDS } from "../slice/context.ts";
import { routeMapAnswer } from "../slice/route-map.ts";
import { contractsOf } from "../slice/contracts.ts";
import type { IndexResult } from "./indexer.ts";
import { createEngineState, type EngineState } from "./state.ts";
import { useHostCrc32 } from "../../shared/crc32.ts";
import { callEnded, callStarted, loadAll, markDirty, reindex, repairRecords, saveNow, stopWatching } from "./passes.ts";
import { isDamagedRecord } from "./snapshot.ts";
import { codeGraph, routesOf, stopKeeping } from "./graph-cache.ts";
import { refresh } from "./refresh.ts";
import { answerShapeCheck, answerShapeReads, answerToolMap } from "./answers.ts";
import {
  answerCheck,
  answerRunTests,
  answerChanges,
  answerContext,
  answerSearch,
  answerLocate,
  answerMap,
  answerSnippet,
  answerTests,
  answerTrace,
} from "./answers.ts";
import { answerScip, exportIndex, importIndex } from "./portable.ts";
import { answerGrep } from "./grep.ts";
import { loadGitIndex } from "../git/worktree.ts";
import { normalizeRelative } from "../../shared/paths.ts";
import { applyPlan } from "../rename/apply.ts";
import { answerRename, forgetPlan, loadPlan } from "./rename.ts";
import { answerDataflowQuestion } from "./dataflow.ts";
import { skippedTargetError } from "./skipped-target.ts";
import { mermaidMap } from "../map/mermaid.ts";
import { loadTokenCounter as loadCounter } from "../budget/tokenizer.ts";
import { EngineError } from "../../shared/errors.ts";
import { runQuery } from "../query-language/query.ts";
import { answerClusters, answerFlows } from "../query-language/structure.ts";

export { supportedLanguageNames } from "./graph-cache.ts";

import type { Engine, EngineOptions, IndexSummary } from "./api.ts";
export type {
  Engine,
  EngineOptions,
  IndexSummary,
  RefreshOptions,
  RefreshResult,
  RunOptions,
  SnippetAnswer,
} from "./api.ts";
export { MAX_SNIPPET_LINES } from "./api.ts";

/** Creates an engine over one platform (file system, store, wasm). */
export function createEngine(platform: Platform, options: EngineOptions = {}): Engine {
  if (platform.crc32) useHostCrc32(platform.crc32);
  // The shared state and the modules that work on it: passes.ts (index passes, watchers, records),
  // graph-cache.ts (the graph and what derives from it), consistent.ts (hash-checked reads),
  // refresh.ts, and answers.ts (the answers that read files).
  const s = createEngineState(platform, options);
  return counted(s, {
    refresh: (run) => refresh(s, run),
    close() {
      stopWatching(s);
      stopKeeping(s);
      void saveNow(s); // a snapshot kept for after the answer is written now
    },
    context(target, opts = {}) {
      return answerContext(s, target, opts);
    },
    pack(task, opts = {}) {
      return answerContext(s, task, opts, { maxSeeds: opts.seeds ?? DEFAULT_TASK_SEEDS });
    },
    locate(task, opts = {}) {
      return answerLocate(s, task, opts);
    },
    search(query, opts = {}) {
      return answerSearch(s, query, opts);
    },
    grep(pattern, opts = {}) {
      return answerGrep(s, pattern, opts);
    },
    snippet(path, start, end, opts = {}) {
      return answerSnippet(s, path, start, end, opts);
    },
    async routes(opts = {}) {
      return routesOf(s, await codeGraph(s, opts));
    },
    async routeMap(opts = {}) {
      const graph = await codeGraph(s, opts);
      return routeMapAnswer(graph, routesOf(s, graph), opts);
    },
    shapeCheck: (target, opts = {}) => answerShapeCheck(s, target, opts),
    shapeReads: (sites, typed, opts = {}) => answerShapeReads(s, sites, typed, opts),
    toolMap: (opts = {}) => answerToolMap(s, opts),
    async contracts(opts = {}) {
      const graph = await codeGraph(s, opts);
      return contractsOf(graph, routesOf(s, graph));
    },
    async index(run = {}) {
      const result = await reindex(s, run);
      return summarize(platform, result);
    },
    async records(run = {}) {
      return (await loadAll(s, run)).records;
    },
    codeGraph: (run) => codeGraph(s, run),
    async callers(symbol, opts = {}) {
      const args = await listArgs(opts);
      const graph = await codeGraph(s, opts);
      return pageCalls(
        graph,
        calls(graph, symbol, "callers", args.depth, routesOf(s, graph)),
        bindIndexVersion(args, graph),
      );
    },
    async callees(symbol, opts = {}) {
      const args = await listArgs(opts);
      const graph = await codeGraph(s, opts);
      return pageCalls(
        graph,
        calls(graph, symbol, "callees", args.depth, routesOf(s, graph)),
        bindIndexVersion(args, graph),
      );
    },
    async importers(path, opts = {}) {
      const args = await listArgs(opts);
      const graph = await codeGraph(s, opts);
      return pageImporters(
        graph,
        importers(graph, path, args.depth, platform.fs.rootLabel),
        bindIndexVersion(args, graph),
      );
    },
    tests(target, opts = {}) {
      return answerTests(s, target, opts);
    },
    runTests: (target, opts = {}) => answerRunTests(s, target, opts),
    check: (opts = {}) => answerCheck(s, opts),
    trace(fromArg, toArg, opts = {}) {
      return answerTrace(s, fromArg, toArg, opts);
    },
    ...graphAnswers(s, platform),
    map(opts = {}) {
      return answerMap(s, opts);
    },
    changes(opts = {}) {
      return answerChanges(s, opts);
    },
    exportIndex: (run = {}) => exportIndex(s, run),
    importIndex: (bytes) => importIndex(s, bytes),
    scip: (opts = {}) => answerScip(s, opts),
    rename: (symbol, newName, opts = {}) => answerRename(s, symbol, newName, opts),
    dataflow: (target, opts = {}) => answerDataflowQuestion(s, target, opts),
    async applyRename(token, files, opts = {}) {
      const plan = await loadPlan(s, token.trim(), opts.newName);
      const report = await applyPlan(plan, files, opts);
      await forgetPlan(s, plan.planToken);
      markDirty(s); // the files changed under the index: the next refresh re-scans
      return report;
    },
    async isProjectFile(path, run = {}) {
      const rel = normalizeRelative(path);
      if (rel === undefined || rel === "") return false;
      if (!s.passes.index) await reindex(s, run);
      if (s.passes.index!.snapshot.files.some((f) => f.path === rel && f.language !== undefined)) return true;
      return (await loadGitIndex(platform.fs, undefined)).entries.has(rel);
    },
  });
}

/**
 * `engine` with every method but `close` counted while it runs (passes.ts writes a snapshot kept
 * for after the answer only when no call is in flight, so the write never lands inside one), and a
 * target that names a file the index skipped reported as such (skipped-target.ts). A call that met
 * a record whose calls or bindings did not read back (snapshot.ts `isDamagedRecord`: they are
 * checked when first read) has those records made again from their files and runs once more.
 */
function counted(s: EngineState, engine: Engine): Engine {
  const methods = engine as unknown as Record<string, unknown>;
  for (const [name, fn] of Object.entries(methods)) {
    if (typeof fn !== "function" || name === "close") continue;
    methods[name] = (...args: unknown[]) => {
      callStarted(s);
      let result: unknown;
      try {
        result = (fn as (...a: unknown[]) => unknown)(...args);
      } catch (error) {
        callEnded(s);
        throw skippedTargetError(s, name, args, error);
      }
      if (!(result instanceof Promise)) {
        callEnded(s);
        return result;
      }
      return result
        .catch(async (error: unknown) => {
          if (!isDamagedRecord(error)) throw error;
          await repairRecords(s, error.data.paths ?? []);
          return (fn as (...a: unknown[]) => unknown)(...args);
        })
        .catch((error: unknown) => {
          throw skippedTargetError(s, name, args, error);
        })
        .finally(() => callEnded(s));
    };
  }
  return engine;
}

/** The engine's answers that read the graph alone: impact, signature, the query language and the maps. */
function graphAnswers(
  s: EngineState,
  platform: Platform,
): Pick<Engine, "impact" | "signature" | "query" | "flows" | "clusters" | "mermaidMap" | "resolveSymbol" | "graph"> {
  return {
    async impact(target, opts = {}) {
      const args = await listArgs(opts);
      // a cursor carries the direction it was made with
      const direction = checkDirection(opts.direction ?? args.direction);
      const depth = checkImpactDepth(args.depth);
      const graph = await codeGraph(s, opts);
      return impact(graph, target, direction, depth, bindIndexVersion(args, graph), {
        root: platform.fs.rootLabel,
        routes: () => routesOf(s, graph),
      });
    },
    async signature(symbol, opts = {}) {
      return signature(await codeGraph(s, opts), symbol);
    },
    async query(text, opts = {}) {
      const graph = await codeGraph(s, opts);
      return runQuery(graph, routesOf(s, graph), text, opts);
    },
    async flows(opts = {}) {
      const graph = await codeGraph(s, opts);
      return answerFlows(graph, routesOf(s, graph), opts);
    },
    async clusters(opts = {}) {
      const graph = await codeGraph(s, opts);
      return answerClusters(graph, routesOf(s, graph), opts);
    },
    async mermaidMap(opts = {}) {
      const budget = opts.budget ?? 2000;
      if (!Number.isInteger(budget) || budget < 200)
        throw new EngineError("invalid_argument", `budget must be a whole number ≥ 200, got ${String(opts.budget)}.`, {
          hint: "Give a budget of at least 200 tokens.",
          data: { budget: opts.budget, min: 200 },
        });
      const graph = await codeGraph(s, opts);
      return mermaidMap(graph, routesOf(s, graph), budget, await loadCounter("o200k_base"));
    },
    async resolveSymbol(symbol, opts = {}) {
      return symbolRef(findSymbol(await codeGraph(s, opts), symbol));
    },
    async graph(run = {}) {
      return toGoldGraph(await codeGraph(s, run), run.minConfidence ?? 0);
    },
  };
}

function summarize(platform: Platform, result: IndexResult): IndexSummary {
  const { snapshot } = result;
  const byLanguage: IndexSummary["byLanguage"] = {};
  let symbols = 0;
  let sourceFiles = 0;
  const syntaxErrors: IndexSummary["syntaxErrors"] = [];
  for (const f of snapshot.files) {
    if (!f.language) continue;
    sourceFiles++;
    const name = languageById(f.language)?.name ?? f.language;
    const entry = (byLanguage[name] ??= { files: 0, symbols: 0 });
    entry.files++;
    entry.symbols += f.definitions ?? 0;
    symbols += f.definitions ?? 0;
    if (f.diagnostics) syntaxErrors.push({ path: f.path, count: f.diagnostics });
  }
  const skippedByReason: IndexSummary["skippedByReason"] = {};
  for (const s of snapshot.skipped) skippedByReason[s.reason] = (skippedByReason[s.reason] ?? 0) + 1;
  return {
    root: platform.fs.rootLabel,
    store: platform.store.label,
    scanMode: snapshot.scanMode,
    files: snapshot.files.length,
    sourceFiles,
    parsed: result.parsed.length,
    reused: result.reused,
    removed: result.removed,
    repaired: result.repaired,
    symbols,
    byLanguage,
    skipped: snapshot.skipped,
    skippedByReason,
    syntaxErrors,
    durationMs: result.durationMs,
  };
}
