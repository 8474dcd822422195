#!/usr/bin/env node
// Browser benchmark: the playground (built, served from 127.0.0.1, in headless Chromium) indexing
//   * the bundled sample project ("Load the sample project"), and
//   * a generated 2,000-file tree (1,200 Python + 800 TypeScript files with imports, classes and
//     calls), dropped as a zip (deflated, as `zip -r` makes it),
// each cold (fresh browser profile) and again after a reload (the index restored from OPFS). The zip
// runs with the parse pool at jobs 1 (parsed in the engine worker), jobs 2 (two nested parse
// workers) and the browser's default (no ?jobs=: navigator.hardwareConcurrency minus one), the
// variants alternating within each round so a busy machine inflates them alike.
//
// Reported per case (median of N runs, default 3, min and max alongside):
//   * wall time     from the click / file pick to the page showing the indexed project (includes
//                   unpacking, saving the upload in OPFS, parsing, graph and map)
//   * engine index  the engine's own durationMs for index() (what the page's counter shows)
//   * peak heap     JS heap in use, sampled every 50 ms over CDP (Runtime.getHeapUsage) in the
//                   page and in the engine's Web Worker, where the work happens
//   * longest main-thread block   the longest "longtask" a PerformanceObserver saw on the page
//                   while indexing; the page must never be blocked for 100 ms or more
//   * workers       Web Workers Chromium started during the cold index (engine worker plus parse
//                   workers; from CDP target discovery), so a pool that failed over is visible
//   * browser CPU s the CPU seconds of Chromium's whole process tree over the cold index (/proc),
//                   and split by thread: the engine worker, the parse workers, everything else
//   * same answers  the SHA-256 of the index file the page saves after the cold index ("Save
//                   index file": every record and the snapshot, byte-stable), equal across jobs
// Exit status 1 when a main-thread block reached 100 ms, a warm reload parsed any file, or two
// runs of the zip saved different index files.
// (Not measured here: picking a big folder through <input webkitdirectory>. Chromium builds that
// FileList on the page's thread, about 0.5 s for 2,000 files, before the page's code runs; the
// folder picker and folder drops hand over a directory handle instead and avoid it.)
//
// Rerun:  npm run bench -- browser [-- --runs 5]        (Chromium: scripts/ensure-chromium.mjs finds or
//         provisions it, as for `npm test`; CHROMIUM_PATH overrides it)
// Output: a markdown table on stdout and test/bench/results/browser.json.
import { createHash } from "node:crypto";
import { createReadStream, promises as fsp } from "node:fs";
import fs from "node:fs";
import { createServer } from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { benchChromium, browserThreads } from "./lib/chromium-threads.mjs";
import { build } from "vite";
import { machine, mdTable, parseArgs, resultsDir, writeJson } from "./lib/bench-utils.mjs";
import { generateTree, zipOf } from "./lib/generated-tree.mjs";

const { flags } = parseArgs(process.argv.slice(2), ["help", "task-cpu"]);
if (flags.help) {
  console.log(
    "usage: node test/bench/browser-bench.mjs [--runs N] [--files N] [--store indexeddb|memory] [--jobs 1,2,default] [--task-cpu] [--out NAME.json]",
  );
  process.exit(0);
}
const RUNS = Number(flags.runs ?? 3);
const TREE_FILES = Number(flags.files ?? 2000);
// --store indexeddb|memory: where the index is kept (the page's ?store= switch); default OPFS.
const STORE = flags.store ? String(flags.store) : undefined;
// --jobs: the parse-pool variants the zip runs with ("default" sends no ?jobs=).
const JOBS = String(flags.jobs ?? "1,2,default")
  .split(",")
  .map((j) => j.trim())
  .filter(Boolean);
