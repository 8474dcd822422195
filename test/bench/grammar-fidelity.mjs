#!/usr/bin/env node
// Grammar fidelity benchmark: for each language and each grammar source web-tree-sitter can load,
// how well the grammar parses real code, and what codeslice's query finds in the trees.
//
// Per language × corpus × grammar:
//   files            files parsed (the language's extensions, see test/bench/grammar/corpora.json)
//   error files      share of files whose tree has an ERROR or MISSING node
//   ERROR bytes      bytes of source inside (outermost) ERROR nodes, and their share of all bytes
//   MISSING          MISSING nodes (tokens the parser had to invent)
//   definitions      distinct nodes captured as @definition.* by the language's query from
//                    src/languages/queries.gen.ts; a pattern naming a node type the grammar lacks is
//                    dropped (the count of dropped patterns is reported) so every grammar is scored
//   speed            files/s and MB/s per CPU-second of parsing alone (best of --runs parse-only
//                    passes after the analysed one), one thread
// Plus, for TypeScript: which of the 42 exported types of hono's src/types.ts the query finds.
//
// Grammar candidates are listed in test/bench/grammar/grammars.json: .wasm files inside pinned npm
// packages (unpacked with `npm pack` into the bench cache), and files built by
// scripts/build-grammars.mjs (folder given with --built, default ~/.cache/codeslice-grammars/out).
// A candidate whose bytes equal a file in wasm/ is marked "[= wasm/]" (the one codeslice ships).
//
// Rerun:
//   node scripts/build-grammars.mjs            # the built candidates (needs emscripten, see there)
//   npm run bench -- grammar [-- --only typescript,tsx] [--runs 3] [--corpora DIR] [--git-mirror TEMPLATE]
// Corpora are prepared once into <cache>/grammar-corpora/<id> from the pinned commits: cloned from
// https://github.com/<owner>/<name>, or from a local mirror given as a template such as
// --git-mirror '/srv/mirror/{owner}+{name}/repo' (a bare repository holding the commit).
// Output: test/bench/results/grammar-fidelity.json and grammar-fidelity.md (also on stdout).
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  benchCache,
  codesliceRevision,
  machine,
  mdTable,
  parseArgs,
  repoRoot,
  resultsDir,
  writeJson,
} from "./lib/bench-utils.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const { flags } = parseArgs(process.argv.slice(2), ["help"]);
if (flags.help) {
  console.log(
    "usage: node test/bench/grammar-fidelity.mjs [--only a,b] [--runs N] [--corpora DIR] [--git-mirror TEMPLATE] [--built DIR] [--name NAME]",
  );
  process.exit(0);
}
const RUNS = Number(flags.runs ?? 1);
const corporaDir = path.resolve(flags.corpora ?? path.join(benchCache, "grammar-corpora"));
const packagesDir = path.join(benchCache, "grammar-packages");
const builtDir = path.resolve(
  flags.built ??
    path.join(process.env.CODESLICE_GRAMMAR_CACHE || path.join(os.homedir(), ".cache/codeslice-grammars"), "out"),
);
const { corpora } = JSON.parse(fs.readFileSync(path.join(here, "grammar/corpora.json"), "utf8"));
const grammars = JSON.parse(fs.readFileSync(path.join(here, "grammar/grammars.json"), "utf8"));
const only = flags.only ? new Set(flags.only.split(",")) : undefined;
const languages = Object.keys(grammars.candidates).filter((l) => !only || only.has(l));

const sh = (cmd, args, opts = {}) =>
  execFileSync(cmd, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 1 << 28, ...opts }).trim();
const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");

