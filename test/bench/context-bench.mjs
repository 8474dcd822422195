#!/usr/bin/env node
// context() benchmarks (issue 4):
//  1. budget invariant: random (target, budget) pairs on the corpora; the rendered answer never
//     exceeds the budget (or the seed-alone case is reported as budget_too_small), and the
//     reported count equals a recount with the real tokenizer;
//  2. token savings: for symbols of each corpus, tokens of `signature` and of the `context` bundle
//     at budget 2000 vs the files a naive agent would open (the seed's file plus the files of its
//     callees and types), and whether the gold callers/callees are in the bundle or its cut list;
//  3. warm latency of context on django (in-process, p50/p95).
//
// usage: node test/bench/context-bench.mjs [--corpora DIR] [--gold DIR] [--django DIR] [--pairs N] [--symbols N] [--seed S]
//   --corpora: folder with requests, click, rich, rxjs, zod (see test/bench/graph-accuracy.mjs)
//   --gold:    folder with <corpus>.gold.json (graph-gold format) for the caller/callee check
//   --django:  a copy of Debian's python3-django as a git repository (see test/bench/index-bench.mjs)
// Run `node scripts/build.mjs` first. Results: test/bench/results/context.json.
import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { countTokens as countO200k } from "gpt-tokenizer/encoding/o200k_base";
import { countTokens as countCl100k } from "gpt-tokenizer/encoding/cl100k_base";

const here = fileURLToPath(new URL(".", import.meta.url));
const root = join(here, "..", "..");
const { createEngine } = await import(join(root, "dist/core/engine/engine.js"));
const { createNodePlatform } = await import(join(root, "dist/platform/node/index.js"));

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
const corpora = opt("corpora", "/work/gold/corpora-out");
const goldDir = opt("gold", "/work/gold/gold-out");
const django = opt("django", "/tmp/django-git");
const pairs = Number(opt("pairs", "1200"));
const symbolsPerCorpus = Number(opt("symbols", "20"));
let seed = Number(opt("seed", "42"));
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const pick = (list) => list[Math.floor(random() * list.length)];
const NAMES = ["requests", "click", "rich", "rxjs", "zod"].filter((c) => existsSync(join(corpora, c)));
if (NAMES.length === 0) {
  console.error(`No corpora in ${corpora}; build them with test/bench/graph-accuracy.mjs or pass --corpora.`);
  process.exit(1);
}

async function engineFor(dir, name) {
  const platform = await createNodePlatform({ root: dir, cacheDir: join(os.tmpdir(), "codeslice-bench-cache", name) });
  const engine = createEngine(platform);
  await engine.index();
  return engine;
}

const results = {
  machine: {
    cpus: `${os.cpus().length} × ${os.cpus()[0]?.model}`,
    memory: `${Math.round(os.totalmem() / 2 ** 30)} GiB`,
    node: process.version,
  },
  invariant: {},
  savings: [],
  latency: {},
};

// 1. Budget invariant.
{
  let runs = 0,
    violations = 0,
    mismatches = 0,
    tooSmall = 0,
    errors = 0;
  const perCorpus = Math.ceil(pairs / NAMES.length);
  for (const name of NAMES) {
    const engine = await engineFor(join(corpora, name), name);
    const graph = await engine.codeGraph();
    const defs = graph.symbols.filter((s) => s.kind !== "module");
    const files = [...graph.moduleSymbol.keys()];
    for (let i = 0; i < perCorpus; i++) {
      const r = random();
      const s = pick(defs);
      const target =
        r < 0.6
          ? s.qualified
          : r < 0.75
            ? files[Math.floor(random() * files.length)]
            : r < 0.9
              ? `${s.file}::${s.qualified.split(/[#]/).pop().split(".").slice(-2).join(".")}`
              : s.name.replace(/_/g, " ");
      const budget = Math.floor(10 + random() ** 2 * 12000);
      const encoding = random() < 0.8 ? "o200k_base" : "cl100k_base";
      runs++;
      try {
        const a = await engine.context(target, { budget, encoding });
        const recount = (encoding === "o200k_base" ? countO200k : countCl100k)(a.text);
        if (recount > budget) violations++;
        if (recount !== a.usage.tokens) mismatches++;
      } catch (e) {
        if (e?.code === "budget_too_small") tooSmall++;
        else if (e?.code === "ambiguous_symbol" || e?.code === "unknown_symbol") errors++;
        else throw e;
      }
    }
  }
  results.invariant = {
    runs,
    violations,
    countMismatches: mismatches,
    budgetTooSmall: tooSmall,
    ambiguousOrUnknown: errors,
  };
  console.log("\n## Budget invariant");
  console.log(
    `| runs | over budget | reported ≠ recount | budget_too_small (seed alone too big) | ambiguous/unknown target |`,
  );
  console.log(`|---|---|---|---|---|`);
  console.log(`| ${runs} | ${violations} | ${mismatches} | ${tooSmall} | ${errors} |`);
}

