#!/usr/bin/env node
// What the browser's index store costs against the parse, and the browser's engine index against
// Node's, on the same files (issue 27: "store CPU ≤ parse CPU, engine index CPU within 1.5× Node's").
//
// The files: browser-bench's generated 2,000-file tree (1,200 Python and 800 TypeScript modules).
// Each build (a checkout: its src/ bundled with esbuild into a dedicated worker, its wasm/ served)
// runs these modes in headless Chromium, each in a fresh worker, the CPU counted over Chromium's
// whole process tree (/proc, Linux) from the worker's "go" to its answer, the files already in
// the worker's memory:
//   parse    tree-sitter's parse alone of every file (the runtime and grammars loaded as the engine
//            loads them; each tree deleted)
//   extract  the engine's parse and extraction of every file (parseFile): the record, no store
//   memory   engine.index() over the files with a MemoryStore (jobs 1)
//   opfs     engine.index() with the browser store (openBrowserStore, OPFS), until its writes landed
//   reopen   a new engine over that OPFS store, in a new worker: index() (nothing to parse)
// Store CPU = opfs − memory. In Node (this checkout's dist/, each mode in a fresh process, CPU
// from process.cpuUsage() around the same work): parse, extract, memory, and disk (index() with a
// NodeStore in a temporary folder: the CLI's store). Rounds rotate the modes and builds.
//
// Rerun:  node scripts/build.mjs && npm run bench -- browser-store [--builds main=/work/main,new=.] [--rounds 3] [--files 2000]
// Output: a table on stdout and test/bench/results/browser-store.json (or --out NAME.json).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { createServer } from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { chromium } from "playwright-core";
import { benchChromium, browserThreads } from "./lib/chromium-threads.mjs";
import { machine, mdTable, parseArgs, resultsDir, writeJson } from "./lib/bench-utils.mjs";
import { generateTree } from "./lib/generated-tree.mjs";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const argv = process.argv.slice(2);

// Node child: one mode over the files in a JSON file, prints its CPU seconds.
if (argv[0] === "--node-child") {
  const [, mode, filesJson] = argv;
  const dist = (p) => import(pathToFileURL(path.join(repoRoot, "dist", p)).href);
  const { createEngine } = await dist("index.js");
  const { MemoryFileSystem, MemoryStore } = await dist("platform/memory/index.js");
  const { NodeWasmSource, NodeStore } = await dist("platform/node/index.js");
  const { createParserRuntime } = await dist("core/parse/runtime.js");
  const { parseFile } = await dist("core/engine/parse-file.js");
  const { languagesForProject } = await dist("languages/index.js");
  const files = JSON.parse(fs.readFileSync(filesJson, "utf8"));
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-store-bench-"));
  const c0 = process.cpuUsage();
  const out = await runMode(mode, files, {
    createEngine,
    fs: () => new MemoryFileSystem(files, "generated"),
    store: () => (mode === "disk" ? new NodeStore(cache) : new MemoryStore()),
    wasm: () => new NodeWasmSource(),
    createParserRuntime,
    parseFile,
    languagesForProject,
  });
  const c = process.cpuUsage(c0);
  fs.rmSync(cache, { recursive: true, force: true });
  console.log(JSON.stringify({ ...out, cpuS: (c.user + c.system) / 1e6 }));
  process.exit(0);
}

/** One mode's work, the same code in Node and (inlined into the worker bundle) in Chromium. */
async function runMode(mode, files, env) {
  if (mode === "parse" || mode === "extract") {
    const runtime = await env.createParserRuntime(env.wasm());
    const languageOf = env.languagesForProject(Object.keys(files));
    let parsed = 0;
    for (const [file, text] of Object.entries(files)) {
      const spec = languageOf(file);
      if (!spec) continue;
      if (mode === "parse") {
        const loaded = await runtime.load(spec);
        runtime.parser.setLanguage(loaded.language);
        runtime.parser.parse(text).delete();
      } else await env.parseFile(runtime, spec, text, file, "0".repeat(40));
      parsed++;
    }
    return { parsed };
  }
  const store = await env.store();
  const engine = env.createEngine({ fs: env.fs(), store, wasm: env.wasm() });
  const summary = await engine.index({ jobs: 1 });
  // A store that acknowledges before writing: counted until its writes landed (the index ends
  // with a flush in builds that have it; a build before it had every write landed by then).
  if (typeof store.flush === "function") await store.flush();
  engine.close?.();
  return { parsed: summary.parsed, indexMs: summary.durationMs };
}

