#!/usr/bin/env node
// `codeslice graph --json` on a big tree (issue 14, "kernel scale": the kernel's graph within 4 GB).
//
// For one corpus (default: the Linux kernel, built by `npm run bench -- jobs --prepare --corpora linux`):
//   * index     `index --jobs N` into the cache folder, unless --cache-dir names one that exists
//               (the kernel's cold index is ~8 min of CPU; reuse it): wall, CPU seconds, peak RSS;
//   * graph     `graph --json` into a scratch file under GNU time: wall, CPU seconds (user + sys),
//               peak RSS, the output's bytes and sha256; CPU seconds and RSS are also sampled every
//               --sample seconds from /proc, so a run that is stopped still tells how far it got;
//               --stop-after SECONDS stops the graph run there and records it as unfinished.
// The load average is recorded before and after each step (the machine is shared: CPU seconds are
// the figure to compare, wall time follows the load).
// --against DIR also runs `graph --json` with the build in DIR (another checkout, e.g. main) on the
// same cache and records whether the two outputs are byte-identical (use it on small corpora).
//
// Rerun:
//   node scripts/build.mjs
//   node test/bench/graph-scale-bench.mjs [--corpus /work/corpora/linux] [--cache-dir DIR] [--jobs 2] [--name linux]
//   node test/bench/graph-scale-bench.mjs --corpus /work/corpora/gold/c/lua --name lua --against /path/to/main
// The kernel subtree of results/graph-scale-linux-subtree.json (10,787 files, a faster iteration):
//   mkdir /tmp/sub && cd /work/corpora/linux && cp -r include kernel mm lib fs block Makefile /tmp/sub/ &&
//   mkdir /tmp/sub/arch && cp -r arch/x86 /tmp/sub/arch/ && cd /tmp/sub && git init -q && git add -A && git commit -qm sub
//   node test/bench/graph-scale-bench.mjs --corpus /tmp/sub --name linux-subtree
// Output: test/bench/results/graph-scale-<name>.json
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  cliPath,
  codesliceRevision,
  ensureBuilt,
  hasGnuTime,
  machine,
  parseArgs,
  resultsDir,
  writeJson,
} from "./lib/bench-utils.mjs";