// ---- the language's query and extensions, as codeslice has them ----
const QUERIES = {};
for (const line of fs.readFileSync(path.join(repoRoot, "src/languages/queries.gen.ts"), "utf8").split("\n")) {
  const m = /^\s+"([a-z]+)": (".*"),$/.exec(line);
  if (m) QUERIES[m[1]] = JSON.parse(m[2]);
}
function extensionsOf(language) {
  if (grammars.extensions[language]) return grammars.extensions[language];
  const spec = fs.readFileSync(
    path.join(repoRoot, "src/languages", language === "tsx" ? "typescript" : language, "spec.ts"),
    "utf8",
  );
  const block = language === "typescript" || language === "tsx" ? spec.slice(spec.indexOf(`id: "${language}"`)) : spec;
  return JSON.parse(/extensions: (\[[^\]]*\])/.exec(block)[1].replace(/'/g, '"'));
}

// ---- corpora ----
function prepareCorpus(corpus, extensions) {
  const dir = path.join(corporaDir, corpus.id);
  const stamp = path.join(dir, ".prepared");
  const want = `${corpus.git ? `${corpus.git}@${corpus.commit}` : corpus.npm}:${corpus.paths.join(",")}:${extensions.join(",")}`;
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, "utf8") === want) return dir;
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-grammar-corpus-"));
  try {
    console.error(`preparing corpus ${corpus.id} (${corpus.git ?? corpus.npm})`);
    if (corpus.git) {
      const [owner, name] = corpus.git.split("/");
      let gitDir = flags["git-mirror"]
        ? flags["git-mirror"].replaceAll("{owner}", owner).replaceAll("{name}", name)
        : undefined;
      if (!gitDir || !fs.existsSync(gitDir)) {
        gitDir = path.join(tmp, "repo.git");
        sh("git", ["clone", "--bare", "--filter=blob:none", `https://github.com/${corpus.git}.git`, gitDir]);
      }
      // only the language's source files: a mirror may lack the blobs of large data files
      const listed = sh("git", [
        `--git-dir=${gitDir}`,
        "ls-tree",
        "-r",
        "--name-only",
        corpus.commit,
        "--",
        ...corpus.paths,
      ]).split("\n");
      const wanted = listed.filter((f) => extensions.includes(path.extname(f).toLowerCase()));
      const tar = path.join(tmp, "src.tar");
      sh("git", [`--git-dir=${gitDir}`, "archive", "--format=tar", "-o", tar, corpus.commit, "--", ...wanted]);
      sh("tar", ["xf", tar, "-C", dir]);
    } else {
      const tgz = sh("npm", ["pack", corpus.npm, "--silent"], { cwd: tmp }).split("\n").pop();
      sh("tar", ["xzf", tgz], { cwd: tmp });
      for (const p of corpus.paths) fs.cpSync(path.join(tmp, p), path.join(dir, p), { recursive: true });
    }
    fs.writeFileSync(stamp, want);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  return dir;
}

function corpusFiles(corpus, dir, extensions) {
  const out = [];
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (e.name === ".git" || e.name === "node_modules") continue;
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && extensions.includes(path.extname(e.name).toLowerCase())) out.push(path.relative(dir, p));
    }
  };
  for (const p of corpus.paths) if (fs.existsSync(path.join(dir, p))) walk(path.join(dir, p));
  out.sort();
  return corpus.max_files ? out.slice(0, corpus.max_files) : out;
}

// ---- grammar candidates ----
function candidateBytes(c) {
  if (c.built) {
    const file = path.join(builtDir, c.built);
    if (!fs.existsSync(file)) return { missing: `${file} not built (node scripts/build-grammars.mjs)` };
    return { bytes: fs.readFileSync(file) };
  }
  const dir = path.join(packagesDir, c.npm.replace(/[/@]/g, "_"));
  if (!fs.existsSync(path.join(dir, "package"))) {
    fs.mkdirSync(dir, { recursive: true });
    const tgz = sh("npm", ["pack", c.npm, "--silent"], { cwd: dir }).split("\n").pop();
    sh("tar", ["xzf", tgz], { cwd: dir });
  }
  const file = path.join(dir, "package", c.path);
  if (!fs.existsSync(file)) return { missing: `${c.npm} has no ${c.path}` };
  return { bytes: fs.readFileSync(file) };
}

const lock = JSON.parse(fs.readFileSync(path.join(repoRoot, "wasm/wasm.lock.json"), "utf8"));
const shipped = new Map(lock.files.map((f) => [f.sha256, f.file]));

