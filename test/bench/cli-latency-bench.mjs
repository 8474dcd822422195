#!/usr/bin/env node
// CLI latency benchmark: `codeslice index` as a process on a warm cache, (1) with nothing changed
// and (2) right after a one-line edit of one file, for this checkout's build against a base build
// (main's, by default), run by run in turn (A, B, then B, A in the next round), so load from other
// work on a shared machine falls on both alike.
//
// Each run is a fresh `node dist/cli/main.js index --jobs 1 --json` under GNU time: wall time from
// this script's clock, CPU seconds (user + sys), the 1-minute load average when it started. The
// unchanged runs must parse 0 files and the edit runs exactly 1 (each round appends a new comment
// line to the edited file, so every build re-parses exactly that file); `graph --json` of every
// build is then compared byte for byte with the base's, on each build's own warm cache.
//
// Rerun:
//   node scripts/build.mjs && npm run bench -- latency                        # vs main, on Debian's django
//   npm run bench -- latency /work/corpora/django --runs 7                 # a corpus of your own (copied first)
//   npm run bench -- latency --base /path/to/base-package [--head .]       # builds already made
//   npm run bench -- latency --base-ref HEAD~3                             # any commit, built here first
// A package folder is a checkout (or a copy of its dist/, wasm/ and package.json) after
// `node scripts/build.mjs`. Without --base, the base is --base-ref (default `main`) checked out into
// a temporary git worktree and built there (a couple of minutes). The corpus is copied into a temp
// folder (git metadata included), so the edit never touches the original.
// Output: a markdown table on stdout and test/bench/results/cli-latency-<corpus>.json.
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  fmt,
  machine,
  mdTable,
  parseArgs,
  prepareDjango,
  repoRoot,
  resultsDir,
  stats,
  writeJson,
} from "./lib/bench-utils.mjs";

const { flags, positionals } = parseArgs(process.argv.slice(2), ["help"]);
if (flags.help) {
  console.log(
    "usage: node test/bench/cli-latency-bench.mjs [CORPUS_DIR] [--runs N] [--name NAME] [--edit-file REL] [--base PKG | --base-ref REF] [--head PKG]",
  );
  process.exit(0);
}
const RUNS = Number(flags.runs ?? 7);
if (!Number.isInteger(RUNS) || RUNS < 1) {
  console.error("--runs wants a positive integer");
  process.exit(2);
}
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-latency-bench-"));
const git = (cwd, ...args) =>
  execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();

/** A frozen copy of a package folder's dist/, wasm/ and package.json (node_modules linked). */
function freeze(pkg, name) {
  if (!fs.existsSync(path.join(pkg, "dist/cli/main.js"))) {
    console.error(`${pkg}/dist/cli/main.js is missing: build it first (node scripts/build.mjs)`);
    process.exit(2);
  }
  const dir = path.join(scratch, `pkg-${name}`);
  for (const item of ["dist", "wasm", "package.json"])
    fs.cpSync(path.join(pkg, item), path.join(dir, item), { recursive: true });
  fs.symlinkSync(path.join(repoRoot, "node_modules"), path.join(dir, "node_modules"), "dir");
  return dir;
}

/** `ref` checked out into a temporary worktree and built there. */
function buildRef(ref) {
  const dir = path.join(scratch, "base-src");
  process.stderr.write(`building ${ref} in ${dir} …\n`);
  git(repoRoot, "worktree", "add", "--detach", dir, ref);
  fs.symlinkSync(path.join(repoRoot, "node_modules"), path.join(dir, "node_modules"), "dir");
  execFileSync(process.execPath, ["scripts/build.mjs"], { cwd: dir, stdio: ["ignore", "ignore", "inherit"] });
  return dir;
}

const revision = (pkg) => {
  try {
    return git(pkg, "rev-parse", "--short", "HEAD");
  } catch {
    return path.basename(pkg);
  }
};

const baseSrc = flags.base ? path.resolve(flags.base) : buildRef(String(flags["base-ref"] ?? "main"));
const headSrc = path.resolve(flags.head ?? repoRoot);
const builds = { base: freeze(baseSrc, "base"), head: freeze(headSrc, "head") };
const revisions = {
  base: `${flags.base ? "" : `${flags["base-ref"] ?? "main"} `}${revision(baseSrc)}`,
  head: revision(headSrc),
};
const names = Object.keys(builds);

let corpus, corpusName;
if (positionals[0]) {
  corpusName = flags.name ?? path.basename(path.resolve(positionals[0]));
  corpus = path.join(scratch, "corpus");
  fs.cpSync(path.resolve(positionals[0]), corpus, { recursive: true, preserveTimestamps: true });
} else {
  corpusName = flags.name ?? "django";
  corpus = prepareDjango(path.join(scratch, "corpus")).corpus;
}
const editRel = String(flags["edit-file"] ?? "django/db/models/sql/query.py");
const editFile = path.join(corpus, editRel);
if (!fs.existsSync(editFile)) {
  console.error(`${editRel} is not in the corpus: pass --edit-file REL`);
  process.exit(2);
}

