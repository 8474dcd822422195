#!/usr/bin/env node
// A/B of the parse pool in-process: builds of codeslice (package folders with dist/ and wasm/),
// each at a job count, run a cold index of the same corpus through lib/pool-probe.mjs in turn
// (A, B, …, then the next round in reverse order), so load from other work falls on all alike.
// Reported per build, as medians: wall, the process's CPU seconds, the engine (main) thread's CPU
// seconds, and the idle 2-core bound max(main-thread CPU, CPU / 2) (lib/cores.mjs): what the run
// would take on an idle 2-core machine at best, a figure that moves far less with load than wall.
//
// Rerun:
//   node test/bench/ab-pool-probe.mjs --builds main1=/pkg/main@1,main2=/pkg/main@2,head2=.@2 CORPUS_DIR [--runs 3] [--name NAME]
// A build's `@N` is its --jobs (default 1). Output: a markdown table on stdout and
// test/bench/results/ab-pool-<name>.json.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { idleBound } from "./lib/cores.mjs";
import { fmt, machine, mdTable, parseArgs, resultsDir, stats, writeJson } from "./lib/bench-utils.mjs";

const { flags, positionals } = parseArgs(process.argv.slice(2), ["help"]);
if (flags.help || !flags.builds || !positionals[0]) {
  console.log("usage: node test/bench/ab-pool-probe.mjs --builds NAME=PKG[@JOBS],… CORPUS_DIR [--runs N] [--name NAME]");
  process.exit(flags.help ? 0 : 2);
}
const RUNS = Number(flags.runs ?? 3);
const corpus = path.resolve(positionals[0]);
const name = flags.name ?? path.basename(corpus);
const probe = fileURLToPath(new URL("./lib/pool-probe.mjs", import.meta.url));
const builds = String(flags.builds).split(",").map((b) => {
  const [n, spec] = [b.split("=")[0], b.split("=").slice(1).join("=")];
  return { name: n, pkg: path.resolve(spec.replace(/@\d+$/, "")), jobs: Number(/@(\d+)$/.exec(spec)?.[1] ?? 1) };
});
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-ab-pool-"));
const runs = Object.fromEntries(builds.map((b) => [b.name, []]));
const loadBefore = os.loadavg();
try {
  for (let i = 0; i < RUNS; i++) {
    for (const b of i % 2 ? [...builds].reverse() : builds) {
      const cache = path.join(scratch, `cache-${b.name}-${i}`);
      const out = execFileSync(process.execPath, [probe, path.join(b.pkg, "dist"), corpus, cache, String(b.jobs)], { encoding: "utf8" });
      fs.rmSync(cache, { recursive: true, force: true });
      const r = JSON.parse(out.trim().split("\n").pop());
      r.bound = idleBound({ mainCpu: r.mainCpu, cpu: r.cpu, cores: 2 });
      runs[b.name].push(r);
      process.stderr.write(`${b.name} ${i + 1}/${RUNS}: ${fmt(r.wall)} s wall, ${fmt(r.cpu)} CPU-s, main thread ${fmt(r.mainCpu)}, bound ${fmt(r.bound)}, load ${os.loadavg()[0].toFixed(2)}\n`);
    }
  }
  const med = (n, k) => stats(runs[n].map((r) => r[k])).median;
  console.log(mdTable(["build", "jobs", "wall s", "CPU s", "main-thread CPU s", "idle 2-core bound s", "parsed"],
    builds.map((b) => [b.name, b.jobs, fmt(med(b.name, "wall")), fmt(med(b.name, "cpu")), fmt(med(b.name, "mainCpu")), fmt(med(b.name, "bound")), runs[b.name][0].parsed])));
  console.log(`\n${RUNS} runs per build, interleaved, medians; load ${loadBefore.map((x) => x.toFixed(2)).join(" ")} → ${os.loadavg().map((x) => x.toFixed(2)).join(" ")}`);
  writeJson(path.join(resultsDir, `ab-pool-${name}.json`), { corpus: name, runs: RUNS, machine: machine(), loadBefore, loadAfter: os.loadavg(), builds: Object.fromEntries(builds.map((b) => [b.name, { ...b, raw: runs[b.name] }])) });
} finally {
  fs.rmSync(scratch, { recursive: true, force: true });
}
