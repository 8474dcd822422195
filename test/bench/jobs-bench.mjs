#!/usr/bin/env node
// Every core: `codeslice index --jobs N` on four corpora (issue 14's first "done when").
//
// For each corpus and each job count (default 1 and 2), round by round (1, 2, 1, 2, …, so load
// from other work on a shared machine falls on every setting alike), with the built CLI as a child
// process under GNU time:
//   * cold        a fresh cache folder: wall, CPU seconds (user + sys, all threads), peak RSS, and
//                 the engine (main) thread's own CPU seconds (a preload reads /proc on exit);
//   * unchanged   `index` again on that cache (must parse 0 files);
//   * edit        one comment line appended to one file, `index` again (must parse exactly 1);
//   * `graph --json` after the cold run and after the edit: its sha256 must be the same for every
//                 job count (the 1-job run is the reference), byte for byte.
// The load average is recorded before and after every run. From the CPU figures it derives what an
// idle machine would give (lib/cores.mjs: max(engine-thread CPU, CPU / cores), a lower bound) and a
// projection for 8 cores with 7 workers from the measured per-worker start-up.
//
// Corpora (recipes in ../shared/PLATFORM.md), built under $CODESLICE_CORPORA (default /work/corpora):
//   django    Debian's python3-django, committed            (apt-get install -y python3-django)
//   effect    `npm pack effect@4.1.0`, its src/, committed
//   ts-large  npm install of @theia/plugin-ext-vscode@1.74.1 @blocksuite/affine@0.22.4 tldraw@5.1.1;
//             each @theia/*, @blocksuite/*, tldraw, @tldraw/* package's src/ + package.json, committed
//   linux     /usr/src/linux-source-6.1.tar.xz extracted (apt-get install -y linux-source-6.1),
//             Debian's block cut from the top .gitignore, committed
//
// Rerun:
//   node scripts/build.mjs
//   npm run bench -- jobs --prepare [--corpora django,effect,ts-large,linux]   # build missing corpora
//   npm run bench -- jobs --corpora django,effect,ts-large --runs 3
//   npm run bench -- jobs --corpora linux --runs 1 --jobs 2,1 --in-place --no-edit-graph --graph-last
//   npm run bench -- jobs --report [--quiet-factor K]   # the combined tables from results/jobs-*.json
// Each run works on a `git clone --local` of the corpus (so an edit never touches the shared copy)
// unless --in-place (the edited file is then restored). Output: test/bench/results/jobs-<corpus>.json.
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  codesliceRevision,
  ensureBuilt,
  fmt,
  gitCommitAll,
  hasGnuTime,
  machine,
  mdTable,
  parseArgs,
  prepareDjango,
  resultsDir,
  runCli,
  stats,
  writeJson,
} from "./lib/bench-utils.mjs";
import { idleBound, perWorkerCpu, projectCores } from "./lib/cores.mjs";

const CORPORA_DIR = process.env.CODESLICE_CORPORA || "/work/corpora";
const LINUX_TARBALL = "/usr/src/linux-source-6.1.tar.xz";
const TS_LARGE_PACKAGES = ["@theia/plugin-ext-vscode@1.74.1", "@blocksuite/affine@0.22.4", "tldraw@5.1.1"];

/** The four corpora: how to build each, and the file a one-file edit touches (a large one). */
const CORPORA = {
  django: { edit: "django/db/models/sql/query.py", comment: (t) => `\n# ${t}\n`, prepare: (dir) => prepareDjango(dir) },
  effect: { edit: "src/Schema.ts", comment: (t) => `\n// ${t}\n`, prepare: prepareEffect },
  "ts-large": {
    edit: "packages/theia-plugin-ext/src/plugin/types-impl.ts",
    comment: (t) => `\n// ${t}\n`,
    prepare: prepareTsLarge,
  },
  linux: { edit: "kernel/sched/core.c", comment: (t) => `\n/* ${t} */\n`, prepare: prepareLinux },
};

