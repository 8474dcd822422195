// Precision / recall / F1 of a candidate code graph against a gold one; both `code-graph-gold/1`.
//
// Matching rules (the reference harness's, see README.md here):
//   definitions        one-to-one on (file, name) with start_line within ±1; an overload-stub line
//                      of the gold definition is accepted at lower priority; closest pairs first
//   call_edges_strict  set of (caller qualified, callee qualified), deduplicated over call sites
//   call_edges_loose   set of (file, call-site line, callee qualified); the caller is ignored
//   precision_adjusted precision leaving out candidate edges that sit only on call sites the
//                      checker could not resolve (`unresolved_call_sites`): neither right nor wrong
//   unjudged           (strict) those left-out pairs, counted apart and by why the gold cannot judge
//                      them: `no_occurrence` (no symbol at the callee token, or a computed callee),
//                      `local_variable` (the checker names a local or parameter: it does not follow what
//                      the variable holds), `no_definition` (the checker's symbol is one of the corpus's
//                      own that no document defines: scip-python's shadowed builtins and NamedTuple
//                      classes), or the gold's own reason (Ruby: `not executed`); a pair
//                      whose sites have several reasons counts under the first site's.
//                      precision_judged = tp / (candidate - unjudged), equal to precision_adjusted
//   import_edges       set of (from, to);  inherits: set of (child, base), also extends-only
//   import_edges_by_use  (Go gold only) the candidate's import edges against the by-use rule
//   recall_by_tag      (Go/Java gold) loose call-edge recall per tag of the gold edge
// Ratios are rounded to 4 decimals.
//
// CLI: node score.mjs <gold.json> <candidate.json>   (prints the report as JSON)
import fs from "node:fs";
import { pathToFileURL } from "node:url";

const list = (x) => (Array.isArray(x) ? x : []);
/** Why the gold cannot judge an edge at a site, from its `unresolved_call_sites` reason. */
const UNJUDGED = {
  no_symbol: "no_occurrence",
  callee_not_a_name: "no_occurrence",
  local_variable_or_parameter: "local_variable",
  symbol_without_definition: "no_definition",
};
const round = (x) => Math.round(x * 10000) / 10000;

export function prf(tp, candidate, gold) {
  const precision = candidate ? tp / candidate : gold ? 0 : 1; // nothing claimed, nothing to find: perfect
  const recall = gold ? tp / gold : 1;
  const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
  return {
    precision: round(precision),
    recall: round(recall),
    f1: round(f1),
    tp,
    fp: candidate - tp,
    fn: gold - tp,
    candidate,
    gold,
  };
}

function setScore(goldKeys, candKeys) {
  const gold = new Set(goldKeys),
    cand = new Set(candKeys);
  let tp = 0;
  for (const k of cand) if (gold.has(k)) tp++;
  return { res: prf(tp, cand.size, gold.size), gold, cand };
}

/** Key functions shared with the miss analysis. */
export const keys = {
  pair: (e) => `${e.caller} -> ${e.callee}`,
  site: (e) => `${e.file}:${e.line} -> ${e.callee}`,
  place: (e) => `${e.file}\u0000${e.line}`,
  import: (e) => `${e.from} -> ${e.to}`,
  inherit: (e) => `${e.child} -> ${e.base}`,
};

