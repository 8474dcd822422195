#!/usr/bin/env node
// Scale benchmark: memory and time on a tree several times django's size, in three languages.
//
// The corpus is assembled from code anyone here has, as a plain folder (no git, so the walker and
// its ignore rules do the scan):
//   django/    Debian's python3-django                      (apt-get install -y python3-django)
//   stdlib/    Debian's Python standard library, /usr/lib/python3.X
//   js/        this repository's node_modules (pinned by package-lock.json: JS, TS and .d.ts)
// Measures, median of N runs (default 3):
//   * cold `codeslice index` (fresh cache): wall, peak RSS, files, symbols (CLI child process)
//   * warm `codeslice graph --json` (records from the cache, graph built): wall, peak RSS
//   * in-process, after a forced GC: heap used by the records after a cold index, and what building
//     the code graph adds on top (the long-lived memory of an MCP server on this tree)
//   * in-process: graph and search index build times, then after a one-line edit inside a function
//     body of one file (as an agent edits between questions): refresh, graph (patched) and search
//
// Rerun: node scripts/build.mjs && npm run bench -- scale [-- --runs 3 --keep]
// Output: a markdown table on stdout and test/bench/results/scale.json.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import {
  DJANGO_SOURCE,
  codesliceRevision,
  copyWithoutPycache,
  debianVersion,
  ensureBuilt,
  fmt,
  machine,
  mdTable,
  packageRoot,
  parseArgs,
  repoRoot,
  resultsDir,
  runCli,
  stats,
  writeJson,
} from "./lib/bench-utils.mjs";

const { flags } = parseArgs(process.argv.slice(2), ["keep", "help", "heap-probe"]);
if (flags.help) {
  console.log("usage: node test/bench/scale-bench.mjs [--runs N] [--keep]");
  process.exit(0);
}

// Child mode: one cold in-process index + graph, heap after a forced GC at each step, as JSON.
if (flags["heap-probe"]) {
  const { createEngine } = await import(pathToFileURL(path.join(packageRoot, "dist/index.js")).href);
  const { createNodePlatform } = await import(
    pathToFileURL(path.join(packageRoot, "dist/platform/node/index.js")).href
  );
  const heap = () => (globalThis.gc(), globalThis.gc(), process.memoryUsage().heapUsed / 1048576);
  const base = heap();
  const engine = createEngine(await createNodePlatform({ root: flags.root, cacheDir: flags["cache-dir"] }));
  let t0 = performance.now();
  await engine.index();
  const indexMs = performance.now() - t0;
  const afterIndex = heap();
  t0 = performance.now();
  const graph = await engine.codeGraph();
  const graphMs = performance.now() - t0;
  const afterGraph = heap();
  t0 = performance.now();
  await engine.search("query compiler");
  const searchBuildMs = performance.now() - t0;
  // A one-line edit inside a function body of one file, as an agent makes between two questions.
  const fs = await import("node:fs");
  const edited = path.join(flags.root, "django/db/models/sql/query.py");
  const original = fs.readFileSync(edited, "utf8");
  fs.writeFileSync(edited, original.replace(/(\n    def [^\n]*:\n)/, "$1        pass\n"));
  t0 = performance.now();
  await engine.refresh();
  const refreshMs = performance.now() - t0;
  t0 = performance.now();
  const patched = await engine.codeGraph();
  const graphAfterEditMs = performance.now() - t0;
  t0 = performance.now();
  await engine.search("query compiler");
  const searchAfterEditMs = performance.now() - t0;
  fs.writeFileSync(edited, original);
  console.log(
    JSON.stringify({
      indexMs,
      graphMs,
      recordsHeapMb: afterIndex - base,
      graphHeapMb: afterGraph - afterIndex,
      symbols: graph.symbols.length,
      calls: graph.calls.length,
      ambiguous: graph.ambiguous.length,
      searchBuildMs,
      refreshMs,
      graphAfterEditMs,
      searchAfterEditMs,
      patched: patched.symbols === graph.symbols,
    }),
  );
  engine.close();
  process.exit(0);
}

