#!/usr/bin/env node
// A cold index side by side with GitNexus (issue 27: "django cold side by side with GitNexus (same run) ≥ 20×").
//
// For one corpus (default: Debian's python3-django, copied and committed), round by round, alternating which goes
// first: `gitnexus analyze` on a fresh `git clone --local` of the corpus (its index lives in the clone's `.gitnexus/`,
// its registry under a scratch HOME), and `codeslice index` cold (a fresh cache folder, the default jobs) on another
// fresh clone. Both run under GNU time: wall, CPU seconds (user + sys, all threads and children), peak RSS; the load
// average before and after each run. The ratios are GitNexus's median over codeslice's, for wall and for CPU.
//
// GitNexus is an npm package installed outside this repository (never a dependency of codeslice):
//   mkdir -p /work/corpora/gitnexus && cd /work/corpora/gitnexus && npm init -y && npm install gitnexus@1.6.12
// (its native parsers come as prebuilds; its full-text-search extension needs the network and is skipped here with
// --skip-fts, as it would be offline; no embeddings, no skills, no AGENTS.md: the graph only).
//
// Rerun:
//   node scripts/build.mjs
//   npm run bench -- gitnexus [--gitnexus /work/corpora/gitnexus/node_modules/.bin/gitnexus] [--runs 3] [DIR]
// Output: test/bench/results/gitnexus-<corpus>.json
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  benchCorpus,
  cliPath,
  codesliceRevision,
  ensureBuilt,
  hasGnuTime,
  machine,
  parseArgs,
  resultsDir,
  stats,
  writeJson,
} from "./lib/bench-utils.mjs";

const { flags, positionals } = parseArgs(process.argv.slice(2), ["help"]);
if (flags.help) {
  console.log("usage: npm run bench -- gitnexus [--gitnexus BIN] [--runs N] [--name NAME] [DIR]");
  process.exit(0);
}
if (!hasGnuTime) {
  console.error("GNU time is needed for CPU seconds and peak RSS: apt-get install -y time");
  process.exit(1);
}
const gitnexus = path.resolve(
  String(
    flags.gitnexus ??
      path.join(process.env.CODESLICE_CORPORA || "/work/corpora", "gitnexus/node_modules/.bin/gitnexus"),
  ),
);
if (!fs.existsSync(gitnexus)) {
  console.error(
    `GitNexus is not at ${gitnexus}. Install it outside the repository:\n` +
      "  mkdir -p /work/corpora/gitnexus && cd /work/corpora/gitnexus && npm init -y && npm install gitnexus@1.6.12\n" +
      "or pass --gitnexus PATH/TO/node_modules/.bin/gitnexus",
  );
  process.exit(1);
}
const runs = Number(flags.runs ?? 3);
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-gitnexus-"));
const progress = (msg) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${msg}\n`);
const load = () => os.loadavg().map((x) => Math.round(x * 100) / 100);

ensureBuilt();
const { corpus, corpusName } = benchCorpus(positionals, flags, scratch);
const gitnexusVersion = JSON.parse(
  fs.readFileSync(path.join(path.dirname(gitnexus), "../gitnexus/package.json"), "utf8"),
).version;
const result = {
  benchmark: "gitnexus",
  corpus: { name: corpusName, path: corpus },
  codeslice: codesliceRevision(),
  gitnexus: { version: gitnexusVersion, command: "analyze --skip-fts --skip-agents-md --skip-skills" },
  date: new Date().toISOString(),
  machine: machine(),
  node: process.version,
  runs: [],
};

const TOOLS = {
  gitnexus: (dir) => ({
    cmd: gitnexus,
    args: ["analyze", "--skip-fts", "--skip-agents-md", "--skip-skills", dir],
    env: { HOME: path.join(scratch, "home"), GITNEXUS_HOME: path.join(scratch, "home/.gitnexus") },
  }),
  codeslice: (dir) => ({
    cmd: process.execPath,
    args: [cliPath, "index", "--root", dir, "--cache-dir", path.join(dir, "..", "cache"), "--quiet", "--json"],
    env: {},
  }),
};

try {
  for (let round = 0; round < runs; round++) {
    const order = round % 2 === 0 ? ["gitnexus", "codeslice"] : ["codeslice", "gitnexus"];
    for (const tool of order) {
      const dir = path.join(scratch, `${tool}-${round}`, "repo");
      fs.mkdirSync(path.dirname(dir), { recursive: true });
      await run("git", ["clone", "-q", "--local", corpus, dir], {});
      const { cmd, args, env } = TOOLS[tool](dir);
      const r = await timed(cmd, args, env, path.join(path.dirname(dir), "out"));
      result.runs.push({ round, tool, ...r });
      progress(
        `round ${round + 1}/${runs} ${tool}: ${r.wall.toFixed(1)} s wall, ${r.cpu.toFixed(1)} CPU-s, ${r.rssMb.toFixed(0)} MB, load ${r.load_before[0]}`,
      );
      fs.rmSync(path.dirname(dir), { recursive: true, force: true });
    }
  }
} finally {
  fs.rmSync(scratch, { recursive: true, force: true });
}

const of = (tool, key) => stats(result.runs.filter((r) => r.tool === tool).map((r) => r[key]));
result.summary = {};
for (const tool of Object.keys(TOOLS))
  result.summary[tool] = { wall: of(tool, "wall"), cpu: of(tool, "cpu"), rss_mb: of(tool, "rssMb") };
result.summary.ratio = {
  wall: result.summary.gitnexus.wall.median / result.summary.codeslice.wall.median,
  cpu: result.summary.gitnexus.cpu.median / result.summary.codeslice.cpu.median,
};
const out = path.join(resultsDir, `gitnexus-${corpusName}.json`);
writeJson(out, result);
const r = result.summary;
progress(
  `median wall: GitNexus ${r.gitnexus.wall.median.toFixed(1)} s, codeslice ${r.codeslice.wall.median.toFixed(1)} s ` +
    `= ${r.ratio.wall.toFixed(1)}×; CPU ${r.gitnexus.cpu.median.toFixed(1)} / ${r.codeslice.cpu.median.toFixed(1)} ` +
    `= ${r.ratio.cpu.toFixed(1)}×`,
);
progress(`wrote ${path.relative(process.cwd(), out)}`);

/** Runs a command to completion, failing on a non-zero exit. */
function run(cmd, args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, ...env } });
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(" ")}: exit ${code}`))));
  });
}

/** Runs a command under GNU time with stdout to `outFile`: wall, CPU seconds (with children), peak RSS. */
async function timed(cmd, args, env, outFile) {
  const timeFile = `${outFile}.time`;
  const loadBefore = load();
  const fd = fs.openSync(outFile, "w");
  const stderr = [];
  const t0 = process.hrtime.bigint();
  const code = await new Promise((resolve, reject) => {
    const child = spawn("/usr/bin/time", ["-f", "%M %U %S", "-o", timeFile, cmd, ...args], {
      stdio: ["ignore", fd, "pipe"],
      env: { ...process.env, ...env, CI: "1" },
    });
    child.stderr.on("data", (b) => stderr.push(b));
    child.on("error", reject);
    child.on("close", resolve);
  });
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  fs.closeSync(fd);
  if (code !== 0)
    throw new Error(`${cmd} ${args.join(" ")} exited with ${code}\n${Buffer.concat(stderr).toString().slice(-2000)}`);
  const [kb, user, sys] = fs.readFileSync(timeFile, "utf8").trim().split("\n").pop().split(/\s+/).map(Number);
  return { wall, cpu: user + sys, rssMb: kb / 1024, load_before: loadBefore, load_after: load() };
}
