#!/usr/bin/env node
// Cold index speed per language, on the graph-accuracy corpora: is any language a cliff?
//
// For each corpus of bench:graph (Python and TypeScript: graph-gold/corpora.mjs; Go, Java, Rust, C,
// C++ and whatever else graph-gold/langs.mjs lists) — plus, with --unlisted, any other clone under
// the gold corpora folder (<dir>/<language>/<name>, e.g. C#, Ruby, PHP corpora not yet pinned in
// langs.mjs, measured at their checked-out HEAD) — runs a cold `codeslice index --jobs 1` on a fresh
// cache folder, `--runs` times (default 3), and reports the medians of:
//   CPU seconds (user + sys, GNU time), wall seconds, peak RSS (GNU time),
//   files/s and MB/s per CPU second, and the same net of start-up: the CPU of a cold index of a
//   repository of one empty file of the language (node, the CLI, the store, that grammar and its
//   query) is measured the same way and taken off, so small corpora are not dominated by it.
// Files and bytes are those codeslice parsed (its `index --json` count), bytes from `git ls-files`
// of the files in a supported language. The corpora are indexed whole: a Java repository's few
// `.js` site files count too (the "language files" column says how many are the corpus language's).
// CPU seconds are the figure to compare: the benchmark machines are shared, and wall time moves
// with their load (noted in the results). Runs are interleaved corpus by corpus, round by round.
//
// Rerun:
//   node scripts/build.mjs && npm run bench -- lang-speed
//   npm run bench -- lang-speed --only java-gson,cpp-leveldb --runs 5
//   npm run bench -- lang-speed --unlisted            # also C#/Ruby/PHP/… clones langs.mjs does not list
// Output: a markdown table on stdout and test/bench/results/lang-speed.json.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import {
  benchCache,
  codesliceRevision,
  ensureBuilt,
  fmt,
  machine,
  mdTable,
  parseArgs,
  resultsDir,
  runCli,
  stats,
  writeJson,
} from "./lib/bench-utils.mjs";
import * as utils from "./lib/bench-utils.mjs";
import { CORPORA, missingDebianPackages, prepareCorpus } from "./graph-gold/corpora.mjs";
import { LANG_CORPORA, defaultLangCorporaDir, prepareLangCorpus } from "./graph-gold/langs.mjs";

const { flags } = parseArgs(process.argv.slice(2), ["help", "unlisted"]);
if (flags.help) {
  console.log(
    "usage: node test/bench/lang-speed.mjs [--only a,b] [--langs go,java] [--runs N] [--unlisted] [--corpora DIR] [--lang-corpora DIR]",
  );
  process.exit(0);
}
const runs = Number(flags.runs ?? 3);
const langCorporaDir = path.resolve(flags["lang-corpora"] ?? defaultLangCorporaDir());
const corporaDir = path.resolve(flags.corpora ?? path.join(benchCache, "corpora"));

// Corpora: bench:graph's, then (--unlisted) other clones of the gold folder.
let specs = [...CORPORA, ...LANG_CORPORA];
if (flags.unlisted && fs.existsSync(langCorporaDir)) {
  const listed = new Set(LANG_CORPORA.map((c) => `${c.language}/${c.short}`));
  for (const language of fs.readdirSync(langCorporaDir).sort()) {
    const dir = path.join(langCorporaDir, language);
    if (!fs.statSync(dir).isDirectory()) continue;
    for (const short of fs.readdirSync(dir).sort()) {
      if (listed.has(`${language}/${short}`) || !fs.existsSync(path.join(dir, short, ".git"))) continue;
      specs.push({ name: `${language}-${short}`, language, short, unlisted: true });
    }
  }
}
const only = flags.only ? String(flags.only).split(",") : null;
const langs = flags.langs ? String(flags.langs).split(",") : null;
if (only) specs = specs.filter((c) => only.includes(c.name));
if (langs) specs = specs.filter((c) => langs.includes(c.language));
if (only && specs.length !== only.length) {
  console.error(`--only: unknown corpus (with --unlisted, clones the gold folder holds count too)`);
  process.exit(2);
}
const aptHint = missingDebianPackages(specs.filter((s) => s.debian));
if (aptHint) {
  console.error(`Python corpora come from Debian packages that are missing. Install them with:\n  ${aptHint}`);
  process.exit(1);
}
ensureBuilt();
const { languagesForProject } = await import(
  pathToFileURL(path.join(utils.packageRoot, "dist/languages/index.js")).href
);

