#!/usr/bin/env node
// What one parse worker's start costs, in CPU seconds of the whole process: a fresh Node parse
// worker (dist/platform/node/parse-worker.js) parses the given files, after the engine's thread has
// parsed them itself (as in an index run, where the engine's thread parses too). Two variants, each
// in a fresh process, alternated: `own` (the worker reads and compiles the wasm itself, as before
// the pool posted modules) and `posted` (each job carries the engine's compiled WebAssembly.Modules,
// see sharedModules in core/parse/runtime.ts). The worker's CPU is the process's CPU from its spawn
// to its last answer (the engine's thread only waits meanwhile).
//
// Rerun (after node scripts/build.mjs):
//   node test/bench/worker-start-bench.mjs [--runs 5] [--warm N] [LANG FILE]...
// --warm N: the engine's thread parses the files N times before the worker starts (default 1); the
// more it ran, the more of the wasm V8 has optimized, which a worker on posted modules inherits.
// Default files: django's db/models/query.py (Python) and an admin script (JavaScript) under
// /work/corpora/django. Output: a markdown table on stdout and test/bench/results/worker-start-warm<N>.json.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { fmt, machine, mdTable, parseArgs, repoRoot, resultsDir, stats, writeJson } from "./lib/bench-utils.mjs";

const self = fileURLToPath(import.meta.url);
const { flags, positionals } = parseArgs(process.argv.slice(2), ["help", "child"]);
const DJANGO = "/work/corpora/django";
const variant = flags.child ? positionals.shift() : undefined;
const files = positionals.length >= 2 ? positionals : ["python", `${DJANGO}/django/db/models/query.py`, "javascript", `${DJANGO}/django/contrib/admin/static/admin/js/actions.js`];

if (flags.child) {
  // One variant in this process: node worker-start-bench.mjs --child own|posted LANG FILE …
  const dist = pathToFileURL(path.join(repoRoot, "dist/")).href;
  const { NodeParseWorkers } = await import(`${dist}platform/node/node-parse-workers.js`);
  const { NodeWasmSource } = await import(`${dist}platform/node/node-wasm-source.js`);
  const { createParserRuntime, sharedModules } = await import(`${dist}core/parse/runtime.js`);
  const { parseFile } = await import(`${dist}core/engine/parse-file.js`);
  const { languageById } = await import(`${dist}languages/index.js`);
  const { sha256Hex } = await import(`${dist}shared/hash.js`);
  const wasm = new NodeWasmSource();
  const lock = await sha256Hex(await wasm.load("wasm.lock.json"));
  const jobs = [];
  for (let i = 0; i < files.length; i += 2) jobs.push({ spec: languageById(files[i]), path: files[i + 1], text: fs.readFileSync(files[i + 1], "utf8") });
  // The engine's thread parses the files first (--warm times), as it does in a run.
  const runtime = await createParserRuntime(wasm);
  for (let k = 0; k < Number(flags.warm ?? 1); k++) for (const j of jobs) await parseFile(runtime, j.spec, j.text, j.path, "h");
  const modules = variant === "posted" ? await sharedModules(wasm, jobs.map((j) => j.spec)) : undefined;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const channel = new NodeParseWorkers().spawn();
  const waiting = new Map();
  channel.listen((m) => waiting.get(m.id)?.(m), (e) => { throw e; });
  let id = 0;
  for (const j of jobs) {
    const reply = await new Promise((resolve) => {
      waiting.set(++id, resolve);
      channel.post({ type: "parse", id, language: j.spec.id, lock, path: j.path, hash: "h", text: j.text, ...(modules && id === 1 ? { modules } : {}) });
    });
    if (reply.type !== "parsed") throw new Error(reply.message);
  }
  const c = process.cpuUsage(cpu0);
  channel.terminate();
  console.log(JSON.stringify({ cpu: (c.user + c.system) / 1e6, wall: (performance.now() - t0) / 1000 }));
  process.exit(0);
}

const RUNS = Number(flags.runs ?? 5);
const variants = ["own", "posted"];
const runs = { own: [], posted: [] };
const loadBefore = os.loadavg();
for (let i = 0; i < RUNS; i++) {
  for (const v of i % 2 ? [...variants].reverse() : variants) {
    const out = execFileSync(process.execPath, [self, "--child", v, "--warm", String(flags.warm ?? 1), ...files], { encoding: "utf8" });
    const r = JSON.parse(out.trim().split("\n").pop());
    runs[v].push(r);
    process.stderr.write(`${v} ${i + 1}/${RUNS}: ${fmt(r.cpu)} CPU-s, ${fmt(r.wall)} s wall, load ${os.loadavg()[0].toFixed(2)}\n`);
  }
}
console.log(mdTable(["worker's wasm", "CPU s, median (min–max)", "wall s, median"], variants.map((v) => {
  const c = stats(runs[v].map((r) => r.cpu));
  return [v, `${fmt(c.median)} (${fmt(c.min)}–${fmt(c.max)})`, fmt(stats(runs[v].map((r) => r.wall)).median)];
})));
console.log(`\n${RUNS} runs each, alternated, fresh process each; load ${loadBefore.map((x) => x.toFixed(2)).join(" ")} → ${os.loadavg().map((x) => x.toFixed(2)).join(" ")}`);
writeJson(path.join(resultsDir, `worker-start-warm${flags.warm ?? 1}.json`), { files, runs: RUNS, warm: Number(flags.warm ?? 1), machine: machine(), loadBefore, loadAfter: os.loadavg(), results: runs });
