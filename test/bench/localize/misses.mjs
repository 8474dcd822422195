#!/usr/bin/env node
// Miss analysis of a localize run (run.mjs): for each gold function the grep-window baseline shows
// and codeslice does not, what in the query matched it (its name, path, signature, docstring, or only
// words in its body: identifiers, comments, string literals), where codeslice's seeds went instead
// (tests, the same file, a same-named symbol elsewhere), how much budget was left, and where
// codeslice's own search ranked the function. Then what-if rankings of all functions (BM25 over
// name/path/signature/docstring vs. over the whole function text) to see which signals generalise.
//
// usage: node test/bench/localize/misses.mjs [--results FILE] [--collect-search] [--out FILE]
//   --results FILE     raw results of run.mjs (default: the newest <corpora>/localize/results/results-*.json)
//   --collect-search   first run `codeslice search <query> --limit 200` on every case's parent commit
//                      (a separate clone under <corpora>/localize/work-search) and store it next to
//                      the results as search-<results date>.json; used when present
//   --out FILE         aggregate figures (default test/bench/results/localize-misses.json); examples
//                      with commit messages go to <corpora>/localize/results/misses-<date>.md
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { codesliceRevision, ensureBuilt, parseArgs, resultsDir, writeJson } from "../lib/bench-utils.mjs";
import * as utils from "../lib/bench-utils.mjs";
import {
  CLASS_NAMES,
  CODE,
  COMMENT,
  DOC,
  STRING,
  die,
  importTool,
  lineRuns,
  localizeDir,
  prepareFile,
  prepareTool,
  rawDir,
  readTree,
} from "./lib.mjs";

const { flags } = parseArgs(process.argv.slice(2), ["collect-search"]);
const tool = prepareTool();
const { tokenize, STOP, isIndexable, isTest } = await importTool(tool, "common.mjs");
const { defsOfTs } = await importTool(tool, "tsdefs.mjs");
const { countTokens } = createRequire(path.join(tool.dir, "package.json"))("gpt-tokenizer/encoding/o200k_base");

const resultsFile = flags.results
  ? path.resolve(flags.results)
  : (() => {
      const f = fs
        .readdirSync(rawDir())
        .filter((x) => /^results-[\d-]+\.json$/.test(x))
        .sort()
        .pop();
      return f && path.join(rawDir(), f);
    })();
if (!resultsFile || !fs.existsSync(resultsFile))
  die(`no results file (run test/bench/localize/run.mjs first, or pass --results)`);
const res = JSON.parse(fs.readFileSync(resultsFile, "utf8"));
const casesDoc = JSON.parse(fs.readFileSync(path.resolve(path.dirname(resultsFile), res.meta.cases_file), "utf8"));
const cases = casesDoc.cases.filter((c) => res.rows.some((r) => r.id === c.id));
const repoDir = (name) => path.join(localizeDir(), name);
const BUDGETS = res.meta.budgets,
  VARIANTS = res.meta.variants;
const qOf = (c, v) => (v === "masked" ? c.query_masked : c.query);
const searchFile = path.join(
  path.dirname(resultsFile),
  `search-${path.basename(resultsFile).replace(/^results-/, "")}`,
);

// ---------------------------------------------------------------- 0. codeslice search ranks (optional)

if (flags["collect-search"]) {
  ensureBuilt();
  const cli = utils.cliPath;
  const work = path.join(localizeDir(), "work-search");
  const out = [];
  for (const repo of [...new Set(cases.map((c) => c.repo))]) {
    const tree = path.join(work, "trees", repo),
      cache = path.join(work, "cache", repo);
    if (!fs.existsSync(path.join(tree, ".git"))) {
      fs.mkdirSync(path.dirname(tree), { recursive: true });
      execFileSync("git", ["clone", "-q", "--no-checkout", repoDir(repo), tree]);
    }
    for (const c of cases.filter((x) => x.repo === repo).sort((a, b) => a.date.localeCompare(b.date))) {
      execFileSync("git", ["-C", tree, "checkout", "-q", "-f", "--detach", c.parent]);
      execFileSync("git", ["-C", tree, "clean", "-qfdx"]);
      execFileSync(
        "nice",
        ["-n", "10", process.execPath, cli, "index", "--root", tree, "--cache-dir", cache, "--quiet"],
        { stdio: "ignore" },
      );
      for (const variant of VARIANTS) {
        const r = spawnSync(
          "nice",
          [
            "-n",
            "10",
            process.execPath,
            cli,
            "search",
            qOf(c, variant),
            "--limit",
            "200",
            "--root",
            tree,
            "--cache-dir",
            cache,
            "--json",
            "--quiet",
          ],
          { encoding: "utf8", maxBuffer: 1 << 28 },
        );
        let results = [];
        try {
          results = JSON.parse(r.stdout).results.map((h) => ({
            q: h.qualified,
            path: h.path,
            line: h.line,
            end: h.end,
            score: h.score,
            matched: h.matched,
          }));
        } catch {
          /* no searchable word */
        }
        out.push({ id: c.id, variant, results });
      }
      console.error(`search ${c.id}`);
    }
  }
  writeJson(searchFile, { codeslice: codesliceRevision(), results: out });
}
const search = fs.existsSync(searchFile)
  ? new Map(JSON.parse(fs.readFileSync(searchFile, "utf8")).results.map((s) => [`${s.id}|${s.variant}`, s.results]))
  : undefined;

