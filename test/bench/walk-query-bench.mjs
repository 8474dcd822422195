#!/usr/bin/env node
// What a TreeCursor walk costs against the query it would replace (issue 27: "extraction in one
// TreeCursor walk"). In one process, on the same trees, per file: the language's query with its
// matches read as extraction reads them (the match reader, one light node per capture, nothing
// kept), then a TreeCursor walk that visits every node and reads its type id, start and end index
// (the least a walk that answered the query's patterns would read). CPU seconds (process.cpuUsage)
// of each, parse outside the timing. web-tree-sitter's cursor steps are one call into the wasm
// instance each (with the cursor's state copied in and out), where the query walks the tree inside
// the instance.
//
// Rerun:
//   node scripts/build.mjs && node test/bench/walk-query-bench.mjs CORPUS_DIR [CORPUS_DIR ...]
// Output: one line per corpus on stdout.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { ensureBuilt, packageRoot, sourceFiles } from "./lib/bench-utils.mjs";

ensureBuilt();
const load = (rel) => import(pathToFileURL(path.join(packageRoot, "dist", rel)).href);
const { languageForExtension } = await load("languages/index.js");
const { createParserRuntime } = await load("core/parse/runtime.js");
const { forEachMatch } = await load("core/parse/match-reader.js");
const { NodeWasmSource } = await load("platform/node/node-wasm-source.js");
const runtime = await createParserRuntime(new NodeWasmSource());
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

for (const corpus of process.argv.slice(2)) {
  const files = sourceFiles(path.resolve(corpus), (p) => languageForExtension(path.extname(p)));
  let query = 0;
  let walk = 0;
  let nodes = 0;
  let matches = 0;
  for (const file of files) {
    const spec = languageForExtension(path.extname(file));
    const loaded = await runtime.load(spec);
    runtime.parser.setLanguage(loaded.language);
    const tree = runtime.parser.parse(fs.readFileSync(file, "utf8"));
    let t = cpu();
    forEachMatch(loaded.query, tree.rootNode, {}, () => void matches++);
    query += cpu() - t;
    t = cpu();
    const cursor = tree.walk();
    let sum = 0;
    for (let depth = 0; ; ) {
      sum += cursor.nodeTypeId + cursor.startIndex + cursor.endIndex;
      nodes++;
      if (cursor.gotoFirstChild()) {
        depth++;
        continue;
      }
      while (depth > 0 && !cursor.gotoNextSibling()) {
        cursor.gotoParent();
        depth--;
      }
      if (depth === 0) break;
    }
    cursor.delete();
    walk += cpu() - t;
    tree.delete();
    if (sum < 0) console.log(sum); // keeps the reads
  }
  const load = os.loadavg()[0].toFixed(1);
  console.log(
    `${path.basename(corpus)}: ${files.length} files, ${matches} matches, ${nodes} nodes; query (matches read as ` +
      `extraction reads them) ${query.toFixed(2)} CPU-s, cursor walk ${walk.toFixed(2)} CPU-s (${(walk / query).toFixed(2)}×); load ${load}`,
  );
}
