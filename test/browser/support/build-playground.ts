/**
 * Builds the playground with Vite's API (what `npm run build:playground` does), into a fresh
 * folder of its own: each playground test file builds and serves its own copy, so files run side
 * by side (several forks) never empty or overwrite the folder another one is serving.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "vite";

/** Builds into a new temporary folder and returns its path (removed when the process exits). */
export async function buildPlayground(): Promise<string> {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-playground-"));
  process.once("exit", () => fs.rmSync(outDir, { recursive: true, force: true }));
  // Vitest runs with NODE_ENV=test, and Vite derives import.meta.env.PROD from NODE_ENV: without
  // this the tests would check a build without its service worker, unlike the one people deploy.
  const before = process.env.NODE_ENV;
  process.env.NODE_ENV = "production";
  try {
    await build({
      configFile: fileURLToPath(new URL("../../../playground/vite.config.ts", import.meta.url)),
      logLevel: "error",
      mode: "production",
      build: { outDir, emptyOutDir: true },
    });
  } finally {
    if (before === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = before;
  }
  return outDir;
}
