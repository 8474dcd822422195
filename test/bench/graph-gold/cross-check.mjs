#!/usr/bin/env node
// Cross-check of the project's accuracy benchmark against the reference harness
// (../shared/tools/graph-gold): same corpora, same gold, same scores?
//
// For each corpus, after `npm run bench -- graph` has left its gold and codeslice graphs in
// ~/.cache/codeslice-bench/gold/, and given a finished reference run (its folder holding
// score.mjs, gold-out/<c>.gold.json, gold-out/<c>.scip and corpora-out/<c>):
//   corpus   the git tree of our corpus equals the reference corpus' tree
//   derive   our derive.mjs on the reference's own .scip file gives exactly the reference gold
//            (every field of every definition, edge, inherit and unresolvable site)
//   gold     our gold (from our own indexer run) vs the reference gold, on the scored keys
//   scorer   our score.mjs and the reference score.mjs on the same gold + candidate
//   end2end  our gold + our scorer vs the reference gold + the reference scorer, on the codeslice graph
// Scores must agree to the 3rd decimal; counts (tp/fp/fn) exactly.
//
// Rerun: node test/bench/graph-gold/cross-check.mjs --reference /work/gold [--only rxjs] [--corpora DIR]
// (a reference run: g=$(mktemp -d) && cp -r ../shared/tools/graph-gold/. $g && cd $g && npm install &&
//  bash setup_corpora.sh $g/corpora-out && bash run_all.sh $g/corpora-out $g/gold-out)
// Output: a markdown table and test/bench/results/graph-accuracy-cross-check.json.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { benchCache, mdTable, parseArgs, resultsDir, writeJson } from "../lib/bench-utils.mjs";
import { CORPORA, corpusTree } from "./corpora.mjs";
import { deriveGold } from "./derive.mjs";
import { readScip } from "./scip.mjs";
import { scoreGraph } from "./score.mjs";
import { ensureTools } from "./tools.mjs";

const { flags } = parseArgs(process.argv.slice(2));
if (!flags.reference) {
  console.error(
    "usage: node test/bench/graph-gold/cross-check.mjs --reference <reference-run-dir> [--only a,b] [--corpora DIR]",
  );
  process.exit(2);
}
const ref = path.resolve(flags.reference);
const refGold = path.join(ref, "gold-out"),
  refCorpora = path.join(ref, "corpora-out");
const ourCorpora = path.resolve(flags.corpora ?? path.join(benchCache, "corpora"));
const ourGold = path.join(benchCache, "gold");
const only = flags.only ? String(flags.only).split(",") : null;
ensureTools();
const readJson = (f) => JSON.parse(fs.readFileSync(f, "utf8"));

// every field the reference writes, so "derive" compares the whole gold, not only what is scored
const FULL = {
  definitions: (d) =>
    [
      d.file,
      d.name,
      d.qualified,
      d.kind,
      d.start_line,
      d.end_line,
      (d.overload_lines ?? []).join(","),
      d.first_line ?? "",
      d.symbol,
    ].join("|"),
  call_edges: (e) => [e.caller, e.callee, e.file, e.line, e.via, e.caller_kind, e.callee_kind].join("|"),
  import_edges: (e) => [e.from, e.to, e.line].join("|"),
  inherits: (e) => [e.child, e.base, e.kind, e.file, e.line].join("|"),
  unresolved_call_sites: (e) => [e.file, e.line, e.name, e.form, e.reason].join("|"),
};
// what the scorer reads
const SCORED = {
  definitions: (d) => [d.file, d.name, d.start_line, (d.overload_lines ?? []).join(",")].join("|"),
  call_edges: (e) => [e.caller, e.callee, e.file, e.line].join("|"),
  import_edges: (e) => [e.from, e.to].join("|"),
  inherits: (e) => [e.child, e.base, e.kind].join("|"),
  unresolved_call_sites: (e) => [e.file, e.line].join("|"),
};
/**
 * Our gold as the reference derives it: without the sites where scip-python names a corpus symbol it never defines
 * (reason `symbol_without_definition`, issue 24), which the reference counts as external calls, and without the
 * callee column our unresolved sites carry for the checker's adjudication.
 */
