#!/usr/bin/env node
// MCP server benchmark: how fast `codeslice mcp` starts and answers over stdio, as a client sees it.
//
// Measures, with the built server as a child process speaking newline-delimited JSON-RPC:
//   * initialize        spawn of `node dist/cli/main.js mcp --root <corpus>` → initialize response
//                       (the repository's build, and, unless --no-install, the same from a package
//                       installed with npm into a temp folder, as `npx codeslice mcp` would run it)
//   * first context     a cold cache: the first `context` call, which scans, parses and builds the
//                       graph, run by run next to a cold `codeslice index` of the same corpus
//   * warm start        a new server over the cache the cold run left: its first `context`
//   * later context     round trips of `context` (budget 8000) on a warm server, p50 / p95 / max,
//                       over a fixed list of django targets (symbols, a file, words); the first
//                       round apart (it may wait for the background re-scan and search warm-up)
//   * after an edit     `context` right after appending a line to django/db/models/query.py
// The machines are shared: the load average at start and end is recorded next to the figures.
//
// Rerun:
//   node scripts/build.mjs && node test/bench/mcp-bench.mjs [CORPUS_DIR] [--runs N] [--rounds N] [--no-install]
// The default corpus is Debian's django (apt-get install -y python3-django), copied without
// __pycache__ to a temp folder and committed to a fresh git repo. Output: a markdown table on
// stdout and test/bench/results/mcp-<corpus>.json. Node built-ins only.
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, "../..");
const DJANGO = "/usr/lib/python3/dist-packages/django";

const argv = process.argv.slice(2);
const flag = (name, dflt) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : dflt;
};
const RUNS = Number(flag("runs", 3));
const ROUNDS = Number(flag("rounds", 5));
const INSTALL = !argv.includes("--no-install");
const positional = argv.filter((a, i) => !a.startsWith("--") && !["--runs", "--rounds"].includes(argv[i - 1]))[0];

if (!fs.existsSync(path.join(repoRoot, "dist/mcp/stdio.js"))) {
  console.error("dist/mcp/stdio.js is missing: run `node scripts/build.mjs` first.");
  process.exit(1);
}

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-mcp-bench-"));
process.on("exit", () => fs.rmSync(scratch, { recursive: true, force: true }));

// Run from a frozen copy of the build: others may rebuild dist/ while this runs.
const frozen = path.join(scratch, "build");
fs.mkdirSync(frozen);
for (const item of ["dist", "wasm", "package.json"])
  fs.cpSync(path.join(repoRoot, item), path.join(frozen, item), { recursive: true });
fs.symlinkSync(path.join(repoRoot, "node_modules"), path.join(frozen, "node_modules"), "dir");
const cli = path.join(frozen, "dist/cli/main.js");

// The corpus.
let corpus;
let corpusName;
if (positional) {
  corpus = path.resolve(positional);
  corpusName = path.basename(corpus);
} else {
  if (!fs.existsSync(DJANGO)) {
    console.error(`${DJANGO} is missing. Install the default corpus with:\n  apt-get install -y python3-django`);
    process.exit(1);
  }
  corpus = path.join(scratch, "django-repo");
  fs.cpSync(DJANGO, path.join(corpus, "django"), { recursive: true, filter: (src) => !src.includes("__pycache__") });
  const git = (...a) => execFileSync("git", a, { cwd: corpus, stdio: ["ignore", "ignore", "pipe"] });
  git("init", "-q");
  git("add", "-A");
  git("-c", "user.name=bench", "-c", "user.email=bench@example.invalid", "commit", "-q", "-m", "django from Debian");
  corpusName = "django";
}