const { flags } = parseArgs(argv, ["help", "no-node"]);
if (flags.help) {
  console.log(
    "usage: node test/bench/browser-store-bench.mjs [--builds NAME=CHECKOUT,...] [--rounds N] [--files N] [--no-node] [--out NAME.json]",
  );
  process.exit(0);
}
const ROUNDS = Number(flags.rounds ?? 3);
const TREE_FILES = Number(flags.files ?? 2000);
const BUILDS = String(flags.builds ?? "new=.")
  .split(",")
  .map((b) => {
    const [name, dir] = b.split("=");
    return { name, dir: path.resolve(repoRoot, dir) };
  });
const BROWSER_MODES = ["parse", "extract", "memory", "opfs"];
const NODE_MODES = ["parse", "extract", "memory", "disk"];
const CHROMIUM = benchChromium();
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

const WORKER = (dir) => `
import { createEngine } from ${JSON.stringify(path.join(dir, "src/index.ts"))};
import { FetchWasmSource, MemoryFileSystem, MemoryStore, openBrowserStore } from ${JSON.stringify(path.join(dir, "src/platform/browser/index.ts"))};
import { createParserRuntime } from ${JSON.stringify(path.join(dir, "src/core/parse/runtime.ts"))};
import { parseFile } from ${JSON.stringify(path.join(dir, "src/core/engine/parse-file.ts"))};
import { languagesForProject } from ${JSON.stringify(path.join(dir, "src/languages/index.ts"))};
${runMode.toString()}
self.onmessage = async ({ data: { mode, ns, base } }) => {
  try {
    const files = await (await fetch(base + "files.json")).json();
    self.postMessage({ ready: true });
    await new Promise((r) => (self.onmessage = r));
    const t0 = performance.now();
    const out = await runMode(mode === "reopen" ? "opfs" : mode, files, {
      createEngine, createParserRuntime, parseFile, languagesForProject,
      fs: () => new MemoryFileSystem(files, "generated"),
      wasm: () => new FetchWasmSource(base + "wasm/"),
      store: async () => mode === "memory" ? new MemoryStore() : (await openBrowserStore({ namespace: ns, prefer: "opfs" })).store,
    });
    const wallMs = performance.now() - t0;
    // How many files the index left in its OPFS folder (outside the measured time).
    let storeFiles;
    if (mode === "opfs") {
      const index = await (await navigator.storage.getDirectory()).getDirectoryHandle("codeslice").then((d) => d.getDirectoryHandle("index"));
      const count = async (dir) => { let n = 0; for await (const [, h] of dir.entries()) n += h.kind === "file" ? 1 : await count(h); return n; };
      storeFiles = await count(await index.getDirectoryHandle(ns));
    }
    self.postMessage({ done: true, wallMs, storeFiles, ...out });
  } catch (error) {
    self.postMessage({ error: String((error && error.stack) || error) });
  }
};
`;

const tree = Object.fromEntries(generateTree(TREE_FILES).map(([p, b]) => [p, b.toString("utf8")]));
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-store-bench-"));
const filesJson = path.join(scratch, "files.json");
fs.writeFileSync(filesJson, JSON.stringify(tree));

