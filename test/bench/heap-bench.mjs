#!/usr/bin/env node
/**
 * The MCP server under a small heap: `node --max-old-space-size=N dist/cli/main.js mcp` on django
 * (Debian's python3-django), a real SDK client calling repo_map, context, search and callers. For
 * each heap size: which calls answered, which were refused with a tool error (and its text), and
 * whether the server stayed alive (it must never abort). Writes results/heap.json.
 *
 *   node test/bench/heap-bench.mjs [--heaps 64,96,128,256]
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { createRequire } from "node:module";
import {
  cliPath,
  codesliceRevision,
  ensureBuilt,
  machine,
  parseArgs,
  prepareDjango,
  repoRoot,
  resultsDir,
  runCli,
  writeJson,
} from "./lib/bench-utils.mjs";

const require = createRequire(path.join(repoRoot, "package.json"));
const { Client } = await import(require.resolve("@modelcontextprotocol/sdk/client/index.js"));
const { StdioClientTransport } = await import(require.resolve("@modelcontextprotocol/sdk/client/stdio.js"));

const { flags } = parseArgs(process.argv.slice(2));
const heaps = String(flags.heaps ?? "64,96,128,256")
  .split(",")
  .map(Number);
ensureBuilt();
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-heap-"));
process.on("exit", () => fs.rmSync(scratch, { recursive: true, force: true }));
const { corpus, version } = prepareDjango(scratch);
const cache = path.join(scratch, "cache");
await runCli(["index", "--root", corpus, "--cache-dir", cache, "--quiet"]); // a warm cache, as a second session has

const CALLS = [
  ["repo_map", {}],
  ["context", { target: "QuerySet.filter", budget: 4000 }],
  ["search", { query: "authenticate user" }],
  ["callers", { symbol: "QuerySet.filter" }],
];

const results = [];
for (const heap of heaps) {
  let stderr = "";
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [`--max-old-space-size=${heap}`, cliPath, "mcp", "--root", corpus, "--cache-dir", cache],
    stderr: "pipe",
  });
  transport.stderr?.on("data", (d) => (stderr += d));
  const client = new Client({ name: "heap-bench", version: "1" });
  await client.connect(transport);
  const calls = [];
  let alive = true;
  for (const [name, args] of CALLS) {
    const started = Date.now();
    try {
      const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 600_000 });
      const text = r.content?.[0]?.text ?? "";
      calls.push({
        tool: name,
        outcome: r.isError ? "refused" : "answered",
        ms: Date.now() - started,
        ...(r.isError ? { error: text.split("\n")[0] } : {}),
      });
    } catch (error) {
      alive = false;
      calls.push({
        tool: name,
        outcome: "connection lost",
        ms: Date.now() - started,
        error: String(error.message ?? error),
      });
      break;
    }
  }
  await client.close().catch(() => {});
  const aborted = /heap out of memory|FATAL ERROR/.test(stderr);
  results.push({ heapMiB: heap, alive: alive && !aborted, aborted, calls });
  console.error(
    `--max-old-space-size=${heap}: ${calls.map((c) => `${c.tool} ${c.outcome}`).join(", ")}${aborted ? " — ABORTED" : ""}`,
  );
}

writeJson(path.join(resultsDir, "heap.json"), {
  machine: machine(),
  revision: codesliceRevision(),
  corpus: `django ${version}`,
  results,
});
for (const r of results) {
  console.log(
    `| ${r.heapMiB} MiB | ${r.calls.map((c) => `${c.tool}: ${c.outcome}`).join("; ")} | ${r.aborted ? "aborted" : "alive"} |`,
  );
}
if (results.some((r) => r.aborted)) process.exitCode = 1;
