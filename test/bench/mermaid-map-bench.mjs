#!/usr/bin/env node
// The architecture map that the MCP prompt generate_map carries, printed for a corpus: the
// README's Mermaid diagram comes from this script (hono at 28a9c128, budget 500).
//
// Rerun:
//   node scripts/build.mjs && npm run bench -- mermaid-map /path/to/hono [--budget 500]
// Prints the diagrams' markdown on stdout and their token count and sizes on stderr.
import os from "node:os";
import path from "node:path";
import { createEngine } from "../../dist/index.js";
import { createNodePlatform } from "../../dist/platform/node/index.js";
import { ensureBuilt, parseArgs } from "./lib/bench-utils.mjs";

const { flags, positionals } = parseArgs(process.argv.slice(2));
if (!positionals[0]) {
  console.error("usage: npm run bench -- mermaid-map <corpus dir> [--budget N]");
  process.exit(2);
}
ensureBuilt();
const root = path.resolve(positionals[0]);
const platform = await createNodePlatform({
  root,
  cacheDir: path.join(os.tmpdir(), "codeslice-bench-cache", `mermaid-${path.basename(root)}`),
});
const engine = createEngine(platform, { quiet: true });
try {
  const map = await engine.mermaidMap({ budget: Number(flags.budget ?? 500) });
  console.log(map.text);
  console.error(`${map.tokens} tokens; shown ${JSON.stringify(map.shown)} of ${JSON.stringify(map.total)}`);
} finally {
  engine.close();
}
