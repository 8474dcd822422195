#!/usr/bin/env node
// The impact benchmark: `codeslice changes` on real commits of pinned repositories.
//
// (a) Changed symbols. For each commit, `codeslice changes --base <parent> --head <commit> --json`
//     lists the definitions the commit changed. The gold comes from the diff itself, with no
//     codeslice code involved: every line `git diff -M -U0 <parent> <commit>` removes (old side) or
//     adds (new side) is mapped to the innermost definition enclosing it on that side, found by
//     CPython's `ast` (impact/pydefs.py) or the TypeScript compiler (impact/tsdefs.mjs), as the
//     localize benchmark does. Scored as precision / recall at two levels: functions (functions,
//     methods, constructors, accessors) and all definitions (plus classes, interfaces, types).
// (b) Tests. For commits that also modified test files: are the test files the commit modified
//     among the tests codeslice associates with the changed code (`impact.tests`: tests calling a
//     changed definition within 3 hops, or importing a changed file), and among the answer's
//     `test` chunks? Reported as the share of modified test files found.
//
// Usage: npm run bench -- impact [--repos a,b] [--per-repo N] [--budget N] [--git-mirror TEMPLATE]
//                                [--fetch-only] [--scan N] [--out NAME]
// Repositories are cloned (full history) into $CODESLICE_BENCH_CACHE/impact/<name> from GitHub, or
// from a local mirror: --git-mirror '/srv/mirror/{owner}+{name}/repo'. See impact/README.md.
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  benchCache,
  codesliceRevision,
  ensureBuilt,
  fmt,
  machine,
  mdTable,
  resultsDir,
  runCli,
} from "./lib/bench-utils.mjs";
import { defsOfTs } from "./impact/tsdefs.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
const flag = (name) => argv.includes(`--${name}`);
const opt = (name, dflt) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : dflt;
};
if (flag("help")) {
  console.log(
    "usage: node test/bench/impact-bench.mjs [--repos a,b] [--per-repo N] [--budget N] [--scan N] [--git-mirror TEMPLATE] [--fetch-only] [--out NAME]",
  );
  process.exit(0);
}
const config = JSON.parse(fs.readFileSync(path.join(here, "impact/repos.json"), "utf8"));
const only = opt("repos", "") ? opt("repos", "").split(",") : undefined;
const repos = config.repos.filter((r) => !only || only.includes(r.name));
const perRepo = Number(opt("per-repo", "15"));
const scanLimit = Number(opt("scan", "400"));
const budget = Number(opt("budget", "8000"));
const mirror = opt("git-mirror", undefined);
/** Results go to test/bench/results/<name>.json and .md (`--out`), so a run at another budget keeps the default run's files. */
const resultsName = opt("out", "impact");
const workRoot = path.join(benchCache, "impact");

/** Files whose changes are not gold (generated, declarations, vendored). */
const SOURCE = /\.(py|ts|tsx)$/;
const NOT_SOURCE = /\.d\.ts$|(^|\/)(node_modules|vendor|dist|build)\//;
/** Test files, as the localize benchmark defines them (independent of codeslice's own rule). */
const TEST =
  /(^|\/)(tests?|__tests__|spec|specs|e2e|[^/]*[-_]tests)\/|(^|\/)test_[^/]*\.py$|_test\.[a-z]+$|\.(test|spec)\.[a-z]+$|(^|\/)conftest\.py$/;
const FUNCTION_KINDS = new Set(["function", "method", "constructor", "getter", "setter"]);
/** Commits changing more source files than this are left out (mass renames, reformatting). */
const MAX_SOURCE_FILES = 30;

const git = (dir, args, opts = {}) =>
  execFileSync("git", ["-C", dir, "-c", "core.quotePath=false", ...args], {
    encoding: "utf8",
    maxBuffer: 1 << 28,
    stdio: ["ignore", "pipe", "pipe"],
    ...opts,
  });

// ------------------------------------------------------------------ repositories

