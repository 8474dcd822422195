#!/usr/bin/env node
// The language server in the engine worker, in headless Chromium, warm: what a web IDE's editor
// waits for. A page built with Vite (in tmp/, from src/: createWorkerEngine and
// vscode-languageserver-protocol/browser's client; the worker runs serveEngine) opens a generated
// Python project of N files (`files` source, memory store), indexes it, connects to
// `engine.languageServer()`, and times round trips of textDocument/definition and hover at call
// sites and workspace/symbol for names, plus a definition right after an unsaved edit (didChange).
// Each run's p50 and p90 are recorded; the figures are medians over the runs. The machines are
// shared: the load average at start and end is recorded next to the figures.
//
// Rerun:  npm run bench -- lsp-browser [-- --runs 3] [--files 300,2000]
// Output: a markdown table on stdout and test/bench/results/lsp-browser.json.
import { createReadStream, promises as fsp } from "node:fs";
import fs from "node:fs";
import { createServer } from "node:http";
import os from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";
import { build } from "vite";
import { benchChromium } from "./lib/chromium-threads.mjs";
import {
  codesliceRevision,
  machine,
  mdTable,
  parseArgs,
  repoRoot,
  resultsDir,
  stats,
  writeJson,
} from "./lib/bench-utils.mjs";

const { flags } = parseArgs(process.argv.slice(2));
const RUNS = Number(flags.runs ?? 3);
const SIZES = String(flags.files ?? "300,2000")
  .split(",")
  .map(Number);
const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

const PAGE = `
import { createWorkerEngine } from "../../src/worker/worker-client.ts";
import { BrowserMessageReader, BrowserMessageWriter, createProtocolConnection } from "vscode-languageserver-protocol/browser";

function generated(n) {
  const files = {};
  for (let i = 0; i < n; i++) {
    const dir = "pkg/m" + Math.floor(i / 100);
    files[dir + "/mod" + i + ".py"] = (i > 0 ? "from pkg.m" + Math.floor((i - 1) / 100) + ".mod" + (i - 1) + " import f" + (i - 1) + "\\n\\n" : "") +
      "def f" + i + "(x):\\n    \\"\\"\\"Step " + i + ".\\"\\"\\"\\n    return " + (i > 0 ? "f" + (i - 1) + "(x) + " : "") + "x\\n\\nclass C" + i + ":\\n    def run(self):\\n        return f" + i + "(1)\\n";
  }
  return files;
}
const quantile = (xs, q) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(q * s.length))]; };

window.__run = async (n) => {
  const engine = createWorkerEngine(new Worker(new URL("./worker.js", import.meta.url), { type: "module" }));
  const files = generated(n);
  await engine.open({ kind: "files", files, label: "p" }, { kind: "memory" });
  const t0 = performance.now();
  await engine.index();
  const indexMs = performance.now() - t0;
  const port = engine.languageServer();
  const c = createProtocolConnection(new BrowserMessageReader(port), new BrowserMessageWriter(port));
  c.listen();
  await c.sendRequest("initialize", { processId: null, rootUri: "file:///p", capabilities: {} });
  await c.sendNotification("initialized", {});
  const uri = (i) => "file:///p/pkg/m" + Math.floor(i / 100) + "/mod" + i + ".py";
  const answered = {};
  const time = async (k, f, name) => {
    const out = [];
    answered[name] = 0;
    for (let j = 0; j < k; j++) {
      const t = performance.now();
      const a = await f(j);
      out.push(performance.now() - t);
      if (a && (!Array.isArray(a) || a.length)) answered[name]++;
    }
    return out;
  };
  const pick = (j) => 1 + Math.floor((j * (n - 1)) / 100);
  await time(20, (j) => c.sendRequest("textDocument/definition", { textDocument: { uri: uri(pick(j)) }, position: { line: 4, character: 12 } }), "warm-up");
  const definition = await time(100, (j) => c.sendRequest("textDocument/definition", { textDocument: { uri: uri(pick(j)) }, position: { line: 4, character: 12 } }), "definition");
  const hover = await time(100, (j) => c.sendRequest("textDocument/hover", { textDocument: { uri: uri(pick(j)) }, position: { line: 4, character: 12 } }), "hover");
  const workspaceSymbol = await time(30, (j) => c.sendRequest("workspace/symbol", { query: "f" + pick(j) }), "workspaceSymbol");
  const edited = pick(50);
  await c.sendNotification("textDocument/didOpen", { textDocument: { uri: uri(edited), languageId: "python", version: 1, text: files["pkg/m" + Math.floor(edited / 100) + "/mod" + edited + ".py"] } });
  const afterEdit = await time(10, async (j) => {
    await c.sendNotification("textDocument/didChange", { textDocument: { uri: uri(edited), version: j + 2 }, contentChanges: [{ text: files["pkg/m" + Math.floor(edited / 100) + "/mod" + edited + ".py"] + "\\n# edit " + j + "\\n" }] });
    return c.sendRequest("textDocument/definition", { textDocument: { uri: uri(edited) }, position: { line: 4, character: 12 } });
  }, "afterEdit");
  engine.terminate();
  const s = (xs) => ({ p50: quantile(xs, 0.5), p90: quantile(xs, 0.9) });
  return { indexMs, answered, definition: s(definition), hover: s(hover), workspaceSymbol: s(workspaceSymbol), afterEdit: s(afterEdit) };
};
window.__ready = true;
`;
const WORKER = `import { serveEngine } from "../../src/worker/worker-host.ts";
const base = "/wasm/";
serveEngine({ wasmBase: new URL(base, self.location.origin) });
`;

