#!/usr/bin/env node
// The IO a cold index does per source file, A/B in one process: read the file through the Node
// adapter's FileSystem, then one store lookup and one store write of a record-sized value, as the
// indexer does. Builds take turns round by round (the order alternating); process.cpuUsage counts
// every thread, libuv's pool included. On a shared machine this is far steadier than whole runs.
//
// Rerun:
//   node test/bench/io-ab.mjs --builds base=/pkg/a,head=. [CORPUS_DIR] [--rounds 6]
// A package folder holds dist/ (after `node scripts/build.mjs`). Default corpus: /work/corpora/django.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { fmt, machine, mdTable, parseArgs, sourceFiles } from "./lib/bench-utils.mjs";

const { flags, positionals } = parseArgs(process.argv.slice(2), ["help"]);
if (flags.help || !flags.builds) {
  console.log("usage: node test/bench/io-ab.mjs --builds NAME=PKG,NAME=PKG,… [CORPUS_DIR] [--rounds N]");
  process.exit(flags.help ? 0 : 2);
}
const ROUNDS = Number(flags.rounds ?? 6);
const root = fs.realpathSync(path.resolve(positionals[0] ?? "/work/corpora/django"));
const load = (dir, rel) => import(pathToFileURL(path.join(dir, "dist", rel)).href);
const builds = [];
for (const b of String(flags.builds).split(",")) {
  const [name, ...rest] = b.split("=");
  const dir = path.resolve(rest.join("="));
  const { NodeFileSystem } = await load(dir, "platform/node/node-file-system.js");
  const { NodeStore } = await load(dir, "platform/node/node-store.js");
  builds.push({ name, fs: new NodeFileSystem(root), NodeStore, cpu: 0, wall: 0 });
}
const files = sourceFiles(root, (p) => /\.(py|js|ts|tsx|go|java|rs|c|h|cc|cpp|rb|php|cs|kt)$/.test(p)).map((p) =>
  path.relative(root, p).split(path.sep).join("/"),
);
const loadBefore = os.loadavg();
for (let r = 0; r < ROUNDS; r++) {
  for (const b of r % 2 ? [...builds].reverse() : builds) {
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-io-ab-"));
    const store = new b.NodeStore(path.join(scratch, "cache"));
    const t = process.cpuUsage();
    const w = performance.now();
    for (const [i, f] of files.entries()) {
      const bytes = await b.fs.readFile(f);
      const key = `v1/records/${(i % 256).toString(16)}/${i}`;
      await store.get(key);
      await store.set(key, bytes.subarray(0, 4000));
    }
    await store.flush?.(); // a store that writes in batches: its last batch counts too
    const d = process.cpuUsage(t);
    b.cpu += (d.user + d.system) / 1e6 / ROUNDS;
    b.wall += (performance.now() - w) / 1000 / ROUNDS;
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
console.log(
  mdTable(
    [
      "build",
      `CPU s per pass (${files.length} files: read, store get, store set), mean of ${ROUNDS}`,
      "wall s",
      `÷ ${builds[0].name}`,
    ],
    builds.map((b) => [b.name, fmt(b.cpu), fmt(b.wall), fmt(b.cpu / builds[0].cpu)]),
  ),
);
console.log(
  `\nload ${loadBefore.map((x) => x.toFixed(2)).join(" ")} → ${os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(" ")}; ${machine().cpu}, ${machine().cpus} CPUs`,
);