function ensureClone(repo) {
  const dir = path.join(workRoot, repo.name);
  const [owner, name] = repo.git.split("/");
  const source = mirror
    ? mirror.replaceAll("{owner}", owner).replaceAll("{name}", name)
    : `https://github.com/${repo.git}.git`;
  if (!fs.existsSync(path.join(dir, ".git"))) {
    fs.mkdirSync(workRoot, { recursive: true });
    console.error(`cloning ${repo.git} from ${source}`);
    execFileSync("git", ["clone", "--quiet", "--no-checkout", source, dir], { stdio: "inherit" });
  }
  try {
    git(dir, ["cat-file", "-e", `${repo.head}^{commit}`]);
  } catch {
    execFileSync("git", ["-C", dir, "fetch", "--quiet", source, repo.head], { stdio: "inherit" });
  }
  if (git(dir, ["rev-parse", "--is-shallow-repository"]).trim() === "true")
    throw new Error(`${dir} is a shallow clone; the benchmark needs full history`);
  return dir;
}

/** A second clone codeslice runs in (checked out per commit; the pinned clone stays untouched). */
function ensureWorkTree(repo, clone) {
  const dir = path.join(workRoot, "work", repo.name);
  if (!fs.existsSync(path.join(dir, ".git"))) {
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    execFileSync("git", ["clone", "--quiet", "--no-checkout", clone, dir], { stdio: "inherit" });
  }
  return dir;
}

// ------------------------------------------------------------------ gold

/** Files a commit changed: status, old and new path, and the touched line numbers of each side. */
function diffOf(dir, parent, commit) {
  const text = git(dir, ["diff", "-M", "-U0", "--no-color", "--no-ext-diff", parent, commit]);
  const files = [];
  let cur;
  for (const line of text.split("\n")) {
    if (line.startsWith("diff --git ")) {
      cur = { oldPath: undefined, newPath: undefined, oldLines: [], newLines: [], binary: false };
      files.push(cur);
    } else if (!cur) continue;
    else if (line.startsWith("--- ")) cur.oldPath = line === "--- /dev/null" ? undefined : line.slice(6);
    else if (line.startsWith("+++ ")) cur.newPath = line === "+++ /dev/null" ? undefined : line.slice(6);
    else if (line.startsWith("rename from ")) cur.oldPath = line.slice(12);
    else if (line.startsWith("rename to ")) cur.newPath = line.slice(10);
    else if (line.startsWith("Binary files")) cur.binary = true;
    else if (line.startsWith("@@ ")) {
      const m = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(line);
      const [os, ol, ns, nl] = [
        Number(m[1]),
        m[2] === undefined ? 1 : Number(m[2]),
        Number(m[3]),
        m[4] === undefined ? 1 : Number(m[4]),
      ];
      for (let i = 0; i < ol; i++) cur.oldLines.push(os + i);
      for (let i = 0; i < nl; i++) cur.newLines.push(ns + i);
    }
  }
  // A pure rename has no ---/+++ lines: the paths came from `rename from/to`.
  return files.filter((f) => f.oldPath !== undefined || f.newPath !== undefined);
}

function show(dir, rev, file) {
  try {
    return git(dir, ["show", `${rev}:${file}`]);
  } catch {
    return undefined;
  }
}

