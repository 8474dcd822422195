#!/usr/bin/env node
// One entry for every benchmark: `npm run bench -- <name> [its options]` runs test/bench/<name>-bench.mjs
// (or the script a name below stands for, or <name>/run.mjs) with the options passed on;
// `npm run bench` alone lists the benchmarks with the first line each one says about itself.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));

/** Names whose script is not `<name>-bench.mjs` or `<name>/run.mjs`. */
const NAMED = {
  graph: "graph-accuracy.mjs",
  grammar: "grammar-fidelity.mjs",
  "lang-speed": "lang-speed.mjs",
  latency: "cli-latency-bench.mjs",
  queries: "query-bench.mjs",
  "mcp-new-tools": "mcp-new-tools.mjs",
  "extract-ab": "extract-ab.mjs",
  "io-ab": "io-ab.mjs",
  "query-ab": "query-ab.mjs",
};

/** Every benchmark: name → script, relative to test/bench. */
function benchmarks() {
  const out = new Map();
  for (const entry of fs.readdirSync(here, { withFileTypes: true })) {
    if (entry.isFile() && entry.name.endsWith("-bench.mjs"))
      out.set(entry.name.slice(0, -"-bench.mjs".length), entry.name);
    else if (entry.isDirectory() && fs.existsSync(path.join(here, entry.name, "run.mjs")))
      out.set(entry.name, `${entry.name}/run.mjs`);
  }
  for (const [name, file] of Object.entries(NAMED)) {
    if (!fs.existsSync(path.join(here, file))) continue;
    for (const [other, f] of out) if (f === file) out.delete(other); // one name per script
    out.set(name, file);
  }
  return new Map([...out].sort(([a], [b]) => a.localeCompare(b)));
}

/** The first line of a script's opening comment (`//` lines or a `/** … *\/` block). */
function summary(file) {
  const lines = fs.readFileSync(path.join(here, file), "utf8").split("\n").slice(0, 12);
  for (const line of lines) {
    const text = line.replace(/^\s*(\/\/|\/\*\*|\*)\s?/, "").trim();
    if (line.startsWith("#!") || text === "" || text === "/") continue;
    if (/^(\/\/|\/\*\*|\s*\*)/.test(line)) return text.length > 110 ? `${text.slice(0, 109)}…` : text;
    return "";
  }
  return "";
}

const all = benchmarks();
const [name, ...rest] = process.argv.slice(2);
if (!name || name === "--help" || name === "-h") {
  console.log("usage: npm run bench -- <name> [options]   (each script's header says its options)\n");
  const width = Math.max(...[...all.keys()].map((n) => n.length));
  for (const [n, file] of all) console.log(`  ${n.padEnd(width)}  ${summary(file)}`);
  process.exit(name ? 0 : 2);
}
const file = all.get(name);
if (!file) {
  const near = [...all.keys()].filter((n) => n.includes(name) || name.includes(n));
  console.error(
    `codeslice bench: no benchmark named "${name}".${near.length ? ` Did you mean ${near.join(", ")}?` : ""} \`npm run bench\` lists them.`,
  );
  process.exit(2);
}
const r = spawnSync(process.execPath, [path.join(here, file), ...rest], { stdio: "inherit" });
process.exit(r.status ?? 1);
