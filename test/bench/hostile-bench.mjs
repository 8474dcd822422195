#!/usr/bin/env node
/**
 * Hostile shapes, timed: a cold `codeslice index` of one TypeScript file with 250 … 3,000 nested
 * functions (cost must grow linearly: within 2× per doubling), and of a git repository whose
 * .gitignore holds 100,000 patterns against the same repository without it (added cost < 2 s).
 * Median of --runs (default 3). Writes results/hostile.json.
 *
 *   node test/bench/hostile-bench.mjs [--runs N]
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { codesliceRevision, ensureBuilt, fmt, machine, mdTable, parseArgs, resultsDir, runCli, stats, writeJson } from "./lib/bench-utils.mjs";

const { flags } = parseArgs(process.argv.slice(2));
const runs = Number(flags.runs ?? 3);
ensureBuilt();
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-hostile-"));
process.on("exit", () => fs.rmSync(scratch, { recursive: true, force: true }));

/** Median wall / CPU seconds of a cold index of `root` (a fresh cache each run). */
async function coldIndex(root, extra = []) {
  const walls = [], cpus = [];
  for (let i = 0; i < runs; i++) {
    const cache = path.join(scratch, `cache-${path.basename(root)}-${i}`);
    const r = await runCli(["index", "--root", root, "--cache-dir", cache, "--quiet", ...extra]);
    walls.push(r.wall);
    if (r.cpu != null) cpus.push(r.cpu);
    fs.rmSync(cache, { recursive: true, force: true });
  }
  return { wall: stats(walls), cpu: cpus.length ? stats(cpus) : null };
}

const nesting = [];
for (const depth of [250, 500, 1000, 2000, 3000]) {
  const root = path.join(scratch, `nest-${depth}`);
  fs.mkdirSync(root);
  const open = Array.from({ length: depth }, (_, i) => `function f${i}(x${i}: number) { g${i}(x${i});`);
  fs.writeFileSync(path.join(root, "deep.ts"), `${open.join("\n")}\nreturn 1;\n${"}\n".repeat(depth)}`);
  const m = await coldIndex(root);
  nesting.push({ depth, bytes: fs.statSync(path.join(root, "deep.ts")).size, wallS: m.wall.median, cpuS: m.cpu?.median ?? null });
  console.error(`nesting ${depth}: ${fmt(m.wall.median, 2)} s`);
}

const repo = path.join(scratch, "gitignore");
fs.mkdirSync(repo);
const git = (...a) => execFileSync("git", ["-c", "user.email=b@example.com", "-c", "user.name=bench", ...a], { cwd: repo, stdio: ["ignore", "ignore", "pipe"] });
git("init", "-q");
for (let i = 0; i < 1000; i++) {
  fs.mkdirSync(path.join(repo, `pkg${i % 20}`), { recursive: true });
  fs.writeFileSync(path.join(repo, `pkg${i % 20}`, `m${i}.py`), `def f${i}():\n    return ${i}\n`);
}
git("add", "pkg0");
git("commit", "-q", "-m", "some tracked, the rest untracked");
const without = await coldIndex(repo);
const patterns = Array.from({ length: 100_000 }, (_, i) => [`build${i}/`, `*.ext${i}`, `/path/to/file${i}.txt`, `dir${i}/**/x${i}`][i % 4]);
fs.writeFileSync(path.join(repo, ".gitignore"), `${patterns.join("\n")}\n`);
const withRules = await coldIndex(repo);
const gitignore = { patterns: 100_000, untrackedFiles: 950, withoutS: without.wall.median, withS: withRules.wall.median, addedS: withRules.wall.median - without.wall.median };

const ratios = nesting.slice(1).map((n, i) => ({ from: nesting[i].depth, to: n.depth, ratio: n.wallS / nesting[i].wallS }));
const result = { machine: machine(), revision: codesliceRevision(), runs, nesting, ratios, gitignore };
writeJson(path.join(resultsDir, "hostile.json"), result);
console.log(mdTable(["nested functions", "file bytes", "cold index wall s", "CPU s"], nesting.map((n) => [n.depth, n.bytes, fmt(n.wallS, 2), fmt(n.cpuS, 2)])));
console.log(`\nper step: ${ratios.map((r) => `${r.from}→${r.to} ×${fmt(r.ratio, 2)}`).join(", ")}`);
console.log(`\n.gitignore of 100,000 patterns, 950 untracked files: ${fmt(gitignore.withS, 2)} s against ${fmt(gitignore.withoutS, 2)} s without (+${fmt(gitignore.addedS, 2)} s)`);
