#!/usr/bin/env node
// Index benchmark: how fast `codeslice index` is on a real repository, cold and incremental.
//
// Measures, with the built CLI as a child process (so node start-up and WASM loading count):
//   * cold index      a fresh cache folder every run: wall time, source files parsed per second,
//                     peak RSS, symbols found (from `index --json`)
//   * unchanged       `index` again on the warm cache: wall time (must parse 0 files)
//   * one-file edit   append a comment line to one Python file, `index` again: wall time
//                     (must parse exactly 1 file)
//   * graph build     `graph --json` minus `index` on the same warm cache (alternated run by run),
//                     and cold `graph --json` minus cold `index`: what building the code graph adds,
//                     also as a share of the cold index time; and, in-process, codeGraph() alone
//                     timed right after a cold engine.index() (the cleanest reading of that cost)
// Each figure is the median of N runs (default 5) with min and max. With GNU time, CPU seconds
// (user + sys) are reported next to wall time: on a shared machine they move much less.
//
// Rerun:
//   node scripts/build.mjs && npm run bench -- index                 # Debian's python3-django
//   npm run bench -- index /path/to/repo --runs 3 [--name NAME] [--edit-file rel/path.py]
// The default corpus is /usr/lib/python3/dist-packages/django (apt-get install -y python3-django),
// copied to a temp folder without __pycache__ and committed to a fresh git repo. A corpus given as
// an argument is used in place; the edited file is restored at the end.
// Output: a markdown table on stdout and test/bench/results/index-<corpus>.json.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import {
  DJANGO_SOURCE,
  codesliceRevision,
  ensureBuilt,
  fmt,
  hasGnuTime,
  machine,
  mdTable,
  packageRoot,
  parseArgs,
  prepareDjango,
  resultsDir,
  runCli,
  stats,
  writeJson,
} from "./lib/bench-utils.mjs";

const { flags, positionals } = parseArgs(process.argv.slice(2), ["keep", "help"]);
if (flags.help) {
  console.log(
    "usage: node test/bench/index-bench.mjs [CORPUS_DIR] [--runs N] [--name NAME] [--edit-file REL] [--keep]",
  );
  process.exit(0);
}
const RUNS = Number(flags.runs ?? 5);
if (!Number.isInteger(RUNS) || RUNS < 1) {
  console.error("--runs wants a positive integer");
  process.exit(2);
}
ensureBuilt();

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-index-bench-"));
let corpus, corpusName, corpusVersion;
if (positionals[0]) {
  corpus = path.resolve(positionals[0]);
  if (!fs.statSync(corpus, { throwIfNoEntry: false })?.isDirectory()) {
    console.error(`${corpus}: not a directory`);
    process.exit(2);
  }
  corpusName = flags.name ?? path.basename(corpus);
} else {
  corpusName = flags.name ?? "django";
  ({ corpus, version: corpusVersion } = prepareDjango(path.join(scratch, "django-repo")));
}
if (!hasGnuTime)
  console.error("note: GNU time not found (apt-get install -y time); peak RSS comes from an in-process wrapper");

const editRel = flags["edit-file"] ?? largestPythonFile(corpus);
if (!editRel) {
  console.error(`${corpus}: no Python file to edit (pass --edit-file REL)`);
  process.exit(2);
}
const editPath = path.join(corpus, editRel);
const editOriginal = fs.readFileSync(editPath);
const cacheDir = (i) => path.join(scratch, `cache-${i}`);
const cli = (cmd, cache, extra = []) => [cmd, "--root", corpus, "--cache-dir", cache, "--quiet", ...extra];
const progress = (msg) => process.stderr.write(`${msg}\n`);
const machineAtStart = machine();