// 2. Token savings.
{
  const rows = [];
  const missing = { graph: [], planned: [] };
  for (const name of NAMES) {
    const dir = join(corpora, name);
    const engine = await engineFor(dir, name);
    const graph = await engine.codeGraph();
    const goldPath = join(goldDir, `${name}.gold.json`);
    const gold = existsSync(goldPath) ? JSON.parse(readFileSync(goldPath, "utf8")) : undefined;
    const goldCallers = new Map(),
      goldCallees = new Map();
    for (const e of gold?.call_edges ?? []) {
      (goldCallers.get(e.callee) ?? goldCallers.set(e.callee, new Set()).get(e.callee)).add(e.caller);
      (goldCallees.get(e.caller) ?? goldCallees.set(e.caller, new Set()).get(e.caller)).add(e.callee);
    }
    // Symbols with both callers and callees in the gold, deterministic sample.
    const candidates = graph.symbols
      .filter(
        (s) =>
          (s.kind === "function" || s.kind === "method") &&
          (goldCallers.get(s.qualified)?.size ?? 0) > 0 &&
          (goldCallees.get(s.qualified)?.size ?? 0) > 0,
      )
      .sort((a, b) => (a.qualified < b.qualified ? -1 : 1));
    const sample = [];
    for (let i = 0; i < symbolsPerCorpus && candidates.length; i++)
      sample.push(candidates.splice(Math.floor(random() * candidates.length), 1)[0]);
    for (const s of sample) {
      const sig = await engine.signature(s.qualified);
      const sigTokens = countO200k(
        `## ${sig.symbol.path}:${sig.symbol.line}-${sig.symbol.end} ${sig.symbol.qualified}\n${sig.text}`,
      );
      const a = await engine.context(s.qualified, { budget: 2000 });
      // What a naive agent opens: the seed's file and the files of its callees and types.
      const files = new Set([s.file]);
      for (const ei of graph.callsFrom.get(s.id) ?? []) files.add(graph.symbols[graph.calls[ei].callee].file);
      for (const t of graph.typeUses.get(s.id) ?? []) files.add(graph.symbols[t].file);
      let naive = 0;
      for (const f of files) naive += countO200k(readFileSync(join(dir, f), "utf8"));
      const present = new Set([...a.chunks.map((c) => c.symbol), ...a.cut.map((c) => c.symbol)]);
      // A symbol inside a chunk shown in full counts as present (e.g. a method of a class chunk).
      const covers = (q) => present.has(q) || a.chunks.some((c) => c.form === "full" && q.startsWith(`${c.symbol}.`));
      const wanted = [...(goldCallers.get(s.qualified) ?? []), ...(goldCallees.get(s.qualified) ?? [])].filter(
        (q) => q !== s.qualified,
      );
      const found = wanted.filter(covers).length;
      // Why the others are missing: the graph lacks the edge, or the plan left it out.
      // Every caller and callee, tests included: one page as large as the engine gives.
      const all = { tests: "include", limit: 1000, budget: 1_000_000 };
      const inGraph = new Set(
        [...(await engine.callers(s.qualified, all)).results, ...(await engine.callees(s.qualified, all)).results].map(
          (r) => r.qualified,
        ),
      );
      for (const q of wanted)
        if (!covers(q)) (inGraph.has(q) ? missing.planned : missing.graph).push(`${s.qualified} ↔ ${q}`);
      rows.push({
        corpus: name,
        symbol: s.qualified,
        signature: sigTokens,
        context: a.usage.tokens,
        naive,
        saved: 1 - a.usage.tokens / naive,
        goldNeighbours: wanted.length,
        found,
      });
    }
  }
  rows.sort((a, b) => a.saved - b.saved);
  const median = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };
  const recallPerSymbol = rows.filter((r) => r.goldNeighbours > 0).map((r) => r.found / r.goldNeighbours);
  results.savings = rows;
  results.savingsSummary = {
    symbols: rows.length,
    medianSaved: median(rows.map((r) => r.saved)),
    goldNeighboursPresent:
      rows.reduce((a, r) => a + r.found, 0) /
      Math.max(
        1,
        rows.reduce((a, r) => a + r.goldNeighbours, 0),
      ),
    symbolsWithAllNeighbours: recallPerSymbol.filter((x) => x === 1).length,
    symbolsWith90pct: recallPerSymbol.filter((x) => x >= 0.9).length,
  };
  console.log("\n## Token savings (context at budget 2000 vs the files a naive agent opens)");
  console.log(
    "| symbol | signature tokens | context tokens | naive tokens | saved | gold callers+callees in bundle or cut list |",
  );
  console.log("|---|---|---|---|---|---|");
  for (const r of rows)
    console.log(
      `| ${r.symbol} | ${r.signature} | ${r.context} | ${r.naive} | ${(r.saved * 100).toFixed(0)}% | ${r.found}/${r.goldNeighbours} |`,
    );
  const sm = results.savingsSummary;
  results.savingsMissing = {
    notInGraph: missing.graph.length,
    inGraphButNotPlanned: missing.planned.length,
    examples: [...missing.graph.slice(0, 5), ...missing.planned.slice(0, 5)],
  };
  console.log(
    `\nneighbours missing: ${missing.graph.length} not found by the graph (call-edge recall), ${missing.planned.length} in the graph but left out of the plan`,
  );
  for (const m of missing.planned.slice(0, 8)) console.log(`  planned-out: ${m}`);
  console.log(
    `\nmedian saved: ${(sm.medianSaved * 100).toFixed(1)}% over ${sm.symbols} symbols; gold neighbours present: ${(sm.goldNeighboursPresent * 100).toFixed(1)}% of edges; symbols with ≥90% present: ${sm.symbolsWith90pct}/${sm.symbols}`,
  );
}

