#!/usr/bin/env node
// Localization benchmark ("the task in words"): wraps the shared localize tool (../shared/tools/localize
// next to the checkout, or $LOCALIZE_TOOL). Cases come from real commits of the repositories in
// config.json (query = the commit message, gold = the functions and files it changed); codeslice
// `context` and `pack` are compared with BM25 over whole files and a grep-window baseline at fixed
// o200k budgets. See README.md in this folder.
//
// usage: node test/bench/localize/run.mjs [--limit N] [--repos a,b] [--budgets 2000,4000,8000]
//            [--systems a,b] [--variants query,masked] [--baseline RAW.json]
//            [--rebuild-cases] [--summary FILE]
//   --limit N         only the N oldest cases per repository (a smoke run)
//   --repos a,b       only these repositories of config.json
//   --budgets LIST    o200k budgets (default: config.json's)
//   --systems a,b     only these systems (default: config.json's)
//   --variants a,b    only these query variants (default: config.json's)
//   --baseline FILE   a raw results file of an earlier run on the same cases: the baselines' rows
//                     (bm25-whole, grep-window) are taken from it when this run leaves them out (they
//                     do not depend on codeslice, so a codeslice-only run reports them beside its own)
//   --raw FILE        where this run's raw rows go (default <corpora>/localize/results/results-<date>.json)
//   --from-raw A,B    run nothing: aggregate the raw rows of earlier runs (e.g. two halves run side by
//                     side with --repos, --raw and their own LOCALIZE_WORK) into one summary
//   --rebuild-cases   build the cases again even when the stored cases file matches config.json
//   --summary FILE    where the aggregate goes (default test/bench/results/localize.json; a run with
//                     --limit, --repos or --budgets writes <corpora>/localize/results/summary-partial.json)
// env: CODESLICE_CORPORA  folder holding localize/<name> clones (default <checkout>/../corpora)
//      LOCALIZE_TOOL      the shared tool (default <checkout>/../shared/tools/localize)
//      LOCALIZE_WORK      checkouts and codeslice caches of the run (default <corpora>/localize/work)
//      CODESLICE_BENCH_CACHE  where the tool is copied and npm-installed (default ~/.cache/codeslice-bench)
// Cases, per-row results (they hold commit messages) and the tool's tables stay in
// <corpora>/localize/results/; only the aggregate summary is written into the checkout.
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  codesliceRevision,
  ensureBuilt,
  machine,
  mdTable,
  parseArgs,
  resultsDir,
  writeJson,
} from "../lib/bench-utils.mjs";
import * as utils from "../lib/bench-utils.mjs";
import { corporaDir, die, prepareTool } from "./lib.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const config = JSON.parse(fs.readFileSync(path.join(here, "config.json"), "utf8"));
const { flags } = parseArgs(process.argv.slice(2), ["rebuild-cases", "help"]);
if (flags.help) {
  console.log(
    fs
      .readFileSync(fileURLToPath(import.meta.url), "utf8")
      .split("\n")
      .filter((l) => l.startsWith("//"))
      .map((l) => l.slice(3))
      .join("\n"),
  );
  process.exit(0);
}

const corpora = corporaDir();
const base = path.join(corpora, "localize");
const outDir = path.join(base, "results");
const work = path.resolve(process.env.LOCALIZE_WORK || path.join(base, "work"));
const names = flags.repos ? String(flags.repos).split(",") : Object.keys(config.repos);
for (const n of names)
  if (!config.repos[n]) die(`--repos ${n}: not in config.json (${Object.keys(config.repos).join(", ")})`);
const budgets = flags.budgets ? String(flags.budgets).split(",").map(Number) : config.budgets;
const systems = flags.systems ? String(flags.systems).split(",") : config.systems;
const variants = flags.variants ? String(flags.variants).split(",") : config.variants;
const baselineFile = flags.baseline ? path.resolve(String(flags.baseline)) : undefined;
const limit = flags.limit ? Number(flags.limit) : undefined;
const partial = Boolean(flags.limit || flags.repos || flags.budgets || flags.variants);
const summaryFile = path.resolve(
  flags.summary || (partial ? path.join(outDir, "summary-partial.json") : path.join(resultsDir, "localize.json")),
);