// The 2-job targets of issue 14 on this 2-core machine (seconds; MB for memory).
const TARGETS = [
  { corpus: "django", mode: "cold", wall: 1.5 },
  { corpus: "ts-large", mode: "cold", wall: 10 },
  { corpus: "linux", mode: "cold", wall: 180, rssMb: 4096 },
  { corpus: "django", mode: "unchanged", wall: 0.2 },
  { corpus: "django", mode: "edit", wall: 0.3 },
  { corpus: "effect", mode: "edit", wall: 0.3 },
  { corpus: "ts-large", mode: "edit", wall: 0.3 },
  { corpus: "linux", mode: "edit", wall: 0.3 },
];
const MODES = ["cold", "unchanged", "edit"];
const PROJECT_CORES = 8;

const { flags } = parseArgs(process.argv.slice(2), [
  "help",
  "prepare",
  "report",
  "in-place",
  "no-edit-graph",
  "graph-last",
]);
if (flags.help) {
  console.log(`usage: node test/bench/jobs-bench.mjs [--prepare] [--corpora ${Object.keys(CORPORA).join(",")}] [--runs N] [--jobs 1,2] [--in-place] [--no-edit-graph]
       node test/bench/jobs-bench.mjs --report [--quiet-factor K]`);
  process.exit(0);
}
// --quiet-factor K (with --report): how much this machine's load inflates CPU seconds, measured
// against a quiet run of the same work; adds "quiet estimate" columns (bound ÷ K).
const QUIET = flags["quiet-factor"] ? Number(flags["quiet-factor"]) : null;
const quiet = (x) => (QUIET ? [fmt(x / QUIET, 2)] : []);
const quietHead = (h) => (QUIET ? [h] : []);