const bundles = new Map();
for (const b of BUILDS) {
  const out = await build({
    stdin: { contents: WORKER(b.dir), resolveDir: b.dir, loader: "js" },
    bundle: true,
    format: "esm",
    write: false,
    target: "es2022",
    logLevel: "error",
  });
  bundles.set(b.name, out.outputFiles[0].text);
}
const server = createServer((req, res) => {
  const u = new URL(req.url, "http://x");
  const [, build, ...rest] = u.pathname.split("/");
  if (u.pathname === "/")
    return res.writeHead(200, { "Content-Type": "text/html" }).end("<!doctype html><title>store bench</title>");
  const b = BUILDS.find((x) => x.name === build);
  if (!b) return res.writeHead(404).end();
  if (rest.join("/") === "worker.js")
    return res.writeHead(200, { "Content-Type": "text/javascript" }).end(bundles.get(b.name));
  if (rest.join("/") === "files.json")
    return res.writeHead(200, { "Content-Type": "application/json" }).end(fs.readFileSync(filesJson));
  if (rest[0] === "wasm" && rest.length === 2 && /^[\w.-]+$/.test(rest[1])) {
    const file = path.join(b.dir, "wasm", rest[1]);
    if (fs.existsSync(file))
      return res
        .writeHead(200, { "Content-Type": file.endsWith(".wasm") ? "application/wasm" : "application/json" })
        .end(fs.readFileSync(file));
  }
  res.writeHead(404).end();
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const url = `http://127.0.0.1:${server.address().port}/`;

/** CPU seconds by thread group between two /proc readings. */
function cpuDelta(before, after) {
  const d = { worker: 0, other: 0 };
  for (const [key, t] of after) {
    const used = t.cpu - (before.get(key)?.cpu ?? 0);
    if (t.comm.startsWith("DedicatedWorker")) d.worker += used;
    else d.other += used;
  }
  return d;
}

async function browserRun(page, build, mode, ns) {
  await page.evaluate(() => {
    window.__bench = [];
    window.__worker?.terminate();
  });
  await page.evaluate(
    ({ src, mode, ns, base }) => {
      const w = new Worker(src, { type: "module" });
      window.__worker = w;
      w.onmessage = (e) => window.__bench.push(e.data);
      w.onerror = (e) => window.__bench.push({ error: e.message });
      w.postMessage({ mode, ns, base });
    },
    { src: `${url}${build.name}/worker.js`, mode, ns, base: `${url}${build.name}/` },
  );
  const waitFor = async (field) => {
    const handle = await page.waitForFunction((f) => window.__bench.find((m) => m[f] || m.error), field, {
      timeout: 900_000,
    });
    const m = await handle.jsonValue();
    if (m.error) throw new Error(`${build.name} ${mode}: ${m.error}`);
    return m;
  };
  await waitFor("ready");
  await new Promise((r) => setTimeout(r, 300)); // the worker's start-up CPU settles
  const before = browserThreads(MARKER);
  await page.evaluate(() => window.__worker.postMessage("go"));
  const got = await waitFor("done");
  const cpu = cpuDelta(before, browserThreads(MARKER));
  await page.evaluate(() => window.__worker.terminate());
  return { ...got, cpuS: cpu.worker + cpu.other, cpuWorkerS: cpu.worker, cpuOtherS: cpu.other, load1: os.loadavg()[0] };
}

function nodeRun(mode) {
  const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url), "--node-child", mode, filesJson], {
    encoding: "utf8",
    maxBuffer: 1 << 26,
  });
  return { ...JSON.parse(out.trim().split("\n").at(-1)), load1: os.loadavg()[0] };
}

