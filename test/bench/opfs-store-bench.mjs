#!/usr/bin/env node
// OPFS store benchmark: the CPU an OpfsStore costs Chromium to write an index's records, build
// against build, in one headless Chromium.
//
// Each build's src/platform/browser/opfs-store.ts is bundled (esbuild) into a dedicated worker,
// the engine worker's situation, which writes N records (default 2,000, sizes like a cold index's
// records: 1.5-6 kB) under "v10/records/<2 hex>/<hash>" keys into a fresh store folder, at most 64
// writes in flight (as the indexer does), then reads every one back and compares the bytes. The
// builds take turns round by round (rotated order), each round in a fresh folder.
//
// Reported per build (median of the rounds, min and max): wall ms of the writes (until they landed:
// a store with flush() is flushed), CPU seconds of
// Chromium's whole process tree during the writes (/proc, Linux), split into the worker's thread
// and the rest (the browser process, where OPFS does its file and database work).
//
// Rerun:  node test/bench/opfs-store-bench.mjs --builds main=/work/main,new=. [--records 2000] [--rounds 5]
//         (a build is a checkout: its src/platform/browser/opfs-store.ts is used)
// Output: a table on stdout and test/bench/results/opfs-store.json (or --out NAME.json).
import { createServer } from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { chromium } from "playwright-core";
import { benchChromium, browserThreads } from "./lib/chromium-threads.mjs";
import { machine, mdTable, parseArgs, resultsDir, writeJson } from "./lib/bench-utils.mjs";

const { flags } = parseArgs(process.argv.slice(2), ["help"]);
if (flags.help || !flags.builds) {
  console.log(
    "usage: node test/bench/opfs-store-bench.mjs --builds NAME=CHECKOUT,NAME=CHECKOUT [--records N] [--rounds N] [--out NAME.json]",
  );
  process.exit(flags.help ? 0 : 1);
}
const RECORDS = Number(flags.records ?? 2000);
const ROUNDS = Number(flags.rounds ?? 5);
const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const BUILDS = String(flags.builds)
  .split(",")
  .map((b) => {
    const [name, dir] = b.split("=");
    return { name, file: path.resolve(repoRoot, dir, "src/platform/browser/opfs-store.ts") };
  });
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

// The worker: writes the records, then reads them back. Values are deterministic per index.
const WORKER = (storeFile) => `
import { OpfsStore, openDirectory } from ${JSON.stringify(storeFile)};
const hex = (i) => ((i * 2654435761) >>> 0).toString(16).padStart(8, "0");
const valueOf = (i) => {
  const v = new Uint8Array(1500 + ((i * 7919) % 4500));
  for (let j = 0; j < v.length; j++) v[j] = (i + j * 31) & 255;
  return v;
};
self.onmessage = async ({ data: { folder, records } }) => {
  try {
    const dir = await openDirectory(await navigator.storage.getDirectory(), folder);
    const store = new OpfsStore(dir);
    await store.keys("");
    const keys = Array.from({ length: records }, (_, i) => "v10/records/" + hex(i).slice(0, 2) + "/" + hex(i) + hex(i + 1));
    const values = keys.map((_, i) => valueOf(i));
    self.postMessage({ ready: true });
    await new Promise((r) => (self.onmessage = r));
    const t0 = performance.now();
    let writes = [];
    for (let i = 0; i < records; i++) {
      writes.push(store.set(keys[i], values[i]));
      if (writes.length >= 64) await Promise.all(writes.splice(0));
    }
    await Promise.all(writes);
    // A store that acknowledges before writing (the packed store) is timed until its writes landed.
    if (typeof store.flush === "function") await store.flush();
    const writeMs = performance.now() - t0;
    self.postMessage({ written: true, writeMs });
    await new Promise((r) => (self.onmessage = r));
    for (let i = 0; i < records; i++) {
      const got = await store.get(keys[i]);
      if (!got || got.length !== values[i].length || got.some((b, j) => b !== values[i][j])) throw new Error("record " + i + " read back wrong");
    }
    const listed = await store.keys("v10/records/");
    if (listed.length !== records) throw new Error("listed " + listed.length + " keys, wrote " + records);
    self.postMessage({ done: true });
  } catch (error) {
    self.postMessage({ error: String(error && error.stack || error) });
  }
};
`;

async function bundle(storeFile) {
  const out = await build({
    stdin: { contents: WORKER(storeFile), resolveDir: repoRoot, loader: "js" },
    bundle: true,
    format: "esm",
    write: false,
    target: "es2022",
    logLevel: "error",
  });
  return out.outputFiles[0].text;
}

/** CPU seconds of every thread of the browser's processes, by pid/tid (Linux /proc). */
const threadCpu = () => browserThreads(MARKER);
function cpuDelta(before, after) {
  const d = { worker: 0, other: 0 };
  const byComm = {};
  for (const [key, t] of after) {
    const used = t.cpu - (before.get(key)?.cpu ?? 0);
    if (process.env.OPFS_BENCH_THREADS && used > 0)
      byComm[`${key.split("/")[0]} ${t.comm}`] = (byComm[`${key.split("/")[0]} ${t.comm}`] ?? 0) + used;
    if (t.comm.startsWith("DedicatedWorker")) d.worker += used;
    else d.other += used;
  }
  if (process.env.OPFS_BENCH_THREADS)
    console.error(
      Object.entries(byComm)
        .sort((a, b) => b[1] - a[1])
        .map(([k, v]) => `${k} ${v.toFixed(2)}`)
        .join(", "),
    );
  return d;
}