/** One server process speaking raw JSON-RPC; `request` resolves with the response and its round-trip ms. */
function startServer(command, args) {
  const t0 = performance.now();
  const child = spawn(command, args, { stdio: ["pipe", "pipe", "pipe"] });
  let partial = "";
  let stderr = "";
  let nextId = 1;
  const pending = new Map();
  const nonProtocol = [];
  child.stdout.on("data", (d) => {
    const parts = (partial + d.toString("utf8")).split("\n");
    partial = parts.pop();
    for (const line of parts) {
      let msg;
      try {
        msg = JSON.parse(line);
      } catch {
        nonProtocol.push(line);
        continue;
      }
      const p = pending.get(msg.id);
      if (p) {
        pending.delete(msg.id);
        p(msg);
      }
    }
  });
  child.stderr.on("data", (d) => (stderr += d.toString()));
  const request = (method, params) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      const started = performance.now();
      const timer = setTimeout(() => reject(new Error(`${method} timed out; stderr: ${stderr.slice(-1000)}`)), 600_000);
      pending.set(id, (msg) => {
        clearTimeout(timer);
        resolve({ msg, ms: performance.now() - started });
      });
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    });
  const initialize = async () => {
    const { msg } = await request("initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "mcp-bench", version: "1" },
    });
    const sinceSpawn = performance.now() - t0;
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
    if (!msg.result) throw new Error(`initialize failed: ${JSON.stringify(msg)}`);
    return sinceSpawn;
  };
  const callTool = async (name, args) => {
    const { msg, ms } = await request("tools/call", { name, arguments: args });
    if (!msg.result || msg.result.isError)
      throw new Error(`${name} ${JSON.stringify(args)} failed: ${JSON.stringify(msg).slice(0, 500)}`);
    return { result: msg.result, ms };
  };
  const stop = () =>
    new Promise((resolve) => {
      child.once("exit", resolve);
      child.stdin.end();
    });
  return { initialize, callTool, stop, nonProtocol, stderr: () => stderr };
}

const pct = (values, p) => {
  const v = [...values].sort((a, b) => a - b);
  return v[Math.min(v.length - 1, Math.max(0, Math.ceil((p / 100) * v.length) - 1))];
};
const median = (values) => pct(values, 50);
const fmtMs = (x) => (x >= 1000 ? `${(x / 1000).toFixed(2)} s` : `${x.toFixed(1)} ms`);

const TARGETS =
  corpusName === "django"
    ? [
        "django.db.models.query.QuerySet.filter",
        "QuerySet.get",
        "django.http.request.HttpRequest",
        "django/urls/resolvers.py",
        "URLResolver.resolve",
        "django.core.handlers.base.BaseHandler.get_response",
        "Model.save",
        "csrf token check",
        "django.contrib.auth.authenticate",
        "django.template.base.Template.render",
      ]
    : null;

const results = {
  benchmark: "mcp",
  corpus: { name: corpusName, path: positional ? corpus : DJANGO },
  date: new Date().toISOString(),
  machine: {
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    cpus: os.cpus().length,
    cpu: os.cpus()[0]?.model?.trim(),
    node: process.version,
    load_at_start: os.loadavg()[0],
  },
};
const rows = [];

// 1. initialize, repository build.
{
  const times = [];
  for (let i = 0; i < Math.max(5, RUNS); i++) {
    const s = startServer(process.execPath, [
      cli,
      "mcp",
      "--root",
      corpus,
      "--cache-dir",
      path.join(scratch, `init-cache-${i}`),
    ]);
    times.push(await s.initialize());
    await s.stop();
  }
  results.initialize_ms = { median: median(times), max: Math.max(...times), values: times };
  rows.push([
    "initialize (spawn → response), repo build",
    fmtMs(median(times)),
    `max ${fmtMs(Math.max(...times))}, n=${times.length}`,
  ]);
}

// 1b. initialize from an installed package.
if (INSTALL) {
  try {
    const packDir = path.join(scratch, "pack");
    fs.mkdirSync(packDir);
    const tgz = execFileSync("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", packDir], {
      cwd: frozen,
      encoding: "utf8",
    })
      .trim()
      .split("\n")
      .pop();
    const app = path.join(scratch, "installed");
    fs.mkdirSync(app);
    fs.writeFileSync(path.join(app, "package.json"), JSON.stringify({ name: "bench-app", private: true }));
    execFileSync(
      "npm",
      ["install", "--silent", "--no-audit", "--no-fund", "--ignore-scripts", path.join(packDir, tgz)],
      { cwd: app, stdio: ["ignore", "ignore", "inherit"] },
    );
    const bin = path.join(app, "node_modules/.bin/codeslice");
    const times = [];
    for (let i = 0; i < Math.max(5, RUNS); i++) {
      const s = startServer(bin, ["mcp", "--root", corpus, "--cache-dir", path.join(scratch, `inst-cache-${i}`)]);
      times.push(await s.initialize());
      await s.stop();
    }
    results.initialize_installed_ms = { median: median(times), max: Math.max(...times), values: times };
    rows.push([
      "initialize, installed package (npm install <tgz>)",
      fmtMs(median(times)),
      `max ${fmtMs(Math.max(...times))}, n=${times.length}`,
    ]);
  } catch (error) {
    console.error(`installed-package measurement skipped: ${error.message.split("\n")[0]}`);
  }
}

