#!/usr/bin/env node
// The floor under a cold index: what tree-sitter's parse alone costs over the same files, beside
// what a cold `codeslice index --jobs 1` costs (issue 27 item 2: a cold index ≤ 2.0× the parse).
//
// Per corpus and round, each as a fresh process under GNU time (CPU = user + sys, peak RSS):
//   parse   a Node process that loads web-tree-sitter and the grammars the way the engine does
//           (createParserRuntime over the package's wasm/), reads every file the index parses
//           and parses it, deleting each tree; nothing else (no query, no records, no store)
//   query   the same, plus running each language's query over the tree (matches counted): what
//           the extractor's first step costs on top of the parse
//   index   `codeslice index --jobs 1` on a fresh cache folder (cold)
// The floor is the least CPU of the parse-only runs (load only adds to a fixed amount of work); each
// build's ratio is its median index CPU over that floor, and beside it its least index CPU over it.
// Files: the project's `git ls-files` that the engine gives a language (languagesForProject) and
// does not skip by name (skipByName), read as the scan reads them, each distinct text once (as the
// index parses it); the index's own `parsed` count is printed beside the floor's so a difference shows. Rounds interleave the three modes.
//
// `--builds base=/pkg/a,head=.` times the index of several builds (package folders with dist/) in
// the same rounds, their order alternating round by round, each with its ratio to the same floor.
//
// Rerun:
//   node scripts/build.mjs && npm run bench -- parse-floor [--runs 3] [--builds NAME=PKG,…] [CORPUS_DIR ...]
// Default corpus: /work/corpora/lead/django (Debian's python3-django, copied and committed).
// Output: markdown on stdout and test/bench/results/parse-floor.json.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  cliPath,
  ensureBuilt,
  fmt,
  hasGnuTime,
  machine,
  mdTable,
  resultsDir,
  stats,
  writeJson,
} from "./lib/bench-utils.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, "../..");
const argv = process.argv.slice(2);

