#!/usr/bin/env node
// Parse-pool benchmark: a cold `codeslice index` with 1 parse thread against N (default 2).
//
// The runs alternate (1, 2, 1, 2, …) so that load from other work on a shared machine falls on
// every setting alike, and the ratio of medians is taken from this one run; the load average is
// recorded before and after. Each cold run gets a fresh cache folder. Wall time is what the pool
// improves; CPU seconds (user + sys, every thread of the process, GNU time) show what it costs.
// Then, once per setting, a cold `graph --json`: the outputs must be byte-identical. Last, the same
// cold index in-process (lib/pool-probe.mjs, alternating too) with the engine thread's own CPU
// time: on an idle machine with C cores a run cannot beat max(main-thread CPU, process CPU / C)
// (one thread's work is serial; all of it shares C cores), a bound that moves far less with other
// work on the machine than wall time does. With 1 job the engine thread is most of the CPU (the
// rest is GC, compiler and file-IO threads); with the pool it is what is left after parsing.
//
// Rerun:
//   node scripts/build.mjs && npm run bench -- pool                          # Debian's python3-django
//   npm run bench -- pool /path/to/repo --runs 3 --jobs 1,2 [--name NAME]
// Output: a markdown table on stdout and test/bench/results/pool-<corpus>.json.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { idleBound } from "./lib/cores.mjs";
import {
  codesliceRevision,
  ensureBuilt,
  fmt,
  machine,
  mdTable,
  parseArgs,
  benchCorpus,
  resultsDir,
  runCli,
  stats,
  writeJson,
} from "./lib/bench-utils.mjs";

const { flags, positionals } = parseArgs(process.argv.slice(2), ["help"]);
if (flags.help) {
  console.log("usage: node test/bench/pool-bench.mjs [CORPUS_DIR] [--runs N] [--jobs 1,2] [--name NAME]");
  process.exit(0);
}
const RUNS = Number(flags.runs ?? 3);
const JOBS = String(flags.jobs ?? "1,2")
  .split(",")
  .map(Number);
if (!Number.isInteger(RUNS) || RUNS < 1 || !JOBS.every((j) => Number.isInteger(j) && j >= 1)) {
  console.error("--runs wants a positive integer, --jobs a list of positive integers");
  process.exit(2);
}
ensureBuilt();

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-pool-bench-"));
const { corpus, corpusName } = benchCorpus(positionals, flags, scratch);
const progress = (msg) => process.stderr.write(`${msg}\n`);
const loadBefore = os.loadavg();
const machineAtStart = machine();