const { flags } = parseArgs(process.argv.slice(2), ["help"]);
if (flags.help) {
  console.log(
    "usage: node test/bench/graph-scale-bench.mjs [--corpus DIR] [--name NAME] [--cache-dir DIR] [--jobs N] [--sample SECONDS] [--stop-after SECONDS] [--against CHECKOUT]",
  );
  process.exit(0);
}
if (!hasGnuTime) {
  console.error("GNU time is needed for CPU seconds and peak RSS: apt-get install -y time");
  process.exit(1);
}
const corpus = path.resolve(
  String(flags.corpus ?? path.join(process.env.CODESLICE_CORPORA || "/work/corpora", "linux")),
);
const name = String(flags.name ?? path.basename(corpus));
const jobs = Number(flags.jobs ?? 2);
const sampleEvery = Number(flags.sample ?? 15);
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), `codeslice-graph-scale-${name}-`));
const cache = flags["cache-dir"] ? path.resolve(String(flags["cache-dir"])) : path.join(scratch, "cache");
const progress = (msg) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${msg}\n`);
const load = () => os.loadavg().map((x) => Math.round(x * 100) / 100);

ensureBuilt();
const result = {
  benchmark: "graph-scale",
  corpus: { name, path: corpus },
  codeslice: codesliceRevision(),
  date: new Date().toISOString(),
  machine: machine(),
  jobs,
};
try {
  if (fs.existsSync(cache) && flags["cache-dir"]) {
    result.index = { reused_cache: true };
    progress(`${name}: reusing the index in ${cache}`);
  } else {
    progress(`${name}: cold index, ${jobs} job(s)`);
    const r = await timed(
      cliPath,
      ["index", "--root", corpus, "--cache-dir", cache, "--quiet", "--json", "--jobs", String(jobs)],
      path.join(scratch, "index.json"),
      { stoppable: false },
    );
    const summary = JSON.parse(fs.readFileSync(path.join(scratch, "index.json"), "utf8"));
    result.index = {
      reused_cache: false,
      ...r,
      files: summary.files,
      parsed: summary.parsed,
      symbols: summary.symbols,
    };
    progress(`${name}: index ${r.wall.toFixed(1)} s wall, ${r.cpu.toFixed(1)} CPU-s, ${r.rssMb.toFixed(0)} MB`);
  }
  result.graph = await graphRun(cliPath, "this build");
  if (flags.against) {
    const other = path.join(path.resolve(String(flags.against)), "dist/cli/main.js");
    const g = await graphRun(other, `the build in ${flags.against}`);
    result.against = {
      checkout: path.resolve(String(flags.against)),
      ...g,
      identical: g.sha256 === result.graph.sha256,
    };
  }
} finally {
  fs.rmSync(scratch, { recursive: true, force: true });
}
const out = path.join(resultsDir, `graph-scale-${name}.json`);
writeJson(out, result);
progress(`wrote ${path.relative(process.cwd(), out)}`);
if (result.graph.error || result.against?.identical === false) process.exitCode = 1;

async function graphRun(cli, label) {
  progress(`${name}: graph --json with ${label}`);
  const file = path.join(scratch, "graph.json");
  try {
    const r = await timed(cli, ["graph", "--root", corpus, "--cache-dir", cache, "--quiet", "--json"], file);
    const sha256 = await new Promise((resolve, reject) => {
      const h = crypto.createHash("sha256");
      fs.createReadStream(file)
        .on("data", (b) => h.update(b))
        .on("end", () => resolve(h.digest("hex")))
        .on("error", reject);
    });
    const bytes = fs.statSync(file).size;
    progress(
      `${name}: graph ${r.wall.toFixed(1)} s wall, ${r.cpu.toFixed(1)} CPU-s, ${r.rssMb.toFixed(0)} MB, ${bytes} bytes, ${sha256.slice(0, 12)}`,
    );
    return { ...r, bytes, sha256 };
  } catch (e) {
    progress(`${name}: graph FAILED ${e.message.split("\n")[0]}`);
    return { error: e.message.slice(0, 2000), samples: e.samples };
  } finally {
    fs.rmSync(file, { force: true });
  }
}

/**
 * Runs the CLI under GNU time with stdout to `outFile`, sampling its CPU and RSS from /proc; --stop-after stops
 * only a stoppable run (the graph's, not the index's it needs).
 */
async function timed(cli, args, outFile, { stoppable = true } = {}) {
  const timeFile = path.join(scratch, "time");
  const loadBefore = load();
  const fd = fs.openSync(outFile, "w");
  const t0 = process.hrtime.bigint();
  const child = spawn("/usr/bin/time", ["-f", "%M %U %S", "-o", timeFile, process.execPath, cli, ...args], {
    stdio: ["ignore", fd, "pipe"],
  });
  const stderr = [];
  child.stderr.on("data", (b) => stderr.push(b));
  const samples = [];
  const stopAfter = flags["stop-after"] && stoppable ? Number(flags["stop-after"]) : undefined;
  let stopped = false;
  const stopTimer = stopAfter
    ? setTimeout(() => {
        stopped = true;
        // node, not GNU time (which would leave node running); time then reports and exits
        const kid = fs.readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, "utf8").trim().split(/\s+/)[0];
        if (kid) process.kill(Number(kid), "SIGTERM");
      }, stopAfter * 1000)
    : undefined;
  const timer = setInterval(() => {
    const s = procSample(child.pid);
    if (s) samples.push({ t: Math.round(Number(process.hrtime.bigint() - t0) / 1e9), ...s, load1: load()[0] });
  }, sampleEvery * 1000);
  const code = await new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", resolve);
  });
  clearInterval(timer);
  clearTimeout(stopTimer);
  fs.closeSync(fd);
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  if (code !== 0) {
    const why = stopped ? `stopped by --stop-after ${stopAfter} s, unfinished` : `exited with ${code}`;
    const e = new Error(`codeslice ${args.join(" ")} ${why}\n${Buffer.concat(stderr).toString().slice(-2000)}`);
    e.samples = samples;
    throw e;
  }
  const [kb, user, sys] = fs.readFileSync(timeFile, "utf8").trim().split("\n").pop().split(/\s+/).map(Number);
  return { wall, cpu: user + sys, rssMb: kb / 1024, load_before: loadBefore, load_after: load(), samples };
}

/** CPU seconds and RSS of the node process under GNU time (its only child), from /proc (Linux). */
function procSample(timePid) {
  try {
    const kid = fs.readFileSync(`/proc/${timePid}/task/${timePid}/children`, "utf8").trim().split(/\s+/)[0];
    if (!kid) return undefined;
    const stat = fs.readFileSync(`/proc/${kid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[11]) + Number(fields[12]); // utime + stime (fields 14, 15)
    const rss = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${kid}/status`, "utf8"));
    return { cpu_s: Math.round((ticks / 100) * 10) / 10, rss_mb: rss ? Math.round(Number(rss[1]) / 1024) : null };
  } catch {
    return undefined;
  }
}
