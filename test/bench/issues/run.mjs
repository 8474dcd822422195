#!/usr/bin/env node
// Issue-report localization benchmark: does codeslice find the code a bug report is about?
// Cases (cases.json in $CODESLICE_CORPORA/issues, see README.md) are public GitHub issues and the
// commits that fixed them; the target is the issue's title + "\n\n" + description, run on the
// fix's parent commit; the gold is the fix's non-test source files and changed functions.
// Systems, all in the same run on the same checkout:
//   codeslice-locate    `locate "<text>" --json` (ranked files, symbols under each); skipped with
//                       a note when the CLI has no `locate` command
//   codeslice-context   `context "<text>" --budget B --json --quiet` for each budget
//   codeslice-search    `search "<text>" --json --limit 50` (files in symbol order)
//   bm25-whole          the shared localize tool's BM25 over whole files (ranking; answers at B)
//   grep-window         the shared localize tool's grep -C5 windows ranked by summed IDF (at B)
// Metrics: file Acc@1/3/5 (a gold file among the first k distinct files), function Acc@5/10 (a
// gold function among the first k symbols; locate and search), and whether a gold file / gold
// function is in the answer at each budget (context, bm25-whole, grep-window).
//
// usage: node test/bench/issues/run.mjs [options]
//   --cases FILE      cases (default $CODESLICE_CORPORA/issues/cases.json)
//   --cli PATH        a built CLI (…/dist/cli/main.js, used as is) or a checkout folder (its dist/,
//                     wasm/ and package.json are copied to a frozen folder first); default: this
//                     checkout, frozen
//   --split S         tune | test | all (default all): cases split by a hash of their id
//   --repos a,b       only these repositories
//   --limit N         only the N oldest cases per repository
//   --systems a,b     codeslice-locate,codeslice-context,codeslice-search,bm25-whole,grep-window
//   --budgets LIST    o200k budgets (default 2000,4000,8000)
//   --raw FILE        per-case rows (default $CODESLICE_CORPORA/issues/results/rows-<date>[-partial].json)
//   --summary FILE    aggregate (default test/bench/results/issues.json for a full run, else
//                     $CODESLICE_CORPORA/issues/results/summary-partial.json)
// env: CODESLICE_CORPORA (default <checkout>/../corpora), LOCALIZE_TOOL (default
//      <checkout>/../shared/tools/localize), ISSUES_WORK (checkouts and caches; default
//      $CODESLICE_CORPORA/issues/work)
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as utils from "../lib/bench-utils.mjs";
import {
  codesliceRevision,
  ensureBuilt,
  machine,
  parseArgs,
  repoRoot,
  resultsDir,
  writeJson,
} from "../lib/bench-utils.mjs";
import { corporaDir, die } from "../localize/lib.mjs";
import { loadTool } from "./tool.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const config = JSON.parse(fs.readFileSync(path.join(here, "config.json"), "utf8"));
const { flags } = parseArgs(process.argv.slice(2), ["help"]);
if (flags.help) {
  console.log(
    fs
      .readFileSync(fileURLToPath(import.meta.url), "utf8")
      .split("\n")
      .filter((l) => l.startsWith("//"))
      .map((l) => l.slice(3))
      .join("\n"),
  );
  process.exit(0);
}
const ALL_SYSTEMS = ["codeslice-locate", "codeslice-context", "codeslice-search", "bm25-whole", "grep-window"];
const base = path.join(corporaDir(), "issues");
const casesFile = path.resolve(flags.cases || path.join(base, "cases.json"));
if (!fs.existsSync(casesFile)) die(`${casesFile} does not exist: build the cases first (README.md, "Gathering")`);
const casesDoc = JSON.parse(fs.readFileSync(casesFile, "utf8"));
const split = flags.split || "all";
if (!["tune", "test", "all"].includes(split)) die(`--split ${split}: tune, test or all`);
const repos = flags.repos ? String(flags.repos).split(",") : Object.keys(config.repos);
for (const r of repos)
  if (!config.repos[r]) die(`--repos ${r}: not in config.json (${Object.keys(config.repos).join(", ")})`);
