// The compiler-grade tools the accuracy benchmark needs, installed into a cache folder
// (never into the project's dependencies): the two SCIP indexers, the TypeScript 5.9 compiler API
// for TS syntax facts, protobufjs to read SCIP files, and Pyright's language server for the adjudication of
// pairs the gold cannot judge.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { benchCache } from "../lib/bench-utils.mjs";

export const TOOL_VERSIONS = {
  "@sourcegraph/scip-python": "0.6.6",
  "@sourcegraph/scip-typescript": "0.4.0",
  typescript: "5.9.3",
  protobufjs: "8.8.1",
  // the checker's own answers at the sites the SCIP gold cannot judge (adjudicate.mjs)
  pyright: "1.1.414",
};

export const toolsDir = process.env.CODESLICE_BENCH_TOOLS || path.join(benchCache, "tools");

function installedVersion(pkg) {
  try {
    return JSON.parse(fs.readFileSync(path.join(toolsDir, "node_modules", pkg, "package.json"), "utf8")).version;
  } catch {
    return null;
  }
}

/** Installs the pinned tools with `npm install --prefix <toolsDir>` unless they are already there. */
export function ensureTools() {
  const missing = Object.entries(TOOL_VERSIONS).filter(([pkg, v]) => installedVersion(pkg) !== v);
  if (missing.length === 0) return;
  fs.mkdirSync(toolsDir, { recursive: true });
  const manifest = path.join(toolsDir, "package.json");
  if (!fs.existsSync(manifest))
    fs.writeFileSync(manifest, JSON.stringify({ name: "codeslice-bench-tools", private: true }, null, 1));
  const specs = Object.entries(TOOL_VERSIONS).map(([pkg, v]) => `${pkg}@${v}`);
  console.error(`installing ${specs.join(" ")} into ${toolsDir}`);
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--prefix", toolsDir, ...specs], {
    stdio: ["ignore", "inherit", "inherit"],
  });
}

const requireTool = createRequire(path.join(toolsDir, "package.json"));
export const loadTypeScript = () => requireTool("typescript");
export const loadProtobuf = () => requireTool("protobufjs");
/** Path of a tool's bin script (run with `node`). */
export const toolBin = (name) => path.join(toolsDir, "node_modules", ".bin", name);