const CHROMIUM = benchChromium();
// A switch Chromium ignores, to find this run's browser process in /proc (browserCpuSeconds).
const MARKER = `--codeslice-bench=${process.pid}`;
const ARGS = [
  MARKER,
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const dist = path.join(repoRoot, "playground/dist");

// ---------------------------------------------------------------------------------------------
// The site: built like `npm run build:playground`, served by a small static server.

async function buildSite() {
  process.env.NODE_ENV = "production";
  await build({ configFile: path.join(repoRoot, "playground/vite.config.ts"), logLevel: "error", mode: "production" });
}

const TYPES = {
  ".html": "text/html",
  ".js": "text/javascript",
  ".css": "text/css",
  ".json": "application/json",
  ".wasm": "application/wasm",
};
async function serve(root) {
  const server = createServer(async (req, res) => {
    let file = path.join(root, decodeURIComponent(new URL(req.url, "http://x").pathname));
    if (!file.startsWith(root)) return res.writeHead(403).end();
    try {
      if ((await fsp.stat(file)).isDirectory()) file = path.join(file, "index.html");
      await fsp.access(file);
    } catch {
      return res.writeHead(404).end();
    }
    res.writeHead(200, { "Content-Type": TYPES[path.extname(file)] ?? "application/octet-stream" });
    createReadStream(file).pipe(res);
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${server.address().port}/`,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(r);
      }),
  };
}

// ---------------------------------------------------------------------------------------------
// Measuring one run

// Long animation frames (Chromium 123+) say what ran in a long stretch of the page's thread: the
// scripts (their source and entry point, as the browser attributes them), style and layout, and
// rendering. Each longtask is paired with the frame that holds it, to tell which one blocked.
const LONG_TASKS = `
  window.__longTasks = [];
  window.__longFrames = [];
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longTasks.push(e.duration); })
    .observe({ type: "longtask", buffered: true });
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        if (e.duration < 80) continue;
        window.__longFrames.push({
          at: Math.round(e.startTime), duration: Math.round(e.duration), blocking: Math.round(e.blockingDuration),
          styleLayout: Math.round(e.renderStart && e.styleAndLayoutStart ? e.startTime + e.duration - e.styleAndLayoutStart : 0),
          scripts: e.scripts.map((s) => ({ invoker: s.invoker, type: s.invokerType, fn: s.sourceFunctionName, src: (s.sourceURL || "").split("/").pop(), at: s.sourceCharPosition, duration: Math.round(s.duration), forcedLayout: Math.round(s.forcedStyleAndLayoutDuration) })),
        });
      }
    }).observe({ type: "long-animation-frame", buffered: true });
  } catch {}