// 3. Warm latency on django.
if (existsSync(django)) {
  const engine = await engineFor(django, "django");
  const graph = await engine.codeGraph();
  const defs = graph.symbols.filter((s) => s.kind === "method" || s.kind === "function" || s.kind === "class");
  await engine.context(defs[0].qualified, { budget: 8000 }); // warm the search index and tokenizer
  const times = [];
  for (let i = 0; i < 200; i++) {
    const s = pick(defs);
    const t = performance.now();
    try {
      await engine.context(s.qualified, { budget: pick([2000, 4000, 8000]) });
    } catch (e) {
      if (e?.code !== "ambiguous_symbol" && e?.code !== "budget_too_small") throw e;
    }
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  results.latency = {
    runs: times.length,
    p50: times[Math.floor(times.length * 0.5)],
    p95: times[Math.floor(times.length * 0.95)],
    max: times.at(-1),
  };
  console.log("\n## Warm context latency on django (in-process, random symbols, budgets 2k-8k)");
  console.log(
    `p50 ${results.latency.p50.toFixed(1)} ms, p95 ${results.latency.p95.toFixed(1)} ms, max ${results.latency.max.toFixed(1)} ms over ${times.length} calls`,
  );
} else console.log(`\n(django latency skipped: ${django} missing; see test/bench/index-bench.mjs)`);

console.log(`\nmachine: ${results.machine.cpus}, ${results.machine.memory}, node ${results.machine.node}`);
mkdirSync(join(here, "results"), { recursive: true });
writeFileSync(join(here, "results", "context.json"), JSON.stringify(results, null, 2));
