#!/usr/bin/env node
// The localization benchmark's fast loop, for tuning: the same cases and the same scoring as
// run.mjs (the shared tool's `score`: a gold file is hit when a chunk of it is shown; a gold
// function when a shown chunk overlaps it; "whole" when full-form chunks cover every line), but
// codeslice runs in-process through the library (one engine per repository, refreshed at each
// case's parent commit), so a pass over all 199 cases takes minutes instead of hours. The
// baselines do not depend on codeslice: their figures are read from the last full run's rows.
//
//   node test/bench/localize/quick.mjs [--repos a,b] [--limit N] [--budgets 2000,4000,8000]
//        [--variant query|masked] [--command context|pack] [--rows FILE] [--misses]
//
// The figures this prints are for tuning only; the README's table comes from `npm run bench -- localize`.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../../..");
const corpora = process.env.CODESLICE_CORPORA ?? path.resolve(root, "../corpora");
const results = path.join(corpora, "localize/results");
const { values } = parseArgs({
  options: {
    repos: { type: "string" },
    limit: { type: "string" },
    budgets: { type: "string", default: "2000,4000,8000" },
    variant: { type: "string", default: "query" },
    command: { type: "string", default: "context" },
    rows: { type: "string" },
    misses: { type: "boolean", default: false },
    baseline: { type: "string", default: path.join(results, "results-2026-12-01.json") },
  },
});
const budgets = values.budgets.split(",").map(Number);
const { createEngine } = await import(path.join(root, "dist/core/engine/engine.js"));
const { createNodePlatform } = await import(path.join(root, "dist/platform/node/index.js"));
const { cases } = JSON.parse(fs.readFileSync(path.join(results, "cases.run.json"), "utf8"));
const only = values.repos ? values.repos.split(",") : [...new Set(cases.map((c) => c.repo))];
const git = (cwd, args) => execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

function score(c, chunks) {
  const byPath = new Map();
  for (const ch of chunks) byPath.set(ch.path, [...(byPath.get(ch.path) ?? []), ch]);
  const files = c.files.filter((f) => byPath.has(f));
  let fn = 0,
    whole = 0;
  for (const f of c.functions) {
    const chs = byPath.get(f.path) ?? [];
    if (chs.some((ch) => ch.start <= f.end && ch.end >= f.start)) fn++;
    const full = chs.filter((ch) => ch.form !== "outline");
    let ok = true;
    for (let l = f.start; l <= f.end && ok; l++) if (!full.some((ch) => ch.start <= l && ch.end >= l)) ok = false;
    if (ok) whole++;
  }
  return {
    file: files.length / c.files.length,
    fn: fn / c.functions.length,
    whole: whole / c.functions.length,
    missing: fn < c.functions.length,
  };
}

const baseline = new Map();
if (fs.existsSync(values.baseline)) {
  for (const r of JSON.parse(fs.readFileSync(values.baseline, "utf8")).rows) {
    if (r.variant === values.variant) baseline.set(`${r.system}|${r.id}|${r.budget}`, r);
  }
}

const rows = [];
const started = Date.now();
for (const repo of only) {
  const rc = cases
    .filter((c) => c.repo === repo)
    .sort((a, b) => a.date.localeCompare(b.date) || a.id.localeCompare(b.id))
    .slice(0, values.limit ? Number(values.limit) : undefined);
  if (!rc.length) continue;
  const tree = path.join(corpora, "localize/work-quick/trees", repo);
  const cache = path.join(corpora, "localize/work-quick/cache", repo);
  if (!fs.existsSync(path.join(tree, ".git"))) {
    fs.mkdirSync(path.dirname(tree), { recursive: true });
    execFileSync("git", ["clone", "-q", "--no-checkout", path.join(corpora, "localize", repo), tree]);
  }
  const platform = await createNodePlatform({ root: tree, cacheDir: cache });
  const engine = createEngine(platform, { quiet: true });
  for (const c of rc) {
    git(tree, ["checkout", "-q", "-f", "--detach", c.parent]);
    git(tree, ["clean", "-qfdx", "-e", "/.codeslice"]);
    await engine.index();
    const q = values.variant === "masked" ? c.query_masked : c.query;
    for (const budget of budgets) {
      const t0 = performance.now();
      let a;
      try {
        a = await engine[values.command](q, { budget });
      } catch (e) {
        a = { chunks: [], usage: { tokens: 0 }, error: e.code ?? e.message };
      }
      const ms = performance.now() - t0;
      const s = score(c, a.chunks);
      const half = a.usage.tokens < budget / 2;
      rows.push({
        id: c.id,
        repo,
        budget,
        ms,
        tokens: a.usage.tokens,
        ...s,
        halfMiss: half && s.missing,
        error: a.error,
        seeds: (a.seeds ?? []).map((x) => x.qualified),
        gold: c.functions.map((f) => f.name),
        chunks: a.chunks.map((ch) => `${ch.path}:${ch.start}-${ch.end} [${ch.role}/${ch.form}] ${ch.symbol}`),
      });
    }
  }
  await engine.close?.();
}

const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const pct = (x) => `${Math.round(x * 100)}%`;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[s.length >> 1] : 0;
};
console.log(
  `${new Set(rows.map((r) => r.id)).size} cases (${only.join(", ")}), ${values.command} ${values.variant}, ${((Date.now() - started) / 1000).toFixed(0)} s`,
);
console.log("| budget | file | fn | whole | tokens | <½ & miss | errors | ms p50 | grep file | grep fn | grep whole |");
console.log("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
for (const b of budgets) {
  const rs = rows.filter((r) => r.budget === b);
  const g = rs.map((r) => baseline.get(`grep-window|${r.id}|${b}`)).filter(Boolean);
  console.log(
    `| ${b} | ${pct(mean(rs.map((r) => r.file)))} | ${pct(mean(rs.map((r) => r.fn)))} | ${pct(mean(rs.map((r) => r.whole)))} | ${Math.round(mean(rs.map((r) => r.tokens)))} | ${pct(mean(rs.map((r) => (r.halfMiss ? 1 : 0))))} | ${rs.filter((r) => r.error).length} | ${Math.round(median(rs.map((r) => r.ms)))} | ${pct(mean(g.map((r) => r.file_recall)))} | ${pct(mean(g.map((r) => r.fn_recall)))} | ${pct(mean(g.map((r) => r.fn_full_recall)))} |`,
  );
}
if (values.rows) fs.writeFileSync(values.rows, JSON.stringify(rows, null, 1));
if (values.misses) {
  for (const r of rows.filter((x) => x.budget === budgets.at(-1) && x.file === 0).slice(0, 40)) {
    console.log(`\n${r.id} (${r.error ?? ""}) gold: ${r.gold.join(", ")}\n  seeds: ${r.seeds.slice(0, 5).join(", ")}`);
  }
}
