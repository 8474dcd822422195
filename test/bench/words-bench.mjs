#!/usr/bin/env node
// Words benchmark: how fast `context "<a task in words>"` answers from a warm index.
//
// The engine runs in this process as a long-lived host does (the MCP server, the playground):
// `createEngine(createNodePlatform(...), { watch: true })` over an index already on disk. The tasks
// are the first sentences of the project's own docstrings, spread evenly over its functions and
// classes (behaviour described in words, the way a report describes it), at budget 8,000:
//   * first answer  engine creation → first words answer (snapshot, graph, the word index)
//   * per task      refresh() + context(words), `--runs` times each: p50, p95, max in ms
//
// Rerun:
//   node scripts/build.mjs && npm run bench -- words                 # Debian's python3-django
//   npm run bench -- words /path/to/repo --runs 3 --sample 40 [--name NAME]
// Output: a markdown table on stdout and test/bench/results/words-<corpus>.json.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import {
  codesliceRevision,
  ensureBuilt,
  fmt,
  machine,
  mdTable,
  packageRoot,
  parseArgs,
  benchCorpus,
  resultsDir,
  runCli,
  writeJson,
} from "./lib/bench-utils.mjs";

const BAR_MS = 150; // the task-in-words issue: p50 ≤ 150 ms warm on django
const { flags, positionals } = parseArgs(process.argv.slice(2), ["help"]);
if (flags.help) {
  console.log("usage: node test/bench/words-bench.mjs [CORPUS_DIR] [--runs N] [--sample K] [--name NAME]");
  process.exit(0);
}
const RUNS = Number(flags.runs ?? 3);
const SAMPLE = Number(flags.sample ?? 40);
ensureBuilt();
const { createEngine } = await import(pathToFileURL(path.join(packageRoot, "dist/index.js")).href);
const { createNodePlatform } = await import(pathToFileURL(path.join(packageRoot, "dist/platform/node/index.js")).href);

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-words-bench-"));
const { corpus, corpusName } = benchCorpus(positionals, flags, scratch);
const cacheDir = path.join(scratch, "cache");
const percentile = (values, p) => {
  const v = [...values].sort((a, b) => a - b);
  return v[Math.min(v.length - 1, Math.ceil((p / 100) * v.length) - 1)];
};

try {
  const indexRun = await runCli(["index", "--root", corpus, "--cache-dir", cacheDir, "--json", "--quiet"]);
  process.stderr.write(`indexed ${JSON.parse(indexRun.stdout).sourceFiles} source files in ${fmt(indexRun.wall)} s\n`);

  // The tasks: first sentences of docstrings (6–30 words, no test code), evenly spread.
  const picker = createEngine(await createNodePlatform({ root: corpus, cacheDir }));
  const records = await picker.records();
  picker.close();
  const sentences = [];
  for (const r of records.sort((a, b) => (a.path < b.path ? -1 : 1))) {
    if (/(^|\/)tests?\//.test(r.path)) continue;
    for (const d of r.definitions) {
      const first = d.doc
        ?.split(/(?<=\.)\s|\n\n/)[0]
        ?.replace(/\s+/g, " ")
        .trim();
      const words = first?.split(" ").length ?? 0;
      if (first && words >= 6 && words <= 30) sentences.push(first);
    }
  }
  const tasks =
    sentences.length <= SAMPLE
      ? sentences
      : Array.from({ length: SAMPLE }, (_, i) => sentences[Math.floor((i * sentences.length) / SAMPLE)]);

  const engine = createEngine(await createNodePlatform({ root: corpus, cacheDir }), { watch: true });
  let t0 = performance.now();
  await engine.refresh();
  await engine.context(tasks[0], { budget: 8000 });
  const firstMs = performance.now() - t0;
  const ms = [];
  for (let run = 0; run < RUNS; run++) {
    for (const task of tasks) {
      t0 = performance.now();
      await engine.refresh();
      await engine.context(task, { budget: 8000 }).catch((e) => {
        if (e.code !== "no_match") throw e;
      });
      ms.push(performance.now() - t0);
    }
  }
  engine.close();
  const row = { n: ms.length, p50: percentile(ms, 50), p95: percentile(ms, 95), max: Math.max(...ms) };
  const result = {
    corpus: corpusName,
    revision: codesliceRevision(),
    machine: machine(),
    tasks: tasks.length,
    runs: RUNS,
    firstAnswerMs: firstMs,
    perTask: row,
    barMs: BAR_MS,
  };
  writeJson(path.join(resultsDir, `words-${corpusName}.json`), result);
  console.log(`${corpusName}: ${tasks.length} tasks × ${RUNS} runs, budget 8000\n`);
  console.log(
    mdTable(
      ["first answer ms", "p50 ms", "p95 ms", "max ms", `p50 ≤ ${BAR_MS} ms`],
      [[fmt(firstMs, 0), fmt(row.p50, 0), fmt(row.p95, 0), fmt(row.max, 0), row.p50 <= BAR_MS ? "yes" : "no"]],
    ),
  );
} finally {
  fs.rmSync(scratch, { recursive: true, force: true });
}