const git = (dir, ...args) => execFileSync("git", args, { cwd: dir, encoding: "utf8", maxBuffer: 1 << 28 }).trim();

/** The corpus folder, and the files and bytes per language of what codeslice would parse there. */
function prepare(spec) {
  let dir;
  if (spec.unlisted) dir = path.join(langCorporaDir, spec.language, spec.short);
  else if (spec.repo) dir = prepareLangCorpus(spec, langCorporaDir);
  else dir = prepareCorpus(spec, corporaDir);
  const paths = git(dir, "ls-files", "-z", ".").split("\0").filter(Boolean);
  const langOf = languagesForProject(paths);
  const byLanguage = {};
  for (const p of paths) {
    const lang = langOf(p);
    if (!lang) continue;
    let size = 0;
    try {
      size = fs.statSync(path.join(dir, p)).size;
    } catch {
      continue; // listed but absent (a sparse checkout)
    }
    const e = (byLanguage[lang.id] ??= { files: 0, bytes: 0 });
    e.files++;
    e.bytes += size;
  }
  return { dir, commit: git(dir, "rev-parse", "HEAD"), byLanguage };
}

async function coldIndex(dir) {
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-lang-speed-"));
  try {
    const r = await runCli(["index", "--root", dir, "--cache-dir", cache, "--jobs", "1", "--json"]);
    return { ...r, out: JSON.parse(r.stdout) };
  } finally {
    fs.rmSync(cache, { recursive: true, force: true });
  }
}

// The fixed cost of a language: a cold index of a git repository holding one empty file of it
// (node, the CLI, the store, and that language's grammar and query compiled).
const { LANGUAGES } = await import(pathToFileURL(path.join(utils.packageRoot, "dist/languages/index.js")).href);
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-lang-speed-empty-"));
process.on("exit", () => fs.rmSync(scratch, { recursive: true, force: true }));
const emptyRepos = {};
for (const language of new Set(specs.map((s) => s.language))) {
  const lang = LANGUAGES.find((l) => l.id === language);
  if (!lang) continue;
  const dir = path.join(scratch, language);
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, `empty${lang.extensions[0]}`), "");
  utils.gitCommitAll(dir, "empty");
  emptyRepos[language] = dir;
}

const prepared = specs.map((s) => ({ spec: s, ...prepare(s) }));
const samples = new Map(prepared.map((p) => [p.spec.name, []]));
const startup = Object.fromEntries(Object.keys(emptyRepos).map((l) => [l, []]));
const loadBefore = os.loadavg();
for (let round = 0; round < runs; round++) {
  for (const [language, dir] of Object.entries(emptyRepos)) startup[language].push((await coldIndex(dir)).cpu);
  for (const p of prepared) {
    const r = await coldIndex(p.dir);
    samples.get(p.spec.name).push(r);
    process.stderr.write(
      `round ${round + 1}/${runs} ${p.spec.name}: ${r.out.parsed} files, ${fmt(r.cpu, 2)} CPU s, ${fmt(r.wall, 2)} s wall\n`,
    );
  }
}
const startupCpu = Object.fromEntries(Object.entries(startup).map(([l, v]) => [l, stats(v).median]));

const results = {};
for (const p of prepared) {
  const list = samples.get(p.spec.name);
  const cpu = stats(list.map((r) => r.cpu)).median;
  const wall = stats(list.map((r) => r.wall)).median;
  const rss = stats(list.map((r) => r.rssMb)).median;
  const out = list[0].out;
  const files = out.parsed;
  const bytes = Object.values(p.byLanguage).reduce((a, e) => a + e.bytes, 0);
  const own = p.byLanguage[p.spec.language] ?? { files: 0, bytes: 0 };
  const net = Math.max(cpu - (startupCpu[p.spec.language] ?? 0), 1e-3);
  results[p.spec.name] = {
    language: p.spec.language,
    corpus: {
      path: p.dir,
      commit: p.commit,
      pinned: !p.spec.unlisted,
      source: p.spec.debian ?? p.spec.npm ?? p.spec.repo ?? "unlisted clone",
    },
    files,
    language_files: own.files,
    bytes,
    language_bytes: own.bytes,
    symbols: out.symbols,
    syntax_error_files: out.syntaxErrors?.length ?? 0,
    by_language: out.byLanguage,
    cpu_s: cpu,
    wall_s: wall,
    peak_rss_mb: rss,
    files_per_cpu_s: files / cpu,
    mb_per_cpu_s: bytes / 1e6 / cpu,
    net_cpu_s: net,
    files_per_net_cpu_s: files / net,
    mb_per_net_cpu_s: bytes / 1e6 / net,
    kb_per_file: bytes / 1e3 / Math.max(files, 1),
    files_per_wall_s: files / wall,
    runs: list.map((r) => ({ cpu_s: r.cpu, wall_s: r.wall, peak_rss_mb: r.rssMb })),
  };
}

