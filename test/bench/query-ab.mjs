#!/usr/bin/env node
// Query A/B in one process: each build's own compiled query for a language (its tags.scm as that build
// ships it) run over the same syntax trees, builds taking turns file by file, each `Query.matches` call's
// CPU time (process.cpuUsage) added to its build: the query alone (tree-sitter's matching in wasm and
// web-tree-sitter's marshalling of the captures into JS), without extraction. Prints matches and
// captures per build too (a merged pattern changes how many matches the same facts take).
//
// Rerun:
//   node test/bench/query-ab.mjs --builds base=/pkg/a,head=. [CORPUS_DIR] [--passes 3] [--langs python]
// A package folder holds dist/ (after `node scripts/build.mjs`) and wasm/. Default corpus:
// /work/corpora/lead/django; files as parse-floor lists them.
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { fmt, indexedFiles, machine, mdTable, parseArgs } from "./lib/bench-utils.mjs";

const { flags, positionals } = parseArgs(process.argv.slice(2));
if (!flags.builds) {
  console.log(
    "usage: node test/bench/query-ab.mjs --builds NAME=PKG,NAME=PKG,… [CORPUS_DIR] [--passes N] [--langs a,b]",
  );
  process.exit(2);
}
const PASSES = Number(flags.passes ?? 3);
const LANGS = flags.langs ? new Set(String(flags.langs).split(",")) : undefined;
const root = path.resolve(positionals[0] ?? "/work/corpora/lead/django");
const load = (dir, rel) => import(pathToFileURL(path.join(dir, "dist", rel)).href);
const builds = [];
for (const b of String(flags.builds).split(",")) {
  const [name, ...rest] = b.split("=");
  const dir = path.resolve(rest.join("="));
  const { NodeWasmSource } = await load(dir, "platform/node/node-wasm-source.js");
  const runtime = await (await load(dir, "core/parse/runtime.js")).createParserRuntime(new NodeWasmSource());
  builds.push({
    name,
    dir,
    runtime,
    languages: await load(dir, "languages/index.js"),
    cpu: 0,
    matches: 0,
    captures: 0,
  });
}
const base = builds[0];
const { skipByName } = await load(base.dir, "index.js");
const files = indexedFiles(root, {
  languagesForProject: base.languages.languagesForProject,
  skipByName,
  langs: LANGS,
}).map(({ spec, text }) => ({ id: spec.id, text }));
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
const loadBefore = os.loadavg();
let n = 0;
for (let pass = 0; pass < PASSES; pass++) {
  for (const { id, text } of files) {
    const order = builds.map((_, i) => builds[(i + n) % builds.length]);
    n++;
    for (const b of order) {
      const own = await b.runtime.load(b.languages.languageById(id));
      b.runtime.parser.setLanguage(own.language);
      const tree = b.runtime.parser.parse(text);
      const t = cpu();
      const matches = own.query.matches(tree.rootNode);
      b.cpu += cpu() - t;
      if (pass === 0) {
        b.matches += matches.length;
        for (const m of matches) b.captures += m.captures.length;
      }
      tree.delete();
    }
  }
  process.stderr.write(`pass ${pass + 1}/${PASSES}: ${builds.map((b) => `${b.name} ${fmt(b.cpu)} s`).join(", ")}\n`);
}
console.log(
  mdTable(
    ["build", `query CPU s (${PASSES} passes, ${files.length} files)`, `÷ ${base.name}`, "matches", "captures"],
    builds.map((b) => [b.name, fmt(b.cpu), fmt(b.cpu / base.cpu), b.matches, b.captures]),
  ),
);
console.log(
  `\n${path.basename(root)}; load ${loadBefore.map((x) => x.toFixed(2)).join(" ")} → ${os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(" ")}; ${machine().cpu}`,
);