// ---------------------------------------------------------------- corpus, grep windows (as the tool's run.mjs)

function corpusOf(files) {
  const df = new Map();
  for (const f of files) {
    f.tf = new Map();
    for (const t of tokenize(`${f.path}\n${f.text}`)) f.tf.set(t, (f.tf.get(t) || 0) + 1);
    for (const t of f.tf.keys()) df.set(t, (df.get(t) || 0) + 1);
  }
  const N = files.length;
  const idf = (t) => Math.log(1 + (N - (df.get(t) || 0) + 0.5) / ((df.get(t) || 0) + 0.5));
  return { files, byPath: new Map(files.map((f) => [f.path, f])), df, N, idf };
}
const queryTerms = (q) => [...new Set(tokenize(q).filter((t) => !STOP.has(t) && t.length > 1))];
const fence = (p) =>
  p.endsWith(".py") ? "python" : p.endsWith(".tsx") ? "tsx" : p.endsWith(".ts") ? "typescript" : "";
const block = (p, start, end, body) => `## ${p}:${start}-${end} [grep]\n\`\`\`${fence(p)}\n${body}\n\`\`\`\n\n`;

/** All windows in rank order (each with its anchor line and terms), then the ones taken per budget. */
function grepRanked(corpus, query) {
  const terms = queryTerms(query),
    want = new Set(terms),
    windows = [];
  for (const f of corpus.files) {
    if (!terms.some((t) => f.tf.has(t))) continue;
    const lineTerms = f.lines.map((l) => new Set(tokenize(l).filter((t) => want.has(t))));
    for (let i = 0; i < f.lines.length; i++) {
      if (!lineTerms[i].size) continue;
      const a = Math.max(0, i - 5),
        z = Math.min(f.lines.length - 1, i + 5);
      const seen = new Set();
      for (let j = a; j <= z; j++) for (const t of lineTerms[j]) seen.add(t);
      let s = 0;
      for (const t of seen) s += corpus.idf(t);
      windows.push({ f, a, z, s, anchor: i + 1, anchorTerms: [...lineTerms[i]] });
    }
  }
  windows.sort((x, y) => y.s - x.s || x.f.path.localeCompare(y.f.path) || x.a - y.a);
  return windows;
}
function grepTake(windows, budget) {
  const taken = new Map(),
    parts = [],
    chosen = [];
  let used = 0;
  for (const w of windows) {
    const spans = taken.get(w.f.path) || [];
    if (spans.some(([a, z]) => w.a <= z && w.z >= a)) continue;
    const blk = block(w.f.path, w.a + 1, w.z + 1, w.f.lines.slice(w.a, w.z + 1).join("\n"));
    const t = countTokens(blk);
    if (used + t > budget) {
      if (budget - used < 40) break;
      continue;
    }
    spans.push([w.a, w.z]);
    taken.set(w.f.path, spans);
    parts.push(blk);
    chosen.push(w);
    used += t;
  }
  while (countTokens(parts.join("")) > budget && parts.length) {
    parts.pop();
    chosen.pop();
  }
  return chosen;
}

// ---------------------------------------------------------------- definitions at the parent

function pyDefs(files) {
  if (!files.length) return {};
  const out = execFileSync("python3", [path.join(tool.dir, "pydefs.py")], {
    input: JSON.stringify(files.map((f) => ({ key: f.path, source: f.text }))),
    encoding: "utf8",
    maxBuffer: 1 << 28,
  });
  return JSON.parse(out);
}
function defsOf(files) {
  const py = pyDefs(files.filter((f) => f.path.endsWith(".py")));
  const all = [];
  for (const f of files) {
    let defs = [];
    if (f.path.endsWith(".py")) defs = py[f.path]?.ok ? py[f.path].defs : [];
    else if (/\.(ts|tsx)$/.test(f.path) && !f.path.endsWith(".d.ts")) {
      try {
        defs = defsOfTs(f.path, f.text).defs;
      } catch {
        defs = [];
      }
    }
    for (const d of defs)
      if (d.kind === "function" || d.kind === "method")
        all.push({ path: f.path, qual: d.qual, name: d.qual.split(".").pop(), start: d.start, end: d.end });
  }
  return all;
}