/** Definitions of many Python sources at once (one interpreter). */
function pyDefs(items) {
  if (!items.length) return {};
  const r = spawnSync("python3", [path.join(here, "impact/pydefs.py")], {
    input: JSON.stringify(items),
    encoding: "utf8",
    maxBuffer: 1 << 28,
  });
  if (r.status !== 0) throw new Error(`pydefs.py failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

function defsOf(sources) {
  const py = pyDefs(sources.filter((s) => s.path.endsWith(".py")).map((s) => ({ key: s.key, source: s.text })));
  const out = {};
  for (const s of sources) {
    if (s.path.endsWith(".py")) out[s.key] = py[s.key]?.ok ? py[s.key].defs : null;
    else {
      try {
        out[s.key] = defsOfTs(s.path, s.text).defs;
      } catch {
        out[s.key] = null;
      }
    }
  }
  return out;
}

/** The innermost definition enclosing `line`. */
function innermost(defs, line) {
  let best;
  for (const d of defs)
    if (
      d.start <= line &&
      d.end >= line &&
      (!best || d.start > best.start || (d.start === best.start && d.end <= best.end))
    )
      best = d;
  return best;
}

/**
 * The gold of one commit: for every touched line of a changed .py/.ts/.tsx file, the innermost
 * definition on that side. Keys are `path::qual` with the head-side path (the old path for a file
 * the commit deleted). Undefined when a file does not parse (the commit is then left out).
 */
function goldOf(dir, parent, commit, files) {
  const sources = [];
  for (const f of files) {
    if (f.oldPath) sources.push({ key: `old:${f.oldPath}`, path: f.oldPath, text: show(dir, parent, f.oldPath) ?? "" });
    if (f.newPath) sources.push({ key: `new:${f.newPath}`, path: f.newPath, text: show(dir, commit, f.newPath) ?? "" });
  }
  const defs = defsOf(sources);
  const gold = new Map(); // key → { path, qual, kind, test, side, start, end, norms }
  for (const f of files) {
    const path = f.newPath ?? f.oldPath;
    const oldText = f.oldPath ? (sources.find((x) => x.key === `old:${f.oldPath}`)?.text ?? "").split("\n") : [];
    const newText = f.newPath ? (sources.find((x) => x.key === `new:${f.newPath}`)?.text ?? "").split("\n") : [];
    const add = (d, side, line) => {
      const key = `${path}::${d.qual}`;
      const g = gold.get(key) ?? {
        path,
        qual: d.qual,
        kind: d.kind,
        test: TEST.test(path),
        sides: new Set(),
        touched: { old: [], new: [] },
        blankOnly: true,
      };
      g.sides.add(side);
      g.touched[side].push(line);
      if (((side === "old" ? oldText : newText)[line - 1] ?? "").trim() !== "") g.blankOnly = false;
      if (side === "new") Object.assign(g, { start: d.start, end: d.end });
      if (side === "old" && g.oldStart === undefined) Object.assign(g, { oldStart: d.start, oldEnd: d.end });
      gold.set(key, g);
    };
    const oldDefs = f.oldPath ? defs[`old:${f.oldPath}`] : [];
    const newDefs = f.newPath ? defs[`new:${f.newPath}`] : [];
    if (oldDefs === null || newDefs === null) return undefined;
    for (const line of f.oldLines) {
      const d = innermost(oldDefs, line);
      if (d) add(d, "old", line);
    }
    for (const line of f.newLines) {
      const d = innermost(newDefs, line);
      if (d) add(d, "new", line);
    }
  }
  return gold;
}

/** Newest-first commits of the first-parent history that change code, up to `perRepo`. */
function selectCommits(repo, dir) {
  const ids = git(dir, ["rev-list", "--first-parent", `--max-count=${scanLimit}`, repo.head])
    .trim()
    .split("\n");
  const picked = [];
  const rejected = {};
  const reject = (why) => (rejected[why] = (rejected[why] ?? 0) + 1);
  for (const commit of ids) {
    if (picked.length >= perRepo) break;
    const parents = git(dir, ["rev-list", "--parents", "-n", "1", commit]).trim().split(" ").slice(1);
    if (!parents.length) {
      reject("root commit");
      continue;
    }
    const parent = parents[0];
    const files = diffOf(dir, parent, commit).filter(
      (f) => !f.binary && SOURCE.test(f.newPath ?? f.oldPath) && !NOT_SOURCE.test(f.newPath ?? f.oldPath),
    );
    const code = files.filter((f) => !TEST.test(f.newPath ?? f.oldPath));
    if (!code.length) {
      reject("no .py/.ts/.tsx change outside tests");
      continue;
    }
    if (code.length > MAX_SOURCE_FILES) {
      reject(`more than ${MAX_SOURCE_FILES} source files`);
      continue;
    }
    const gold = goldOf(dir, parent, commit, files);
    if (!gold) {
      reject("a changed file does not parse (gold tools)");
      continue;
    }
    if (![...gold.values()].some((g) => !g.test && FUNCTION_KINDS.has(g.kind))) {
      reject("no function touched outside tests");
      continue;
    }
    const testFiles = files.filter((f) => f.newPath && TEST.test(f.newPath)).map((f) => f.newPath);
    picked.push({
      commit,
      parent,
      subject: git(dir, ["log", "-1", "--format=%s", commit]).trim(),
      files,
      gold,
      testFiles,
    });
  }
  return { picked, rejected, scanned: ids.length };
}

// ------------------------------------------------------------------ scoring

const keyOf = (p, q) => `${p}::${q}`;

/** codeslice's changed definitions as gold-style keys (a rename names both sides). */
function predicted(answer, files) {
  const renamedPath = new Map(
    files.filter((f) => f.oldPath && f.newPath && f.oldPath !== f.newPath).map((f) => [f.oldPath, f.newPath]),
  );
  const out = new Map();
  for (const s of answer.symbols) {
    const path = s.side === "base" ? (renamedPath.get(s.path) ?? s.path) : s.path;
    out.set(keyOf(path, s.name), { kind: s.kind, test: TEST.test(path) });
    if (s.old?.name && s.old.name !== s.name) out.set(keyOf(path, s.old.name), { kind: s.kind, test: TEST.test(path) });
  }
  return out;
}

/** Roles of the answer's chunks that show changed code (not callers, routes or tests reached). */
const CHANGE_ROLES = new Set(["changed", "added", "removed"]);

/**
 * (c) Production symbols shown: the gold definitions outside tests that are in one of the answer's
 * changed-code chunks (in full or as an outline): a chunk of that definition (by its in-file name),
 * one whose lines hold the definition's lines on either side (a method shown inside its new class,
 * a nested function inside its changed parent, whose diff shows every changed line), or the file's
 * module-level chunk when the definition's touched lines are module-level lines to codeslice
 * (`@overload` stubs). `strict` counts every gold definition; the other count leaves out those
 * whose touched lines are all blank (a blank line added between two methods maps to the class).
 */
function shownProduction(goldMap, answer, files) {
  const renamedPath = new Map(
    files.filter((f) => f.oldPath && f.newPath && f.oldPath !== f.newPath).map((f) => [f.oldPath, f.newPath]),
  );
  const chunks = answer.chunks
    .filter((ch) => CHANGE_ROLES.has(ch.role))
    .map((ch) => ({ ...ch, goldPath: ch.side === "base" ? (renamedPath.get(ch.path) ?? ch.path) : ch.path }));
  const named = new Set();
  const spans = []; // { path, side, start, end }
  for (const ch of chunks) {
    if (ch.kind === "module-code") continue;
    spans.push({ path: ch.goldPath, side: ch.side === "base" ? "old" : "new", start: ch.start, end: ch.end });
    for (const s of answer.symbols) {
      const same = s.path === ch.path && s.side === ch.side && s.start === ch.start && s.end === ch.end;
      if (!same) continue;
      named.add(keyOf(ch.goldPath, s.name));
      if (s.old?.name) named.add(keyOf(ch.goldPath, s.old.name));
      if (s.old) spans.push({ path: ch.goldPath, side: "old", start: s.old.start, end: s.old.end });
    }
  }
  const moduleShown = new Set(chunks.filter((ch) => ch.kind === "module-code").map((ch) => ch.goldPath));
  const inRanges = (line, ranges) => ranges.some(([a, b]) => line >= a && line <= b);
  const prod = [...goldMap].filter(([, g]) => !g.test);
  const shown = [];
  const missed = [];
  for (const [key, g] of prod) {
    const inside = ["old", "new"].some(
      (side) =>
        g.touched[side].length > 0 &&
        spans.some(
          (sp) => sp.path === g.path && sp.side === side && g.touched[side].every((l) => l >= sp.start && l <= sp.end),
        ),
    );
    const file = answer.files.find((f) => f.path === g.path);
    const asModule =
      moduleShown.has(g.path) &&
      file &&
      ["old", "new"].some((side) => g.touched[side].some((l) => inRanges(l, file.moduleLines[side])));
    (named.has(key) || inside || asModule ? shown : missed).push(key);
  }
  const blank = new Set(prod.filter(([, g]) => g.blankOnly).map(([k]) => k));
  return {
    gold: prod.length,
    shown: shown.length,
    missed,
    goldNonBlank: prod.length - blank.size,
    shownNonBlank: shown.filter((k) => !blank.has(k)).length,
  };
}

function score(goldMap, predMap, keep) {
  const gold = [...goldMap].filter(([, g]) => keep(g.kind)).map(([k]) => k);
  const pred = [...predMap].filter(([, p]) => keep(p.kind)).map(([k]) => k);
  const g = new Set(gold);
  const tp = pred.filter((k) => g.has(k)).length;
  return {
    gold: gold.length,
    predicted: pred.length,
    tp,
    missed: gold.filter((k) => !predMap.has(k)),
    extra: pred.filter((k) => !g.has(k)),
  };
}

const isFunction = (kind) => FUNCTION_KINDS.has(kind);
const isDefinition = () => true;

function summarize(rows) {
  const sum = (f) => rows.reduce((n, r) => n + f(r), 0);
  const level = (name) => {
    const tp = sum((r) => r[name].tp);
    const pred = sum((r) => r[name].predicted);
    const gold = sum((r) => r[name].gold);
    const scored = rows.filter((r) => r[name].gold > 0);
    return {
      precision: pred ? tp / pred : null,
      recall: gold ? tp / gold : null,
      gold,
      predicted: pred,
      tp,
      commits_all_found: scored.filter((r) => r[name].tp === r[name].gold).length,
      commits_scored: scored.length,
    };
  };
  const withTests = rows.filter((r) => r.tests.modified.length > 0);
  const tsum = (f) => withTests.reduce((n, r) => n + f(r.tests), 0);
  return {
    commits: rows.length,
    functions: level("functions"),
    code_functions: level("code"),
    definitions: level("definitions"),
    tests: {
      commits: withTests.length,
      modified_test_files: tsum((t) => t.modified.length),
      found_by_calls: tsum((t) => t.foundByCalls.length),
      found_by_calls_or_imports: tsum((t) => t.found.length),
      in_bundle_test_role: tsum((t) => t.inBundle.length),
      share_by_calls: tsum((t) => t.modified.length)
        ? tsum((t) => t.foundByCalls.length) / tsum((t) => t.modified.length)
        : null,
      share: tsum((t) => t.modified.length) ? tsum((t) => t.found.length) / tsum((t) => t.modified.length) : null,
      commits_all_found: withTests.filter((r) => r.tests.found.length === r.tests.modified.length).length,
      commits_any_found: withTests.filter((r) => r.tests.found.length > 0).length,
    },
    production_shown: {
      gold: sum((r) => r.shown.gold),
      shown: sum((r) => r.shown.shown),
      commits_all_shown: rows.filter((r) => r.shown.gold > 0 && r.shown.shown === r.shown.gold).length,
      commits_scored: rows.filter((r) => r.shown.gold > 0).length,
      commits_all_shown_nonblank: rows.filter(
        (r) => r.shown.goldNonBlank > 0 && r.shown.shownNonBlank === r.shown.goldNonBlank,
      ).length,
      commits_scored_nonblank: rows.filter((r) => r.shown.goldNonBlank > 0).length,
    },
    errors: rows.filter((r) => r.error).length,
    cpu_s_median: median(rows.map((r) => r.cpu).filter((x) => x != null)),
    wall_s_median: median(rows.map((r) => r.wall).filter((x) => x != null)),
    tokens_median: median(rows.map((r) => r.tokens).filter((x) => x != null)),
  };
}

function median(xs) {
  if (!xs.length) return null;
  const v = [...xs].sort((a, b) => a - b);
  return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
}

// ------------------------------------------------------------------ run

const clones = repos.map((r) => ({ repo: r, dir: ensureClone(r) }));
if (flag("fetch-only")) {
  for (const c of clones) console.log(`${c.repo.name}: ${c.dir} at ${c.repo.head}`);
  process.exit(0);
}
ensureBuilt();
const rows = [];
const selection = {};
for (const { repo, dir } of clones) {
  const { picked, rejected, scanned } = selectCommits(repo, dir);
  selection[repo.name] = { scanned, picked: picked.length, rejected };
  console.error(`${repo.name}: ${picked.length} commits (scanned ${scanned}; left out: ${JSON.stringify(rejected)})`);
  const work = ensureWorkTree(repo, dir);
  const cache = path.join(workRoot, "cache", repo.name);
  // Oldest first: each checkout changes few files, so the index stays incremental.
  for (const c of [...picked].reverse()) {
    git(work, ["checkout", "--quiet", "--force", "--detach", c.commit]);
    git(work, ["clean", "-fdxq"]);
    const row = {
      repo: repo.name,
      commit: c.commit.slice(0, 12),
      subject: c.subject.slice(0, 100),
      files: c.files.length,
    };
    let answer;
    try {
      const r = await runCli([
        "changes",
        "--base",
        c.parent,
        "--head",
        c.commit,
        "--json",
        "--quiet",
        "--budget",
        String(budget),
        "--root",
        work,
        "--cache-dir",
        cache,
      ]);
      answer = JSON.parse(r.stdout);
      Object.assign(row, { wall: r.wall, cpu: r.cpu, tokens: answer.usage.tokens });
    } catch (error) {
      row.error = String(error.message).split("\n").slice(0, 3).join(" ");
      answer = { symbols: [], impact: { tests: [] }, chunks: [] };
    }
    const pred = predicted(answer, c.files);
    row.functions = score(c.gold, pred, isFunction);
    row.code = score(
      new Map([...c.gold].filter(([, g]) => !g.test)),
      new Map([...pred].filter(([, p]) => !p.test)),
      isFunction,
    );
    row.definitions = score(c.gold, pred, isDefinition);
    row.shown = shownProduction(c.gold, answer, c.files);
    // (b) tests: modified test files (existing at the commit) among codeslice's associated tests.
    const modified = c.testFiles.filter((p) => SOURCE.test(p) && !NOT_SOURCE.test(p));
    const byCalls = new Set(answer.impact.tests.filter((t) => t.via !== "import").map((t) => t.path));
    const all = new Set([
      ...answer.impact.tests.map((t) => t.path),
      ...answer.chunks.filter((ch) => ch.role === "test").map((ch) => ch.path),
    ]);
    const bundle = new Set(answer.chunks.filter((ch) => ch.role === "test").map((ch) => ch.path));
    row.tests = {
      modified,
      foundByCalls: modified.filter((p) => byCalls.has(p)),
      found: modified.filter((p) => all.has(p)),
      inBundle: modified.filter((p) => bundle.has(p)),
      associated: all.size,
    };
    rows.push(row);
    console.error(
      `  ${row.commit} code fn P ${row.code.tp}/${row.code.predicted} R ${row.code.tp}/${row.code.gold}  all fn R ${row.functions.tp}/${row.functions.gold}  tests ${row.tests.found.length}/${modified.length}  shown ${row.shown.shown}/${row.shown.gold}${row.error ? `  ERROR ${row.error}` : ""}  ${row.subject.slice(0, 60)}`,
    );
  }
}

const perRepoSummary = Object.fromEntries(repos.map((r) => [r.name, summarize(rows.filter((x) => x.repo === r.name))]));
const total = summarize(rows);
const pct = (x) => (x == null ? "–" : `${(100 * x).toFixed(1)}%`);
const table = mdTable(
  [
    "repository",
    "language",
    "commits",
    "fn precision (code)",
    "fn recall (code)",
    "fn precision (all)",
    "fn recall (all)",
    "def precision",
    "def recall",
    "commits w/ tests",
    "modified test files found (calls)",
    "(calls or imports)",
    "commits: a modified test found",
    "commits: all found",
    "commits: production shown",
    "(blank-only left out)",
    "median CPU s",
  ],
  [...repos.map((r) => [r.name, r.language, perRepoSummary[r.name]]), ["all", "", total]].map(([name, lang, s]) => [
    name,
    lang,
    s.commits,
    pct(s.code_functions.precision),
    pct(s.code_functions.recall),
    pct(s.functions.precision),
    pct(s.functions.recall),
    pct(s.definitions.precision),
    pct(s.definitions.recall),
    s.tests.commits,
    `${s.tests.found_by_calls}/${s.tests.modified_test_files} (${pct(s.tests.share_by_calls)})`,
    `${s.tests.found_by_calls_or_imports}/${s.tests.modified_test_files} (${pct(s.tests.share)})`,
    `${s.tests.commits_any_found}/${s.tests.commits} (${pct(s.tests.commits ? s.tests.commits_any_found / s.tests.commits : null)})`,
    `${s.tests.commits_all_found}/${s.tests.commits} (${pct(s.tests.commits ? s.tests.commits_all_found / s.tests.commits : null)})`,
    `${s.production_shown.commits_all_shown}/${s.production_shown.commits_scored} (${pct(s.production_shown.commits_scored ? s.production_shown.commits_all_shown / s.production_shown.commits_scored : null)})`,
    `${s.production_shown.commits_all_shown_nonblank}/${s.production_shown.commits_scored_nonblank} (${pct(s.production_shown.commits_scored_nonblank ? s.production_shown.commits_all_shown_nonblank / s.production_shown.commits_scored_nonblank : null)})`,
    fmt(s.cpu_s_median, 2),
  ]),
);
console.log(table);
const result = {
  benchmark: "impact",
  revision: codesliceRevision(),
  machine: machine(),
  date: new Date().toISOString(),
  settings: { results: resultsName, per_repo: perRepo, scan: scanLimit, budget, max_source_files: MAX_SOURCE_FILES },
  repos: repos.map((r) => ({
    name: r.name,
    git: r.git,
    head: r.head,
    language: r.language,
    selection: selection[r.name],
  })),
  total,
  per_repo: perRepoSummary,
  commits: rows.map((r) => ({
    repo: r.repo,
    commit: r.commit,
    files: r.files,
    ...(r.error ? { error: r.error } : {}),
    cpu_s: r.cpu,
    wall_s: r.wall,
    tokens: r.tokens,
    functions: {
      gold: r.functions.gold,
      predicted: r.functions.predicted,
      tp: r.functions.tp,
      missed: r.functions.missed,
      extra: r.functions.extra,
    },
    code_functions: { gold: r.code.gold, predicted: r.code.predicted, tp: r.code.tp },
    definitions: { gold: r.definitions.gold, predicted: r.definitions.predicted, tp: r.definitions.tp },
    production_shown: {
      gold: r.shown.gold,
      shown: r.shown.shown,
      missed: r.shown.missed,
      gold_nonblank: r.shown.goldNonBlank,
      shown_nonblank: r.shown.shownNonBlank,
    },
    tests: {
      modified: r.tests.modified.length,
      found_by_calls: r.tests.foundByCalls.length,
      found: r.tests.found.length,
      in_bundle: r.tests.inBundle.length,
      associated: r.tests.associated,
      missed: r.tests.modified.filter((p) => !r.tests.found.includes(p)),
    },
  })),
};
fs.mkdirSync(resultsDir, { recursive: true });
fs.writeFileSync(path.join(resultsDir, `${resultsName}.json`), `${JSON.stringify(result, null, 2)}\n`);
fs.writeFileSync(
  path.join(resultsDir, `${resultsName}.md`),
  `# Impact benchmark\n\n${result.revision}, ${result.date.slice(0, 10)}; budget ${budget}; ${rows.length} commits.\n\n${table}\n`,
);
console.error(
  `wrote ${path.relative(process.cwd(), path.join(resultsDir, `${resultsName}.json`))} and ${resultsName}.md`,
);
