#!/usr/bin/env node
// OPFS operation costs in Chromium: what each step of writing one small file from a dedicated
// worker costs the browser, in CPU seconds of Chromium's whole process tree (/proc, Linux), to
// tell which steps an OPFS store pays per value. Modes, each N files of 3,000 bytes, 64 in flight
// (as the indexer writes records), each mode in a fresh worker and folder, rounds alternating:
//   create    getFileHandle(name, { create: true })
//   sahopen   + createSyncAccessHandle() and close()
//   sahwrite  + one write() through the handle (the quota capacity request happens here)
//   sahmove   + move() onto another name (the atomic write with a sync access handle)
//   writable  create, createWritable(), write(), close(), move() (what OpfsStore does)
//   idb       one IndexedDB put per value, one transaction each (what IdbStore does)
//   pack64    the values of each batch of 64 written as one file (createWritable(), move()): what
//             a store that packs records several to a file would pay, per value
//
// Rerun:  node test/bench/opfs-ops-bench.mjs [--files 1000] [--rounds 2] [--modes create,sahmove,...] [--out NAME.json]
// Output: a table on stdout and test/bench/results/opfs-ops.json (opfs-ops-pack.json: --files 2000
// --rounds 3 --modes writable,pack64,idb).
import fs from "node:fs";
import { createServer } from "node:http";
import os from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";
import { benchChromium } from "./lib/chromium-threads.mjs";
import { machine, mdTable, parseArgs, resultsDir, writeJson } from "./lib/bench-utils.mjs";

const { flags } = parseArgs(process.argv.slice(2), ["help"]);
if (flags.help) {
  console.log(
    "usage: node test/bench/opfs-ops-bench.mjs [--files N] [--rounds N] [--modes create,sahopen,sahwrite,sahmove,writable,idb,pack64] [--out NAME.json]",
  );
  process.exit(0);
}
const N = Number(flags.files ?? 1000);
const ROUNDS = Number(flags.rounds ?? 2);
const MODES = String(flags.modes ?? "create,sahopen,sahwrite,sahmove,writable,idb,pack64").split(",");
const CHROMIUM = benchChromium();
const MARKER = `--codeslice-bench=${process.pid}`;

const WORKER = `
self.onmessage = async ({ data: { mode, n } }) => {
  const root = await navigator.storage.getDirectory();
  const dir = await root.getDirectoryHandle("opfs-ops-" + mode + "-" + Math.random().toString(36).slice(2), { create: true });
  const sub = await dir.getDirectoryHandle("ab", { create: true });
  const v = new Uint8Array(3000).fill(7);
  let db;
  if (mode === "idb") db = await new Promise((res, rej) => { const r = indexedDB.open("opfs-ops-" + Math.random(), 1); r.onupgradeneeded = () => r.result.createObjectStore("kv"); r.onsuccess = () => res(r.result); r.onerror = rej; });
  postMessage("ready");
  await new Promise((r) => (self.onmessage = r));
  const one = async (i) => {
    if (mode === "idb") return new Promise((res, rej) => { const t = db.transaction("kv", "readwrite"); t.objectStore("kv").put(v.slice(), "k" + i); t.oncomplete = res; t.onerror = rej; });
    const h = await sub.getFileHandle("t" + i, { create: true });
    if (mode === "create") return;
    if (mode === "writable") { const w = await h.createWritable(); await w.write(v); await w.close(); await h.move("k" + i); return; }
    const s = await h.createSyncAccessHandle();
    if (mode !== "sahopen") s.write(v, { at: 0 });
    s.close();
    if (mode === "sahmove") await h.move("k" + i);
  };
  const t0 = performance.now();
  if (mode === "pack64") {
    for (let i = 0; i < n; i += 64) {
      const count = Math.min(64, n - i);
      const pack = new Uint8Array(count * v.length);
      for (let j = 0; j < count; j++) pack.set(v, j * v.length);
      const h = await sub.getFileHandle("t" + i, { create: true });
      const w = await h.createWritable();
      await w.write(pack);
      await w.close();
      await h.move("p" + i);
    }
  } else for (let i = 0; i < n; i += 64) await Promise.all(Array.from({ length: Math.min(64, n - i) }, (_, j) => one(i + j)));
  const ms = performance.now() - t0;
  await root.removeEntry(dir.name, { recursive: true }).catch(() => {});
  postMessage({ ms });
};`;

