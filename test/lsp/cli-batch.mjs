#!/usr/bin/env node
// Runs many `codeslice` command lines in one process, as the CLI runs each (its own command table,
// dispatch and --json writer), and writes [{ argv, status, stdout }] as JSON to the file named
// last. The LSP tests compare the server's answers with hundreds of CLI answers; one process per
// line would cost ~1.5 s each, and even a new engine per line (the index read from the cache, the
// graph and word index built again) took 181 s for src/'s 250 lines. So the lines share one engine
// per project, lent as the warm CLI's server lends its own (lendEngines, refreshed before each
// line): test/cli/warm-server.test.ts holds those answers byte for byte equal to a fresh engine's.
// Usage: node test/lsp/cli-batch.mjs ARGV_LIST.json OUT.json
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const dist = new URL("../../dist/cli/", import.meta.url);
const { runCli } = await import(new URL("dispatch.js", dist).href);
const { COMMANDS } = await import(new URL("commands/index.js", dist).href);
const { lendEngines, makeEngine } = await import(new URL("with-engine.js", dist).href);
const engines = new Map();
lendEngines(async (flags) => {
  const key = JSON.stringify([flags.root ?? process.cwd(), flags.cacheDir ?? "", flags.maxFileBytes ?? ""]);
  let engine = engines.get(key);
  if (!engine) engines.set(key, (engine = makeEngine(flags)));
  const e = await engine;
  await e.refresh();
  return e;
});
const [listFile, outFile] = process.argv.slice(2);
const lines = JSON.parse(readFileSync(listFile, "utf8"));
const results = [];
const write = process.stdout.write.bind(process.stdout);
for (const argv of lines) {
  let out = "";
  process.stdout.write = (chunk) => (
    (out += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8")), true
  );
  let status;
  try {
    status = await runCli(argv, COMMANDS, { version: "batch", entry: fileURLToPath(new URL("main.js", dist)) });
  } finally {
    process.stdout.write = write;
  }
  results.push({ argv, status, stdout: out });
}
for (const engine of engines.values()) (await engine).close();
writeFileSync(outFile, JSON.stringify(results));
