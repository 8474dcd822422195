/** Builds the playground into playground/dist with Vite's API (what `npm run build:playground` does). */
import { fileURLToPath } from "node:url";
import { build } from "vite";

export const PLAYGROUND_DIST = fileURLToPath(new URL("../../../playground/dist/", import.meta.url));

export async function buildPlayground(): Promise<string> {
  // Vitest runs with NODE_ENV=test, and Vite derives import.meta.env.PROD from NODE_ENV: without
  // this the tests would check a build without its service worker, unlike the one people deploy.
  const before = process.env.NODE_ENV;
  process.env.NODE_ENV = "production";
  try {
    await build({ configFile: fileURLToPath(new URL("../../../playground/vite.config.ts", import.meta.url)), logLevel: "error", mode: "production" });
  } finally {
    if (before === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = before;
  }
  return PLAYGROUND_DIST;
}