const git = (dir, ...a) =>
  execFileSync("git", ["-C", dir, ...a], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();

// 1. The repositories: full-history clones that hold the pinned heads.
const missing = [];
for (const n of names) {
  const dir = path.join(base, n),
    { url, head } = config.repos[n];
  let ok = fs.existsSync(dir);
  if (ok) {
    try {
      ok = git(dir, "rev-parse", "--is-shallow-repository") === "false";
      git(dir, "cat-file", "-e", `${head}^{commit}`);
    } catch {
      ok = false;
    }
  }
  if (!ok) missing.push(`  git clone ${url} ${dir}   # needs full history and commit ${head}`);
}
if (missing.length)
  die(
    `Missing or incomplete repositories under ${base}:\n${missing.join("\n")}\n(set CODESLICE_CORPORA to use another folder)`,
  );

// 2. The tool: copied to a scratch folder keyed by its content, npm-installed there once.
const { dir: tool, source: toolSrc, hash: toolHash } = prepareTool();

// 3. Cases: built once from the pinned heads, reused while config.json names the same heads.
fs.mkdirSync(outDir, { recursive: true });
const casesFile = path.join(outDir, "cases.json");
const allNames = Object.keys(config.repos);
const wantRepos = Object.fromEntries(allNames.map((n) => [n, config.repos[n].head]));
let casesDoc = fs.existsSync(casesFile) ? JSON.parse(fs.readFileSync(casesFile, "utf8")) : null;
const stale =
  !casesDoc ||
  flags["rebuild-cases"] ||
  casesDoc.meta.per_repo_target !== config.per_repo ||
  JSON.stringify(Object.fromEntries(casesDoc.meta.repos.map((r) => [r.repo, r.head]))) !== JSON.stringify(wantRepos);
if (stale) {
  const buildConfig = path.join(outDir, "repos.json");
  writeJson(
    buildConfig,
    Object.fromEntries(
      allNames.map((n) => [
        n,
        { path: path.join(base, n), head: config.repos[n].head, generated: config.repos[n].generated || [] },
      ]),
    ),
  );
  console.error(`building cases from ${allNames.join(", ")} (${config.per_repo} per repository) into ${casesFile}`);
  const r = spawnSync(
    "nice",
    [
      "-n",
      "10",
      process.execPath,
      path.join(tool, "build.mjs"),
      "--config",
      buildConfig,
      "--per-repo",
      String(config.per_repo),
      "--out",
      casesFile,
    ],
    { stdio: "inherit" },
  );
  if (r.status !== 0) die(`build.mjs failed (exit ${r.status})`);
  casesDoc = JSON.parse(fs.readFileSync(casesFile, "utf8"));
}
// Cases read by hand and found unfair (config.json "exclude", each with its reason) are left out of the run.
const runCases = path.join(outDir, "cases.run.json");
const excluded = casesDoc.cases.filter((c) => config.exclude?.[c.id]).map((c) => c.id);
writeJson(runCases, {
  meta: { ...casesDoc.meta, excluded },
  cases: casesDoc.cases.filter((c) => !config.exclude?.[c.id]),
});

// 4. Run the tool against a frozen copy of dist/ (a rebuild during the run cannot mix two builds).
ensureBuilt();
const cli = utils.cliPath;
const revision = codesliceRevision();
const date = new Date().toISOString().slice(0, 10);
const fromRaw = flags["from-raw"]
  ? String(flags["from-raw"])
      .split(",")
      .map((f) => path.resolve(f))
  : undefined;
const rawFile = fromRaw
  ? path.join(outDir, `results-${date}-merged.json`)
  : path.resolve(flags.raw ? String(flags.raw) : path.join(outDir, `results-${date}${partial ? "-partial" : ""}.json`));
const runArgs = [
  path.join(tool, "run.mjs"),
  cli,
  "--cases",
  runCases,
  "--repos",
  names.join(","),
  "--budgets",
  budgets.join(","),
  "--variants",
  variants.join(","),
  "--systems",
  systems.join(","),
  "--work",
  work,
  "--out",
  rawFile,
];
if (limit) runArgs.push("--limit", String(limit));
console.error(`codeslice ${revision}; tool ${toolSrc} (${toolHash}); raw results ${rawFile}`);
const t0 = Date.now();
let wallS;
if (fromRaw) {
  // The halves' rows and metadata in one raw file; wall time is the longest half's.
  const docs = fromRaw.map((f) => JSON.parse(fs.readFileSync(f, "utf8")));
  const rows = docs.flatMap((d) => d.rows);
  const meta = {
    ...docs[0].meta,
    cases: new Set(rows.map((r) => r.id)).size,
    cases_per_repo: Object.assign({}, ...docs.map((d) => d.meta.cases_per_repo)),
    run_wall_s: Math.max(...docs.map((d) => d.meta.run_wall_s)),
    run_cpu_s: docs.reduce((a, d) => a + d.meta.run_cpu_s, 0),
    merged_from: fromRaw.map((f) => path.basename(f)),
  };
  writeJson(rawFile, { meta, rows });
  wallS = meta.run_wall_s;
} else {
  const run = spawnSync("nice", ["-n", "10", process.execPath, ...runArgs], {
    stdio: ["ignore", "inherit", "inherit"],
  });
  if (run.status !== 0) die(`run.mjs failed (exit ${run.status})`);
  wallS = Math.round((Date.now() - t0) / 1000);
}
const report = spawnSync(process.execPath, [path.join(tool, "report.mjs"), rawFile, "--misses", "200"], {
  encoding: "utf8",
  maxBuffer: 1 << 28,
});
fs.writeFileSync(rawFile.replace(/\.json$/, ".report.md"), report.stdout || report.stderr);

// 5. Aggregate: no messages, no source, only figures.
const res = JSON.parse(fs.readFileSync(rawFile, "utf8"));
const ranSystems = new Set(systems);
const reportedSystems = [...systems];
if (baselineFile) {
  // Rows of the systems this run did not run, for the same cases, budgets and variants.
  const ids = new Set(res.rows.map((r) => r.id));
  // Only the baselines: an earlier run's codeslice rows describe an earlier build, not this one.
  const earlier = JSON.parse(fs.readFileSync(baselineFile, "utf8")).rows.filter(
    (r) =>
      !r.system.startsWith("codeslice") &&
      !ranSystems.has(r.system) &&
      ids.has(r.id) &&
      budgets.includes(r.budget) &&
      variants.includes(r.variant),
  );
  for (const r of earlier) res.rows.push({ ...r, from_baseline: path.basename(baselineFile) });
  for (const sys of config.systems)
    if (!ranSystems.has(sys) && earlier.some((r) => r.system === sys)) reportedSystems.push(sys);
}
const mean = (xs) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : null);
const p50 = (xs) => {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};
const r3 = (x) => (x == null ? null : Math.round(x * 1000) / 1000);
const casesById = Object.fromEntries(casesDoc.cases.map((c) => [c.id, c]));
function cell(rows) {
  return {
    n: rows.length,
    file_recall: r3(mean(rows.map((r) => r.file_recall))),
    all_files: r3(mean(rows.map((r) => r.all_files))),
    fn_recall: r3(mean(rows.map((r) => r.fn_recall))),
    fn_whole: r3(mean(rows.map((r) => r.fn_full_recall))),
    tokens: Math.round(mean(rows.map((r) => r.tokens))),
    // answers that stopped early: under half the budget while a gold function is missing
    under_half_budget_with_fn_missing: r3(mean(rows.map((r) => (r.tokens < r.budget / 2 && r.fn_recall < 1 ? 1 : 0)))),
    ms_p50: r3(p50(rows.map((r) => r.ms))),
    cpu_ms_p50: r3(p50(rows.filter((r) => r.cpu_ms != null).map((r) => r.cpu_ms))),
    errors: rows.filter((r) => r.error).length,
    over_budget: rows.filter((r) => r.tokens > r.budget).length,
  };
}
function table(filter) {
  const out = [];
  for (const system of reportedSystems)
    for (const variant of variants)
      for (const budget of budgets) {
        const rows = res.rows.filter(
          (r) => r.system === system && r.variant === variant && r.budget === budget && filter(r),
        );
        if (rows.length) out.push({ system, variant, budget, ...cell(rows) });
      }
  return out;
}
const summary = {
  benchmark:
    "localize: commit message as the task, the functions/files the commit changed as gold (test/bench/localize/README.md)",
  date,
  codeslice: revision,
  tool: { source: "shared tools/localize", sha256_12: toolHash },
  machine: machine(),
  run_wall_s: wallS,
  run_cpu_s: res.meta.run_cpu_s,
  index_ms_p50: res.meta.index.ms_median,
  repos: Object.fromEntries(
    names.map((n) => [
      n,
      {
        url: config.repos[n].url,
        head: config.repos[n].head,
        language: config.repos[n].language,
        cases: res.meta.cases_per_repo[n] ?? 0,
      },
    ]),
  ),
  cases: res.meta.cases,
  excluded_cases: excluded.length,
  budgets,
  variants,
  systems: reportedSystems,
  ...(baselineFile
    ? {
        baseline_rows_from: {
          file: path.basename(baselineFile),
          systems: reportedSystems.filter((x) => !ranSystems.has(x)),
        },
      }
    : {}),
  metrics: {
    file_recall: "share of gold files with a line in the answer",
    all_files: "share of cases with every gold file in the answer",
    fn_recall: "share of gold functions whose lines overlap a chunk",
    fn_whole: "share of gold functions shown whole in full (not outline) chunks",
    tokens: "mean o200k tokens of the answer",
    under_half_budget_with_fn_missing: "share of answers under half the budget while a gold function is missing",
    ms_p50:
      "median wall ms per query (codeslice: one CLI process, Node start and index load included; baselines in process)",
  },
  summary: table(() => true),
  masked_changed_subset: table((r) => casesById[r.id]?.masked_words > 0),
  per_repo: Object.fromEntries(names.map((n) => [n, table((r) => r.repo === n)])),
};
writeJson(summaryFile, summary);

const pct = (x) => (x == null ? "–" : `${Math.round(x * 100)}%`);
console.log(
  `\n${summary.cases} cases (${Object.entries(summary.repos)
    .map(([n, r]) => `${n} ${r.cases}`)
    .join(", ")}); ${wallS} s wall\n`,
);
console.log(
  mdTable(
    [
      "system",
      "variant",
      "budget",
      "file recall",
      "all files",
      "fn recall",
      "fn whole",
      "tokens",
      "<½ budget & fn missing",
      "ms p50",
    ],
    summary.summary.map((s) => [
      s.system,
      s.variant,
      s.budget,
      pct(s.file_recall),
      pct(s.all_files),
      pct(s.fn_recall),
      pct(s.fn_whole),
      s.tokens,
      pct(s.under_half_budget_with_fn_missing),
      Math.round(s.ms_p50),
    ]),
  ),
);
console.error(`wrote ${summaryFile} (raw rows and the tool's report in ${outDir})`);