const RUNS = Number(flags.runs ?? 3);
if (!Number.isInteger(RUNS) || RUNS < 1) {
  console.error("--runs wants a positive integer");
  process.exit(2);
}
ensureBuilt();

const stdlib = path.dirname(
  execFileSync("python3", ["-c", "import os; print(os.__file__)"], { encoding: "utf8" }).trim(),
);
const debianStdlib = fs.existsSync("/usr/lib/python3.11") ? "/usr/lib/python3.11" : stdlib;
const nodeModules = fs.realpathSync.native(path.join(repoRoot, "node_modules"));
for (const [what, dir, fix] of [
  ["django", DJANGO_SOURCE, "apt-get install -y python3-django"],
  ["node_modules", nodeModules, "npm ci"],
]) {
  if (!fs.existsSync(dir)) {
    console.error(`${dir} is missing (${what}). Install it with:\n  ${fix}`);
    process.exit(1);
  }
}

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-scale-bench-"));
const corpus = path.join(scratch, "tree");
copyWithoutPycache(DJANGO_SOURCE, path.join(corpus, "django"));
copyWithoutPycache(debianStdlib, path.join(corpus, "stdlib"));
// Links (node_modules/.bin) are copied as links; the scan never follows them out of the tree.
fs.cpSync(nodeModules, path.join(corpus, "js"), { recursive: true, dereference: false, verbatimSymlinks: true });

const progress = (msg) => process.stderr.write(`${msg}\n`);
const cli = (cmd, cache, extra = []) => [cmd, "--root", corpus, "--cache-dir", cache, "--quiet", ...extra];
const machineAtStart = machine();

