#!/usr/bin/env node
// Index artifact and SCIP benchmark: what `index --export`, `index --import` and `scip --out` cost
// on a real repository, and what the import saves against indexing from source.
//
// With the built CLI as a child process, per run (interleaved, so load drifts hit every column):
//   * unchanged index     `index` on the warm cache: the baseline `index --export` adds to
//   * export              `index --export FILE` on the same warm cache
//   * cold index          `index` of a fresh copy of the corpus (another absolute path, no cache)
//   * import              `index --import FILE` of another fresh copy: must parse 0 files
//   * scip                `scip --out FILE` on the warm cache
// Once: the artifact's, the cache folder's and the SCIP file's sizes, and whether `graph --json`
// of the imported copy equals the original's byte for byte.
// Figures are medians of N runs (default 5) with min and max, CPU seconds (user + sys, GNU time)
// beside wall seconds.
//
// Rerun:
//   node scripts/build.mjs && node test/bench/artifact-bench.mjs            # Debian's python3-django
//   node test/bench/artifact-bench.mjs /path/to/repo --runs 3 [--name NAME]
// Output: a markdown table on stdout and test/bench/results/artifact-<corpus>.json.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  codesliceRevision,
  ensureBuilt,
  fmt,
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
import { readScip } from "./graph-gold/scip.mjs";
import { ensureTools } from "./graph-gold/tools.mjs";

const { flags, positionals } = parseArgs(process.argv.slice(2), ["help"]);
if (flags.help) {
  console.log("usage: node test/bench/artifact-bench.mjs [CORPUS_DIR] [--runs N] [--name NAME]");
  process.exit(0);
}
const RUNS = Number(flags.runs ?? 5);
ensureBuilt();
if (!hasGnuTime) console.error("note: GNU time not found (apt-get install -y time): no CPU seconds");

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-artifact-bench-"));
process.on("exit", () => fs.rmSync(scratch, { recursive: true, force: true }));
let corpus, corpusName, corpusVersion;
if (positionals[0]) {
  const given = path.resolve(positionals[0]);
  corpusName = flags.name ?? path.basename(given);
  corpus = path.join(scratch, "origin");
  fs.cpSync(given, corpus, { recursive: true, filter: (src) => path.basename(src) !== ".codeslice" });
} else {
  corpusName = flags.name ?? "django";
  ({ corpus, version: corpusVersion } = prepareDjango(path.join(scratch, "origin")));
}

const artifact = path.join(scratch, `${corpusName}.csidx`);
const scip = path.join(scratch, `${corpusName}.scip`);
let copies = 0;
/** A fresh copy of the corpus under a new absolute path, without a cache. */
const freshCopy = () => {
  const to = path.join(scratch, `copy-${copies++}`);
  fs.cpSync(corpus, to, { recursive: true, filter: (src) => path.basename(src) !== ".codeslice" });
  return to;
};
const du = (p) => Number(execFileSync("du", ["-sb", p], { encoding: "utf8" }).split(/\s/)[0]);

const first = JSON.parse((await runCli(["index", "--root", corpus, "--json", "--quiet"])).stdout);
console.error(`${corpusName}: ${first.files} files, ${first.sourceFiles} source files, ${first.symbols} symbols`);

const columns = { unchanged: [], export: [], cold: [], import: [], scip: [] };
for (let i = 0; i < RUNS; i++) {
  columns.unchanged.push(await runCli(["index", "--root", corpus, "--quiet"]));
  columns.export.push(await runCli(["index", "--root", corpus, "--export", artifact, "--quiet"]));
  const coldRoot = freshCopy();
  columns.cold.push(await runCli(["index", "--root", coldRoot, "--quiet"]));
  fs.rmSync(coldRoot, { recursive: true, force: true });
  const importRoot = freshCopy();
  const imported = await runCli(["index", "--root", importRoot, "--import", artifact, "--json", "--quiet"]);
  const summary = JSON.parse(imported.stdout);
  if (summary.parsed !== 0) throw new Error(`the import parsed ${summary.parsed} files`);
  columns.import.push(imported);
  if (i === 0) {
    const same =
      (await runCli(["graph", "--root", importRoot, "--json", "--quiet"], { measureRss: false })).stdout ===
      (await runCli(["graph", "--root", corpus, "--json", "--quiet"], { measureRss: false })).stdout;
    if (!same) throw new Error("graph --json of the imported copy differs from the original's");
    console.error("graph --json of the imported copy equals the original's");
  }
  fs.rmSync(importRoot, { recursive: true, force: true });
  columns.scip.push(await runCli(["scip", "--root", corpus, "--out", scip, "--quiet"]));
  console.error(`run ${i + 1}/${RUNS} done`);
}

