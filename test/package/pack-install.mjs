// The published package as a user gets it: `npm pack` the project, then `npm install` the tarball
// into an empty folder. Shared by test/package/package.test.ts and test/bench/deno-bench.mjs.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
export const denoBin = path.join(repoRoot, "node_modules", ".bin", process.platform === "win32" ? "deno.cmd" : "deno");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

/**
 * The environment for a nested npm/npx/deno: without the npm_* variables of an enclosing
 * `npm test`, which would point the inner npm at this project's config and scripts.
 */
export function cleanEnv(extra = {}) {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k)) env[k] = v;
  return { ...env, NO_COLOR: "1", ...extra };
}

/** Builds dist/ only when it is missing: rebuilding deletes dist/, which tests running alongside use. */
export function ensureBuilt() {
  if (!fs.existsSync(path.join(repoRoot, "dist", "cli", "main.js"))) {
    execFileSync(process.execPath, [path.join(repoRoot, "scripts", "build.mjs")], { cwd: repoRoot, stdio: "inherit" });
  }
}

/**
 * Packs the project into `<dir>/` and installs the tarball into `<dir>/app` (an empty project).
 * Returns the `npm pack --json` entry (filename, size, unpackedSize, files) and the folders.
 * `--ignore-scripts` on pack: the `prepack` script would rebuild dist/ under running tests.
 */
export function packAndInstall(dir = fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-pack-"))) {
  ensureBuilt();
  const out = execFileSync(npm, ["pack", "--json", "--ignore-scripts", "--pack-destination", dir], {
    cwd: repoRoot,
    env: cleanEnv(),
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  const pack = JSON.parse(out.slice(out.indexOf("[")))[0];
  const tarball = path.join(dir, pack.filename);
  const appDir = path.join(dir, "app");
  fs.mkdirSync(appDir);
  fs.writeFileSync(
    path.join(appDir, "package.json"),
    `${JSON.stringify({ name: "codeslice-install-check", version: "0.0.0", private: true }, null, 2)}\n`,
  );
  // --prefer-offline: the dependencies are in npm's cache already on any machine that ran `npm ci`.
  execFileSync(npm, ["install", tarball, "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd: appDir,
    env: cleanEnv(),
    stdio: ["ignore", "pipe", "pipe"],
  });
  return { dir, tarball, pack, appDir };
}

/** Total bytes of the files under `dir`. */
export function folderBytes(dir) {
  let total = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (e.isFile()) total += fs.statSync(path.join(e.parentPath, e.name)).size;
  return total;
}
