#!/usr/bin/env node
// Build: regenerate the query module, compile src/ with tsc (type-checking both the whole tree
// and the pure core fence) into a fresh folder, bundle the command line over tsc's
// dist/cli/main.js (scripts/bundle-cli.mjs: one file to load instead of ~150 modules), then swap
// the folder in for dist/ in one rename, so a test or a CLI run in parallel never sees a
// half-written dist/.
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, renameSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { bundleCli } from "./bundle-cli.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const tsc = fileURLToPath(new URL("../node_modules/typescript/bin/tsc", import.meta.url));
const run = (args) => execFileSync(process.execPath, args, { cwd: root, stdio: "inherit" });
const out = `dist.build-${process.pid}`;
const old = `dist.old-${process.pid}`;

run(["scripts/gen-queries.mjs"]);
try {
  run([tsc, "-p", "tsconfig.json", "--outDir", out]);
  run([tsc, "-p", "src/core/tsconfig.json"]);
  await bundleCli(root, `${root}/${out}`);
  chmodSync(`${root}/${out}/cli/main.js`, 0o755);
  if (existsSync(`${root}/dist`)) renameSync(`${root}/dist`, `${root}/${old}`);
  renameSync(`${root}/${out}`, `${root}/dist`);
} finally {
  rmSync(`${root}/${out}`, { recursive: true, force: true });
  rmSync(`${root}/${old}`, { recursive: true, force: true });
}