const scipCounts = JSON.parse(
  (await runCli(["scip", "--root", corpus, "--out", scip, "--json", "--quiet"], { measureRss: false })).stdout,
);
// A second reader: protobufjs over the public scip.proto field numbers (graph-gold's reader, from
// the bench tools cache), which must see the documents and occurrences the CLI says it wrote.
try {
  ensureTools();
  const decoded = readScip(scip);
  const occurrences = decoded.documents.flatMap((d) => d.occurrences);
  const seen = {
    documents: decoded.documents.length,
    definitions: occurrences.filter((o) => o.roles & 1).length,
    references: occurrences.filter((o) => !(o.roles & 1)).length,
  };
  for (const k of Object.keys(seen))
    if (seen[k] !== scipCounts[k]) throw new Error(`protobufjs reads ${seen[k]} ${k}, the CLI says ${scipCounts[k]}`);
  scipCounts.checkedWith = "protobufjs (test/bench/graph-gold/scip.mjs)";
  console.error(
    `protobufjs decodes the SCIP index: ${seen.documents} documents, ${seen.definitions} definitions, ${seen.references} references`,
  );
} catch (error) {
  if (/protobufjs reads/.test(String(error))) throw error;
  console.error(`note: SCIP not cross-checked with protobufjs (${String(error).split("\n")[0]})`);
}
const sizes = {
  artifact_bytes: fs.statSync(artifact).size,
  cache_bytes: du(path.join(corpus, ".codeslice")),
  scip_bytes: fs.statSync(scip).size,
};
const summarize = (runs) => ({
  wall: stats(runs.map((r) => r.wall)),
  cpu: hasGnuTime ? stats(runs.map((r) => r.cpu)) : null,
  rss_mb: stats(runs.map((r) => r.rssMb ?? NaN)),
});
const results = Object.fromEntries(Object.entries(columns).map(([k, v]) => [k, summarize(v)]));
const label = {
  unchanged: "index, unchanged (baseline)",
  export: "index --export",
  cold: "index, cold (fresh copy)",
  import: "index --import (fresh copy, 0 parsed)",
  scip: "scip --out",
};
const cell = (s) => (s ? `${fmt(s.median, 2)} (${fmt(s.min, 2)}–${fmt(s.max, 2)})` : "–");
const rows = Object.keys(columns).map((k) => [
  label[k],
  cell(results[k].cpu),
  cell(results[k].wall),
  fmt(results[k].rss_mb.median, 0),
]);
const mb = (b) => `${(b / 1048576).toFixed(1)} MB`;
console.log(
  `\n${corpusName}${corpusVersion ? ` ${corpusVersion}` : ""}: ${first.sourceFiles} source files, ${first.symbols} symbols; ${RUNS} runs, medians (min–max)\n`,
);
console.log(mdTable(["command", "CPU s", "wall s", "peak RSS MB"], rows));
console.log(
  `\nartifact ${mb(sizes.artifact_bytes)} (${first.sourceFiles} files); cache folder ${mb(sizes.cache_bytes)}; SCIP ${mb(sizes.scip_bytes)}: ${scipCounts.documents} documents, ${scipCounts.definitions} definitions, ${scipCounts.references} references, ${scipCounts.relationships} relationships`,
);
const out = path.join(resultsDir, `artifact-${corpusName}.json`);
writeJson(out, {
  corpus: corpusName,
  version: corpusVersion ?? null,
  codeslice: codesliceRevision(),
  machine: machine(),
  runs: RUNS,
  index: {
    files: first.files,
    sourceFiles: first.sourceFiles,
    symbols: first.symbols,
    scanMode: first.scanMode,
    byLanguage: first.byLanguage,
    skippedByReason: first.skippedByReason,
  },
  sizes,
  scip: scipCounts,
  results,
});
console.error(`wrote ${path.relative(process.cwd(), out)}`);