// Child mode: parse (or parse + query) the files listed in a file, print what was done.
if (argv[0] === "--child") {
  const [, mode, listFile] = argv;
  const { createParserRuntime } = await import(pathToFileURL(path.join(repoRoot, "dist/core/parse/runtime.js")).href);
  const { NodeWasmSource } = await import(
    pathToFileURL(path.join(repoRoot, "dist/platform/node/node-wasm-source.js")).href
  );
  const { languageById } = await import(pathToFileURL(path.join(repoRoot, "dist/languages/index.js")).href);
  const runtime = await createParserRuntime(new NodeWasmSource());
  const list = JSON.parse(fs.readFileSync(listFile, "utf8"));
  let parsed = 0;
  let matches = 0;
  const seen = new Set();
  for (const { file, language } of list.files) {
    let text;
    try {
      text = fs.readFileSync(path.join(list.root, file), "utf8");
    } catch {
      continue; // a dangling symlink: the scan skips it too
    }
    // The index parses each distinct text once (empty __init__.py files, copies): so does the floor.
    const key = `${language}\0${text}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const loaded = await runtime.load(languageById(language));
    runtime.parser.setLanguage(loaded.language);
    const tree = runtime.parser.parse(text);
    if (mode === "query") matches += loaded.query.matches(tree.rootNode).length;
    tree.delete();
    parsed++;
  }
  console.log(JSON.stringify({ parsed, matches }));
  process.exit(0);
}

if (!hasGnuTime) {
  console.error("needs GNU time (apt-get install -y time)");
  process.exit(2);
}
const runsAt = argv.indexOf("--runs");
const RUNS = runsAt >= 0 ? Number(argv[runsAt + 1]) : 3;
const buildsAt = argv.indexOf("--builds");
const corpora = argv.filter((a, i) => !a.startsWith("--") && argv[i - 1] !== "--runs" && argv[i - 1] !== "--builds");
if (corpora.length === 0) corpora.push("/work/corpora/lead/django");
ensureBuilt();

const { languagesForProject } = await import(pathToFileURL(path.join(repoRoot, "dist/languages/index.js")).href);
const { skipByName } = await import(pathToFileURL(path.join(repoRoot, "dist/index.js")).href);
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-parse-floor-"));
process.on("exit", () => fs.rmSync(scratch, { recursive: true, force: true }));

/** Runs `argv` under GNU time: CPU seconds, wall seconds, peak RSS (MB) and stdout. */
function timed(cmd, args) {
  const timeFile = path.join(scratch, "time.txt");
  const started = process.hrtime.bigint();
  const stdout = execFileSync("/usr/bin/time", ["-f", "%U %S %M", "-o", timeFile, cmd, ...args], {
    encoding: "utf8",
    maxBuffer: 1 << 28,
    stdio: ["ignore", "pipe", "ignore"],
  });
  const wall = Number(process.hrtime.bigint() - started) / 1e9;
  const [user, sys, rssKb] = fs.readFileSync(timeFile, "utf8").trim().split(/\s+/).map(Number);
  return { cpu: user + sys, wall, rss: rssKb / 1024, stdout };
}

/** Build name → its CLI; without --builds, this checkout's (frozen) build alone, named "index". */
const builds =
  buildsAt >= 0
    ? argv[buildsAt + 1].split(",").map((b) => {
        const [name, ...dir] = b.split("=");
        const cli = path.join(path.resolve(dir.join("=")), "dist/cli/main.js");
        if (!fs.existsSync(cli)) {
          console.error(`${cli} is missing: build that checkout first`);
          process.exit(2);
        }
        // A build from before the parse pool (d9920dc) has no --jobs: it always parses in its own thread.
        const help = execFileSync(process.execPath, [cli, "index", "--help"], { encoding: "utf8" });
        return { name, cli, jobs: help.includes("--jobs") ? ["--jobs", "1"] : [] };
      })
    : [{ name: "index", cli: cliPath, jobs: ["--jobs", "1"] }];

const results = [];
for (const corpus of corpora) {
  const root = path.resolve(corpus);
  const tracked = execFileSync("git", ["ls-files", "-z"], { cwd: root, encoding: "utf8", maxBuffer: 1 << 28 })
    .split("\0")
    .filter(Boolean);
  const languageOf = languagesForProject(tracked);
  const files = [];
  for (const file of tracked) {
    const spec = languageOf(file);
    if (!spec || skipByName(file) !== undefined) continue;
    files.push({ file, language: spec.id });
  }
  const listFile = path.join(scratch, `${path.basename(root)}.json`);
  fs.writeFileSync(listFile, JSON.stringify({ root, files }));
  const rows = { parse: [], query: [], ...Object.fromEntries(builds.map((b) => [b.name, []])) };
  const indexedParsed = {};
  let floorParsed;
  for (let r = 0; r < RUNS; r++) {
    const parse = timed(process.execPath, [fileURLToPath(import.meta.url), "--child", "parse", listFile]);
    floorParsed = JSON.parse(parse.stdout).parsed;
    rows.parse.push(parse);
    rows.query.push(timed(process.execPath, [fileURLToPath(import.meta.url), "--child", "query", listFile]));
    for (const b of r % 2 ? [...builds].reverse() : builds) {
      const cache = path.join(scratch, `cache-${r}-${b.name}`);
      const run = timed(process.execPath, [b.cli, "index", "--root", root, ...b.jobs, "--cache-dir", cache, "--json"]);
      indexedParsed[b.name] = JSON.parse(run.stdout).parsed;
      rows[b.name].push(run);
      fs.rmSync(cache, { recursive: true, force: true });
    }
  }
  const med = (list, k) => stats(list.map((x) => x[k])).median;
  const least = (list, k) => Math.min(...list.map((x) => x[k]));
  // The floor is the least CPU of the parse-only runs: the parse does the same work every run, and
  // load on a shared machine only adds to it (a median inflated the floor, and so flattered the ratio).
  const floor = least(rows.parse, "cpu");
  results.push({
    corpus: path.basename(root),
    files: floorParsed,
    indexedParsed,
    runs: RUNS,
    ...Object.fromEntries(
      Object.entries(rows).map(([k, v]) => [
        k,
        {
          cpu: med(v, "cpu"),
          wall: med(v, "wall"),
          rss: med(v, "rss"),
          runs: v.map(({ cpu, wall, rss }) => ({ cpu, wall, rss })),
        },
      ]),
    ),
    floor,
    // Each build's median and least index CPU over the same floor.
    ratios: Object.fromEntries(builds.map((b) => [b.name, med(rows[b.name], "cpu") / floor])),
    leastRatios: Object.fromEntries(builds.map((b) => [b.name, least(rows[b.name], "cpu") / floor])),
  });
}

const load = os
  .loadavg()
  .map((x) => x.toFixed(2))
  .join(" ");
const m = machine();
console.log(
  `\n## Cold index against the parse alone, median of ${RUNS} (CPU-s / wall s / peak RSS MB)\n${m.cpus} × ${m.cpu}, Node ${m.node}; load at end ${load}\n`,
);
const label = (b) => (builds.length > 1 ? `index --jobs 1 (${b.name})` : "index --jobs 1");
console.log(
  mdTable(
    [
      "corpus",
      "files parsed: floor (index)",
      "parse only",
      "parse + query",
      "floor: least parse-only CPU",
      ...builds.map(label),
      ...builds.map((b) => `${builds.length > 1 ? `${b.name}: ` : ""}index CPU ÷ floor (median, least)`),
    ],
    results.map((r) => [
      r.corpus,
      `${r.files} (${builds.map((b) => r.indexedParsed[b.name]).join(", ")})`,
      ...["parse", "query"].map((k) => `${fmt(r[k].cpu, 2)} / ${fmt(r[k].wall, 2)} / ${fmt(r[k].rss, 0)}`),
      fmt(r.floor, 2),
      ...builds.map((b) => `${fmt(r[b.name].cpu, 2)} / ${fmt(r[b.name].wall, 2)} / ${fmt(r[b.name].rss, 0)}`),
      ...builds.map((b) => `${fmt(r.ratios[b.name], 2)}×, ${fmt(r.leastRatios[b.name], 2)}×`),
    ]),
  ),
);
writeJson(path.join(resultsDir, "parse-floor.json"), { machine: machine(), load, results });
