/**
 * Runs the cache damage loop on the Deno store (deno/cache-damage_test.ts) under `deno test`, so
 * `npm test` covers the Deno store's healing too. Skipped when the deno devDependency is missing.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const deno = fileURLToPath(new URL(`../../node_modules/.bin/deno${process.platform === "win32" ? ".cmd" : ""}`, import.meta.url));

describe.runIf(fs.existsSync(deno))("cache damage under Deno", () => {
  it("deno test runs the damage loop on the Deno store and it passes", async () => {
    const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
      const child = spawn(deno, ["test", "-A", "--no-check", "--config", "test/fault/deno/deno.json"], {
        cwd: repoRoot, env: { ...process.env, NO_COLOR: "1" }, stdio: ["ignore", "pipe", "pipe"],
      });
      let text = "";
      child.stdout.on("data", (d: Buffer) => (text += d.toString()));
      child.stderr.on("data", (d: Buffer) => (text += d.toString()));
      child.on("error", reject);
      child.on("close", (c) => resolve({ code: c, output: text }));
    });
    const summary = /^(ok|FAILED) \| (\d+) passed(?: \((\d+) steps?\))? \| (\d+) failed/m.exec(output);
    expect(code, output.slice(-4000)).toBe(0);
    expect(summary?.[1]).toBe("ok");
    expect(output).toMatch(/\d+ seeds: answers equal a clean run, and the folder heals \.\.\. ok/);
  }, 300_000);
});