/** CPU seconds of the browser's process tree (Linux /proc). */
function browserCpu() {
  const roots = new Set();
  const stats = new Map();
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const text = fs.readFileSync(`/proc/${name}/stat`, "utf8");
      const f = text.slice(text.lastIndexOf(")") + 2).split(" ");
      stats.set(Number(name), { ppid: Number(f[1]), cpu: (Number(f[11]) + Number(f[12])) / 100 });
      if (fs.readFileSync(`/proc/${name}/cmdline`, "utf8").split("\0").includes(MARKER)) roots.add(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  let total = 0;
  for (const [pid, st] of stats) {
    for (let p = pid, hops = 0; p > 1 && hops < 16; p = stats.get(p)?.ppid ?? 0, hops++) {
      if (roots.has(p)) {
        total += st.cpu;
        break;
      }
    }
  }
  return total;
}

const server = createServer((req, res) =>
  req.url === "/w.js"
    ? res.writeHead(200, { "Content-Type": "text/javascript" }).end(WORKER)
    : res.writeHead(200, { "Content-Type": "text/html" }).end("<!doctype html><title>opfs ops</title>"),
);
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const url = `http://127.0.0.1:${server.address().port}/`;
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: [
    MARKER,
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
  ],
  headless: true,
});
const runs = Object.fromEntries(MODES.map((m) => [m, []]));
try {
  const page = await browser.newPage();
  await page.goto(url);
  for (let r = 0; r < ROUNDS; r++) {
    for (const mode of MODES) {
      await page.evaluate(
        ({ mode, n }) =>
          new Promise((resolve) => {
            const w = new Worker("/w.js");
            window.__w = w;
            w.onmessage = () => resolve();
            w.postMessage({ mode, n });
          }),
        { mode, n: N },
      );
      await new Promise((r) => setTimeout(r, 300)); // the worker's start-up settles
      const c0 = browserCpu();
      const ms = await page.evaluate(
        () =>
          new Promise((resolve) => {
            window.__w.onmessage = (e) => resolve(e.data.ms);
            window.__w.postMessage("go");
          }),
      );
      const cpuS = browserCpu() - c0;
      await page.evaluate(() => window.__w.terminate());
      runs[mode].push({ ms, cpuS });
      console.error(`round ${r + 1}/${ROUNDS} ${mode}: ${ms.toFixed(0)} ms, CPU ${cpuS.toFixed(2)} s`);
    }
  }
} finally {
  await browser.close();
  server.close();
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const results = Object.fromEntries(
  MODES.map((m) => [
    m,
    {
      ms: median(runs[m].map((x) => x.ms)),
      cpuS: median(runs[m].map((x) => x.cpuS)),
      cpuMsPerFile: (1000 * median(runs[m].map((x) => x.cpuS))) / N,
    },
  ]),
);
console.log(
  mdTable(
    ["mode", `wall ms (${N} files)`, "Chromium CPU s", "CPU ms per file"],
    MODES.map((m) => [m, results[m].ms.toFixed(0), results[m].cpuS.toFixed(2), results[m].cpuMsPerFile.toFixed(2)]),
  ),
);
console.log(
  `\n${ROUNDS} rounds (median), load average ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(" ")} at the end.`,
);
writeJson(path.join(resultsDir, flags.out ? path.basename(String(flags.out)) : "opfs-ops.json"), {
  machine: machine(),
  chromium: CHROMIUM,
  files: N,
  rounds: ROUNDS,
  results,
  raw: runs,
});