// Header (signature) lines of a definition: up to the ':' (Python) or '{' / '=>' (TS) that opens its body.
function signatureEnd(file, start, end) {
  let depth = 0;
  for (let ln = start; ln <= Math.min(end, start + 15); ln++) {
    const a = file.lineStarts[ln - 1],
      z = ln < file.lineStarts.length ? file.lineStarts[ln] : file.text.length;
    for (let i = a; i < z; i++) {
      if (file.classes[i] !== CODE) continue;
      const ch = file.text[i];
      if ("([".includes(ch)) depth++;
      else if (")]".includes(ch)) depth--;
      else if (depth <= 0 && file.language === "python" && ch === ":") return ln;
      else if (depth <= 0 && file.language !== "python" && (ch === "{" || (ch === "=" && file.text[i + 1] === ">")))
        return ln;
    }
  }
  return start;
}

/** Query terms found in each part of a definition (tool tokenization). */
function evidence(file, fn, terms) {
  const want = new Set(terms);
  const has = (text) => new Set(tokenize(text).filter((t) => want.has(t)));
  const qual = fn.qual ?? fn.name; // gold entries carry the qualified name as `name`
  const ev = {
    name: has(qual.split(".").pop()),
    qual: new Set(),
    path: has(fn.path),
    sig: new Set(),
    doc: new Set(),
    code: new Set(),
    comment: new Set(),
    string: new Set(),
  };
  for (const t of has(qual.split(".").slice(0, -1).join(" "))) if (!ev.name.has(t)) ev.qual.add(t);
  const sigEnd = signatureEnd(file, fn.start, fn.end);
  const add = (set, text) => {
    for (const t of has(text)) set.add(t);
  };
  // leading JSDoc / comments just above a TS definition count as its docstring
  if (file.language !== "python") {
    for (let ln = fn.start - 1; ln >= 1 && ln >= fn.start - 40; ln--) {
      const runs = lineRuns(file, ln);
      if (
        runs.every((r) => r.cls === DOC || r.cls === COMMENT || /^\s*$/.test(r.text)) &&
        runs.some((r) => r.cls === DOC || r.cls === COMMENT)
      ) {
        for (const r of runs) add(ev.doc, r.text);
      } else break;
    }
  }
  for (let ln = fn.start; ln <= fn.end; ln++) {
    for (const r of lineRuns(file, ln)) {
      if (r.cls === DOC) add(ev.doc, r.text);
      else if (ln <= sigEnd && r.cls === CODE) add(ev.sig, r.text);
      else if (r.cls === CODE) add(ev.code, r.text);
      else if (r.cls === COMMENT) add(ev.comment, r.text);
      else if (r.cls === STRING) add(ev.string, r.text);
    }
  }
  // the name itself sits on the signature line: keep sig for the other words
  for (const t of ev.name) ev.sig.delete(t);
  return ev;
}
/** The strongest place a query word matched a definition, in the order codeslice's search weighs fields. */
function strongest(ev) {
  if (ev.name.size) return "name";
  if (ev.qual.size) return "class name";
  if (ev.path.size) return "path";
  if (ev.sig.size) return "signature";
  if (ev.doc.size) return "docstring";
  if (ev.code.size || ev.comment.size || ev.string.size) return "body only";
  return "no query word in the function";
}
function bodyKind(ev) {
  const k = [
    ev.code.size && "identifiers/code",
    ev.comment.size && "comments",
    ev.string.size && "string literals",
  ].filter(Boolean);
  return k.join(" + ") || "-";
}

// ---------------------------------------------------------------- BM25 over functions (what-if rankers)

function bm25Rank(docs, terms, field) {
  const N = docs.length,
    df = new Map();
  for (const d of docs) for (const t of d[field].keys()) df.set(t, (df.get(t) || 0) + 1);
  const avg = docs.reduce((s, d) => s + d[`${field}Len`], 0) / Math.max(1, N);
  const idf = (t) => Math.log(1 + (N - (df.get(t) || 0) + 0.5) / ((df.get(t) || 0) + 0.5));
  const scored = [];
  for (const d of docs) {
    let s = 0;
    for (const t of terms) {
      const tf = d[field].get(t);
      if (tf) s += (idf(t) * (tf * 2.2)) / (tf + 1.2 * (0.25 + (0.75 * d[`${field}Len`]) / avg));
    }
    if (s > 0) scored.push({ d, s });
  }
  scored.sort((a, b) => b.s - a.s || a.d.path.localeCompare(b.d.path) || a.d.start - b.d.start);
  return scored.map((x) => x.d);
}
const tfOf = (text) => {
  const m = new Map();
  let n = 0;
  for (const t of tokenize(text)) {
    m.set(t, (m.get(t) || 0) + 1);
    n++;
  }
  return [m, n];
};
const firstRank = (list, c, match) => {
  const i = list.findIndex((x) => c.functions.some((g) => match(x, g)));
  return i < 0 ? Infinity : i + 1;
};
const overlaps = (x, g) => x.path === g.path && x.start <= g.end && x.end >= g.start;

// ---------------------------------------------------------------- codeslice's search scoring, replicated (what-if)

