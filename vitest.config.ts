import { configDefaults, defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // test/deno holds Deno-only test files; test/deno/run.test.ts runs them under `deno test`.
    exclude: [...configDefaults.exclude, "test/deno/!(run).test.ts"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // The CLI tests run the CLI in-process, as they always have: no warm server outlives a test,
    // and none answers for another. test/cli/warm-server.test.ts turns it back on for its runs.
    env: { CODESLICE_NO_SERVER: "1" },
    // `npm test` runs this suite, then vitest.browser.config.ts; .ci/run adds up both JSON reports.
    reporters: ["default", "json"],
    outputFile: { json: "test-results/vitest-node.json" },
  },
});
