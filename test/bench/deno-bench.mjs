#!/usr/bin/env node
// Deno vs Node benchmark, from the packed and installed tarball (what users run):
//   * `codeslice index` cold (fresh cache folder) and warm (unchanged tree), and `context <target>`
//     on a warm cache, on Debian's django: wall time per runtime, side by side, median of N runs;
//   * the JSON answers of index (minus time and cache path), map and context must be identical
//     under Node and Deno: the benchmark exits 1 when they are not;
//   * cold start of `codeslice mcp`: process spawn until the `initialize` response is on stdout,
//     under `node <bin>`, `npx codeslice`, and `deno run -A npm:codeslice`.
//
// Rerun:
//   apt-get install -y python3-django && node scripts/build.mjs && node test/bench/deno-bench.mjs [--runs 5] [--target QuerySet.filter]
// Output: a markdown table on stdout and test/bench/results/deno-django.json.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { fmt, machine, mdTable, parseArgs, prepareDjango, resultsDir, stats, writeJson } from "./lib/bench-utils.mjs";
import { cleanEnv, denoBin, packAndInstall, repoRoot } from "../package/pack-install.mjs";

const { flags } = parseArgs(process.argv.slice(2), ["keep", "help"]);
if (flags.help) {
  console.log("usage: node test/bench/deno-bench.mjs [--runs N] [--target SYMBOL] [--keep]");
  process.exit(0);
}
const RUNS = Number(flags.runs ?? 5);
const TARGET = flags.target ?? "QuerySet.filter";
const progress = (m) => process.stderr.write(`${m}\n`);

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-deno-bench-"));
if (!flags.keep) process.on("exit", () => fs.rmSync(scratch, { recursive: true, force: true }));

progress("packing and installing the tarball…");
const { appDir, pack } = packAndInstall(fs.mkdtempSync(path.join(scratch, "pack-")));
const bin = path.join(appDir, "node_modules", "codeslice", "dist", "cli", "main.js");
progress("preparing django…");
const corpusDir = path.join(scratch, "corpus");
fs.mkdirSync(corpusDir);
const { corpus, version: djangoVersion } = prepareDjango(corpusDir);

const runtimes = {
  node: (args) => [process.execPath, [bin, ...args]],
  deno: (args) => [denoBin, ["run", "-A", "npm:codeslice", ...args]],
};
const denoVersion = await new Promise((resolve) => {
  const c = spawn(denoBin, ["--version"], { stdio: ["ignore", "pipe", "ignore"] });
  let out = "";
  c.stdout.on("data", (d) => (out += d));
  c.on("close", () => resolve(out.split("\n")[0]));
});

/** Runs one command from the install folder; wall seconds and stdout (stdout via a file, never a full pipe). */
async function timed(runtime, args) {
  const [cmd, argv] = runtimes[runtime](args);
  const out = path.join(scratch, `out-${process.pid}-${Math.random().toString(36).slice(2)}`);
  const fd = fs.openSync(out, "w");
  let stderr = "";
  const t0 = process.hrtime.bigint();
  const code = await new Promise((resolve, reject) => {
    const child = spawn(cmd, argv, { cwd: appDir, env: cleanEnv(), stdio: ["ignore", fd, "pipe"] });
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", resolve);
  });
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  fs.closeSync(fd);
  const stdout = fs.readFileSync(out, "utf8");
  fs.rmSync(out);
  if (code !== 0) throw new Error(`${runtime}: codeslice ${args.join(" ")} exited ${code}\n${stderr.slice(-2000)}`);
  return { wall, stdout };
}

const common = (cache) => ["--root", corpus, "--cache-dir", cache, "--json", "--quiet"];
// parsed/reused split differently run to run in a cold index (files with identical content race to
// the store), so only their sum is compared; time and cache path differ by design.
const comparableIndex = ({ durationMs, store, parsed, reused, ...rest }) => ({
  ...rest,
  parsedPlusReused: parsed + reused,
});

// Speed: alternate the runtimes run by run so drift in machine load hits both alike.
const walls = { node: { cold: [], warm: [], context: [] }, deno: { cold: [], warm: [], context: [] } };
const answers = { node: {}, deno: {} };
for (let i = 0; i < RUNS; i++) {
  for (const rt of i % 2 ? ["deno", "node"] : ["node", "deno"]) {
    const cache = path.join(scratch, `cache-${rt}-${i}`);
    const cold = await timed(rt, ["index", ...common(cache)]);
    const warm = await timed(rt, ["index", ...common(cache)]);
    const context = await timed(rt, ["context", TARGET, ...common(cache)]);
    walls[rt].cold.push(cold.wall);
    walls[rt].warm.push(warm.wall);
    walls[rt].context.push(context.wall);
    if (i === 0) {
      answers[rt].index = comparableIndex(JSON.parse(cold.stdout));
      answers[rt].warmParsed = JSON.parse(warm.stdout).parsed;
      answers[rt].context = JSON.parse(context.stdout);
      answers[rt].map = JSON.parse((await timed(rt, ["map", ...common(cache)])).stdout);
    }
    progress(
      `run ${i + 1}/${RUNS} ${rt}: cold ${fmt(cold.wall, 2)} s, warm ${fmt(warm.wall, 2)} s, context ${fmt(context.wall, 2)} s`,
    );
  }
}
const same = {
  index: isDeepStrictEqual(answers.node.index, answers.deno.index),
  map: isDeepStrictEqual(answers.node.map, answers.deno.map),
  context: isDeepStrictEqual(answers.node.context, answers.deno.context),
};