try {
  // ---- cold: a fresh cache folder each run
  const cold = [];
  for (let i = 0; i < RUNS; i++) {
    const r = await runCli(cli("index", cacheDir(`cold-${i}`), ["--json"]));
    const summary = JSON.parse(r.stdout);
    cold.push({ wall: r.wall, cpu: r.cpu, rssMb: r.rssMb, summary });
    progress(`cold ${i + 1}/${RUNS}: ${fmt(r.wall)} s, ${summary.parsed} parsed, ${summary.symbols} symbols`);
  }
  const warmCache = cacheDir(`cold-${RUNS - 1}`);

  // ---- unchanged: the same cache again
  const unchanged = [];
  for (let i = 0; i < RUNS; i++) {
    const r = await runCli(cli("index", warmCache, ["--json"]));
    const s = JSON.parse(r.stdout);
    unchanged.push({ wall: r.wall, cpu: r.cpu, rssMb: r.rssMb, parsed: s.parsed });
    progress(`unchanged ${i + 1}/${RUNS}: ${fmt(r.wall)} s, ${s.parsed} parsed`);
  }

  // ---- one-file edit: each run appends a new, unique comment line, so each run sees one changed file
  const edit = [];
  for (let i = 0; i < RUNS; i++) {
    fs.appendFileSync(editPath, `\n# codeslice index-bench edit ${i} ${Date.now()}\n`);
    const r = await runCli(cli("index", warmCache, ["--json"]));
    const s = JSON.parse(r.stdout);
    edit.push({ wall: r.wall, cpu: r.cpu, rssMb: r.rssMb, parsed: s.parsed });
    progress(`one-file edit ${i + 1}/${RUNS}: ${fmt(r.wall)} s, ${s.parsed} parsed`);
  }

  // ---- graph build: warm `graph --json` vs warm `index`, alternated so drift hits both alike
  const warmIndex = [],
    warmGraph = [];
  const graphOut = path.join(scratch, "graph.json");
  for (let i = 0; i < RUNS; i++) {
    const w = await runCli(cli("index", warmCache, ["--json"]));
    warmIndex.push({ wall: w.wall, cpu: w.cpu });
    const g = await runCli(cli("graph", warmCache, ["--json"]), { stdoutFile: graphOut });
    warmGraph.push({ wall: g.wall, cpu: g.cpu, rssMb: g.rssMb });
    progress(`warm index/graph ${i + 1}/${RUNS}: ${fmt(w.wall)} s / ${fmt(g.wall)} s`);
  }
  const graphDoc = JSON.parse(fs.readFileSync(graphOut, "utf8"));
  // ---- cold `graph --json` on a fresh cache: index + graph in one process, as a first-time user sees it
  const coldGraph = [];
  for (let i = 0; i < RUNS; i++) {
    const g = await runCli(cli("graph", cacheDir(`cold-graph-${i}`), ["--json"]), { stdoutFile: graphOut });
    coldGraph.push({ wall: g.wall, cpu: g.cpu, rssMb: g.rssMb });
    progress(`cold graph ${i + 1}/${RUNS}: ${fmt(g.wall)} s`);
  }

  // ---- graph build in-process: index on a fresh cache, then time codeGraph() alone (records in memory)
  const { createEngine } = await import(pathToFileURL(path.join(packageRoot, "dist/index.js")).href);
  const { createNodePlatform } = await import(
    pathToFileURL(path.join(packageRoot, "dist/platform/node/index.js")).href
  );
  const inProcess = [];
  for (let i = 0; i < RUNS; i++) {
    const engine = createEngine(await createNodePlatform({ root: corpus, cacheDir: cacheDir(`in-process-${i}`) }));
    let t0 = performance.now();
    await engine.index();
    const indexMs = performance.now() - t0;
    t0 = performance.now();
    await engine.codeGraph();
    const graphMs = performance.now() - t0;
    engine.close();
    inProcess.push({ indexMs, graphMs });
    progress(`in-process cold index / graph build ${i + 1}/${RUNS}: ${fmt(indexMs, 0)} ms / ${fmt(graphMs, 0)} ms`);
  }

  // ---- summarize
  const s0 = cold[0].summary;
  const coldWall = stats(cold.map((r) => r.wall));
  const filesPerSec = stats(cold.map((r) => r.summary.parsed / r.wall));
  const coldRss = stats(cold.map((r) => r.rssMb));
  const unchangedWall = stats(unchanged.map((r) => r.wall));
  const editWall = stats(edit.map((r) => r.wall));
  const warmIndexWall = stats(warmIndex.map((r) => r.wall));
  const warmGraphWall = stats(warmGraph.map((r) => r.wall));
  const coldGraphWall = stats(coldGraph.map((r) => r.wall));
  const graphRss = stats([...warmGraph, ...coldGraph].map((r) => r.rssMb));
  const warmAdds = warmGraphWall.median - warmIndexWall.median;
  const coldAdds = coldGraphWall.median - coldWall.median;
  // CPU seconds (user + sys, GNU time only): steadier than wall time on a shared machine
  const cpuOf = (runs) => (runs.every((r) => r.cpu != null) ? stats(runs.map((r) => r.cpu)) : null);
  const cpu = {
    cold_index: cpuOf(cold),
    unchanged: cpuOf(unchanged),
    one_file_edit: cpuOf(edit),
    warm_index: cpuOf(warmIndex),
    warm_graph: cpuOf(warmGraph),
    cold_graph: cpuOf(coldGraph),
  };
  const cpuAdds = cpu.cold_graph && cpu.cold_index ? cpu.cold_graph.median - cpu.cold_index.median : null;
  const cpuWarmAdds = cpu.warm_graph && cpu.warm_index ? cpu.warm_graph.median - cpu.warm_index.median : null;
  const checks = {
    unchanged_parses_nothing: unchanged.every((r) => r.parsed === 0),
    one_file_edit_parses_one: edit.every((r) => r.parsed === 1),
    cold_runs_agree_on_symbols: cold.every((r) => r.summary.symbols === s0.symbols),
  };

  const result = {
    benchmark: "index",
    corpus: {
      name: corpusName,
      path: positionals[0] ? corpus : DJANGO_SOURCE,
      version: corpusVersion ?? null,
      files: s0.files,
      source_files: s0.sourceFiles,
      edit_file: editRel,
    },
    codeslice: codesliceRevision(),
    machine: { ...machineAtStart, load_average_at_end: machine().load_average_1_5_15 },
    date: new Date().toISOString(),
    runs: RUNS,
    peak_rss_source: hasGnuTime ? "GNU time %M" : "process.resourceUsage().maxRSS (in-process wrapper)",
    cold: {
      wall_s: coldWall,
      files_per_s: filesPerSec,
      peak_rss_mb: coldRss,
      engine_duration_ms: stats(cold.map((r) => r.summary.durationMs)),
      parsed: s0.parsed,
      reused_identical_content: s0.reused,
      symbols: s0.symbols,
      by_language: s0.byLanguage,
      skipped: s0.skipped?.length ?? 0,
      syntax_errors: s0.syntaxErrors?.length ?? 0,
    },
    unchanged: {
      wall_s: unchangedWall,
      parsed: unchanged.map((r) => r.parsed),
      peak_rss_mb: stats(unchanged.map((r) => r.rssMb)),
    },
    one_file_edit: {
      wall_s: editWall,
      parsed: edit.map((r) => r.parsed),
      peak_rss_mb: stats(edit.map((r) => r.rssMb)),
    },
    graph: {
      warm_index_wall_s: warmIndexWall,
      warm_graph_wall_s: warmGraphWall,
      warm_adds_s: warmAdds,
      cold_graph_wall_s: coldGraphWall,
      cold_adds_s: coldAdds,
      warm_adds_share_of_cold_index: warmAdds / coldWall.median,
      cold_adds_share_of_cold_index: coldAdds / coldWall.median,
      peak_rss_mb: graphRss,
      output: {
        definitions: graphDoc.definitions.length,
        call_edges: graphDoc.call_edges.length,
        import_edges: graphDoc.import_edges.length,
        inherits: graphDoc.inherits.length,
      },
    },
    in_process: {
      cold_index_ms: stats(inProcess.map((r) => r.indexMs)),
      graph_build_ms: stats(inProcess.map((r) => r.graphMs)),
      graph_build_share_of_cold_index: stats(inProcess.map((r) => r.graphMs / r.indexMs)),
    },
    cpu_s: {
      ...cpu,
      graph_adds_warm: cpuWarmAdds,
      graph_adds_cold: cpuAdds,
      graph_adds_cold_share_of_cold_index: cpuAdds != null ? cpuAdds / cpu.cold_index.median : null,
    },
    checks,
  };
  writeJson(path.join(resultsDir, `index-${corpusName}.json`), result);

  const m = result.machine;
  const span = (s, d = 3) => `${fmt(s.median, d)} (${fmt(s.min, d)}–${fmt(s.max, d)})`;
  console.log(`\n## codeslice index on ${corpusName}${corpusVersion ? ` ${corpusVersion}` : ""}`);
  console.log(
    `\nmachine: ${m.cpu} × ${m.cpus}, ${m.memory_gib} GiB, ${m.os}, node ${m.node}, load average ${m.load_average_1_5_15.join(" ")} at the start, ${m.load_average_at_end.join(" ")} at the end; codeslice ${result.codeslice}`,
  );
  console.log(
    `corpus: ${s0.files} files scanned, ${s0.sourceFiles} source files (${s0.parsed} parsed, ${s0.reused} identical-content reused), ${s0.symbols} symbols; median of ${RUNS} runs (min–max)\n`,
  );
  console.log(
    mdTable(
      ["measurement", "value"],
      [
        ["cold index, wall s", span(coldWall)],
        ["cold index, files/s (parsed ÷ wall)", span(filesPerSec, 0)],
        ["cold index, engine time ms (summary durationMs)", span(result.cold.engine_duration_ms, 0)],
        ["cold index, peak RSS MB", span(coldRss, 0)],
        ["symbols found", String(s0.symbols)],
        [
          "unchanged re-run, wall s",
          `${span(unchangedWall)}; parsed ${[...new Set(unchanged.map((r) => r.parsed))].join("/")}`,
        ],
        [
          `one-file edit (${editRel}), wall s`,
          `${span(editWall)}; parsed ${[...new Set(edit.map((r) => r.parsed))].join("/")}`,
        ],
        ["warm `index` vs warm `graph --json`, wall s", `${span(warmIndexWall)} vs ${span(warmGraphWall)}`],
        [
          "graph build adds (warm), s",
          `${fmt(warmAdds)} = ${fmt(100 * result.graph.warm_adds_share_of_cold_index, 1)}% of cold index`,
        ],
        ["cold `graph --json`, wall s", span(coldGraphWall)],
        [
          "graph build adds (cold graph − cold index), s",
          `${fmt(coldAdds)} = ${fmt(100 * result.graph.cold_adds_share_of_cold_index, 1)}% of cold index`,
        ],
        [
          "graph build in-process (codeGraph() after a cold engine.index()), ms",
          `${span(result.in_process.graph_build_ms, 0)} = ${fmt(100 * result.in_process.graph_build_share_of_cold_index.median, 1)}% of the in-process cold index (${fmt(result.in_process.cold_index_ms.median, 0)} ms)`,
        ],
        ["graph peak RSS MB", span(graphRss, 0)],
        ...(cpu.cold_index
          ? [
              [
                "CPU s (user+sys): cold index / unchanged / one-file edit",
                `${span(cpu.cold_index, 2)} / ${span(cpu.unchanged, 2)} / ${span(cpu.one_file_edit, 2)}`,
              ],
              [
                "CPU s: graph build adds, warm / cold",
                `${fmt(cpuWarmAdds, 2)} / ${fmt(cpuAdds, 2)} = ${fmt(100 * result.cpu_s.graph_adds_cold_share_of_cold_index, 1)}% of cold index CPU`,
              ],
            ]
          : []),
        [
          "graph output",
          `${result.graph.output.definitions} definitions, ${result.graph.output.call_edges} call edges, ${result.graph.output.import_edges} import edges, ${result.graph.output.inherits} inherits`,
        ],
      ],
    ),
  );
  console.log(
    `\nchecks: ${Object.entries(checks)
      .map(([k, v]) => `${k} ${v ? "ok" : "FAILED"}`)
      .join(", ")}`,
  );
  console.log(`results: ${path.relative(process.cwd(), path.join(resultsDir, `index-${corpusName}.json`))}`);
  if (!Object.values(checks).every(Boolean)) process.exitCode = 1;
} finally {
  fs.writeFileSync(editPath, editOriginal);
  if (flags.keep) console.error(`kept ${scratch}`);
  else fs.rmSync(scratch, { recursive: true, force: true });
}

function largestPythonFile(root) {
  let files;
  try {
    files = execFileSync("git", ["ls-files", "*.py"], { cwd: root, encoding: "utf8", maxBuffer: 1 << 28 })
      .split("\n")
      .filter(Boolean);
  } catch {
    files = [];
    const walk = (d) => {
      for (const e of fs.readdirSync(path.join(root, d), { withFileTypes: true })) {
        const rel = d ? `${d}/${e.name}` : e.name;
        if (e.isDirectory() && !e.name.startsWith(".") && e.name !== "node_modules") walk(rel);
        else if (e.isFile() && e.name.endsWith(".py")) files.push(rel);
      }
    };
    walk("");
  }
  let best = null,
    bestSize = -1;
  for (const f of files.sort()) {
    const size = fs.statSync(path.join(root, f)).size;
    if (size > bestSize) {
      best = f;
      bestSize = size;
    }
  }
  return best;
}