const runs = {};
const add = (name, r) => (runs[name] ??= []).push(r);
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
try {
  const page = await (await browser.newContext()).newPage();
  await page.goto(url);
  for (let r = 0; r < ROUNDS; r++) {
    for (let i = 0; i < BUILDS.length; i++) {
      const b = BUILDS[(i + r) % BUILDS.length];
      const modes = BROWSER_MODES.map((_, j) => BROWSER_MODES[(j + r) % BROWSER_MODES.length]);
      for (const mode of modes) {
        const ns = `store-bench-${b.name}-${r}-${Date.now().toString(36)}`;
        const got = await browserRun(page, b, mode, ns);
        add(`chromium ${b.name} ${mode}`, got);
        console.error(`round ${r + 1}/${ROUNDS} chromium ${b.name} ${mode}: ${got.cpuS.toFixed(2)} CPU-s`);
        if (mode === "opfs") {
          const again = await browserRun(page, b, "reopen", ns);
          add(`chromium ${b.name} reopen`, again);
          console.error(`round ${r + 1}/${ROUNDS} chromium ${b.name} reopen: ${again.cpuS.toFixed(2)} CPU-s`);
          await page.evaluate(async (n) => {
            const parent = await (await navigator.storage.getDirectory())
              .getDirectoryHandle("codeslice")
              .then((d) => d.getDirectoryHandle("index"));
            await parent.removeEntry(n, { recursive: true }).catch(() => {});
          }, ns);
        }
      }
    }
    if (!flags["no-node"]) {
      for (const mode of NODE_MODES.map((_, j) => NODE_MODES[(j + r) % NODE_MODES.length])) {
        const got = nodeRun(mode);
        add(`node ${mode}`, got);
        console.error(`round ${r + 1}/${ROUNDS} node ${mode}: ${got.cpuS.toFixed(2)} CPU-s`);
      }
    }
  }
} finally {
  await browser.close();
  server.close();
  fs.rmSync(scratch, { recursive: true, force: true });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const summary = (xs) => ({ median: median(xs), min: Math.min(...xs), max: Math.max(...xs) });
const f = (s, d = 2) => `${s.median.toFixed(d)} (${s.min.toFixed(d)}–${s.max.toFixed(d)})`;
const results = {};
const rows = [];
for (const [name, r] of Object.entries(runs)) {
  const s = {
    cpuS: summary(r.map((x) => x.cpuS)),
    ...(r[0].cpuWorkerS !== undefined
      ? { cpuWorkerS: summary(r.map((x) => x.cpuWorkerS)), cpuOtherS: summary(r.map((x) => x.cpuOtherS)) }
      : {}),
    parsed: r[0].parsed,
    ...(r[0].storeFiles !== undefined ? { storeFiles: r[0].storeFiles } : {}),
    ...(r[0].indexMs !== undefined ? { indexMs: summary(r.map((x) => x.indexMs)) } : {}),
  };
  results[name] = s;
  rows.push([
    name,
    s.parsed,
    f(s.cpuS),
    s.cpuWorkerS ? `${s.cpuWorkerS.median.toFixed(2)} / ${s.cpuOtherS.median.toFixed(2)}` : "",
    s.indexMs ? f(s.indexMs, 0) : "",
    s.storeFiles ?? "",
  ]);
}
console.log(
  mdTable(
    ["run", "parsed", "CPU s", "CPU s: worker / rest of Chromium", "engine index ms", "files in the store"],
    rows,
  ),
);
// The ratios the issue asks for, per build, from the medians of this one run.
const m = (name) => results[name]?.cpuS.median;
const ratios = {};
for (const b of BUILDS) {
  const store = m(`chromium ${b.name} opfs`) - m(`chromium ${b.name} memory`);
  ratios[b.name] = {
    storeCpuS: store,
    parseCpuS: m(`chromium ${b.name} parse`),
    extractCpuS: m(`chromium ${b.name} extract`),
    storeOverExtract: store / m(`chromium ${b.name} extract`),
    storeOverParse: store / m(`chromium ${b.name} parse`),
    ...(m("node disk") ? { opfsIndexOverNodeDisk: m(`chromium ${b.name} opfs`) / m("node disk") } : {}),
  };
  console.log(
    `\n${b.name}: store CPU (opfs − memory) ${store.toFixed(2)} s; parse alone ${m(`chromium ${b.name} parse`).toFixed(2)} s, ` +
      `parse + extraction ${m(`chromium ${b.name} extract`).toFixed(2)} s` +
      (m("node disk")
        ? `; engine index with OPFS ${m(`chromium ${b.name} opfs`).toFixed(2)} CPU-s against Node's ${m("node disk").toFixed(2)} (disk store) = ${ratios[b.name].opfsIndexOverNodeDisk.toFixed(2)}×`
        : ""),
  );
}
console.log(
  `\n${ROUNDS} rounds, ${TREE_FILES} files, Chromium ${CHROMIUM}, load average ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(" ")} at the end.`,
);
writeJson(path.join(resultsDir, flags.out ? path.basename(String(flags.out)) : "browser-store.json"), {
  machine: machine(),
  chromium: CHROMIUM,
  treeFiles: TREE_FILES,
  rounds: ROUNDS,
  builds: BUILDS.map((b) => ({ name: b.name, dir: b.dir })),
  results,
  ratios,
  raw: runs,
});