try {
  const cold = [];
  for (let i = 0; i < RUNS; i++) {
    const r = await runCli(cli("index", path.join(scratch, `cache-cold-${i}`), ["--json"]));
    const s = JSON.parse(r.stdout);
    cold.push({ wall: r.wall, cpu: r.cpu, rssMb: r.rssMb, summary: s });
    progress(
      `cold index ${i + 1}/${RUNS}: ${fmt(r.wall)} s, ${fmt(r.rssMb, 0)} MB, ${s.parsed} parsed, ${s.symbols} symbols`,
    );
  }
  const warmCache = path.join(scratch, `cache-cold-${RUNS - 1}`);
  const graphOut = path.join(scratch, "graph.json");
  const graph = [];
  for (let i = 0; i < RUNS; i++) {
    const r = await runCli(cli("graph", warmCache, ["--json"]), { stdoutFile: graphOut });
    graph.push({ wall: r.wall, cpu: r.cpu, rssMb: r.rssMb });
    progress(`warm graph ${i + 1}/${RUNS}: ${fmt(r.wall)} s, ${fmt(r.rssMb, 0)} MB`);
  }
  const heapRuns = [];
  for (let i = 0; i < RUNS; i++) {
    const out = execFileSync(
      process.execPath,
      [
        "--expose-gc",
        new URL(import.meta.url).pathname,
        "--heap-probe",
        "--root",
        corpus,
        "--cache-dir",
        path.join(scratch, `cache-heap-${i}`),
      ],
      { encoding: "utf8", maxBuffer: 1 << 24 },
    );
    heapRuns.push(JSON.parse(out.trim().split("\n").pop()));
    const h = heapRuns.at(-1);
    progress(`heap ${i + 1}/${RUNS}: records ${fmt(h.recordsHeapMb, 0)} MB, graph +${fmt(h.graphHeapMb, 0)} MB`);
  }

  const s0 = cold[0].summary;
  const byLanguage = Object.fromEntries(Object.entries(s0.byLanguage).map(([k, v]) => [k, v.files]));
  const result = {
    benchmark: "scale",
    corpus: {
      parts: {
        django: { path: DJANGO_SOURCE, version: debianVersion("python3-django") },
        stdlib: { path: debianStdlib },
        js: { path: "node_modules of this repository (package-lock.json)" },
      },
      files: s0.files,
      source_files: s0.sourceFiles,
      symbols: s0.symbols,
      by_language: byLanguage,
    },
    codeslice: codesliceRevision(),
    machine: { ...machineAtStart, load_average_at_end: os.loadavg().map((x) => Number(x.toFixed(2))) },
    date: new Date().toISOString(),
    runs: RUNS,
    cold_index: {
      wall_s: stats(cold.map((c) => c.wall)),
      files_per_s: stats(cold.map((c) => c.summary.parsed / c.wall)),
      peak_rss_mb: stats(cold.map((c) => c.rssMb)),
      cpu_s: stats(cold.map((c) => c.cpu).filter((x) => x != null)),
    },
    warm_graph: { wall_s: stats(graph.map((g) => g.wall)), peak_rss_mb: stats(graph.map((g) => g.rssMb)) },
    heap_after_gc_mb: {
      records: stats(heapRuns.map((h) => h.recordsHeapMb)),
      graph_adds: stats(heapRuns.map((h) => h.graphHeapMb)),
      per_1000_symbols: stats(heapRuns.map((h) => ((h.recordsHeapMb + h.graphHeapMb) / h.symbols) * 1000)),
    },
    graph: { symbols: heapRuns[0].symbols, calls: heapRuns[0].calls, ambiguous: heapRuns[0].ambiguous },
    in_process_ms: {
      graph_build: stats(heapRuns.map((h) => h.graphMs)),
      search_index_build: stats(heapRuns.map((h) => h.searchBuildMs)),
      after_one_file_edit: {
        refresh: stats(heapRuns.map((h) => h.refreshMs)),
        graph: stats(heapRuns.map((h) => h.graphAfterEditMs)),
        search: stats(heapRuns.map((h) => h.searchAfterEditMs)),
        graph_patched_not_rebuilt: heapRuns.every((h) => h.patched),
      },
    },
  };
  const range = (st, d = 3) => `${fmt(st.median, d)} (${fmt(st.min, d)}–${fmt(st.max, d)})`;
  console.log(
    mdTable(
      ["measurement", "value"],
      [
        [
          "tree",
          `${s0.files} files, ${s0.sourceFiles} source (${Object.entries(byLanguage)
            .map(([k, v]) => `${k} ${v}`)
            .join(", ")}), ${s0.symbols} symbols`,
        ],
        ["cold index, wall s", range(result.cold_index.wall_s)],
        ["cold index, files/s", range(result.cold_index.files_per_s, 0)],
        ["cold index, peak RSS MB", range(result.cold_index.peak_rss_mb, 0)],
        ["warm `graph --json`, wall s", range(result.warm_graph.wall_s)],
        ["warm `graph --json`, peak RSS MB", range(result.warm_graph.peak_rss_mb, 0)],
        ["heap after GC: records, MB", range(result.heap_after_gc_mb.records, 0)],
        ["heap after GC: graph adds, MB", range(result.heap_after_gc_mb.graph_adds, 0)],
        ["heap per 1,000 symbols (records + graph), MB", range(result.heap_after_gc_mb.per_1000_symbols, 2)],
        [
          "in-process: graph build / search index build, ms",
          `${range(result.in_process_ms.graph_build, 0)} / ${range(result.in_process_ms.search_index_build, 0)}`,
        ],
        [
          "after a one-line edit in one file: refresh / graph / search, ms",
          `${range(result.in_process_ms.after_one_file_edit.refresh, 0)} / ${range(result.in_process_ms.after_one_file_edit.graph, 0)} / ${range(result.in_process_ms.after_one_file_edit.search, 0)} (graph ${result.in_process_ms.after_one_file_edit.graph_patched_not_rebuilt ? "patched" : "rebuilt"})`,
        ],
      ],
    ),
  );
  writeJson(path.join(resultsDir, "scale.json"), result);
  console.log("results: test/bench/results/scale.json");
} finally {
  if (!flags.keep) fs.rmSync(scratch, { recursive: true, force: true });
  else progress(`kept ${scratch}`);
}
