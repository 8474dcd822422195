#!/usr/bin/env node
// Where a language's query spends its time, pattern by pattern (issue 27: the query alone cost 0.4–0.6× the parse).
//
// In one process, per corpus: every file the index parses (as parse-floor lists them: `git ls-files`,
// languagesForProject, skipByName, each distinct text once) is parsed once, and its tree is handed to
// several compiled copies of its language's query, the order rotating file by file, each call's CPU time
// (process.cpuUsage) added to its variant:
//   all          the query as the engine compiles it
//   -UNIT        the same with one pattern (--by pattern) or one group of patterns disabled
//                (--by root: the patterns rooted at one node type, e.g. Python's 15 `assignment` ones);
//                all minus this is what the unit costs
//   no captures  every capture disabled (disableCapture): the matches are still found and returned, no
//                Node object is made per capture; all minus this is the marshalling of captures into JS
//                (a Node per capture, its position object, the capture record) and the text predicates
//                (`#match?`, `#eq?`, evaluated in JS on each capture's text)
//   no patterns  every pattern disabled: the cursor's walk over the tree alone
//   captures()   the whole query through `Query.captures` instead of `matches`
// Beside each unit: its matches and captures on the corpus (from the `all` run).
//
// Rerun:
//   node scripts/build.mjs && npm run bench -- query-patterns [CORPUS_DIR ...] [--by pattern|root]
//     [--passes N] [--langs python,typescript] [--top K] [--out NAME.json]
// Default corpus: /work/corpora/lead/django. Output: markdown on stdout and test/bench/results/query-patterns.json
// (or --out).
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import {
  ensureBuilt,
  fmt,
  indexedFiles,
  machine,
  mdTable,
  parseArgs,
  repoRoot,
  resultsDir,
  writeJson,
} from "./lib/bench-utils.mjs";

const { flags, positionals } = parseArgs(process.argv.slice(2));
const BY = flags.by ?? "pattern";
const PASSES = Number(flags.passes ?? 1);
const TOP = Number(flags.top ?? 25);
const LANGS = flags.langs ? new Set(String(flags.langs).split(",")) : undefined;
const corpora = positionals.length ? positionals : ["/work/corpora/lead/django"];
ensureBuilt();

const load = (rel) => import(pathToFileURL(path.join(repoRoot, "dist", rel)).href);
const { createParserRuntime } = await load("core/parse/runtime.js");
const { NodeWasmSource } = await load("platform/node/node-wasm-source.js");
const { languagesForProject, languageById } = await load("languages/index.js");
const { skipByName } = await load("index.js");
const { Query } = await import("web-tree-sitter");
const runtime = await createParserRuntime(new NodeWasmSource());

/** The files a cold index parses, as parse-floor lists them. */
function filesOf(root) {
  return indexedFiles(root, { languagesForProject, skipByName, langs: LANGS });
}

