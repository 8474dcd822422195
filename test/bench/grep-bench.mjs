#!/usr/bin/env node
// grep's latency from a warm engine (index built, files in the OS cache): the median of several
// runs per pattern, in-process through the library, with the machine's load printed beside it.
//
//   node test/bench/grep-bench.mjs [--root DIR] [--runs 7]
//
// Default root: $CODESLICE_CORPORA/text/django (a copy of Debian's python3-django, committed; see
// docs/benchmarks.md's corpora). The cache goes to <corpora>/text/.cache/grep-<name>.
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const corpora = path.join(process.env.CODESLICE_CORPORA ?? path.resolve(root, "../corpora"), "text");
const { values } = parseArgs({
  options: { root: { type: "string", default: path.join(corpora, "django") }, runs: { type: "string", default: "7" } },
});
const { createEngine } = await import(path.join(root, "dist/core/engine/engine.js"));
const { createNodePlatform } = await import(path.join(root, "dist/platform/node/index.js"));
const engine = createEngine(
  await createNodePlatform({
    root: values.root,
    cacheDir: path.join(corpora, ".cache", `grep-${path.basename(values.root)}`),
  }),
  { quiet: true },
);
const summary = await engine.index();
await engine.codeGraph();
const patterns = [
  ["a literal", "QuerySet"],
  ["an alternation", "TODO|FIXME|XXX"],
  ["a class of words", "def \\w+_handler\\("],
  ["catastrophic on backtrackers", "(a+)+$"],
  ["a literal, one folder", "QuerySet", { paths: ["django/db/"] }],
];
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
console.log(
  `${values.root}: ${summary.files} files (${summary.sourceFiles} source); ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)}`,
);
console.log("| pattern | hits | files searched | stopped | ms p50 |");
console.log("| --- | ---: | ---: | --- | ---: |");
for (const [what, pattern, opts = {}] of patterns) {
  const times = [];
  let a;
  for (let i = 0; i < Number(values.runs); i++) {
    const t0 = performance.now();
    a = await engine.grep(pattern, opts);
    times.push(performance.now() - t0);
  }
  console.log(
    `| ${what} \`${pattern}\`${opts.paths ? ` in ${opts.paths}` : ""} | ${a.hits.length} | ${a.files} | ${a.stopped ?? "-"} | ${median(times).toFixed(0)} |`,
  );
}
engine.close();