// Cold start of the MCP server: spawn → initialize answered.
const INIT = `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "deno-bench", version: "0" } } })}\n`;
const mcpCommands = {
  "node <bin> mcp": [process.execPath, [bin, "mcp", "--root", corpus]],
  "npx codeslice mcp": ["npx", ["--no", "--", "codeslice", "mcp", "--root", corpus]],
  "deno run -A npm:codeslice mcp": [denoBin, ["run", "-A", "npm:codeslice", "mcp", "--root", corpus]],
  "deno run --allow-read --allow-write npm:codeslice mcp": [
    denoBin,
    ["run", "--allow-read", "--allow-write", "npm:codeslice", "mcp", "--root", corpus],
  ],
};
const hasMcp = fs.existsSync(path.join(appDir, "node_modules", "codeslice", "dist", "mcp"));

function mcpColdStart(cmd, argv) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(cmd, argv, { cwd: appDir, env: cleanEnv(), stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    let err = "";
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`no initialize response in 20 s\n${err}`));
    }, 20_000);
    child.stderr.on("data", (d) => (err += d));
    child.stdout.on("data", (d) => {
      out += d;
      const line = out.split("\n").find((l) => l.includes('"id":1'));
      if (!line) return;
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      clearTimeout(timer);
      const response = JSON.parse(line);
      child.stdin.end();
      child.kill();
      if (!response.result?.serverInfo) reject(new Error(`bad initialize response: ${line}`));
      else resolve(ms);
    });
    child.on("error", reject);
    child.stdin.write(INIT);
  });
}

const mcp = {};
if (hasMcp) {
  for (const [label, [cmd, argv]] of Object.entries(mcpCommands)) {
    const ms = [];
    for (let i = 0; i < RUNS; i++) ms.push(await mcpColdStart(cmd, argv));
    mcp[label] = stats(ms);
    progress(`mcp cold start, ${label}: median ${fmt(mcp[label].median, 0)} ms`);
  }
}

const s = (xs) => stats(xs);
const row = (label, key) => {
  const n = s(walls.node[key]);
  const d = s(walls.deno[key]);
  return [
    label,
    `${fmt(n.median, 2)} (${fmt(n.min, 2)}–${fmt(n.max, 2)})`,
    `${fmt(d.median, 2)} (${fmt(d.min, 2)}–${fmt(d.max, 2)})`,
    fmt(d.median / n.median, 2),
  ];
};
const files = answers.node.index.sourceFiles;
console.log(
  `\n## codeslice under Node and Deno: django ${djangoVersion} (${files} source files), ${RUNS} runs, from the installed tarball\n`,
);
console.log(
  mdTable(
    ["wall seconds, median (min–max)", `Node ${process.version}`, denoVersion, "Deno / Node"],
    [
      row("index, cold (fresh cache)", "cold"),
      row("index, unchanged", "warm"),
      row(`context ${TARGET} (warm cache)`, "context"),
    ],
  ),
);
console.log(
  `\nSame JSON under both runtimes: index ${same.index ? "yes" : "NO"}, map ${same.map ? "yes" : "NO"}, context ${same.context ? "yes" : "NO"}; unchanged index parsed ${answers.node.warmParsed} (Node) / ${answers.deno.warmParsed} (Deno) files.`,
);
if (hasMcp) {
  console.log("\n### `codeslice mcp` cold start: spawn → `initialize` answered (ms)\n");
  console.log(
    mdTable(
      ["command", "median", "min", "max"],
      Object.entries(mcp).map(([label, st]) => [label, fmt(st.median, 0), fmt(st.min, 0), fmt(st.max, 0)]),
    ),
  );
} else {
  console.log("\n(`codeslice mcp` cold start skipped: the package has no dist/mcp)");
}
console.log(
  `\nTarball ${pack.filename}: ${fmt(pack.size / 1e6, 2)} MB packed, ${fmt(pack.unpackedSize / 1e6, 2)} MB unpacked.`,
);

writeJson(path.join(resultsDir, "deno-django.json"), {
  benchmark: "deno-vs-node",
  date: new Date().toISOString(),
  machine: machine(),
  deno: denoVersion,
  corpus: { name: "django", version: djangoVersion, sourceFiles: files },
  runs: RUNS,
  target: TARGET,
  wall_seconds: {
    node: Object.fromEntries(Object.entries(walls.node).map(([k, v]) => [k, s(v)])),
    deno: Object.fromEntries(Object.entries(walls.deno).map(([k, v]) => [k, s(v)])),
  },
  same_json: same,
  mcp_cold_start_ms: hasMcp ? mcp : null,
  tarball: { file: pack.filename, size: pack.size, unpackedSize: pack.unpackedSize, entryCount: pack.entryCount },
  source: path.relative(repoRoot, new URL(import.meta.url).pathname),
});
if (!same.index || !same.map || !same.context) {
  console.error("The answers differ between Node and Deno.");
  process.exit(1);
}