function scoreDefinitions(goldDefs, candDefs) {
  const group = (defs) => {
    const m = new Map();
    for (const d of defs) {
      const k = `${d.file}\u0000${d.name}`;
      if (!m.has(k)) m.set(k, []);
      m.get(k).push(d);
    }
    return m;
  };
  const goldBy = group(goldDefs);
  const matched = new Set();
  const unmatchedCandidates = [];
  let tp = 0,
    sameQualified = 0,
    sameKind = 0,
    sameEnd = 0;
  for (const [k, cands] of group(candDefs)) {
    const golds = goldBy.get(k) ?? [];
    const pairs = [];
    cands.forEach((c, ci) =>
      golds.forEach((g, gi) => {
        const main = Math.abs(g.start_line - c.start_line);
        const stub = Math.min(Infinity, ...list(g.overload_lines).map((l) => Math.abs(l - c.start_line)));
        const distance = main <= 1 ? main : stub <= 1 ? 2 + stub : Infinity;
        if (distance < Infinity) pairs.push({ ci, gi, distance });
      }),
    );
    pairs.sort((a, b) => a.distance - b.distance); // stable: ties keep candidate, then gold order
    const usedC = new Set(),
      usedG = new Set();
    for (const p of pairs) {
      if (usedC.has(p.ci) || usedG.has(p.gi)) continue;
      usedC.add(p.ci);
      usedG.add(p.gi);
      tp++;
      const c = cands[p.ci],
        g = golds[p.gi];
      matched.add(g);
      if (c.qualified === g.qualified) sameQualified++;
      if (c.kind === g.kind) sameKind++;
      if (c.end_line != null && Math.abs(c.end_line - g.end_line) <= 1) sameEnd++;
    }
    cands.forEach((c, ci) => {
      if (!usedC.has(ci)) unmatchedCandidates.push(c);
    });
  }
  const res = prf(tp, candDefs.length, goldDefs.length);
  res.matched_with_same_qualified = tp ? round(sameQualified / tp) : 0;
  res.matched_with_same_kind = tp ? round(sameKind / tp) : 0;
  res.matched_with_end_line_within_1 = tp ? round(sameEnd / tp) : 0;
  const byKind = new Map();
  for (const g of goldDefs) {
    const b = byKind.get(g.kind) ?? { gold: 0, found: 0 };
    b.gold++;
    if (matched.has(g)) b.found++;
    byKind.set(g.kind, b);
  }
  res.recall_by_gold_kind = Object.fromEntries(
    [...byKind].map(([k, v]) => [k, `${round(v.found / v.gold)} (${v.found}/${v.gold})`]),
  );
  return { res, missed: goldDefs.filter((g) => !matched.has(g)), extra: unmatchedCandidates };
}

/**
 * @returns {{ report: object, detail: object }} report: the metrics; detail: the unmatched items
 *   (definitions, loose call-edge sites, pairs) for the miss analysis.
 */
