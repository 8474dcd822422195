#!/usr/bin/env node
// Build: regenerate the query module, compile src/ to dist/ with tsc (type-checking both the
// whole tree and the pure core fence), and mark the CLI executable.
import { execFileSync } from "node:child_process";
import { chmodSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const tsc = fileURLToPath(new URL("../node_modules/typescript/bin/tsc", import.meta.url));
const run = (args) => execFileSync(process.execPath, args, { cwd: root, stdio: "inherit" });

run(["scripts/gen-queries.mjs"]);
rmSync(new URL("../dist", import.meta.url), { recursive: true, force: true });
run([tsc, "-p", "tsconfig.json"]);
run([tsc, "-p", "src/core/tsconfig.json"]);
chmodSync(new URL("../dist/cli/main.js", import.meta.url), 0o755);
