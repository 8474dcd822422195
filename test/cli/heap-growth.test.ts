/**
 * A CLI process bounds V8's old-generation growth to twice what a full collection left live
 * (`boundHeapGrowth` in src/platform/node/index.ts): with V8's own choice, up to four times, a cold
 * index's peak RSS swung by ~100 MB from run to run with when its full collections fell.
 * V8 reports each new limit and the factor it used under `--trace-gc-verbose`.
 */
import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, ensureCliBuilt, tempDirs } from "../support/cli.ts";

const dirs = tempDirs("codeslice-heap-growth-");
beforeAll(ensureCliBuilt);
afterAll(() => dirs.cleanup());

/** The growth factors V8 set the old generation's limit with during one CLI run under `nodeFlags`. */
function growthFactors(args: string[], nodeFlags: string[] = []): number[] {
  const r = spawnSync(process.execPath, [...nodeFlags, "--trace-gc", "--trace-gc-verbose", cli, ...args], {
    encoding: "utf8",
    timeout: 120_000,
    maxBuffer: 1 << 28,
  });
  expect(r.status, r.stderr).toBe(0);
  // "[HeapController] Limit: old size: 12464 KB, new limit: 32982 KB (2.0)"
  return [...r.stdout.matchAll(/\[HeapController\] Limit: .*\((\d+(?:\.\d+)?)\)/g)].map((m) => Number(m[1]));
}

describe("a CLI process's heap growth", () => {
  it("sets every old-generation limit at most twice the live size (V8 alone chose 4.0)", () => {
    const root = dirs.project({
      "app.py": "from util import helper\n\ndef main():\n    return helper(1)\n",
      "util.py": "def helper(x):\n    return x + 1\n",
    });
    const cache = `${dirs.make()}/cache`;
    // `--gc-global` makes every collection a full one, so a run this small still sets limits; the ones
    // set while the CLI's modules load come before it bounds the growth, so the last one is checked.
    const factors = growthFactors(["index", "--root", root, "--cache-dir", cache, "--quiet"], ["--gc-global"]);
    expect(factors.length).toBeGreaterThan(0);
    expect(factors.at(-1)).toBeLessThanOrEqual(2);
  });

  it("leaves a limit the user set on node's command line in charge", () => {
    const root = dirs.project({ "a.py": "def f():\n    return 1\n" });
    const cache = `${dirs.make()}/cache`;
    const factors = growthFactors(
      ["index", "--root", root, "--cache-dir", cache, "--quiet"],
      ["--gc-global", "--heap-growing-percent=50"],
    );
    expect(factors.length).toBeGreaterThan(0);
    for (const f of factors) expect(f).toBe(1.5);
  });
});