// ---- parsing ----
const { Parser, Language, Query } = await import("web-tree-sitter");
await Parser.init({ wasmBinary: fs.readFileSync(path.join(repoRoot, "wasm/web-tree-sitter.wasm")) });

/** Top-level patterns of a query source, with their offsets. */
function splitPatterns(source) {
  const patterns = [];
  let depth = 0,
    start = -1,
    inString = false;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i];
    if (inString) {
      if (ch === "\\") i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === ";") while (i < source.length && source[i] !== "\n") i++;
    else if (ch === "(" || ch === "[") {
      if (depth === 0) {
        if (start >= 0) patterns.push(source.slice(start, i));
        start = i;
      }
      depth++;
    } else if (ch === ")" || ch === "]") depth--;
  }
  if (start >= 0) patterns.push(source.slice(start));
  return patterns;
}

/** Compiles the query, dropping the patterns this grammar rejects; returns it and what was dropped. */
function tolerantQuery(language, source) {
  let patterns = splitPatterns(source);
  const dropped = [];
  for (;;) {
    const text = patterns.join("\n");
    try {
      return { query: new Query(language, text), dropped };
    } catch (error) {
      const at = error.index ?? error.offset;
      if (typeof at !== "number" || patterns.length === 0) throw error;
      let offset = 0,
        k = 0;
      for (; k < patterns.length; k++) {
        if (at < offset + patterns[k].length + 1) break;
        offset += patterns[k].length + 1;
      }
      dropped.push(`${error.message.split("\n")[0]}: ${patterns[k]?.trim().split("\n")[0].slice(0, 80)}`);
      patterns = patterns.filter((_, i) => i !== k);
    }
  }
}

/** ERROR bytes (outermost ERROR nodes), MISSING node count; only descends into subtrees with errors. */
function errorStats(root) {
  let errorUnits = 0,
    missing = 0;
  const stack = [root];
  while (stack.length) {
    const n = stack.pop();
    if (n.type === "ERROR") {
      errorUnits += n.endIndex - n.startIndex;
      // MISSING nodes inside an ERROR still count
      const inner = [n];
      while (inner.length) {
        const m = inner.pop();
        if (m.isMissing) missing++;
        else if (m.hasError) for (const c of m.children) inner.push(c);
      }
      continue;
    }
    if (n.isMissing) {
      missing++;
      continue;
    }
    if (n.hasError) for (const c of n.children) stack.push(c);
  }
  return { errorUnits, missing };
}

const EXPORTED_TYPE = /^export\s+(?:declare\s+)?(?:abstract\s+)?(?:type|interface|class|enum)\s+([A-Za-z_$][\w$]*)/gm;

// ---- report ----
const name = flags.name ?? "grammar-fidelity";
const jsonFile = path.join(resultsDir, `${name}.json`);
// With --only, the other languages' figures are kept from the previous run (each row says when it was measured).
const earlier = only && fs.existsSync(jsonFile) ? JSON.parse(fs.readFileSync(jsonFile, "utf8")) : undefined;
const pct = (x) => `${(100 * x).toFixed(x > 0 && x < 0.001 ? 3 : 1)}%`;