const names = String(flags.corpora ?? Object.keys(CORPORA).join(",")).split(",");
for (const n of names) {
  if (!CORPORA[n]) {
    console.error(`unknown corpus ${n}; known: ${Object.keys(CORPORA).join(", ")}`);
    process.exit(2);
  }
}
const progress = (msg) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${msg}\n`);
const sh = (cmd, args, cwd) =>
  execFileSync(cmd, args, { cwd, stdio: ["ignore", "ignore", "inherit"], maxBuffer: 1 << 30 });

if (flags.prepare) {
  for (const n of names) {
    const dir = path.join(CORPORA_DIR, n);
    if (fs.existsSync(path.join(dir, ".git"))) {
      progress(`${n}: ${dir} exists, kept`);
      continue;
    }
    progress(`${n}: building ${dir}`);
    CORPORA[n].prepare(dir);
    progress(`${n}: done`);
  }
} else if (flags.report) {
  report();
} else {
  const RUNS = Number(flags.runs ?? 3);
  const JOBS = String(flags.jobs ?? "1,2")
    .split(",")
    .map(Number);
  if (!Number.isInteger(RUNS) || RUNS < 1 || !JOBS.every((j) => Number.isInteger(j) && j >= 1)) {
    console.error("--runs wants a positive integer, --jobs a list of positive integers");
    process.exit(2);
  }
  if (!hasGnuTime) {
    console.error("GNU time is needed for CPU seconds and peak RSS: apt-get install -y time");
    process.exit(1);
  }
  ensureBuilt();
  for (const n of names) await benchCorpus(n, RUNS, JOBS);
}

// ---------------------------------------------------------------------------------------------
// Corpus recipes

function prepareEffect(dir) {
  const staging = fs.mkdtempSync(path.join(os.tmpdir(), "jobs-bench-effect-"));
  try {
    sh("npm", ["pack", "--silent", "effect@4.1.0"], staging);
    sh("tar", ["xzf", "effect-4.1.0.tgz"], staging);
    fs.mkdirSync(dir, { recursive: true });
    fs.cpSync(path.join(staging, "package/src"), path.join(dir, "src"), { recursive: true });
    gitCommitAll(dir, "effect 4.1.0 src/ (npm pack)");
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

function prepareTsLarge(dir) {
  const staging = path.join(CORPORA_DIR, ".staging/ts-large-npm");
  if (!fs.existsSync(path.join(staging, "node_modules/tldraw"))) {
    fs.mkdirSync(staging, { recursive: true });
    fs.writeFileSync(path.join(staging, "package.json"), '{"name":"ts-large-staging","private":true}\n');
    sh(
      "npm",
      ["install", "--ignore-scripts", "--legacy-peer-deps", "--no-audit", "--no-fund", ...TS_LARGE_PACKAGES],
      staging,
    );
  }
  const nm = path.join(staging, "node_modules");
  const pkgs = [];
  for (const scope of ["@theia", "@blocksuite", "@tldraw"]) {
    for (const name of fs.existsSync(path.join(nm, scope)) ? fs.readdirSync(path.join(nm, scope)) : [])
      pkgs.push([path.join(nm, scope, name), `${scope.slice(1)}-${name}`]);
  }
  pkgs.push([path.join(nm, "tldraw"), "tldraw"]);
  let copied = 0;
  for (const [from, to] of pkgs.sort((a, b) => a[1].localeCompare(b[1]))) {
    if (!fs.existsSync(path.join(from, "src"))) continue;
    fs.mkdirSync(path.join(dir, "packages", to), { recursive: true });
    fs.cpSync(path.join(from, "src"), path.join(dir, "packages", to, "src"), { recursive: true });
    fs.copyFileSync(path.join(from, "package.json"), path.join(dir, "packages", to, "package.json"));
    copied++;
  }
  gitCommitAll(dir, `ts-large: src/ and package.json of ${copied} packages from ${TS_LARGE_PACKAGES.join(" ")}`);
}

function prepareLinux(dir) {
  if (!fs.existsSync(LINUX_TARBALL)) {
    console.error(`${LINUX_TARBALL} is missing: apt-get install -y linux-source-6.1`);
    process.exit(1);
  }
  fs.mkdirSync(dir, { recursive: true });
  sh("tar", ["xJf", LINUX_TARBALL, "--strip-components=1"], dir);
  // Debian's block at the end of the top .gitignore ignores everything at the top level.
  const gi = path.join(dir, ".gitignore");
  const text = fs.readFileSync(gi, "utf8");
  const cut = text.indexOf("# Debian packaging");
  if (cut >= 0) fs.writeFileSync(gi, text.slice(0, cut));
  gitCommitAll(dir, "linux-source-6.1 (Debian)");
}

// ---------------------------------------------------------------------------------------------
// Measurement

async function benchCorpus(name, RUNS, JOBS) {
  const spec = CORPORA[name];
  const source = path.join(CORPORA_DIR, name);
  if (!fs.existsSync(path.join(source, ".git"))) {
    console.error(`${source} is missing: npm run bench -- jobs --prepare --corpora ${name}`);
    process.exit(1);
  }
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), `codeslice-jobs-bench-${name}-`));
  let corpus = source;
  if (!flags["in-place"]) {
    corpus = path.join(scratch, "repo");
    progress(`${name}: git clone --local into ${corpus}`);
    sh("git", ["clone", "--quiet", "--local", source, corpus]);
  }
  const editPath = path.join(corpus, spec.edit);
  const editOriginal = fs.readFileSync(editPath);
  const restore = () => {
    fs.writeFileSync(editPath, editOriginal);
    try {
      sh("git", ["update-index", "-q", "--refresh"], corpus); // the restored file's new stat, so git sees it clean
    } catch {
      // exit 1 only says something differs from the index; nothing to act on here
    }
  };
  const machineAtStart = machine();
  const runs = []; // { round, jobs, mode, wall, cpu, mainCpu, rssMb, parsed, symbols, load }
  const graphs = []; // { round, jobs, after, sha256, bytes, wall, cpu, rssMb }
  const graphFile = path.join(scratch, "graph.json");
  const timed = async (round, jobs, mode, args) => {
    const load = [os.loadavg()[0]];
    const r = await runCli(args, { mainCpu: true });
    load.push(os.loadavg()[0]);
    const s = JSON.parse(r.stdout);
    const row = {
      round,
      jobs,
      mode,
      wall: r.wall,
      cpu: r.cpu,
      mainCpu: r.mainCpu,
      rssMb: r.rssMb,
      parsed: s.parsed,
      symbols: s.symbols,
      files: s.files,
      load,
    };
    runs.push(row);
    progress(
      `${name} jobs ${jobs} ${mode} ${round + 1}/${RUNS}: ${fmt(r.wall, 2)} s wall, ${fmt(r.cpu, 2)} s CPU (engine thread ${fmt(r.mainCpu, 2)}), ${fmt(r.rssMb, 0)} MB, ${s.parsed} parsed, load ${load.map((x) => x.toFixed(1)).join("→")}`,
    );
    return row;
  };
  const graphHash = async (round, jobs, after, cache) => {
    let r;
    try {
      r = await runCli(["graph", "--root", corpus, "--cache-dir", cache, "--quiet", "--json", "--jobs", String(jobs)], {
        stdoutFile: graphFile,
      });
    } catch (error) {
      // a failing graph is a finding (the kernel's hit a V8 limit): record it, keep the other figures
      const message = String(error.message).split("\n").slice(0, 2).join(" ");
      graphs.push({ round, jobs, after, error: message });
      progress(`${name} jobs ${jobs} graph after ${after}: FAILED ${message}`);
      return;
    }
    const sha256 = await sha256File(graphFile);
    const bytes = fs.statSync(graphFile).size;
    fs.rmSync(graphFile, { force: true });
    graphs.push({ round, jobs, after, sha256, bytes, wall: r.wall, cpu: r.cpu, rssMb: r.rssMb });
    progress(
      `${name} jobs ${jobs} graph after ${after}: ${sha256.slice(0, 12)} (${bytes} bytes), ${fmt(r.wall, 2)} s, ${fmt(r.rssMb, 0)} MB`,
    );
  };
  try {
    for (let round = 0; round < RUNS; round++) {
      for (const jobs of JOBS) {
        const cache = path.join(scratch, `cache-${jobs}-${round}`);
        const args = ["index", "--root", corpus, "--cache-dir", cache, "--quiet", "--json", "--jobs", String(jobs)];
        await timed(round, jobs, "cold", args);
        if (!flags["graph-last"]) await graphHash(round, jobs, "cold", cache);
        await timed(round, jobs, "unchanged", args);
        // the same edit for every job count in a round, so the graphs after it must match
        fs.appendFileSync(editPath, spec.comment(`codeslice jobs-bench edit, round ${round}`));
        try {
          await timed(round, jobs, "edit", args);
          if (!flags["no-edit-graph"]) await graphHash(round, jobs, "edit", cache);
        } finally {
          restore();
        }
        // --graph-last: the unchanged and edit figures first (a kernel-sized graph takes long); the
        // graph of the original tree is the same whether taken before the edit or after its undo
        if (flags["graph-last"]) await graphHash(round, jobs, "cold", cache);
        fs.rmSync(cache, { recursive: true, force: true });
        // after every setting, so a long run stopped part-way still leaves what it completed
        writeResult(true);
      }
    }
  } finally {
    restore();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  const result = writeResult(false);
  console.log(
    `\n${name}: ${RUNS} round(s), load ${machineAtStart.load_average_1_5_15.join(" ")} → ${result.machine.load_average_at_end.join(" ")}`,
  );
  console.log(corpusTable([result]));
  console.log(`checks: ${JSON.stringify(result.checks)}`);
  const c = result.checks;
  if (!c.same_graph_every_jobs || !c.unchanged_parses_nothing || !c.edit_parses_one) process.exitCode = 1;

  function writeResult(partial) {
    const cores = machineAtStart.cpus;
    const summary = {};
    for (const jobs of JOBS) {
      summary[jobs] = {};
      for (const mode of MODES) {
        const r = runs.filter((x) => x.jobs === jobs && x.mode === mode);
        summary[jobs][mode] = {
          wall: stats(r.map((x) => x.wall)),
          cpu: stats(r.map((x) => x.cpu)),
          mainCpu: stats(r.map((x) => x.mainCpu)),
          rssMb: stats(r.map((x) => x.rssMb)),
          parsed: r.map((x) => x.parsed),
          // per run, then the median: the idle-machine lower bound on this machine's cores
          idleBound: stats(r.map((x) => idleBound({ mainCpu: x.mainCpu, cpu: x.cpu, cores }))),
        };
      }
    }
    const ref = (round, after) =>
      graphs.find((g) => g.round === round && g.after === after && g.jobs === JOBS[0])?.sha256;
    const checks = {
      same_graph_every_jobs: graphs.every((g) => !g.error && g.sha256 === ref(g.round, g.after)),
      graph_failures: graphs.filter((g) => g.error).length,
      cold_graphs_compared: graphs.filter((g) => g.after === "cold").length,
      edit_graphs_compared: graphs.filter((g) => g.after === "edit").length,
      unchanged_parses_nothing: runs.filter((x) => x.mode === "unchanged").every((x) => x.parsed === 0),
      edit_parses_one: runs.filter((x) => x.mode === "edit").every((x) => x.parsed === 1),
      same_symbols_every_jobs: new Set(runs.filter((x) => x.mode === "cold").map((x) => x.symbols)).size === 1,
    };
    const projection = projectionFor(summary, JOBS);
    const cold0 = runs.find((x) => x.mode === "cold");
    const result = {
      benchmark: "jobs",
      corpus: {
        name,
        path: source,
        files: cold0.files,
        parsed_cold: cold0.parsed,
        symbols: cold0.symbols,
        edit_file: spec.edit,
        cloned: !flags["in-place"],
      },
      codeslice: codesliceRevision(),
      date: new Date().toISOString(),
      machine: { ...machineAtStart, load_average_at_end: machine().load_average_1_5_15 },
      runs_per_mode: new Set(runs.map((x) => x.round)).size,
      runs_planned: RUNS,
      partial,
      jobs: JOBS,
      measured_with:
        "GNU time (%M %U %S) around `node <cli>`; engine-thread CPU from /proc/self/task/<pid>/stat at exit",
      summary,
      projection,
      checks,
      runs,
      graphs,
    };
    writeJson(path.join(resultsDir, `jobs-${name}.json`), result);
    return result;
  }
}

/** The 8-core projection of a cold run from the 1-job and the pool's medians (see lib/cores.mjs). */
function projectionFor(summary, JOBS) {
  const one = summary[1]?.cold,
    poolJobs = JOBS.find((j) => j > 1),
    pool = poolJobs && summary[poolJobs].cold;
  if (!one?.wall.runs || !pool?.wall.runs) return null;
  const perWorker = perWorkerCpu({ cpuOneJob: one.cpu.median, cpuPool: pool.cpu.median, workers: poolJobs });
  const p = projectCores({
    cpuOneJob: one.cpu.median,
    mainCpuPool: pool.mainCpu.median,
    perWorker,
    cores: PROJECT_CORES,
  });
  const rssPerWorker = (pool.rssMb.median - one.rssMb.median) / poolJobs;
  return {
    model: `wall ≥ max(E, (CPU₁ + (C − 1)·s) / C) with C = ${PROJECT_CORES} cores and C − 1 workers; E = engine-thread CPU with ${poolJobs} jobs, CPU₁ = 1-job CPU, s = (CPU_${poolJobs} − CPU₁) / ${poolJobs}; peak RSS ≈ RSS₁ + (C − 1)·(RSS_${poolJobs} − RSS₁) / ${poolJobs}`,
    cpu_one_job: one.cpu.median,
    engine_thread_pool: pool.mainCpu.median,
    per_worker_cpu: perWorker,
    ...p,
    one_job_engine_thread: one.mainCpu.median,
    speedup_vs_one_thread: one.mainCpu.median / p.wall,
    rss_per_worker_mb: rssPerWorker,
    rss_mb: one.rssMb.median + (PROJECT_CORES - 1) * rssPerWorker,
  };
}

async function sha256File(file) {
  const hash = crypto.createHash("sha256");
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk);
  return hash.digest("hex");
}

// ---------------------------------------------------------------------------------------------
// Tables

function corpusTable(results) {
  const rows = [];
  for (const r of results) {
    for (const mode of MODES) {
      for (const jobs of r.jobs) {
        const s = r.summary[jobs][mode];
        rows.push([
          r.corpus.name,
          mode,
          jobs,
          `${fmt(s.wall.median, 2)} (${fmt(s.wall.min, 2)}–${fmt(s.wall.max, 2)})`,
          fmt(s.cpu.median, 2),
          fmt(s.mainCpu.median, 2),
          fmt(s.rssMb.median, 0),
          fmt(s.idleBound.median, 2),
          ...quiet(s.idleBound.median),
          s.wall.runs,
        ]);
      }
    }
  }
  return mdTable(
    [
      "corpus",
      "run",
      "jobs",
      "wall s, median (min–max)",
      "CPU s",
      "engine-thread CPU s",
      "peak RSS MB",
      "idle 2-core bound s",
      ...quietHead(`quiet estimate s (÷ ${QUIET})`),
      "runs",
    ],
    rows,
  );
}

function report() {
  const results = Object.keys(CORPORA)
    .map((n) => path.join(resultsDir, `jobs-${n}.json`))
    .filter((f) => fs.existsSync(f))
    .map((f) => JSON.parse(fs.readFileSync(f, "utf8")));
  if (!results.length) {
    console.error("no results/jobs-*.json yet");
    process.exit(1);
  }
  for (const r of results) {
    const loads = r.runs.flatMap((x) => x.load);
    console.log(
      `- ${r.corpus.name}: ${r.corpus.files} files, ${r.corpus.parsed_cold} parsed cold, ${r.corpus.symbols} symbols; ${r.runs_per_mode} run(s) per mode; codeslice ${r.codeslice}; ${r.date.slice(0, 16)}Z; load average (1 min) during runs ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}; graph --json identical across jobs: ${r.checks.same_graph_every_jobs ? "yes" : "NO"} (${r.checks.cold_graphs_compared} after cold, ${r.checks.edit_graphs_compared} after the edit)`,
    );
  }
  console.log();
  console.log(corpusTable(results));
  console.log();
  console.log(
    mdTable(
      [
        "corpus",
        "CPU₁ s",
        "s per worker",
        "E (engine thread, pool) s",
        `(CPU₁ + ${PROJECT_CORES - 1}s)/${PROJECT_CORES} s`,
        `${PROJECT_CORES}-core bound s`,
        ...quietHead(`quiet estimate s (÷ ${QUIET})`),
        "× vs 1-job engine thread",
        "projected peak RSS MB",
      ],
      results
        .filter((r) => r.projection)
        .map((r) => {
          const p = r.projection;
          return [
            r.corpus.name,
            fmt(p.cpu_one_job, 2),
            fmt(p.per_worker_cpu, 2),
            fmt(p.engine_thread_pool, 2),
            fmt(p.spread, 2),
            fmt(p.wall, 2),
            ...quiet(p.wall),
            fmt(p.speedup_vs_one_thread, 2),
            fmt(p.rss_mb, 0),
          ];
        }),
    ),
  );
  console.log();
  const byName = Object.fromEntries(results.map((r) => [r.corpus.name, r]));
  console.log(
    mdTable(
      [
        "target (2 jobs)",
        "measured wall, median",
        "idle 2-core bound",
        ...quietHead("quiet estimate"),
        "peak RSS MB",
        "holds?",
      ],
      TARGETS.filter((t) => byName[t.corpus]).map((t) => {
        const s = byName[t.corpus].summary[2]?.[t.mode];
        if (!s?.wall.runs) return [`${t.corpus} ${t.mode}`, "–", "–", ...quiet(NaN), "–", "not run with 2 jobs"];
        const rssOk = t.rssMb == null || s.rssMb.max <= t.rssMb;
        const estimate = QUIET ? s.idleBound.median / QUIET : s.idleBound.median;
        const verdict =
          s.wall.median <= t.wall && rssOk
            ? "yes"
            : estimate <= t.wall && rssOk
              ? `not as measured; the ${QUIET ? "quiet estimate" : "idle bound"} is under it`
              : "no";
        return [
          `${t.corpus} ${t.mode} ≤ ${t.wall} s${t.rssMb ? ` within ${t.rssMb} MB` : ""}`,
          fmt(s.wall.median, 2),
          fmt(s.idleBound.median, 2),
          ...quiet(s.idleBound.median),
          fmt(s.rssMb.max, 0),
          verdict,
        ];
      }),
    ),
  );
}