let systems = flags.systems ? String(flags.systems).split(",") : [...ALL_SYSTEMS];
for (const s of systems) if (!ALL_SYSTEMS.includes(s)) die(`--systems ${s}: one of ${ALL_SYSTEMS.join(", ")}`);
const budgets = flags.budgets ? String(flags.budgets).split(",").map(Number) : config.budgets;
if (!budgets.length || budgets.some((b) => !(b > 0))) die("--budgets takes positive numbers");
const limit = flags.limit ? Number(flags.limit) : Infinity;
const partial = Boolean(flags.limit || flags.repos || flags.systems || flags.budgets || flags.cases || split !== "all");
const date = new Date().toISOString().slice(0, 10);
const outDir = path.join(base, "results");
fs.mkdirSync(outDir, { recursive: true });
const rawFile = path.resolve(flags.raw || path.join(outDir, `rows-${date}${partial ? "-partial" : ""}.json`));
const summaryFile = path.resolve(
  flags.summary || (partial ? path.join(outDir, "summary-partial.json") : path.join(resultsDir, "issues.json")),
);
const work = path.resolve(process.env.ISSUES_WORK || path.join(base, "work"));

// ---------------------------------------------------------------- the CLI under test (frozen)

function freeze(checkout) {
  const frozen = fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-issues-build-"));
  process.on("exit", () => fs.rmSync(frozen, { recursive: true, force: true }));
  for (const item of ["dist", "wasm", "package.json"])
    fs.cpSync(path.join(checkout, item), path.join(frozen, item), { recursive: true });
  fs.symlinkSync(path.join(checkout, "node_modules"), path.join(frozen, "node_modules"), "dir");
  return path.join(frozen, "dist/cli/main.js");
}
let cli, revision;
if (flags.cli) {
  const p = path.resolve(String(flags.cli));
  if (fs.existsSync(path.join(p, "dist/cli/main.js"))) {
    let rev = "unknown";
    try {
      rev = execFileSync("git", ["-C", p, "rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
    } catch {
      /* not git */
    }
    revision = `${rev} (${p}, dist built ${fs.statSync(path.join(p, "dist/cli/main.js")).mtime.toISOString().slice(0, 19).replace("T", " ")} UTC)`;
    cli = freeze(p);
  } else if (fs.existsSync(p)) {
    cli = p;
    revision = `${p} (as given)`;
  } else die(`--cli ${p}: neither a built CLI nor a checkout with dist/cli/main.js`);
} else {
  ensureBuilt();
  cli = utils.cliPath;
  revision = codesliceRevision();
}
const help = spawnSync(process.execPath, [cli, "--help"], { encoding: "utf8" }).stdout || "";
const version = spawnSync(process.execPath, [cli, "--version"], { encoding: "utf8" }).stdout.trim();
const notes = [];
if (systems.includes("codeslice-locate") && !/^\s+locate\b/m.test(help)) {
  systems = systems.filter((s) => s !== "codeslice-locate");
  notes.push("codeslice-locate skipped: this CLI has no `locate` command");
}

// ---------------------------------------------------------------- scoring

const T = await loadTool();
const DECORATOR_SLACK = 3; // codeslice may give a decorated definition's first decorator line
const fnHit = (c, p, line) =>
  c.functions.some((f) => f.path === p && line >= f.start - DECORATOR_SLACK && line <= f.end);
const fnOverlap = (c, p, a, z) => c.functions.some((f) => f.path === p && a <= f.end && z >= f.start);
const firstFileRank = (c, files) => {
  const i = files.findIndex((f) => c.files.includes(f));
  return i < 0 ? null : i + 1;
};
const distinct = (xs) => [...new Set(xs)];
const fileAcc = (c, files) => {
  const r = firstFileRank(c, distinct(files));
  return { file_rank: r, acc1: r !== null && r <= 1, acc3: r !== null && r <= 3, acc5: r !== null && r <= 5 };
};
function symAcc(c, syms /* [{path,line}] in rank order */) {
  const i = syms.findIndex((s) => fnHit(c, s.path, s.line));
  const r = i < 0 ? null : i + 1;
  return { fn_rank: r, fn5: r !== null && r <= 5, fn10: r !== null && r <= 10 };
}
const inAnswer = (c, chunks) => ({
  file_in: chunks.some((ch) => c.files.includes(ch.path)),
  fn_in: chunks.some((ch) => fnOverlap(c, ch.path, ch.start, ch.end)),
});

// ---------------------------------------------------------------- systems

function runCs(args) {
  const t = Date.now();
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: "utf8", maxBuffer: 1 << 28 });
  const ms = Date.now() - t;
  if (r.status !== 0) {
    const msg = (r.stderr || "").trim();
    let code = `exit ${r.status}`;
    try {
      const j = JSON.parse(r.stdout);
      code = j.error?.code || j.code || code;
    } catch {
      /* text error */
    }
    const m = msg.match(/\b([a-z]+(?:_[a-z]+)+)\b/);
    return { error: `${m ? m[1] : code}: ${msg.split("\n").slice(-2).join(" | ").slice(0, 300)}`, ms };
  }
  try {
    return { json: JSON.parse(r.stdout), ms };
  } catch (e) {
    return { error: `bad_json: ${e.message}`, ms };
  }
}

