#!/usr/bin/env node
// One cold index in this process, for bench:pool: wall time, the process's CPU time, and the CPU
// time of the engine's own (main) thread read from /proc/self/task/<pid>/stat (Linux). With the
// pool, the main thread is the run's critical path on an idle machine: wall ≥ max(main-thread CPU,
// process CPU / cores). That bound, unlike wall time, barely moves with other work on the machine.
// usage: node pool-probe.mjs <dist dir> <root> <cache dir> <jobs>
import path from "node:path";
import { pathToFileURL } from "node:url";
import { mainThreadCpu } from "./cores.mjs";

const [dist, root, cacheDir, jobs] = process.argv.slice(2);
const { createEngine } = await import(pathToFileURL(path.join(dist, "index.js")).href);
const { createNodePlatform } = await import(pathToFileURL(path.join(dist, "platform/node/index.js")).href);
const platform = await createNodePlatform({ root, cacheDir });
const cpu0 = process.cpuUsage();
const main0 = mainThreadCpu();
const t0 = performance.now();
const summary = await createEngine(platform, { jobs: Number(jobs) }).index();
const wall = (performance.now() - t0) / 1000;
const u = process.cpuUsage(cpu0);
console.log(
  JSON.stringify({ wall, cpu: (u.user + u.system) / 1e6, mainCpu: mainThreadCpu() - main0, parsed: summary.parsed }),
);