/** One `codeslice <args>` under GNU time: wall, CPU (user + sys), the load when it started, stdout. */
function run(pkg, args, stdoutFile = path.join(scratch, "stdout")) {
  const timeFile = path.join(scratch, "time");
  const fd = fs.openSync(stdoutFile, "w");
  const load = os.loadavg()[0];
  const t0 = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const child = spawn(
      "/usr/bin/time",
      ["-f", "%U %S %M", "-o", timeFile, process.execPath, path.join(pkg, "dist/cli/main.js"), ...args],
      { stdio: ["ignore", fd, "inherit"] },
    );
    child.on("error", reject);
    child.on("close", (code) => {
      const wall = Number(process.hrtime.bigint() - t0) / 1e9;
      fs.closeSync(fd);
      if (code !== 0) return reject(new Error(`${pkg}: codeslice ${args.join(" ")} exited with ${code}`));
      const [user, sys, kb] = fs.readFileSync(timeFile, "utf8").trim().split("\n").pop().split(/\s+/).map(Number);
      resolve({
        wall,
        cpu: user + sys,
        user,
        sys,
        rssMb: kb / 1024,
        load,
        stdout: fs.readFileSync(stdoutFile, "utf8"),
      });
    });
  });
}

const cache = (side) => path.join(scratch, `cache-${side}`);
const index = (side) =>
  run(builds[side], ["index", "--root", corpus, "--cache-dir", cache(side), "--quiet", "--jobs", "1", "--json"]);
const loadBefore = os.loadavg();
const original = fs.readFileSync(editFile);
const results = { unchanged: { base: [], head: [] }, edit: { base: [], head: [] } };
try {
  // Warm caches; then wait out the racy window (files changed within 2 s of a snapshot are re-read).
  for (const side of names) await index(side);
  await new Promise((r) => setTimeout(r, 2500));
  for (const mode of ["unchanged", "edit"]) {
    for (let i = 0; i < RUNS; i++) {
      if (mode === "edit") fs.appendFileSync(editFile, `\n# cli-latency-bench edit ${i} ${Date.now()}\n`);
      for (const side of i % 2 ? [...names].reverse() : names) {
        const r = await index(side);
        const { parsed } = JSON.parse(r.stdout);
        const want = mode === "edit" ? 1 : 0;
        if (parsed !== want) throw new Error(`${side} ${mode} run ${i + 1}: parsed ${parsed} files, expected ${want}`);
        delete r.stdout;
        results[mode][side].push(r);
        process.stderr.write(
          `${mode} ${side} ${i + 1}/${RUNS}: ${fmt(r.wall)} s wall, ${fmt(r.cpu)} s CPU, load ${r.load.toFixed(2)}\n`,
        );
      }
    }
  }
  // Same answers: graph --json of each build on its own warm cache, byte for byte.
  const graphs = {};
  for (const side of names) {
    graphs[side] = path.join(scratch, `graph-${side}.json`);
    await run(
      builds[side],
      ["graph", "--root", corpus, "--cache-dir", cache(side), "--quiet", "--json", "--jobs", "1"],
      graphs[side],
    );
  }
  const identical = Buffer.compare(fs.readFileSync(graphs.base), fs.readFileSync(graphs.head)) === 0;
  process.stderr.write(`graph --json identical: ${identical}\n`);

  const s = (mode, side, k) => stats(results[mode][side].map((r) => r[k]));
  const rows = [];
  for (const mode of ["unchanged", "edit"]) {
    for (const side of names) {
      const cpu = s(mode, side, "cpu");
      const wall = s(mode, side, "wall");
      rows.push([
        mode,
        `${side} (${revisions[side]})`,
        `${fmt(wall.median, 2)} (${fmt(wall.min, 2)}–${fmt(wall.max, 2)})`,
        `${fmt(cpu.median, 2)} (${fmt(cpu.min, 2)}–${fmt(cpu.max, 2)})`,
        fmt(cpu.median / s(mode, "base", "cpu").median, 2),
        fmt(s(mode, side, "load").median, 1),
      ]);
    }
  }
  console.log(
    mdTable(
      ["run", "build", "wall s, median (min–max)", "CPU s, median (min–max)", "CPU ÷ base", "load (1 min), median"],
      rows,
    ),
  );
  console.log(
    `\n${RUNS} runs of each per build, interleaved; graph --json identical: ${identical}; load ${loadBefore.map((x) => x.toFixed(2)).join(" ")} → ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(" ")}`,
  );
  writeJson(path.join(resultsDir, `cli-latency-${corpusName}.json`), {
    corpus: corpusName,
    editFile: editRel,
    runs: RUNS,
    machine: machine(),
    loadBefore,
    loadAfter: os.loadavg(),
    graphIdentical: identical,
    builds: Object.fromEntries(
      names.map((n) => [
        n,
        {
          revision: revisions[n],
          ...Object.fromEntries(
            ["unchanged", "edit"].map((m) => [m, { wall: s(m, n, "wall"), cpu: s(m, n, "cpu"), raw: results[m][n] }]),
          ),
        },
      ]),
    ),
  });
} finally {
  fs.writeFileSync(editFile, original);
  if (!flags.base) {
    try {
      git(repoRoot, "worktree", "remove", "--force", path.join(scratch, "base-src"));
    } catch {
      // not created
    }
  }
  fs.rmSync(scratch, { recursive: true, force: true });
}