function locate(c, text, tree, cache) {
  const r = runCs(["locate", "--root", tree, "--cache-dir", cache, "--json", "--quiet", "--", text]);
  if (r.error) return { error: r.error, ms: r.ms, ...fileAcc(c, []), ...symAcc(c, []) };
  const files = (r.json.files || []).map((f) => f.path);
  const syms = [];
  (r.json.files || []).forEach((f, fi) =>
    (f.symbols || []).forEach((s, si) =>
      syms.push({ path: f.path, line: s.line, score: s.score ?? 0, fi, si, q: s.qualified }),
    ),
  );
  // symbols ranked by their own score; ties keep the file order, then the order under the file
  syms.sort((a, b) => b.score - a.score || a.fi - b.fi || a.si - b.si);
  return {
    ms: r.ms,
    ...fileAcc(c, files),
    ...symAcc(c, syms),
    top_files: files.slice(0, 5),
    top_symbols: syms.slice(0, 10).map((s) => `${s.path}:${s.line}`),
  };
}

function search(c, text, tree, cache) {
  const r = runCs(["search", "--root", tree, "--cache-dir", cache, "--json", "--quiet", "--limit", "50", "--", text]);
  if (r.error) return { error: r.error, ms: r.ms, ...fileAcc(c, []), ...symAcc(c, []) };
  const res = r.json.results || [];
  return {
    ms: r.ms,
    ...fileAcc(
      c,
      res.map((s) => s.path),
    ),
    ...symAcc(c, res),
    top_files: distinct(res.map((s) => s.path)).slice(0, 5),
  };
}

function context(c, text, budget, tree, cache) {
  const r = runCs([
    "context",
    "--budget",
    String(budget),
    "--root",
    tree,
    "--cache-dir",
    cache,
    "--json",
    "--quiet",
    "--",
    text,
  ]);
  if (r.error) return { error: r.error, ms: r.ms, ...fileAcc(c, []), file_in: false, fn_in: false, tokens: 0 };
  const chunks = (r.json.chunks || []).map((ch) => ({ path: ch.path, start: ch.start, end: ch.end }));
  return {
    ms: r.ms,
    ...fileAcc(
      c,
      chunks.map((ch) => ch.path),
    ),
    ...inAnswer(c, chunks),
    tokens: T.countTokens(r.json.text || ""),
    top_files: distinct(chunks.map((ch) => ch.path)).slice(0, 5),
  };
}

// ---------------------------------------------------------------- run

