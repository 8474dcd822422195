#!/usr/bin/env node
// A/B cold-index benchmark: two or more builds of codeslice (package folders, each with dist/
// and wasm/) index the same corpus cold, run by run in turn (A, B, …, then the next round in
// reverse order), so load from other work on a shared machine falls on all alike. Each run gets a fresh cache folder and one parse thread
// (`--jobs 1`, or none for a build from before the parse pool, which always parses in-thread: the work
// after the parse is what this compares). CPU seconds (user + sys, GNU time)
// move far less with load than wall time; both are reported as medians, with the load average.
// Then each build writes `graph --json` for the corpus: the outputs must be byte-identical.
// `--modes cold,unchanged,edit` adds, on each build's own warm cache, `index` with nothing changed
// and `index` after a one-line edit of one file (a new comment line each round, so every build
// re-parses exactly that file); the file is restored at the end.
//
// Rerun:
//   node test/bench/ab-index-bench.mjs --a /path/to/base-package --b . [CORPUS_DIR] [--runs 5] [--name NAME]
//   node test/bench/ab-index-bench.mjs --builds base=/pkg/a,lookups=/pkg/b,terms=/pkg/c [CORPUS_DIR] …
//   node test/bench/ab-index-bench.mjs --a BASE --b . --modes cold,unchanged,edit [--edit-file rel/path.py]
// A package folder is a checkout (or a copy of its dist/, wasm/ and package.json) after
// `node scripts/build.mjs`. Without CORPUS_DIR: Debian's python3-django, prepared as index-bench does.
// Output: a markdown table on stdout and test/bench/results/ab-index-<corpus>.json.
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fmt, machine, mdTable, parseArgs, prepareDjango, resultsDir, stats, writeJson } from "./lib/bench-utils.mjs";

const { flags, positionals } = parseArgs(process.argv.slice(2), ["help", "no-graph"]);
if (flags.help || !((flags.a && flags.b) || flags.builds)) {
  console.log(
    "usage: node test/bench/ab-index-bench.mjs (--a BASE_PKG --b HEAD_PKG | --builds NAME=PKG,NAME=PKG,…) [CORPUS_DIR] [--runs N] [--name NAME] [--no-graph]",
  );
  process.exit(flags.help ? 0 : 2);
}
const RUNS = Number(flags.runs ?? 5);
/** Build name → package folder, in run order; the first is the base the others are compared with. */
const builds = Object.fromEntries(
  flags.builds
    ? String(flags.builds)
        .split(",")
        .map((b) => [b.split("=")[0], path.resolve(b.split("=").slice(1).join("="))])
    : [
        ["a", path.resolve(flags.a)],
        ["b", path.resolve(flags.b)],
      ],
);
const names = Object.keys(builds);
for (const dir of Object.values(builds)) {
  if (!fs.existsSync(path.join(dir, "dist/cli/main.js"))) {
    console.error(`${dir}/dist/cli/main.js is missing: build it first`);
    process.exit(2);
  }
}
// A build from before the parse pool (d9920dc) has no --jobs: it always parses in its own thread.
const jobsOf = Object.fromEntries(
  Object.entries(builds).map(([name, dir]) => {
    const help = execFileSync(process.execPath, [path.join(dir, "dist/cli/main.js"), "index", "--help"], {
      encoding: "utf8",
    });
    return [name, help.includes("--jobs") ? ["--jobs", "1"] : []];
  }),
);
const revision = (dir) => {
  try {
    return execFileSync("git", ["rev-parse", "--short", "HEAD"], {
      cwd: dir,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
  } catch {
    return path.basename(dir);
  }
};

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-ab-bench-"));
let corpus = positionals[0] ? path.resolve(positionals[0]) : undefined;
const corpusName = flags.name ?? (corpus ? path.basename(corpus) : "django");
if (!corpus) corpus = prepareDjango(path.join(scratch, "django-repo")).corpus;

/** One CLI run under GNU time: wall, CPU (user + sys) and peak RSS. */
function run(pkg, args, stdoutFile) {
  const timeFile = path.join(scratch, "time");
  const fd = fs.openSync(stdoutFile ?? "/dev/null", "w");
  const t0 = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const child = spawn(
      "/usr/bin/time",
      ["-f", "%M %U %S", "-o", timeFile, process.execPath, path.join(pkg, "dist/cli/main.js"), ...args],
      { stdio: ["ignore", fd, "inherit"] },
    );
    child.on("error", reject);
    child.on("close", (code) => {
      fs.closeSync(fd);
      if (code !== 0) return reject(new Error(`${pkg}: codeslice ${args.join(" ")} exited with ${code}`));
      const wall = Number(process.hrtime.bigint() - t0) / 1e9;
      const [kb, user, sys] = fs.readFileSync(timeFile, "utf8").trim().split("\n").pop().split(/\s+/).map(Number);
      resolve({ wall, cpu: user + sys, rssMb: kb / 1024 });
    });
  });
}