`;

/** The long frames of the page since the last reset, longest first (what ran in them). */
const longFrames = (page) =>
  page.evaluate(() => [...window.__longFrames].sort((a, b) => b.duration - a.duration).slice(0, 5));

/** Samples the JS heap of the page and of every worker it starts, every 50 ms. */
async function heapSampler(context, page) {
  const cdp = await context.newCDPSession(page);
  const workers = new Set();
  const pending = new Map();
  let nextId = 1;
  let peakPage = 0;
  let peakWorker = 0;
  cdp.on("Target.attachedToTarget", (e) => {
    if (e.targetInfo.type === "worker") workers.add(e.sessionId);
  });
  cdp.on("Target.detachedFromTarget", (e) => workers.delete(e.sessionId));
  cdp.on("Target.receivedMessageFromTarget", (e) => {
    const m = JSON.parse(e.message);
    pending.get(m.id)?.(m.result);
    pending.delete(m.id);
  });
  await cdp.send("Target.setAutoAttach", { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
  const ask = (sessionId) =>
    new Promise((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      cdp
        .send("Target.sendMessageToTarget", {
          sessionId,
          message: JSON.stringify({ id, method: "Runtime.getHeapUsage" }),
        })
        .catch(() => resolve(undefined));
      setTimeout(() => resolve(undefined), 1000);
    });
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const own = await cdp.send("Runtime.getHeapUsage").catch(() => undefined);
      if (own) peakPage = Math.max(peakPage, own.usedSize);
      for (const s of workers) {
        const r = await ask(s);
        if (r) peakWorker = Math.max(peakWorker, r.usedSize);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  return {
    reset() {
      peakPage = 0;
      peakWorker = 0;
    },
    async stop() {
      stopped = true;
      await loop;
      return { page: peakPage, worker: peakWorker };
    },
    peaks: () => ({ page: peakPage, worker: peakWorker }),
  };
}

// --task-cpu: a Chromium trace ("toplevel" only) of each phase, for the thread (CPU) time of the
// page's longest task beside its wall time: on a machine busier than its cores a `longtask`
// mostly measures the wait for a core. CODESLICE_BENCH_TRACE=DIR records a fuller trace of each
// phase into DIR instead (what ran in each task: test/bench/lib/long-tasks.mjs reads it).
const TRACE_DIR = process.env.CODESLICE_BENCH_TRACE;
const TASK_CPU = Boolean(flags["task-cpu"]) || Boolean(TRACE_DIR);

/** The longest task on a renderer's main thread in a trace: wall and thread ms, and the most thread ms of any task. */
function mainThreadTasks(buffer) {
  const raw = JSON.parse(buffer.toString("utf8"));
  const events = Array.isArray(raw) ? raw : raw.traceEvents;
  const mains = new Set(
    events.filter((e) => e.name === "thread_name" && e.args?.name === "CrRendererMain").map((e) => `${e.pid}:${e.tid}`),
  );
  let wall = 0;
  let wallThread = 0;
  let thread = 0;
  for (const e of events) {
    if (
      e.ph !== "X" ||
      (e.name !== "RunTask" && e.name !== "ThreadControllerImpl::RunTask") ||
      !mains.has(`${e.pid}:${e.tid}`)
    )
      continue;
    if (e.dur > wall) [wall, wallThread] = [e.dur, e.tdur ?? 0];
    thread = Math.max(thread, e.tdur ?? 0);
  }
  return { longestTaskTraceMs: wall / 1000, longestTaskThreadMs: wallThread / 1000, mostTaskThreadMs: thread / 1000 };
}

async function startTrace(browser, page, name) {
  if (!TASK_CPU) return { stop: async () => ({}) };
  const file = TRACE_DIR ? path.join(TRACE_DIR, `${name}-${Date.now().toString(36)}.json`) : undefined;
  const categories = TRACE_DIR
    ? ["toplevel", "devtools.timeline", "disabled-by-default-devtools.timeline", "v8", "blink", "loading"]
    : ["toplevel"];
  await browser.startTracing(page, { ...(file ? { path: file } : {}), categories });
  return { stop: async () => mainThreadTasks(await browser.stopTracing()) };
}

async function indexed(page) {
  await page.waitForSelector("body[data-indexed]", { timeout: 600_000 });
  await page.waitForFunction(() => !document.body.dataset.busy, undefined, { timeout: 600_000 });
}

async function counters(page) {
  const n = async (id) => Number((await page.getByTestId(id).innerText()).replace(/[^\d]/g, ""));
  return {
    parsed: await n("parsed-count"),
    reused: await n("reused-count"),
    files: await n("files-count"),
    symbols: await n("symbols-count"),
    indexMs: await n("index-time"),
  };
}

/** Counts the Web Workers Chromium starts (nested ones included), from browser-wide target discovery. */
async function workerCounter(browser) {
  const cdp = await browser.newBrowserCDPSession();
  let started = 0;
  cdp.on("Target.targetCreated", (e) => {
    if (e.targetInfo.type === "worker") started++;
  });
  await cdp.send("Target.setDiscoverTargets", { discover: true });
  return { reset: () => (started = 0), count: () => started, close: () => cdp.detach().catch(() => {}) };
}

/**
 * CPU seconds (user + system) of the browser's process tree so far, from /proc (Linux): every
 * thread of every Chromium process counts, so a pool's extra work (worker start, grammar and query
 * compiles, message handling) shows here even where wall time hides it. Undefined elsewhere.
 */
function browserCpuSeconds() {
  if (process.platform !== "linux") return undefined;
  const tick = 100; // USER_HZ on Linux
  const stats = new Map();
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const text = fs.readFileSync(`/proc/${name}/stat`, "utf8");
      const f = text.slice(text.lastIndexOf(")") + 2).split(" ");
      const root = fs.readFileSync(`/proc/${name}/cmdline`, "utf8").split("\0").includes(MARKER);
      stats.set(Number(name), { ppid: Number(f[1]), cpu: (Number(f[11]) + Number(f[12])) / tick, root });
    } catch {
      // gone meanwhile
    }
  }
  let total = 0;
  for (const [pid, st] of stats) {
    for (let p = pid, hops = 0; p > 1 && hops < 16; p = stats.get(p)?.ppid ?? 0, hops++) {
      if (stats.get(p)?.root) {
        total += st.cpu;
        break;
      }
    }
  }
  return total;
}

/**
 * Samples the CPU seconds of every thread of the browser's processes (/proc/PID/task, Linux) every
 * 250 ms, keeping each thread's first and last reading, so threads that end before the run does
 * (the parse workers close with the pool) still count. `split()` then tells apart the Web Worker
 * threads that were running when sampling began (the engine worker) from those started since (the
 * parse workers), and the rest (the page's thread, compositor, GPU and browser processes).
 */
function threadCpuSampler() {
  if (process.platform !== "linux") return { stop: () => undefined };
  const threads = new Map();
  let first = true;
  const sample = () => {
    for (const [key, { comm, cpu }] of browserThreads(MARKER)) {
      const t = threads.get(key);
      if (t) t.last = cpu;
      else threads.set(key, { comm, first: first ? cpu : 0, last: cpu, old: first });
    }
    first = false;
  };
  sample();
  const timer = setInterval(sample, 250);
  return {
    stop() {
      clearInterval(timer);
      sample();
      const out = { engineWorker: 0, parseWorkers: 0, other: 0 };
      for (const t of threads.values()) {
        const used = t.last - t.first;
        if (t.comm.startsWith("DedicatedWorker")) out[t.old ? "engineWorker" : "parseWorkers"] += used;
        else out.other += used;
      }
      return out;
    },
  };
}

/** The SHA-256 of the index file the page saves ("Save index file"). */
async function savedIndexSha(page) {
  const [download] = await Promise.all([
    page.waitForEvent("download", { timeout: 600_000 }),
    page.click("#save-index"),
  ]);
  const file = await download.path();
  const sha = createHash("sha256").update(fs.readFileSync(file)).digest("hex");
  await download.delete().catch(() => {});
  await page.waitForFunction(() => !document.body.dataset.busy, undefined, { timeout: 600_000 });
  return sha;
}

async function runCase(browser, site, kind, zipPath, jobs) {
  const context = await browser.newContext({
    viewport: { width: 1400, height: 900 },
    serviceWorkers: "block",
    acceptDownloads: true,
  });
  await context.addInitScript(LONG_TASKS);
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  const query = new URLSearchParams({
    ...(STORE ? { store: STORE } : {}),
    ...(jobs && jobs !== "default" ? { jobs } : {}),
  }).toString();
  await page.goto(query ? `${site.url}?${query}` : site.url);
  await page.waitForFunction(() => document.readyState === "complete");
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  const heap = await heapSampler(context, page);
  const workers = await workerCounter(browser);
  await page.evaluate(() => ((window.__longTasks.length = 0), (window.__longFrames.length = 0)));
  heap.reset();
  workers.reset();
  const coldTrace = await startTrace(browser, page, `${kind}-${jobs ?? "default"}-cold`);
  const cpu0 = browserCpuSeconds();
  const byThread = threadCpuSampler();
  const t0 = performance.now();
  if (kind === "sample") await page.click("#load-sample");
  else await page.setInputFiles("#file-input", zipPath);
  await indexed(page);
  const coldWall = performance.now() - t0;
  const cpu1 = browserCpuSeconds();
  const threadCpu = byThread.stop();
  const coldTasks = await coldTrace.stop();
  const coldHeap = heap.peaks();
  const coldLong = await page.evaluate(() => Math.max(0, ...window.__longTasks));
  const coldFrames = await longFrames(page);
  const cold = await counters(page);
  const coldWorkers = workers.count();
  await workers.close();
  const indexSha = kind === "sample" ? undefined : await savedIndexSha(page);

  // Reload: the project re-opens from OPFS and nothing is parsed.
  heap.reset();
  await page.evaluate(() => (window.__longTasks.length = 0));
  await page.evaluate(() => (window.__longFrames.length = 0));
  const warmTrace = await startTrace(browser, page, `${kind}-${jobs ?? "default"}-reload`);
  const t1 = performance.now();
  await page.reload();
  await indexed(page);
  const warmWall = performance.now() - t1;
  const warm = await counters(page);
  const warmLong = await page.evaluate(() => Math.max(0, ...window.__longTasks));
  const warmFrames = await longFrames(page);
  const warmTasks = await warmTrace.stop();
  if (process.env.CODESLICE_BENCH_FRAMES)
    console.error(JSON.stringify({ kind, jobs, coldLong, coldFrames, warmLong, warmFrames }, null, 1));
  const warmHeap = await heap.stop();
  await context.close();
  if (errors.length) throw new Error(`page errors: ${errors.join("; ")}`);
  return {
    cores,
    indexSha,
    cold: {
      wallMs: coldWall,
      ...cold,
      heapPage: coldHeap.page,
      heapWorker: coldHeap.worker,
      longestTaskMs: coldLong,
      longFrames: coldFrames,
      ...coldTasks,
      workers: coldWorkers,
      cpuS: cpu0 !== undefined && cpu1 !== undefined ? cpu1 - cpu0 : NaN,
      threadCpu,
    },
    warm: {
      wallMs: warmWall,
      ...warm,
      heapPage: warmHeap.page,
      heapWorker: warmHeap.worker,
      longestTaskMs: warmLong,
      longFrames: warmFrames,
      ...warmTasks,
    },
  };
}

// ---------------------------------------------------------------------------------------------

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const summary = (runs, pick) => {
  const xs = runs.map(pick);
  return { median: median(xs), min: Math.min(...xs), max: Math.max(...xs) };
};
const range = (s, f) => `${f(s.median)} (${f(s.min)}–${f(s.max)})`;

console.error("building the playground…");
await buildSite();
const site = await serve(dist);
const tree = fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-browser-bench-"));
const zipPath = path.join(tree, "generated.zip");
fs.writeFileSync(zipPath, zipOf(generateTree(TREE_FILES), "generated"));
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
const zipName = (jobs) => `zip of ${TREE_FILES} files, jobs ${jobs}`;
const cases = { sample: [], ...Object.fromEntries(JOBS.map((j) => [zipName(j), []])) };
try {
  for (let r = 0; r < RUNS; r++) {
    console.error(`run ${r + 1}/${RUNS}: sample`);
    cases.sample.push(await runCase(browser, site, "sample", zipPath, undefined));
    // The jobs variants in a rotated order each round: none always runs first or last.
    const order = JOBS.map((_, i) => JOBS[(i + r) % JOBS.length]);
    for (const jobs of order) {
      console.error(`run ${r + 1}/${RUNS}: ${zipName(jobs)}`);
      cases[zipName(jobs)].push(await runCase(browser, site, "tree", zipPath, jobs));
    }
  }
} finally {
  await browser.close();
  await site.close();
  fs.rmSync(tree, { recursive: true, force: true });
}

const rows = [];
const results = {};
let failed = false;
for (const [name, runs] of Object.entries(cases)) {
  for (const phase of ["cold", "warm"]) {
    const r = runs.map((x) => x[phase]);
    const s = {
      wallMs: summary(r, (x) => x.wallMs),
      indexMs: summary(r, (x) => x.indexMs),
      parsed: summary(r, (x) => x.parsed),
      files: r[0].files,
      symbols: r[0].symbols,
      heapPageMiB: summary(r, (x) => x.heapPage / 2 ** 20),
      heapWorkerMiB: summary(r, (x) => x.heapWorker / 2 ** 20),
      longestTaskMs: summary(r, (x) => x.longestTaskMs),
      ...(TASK_CPU ? { mostTaskThreadMs: summary(r, (x) => x.mostTaskThreadMs) } : {}),
      ...(phase === "cold"
        ? {
            workers: summary(r, (x) => x.workers),
            cpuS: summary(r, (x) => x.cpuS),
            cpuEngineWorkerS: summary(r, (x) => x.threadCpu?.engineWorker ?? NaN),
            cpuParseWorkersS: summary(r, (x) => x.threadCpu?.parseWorkers ?? NaN),
            cpuOtherS: summary(r, (x) => x.threadCpu?.other ?? NaN),
          }
        : {}),
    };
    results[`${name} ${phase}`] = s;
    if (s.longestTaskMs.max >= 100) failed = true;
    if (phase === "warm" && s.parsed.max > 0) failed = true;
    rows.push([
      `${name} ${phase === "cold" ? "cold" : "after reload"}`,
      s.files,
      s.parsed.median,
      range(s.wallMs, (x) => x.toFixed(0)),
      range(s.indexMs, (x) => x.toFixed(0)),
      phase === "cold" ? s.workers.median : "",
      phase === "cold" ? range(s.cpuS, (x) => x.toFixed(1)) : "",
      phase === "cold"
        ? `${s.cpuEngineWorkerS.median.toFixed(1)} / ${s.cpuParseWorkersS.median.toFixed(1)} / ${s.cpuOtherS.median.toFixed(1)}`
        : "",
      range(s.heapWorkerMiB, (x) => x.toFixed(1)),
      range(s.heapPageMiB, (x) => x.toFixed(1)),
      range(s.longestTaskMs, (x) => x.toFixed(0)),
      ...(TASK_CPU ? [range(s.mostTaskThreadMs, (x) => x.toFixed(0))] : []),
    ]);
  }
}
// Same answers: every zip run, whatever its jobs, saved the same index file.
const shas = new Set(
  Object.entries(cases)
    .filter(([n]) => n !== "sample")
    .flatMap(([, runs]) => runs.map((x) => x.indexSha)),
);
const sameAnswers = shas.size === 1;
if (!sameAnswers) failed = true;
const cores = cases.sample[0]?.cores;
console.log(
  mdTable(
    [
      "case",
      "files",
      "parsed",
      "wall ms",
      "engine index ms",
      "workers started",
      "browser CPU s",
      "CPU s: engine worker / parse workers / rest",
      "peak heap engine worker MiB",
      "peak heap page MiB",
      "longest main-thread task ms",
      ...(TASK_CPU ? ["most CPU ms in one main-thread task"] : []),
    ],
    rows,
  ),
);
console.log(
  `\nChromium ${CHROMIUM} (navigator.hardwareConcurrency ${cores}: the default jobs is ${Math.max(1, Math.min(8, (cores ?? 1) - 1))}), index in ${STORE ?? "opfs"}, ${RUNS} runs each, load average ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(
      " ",
    )} at the end; main-thread blocks ${failed ? "REACHED 100 ms or answers differed" : "stayed under"} 100 ms; index files saved after the zip's cold runs: ${sameAnswers ? `all equal (sha256 ${[...shas][0]?.slice(0, 16)}…)` : `DIFFER (${shas.size} distinct)`}.`,
);
writeJson(
  path.join(
    resultsDir,
    flags.out ? path.basename(String(flags.out)) : STORE ? `browser-${STORE}.json` : "browser.json",
  ),
  {
    machine: machine(),
    chromium: CHROMIUM,
    store: STORE ?? "opfs",
    runs: RUNS,
    treeFiles: TREE_FILES,
    hardwareConcurrency: cores,
    jobs: JOBS,
    sameAnswers,
    indexSha: [...shas],
    results,
    raw: cases,
  },
);
process.exit(failed ? 1 : 0);