const cases = casesDoc.cases.filter((c) => repos.includes(c.repo) && (split === "all" || c.split === split));
const git = (dir, ...a) =>
  execFileSync("git", ["-C", dir, ...a], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    maxBuffer: 1 << 28,
  }).trim();
console.error(
  `codeslice ${version} ${revision} (${cli}); ${cases.length} cases (split ${split}); systems ${systems.join(", ")}; budgets ${budgets.join(", ")}`,
);
for (const n of notes) console.error(`note: ${n}`);
const rows = [];
const indexRuns = [];
const t0 = Date.now();
for (const repo of repos) {
  const rc = cases
    .filter((c) => c.repo === repo)
    .sort((a, b) => a.date.localeCompare(b.date) || a.id.localeCompare(b.id))
    .slice(0, limit);
  if (!rc.length) continue;
  const src = path.join(base, "repos", repo);
  if (!fs.existsSync(src))
    die(
      `${src} is missing: git clone ${config.repos[repo].url} ${src}   (full history; head ${config.repos[repo].head})`,
    );
  const tree = path.join(work, "trees", repo),
    cache = path.join(work, "cache", repo);
  if (!fs.existsSync(path.join(tree, ".git"))) {
    fs.mkdirSync(path.dirname(tree), { recursive: true });
    execFileSync("git", ["clone", "-q", "--no-checkout", src, tree]);
  }
  for (const c of rc) {
    try {
      git(tree, "cat-file", "-e", `${c.parent}^{commit}`);
    } catch {
      git(tree, "fetch", "-q", src, "+refs/heads/*:refs/remotes/src/*");
    }
    git(tree, "checkout", "-q", "-f", "--detach", c.parent);
    git(tree, "clean", "-qfdx");
    const ti = Date.now();
    const ix = spawnSync(process.execPath, [cli, "index", "--root", tree, "--cache-dir", cache, "--quiet"], {
      encoding: "utf8",
    });
    indexRuns.push({ id: c.id, ms: Date.now() - ti, status: ix.status });
    const corpus = T.corpusOf(tree);
    const text = c.query;
    const add = (system, budget, r) =>
      rows.push({
        id: c.id,
        repo,
        split: c.split,
        system,
        budget,
        chars: text.length,
        gold_files: c.files.length,
        gold_fns: c.functions.length,
        ...r,
      });
    for (const system of systems) {
      if (system === "codeslice-locate") add(system, null, locate(c, text, tree, cache));
      else if (system === "codeslice-search") add(system, null, search(c, text, tree, cache));
      else if (system === "codeslice-context")
        for (const b of budgets) add(system, b, context(c, text, b, tree, cache));
      else if (system === "bm25-whole") {
        const ts = Date.now();
        const ranked = T.bm25Rank(corpus, text).map((f) => f.path);
        const rankMs = Date.now() - ts;
        for (const b of budgets) {
          const a = T.bm25(corpus, text, b, false);
          add(system, b, {
            ms: rankMs,
            ...fileAcc(c, ranked),
            ...inAnswer(c, a.chunks),
            tokens: a.tokens,
            top_files: ranked.slice(0, 5),
          });
        }
      } else if (system === "grep-window") {
        // file Acc@k: files in order of first appearance in the largest budget's answer
        const answers = new Map(
          budgets.map((b) => {
            const ts = Date.now();
            const a = T.grepWindows(corpus, text, b);
            a.ms = Date.now() - ts;
            return [b, a];
          }),
        );
        const order = answers.get(Math.max(...budgets)).chunks.map((ch) => ch.path);
        for (const b of budgets) {
          const a = answers.get(b);
          add(system, b, {
            ms: a.ms,
            ...fileAcc(c, order),
            ...inAnswer(c, a.chunks),
            tokens: a.tokens,
            top_files: distinct(order).slice(0, 5),
          });
        }
      }
    }
    const mine = rows.filter((r) => r.id === c.id && (r.budget === null || r.budget === Math.max(...budgets)));
    console.error(
      `${c.id} (${c.split}, ${text.length} chars) index ${indexRuns.at(-1).ms} ms | ` +
        mine
          .map(
            (r) =>
              `${r.system} r${r.file_rank ?? "-"}${r.fn_rank !== undefined ? ` f${r.fn_rank ?? "-"}` : ""}${r.fn_in !== undefined ? ` ${r.fn_in ? "fn✓" : "fn✗"}` : ""}${r.error ? " ERR" : ""}`,
          )
          .join(" | "),
    );
  }
}