// As src/core/search/search.ts (name 10, name prefix 6, path 4, signature 3, docstring 2, query is the
// name +8, test file -2; its stop words; the first 32 distinct words), over this script's function
// definitions, then with one rule changed at a time.
const splitWords = (text) =>
  text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
const CS_STOP = new Set(
  "a an the of to in on for and or is are be by with from as at it this that get set self cls".split(" "),
);
const CS_TEST_FILE =
  /(^|\/)(tests?|__tests__|spec|specs|testing)\/|(^|\/)test_[^/]*$|_test\.[a-z]+$|\.(test|spec)\.[a-z]+$/;
const REPLICAS = {
  cs_replica: {},
  cs_prose_stop_words: { stop: true },
  cs_no_32_word_cap: { nocap: true },
  cs_idf: { idf: true },
  cs_idf_stop: { idf: true, stop: true, nocap: true },
  cs_idf_stop_body: { idf: true, stop: true, nocap: true, body: true },
  cs_idf_stop_body_no_tests: { idf: true, stop: true, nocap: true, body: true, noTests: true },
};
function csRank(defs, query, o) {
  let terms = [
    ...new Set(
      splitWords(query.slice(0, 2000)).filter((w) => !CS_STOP.has(w) && !(o.stop && (STOP.has(w) || w.length < 2))),
    ),
  ];
  if (!o.nocap) terms = terms.slice(0, 32);
  if (!terms.length) return [];
  const phrase = terms.join("");
  let idf = () => 1,
    unit = 1;
  if (o.idf) {
    const df = new Map();
    for (const d of defs)
      for (const t of terms)
        if (d.cs.name.has(t) || d.cs.path.has(t) || d.cs.sig.has(t) || d.cs.doc.has(t) || d.cs.body.has(t))
          df.set(t, (df.get(t) || 0) + 1);
    const N = defs.length;
    idf = (t) => Math.log(1 + (N - (df.get(t) || 0) + 0.5) / ((df.get(t) || 0) + 0.5));
    unit = terms.reduce((a, t) => a + idf(t), 0) / terms.length;
  }
  const hits = [];
  for (const d of defs) {
    if (o.noTests && d.csTest) continue;
    const w = d.cs;
    let score = 0;
    for (const t of terms) {
      const k = idf(t);
      if (w.name.has(t)) score += 10 * k;
      else if (t.length >= 3 && [...w.name].some((n) => n.startsWith(t))) score += 6 * k;
      else if (w.path.has(t)) score += 4 * k;
      else if (w.sig.has(t)) score += 3 * k;
      else if (w.doc.has(t)) score += 2 * k;
      else if (o.body && w.body.has(t)) score += 1 * k;
    }
    if (score === 0) continue;
    if ([...w.name].join("") === phrase) score += 8 * unit;
    if (d.csTest) score -= 2 * unit;
    hits.push({ d, score });
  }
  hits.sort((a, b) => b.score - a.score || a.d.qual.length - b.d.qual.length || (a.d.qual < b.d.qual ? -1 : 1));
  return hits.map((h) => h.d);
}
function csReplicas(defs, query, c) {
  return Object.fromEntries(
    Object.entries(REPLICAS).map(([k, o]) => [k, firstRank(csRank(defs, query, o), c, overlaps)]),
  );
}

// ---------------------------------------------------------------- seeds