// 2. cold `codeslice index` for reference, then the cold first `context` over MCP. Run by run,
// interleaved, so a machine shared with other work loads both sides of a comparison alike.
{
  const indexTimes = [];
  const firstTimes = [];
  const firstIdle = [];
  const warmFirst = [];
  const target = TARGETS?.[0] ?? "main";
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    execFileSync(
      process.execPath,
      [cli, "index", "--root", corpus, "--cache-dir", path.join(scratch, `index-cache-${i}`), "--quiet"],
      { stdio: "ignore" },
    );
    indexTimes.push(performance.now() - t0);

    const cache = path.join(scratch, `cold-cache-${i}`);
    const s = startServer(process.execPath, [cli, "mcp", "--root", corpus, "--cache-dir", cache]);
    await s.initialize();
    firstTimes.push((await s.callTool("context", { target })).ms);
    await s.stop();

    // Clients connect when a session starts and call a tool only after the model has read the
    // prompt: the server loads its tokenizer in that idle time. A cold cache again, after 1 s idle.
    const t = startServer(process.execPath, [
      cli,
      "mcp",
      "--root",
      corpus,
      "--cache-dir",
      path.join(scratch, `idle-cache-${i}`),
    ]);
    await t.initialize();
    await new Promise((r) => setTimeout(r, 1000));
    firstIdle.push((await t.callTool("context", { target })).ms);
    await t.stop();

    // A new session over the cache the first one left.
    const w = startServer(process.execPath, [cli, "mcp", "--root", corpus, "--cache-dir", cache]);
    await w.initialize();
    warmFirst.push((await w.callTool("context", { target })).ms);
    await w.stop();
  }
  const diffs = (xs) => xs.map((x, i) => x - indexTimes[i]);
  const signed = (x) => `${x >= 0 ? "+" : "−"}${fmtMs(Math.abs(x))}`;
  results.cold_index_cli_ms = { median: median(indexTimes), values: indexTimes };
  results.first_context_cold_ms = {
    median: median(firstTimes),
    values: firstTimes,
    minus_cold_index_median: median(diffs(firstTimes)),
  };
  results.first_context_cold_after_idle_ms = {
    median: median(firstIdle),
    values: firstIdle,
    minus_cold_index_median: median(diffs(firstIdle)),
  };
  results.first_context_warm_cache_ms = { median: median(warmFirst), values: warmFirst };
  rows.push(["cold `codeslice index` (CLI process, reference)", fmtMs(median(indexTimes)), `n=${indexTimes.length}`]);
  rows.push([
    "first `context`, cold cache, right after initialize",
    fmtMs(median(firstTimes)),
    `n=${firstTimes.length}; run by run vs cold index: median ${signed(median(diffs(firstTimes)))}`,
  ]);
  rows.push([
    "first `context`, cold cache, 1 s after initialize",
    fmtMs(median(firstIdle)),
    `n=${firstIdle.length}; run by run vs cold index: median ${signed(median(diffs(firstIdle)))}`,
  ]);
  rows.push(["first `context`, new session on a warm cache", fmtMs(median(warmFirst)), `n=${warmFirst.length}`]);
}