// ---------------------------------------------------------------- summary

const pct = (xs) => (xs.length ? Math.round((1000 * xs.filter(Boolean).length) / xs.length) / 10 : null);
const median = (xs) => {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};
function summarize(rs) {
  const out = {};
  for (const system of systems) {
    const mine = rs.filter((r) => r.system === system);
    if (!mine.length) continue;
    const rankRows =
      system === "codeslice-context"
        ? mine.filter((r) => r.budget === Math.max(...budgets))
        : system === "bm25-whole" || system === "grep-window"
          ? mine.filter((r) => r.budget === budgets[0])
          : mine;
    const s = {
      n: rankRows.length,
      acc1: pct(rankRows.map((r) => r.acc1)),
      acc3: pct(rankRows.map((r) => r.acc3)),
      acc5: pct(rankRows.map((r) => r.acc5)),
    };
    if (system === "codeslice-locate" || system === "codeslice-search") {
      s.fn_acc5 = pct(rankRows.map((r) => r.fn5));
      s.fn_acc10 = pct(rankRows.map((r) => r.fn10));
    }
    if (mine[0].budget !== null) {
      s.budgets = {};
      for (const b of budgets) {
        const rb = mine.filter((r) => r.budget === b);
        s.budgets[b] = {
          file_in: pct(rb.map((r) => r.file_in)),
          fn_in: pct(rb.map((r) => r.fn_in)),
          tokens_mean: Math.round(rb.reduce((a, r) => a + (r.tokens || 0), 0) / Math.max(1, rb.length)),
        };
      }
    }
    s.errors = rankRows.filter((r) => r.error).length;
    const codes = {};
    for (const r of mine.filter((r) => r.error)) {
      const k = r.error.split(":")[0];
      codes[k] = (codes[k] || 0) + 1;
    }
    if (Object.keys(codes).length) s.error_codes = codes;
    s.ms_median = median(mine.map((r) => r.ms));
    out[system] = s;
  }
  return out;
}
const ids = distinct(rows.map((r) => r.id));
const perRepo = Object.fromEntries(
  repos.filter((r) => rows.some((x) => x.repo === r)).map((r) => [r, summarize(rows.filter((x) => x.repo === r))]),
);
const bySplit = Object.fromEntries(
  ["tune", "test"]
    .filter((s) => rows.some((x) => x.split === s))
    .map((s) => [s, summarize(rows.filter((x) => x.split === s))]),
);
const PUBLISHED = {
  source: "SWE-bench Lite, 274-instance subset; LocAgent (arXiv 2503.09089) Table; SweRank (arXiv 2505.07849)",
  file_acc_1_3_5: {
    BM25: [38.7, 51.8, 61.7],
    CodeRankEmbed: [52.6, 77.7, 84.7],
    Agentless: [72.6, 79.2, 79.6],
    "LocAgent + Claude-3.5": [77.7, 92.0, 94.2],
  },
  function_acc_10: { CodeRankEmbed: 58.8, LocAgent: 77.4, SweRank: 88.7 },
};
const summary = {
  meta: {
    date,
    codeslice: { version, revision },
    cases: ids.length,
    split,
    cases_per_repo: Object.fromEntries(
      repos.map((r) => [r, distinct(rows.filter((x) => x.repo === r).map((x) => x.id)).length]).filter(([, n]) => n),
    ),
    systems,
    budgets,
    notes,
    tool: path.relative(repoRoot, (await loadTool()).source),
    rules:
      'target = issue title + "\\n\\n" + description (reporter\'s text only); Acc@k = a gold file among the first k distinct files (locate: its file list; search: files in symbol order; context: files in order of first appearance at the largest budget; bm25-whole: its ranking; grep-window: files in order of first appearance at the largest budget); fn Acc@k = a gold function among the first k symbols (path equal, line within the gold range); file_in/fn_in = a chunk of the answer at that budget is in a gold file / overlaps a gold function',
    machine: machine(),
    run_wall_s: Math.round((Date.now() - t0) / 1000),
    index_ms_median: median(indexRuns.map((r) => r.ms)),
    index_failures: indexRuns.filter((r) => r.status !== 0).length,
  },
  published: PUBLISHED,
  summary: summarize(rows),
  by_split: bySplit,
  per_repo: perRepo,
  // per case: ids and scores only (no issue text)
  cases: ids.map((id) => {
    const rs = rows.filter((r) => r.id === id);
    return {
      id,
      split: rs[0].split,
      chars: rs[0].chars,
      ...Object.fromEntries(
        rs.map((r) => [
          `${r.system}${r.budget ? `@${r.budget}` : ""}`,
          {
            rank: r.file_rank,
            ...(r.fn_rank !== undefined ? { fn_rank: r.fn_rank } : {}),
            ...(r.fn_in !== undefined ? { file_in: r.file_in, fn_in: r.fn_in } : {}),
            ...(r.error ? { error: r.error.split(":")[0] } : {}),
          },
        ]),
      ),
    };
  }),
};
writeJson(rawFile, { meta: summary.meta, rows });
writeJson(summaryFile, summary);

