/**
 * The cache damage loop (cache-damage.suite.ts) on the Node store, in this process, and on the Deno
 * store under `deno test` (deno/cache-damage_test.ts with the Vitest shim). The Deno run starts when
 * this file loads, so the two loops use both cores; it is skipped when the deno devDependency is
 * missing.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createNodePlatform, NodeWasmSource } from "../../src/platform/node/index.ts";
import { cacheDamageSuite } from "./cache-damage.suite.ts";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const deno = fileURLToPath(
  new URL(`../../node_modules/.bin/deno${process.platform === "win32" ? ".cmd" : ""}`, import.meta.url),
);

const denoRun = fs.existsSync(deno)
  ? new Promise<{ code: number | null; output: string }>((resolve, reject) => {
      const child = spawn(deno, ["test", "-A", "--no-check", "--config", "test/fault/deno/deno.json"], {
        cwd: repoRoot,
        env: { ...process.env, NO_COLOR: "1" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let text = "";
      child.stdout.on("data", (d: Buffer) => (text += d.toString()));
      child.stderr.on("data", (d: Buffer) => (text += d.toString()));
      child.on("error", reject);
      child.on("close", (code) => resolve({ code, output: text }));
    })
  : undefined;

const wasm = new NodeWasmSource();
cacheDamageSuite("Node store", 128, async (root, cacheDir, logger) => ({
  ...(await createNodePlatform({ root, cacheDir, logger })),
  wasm,
}));

describe.runIf(denoRun !== undefined)("random damage to the cache folder (Deno store, under deno test)", () => {
  it("deno test runs the same loop on the Deno store and it passes", async () => {
    const { code, output } = await denoRun!;
    const summary = /^(ok|FAILED) \| (\d+) passed(?: \((\d+) steps?\))? \| (\d+) failed/m.exec(output);
    expect(code, output.slice(-4000)).toBe(0);
    expect(summary?.[1]).toBe("ok");
    expect(output).toMatch(/\d+ seeds: answers equal a clean run, and the folder heals \.\.\. ok/);
  }, 300_000);
});