// Per language: the corpora pooled (files and net CPU summed).
const perLanguage = {};
for (const r of Object.values(results)) {
  const l = (perLanguage[r.language] ??= { corpora: 0, files: 0, bytes: 0, net_cpu_s: 0 });
  l.corpora++;
  l.files += r.files;
  l.bytes += r.bytes;
  l.net_cpu_s += r.net_cpu_s;
}
for (const l of Object.values(perLanguage)) {
  l.files_per_net_cpu_s = l.files / l.net_cpu_s;
  l.mb_per_net_cpu_s = l.bytes / 1e6 / l.net_cpu_s;
  l.ms_per_file = (l.net_cpu_s * 1e3) / l.files;
}

const m = machine();
writeJson(path.join(resultsDir, "lang-speed.json"), {
  benchmark: "lang-speed",
  command: "codeslice index --jobs 1 --json (cold: a fresh --cache-dir each run)",
  date: new Date().toISOString(),
  machine: { ...m, load_average_at_start: loadBefore.map((x) => Math.round(x * 100) / 100) },
  codeslice: codesliceRevision(),
  runs,
  startup_cpu_s_per_language: startupCpu,
  startup_cpu_runs: startup,
  corpora: results,
  per_language: perLanguage,
});

console.log(`\n## Cold index speed per language (\`index --jobs 1\`, median of ${runs})\n`);
console.log(
  `codeslice ${codesliceRevision()}; ${m.cpu} × ${m.cpus}, node ${m.node}; load average ${loadBefore.map((x) => x.toFixed(1)).join(" ")} at start, ${m.load_average_1_5_15.join(" ")} at end; start-up (a repository of one empty file of the language: node, CLI, grammar) ${Object.entries(
    startupCpu,
  )
    .map(([l, v]) => `${l} ${fmt(v, 2)}`)
    .join(", ")} CPU s\n`,
);
console.log(
  mdTable(
    [
      "corpus",
      "language",
      "files (own language)",
      "MB",
      "CPU s",
      "files / CPU s",
      "MB / CPU s",
      "net of start-up: files / CPU s",
      "MB / CPU s",
      "peak RSS MB",
      "wall s",
    ],
    Object.entries(results).map(([name, r]) => [
      name + (r.corpus.pinned ? "" : " (unpinned)"),
      r.language,
      `${r.files} (${r.language_files})`,
      fmt(r.bytes / 1e6, 2),
      fmt(r.cpu_s, 2),
      fmt(r.files_per_cpu_s, 0),
      fmt(r.mb_per_cpu_s, 2),
      fmt(r.files_per_net_cpu_s, 0),
      fmt(r.mb_per_net_cpu_s, 2),
      fmt(r.peak_rss_mb, 0),
      fmt(r.wall_s, 2),
    ]),
  ),
);
console.log(`\n### Per language (corpora pooled, net of start-up)\n`);
console.log(
  mdTable(
    ["language", "corpora", "files", "MB", "ms CPU / file", "files / CPU s", "MB / CPU s"],
    Object.entries(perLanguage)
      .sort((a, b) => b[1].ms_per_file - a[1].ms_per_file)
      .map(([l, v]) => [
        l,
        v.corpora,
        v.files,
        fmt(v.bytes / 1e6, 2),
        fmt(v.ms_per_file, 1),
        fmt(v.files_per_net_cpu_s, 0),
        fmt(v.mb_per_net_cpu_s, 2),
      ]),
  ),
);