const f = (x) => (x === null || x === undefined ? "–" : x.toFixed(1));
const lines = [];
lines.push(
  `\n${ids.length} cases (${Object.entries(summary.meta.cases_per_repo)
    .map(([k, v]) => `${k} ${v}`)
    .join(", ")}); split ${split}; codeslice ${revision}; ${summary.meta.run_wall_s} s`,
);
for (const n of notes) lines.push(`note: ${n}`);
lines.push("");
lines.push(
  `| system | Acc@1 | Acc@3 | Acc@5 | fn Acc@5 | fn Acc@10 | ${budgets.map((b) => `file @${b / 1000}k`).join(" | ")} | ${budgets.map((b) => `fn @${b / 1000}k`).join(" | ")} | errors |`,
);
lines.push(`| --- | ${"---: | ".repeat(5 + 2 * budgets.length)}---: |`);
for (const [sys, s] of Object.entries(summary.summary)) {
  lines.push(
    `| ${sys} | ${f(s.acc1)} | ${f(s.acc3)} | ${f(s.acc5)} | ${f(s.fn_acc5)} | ${f(s.fn_acc10)} | ${budgets.map((b) => f(s.budgets?.[b]?.file_in)).join(" | ")} | ${budgets.map((b) => f(s.budgets?.[b]?.fn_in)).join(" | ")} | ${s.errors}${
      s.error_codes
        ? ` (${Object.entries(s.error_codes)
            .map(([k, v]) => `${k} ${v}`)
            .join(", ")})`
        : ""
    } |`,
  );
}
lines.push("| *published, SWE-bench Lite 274 (not these cases):* | | | | | | |");
for (const [k, v] of Object.entries(PUBLISHED.file_acc_1_3_5))
  lines.push(
    `| ${k} | ${v[0]} | ${v[1]} | ${v[2]} | | ${PUBLISHED.function_acc_10[k === "LocAgent + Claude-3.5" ? "LocAgent" : k] ?? ""} | ${budgets.map(() => "").join(" | ")} | ${budgets.map(() => "").join(" | ")} | |`,
  );
lines.push(
  `| SweRank | | | | | ${PUBLISHED.function_acc_10.SweRank} | ${budgets.map(() => "").join(" | ")} | ${budgets.map(() => "").join(" | ")} | |`,
);
console.log(lines.join("\n"));
console.error(`wrote ${summaryFile} and ${rawFile}`);
