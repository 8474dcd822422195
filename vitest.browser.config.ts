/**
 * The browser half of `npm test`, after the Node suite:
 * - "chromium": the shared core tests and the browser platform's contract and protocol tests,
 *   run inside headless Chromium by Vitest browser mode (a Node-only global in the core fails here);
 * - "playground": Node-side tests that build the playground and drive it with playwright-core.
 * The browser: CHROMIUM_PATH, which `npm test` sets by running this suite through
 * scripts/ensure-chromium.mjs (Playwright's cache, then a system Chromium on PATH, else it installs
 * one); run directly, test/browser/support/chromium.ts does the same lookup.
 */
import { fileURLToPath } from "node:url";
import { playwright } from "@vitest/browser-playwright";
import { defineConfig } from "vitest/config";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "./test/browser/support/chromium.ts";
import { cliArtifact, lspGold } from "./test/browser/support/node-commands.ts";

export default defineConfig({
  test: {
    reporters: ["default", "json"],
    outputFile: { json: "test-results/vitest-browser.json" },
    projects: [
      {
        // docs/examples import the package by name: point it at the sources, not a build in dist/.
        resolve: { alias: [{ find: /^codeslice$/, replacement: fileURLToPath(new URL("./src/index.ts", import.meta.url)) }] },
        test: {
          name: "chromium",
          include: [
            "test/languages/languages.test.ts",
            "test/graph/graph.test.ts",
            "test/query/query.test.ts",
            "test/engine/incremental.test.ts",
            "test/browser/**/*.chromium.ts",
          ],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          browser: {
            enabled: true,
            headless: true,
            screenshotFailures: false,
            provider: playwright({ launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS } }),
            instances: [{ browser: "chromium" }],
            api: { host: "127.0.0.1" },
            // Node-side work a test asks for (the CLI as a CI machine runs it): commands.cliArtifact, commands.lspGold.
            commands: { cliArtifact, lspGold },
          },
        },
      },
      {
        test: {
          name: "playground",
          include: ["test/browser/**/*.e2e.ts"],
          environment: "node",
          pool: "forks",
          testTimeout: 120_000,
          hookTimeout: 300_000,
        },
      },
    ],
  },
});
