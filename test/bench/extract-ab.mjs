#!/usr/bin/env node
// Extraction A/B in one process: two builds' extraction code (extractFile, then storedBytes, as the
// indexer runs them; storedForm for a build from before storedBytes) on the same syntax trees. Each file is parsed once, then extracted by every
// build in turn (the order rotating file by file), and each call's CPU time (process.cpuUsage) is
// added to its build's total. On a shared machine, load falls on every build alike, which makes
// this far steadier than comparing whole index runs when only the work after the parse changed.
// Also checks that every build's stored bytes are identical, file by file.
// With --own-queries, each build reads the file with its own language specs and compiled queries
// (its own grammar runtime; each build parses the file itself, outside the timing), so a query
// change is measured too (query.matches runs inside extractFile); files whose stored bytes differ
// are then counted, not a failure (a query change that adds a record field changes them).
//
// Rerun:
//   node test/bench/extract-ab.mjs --builds base=/pkg/a,head=. [CORPUS_DIR] [--passes 3] [--own-queries]
// A package folder holds dist/ (after `node scripts/build.mjs`) and wasm/. Without CORPUS_DIR:
// Debian's python3-django, prepared as index-bench does.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { fmt, machine, mdTable, parseArgs, prepareDjango, sourceFiles } from "./lib/bench-utils.mjs";

const { flags, positionals } = parseArgs(process.argv.slice(2), ["help", "own-queries"]);
const ownQueries = !!flags["own-queries"];
if (flags.help || !flags.builds) {
  console.log("usage: node test/bench/extract-ab.mjs --builds NAME=PKG,NAME=PKG,… [CORPUS_DIR] [--passes N]");
  process.exit(flags.help ? 0 : 2);
}
const PASSES = Number(flags.passes ?? 3);
const builds = String(flags.builds)
  .split(",")
  .map((b) => ({ name: b.split("=")[0], dir: path.resolve(b.split("=").slice(1).join("=")) }));
const load = (dir, rel) => import(pathToFileURL(path.join(dir, "dist", rel)).href);
for (const b of builds) {
  b.extract = (await load(b.dir, "core/extract/extract.js")).extractFile;
  const snapshot = await load(b.dir, "core/engine/snapshot.js");
  b.store = snapshot.storedBytes ?? ((record) => snapshot.storedForm(record).bytes);
  b.cpu = 0;
  if (ownQueries) {
    b.languageForExtension = (await load(b.dir, "languages/index.js")).languageForExtension;
    const { NodeWasmSource: Source } = await load(b.dir, "platform/node/node-wasm-source.js");
    b.runtime = await (await load(b.dir, "core/parse/runtime.js")).createParserRuntime(new Source());
  }
}
const base = builds[0];
const { languageForExtension } = await load(base.dir, "languages/index.js");
const { createParserRuntime } = await load(base.dir, "core/parse/runtime.js");
const { NodeWasmSource } = await load(base.dir, "platform/node/node-wasm-source.js");

let corpus = positionals[0] ? path.resolve(positionals[0]) : undefined;
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-extract-ab-"));
if (!corpus) corpus = prepareDjango(path.join(scratch, "django-repo")).corpus;
const files = sourceFiles(corpus, (p) => languageForExtension(path.extname(p)));

const runtime = await createParserRuntime(new NodeWasmSource());
const cpuOf = (f) => {
  const t = process.cpuUsage();
  const r = f();
  const d = process.cpuUsage(t);
  return [r, (d.user + d.system) / 1e6];
};
const loadBefore = os.loadavg();
let differing = 0;
let n = 0;
for (let pass = 0; pass < PASSES; pass++) {
  for (const file of files) {
    const spec = languageForExtension(path.extname(file));
    const text = fs.readFileSync(file, "utf8");
    if (text.includes("\0")) continue;
    const lang = await runtime.load(spec);
    runtime.parser.setLanguage(lang.language);
    const tree = runtime.parser.parse(text);
    if (!tree) continue;
    const rel = path.relative(corpus, file);
    const order = builds.map((_, i) => builds[(i + n) % builds.length]);
    n++;
    const bytes = new Map();
    for (const b of order) {
      let [bTree, bQuery, bSpec] = [tree, lang.query, spec];
      if (ownQueries) {
        // This build's own spec, grammar runtime and query; its parse is not timed.
        bSpec = b.languageForExtension(path.extname(file));
        const own = await b.runtime.load(bSpec);
        b.runtime.parser.setLanguage(own.language);
        bTree = b.runtime.parser.parse(text);
        bQuery = own.query;
      }
      const [stored, cpu] = cpuOf(() => b.store(b.extract(bTree, bQuery, bSpec, rel, "0".repeat(40))));
      if (bTree !== tree) bTree.delete();
      b.cpu += cpu;
      bytes.set(b, stored);
    }
    tree.delete();
    if (pass === 0 && builds.some((b) => Buffer.compare(bytes.get(b), bytes.get(base)) !== 0)) {
      differing++;
      if (differing <= 5) console.error(`stored bytes differ: ${rel}`);
    }
  }
  process.stderr.write(
    `pass ${pass + 1}/${PASSES}: ${builds.map((b) => `${b.name} ${fmt(b.cpu)} s`).join(", ")}, load ${os.loadavg()[0].toFixed(2)}\n`,
  );
}
console.log(
  mdTable(
    ["build", `extract + stored bytes CPU s (${PASSES} passes, ${files.length} files)`, `÷ ${base.name}`],
    builds.map((b) => [b.name, fmt(b.cpu), fmt(b.cpu / base.cpu)]),
  ),
);
console.log(
  `\nstored bytes identical to ${base.name}: ${differing === 0 ? "all files" : `${differing} files differ`}; load ${loadBefore.map((x) => x.toFixed(2)).join(" ")} → ${os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(" ")}; ${machine().cpu}`,
);
fs.rmSync(scratch, { recursive: true, force: true });
if (differing && !ownQueries) process.exitCode = 1;