const bundles = new Map();
for (const b of BUILDS) bundles.set(b.name, await bundle(b.file));
const server = createServer((req, res) => {
  const u = new URL(req.url, "http://x");
  if (u.pathname === "/")
    return res.writeHead(200, { "Content-Type": "text/html" }).end("<!doctype html><title>opfs bench</title>");
  const js = bundles.get(u.pathname.slice(1).replace(/\.js$/, ""));
  if (!js) return res.writeHead(404).end();
  res.writeHead(200, { "Content-Type": "text/javascript" }).end(js);
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const url = `http://127.0.0.1:${server.address().port}/`;
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
const runs = Object.fromEntries(BUILDS.map((b) => [b.name, []]));
try {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(url);
  for (let r = 0; r < ROUNDS; r++) {
    for (let i = 0; i < BUILDS.length; i++) {
      const b = BUILDS[(i + r) % BUILDS.length];
      const folder = `opfs-bench/${b.name}-${r}`;
      await page.evaluate(
        () =>
          new Promise((resolve, reject) => {
            // A worker per run; its replies land in window.__bench.
            window.__bench = [];
            window.__worker?.terminate();
            setTimeout(resolve, 0);
          }),
      );
      await page.evaluate(
        ({ src, folder, records }) => {
          const w = new Worker(src, { type: "module" });
          window.__worker = w;
          w.onmessage = (e) => window.__bench.push(e.data);
          w.onerror = (e) => window.__bench.push({ error: e.message });
          w.postMessage({ folder, records });
        },
        { src: `${url}${b.name}.js`, folder, records: RECORDS },
      );
      const waitFor = async (field) => {
        const handle = await page.waitForFunction((f) => window.__bench.find((m) => m[f] || m.error), field, {
          timeout: 600_000,
        });
        const m = await handle.jsonValue();
        if (m.error) throw new Error(`${b.name}: ${m.error}`);
        return m;
      };
      await waitFor("ready");
      await new Promise((r) => setTimeout(r, 300)); // let the worker's start-up CPU settle
      const before = threadCpu();
      await page.evaluate(() => window.__worker.postMessage("go"));
      const { writeMs } = await waitFor("written");
      const cpu = cpuDelta(before, threadCpu());
      await page.evaluate(() => window.__worker.postMessage("check"));
      await waitFor("done");
      await page.evaluate(async (f) => {
        window.__worker.terminate();
        await (await navigator.storage.getDirectory())
          .removeEntry(f.split("/")[0], { recursive: true })
          .catch(() => {});
      }, folder);
      runs[b.name].push({
        writeMs,
        cpuWorkerS: cpu.worker,
        cpuOtherS: cpu.other,
        cpuS: cpu.worker + cpu.other,
        load1: os.loadavg()[0],
      });
      console.error(
        `round ${r + 1}/${ROUNDS} ${b.name}: ${writeMs.toFixed(0)} ms, CPU ${(cpu.worker + cpu.other).toFixed(2)} s (worker ${cpu.worker.toFixed(2)}, rest ${cpu.other.toFixed(2)})`,
      );
    }
  }
} finally {
  await browser.close();
  server.close();
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const summary = (xs) => ({ median: median(xs), min: Math.min(...xs), max: Math.max(...xs) });
const results = {};
const rows = [];
for (const b of BUILDS) {
  const r = runs[b.name];
  const s = {
    writeMs: summary(r.map((x) => x.writeMs)),
    cpuS: summary(r.map((x) => x.cpuS)),
    cpuWorkerS: summary(r.map((x) => x.cpuWorkerS)),
    cpuOtherS: summary(r.map((x) => x.cpuOtherS)),
  };
  results[b.name] = s;
  const f = (x, d) => `${x.median.toFixed(d)} (${x.min.toFixed(d)}–${x.max.toFixed(d)})`;
  rows.push([b.name, f(s.writeMs, 0), f(s.cpuS, 2), f(s.cpuWorkerS, 2), f(s.cpuOtherS, 2)]);
}
console.log(
  mdTable([`build (${RECORDS} records)`, "write ms", "Chromium CPU s", "worker thread CPU s", "rest CPU s"], rows),
);
console.log(
  `\n${ROUNDS} rounds, load average ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(" ")} at the end.`,
);
writeJson(path.join(resultsDir, flags.out ? path.basename(String(flags.out)) : "opfs-store.json"), {
  machine: machine(),
  chromium: CHROMIUM,
  records: RECORDS,
  rounds: ROUNDS,
  builds: BUILDS.map((b) => ({ name: b.name, file: path.relative(repoRoot, b.file) })),
  results,
  raw: runs,
});