function asReference(gold) {
  const unresolved = gold.unresolved_call_sites
    .filter((u) => u.reason !== "symbol_without_definition")
    .map(({ col, ...u }) => u);
  return { ...gold, unresolved_call_sites: unresolved };
}
/** Number of entries (as multisets) only in a, only in b, per section. */
function diffGold(a, b, keyFns) {
  const out = {};
  for (const [section, key] of Object.entries(keyFns)) {
    const count = (list) => list.reduce((m, x) => m.set(key(x), (m.get(key(x)) ?? 0) + 1), new Map());
    const ca = count(a[section] ?? []),
      cb = count(b[section] ?? []);
    let onlyA = 0,
      onlyB = 0;
    for (const [k, n] of ca) onlyA += Math.max(0, n - (cb.get(k) ?? 0));
    for (const [k, n] of cb) onlyB += Math.max(0, n - (ca.get(k) ?? 0));
    if (onlyA || onlyB) out[section] = { ours_only: onlyA, reference_only: onlyB };
  }
  return out;
}
const METRICS = [
  "definitions",
  "call_edges_strict",
  "call_edges_loose",
  "import_edges",
  "inherits",
  "inherits_extends_only",
];
/** Largest |difference| over P/R/F1/prec_adj and whether tp/fp/fn are identical. */
function diffScores(a, b) {
  let maxDiff = 0;
  const countMismatches = [];
  for (const m of METRICS) {
    for (const f of ["precision", "recall", "f1", "precision_adjusted"]) {
      if (a[m][f] == null && b[m][f] == null) continue;
      maxDiff = Math.max(maxDiff, Math.abs((a[m][f] ?? NaN) - (b[m][f] ?? NaN)));
    }
    for (const f of ["tp", "fp", "fn", "fp_at_unresolvable_sites"])
      if (a[m][f] !== b[m][f]) countMismatches.push(`${m}.${f} ${a[m][f]} vs ${b[m][f]}`);
  }
  return {
    max_abs_diff: maxDiff,
    count_mismatches: countMismatches,
    agree_to_3_decimals: maxDiff < 0.0005 && countMismatches.length === 0,
  };
}
const referenceScore = (goldFile, candFile) =>
  JSON.parse(
    execFileSync(process.execPath, [path.join(ref, "score.mjs"), goldFile, candFile, "--json"], {
      encoding: "utf8",
      maxBuffer: 1 << 28,
    }),
  );

const rows = [],
  out = {};
for (const spec of CORPORA.filter((c) => !only || only.includes(c.name))) {
  const name = spec.name;
  const refGoldFile = path.join(refGold, `${name}.gold.json`),
    ourGoldFile = path.join(ourGold, `${name}.gold.json`);
  const candFile = path.join(ourGold, `${name}.codeslice.json`);
  if (!fs.existsSync(refGoldFile)) {
    console.error(`${name}: no reference gold at ${refGoldFile}; skipped`);
    continue;
  }
  if (!fs.existsSync(ourGoldFile) || !fs.existsSync(candFile)) {
    console.error(`${name}: run \`npm run bench -- graph\` first; skipped`);
    continue;
  }
  const reference = readJson(refGoldFile),
    ours = asReference(readJson(ourGoldFile));

  const treeOurs = corpusTree(path.join(ourCorpora, name)),
    treeRef = corpusTree(path.join(refCorpora, name));
  const derivedFromRefScip = asReference(
    deriveGold(readScip(path.join(refGold, `${name}.scip`)), path.join(refCorpora, name)),
  );
  const deriveDiff = diffGold(derivedFromRefScip, reference, FULL);
  const goldDiff = diffGold(ours, reference, SCORED);
  const scorer = diffScores(
    scoreGraph(readJson(ourGoldFile), readJson(candFile)).report,
    referenceScore(ourGoldFile, candFile),
  );
  const endToEnd = diffScores(scoreGraph(ours, readJson(candFile)).report, referenceScore(refGoldFile, candFile));
  out[name] = {
    corpus_tree: { ours: treeOurs, reference: treeRef, same: !!treeOurs && treeOurs === treeRef },
    derive_on_reference_scip: { identical: Object.keys(deriveDiff).length === 0, differences: deriveDiff },
    gold_from_our_indexer_run: { identical_on_scored_keys: Object.keys(goldDiff).length === 0, differences: goldDiff },
    scorer_same_inputs: scorer,
    end_to_end: endToEnd,
  };
  const yes = (b, detail) => (b ? "same" : `**differs** ${detail ?? ""}`.trim());
  rows.push([
    name,
    yes(out[name].corpus_tree.same),
    yes(out[name].derive_on_reference_scip.identical, JSON.stringify(deriveDiff)),
    yes(out[name].gold_from_our_indexer_run.identical_on_scored_keys, JSON.stringify(goldDiff)),
    `${yes(scorer.agree_to_3_decimals)} (max Δ ${scorer.max_abs_diff.toFixed(4)})`,
    `${yes(endToEnd.agree_to_3_decimals, endToEnd.count_mismatches.slice(0, 3).join("; "))} (max Δ ${endToEnd.max_abs_diff.toFixed(4)})`,
  ]);
}
writeJson(path.join(resultsDir, "graph-accuracy-cross-check.json"), {
  reference: ref,
  date: new Date().toISOString(),
  corpora: out,
});
console.log(`\n## Cross-check with the reference harness (${ref})\n`);
console.log(
  mdTable(
    [
      "corpus",
      "corpus tree",
      "derive on reference .scip",
      "gold (our indexer run)",
      "scorer, same inputs",
      "end to end",
    ],
    rows,
  ),
);
const allAgree = Object.values(out).every(
  (c) =>
    c.scorer_same_inputs.agree_to_3_decimals &&
    c.end_to_end.agree_to_3_decimals &&
    c.derive_on_reference_scip.identical,
);
console.log(`\n${allAgree ? "all scores agree to the 3rd decimal" : "DISAGREEMENT: see above"}`);
if (!allAgree) process.exitCode = 1;