const MODES = String(flags.modes ?? "cold").split(",");
const editFile = path.join(corpus, String(flags["edit-file"] ?? "django/db/models/sql/query.py"));
const original = MODES.includes("edit") ? fs.readFileSync(editFile) : undefined;
const loadBefore = os.loadavg();
const runs = Object.fromEntries(names.map((n) => [n, []]));
const warmRuns = Object.fromEntries(
  MODES.filter((m) => m !== "cold").map((m) => [m, Object.fromEntries(names.map((n) => [n, []]))]),
);
try {
  const warmCache = (side) => path.join(scratch, `warm-${side}`);
  if (MODES.some((m) => m !== "cold"))
    for (const side of names)
      await run(builds[side], ["index", "--root", corpus, "--cache-dir", warmCache(side), "--quiet", ...jobsOf[side]]);
  for (let i = 0; i < RUNS; i++) {
    const order = i % 2 ? [...names].reverse() : names;
    if (MODES.includes("cold")) {
      for (const side of order) {
        const cache = path.join(scratch, `cache-${side}-${i}`);
        const r = await run(builds[side], [
          "index",
          "--root",
          corpus,
          "--cache-dir",
          cache,
          "--quiet",
          ...jobsOf[side],
        ]);
        fs.rmSync(cache, { recursive: true, force: true });
        runs[side].push(r);
        process.stderr.write(
          `${side} ${i + 1}/${RUNS}: ${fmt(r.wall)} s wall, ${fmt(r.cpu)} s CPU, ${Math.round(r.rssMb)} MB, load ${os.loadavg()[0].toFixed(2)}\n`,
        );
      }
    }
    for (const mode of MODES.filter((m) => m !== "cold")) {
      if (mode === "edit") fs.appendFileSync(editFile, `\n# ab-index-bench edit ${i}\n`);
      for (const side of order) {
        const r = await run(builds[side], [
          "index",
          "--root",
          corpus,
          "--cache-dir",
          warmCache(side),
          "--quiet",
          ...jobsOf[side],
        ]);
        warmRuns[mode][side].push(r);
        process.stderr.write(`${mode} ${side} ${i + 1}/${RUNS}: ${fmt(r.wall)} s wall, ${fmt(r.cpu)} s CPU\n`);
      }
    }
  }
  if (original) fs.writeFileSync(editFile, original);
  // graph --json of every build, compared byte for byte with the first build's.
  const identical = {};
  if (!flags["no-graph"]) {
    const out = {};
    for (const side of names) {
      out[side] = path.join(scratch, `graph-${side}.json`);
      await run(
        builds[side],
        [
          "graph",
          "--root",
          corpus,
          "--cache-dir",
          path.join(scratch, `graph-cache-${side}`),
          "--quiet",
          "--json",
          ...jobsOf[side],
        ],
        out[side],
      );
      identical[side] = Buffer.compare(fs.readFileSync(out[names[0]]), fs.readFileSync(out[side])) === 0;
    }
    process.stderr.write(`graph --json identical to ${names[0]}: ${JSON.stringify(identical)}\n`);
  }
  const all = { ...(MODES.includes("cold") ? { cold: runs } : {}), ...warmRuns };
  const s = (mode, side, k) => stats(all[mode][side].map((r) => r[k]));
  const rows = [];
  for (const mode of Object.keys(all)) {
    const base = s(mode, names[0], "cpu").median;
    for (const side of names) {
      rows.push([
        mode,
        `${side} (${revision(builds[side])})`,
        fmt(s(mode, side, "cpu").median),
        fmt(s(mode, side, "cpu").median / base),
        fmt(s(mode, side, "wall").median),
        Math.round(s(mode, side, "rssMb").median),
        identical[side] ?? "–",
      ]);
    }
  }
  console.log(
    mdTable(
      ["mode", "build", "CPU s (median)", `CPU ÷ ${names[0]}`, "wall s (median)", "peak RSS MB", "graph identical"],
      rows,
    ),
  );
  console.log(
    `\n${RUNS} runs of each mode per build, interleaved; load ${loadBefore.map((x) => x.toFixed(2)).join(" ")} → ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(" ")}`,
  );
  writeJson(path.join(resultsDir, `ab-index-${corpusName}.json`), {
    corpus: corpusName,
    runs: RUNS,
    modes: Object.keys(all),
    machine: machine(),
    loadBefore,
    loadAfter: os.loadavg(),
    builds: Object.fromEntries(
      names.map((n) => [
        n,
        {
          revision: revision(builds[n]),
          graphIdentical: identical[n] ?? null,
          ...Object.fromEntries(
            Object.keys(all).map((m) => [
              m,
              { cpu: s(m, n, "cpu"), wall: s(m, n, "wall"), rssMb: s(m, n, "rssMb"), raw: all[m][n] },
            ]),
          ),
        },
      ]),
    ),
  });
} finally {
  if (original) fs.writeFileSync(editFile, original);
  fs.rmSync(scratch, { recursive: true, force: true });
}