function save() {
  const all = [...(earlier?.results ?? []).filter((r) => !languages.includes(r.language)), ...results];
  const order = Object.keys(grammars.candidates);
  all.sort((a, b) => order.indexOf(a.language) - order.indexOf(b.language));
  const honoAll = hono.length ? hono : (earlier?.hono_types ?? []);
  const rows = all
    .filter((r) => !r.skipped)
    .map((r) => [
      r.language,
      r.corpus,
      `${r.grammar}${r.shipped ? " [= wasm/]" : ""}`,
      r.abi,
      r.files,
      `${r.error_files} (${pct(r.error_file_share)})`,
      `${(r.error_bytes / 1024).toFixed(1)} KB (${pct(r.error_byte_share)})`,
      r.missing_nodes,
      r.definitions == null
        ? "–"
        : `${r.definitions}${r.query_patterns_dropped ? ` (${r.query_patterns_dropped} patterns dropped)` : ""}`,
      r.files_per_second.toFixed(0),
      r.mb_per_second.toFixed(2),
    ]);
  const header = [
    "language",
    "corpus",
    "grammar",
    "ABI",
    "files",
    "files with ERROR/MISSING",
    "bytes in ERROR",
    "MISSING",
    "definitions",
    "files/CPU-s",
    "MB/CPU-s",
  ];
  let md = `# Grammar fidelity\n\nWritten by \`npm run bench -- grammar\` (test/bench/grammar-fidelity.mjs); corpora in test/bench/grammar/corpora.json, `;
  md += `candidates in test/bench/grammar/grammars.json. "[= wasm/]" marks the bytes codeslice ships. Speeds are per CPU-second of parsing alone, one `;
  md += `thread, best of ${RUNS} parse-only passes; the machine is shared (load averages below), which still moves them by tens of percent: compare within a language.\n\n`;
  md += `${mdTable(header, rows)}\n`;
  const when = new Map();
  for (const r of all) if (r.measured) when.set(r.language, r.measured);
  md += `\nMeasured (revision, date, load average 1/5/15 min on ${machine().cpus} CPUs):\n\n`;
  md += [...when].map(([l, m]) => `- ${l}: ${m.revision}, ${m.date}, load ${m.load.join(" / ")}`).join("\n") + "\n";
  const skipped = all.filter((r) => r.skipped);
  if (skipped.length)
    md += `\nNot measured:\n\n${skipped.map((r) => `- ${r.language} / ${r.grammar}: ${r.skipped}`).join("\n")}\n`;
  if (grammars.unloadable?.length)
    md += `\nNot loadable by web-tree-sitter 0.27.2 (not benchmarked):\n\n${grammars.unloadable.map((u) => `- ${u.npm}: ${u.reason}`).join("\n")}\n`;
  if (honoAll.length) {
    md += `\nhono \`src/types.ts\`: exported types (type aliases, interfaces, classes) found by the TypeScript query\n\n`;
    md += `${mdTable(
      ["grammar", "found", "missing"],
      honoAll.map((h) => [
        `${h.grammar}${h.shipped ? " [= wasm/]" : ""}`,
        `${h.found} / ${h.expected}`,
        h.missing.join(", ") || "–",
      ]),
    )}\n`;
  }
  fs.mkdirSync(resultsDir, { recursive: true });
  fs.writeFileSync(path.join(resultsDir, `${name}.md`), md);
  writeJson(jsonFile, {
    benchmark: "grammar-fidelity",
    revision: codesliceRevision(),
    date: new Date().toISOString(),
    machine: machine(),
    runtime: lock.runtime,
    runs: RUNS,
    corpora,
    hono_types: honoAll,
    results: all,
  });
  return md;
}