// 3. later context round trips on a warm server. The first round asks each target once (a words
// target may wait for the search index, which is built in the background after the first answer);
// the later rounds are the steady state an agent sees for the rest of a session.
{
  const s = startServer(process.execPath, [
    cli,
    "mcp",
    "--root",
    corpus,
    "--cache-dir",
    path.join(scratch, "cold-cache-0"),
  ]);
  await s.initialize();
  const targets = TARGETS ?? ["main"];
  await s.callTool("context", { target: targets[0] });
  const firstRound = [];
  for (const target of targets) firstRound.push((await s.callTool("context", { target, budget: 8000 })).ms);
  const times = [];
  const tokens = [];
  for (let r = 0; r < ROUNDS; r++) {
    for (const target of targets) {
      const { ms, result } = await s.callTool("context", { target, budget: 8000 });
      times.push(ms);
      tokens.push(result.structuredContent.usage.tokens);
    }
  }
  const other = {};
  for (const [name, args] of [
    ["repo_map", {}],
    ["callers", { symbol: "QuerySet.filter" }],
    ["signature", { symbol: "QuerySet" }],
    ["search", { query: "csrf token" }],
  ]) {
    if (!TARGETS) break;
    const t = [];
    for (let r = 0; r < ROUNDS; r++) t.push((await s.callTool(name, args)).ms);
    other[name] = { p50: median(t), max: Math.max(...t) };
  }
  // An edit between calls: the next answer re-parses the file and rebuilds what depends on it.
  // And a search right after an edit: the search index re-indexes the edited file only.
  const afterEdit = [];
  const searchAfterEdit = [];
  if (corpusName === "django") {
    const file = path.join(corpus, "django/db/models/query.py");
    const original = fs.readFileSync(file, "utf8");
    for (let r = 0; r < Math.min(3, ROUNDS); r++) {
      fs.writeFileSync(file, `${original}\n# bench edit ${r}\n`);
      await new Promise((res) => setTimeout(res, 200));
      const { ms, result } = await s.callTool("context", { target: targets[0], budget: 8000 });
      if (!result._meta?.["codeslice/freshness"]?.refreshed) throw new Error("the edit was not noticed");
      afterEdit.push(ms);
      const search = await s.callTool("search", { query: "csrf token" });
      searchAfterEdit.push(search.ms);
    }
    fs.writeFileSync(file, original);
  }
  if (s.nonProtocol.length)
    throw new Error(`stdout carried non-protocol lines: ${s.nonProtocol.slice(0, 3).join(" | ")}`);
  await s.stop();
  results.first_round_context_ms = {
    n: firstRound.length,
    p50: median(firstRound),
    max: Math.max(...firstRound),
    values: firstRound,
  };
  results.later_context_ms = {
    n: times.length,
    p50: median(times),
    p95: pct(times, 95),
    max: Math.max(...times),
    tokens_median: median(tokens),
  };
  rows.push([
    `\`context\`, each of ${targets.length} targets the first time`,
    `p50 ${fmtMs(median(firstRound))}`,
    `max ${fmtMs(Math.max(...firstRound))}`,
  ]);
  rows.push([
    `later \`context\` round trip (budget 8000, ${targets.length} targets × ${ROUNDS})`,
    `p50 ${fmtMs(median(times))}`,
    `p95 ${fmtMs(pct(times, 95))}, max ${fmtMs(Math.max(...times))}, median answer ${median(tokens)} tokens`,
  ]);
  for (const [name, v] of Object.entries(other))
    rows.push([`later \`${name}\` round trip`, `p50 ${fmtMs(v.p50)}`, `max ${fmtMs(v.max)}, n=${ROUNDS}`]);
  if (afterEdit.length) {
    results.context_after_edit_ms = {
      n: afterEdit.length,
      p50: median(afterEdit),
      max: Math.max(...afterEdit),
      values: afterEdit,
    };
    rows.push([
      "`context` right after editing django/db/models/query.py",
      `p50 ${fmtMs(median(afterEdit))}`,
      `max ${fmtMs(Math.max(...afterEdit))}, n=${afterEdit.length} (re-scan, re-parse, graph patched or rebuilt)`,
    ]);
    results.search_after_edit_ms = {
      n: searchAfterEdit.length,
      p50: median(searchAfterEdit),
      max: Math.max(...searchAfterEdit),
      values: searchAfterEdit,
    };
    rows.push([
      "`search` right after that `context` (first search on the new graph)",
      `p50 ${fmtMs(median(searchAfterEdit))}`,
      `max ${fmtMs(Math.max(...searchAfterEdit))}, n=${searchAfterEdit.length} (edited file re-indexed)`,
    ]);
  }
  results.later_other_ms = other;
}

let revision = "unknown";
try {
  revision = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: repoRoot, encoding: "utf8" }).trim();
  if (execFileSync("git", ["status", "--porcelain", "src"], { cwd: repoRoot, encoding: "utf8" }).trim())
    revision += "+dirty-src";
} catch {
  // not a git checkout
}
results.codeslice = revision;
results.machine.load_at_end = os.loadavg()[0];

const line = (cells) => `| ${cells.join(" | ")} |`;
console.log(
  `\ncodeslice mcp on ${corpusName} (${results.machine.cpus} × ${results.machine.cpu}, node ${process.version}, ${revision}; load ${results.machine.load_at_start.toFixed(1)} → ${results.machine.load_at_end.toFixed(1)})\n`,
);
console.log([line(["measure", "value", "detail"]), line(["---", "---", "---"]), ...rows.map(line)].join("\n"));
const out = path.join(here, "results", `mcp-${corpusName}.json`);
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, `${JSON.stringify(results, null, 1)}\n`);
console.log(`\nwritten ${path.relative(process.cwd(), out)}`);