try {
  const runs = new Map(JOBS.map((j) => [j, []]));
  for (let i = 0; i < RUNS; i++) {
    for (const jobs of JOBS) {
      const cache = path.join(scratch, `cold-${jobs}-${i}`);
      const r = await runCli([
        "index",
        "--root",
        corpus,
        "--cache-dir",
        cache,
        "--quiet",
        "--json",
        "--jobs",
        String(jobs),
      ]);
      const s = JSON.parse(r.stdout);
      runs.get(jobs).push({ wall: r.wall, cpu: r.cpu, rssMb: r.rssMb, parsed: s.parsed, symbols: s.symbols });
      fs.rmSync(cache, { recursive: true, force: true });
      progress(
        `jobs ${jobs}, cold ${i + 1}/${RUNS}: ${fmt(r.wall)} s wall, ${fmt(r.cpu)} s CPU, ${s.parsed} parsed, load ${os.loadavg()[0].toFixed(2)}`,
      );
    }
  }
  // The same answer whatever the thread count: cold `graph --json`, byte for byte.
  const graphs = new Map();
  for (const jobs of JOBS) {
    const out = path.join(scratch, `graph-${jobs}.json`);
    await runCli(
      [
        "graph",
        "--root",
        corpus,
        "--cache-dir",
        path.join(scratch, `graph-${jobs}`),
        "--quiet",
        "--json",
        "--jobs",
        String(jobs),
      ],
      { stdoutFile: out, measureRss: false },
    );
    graphs.set(jobs, fs.readFileSync(out));
  }
  // In-process: the engine thread's CPU time, the critical path once parsing moved off it.
  const probes = new Map(JOBS.map((j) => [j, []]));
  const probe = path.join(path.dirname(new URL(import.meta.url).pathname), "lib/pool-probe.mjs");
  const dist = path.join(path.dirname(new URL(import.meta.url).pathname), "../../dist");
  for (let i = 0; i < RUNS; i++) {
    for (const jobs of JOBS) {
      const cache = path.join(scratch, `probe-${jobs}-${i}`);
      const r = JSON.parse(
        execFileSync(process.execPath, [probe, dist, corpus, cache, String(jobs)], { encoding: "utf8" }),
      );
      probes.get(jobs).push(r);
      fs.rmSync(cache, { recursive: true, force: true });
      progress(
        `jobs ${jobs}, in-process ${i + 1}/${RUNS}: ${fmt(r.wall)} s wall, ${fmt(r.cpu)} s CPU, ${fmt(r.mainCpu)} s on the engine thread`,
      );
    }
  }
  const reference = graphs.get(JOBS[0]);
  const sameGraph = JOBS.every((j) => graphs.get(j).equals(reference));
  const loadAfter = os.loadavg();

  const summary = JOBS.map((jobs) => {
    const r = runs.get(jobs);
    return {
      jobs,
      wall: stats(r.map((x) => x.wall)),
      cpu: stats(r.map((x) => x.cpu ?? NaN)),
      rssMb: stats(r.map((x) => x.rssMb ?? NaN)),
      parsed: r[0].parsed,
      symbols: r[0].symbols,
    };
  });
  const cores = os.availableParallelism();
  const probeSummary = JOBS.map((jobs) => {
    const r = probes.get(jobs);
    const cpu = stats(r.map((x) => x.cpu)).median;
    const mainCpu = stats(r.map((x) => x.mainCpu)).median;
    return { jobs, wall: stats(r.map((x) => x.wall)).median, cpu, mainCpu, bound: idleBound({ mainCpu, cpu, cores }) };
  });
  const base = summary[0];
  const rows = summary.map((s) => [
    s.jobs,
    `${fmt(s.wall.median, 2)} (${fmt(s.wall.min, 2)}–${fmt(s.wall.max, 2)})`,
    `${fmt(s.cpu.median, 2)}`,
    `${fmt(s.rssMb.median, 0)}`,
    s.parsed,
    s.symbols,
    fmt(base.wall.median / s.wall.median, 2),
  ]);
  console.log(
    `\n${corpusName}: cold index, median of ${RUNS} (alternating runs), load average ${loadBefore.map((x) => x.toFixed(2)).join(" ")} → ${loadAfter.map((x) => x.toFixed(2)).join(" ")} on ${machineAtStart.cpus} CPUs\n`,
  );
  console.log(mdTable(["jobs", "wall s (min–max)", "CPU s", "peak RSS MB", "parsed", "symbols", "speed-up"], rows));
  console.log(
    `\nIn-process (median of ${RUNS}): the engine thread's CPU, and the idle-machine bound max(engine-thread CPU, CPU / ${cores} cores)\n`,
  );
  console.log(
    mdTable(
      ["jobs", "wall s", "CPU s", "engine-thread CPU s", "bound s", "bound speed-up"],
      probeSummary.map((p) => [
        p.jobs,
        fmt(p.wall, 2),
        fmt(p.cpu, 2),
        fmt(p.mainCpu, 2),
        fmt(p.bound, 2),
        fmt(probeSummary[0].bound / p.bound, 2),
      ]),
    ),
  );
  console.log(
    `\ngraph --json identical across jobs ${JOBS.join(", ")}: ${sameGraph ? "yes" : "NO"} (${reference.length} bytes)`,
  );
  writeJson(path.join(resultsDir, `pool-${corpusName}.json`), {
    corpus: corpusName,
    revision: codesliceRevision(),
    machine: machineAtStart,
    load_before: loadBefore,
    load_after: loadAfter,
    runs: RUNS,
    results: Object.fromEntries(JOBS.map((j) => [j, runs.get(j)])),
    summary,
    sameGraph,
    inProcess: Object.fromEntries(JOBS.map((j) => [j, probes.get(j)])),
    inProcessSummary: probeSummary,
  });
  if (!sameGraph) process.exitCode = 1;
} finally {
  fs.rmSync(scratch, { recursive: true, force: true });
}