const BUNDLE = /(^|\/)(docs?|site|website|dist|build|vendor|assets)\/.*\.(js|mjs|cjs)$|\.(umd|min|bundle)\.js$/;
const parseSeed = (s) => {
  const m = s.match(/^(.+?):(\d+) (.+)$/);
  return m ? { path: m[1], line: +m[2], q: m[3] } : { path: s, line: 0, q: s };
};
/** What a seed is, relative to a gold function g of case c. */
function seedKind(s, g, c) {
  if (isTest(s.path) || CS_TEST_FILE.test(s.path)) return "test";
  if (s.path.endsWith(".pyi")) return "type stub (.pyi)";
  if (BUNDLE.test(s.path)) return "bundled/docs JS";
  if (c.functions.some((f) => f.path === s.path && s.line >= f.start && s.line <= f.end)) return "a gold function";
  if (s.path === g.path) return "same file";
  if (s.q.split(/[.#]/).pop() === g.name.split(".").pop()) return "same name elsewhere";
  if (c.files.includes(s.path)) return "other gold file";
  return "other file";
}

// ---------------------------------------------------------------- main loop

const rowsBy = new Map();
for (const r of res.rows) rowsBy.set(`${r.id}|${r.system}|${r.variant}|${r.budget}`, r);
const pairs = []; // one per (case, variant, budget, gold fn, codeslice system) where grep shows the fn and codeslice does not
const allGold = []; // one per (case, variant, gold fn): evidence and ranks, independent of budget
const rankers = []; // per (case, variant): rank of the first gold fn under each ranker
let grepChecks = 0,
  grepMismatch = 0;
const t0 = Date.now();
for (const [ci, c] of cases.entries()) {
  const files = readTree(repoDir(c.repo), c.parent, isIndexable);
  const corpus = corpusOf(files);
  for (const f of files) if (c.functions.some((g) => g.path === f.path)) prepareFile(f);
  const defs = defsOf(files.filter((f) => /\.(py|ts|tsx)$/.test(f.path)));
  for (const d of defs) {
    const f = prepareFile(corpus.byPath.get(d.path));
    const sigEnd = signatureEnd(f, d.start, d.end);
    const head = `${d.path} ${d.qual} ${f.lines.slice(d.start - 1, sigEnd).join("\n")}`;
    let doc = "";
    for (let ln = d.start; ln <= d.end; ln++) for (const r of lineRuns(f, ln)) if (r.cls === DOC) doc += ` ${r.text}`;
    if (f.language !== "python")
      for (let ln = d.start - 1; ln >= 1 && ln >= d.start - 40; ln--) {
        const rs = lineRuns(f, ln);
        if (rs.some((r) => r.cls === DOC)) doc += ` ${rs.map((r) => r.text).join("")}`;
        else if (!rs.every((r) => /^\s*$/.test(r.text))) break;
      }
    [d.head, d.headLen] = tfOf(`${head} ${doc}`);
    [d.whole, d.wholeLen] = tfOf(`${d.path} ${d.qual} ${doc} ${f.lines.slice(d.start - 1, d.end).join("\n")}`);
    d.test = isTest(d.path);
    // the fields codeslice's search indexes (its word split), plus the body for the what-if
    d.cs = {
      name: new Set(splitWords(d.name)),
      path: new Set(splitWords(`${d.path} ${d.qual}`)),
      sig: new Set(splitWords(head.slice(d.path.length + d.qual.length + 2, d.path.length + d.qual.length + 2 + 300))),
      doc: new Set(splitWords(doc.slice(0, 400))),
      body: new Set(splitWords(f.lines.slice(sigEnd, d.end).join("\n"))),
    };
    d.csTest = CS_TEST_FILE.test(d.path);
  }
  for (const variant of VARIANTS) {
    const q = qOf(c, variant),
      terms = queryTerms(q);
    const windows = grepRanked(corpus, q);
    const evs = c.functions.map((g) => evidence(prepareFile(corpus.byPath.get(g.path)), g, terms));
    // what-if rankers: first gold function's rank
    const nonTest = defs.filter((d) => !d.test);
    const sr = search?.get(`${c.id}|${variant}`);
    const csList = sr ? sr.map((h) => ({ path: h.path, start: h.line, end: h.end })) : undefined;
    rankers.push({
      id: c.id,
      repo: c.repo,
      variant,
      head: firstRank(bm25Rank(defs, terms, "head"), c, overlaps),
      whole: firstRank(bm25Rank(defs, terms, "whole"), c, overlaps),
      whole_no_tests: firstRank(bm25Rank(nonTest, terms, "whole"), c, overlaps),
      ...csReplicas(defs, q, c),
      grep_window: firstRank(
        windows.map((w) => ({ path: w.f.path, start: w.a + 1, end: w.z + 1 })),
        c,
        overlaps,
      ),
      codeslice_search: csList ? firstRank(csList, c, (x, g) => x.path === g.path && x.start === g.start) : undefined,
      codeslice_search_overlap: csList ? firstRank(csList, c, overlaps) : undefined,
    });
    c.functions.forEach((g, gi) => {
      const ev = evs[gi];
      const csRank = csList
        ? firstRank(csList, { functions: [g] }, (x, gg) => x.path === gg.path && x.start === gg.start)
        : undefined;
      const csTop = sr?.[0]?.score;
      const csHit = sr?.find((h) => h.path === g.path && h.line === g.start);
      allGold.push({
        id: c.id,
        repo: c.repo,
        variant,
        fn: `${g.path}::${g.name}`,
        strongest: strongest(ev),
        body: bodyKind(ev),
        csRank,
        csScoreShare: csHit && csTop ? csHit.score / csTop : undefined,
        csMatched: csHit?.matched,
      });
    });
    for (const budget of BUDGETS) {
      const chosen = grepTake(windows, budget);
      const gr = rowsBy.get(`${c.id}|grep-window|${variant}|${budget}`);
      const fnHit = c.functions
        .filter((g) => chosen.some((w) => w.f.path === g.path && w.a + 1 <= g.end && w.z + 1 >= g.start))
        .map((g) => g.name);
      if (gr) {
        grepChecks++;
        if (Math.abs(fnHit.length / c.functions.length - gr.fn_recall) > 1e-9) grepMismatch++;
      }
      c.functions.forEach((g, gi) => {
        const wins = chosen.filter((w) => w.f.path === g.path && w.a + 1 <= g.end && w.z + 1 >= g.start);
        if (!wins.length) return;
        for (const system of ["codeslice-pack", "codeslice-context"]) {
          const r = rowsBy.get(`${c.id}|${system}|${variant}|${budget}`);
          if (!r || r.fns_hit.includes(g.name)) continue;
          const f = corpus.byPath.get(g.path);
          const ev = evs[gi];
          const anchorsIn = wins.filter((w) => w.anchor >= g.start && w.anchor <= g.end);
          // classes of the anchor-line words inside the function
          const anchorCls = new Set();
          for (const w of anchorsIn)
            for (const run of lineRuns(f, w.anchor))
              for (const t of tokenize(run.text)) if (w.anchorTerms.includes(t)) anchorCls.add(CLASS_NAMES[run.cls]);
          const seeds = (r.seeds || []).map((s) => {
            const m = s.match(/^(.+?):(\d+) (.+)$/);
            return m ? { path: m[1], line: +m[2], q: m[3] } : { path: s, line: 0, q: s };
          });
          const seedKinds = seeds.map((s) => seedKind(s, g, c));
          pairs.push({
            id: c.id,
            repo: c.repo,
            variant,
            budget,
            system,
            fn: g.name,
            path: g.path,
            strongest: strongest(ev),
            body: bodyKind(ev),
            anchor_inside: anchorsIn.length > 0,
            anchor_classes: [...anchorCls],
            grep_rank: windows.findIndex((w) => w.f.path === g.path && w.a + 1 <= g.end && w.z + 1 >= g.start) + 1,
            seeds: seeds.length,
            seed_kinds: seedKinds,
            duplicate_seeds: new Set(seeds.map((x) => x.q)).size < seeds.length,
            file_in_answer: r.files_hit.includes(g.path),
            cut_listed: (r.cut_gold || []).includes(g.name),
            used: r.tokens / budget,
            error: r.error,
            cs_rank: csList
              ? firstRank(csList, { functions: [g] }, (x, gg) => x.path === gg.path && x.start === gg.start)
              : undefined,
            terms_in_fn: [
              ...new Set([...ev.name, ...ev.qual, ...ev.sig, ...ev.doc, ...ev.code, ...ev.comment, ...ev.string]),
            ].length,
            query_terms: terms.length,
          });
        }
      });
    }
  }
  if (ci % 20 === 19) console.error(`${ci + 1}/${cases.length} cases (${Math.round((Date.now() - t0) / 1000)} s)`);
}

// ---------------------------------------------------------------- aggregate

const share = (xs, p) => (xs.length ? Math.round((1000 * xs.filter(p).length) / xs.length) / 1000 : null);
const dist = (xs, key) => {
  const m = {};
  for (const x of xs) {
    const k = typeof key === "function" ? key(x) : x[key];
    m[k] = (m[k] || 0) + 1;
  }
  return Object.fromEntries(
    Object.entries(m)
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => [k, { n: v, share: Math.round((1000 * v) / xs.length) / 1000 }]),
  );
};
const median = (xs) => {
  const s = xs.filter((x) => x !== undefined && Number.isFinite(x)).sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : null;
};
function pairStats(ps) {
  return {
    pairs: ps.length,
    cases: new Set(ps.map((p) => p.id)).size,
    strongest_match: dist(ps, "strongest"),
    body_only_by_text_kind: dist(
      ps.filter((p) => p.strongest === "body only"),
      "body",
    ),
    grep_anchor_line_inside_fn: share(ps, (p) => p.anchor_inside),
    anchor_inside_and_word_not_in_name_sig_doc_path: share(
      ps,
      (p) => p.anchor_inside && ["body only"].includes(p.strongest),
    ),
    anchor_word_classes: dist(
      ps.filter((p) => p.anchor_inside),
      (p) => p.anchor_classes.sort().join("+") || "-",
    ),
    grep_rank_median: median(ps.map((p) => p.grep_rank)),
    gold_file_in_answer: share(ps, (p) => p.file_in_answer),
    gold_fn_in_cut_list: share(ps, (p) => p.cut_listed),
    answer_under_half_budget: share(ps, (p) => p.used < 0.5),
    budget_used_median: median(ps.map((p) => Math.round(p.used * 100) / 100)),
    errors: ps.filter((p) => p.error).length,
    seeds_per_answer: dist(ps, (p) => String(p.seeds)),
    any_seed_in_tests: share(ps, (p) => p.seed_kinds.includes("test")),
    all_seeds_in_tests: share(ps, (p) => p.seeds > 0 && p.seed_kinds.every((k) => k === "test")),
    a_seed_in_the_gold_file: share(ps, (p) => p.seed_kinds.includes("same file")),
    a_seed_same_name_elsewhere: share(ps, (p) => p.seed_kinds.includes("same name elsewhere")),
    seed_kinds: dist(
      ps.flatMap((p) => p.seed_kinds.map((k) => ({ k }))),
      "k",
    ),
    duplicate_seeds: share(ps, (p) => p.duplicate_seeds),
    codeslice_search_rank: search
      ? dist(ps, (p) =>
          p.cs_rank === Infinity
            ? "not in top 200"
            : p.cs_rank <= 3
              ? "1-3"
              : p.cs_rank <= 10
                ? "4-10"
                : p.cs_rank <= 50
                  ? "11-50"
                  : "51-200",
        )
      : undefined,
  };
}
const hitAt = (xs, key, k) =>
  share(
    xs.filter((x) => x[key] !== undefined),
    (x) => x[key] <= k,
  );
function rankerStats(rs) {
  const keys = [
    "codeslice_search",
    "codeslice_search_overlap",
    ...Object.keys(REPLICAS),
    "head",
    "whole",
    "whole_no_tests",
    "grep_window",
  ].filter((k) => rs.some((r) => r[k] !== undefined));
  return Object.fromEntries(
    keys.map((k) => [
      k,
      { hit_at_1: hitAt(rs, k, 1), hit_at_3: hitAt(rs, k, 3), hit_at_10: hitAt(rs, k, 10), found: hitAt(rs, k, 1e9) },
    ]),
  );
}
const by = (xs, f) => {
  const m = new Map();
  for (const x of xs) {
    const k = f(x);
    if (!m.has(k)) m.set(k, []);
    m.get(k).push(x);
  }
  return m;
};

const out = {
  about:
    "Misses of codeslice against the grep-window baseline on the localize cases (test/bench/localize/misses.mjs); figures only",
  results_of: path.basename(resultsFile),
  codeslice: res.meta.codeslice?.commit === "unknown" ? codesliceRevision() : res.meta.codeslice?.commit,
  cases: cases.length,
  grep_reconstruction: { rows_checked: grepChecks, fn_recall_mismatches: grepMismatch },
  definitions: {
    pairs:
      "a gold function, one case × variant × budget × codeslice system, that grep-window's answer overlaps and codeslice's does not",
    strongest_match:
      "the strongest place a query word (the baselines' tokenization, stop words out) occurs in the gold function: its own name, its class name, its path, its signature, its docstring (TS: JSDoc/comment above it), or only its body",
    grep_anchor_line_inside_fn:
      "a line holding a query word that grep ranked (a window's centre) lies inside the gold function, rather than the window reaching it through its ±5 context lines",
    head: "what-if ranker: BM25 over each function's path, qualified name, signature and docstring (what codeslice's search indexes, with IDF)",
    whole: "what-if ranker: BM25 over each function's whole text (path, name, docstring, body)",
    whole_no_tests: "the same without functions in test files",
    codeslice_search: "codeslice search <query> --limit 200: rank of the first gold function's definition",
    codeslice_search_overlap: "the same, counting a hit whose lines overlap a gold function (a class that holds it)",
    cs_replica:
      "codeslice's search scoring replicated over this script's function definitions (functions and methods only), then one rule changed at a time: prose stop words (the baselines' list), no 32-word cap, IDF-weighted words, body words at weight 1, test files left out",
    hit_at_k:
      "share of case × variant whose first gold function is ranked k or better (k=1 ~ context's one seed, k=3 ~ pack's three)",
  },
  grep_only: {},
  gold_functions: {},
  rankers: {},
};
for (const system of ["codeslice-pack", "codeslice-context"])
  for (const variant of VARIANTS) {
    const ps = pairs.filter((p) => p.system === system && p.variant === variant);
    out.grep_only[`${system} ${variant}`] = {
      all_budgets: pairStats(ps),
      ...Object.fromEntries(BUDGETS.map((b) => [`budget_${b}`, pairStats(ps.filter((p) => p.budget === b))])),
    };
  }
for (const variant of VARIANTS) {
  const gs = allGold.filter((g) => g.variant === variant);
  out.gold_functions[variant] = {
    functions: gs.length,
    strongest_match: dist(gs, "strongest"),
    body_only_by_text_kind: dist(
      gs.filter((g) => g.strongest === "body only"),
      "body",
    ),
    codeslice_search_rank: search
      ? dist(gs, (g) =>
          g.csRank === Infinity
            ? "not in top 200"
            : g.csRank <= 3
              ? "1-3"
              : g.csRank <= 10
                ? "4-10"
                : g.csRank <= 50
                  ? "11-50"
                  : "51-200",
        )
      : undefined,
    codeslice_search_rank_by_strongest: search
      ? Object.fromEntries(
          [...by(gs, (g) => g.strongest)].map(([k, v]) => [
            k,
            {
              n: v.length,
              top3: share(v, (g) => g.csRank <= 3),
              top10: share(v, (g) => g.csRank <= 10),
              found: share(v, (g) => g.csRank !== Infinity),
            },
          ]),
        )
      : undefined,
  };
  // codeslice's search reads the first 32 distinct words (its split and stop words)
  const caps = cases.map((c) => {
    const t = [...new Set(splitWords(qOf(c, variant)).filter((w) => !CS_STOP.has(w)))];
    const names = new Set(c.functions.flatMap((f) => splitWords(f.name.split(".").pop())));
    const first = new Set(t.slice(0, 32));
    return {
      over: t.length > 32,
      lost:
        t.length > 32 &&
        [...names].some((n) => t.includes(n) && !first.has(n)) &&
        ![...names].some((n) => first.has(n)),
    };
  });
  out.gold_functions[variant].queries_over_32_words = share(caps, (x) => x.over);
  out.gold_functions[variant].gold_name_words_only_past_32 = share(caps, (x) => x.lost);
  const rs = rankers.filter((r) => r.variant === variant);
  out.rankers[variant] = {
    all: rankerStats(rs),
    ...Object.fromEntries([...by(rs, (r) => r.repo)].map(([k, v]) => [k, rankerStats(v)])),
  };
}
// Seeds of every codeslice answer (they do not depend on the budget): where they land.
out.seeds = {};
for (const system of ["codeslice-pack", "codeslice-context"])
  for (const variant of VARIANTS) {
    const rows = res.rows.filter(
      (r) => r.system === system && r.variant === variant && r.budget === Math.max(...BUDGETS),
    );
    const casesById = Object.fromEntries(cases.map((c) => [c.id, c]));
    const kinds = [];
    const per = rows.map((r) => {
      const c = casesById[r.id];
      const seeds = (r.seeds || []).map(parseSeed);
      const ks = seeds.map((x) => seedKind(x, { path: "", name: "", start: 0, end: 0 }, c));
      kinds.push(...ks.map((k) => ({ k })));
      return {
        error: !!r.error,
        seeds: seeds.length,
        dup: new Set(seeds.map((x) => x.q)).size < seeds.length,
        ks,
        fnMiss: r.fn_recall < 1,
        under: r.tokens < r.budget / 2,
      };
    });
    out.seeds[`${system} ${variant}`] = {
      answers: rows.length,
      errors: per.filter((p) => p.error).length,
      seeds_per_answer: dist(
        per.filter((p) => !p.error),
        (p) => String(p.seeds),
      ),
      seed_kinds: dist(kinds, "k"),
      answers_with_a_gold_function_seed: share(per, (p) => p.ks.includes("a gold function")),
      answers_with_a_test_seed: share(per, (p) => p.ks.includes("test")),
      answers_all_seeds_tests: share(per, (p) => p.seeds > 0 && p.ks.every((k) => k === "test")),
      answers_with_a_stub_or_bundle_seed: share(per, (p) =>
        p.ks.some((k) => k === "type stub (.pyi)" || k === "bundled/docs JS"),
      ),
      answers_with_duplicate_seeds: share(per, (p) => p.dup),
      [`under_half_budget_at_${Math.max(...BUDGETS)}`]: share(per, (p) => p.under),
      [`under_half_budget_at_${Math.max(...BUDGETS)}_with_fn_missing`]: share(per, (p) => p.under && p.fnMiss),
    };
  }
writeJson(path.resolve(flags.out || path.join(resultsDir, "localize-misses.json")), out);

// Examples with messages stay outside the checkout.
const md = [`# grep-only hits (${path.basename(resultsFile)})`, ""];
const casesById = Object.fromEntries(cases.map((c) => [c.id, c]));
const biggest = Math.max(...BUDGETS);
for (const p of pairs.filter((p) => p.system === "codeslice-pack" && p.variant === "query" && p.budget === biggest)) {
  const r = rowsBy.get(`${p.id}|codeslice-pack|query|${biggest}`);
  md.push(
    `- **${p.id}** ${p.path}::${p.fn} — strongest: ${p.strongest} (${p.body}); anchor inside: ${p.anchor_inside} ${p.anchor_classes.join("+")}; grep rank ${p.grep_rank}; cs search rank ${p.cs_rank ?? "?"}; used ${Math.round(p.used * 100)}%`,
  );
  md.push(`  - query: ${casesById[p.id].query.slice(0, 300)}`);
  md.push(`  - seeds: ${(r.seeds || []).join("; ")} (${p.seed_kinds.join(", ")})`);
}
fs.writeFileSync(
  path.join(rawDir(), `misses-${path.basename(resultsFile).replace(/^results-|\.json$/g, "")}.md`),
  md.join("\n") + "\n",
);
fs.writeFileSync(
  path.join(rawDir(), `misses-${path.basename(resultsFile).replace(/^results-|\.json$/g, "")}.pairs.json`),
  JSON.stringify({ pairs, allGold, rankers }) + "\n",
);
console.error(`grep reconstruction: ${grepMismatch} of ${grepChecks} rows differ from the run's fn recall`);
console.log(
  JSON.stringify(
    {
      grep_only: Object.fromEntries(Object.entries(out.grep_only).map(([k, v]) => [k, v.all_budgets.pairs])),
      rankers: out.rankers.query?.all,
    },
    null,
    1,
  ),
);
