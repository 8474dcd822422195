#!/usr/bin/env node
// How much of its budget `context` uses. For each corpus, two target sets: its largest classes
// (where an outline that does not fit used to drop to a fixed brief and leave the budget empty) and
// a deterministic spread of its functions, methods and classes. For each target and budget: the
// tokens used / budget (mean), the answers under 80% full that left something out (the budget could
// have held more), the seed's tokens, the chunks shown. In-process through the library, one engine
// per corpus, the index kept under --cache.
//
//   node test/bench/context-fill-bench.mjs --corpus /work/corpora/django --cache DIR
//        [--budgets 1000,2000,4000,8000] [--big 30] [--spread 30] [--json FILE] [--build CHECKOUT]
//
// Run `node scripts/build.mjs` first.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const { values } = parseArgs({
  options: {
    corpus: { type: "string", multiple: true },
    cache: { type: "string" },
    budgets: { type: "string", default: "1000,2000,4000,8000" },
    big: { type: "string", default: "30" },
    spread: { type: "string", default: "30" },
    json: { type: "string" },
    build: { type: "string" },
  },
});
if (!values.corpus?.length || !values.cache) {
  console.error("usage: context-fill-bench.mjs --corpus DIR [--corpus DIR] --cache DIR [--budgets …]");
  process.exit(2);
}
const budgets = values.budgets.split(",").map(Number);
// --build: another checkout's build (an A/B base), its index kept apart from this one's.
const build = values.build ? path.resolve(values.build) : root;
const { createEngine } = await import(path.join(build, "dist/core/engine/engine.js"));
const { createNodePlatform } = await import(path.join(build, "dist/platform/node/index.js"));

const CLASS_KINDS = new Set(["class", "interface", "struct", "trait", "enum"]);
/** Every `n`-th of `items` so that about `want` are taken. */
function spread(items, want) {
  const step = Math.max(1, items.length / want);
  const out = [];
  for (let i = 0; i < items.length && out.length < want; i += step) out.push(items[Math.floor(i)]);
  return out;
}
const isTest = (p) => /(^|\/)(tests?|__tests__|testing)(\/|$)|\.test\.|_test\.|(^|\/)test_/.test(p);

const rows = [];
for (const corpus of values.corpus) {
  const name = path.basename(corpus);
  const platform = await createNodePlatform({ root: corpus, cacheDir: path.join(values.cache, name) });
  const engine = createEngine(platform, { quiet: true });
  await engine.index();
  const graph = await engine.codeGraph();
  const unique = graph.symbols.filter((s) => graph.byQualified.get(s.qualified) === s.id && !isTest(s.file));
  const big = unique
    .filter((s) => CLASS_KINDS.has(s.kind))
    .sort((a, b) => b.end - b.start - (a.end - a.start) || a.qualified.localeCompare(b.qualified))
    .slice(0, Number(values.big));
  const others = spread(
    unique
      .filter((s) => ["function", "method", "class"].includes(s.kind) && !big.includes(s))
      .map((s) => s)
      .sort((a, b) => a.qualified.localeCompare(b.qualified)),
    Number(values.spread),
  );
  for (const [set, targets] of [
    ["big", big],
    ["spread", others],
  ]) {
    for (const s of targets) {
      for (const budget of budgets) {
        let a;
        try {
          a = await engine.context(s.qualified, { budget });
        } catch (e) {
          rows.push({ corpus: name, set, target: s.qualified, budget, error: e.code ?? String(e) });
          continue;
        }
        const seed = a.chunks.find((c) => c.role === "seed");
        rows.push({
          corpus: name,
          set,
          target: s.qualified,
          budget,
          tokens: a.usage.tokens,
          fill: a.usage.tokens / budget,
          cut: a.cut.length,
          whole: a.chunks.filter((c) => c.form === "full").length,
          outlines: a.chunks.filter((c) => c.form === "outline").length,
          seedForm: seed?.form,
          seedTokens: seed?.tokens,
        });
      }
    }
  }
  await engine.close?.();
}

const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
console.log(
  "| corpus | set | budget | answers | errors | mean fill | < 80% | < 80% with cuts | chunks whole + outline | seed tokens |",
);
console.log("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
for (const corpus of [...new Set(rows.map((r) => r.corpus))])
  for (const set of ["big", "spread"])
    for (const budget of budgets) {
      const all = rows.filter((r) => r.corpus === corpus && r.set === set && r.budget === budget);
      const ok = all.filter((r) => !r.error);
      console.log(
        `| ${corpus} | ${set} | ${budget} | ${ok.length} | ${all.length - ok.length} | ` +
          `${(100 * mean(ok.map((r) => r.fill))).toFixed(1)}% | ${ok.filter((r) => r.fill < 0.8).length} | ${ok.filter((r) => r.fill < 0.8 && r.cut > 0).length} | ` +
          `${mean(ok.map((r) => r.whole)).toFixed(2)} + ${mean(ok.map((r) => r.outlines)).toFixed(2)} | ` +
          `${Math.round(mean(ok.map((r) => r.seedTokens)))} |`,
      );
    }
if (values.json) fs.writeFileSync(values.json, JSON.stringify(rows, null, 1));
