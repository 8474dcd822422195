/**
 * Runs the Deno half of the suite from Vitest, so `npm test` covers Deno too: the shared test files
 * listed in test/deno/deno.json, under `deno test` with the Vitest shim (see vitest-shim.ts).
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const deno = fileURLToPath(
  new URL(`../../node_modules/.bin/deno${process.platform === "win32" ? ".cmd" : ""}`, import.meta.url),
);

function run(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(deno, args, {
      cwd: repoRoot,
      env: { ...process.env, NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

describe("the suite under Deno", () => {
  it("deno is installed (the npm devDependency)", () => {
    expect(fs.existsSync(deno), `${deno} is missing: run npm ci`).toBe(true);
  });

  it("deno test -A runs the shared test files and they pass", async () => {
    const { code, output } = await run(["test", "-A", "--no-check", "--config", "test/deno/deno.json"]);
    const summary = /^(ok|FAILED) \| (\d+) passed(?: \((\d+) steps?\))? \| (\d+) failed/m.exec(output);
    if (code !== 0 || !summary) console.error(output);
    expect(code, "deno test exit code (output above)").toBe(0);
    expect(summary?.[1]).toBe("ok");
    // Each top-level describe is one Deno test and each it() a step: both must have run.
    expect(Number(summary?.[2])).toBeGreaterThan(20);
    expect(Number(summary?.[3])).toBeGreaterThan(150);
  }, 600_000);
});
