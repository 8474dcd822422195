/**
 * The house rule "no line in src/ over 120 characters" (issue 23), checked with the same script that
 * wraps comments and literals (scripts/wrap-long-lines.mjs --check), outside generated files. The
 * checker also runs on a file with one long line, so a checker that sees nothing fails.
 */
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const repoRoot = fileURLToPath(new URL("..", import.meta.url));
const script = path.join(repoRoot, "scripts/wrap-long-lines.mjs");

describe("line length", () => {
  it("no line in src/ is over 120 characters", () => {
    const out = spawnSync(process.execPath, [script, "--check", "src"], { cwd: repoRoot, encoding: "utf8" });
    expect(out.stdout.trim().split("\n").slice(0, -1)).toEqual([]);
    expect(out.status).toBe(0);
  });

  it("the checker reports a long line", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-lines-"));
    try {
      fs.writeFileSync(path.join(dir, "long.ts"), `export const x = 1;\nexport const y = "${"a".repeat(130)}";\n`);
      const out = spawnSync(process.execPath, [script, "--check", dir], { encoding: "utf8" });
      expect(out.status).toBe(1);
      expect(out.stdout).toContain("long.ts:2: 150 characters");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    expect(
      execFileSync(process.execPath, [script, "--check", path.join(repoRoot, "src/shared")], { encoding: "utf8" }),
    ).toContain("0 lines over 120");
  });
});