/** Builds the page into tmp/lsp-browser-bench/dist, with the wasm folder beside it. */
async function buildSite() {
  const root = path.join(repoRoot, "tmp", "lsp-browser-bench");
  fs.mkdirSync(root, { recursive: true });
  fs.writeFileSync(
    path.join(root, "index.html"),
    `<!doctype html><meta charset="utf-8"><title>lsp bench</title><script type="module" src="./page.js"></script>`,
  );
  fs.writeFileSync(path.join(root, "page.js"), PAGE.replace("./worker.js", "./worker.js"));
  fs.writeFileSync(path.join(root, "worker.js"), WORKER);
  const outDir = path.join(root, "dist");
  process.env.NODE_ENV = "production";
  await build({
    root,
    configFile: false,
    logLevel: "error",
    base: "/",
    worker: { format: "es" },
    build: { outDir, emptyOutDir: true, target: "es2022", chunkSizeWarningLimit: 5000 },
  });
  fs.mkdirSync(path.join(outDir, "wasm"), { recursive: true });
  for (const f of fs.readdirSync(path.join(repoRoot, "wasm")))
    fs.copyFileSync(path.join(repoRoot, "wasm", f), path.join(outDir, "wasm", f));
  return outDir;
}

const TYPES = {
  ".html": "text/html",
  ".js": "text/javascript",
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

const loadBefore = os.loadavg().map((x) => Number(x.toFixed(2)));
console.error("building the page…");
const site = await serve(await buildSite());
const browser = await chromium.launch({ executablePath: benchChromium(), args: ARGS, headless: true });
const results = [];
try {
  for (const n of SIZES) {
    const runs = [];
    for (let r = 0; r < RUNS; r++) {
      const page = await browser.newPage();
      page.on("pageerror", (e) => console.error(`page error: ${e.message}`));
      await page.goto(site.url);
      await page.waitForFunction(() => window.__ready === true);
      runs.push(await page.evaluate((size) => window.__run(size), n));
      await page.close();
      console.error(`${n} files, run ${r + 1}/${RUNS}: definition p50 ${runs.at(-1).definition.p50.toFixed(1)} ms`);
    }
    const med = (f) => Number(stats(runs.map(f)).median.toFixed(2));
    results.push({
      files: n,
      runs: RUNS,
      index_ms: med((x) => x.indexMs),
      answered: runs.map((x) => x.answered),
      ...Object.fromEntries(
        ["definition", "hover", "workspaceSymbol", "afterEdit"].map((k) => [
          k,
          { p50_ms: med((x) => x[k].p50), p90_ms: med((x) => x[k].p90) },
        ]),
      ),
    });
  }
} finally {
  await browser.close();
  await site.close();
}
const loadAfter = os.loadavg().map((x) => Number(x.toFixed(2)));
console.log(
  mdTable(
    [
      "files",
      "definition p50 / p90 ms",
      "hover p50 / p90 ms",
      "workspace/symbol p50 / p90 ms",
      "definition after an edit p50 / p90 ms",
      "index ms",
    ],
    results.map((r) => [
      r.files,
      `${r.definition.p50_ms} / ${r.definition.p90_ms}`,
      `${r.hover.p50_ms} / ${r.hover.p90_ms}`,
      `${r.workspaceSymbol.p50_ms} / ${r.workspaceSymbol.p90_ms}`,
      `${r.afterEdit.p50_ms} / ${r.afterEdit.p90_ms}`,
      r.index_ms,
    ]),
  ),
);
console.log(`\nnon-empty answers per run: ${JSON.stringify(results.map((r) => [r.files, r.answered]))}`);
console.log(
  `medians of ${RUNS} runs; load ${loadBefore.join(" ")} → ${loadAfter.join(" ")}; test/bench/results/lsp-browser.json`,
);
writeJson(path.join(resultsDir, "lsp-browser.json"), {
  bench: "lsp-browser",
  revision: codesliceRevision(),
  machine: machine(),
  load_before: loadBefore,
  load_after: loadAfter,
  results,
});