/** A pattern's text, squashed, and the node type it is rooted at (`_` or `[…]` for the unrooted). */
function describe(query, source, i) {
  const text = source.slice(query.startIndexForPattern(i), query.endIndexForPattern(i)).replace(/\s+/g, " ").trim();
  const root = /^\(\s*([A-Za-z_][\w.]*)/.exec(text)?.[1] ?? text.slice(0, 1);
  return { text, root };
}

/** The variants of one language's query: name → compiled Query, and the units they stand for. */
async function variantsOf(spec) {
  const loaded = await runtime.load(spec);
  const source = spec.query;
  const count = loaded.query.patternCount();
  const patterns = Array.from({ length: count }, (_, i) => ({ index: i, ...describe(loaded.query, source, i) }));
  const units = [];
  if (BY === "root") {
    const byRoot = new Map();
    for (const p of patterns) byRoot.set(p.root, [...(byRoot.get(p.root) ?? []), p.index]);
    for (const [root, indexes] of byRoot) units.push({ name: `${root} (${indexes.length})`, patterns: indexes });
  } else {
    for (const p of patterns) units.push({ name: `#${p.index} ${p.text.slice(0, 90)}`, patterns: [p.index] });
  }
  const compile = () => new Query(loaded.language, source);
  const variants = [
    { name: "all", query: loaded.query },
    { name: "all (a second copy)", query: compile() },
  ];
  for (const u of units) {
    const q = compile();
    for (const i of u.patterns) q.disablePattern(i);
    variants.push({ name: `-${u.name}`, query: q, unit: u });
  }
  const noCaptures = compile();
  for (const name of noCaptures.captureNames) noCaptures.disableCapture(name);
  variants.push({ name: "no captures", query: noCaptures });
  const noPatterns = compile();
  for (let i = 0; i < count; i++) noPatterns.disablePattern(i);
  variants.push({ name: "no patterns", query: noPatterns });
  variants.push({ name: "captures()", query: loaded.query, captures: true });
  for (const v of variants) v.cpu = 0;
  return { loaded, patterns, units, variants, matches: new Array(count).fill(0), captures: new Array(count).fill(0) };
}

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

const results = [];
for (const corpus of corpora) {
  const root = path.resolve(corpus);
  const files = filesOf(root);
  const byLang = new Map();
  let parseMs = 0;
  let n = 0;
  const loadBefore = os.loadavg();
  for (let pass = 0; pass < PASSES; pass++) {
    for (const { spec, text } of files) {
      let lang = byLang.get(spec.id);
      if (!lang) byLang.set(spec.id, (lang = await variantsOf(spec)));
      runtime.parser.setLanguage(lang.loaded.language);
      const t0 = cpuMs();
      const tree = runtime.parser.parse(text);
      parseMs += cpuMs() - t0;
      if (!tree) continue;
      const rootNode = tree.rootNode;
      const vs = lang.variants;
      for (let k = 0; k < vs.length; k++) {
        const v = vs[(k + n) % vs.length];
        const t = cpuMs();
        const out = v.captures ? v.query.captures(rootNode) : v.query.matches(rootNode);
        v.cpu += cpuMs() - t;
        if (v.name === "all" && pass === 0)
          for (const m of out) {
            lang.matches[m.patternIndex]++;
            lang.captures[m.patternIndex] += m.captures.length;
          }
      }
      n++;
      tree.delete();
    }
    process.stderr.write(`${path.basename(root)}: pass ${pass + 1}/${PASSES}, load ${os.loadavg()[0].toFixed(2)}\n`);
  }
  for (const [id, lang] of byLang) {
    const all = lang.variants[0].cpu;
    const rows = lang.variants
      .filter((v) => v.unit)
      .map((v) => {
        const matches = v.unit.patterns.reduce((s, i) => s + lang.matches[i], 0);
        const captures = v.unit.patterns.reduce((s, i) => s + lang.captures[i], 0);
        return { unit: v.unit.name, patterns: v.unit.patterns, ms: (all - v.cpu) / PASSES, matches, captures };
      })
      .sort((a, b) => b.ms - a.ms);
    const special = Object.fromEntries(lang.variants.filter((v) => !v.unit).map((v) => [v.name, v.cpu / PASSES]));
    const languageFiles = files.filter((f) => f.spec.id === id).length;
    results.push({
      corpus: root,
      language: id,
      files: languageFiles,
      patterns: lang.patterns.length,
      by: BY,
      passes: PASSES,
      parseMsAllLanguages: parseMs / PASSES,
      queryMs: all / PASSES,
      special,
      units: rows,
      load: { before: loadBefore, after: os.loadavg() },
    });
    const sumUnits = rows.reduce((s, r) => s + r.ms, 0);
    console.log(
      `\n### ${path.basename(root)}, ${languageById(id).name}: ${languageFiles} files, ${lang.patterns.length} patterns, ` +
        `${PASSES} pass(es)\n`,
    );
    console.log(
      mdTable(
        ["variant", "CPU ms", "÷ all"],
        Object.entries(special).map(([name, ms]) => [name, fmt(ms, 0), fmt(ms / special.all, 2)]),
      ),
    );
    console.log(
      `\nparse (every language of the corpus) ${fmt(parseMs / PASSES, 0)} ms; units' marginal costs sum to ` +
        `${fmt(sumUnits, 0)} ms of the query's ${fmt(all / PASSES, 0)}\n`,
    );
    console.log(
      mdTable(
        ["unit (disabled)", "CPU ms it costs", "share of the query", "matches", "captures"],
        rows
          .slice(0, TOP)
          .map((r) => [
            r.unit.replace(/\|/g, "\\|"),
            fmt(r.ms, 0),
            fmt(r.ms / (all / PASSES), 3),
            r.matches,
            r.captures,
          ]),
      ),
    );
  }
}
const m = machine();
console.log(
  `\n${m.cpu}; load ${os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(" ")}`,
);
writeJson(path.resolve(resultsDir, String(flags.out ?? "query-patterns.json")), { machine: m, results });
