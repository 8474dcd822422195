#!/usr/bin/env node
// Warm latency of the MCP tools impact, changes, tests and trace on a real repository, as a
// client sees it (the built server as a child process over stdio), and the size of tools/list.
//
//   node scripts/build.mjs && node test/bench/mcp-new-tools.mjs [REPO_DIR] [--rounds N]
// REPO_DIR must be a git repository (changes reads its history); default /work/corpora/django.
// The index goes to a temp cache folder; nothing is written into the repository. On Linux the
// server's CPU time per call (mean over the rounds, from /proc) is reported beside the wall time:
// on a loaded machine the wall time mostly measures the wait for a core.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const argv = process.argv.slice(2);
const rounds = Number(argv[argv.indexOf("--rounds") + 1] || 5);
const root = argv.find((a, i) => !a.startsWith("--") && argv[i - 1] !== "--rounds") ?? "/work/corpora/django";
const cache = fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-new-tools-"));
process.on("exit", () => fs.rmSync(cache, { recursive: true, force: true }));

const child = spawn(
  process.execPath,
  [path.join(repoRoot, "dist/cli/main.js"), "mcp", "--root", root, "--cache-dir", cache],
  { stdio: ["pipe", "pipe", "ignore"] },
);
let buffer = "";
const waiting = new Map();
child.stdout.on("data", (d) => {
  buffer += d;
  let nl;
  while ((nl = buffer.indexOf("\n")) >= 0) {
    const line = buffer.slice(0, nl);
    buffer = buffer.slice(nl + 1);
    const m = JSON.parse(line);
    waiting.get(m.id)?.(m);
  }
});
let id = 0;
const rpc = (method, params) =>
  new Promise((resolve) => {
    const n = ++id;
    waiting.set(n, resolve);
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: n, method, params })}\n`);
  });
await rpc("initialize", {
  protocolVersion: "2025-06-18",
  capabilities: {},
  clientInfo: { name: "bench", version: "1" },
});
child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
const list = await rpc("tools/list", {});
const listTokens = countTokens(JSON.stringify(list.result.tools));
const call = async (name, args) => {
  const t = performance.now();
  const r = await rpc("tools/call", { name, arguments: args });
  return {
    ms: performance.now() - t,
    error: r.result?.isError ? r.result.content[0].text.slice(0, 120) : undefined,
    tokens: countTokens(JSON.stringify(r.result)),
  };
};
/** The server's user + system CPU in ms (Linux), or undefined. */
const cpuMs = () => {
  try {
    const fields = fs.readFileSync(`/proc/${child.pid}/stat`, "utf8").split(") ")[1].split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (USER_HZ 100)
  } catch {
    return undefined;
  }
};
const first = await call("repo_map", {});
console.error(`first call (index): ${(first.ms / 1000).toFixed(1)} s`);
const cases = [
  ["impact", { target: "django.db.models.query.QuerySet.filter" }],
  ["impact", { target: "django/contrib/auth/__init__.py" }],
  ["impact", { target: "django.utils.functional.cached_property", direction: "both", depth: 2 }],
  ["changes", {}],
  ["tests", { target: "django.contrib.auth.authenticate" }],
  ["trace", { from: "django.contrib.auth.login", to: "django.contrib.auth.get_user_model" }],
];
const rows = [];
for (const [name, args] of cases) {
  await call(name, args); // warm
  const times = [];
  let last;
  const cpu0 = cpuMs();
  for (let r = 0; r < rounds; r++) {
    last = await call(name, args);
    times.push(last.ms);
  }
  const cpu1 = cpuMs();
  times.sort((a, b) => a - b);
  rows.push({
    tool: name,
    args: JSON.stringify(args),
    p50: times[Math.floor(times.length / 2)],
    max: times.at(-1),
    cpu: cpu0 === undefined ? undefined : (cpu1 - cpu0) / rounds,
    tokens: last.tokens,
    error: last.error,
  });
}
console.log(
  `tools/list: ${list.result.tools.length} tools, ${listTokens} tokens (o200k_base); load ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(" ")}`,
);
console.log(
  "| tool | arguments | p50 ms | max ms | CPU ms/call | response tokens |\n| --- | --- | --- | --- | --- | --- |",
);
for (const r of rows)
  console.log(
    `| ${r.tool} | \`${r.args}\` | ${r.p50.toFixed(0)} | ${r.max.toFixed(0)} | ${r.cpu === undefined ? "?" : r.cpu.toFixed(0)} | ${r.tokens}${r.error ? ` (error: ${r.error})` : ""} |`,
  );
child.kill();
process.exit(0);