export function scoreGraph(gold, cand) {
  const report = {};
  const defs = scoreDefinitions(list(gold.definitions), list(cand.definitions));
  report.definitions = defs.res;

  const dontCare = new Set(list(gold.unresolved_call_sites).map(keys.place));
  const whyUnjudged = new Map(
    list(gold.unresolved_call_sites).map((u) => [keys.place(u), UNJUDGED[u.reason] ?? u.reason]),
  );
  const goldEdges = list(gold.call_edges),
    candEdges = list(cand.call_edges);

  const strict = setScore(goldEdges.map(keys.pair), candEdges.map(keys.pair));
  const sitesOfPair = new Map();
  for (const e of candEdges) {
    const k = keys.pair(e);
    if (!sitesOfPair.has(k)) sitesOfPair.set(k, []);
    sitesOfPair.get(k).push(keys.place(e));
  }
  let dontCarePairs = 0;
  const unjudged = {};
  const unjudgedPairs = []; // their keys, for the checker's adjudication (adjudicate.mjs)
  for (const [k, places] of sitesOfPair)
    if (!strict.gold.has(k) && places.every((p) => dontCare.has(p))) {
      dontCarePairs++;
      unjudgedPairs.push(k);
      const why = whyUnjudged.get(places[0]) ?? "?";
      unjudged[why] = (unjudged[why] ?? 0) + 1;
    }
  strict.res.precision_adjusted = round(strict.res.tp / Math.max(1, strict.res.candidate - dontCarePairs));
  strict.res.fp_at_unresolvable_sites = dontCarePairs;
  strict.res.precision_judged = strict.res.precision_adjusted;
  strict.res.unjudged = dontCarePairs;
  strict.res.unjudged_by_reason = unjudged;

  const loose = setScore(goldEdges.map(keys.site), candEdges.map(keys.site));
  const candBySite = new Map(candEdges.map((e) => [keys.site(e), e])); // last edge per key, as the reference
  let dontCareSites = 0;
  for (const [k, e] of candBySite) if (!loose.gold.has(k) && dontCare.has(keys.place(e))) dontCareSites++;
  loose.res.precision_adjusted = round(loose.res.tp / Math.max(1, loose.res.candidate - dontCareSites));
  loose.res.fp_at_unresolvable_sites = dontCareSites;
  const recallBy = (field) => {
    const b = new Map();
    const seen = new Set();
    for (const e of goldEdges) {
      const k = keys.site(e);
      if (seen.has(k)) continue;
      seen.add(k);
      const x = b.get(e[field]) ?? { gold: 0, found: 0 };
      x.gold++;
      if (loose.cand.has(k)) x.found++;
      b.set(e[field], x);
    }
    return Object.fromEntries([...b].map(([k, v]) => [k, `${round(v.found / v.gold)} (${v.found}/${v.gold})`]));
  };
  loose.res.recall_by_via = recallBy("via");
  loose.res.recall_by_caller_kind = recallBy("caller_kind");
  if (goldEdges.some((e) => Array.isArray(e.tags))) {
    // Go/Java gold: what makes each call hard
    const b = new Map();
    const seen = new Set();
    for (const e of goldEdges) {
      const k = keys.site(e);
      if (seen.has(k)) continue;
      seen.add(k);
      for (const t of e.tags?.length ? e.tags : ["(none)"]) {
        const x = b.get(t) ?? { gold: 0, found: 0 };
        x.gold++;
        if (loose.cand.has(k)) x.found++;
        b.set(t, x);
      }
    }
    loose.res.recall_by_tag = Object.fromEntries(
      [...b]
        .sort((x, y) => y[1].gold - x[1].gold)
        .map(([k, v]) => [k, `${round(v.found / v.gold)} (${v.found}/${v.gold})`]),
    );
  }
  report.call_edges_strict = strict.res;
  report.call_edges_loose = loose.res;

  const imports = setScore(list(gold.import_edges).map(keys.import), list(cand.import_edges).map(keys.import));
  report.import_edges = imports.res;
  // Go gold also gives the by-use rule (file -> files declaring what it uses through the import)
  if (Array.isArray(gold.import_edges_by_use))
    report.import_edges_by_use = setScore(
      gold.import_edges_by_use.map(keys.import),
      list(cand.import_edges).map(keys.import),
    ).res;
  const inherits = setScore(list(gold.inherits).map(keys.inherit), list(cand.inherits).map(keys.inherit));
  report.inherits = inherits.res;
  const extendsOnly = (e) => !e.kind || e.kind === "extends";
  report.inherits_extends_only = setScore(
    list(gold.inherits).filter(extendsOnly).map(keys.inherit),
    list(cand.inherits).filter(extendsOnly).map(keys.inherit),
  ).res;

  // unmatched loose sites: one representative edge per key (the first seen), for categorising
  const firstBy = (edges, key) => {
    const m = new Map();
    for (const e of edges) if (!m.has(key(e))) m.set(key(e), e);
    return m;
  };
  const goldSites = firstBy(goldEdges, keys.site),
    candSites = firstBy(candEdges, keys.site);
  const detail = {
    unjudged_pairs: unjudgedPairs,
    definitions_missed: defs.missed,
    definitions_extra: defs.extra,
    edges_missed: [...goldSites].filter(([k]) => !loose.cand.has(k)).map(([, e]) => e),
    edges_extra: [...candSites].filter(([k]) => !loose.gold.has(k)).map(([, e]) => e),
    pairs_missed: [...strict.gold].filter((k) => !strict.cand.has(k)),
    pairs_extra: [...strict.cand].filter((k) => !strict.gold.has(k)),
    imports_missed: [...imports.gold].filter((k) => !imports.cand.has(k)),
    imports_extra: [...imports.cand].filter((k) => !imports.gold.has(k)),
    inherits_missed: [...inherits.gold].filter((k) => !inherits.cand.has(k)),
    inherits_extra: [...inherits.cand].filter((k) => !inherits.gold.has(k)),
  };
  return { report, detail };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const [goldPath, candPath] = process.argv.slice(2);
  if (!goldPath || !candPath) {
    console.error("usage: node score.mjs <gold.json> <candidate.json>");
    process.exit(2);
  }
  const read = (f) => JSON.parse(fs.readFileSync(f, "utf8"));
  console.log(JSON.stringify(scoreGraph(read(goldPath), read(candPath)).report, null, 1));
}