const results = [];
const hono = [];
for (const language of languages) {
  const extensions = extensionsOf(language);
  const langCorpora = corpora.filter((c) => c.language === language);
  const loaded = langCorpora.map((corpus) => {
    const dir = prepareCorpus(corpus, extensions);
    const files = corpusFiles(corpus, dir, extensions).map((rel) => {
      const buf = fs.readFileSync(path.join(dir, rel));
      return { rel, bytes: buf.length, text: buf.toString("utf8") };
    });
    return { corpus, files };
  });
  for (const candidate of grammars.candidates[language]) {
    const got = candidateBytes(candidate);
    const base = {
      language,
      grammar: candidate.label,
      source: candidate.npm ? `${candidate.npm}:${candidate.path}` : `built:${candidate.built}`,
    };
    if (got.missing) {
      results.push({ ...base, skipped: got.missing });
      continue;
    }
    const hash = sha256(got.bytes);
    let lang;
    try {
      lang = await Language.load(new Uint8Array(got.bytes));
    } catch (error) {
      results.push({ ...base, sha256: hash, skipped: `Language.load failed: ${error.message || error}` });
      continue;
    }
    const abi = lang.abiVersion;
    const shippedAs = shipped.get(hash);
    let query,
      dropped = [],
      queryError;
    if (QUERIES[language === "tsx" ? "typescript" : language]) {
      try {
        ({ query, dropped } = tolerantQuery(lang, QUERIES[language === "tsx" ? "typescript" : language]));
      } catch (error) {
        queryError = String(error.message || error).split("\n")[0];
      }
    }
    const parser = new Parser();
    parser.setLanguage(lang);
    for (const { corpus, files } of loaded) {
      let errorFiles = 0,
        errorUnits = 0,
        totalUnits = 0,
        missing = 0,
        definitions = 0,
        bytes = 0,
        best = Infinity,
        queryMs = 0;
      const worst = [];
      // Pass 0 analyses the trees; passes 1..RUNS only parse, timed in this process's CPU seconds
      // (user + system), which other work on a shared machine inflates far less than wall time.
      for (let run = 0; run <= RUNS; run++) {
        const c0 = process.cpuUsage();
        for (const f of files) {
          const tree = parser.parse(f.text);
          if (run === 0) {
            const root = tree.rootNode;
            bytes += f.bytes;
            totalUnits += root.endIndex;
            if (root.hasError) {
              errorFiles++;
              const s = errorStats(root);
              errorUnits += s.errorUnits;
              missing += s.missing;
              worst.push({ file: f.rel, error_share: root.endIndex ? s.errorUnits / root.endIndex : 0 });
            }
            if (query) {
              const q0 = performance.now();
              const defs = new Set();
              const captures = query.captures(root);
              for (const c of captures)
                if (c.name.startsWith("definition."))
                  defs.add(`${c.node.startIndex}:${c.node.endIndex}:${c.node.type}`);
              definitions += defs.size;
              if (corpus.id === "hono" && f.rel === "src/types.ts") {
                const expected = [...f.text.matchAll(EXPORTED_TYPE)].map((m) => m[1]);
                const found = new Set();
                for (const m of query.matches(root)) {
                  const def = m.captures.find((c) => /^definition\.(type|interface|class|enum)$/.test(c.name));
                  const name = m.captures.find((c) => c.name === "name");
                  if (def && name && def.node.parent?.type === "export_statement") found.add(name.node.text);
                }
                hono.push({
                  grammar: candidate.label,
                  shipped: shippedAs ?? null,
                  expected: expected.length,
                  found: expected.filter((n) => found.has(n)).length,
                  missing: expected.filter((n) => !found.has(n)),
                });
              }
              queryMs += performance.now() - q0;
            }
          }
          tree.delete();
        }
        const c = process.cpuUsage(c0);
        if (run > 0) best = Math.min(best, (c.user + c.system) / 1000);
      }
      worst.sort((a, b) => b.error_share - a.error_share);
      results.push({
        ...base,
        sha256: hash,
        abi,
        shipped: shippedAs ?? null,
        corpus: corpus.id,
        files: files.length,
        bytes,
        error_files: errorFiles,
        error_file_share: files.length ? errorFiles / files.length : 0,
        error_bytes: Math.round(bytes * (totalUnits ? errorUnits / totalUnits : 0)),
        error_byte_share: totalUnits ? errorUnits / totalUnits : 0,
        missing_nodes: missing,
        definitions: query ? definitions : null,
        query_patterns_dropped: query ? dropped.length : null,
        query_dropped: dropped.length ? dropped : undefined,
        query_error: queryError,
        parse_cpu_seconds: best / 1000,
        files_per_second: files.length / (best / 1000),
        mb_per_second: bytes / 1e6 / (best / 1000),
        query_seconds: queryMs / 1000,
        worst_files: worst.slice(0, 5),
        measured: {
          revision: codesliceRevision(),
          date: new Date().toISOString().slice(0, 16).replace("T", " "),
          load: machine().load_average_1_5_15,
        },
      });
      console.error(
        `${language} ${corpus.id} ${candidate.label}: ${errorFiles}/${files.length} error files, ${definitions} defs, ${(files.length / (best / 1000)).toFixed(0)} files/s`,
      );
    }
    parser.delete();
  }
  save();
}
console.log(save());
