#!/usr/bin/env node
// Runs many `codeslice` command lines in one process, as the CLI runs each (its own command table,
// dispatch and --json writer; a new engine per line, reading the index from the cache), and
// writes [{ argv, status, stdout }] as JSON to the file named last. The LSP tests compare the
// server's answers with hundreds of CLI answers; one process per line would cost ~1.5 s each.
// Usage: node test/lsp/cli-batch.mjs ARGV_LIST.json OUT.json
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const dist = new URL("../../dist/cli/", import.meta.url);
const { runCli } = await import(new URL("dispatch.js", dist).href);
const { COMMANDS } = await import(new URL("commands/index.js", dist).href);
const [listFile, outFile] = process.argv.slice(2);
const lines = JSON.parse(readFileSync(listFile, "utf8"));
const results = [];
const write = process.stdout.write.bind(process.stdout);
for (const argv of lines) {
  let out = "";
  process.stdout.write = (chunk) => ((out += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8")), true);
  let status;
  try {
    status = await runCli(argv, COMMANDS, { version: "batch", entry: fileURLToPath(new URL("main.js", dist)) });
  } finally {
    process.stdout.write = write;
  }
  results.push({ argv, status, stdout: out });
}
writeFileSync(outFile, JSON.stringify(results));
