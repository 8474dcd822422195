/**
 * Risk from reach, not from depth alone (issue 24 item 7): a symbol most tests or routes run
 * through is high risk however few its callers. In a small hono-shaped project, `compose` has one
 * production caller (`Hono.dispatch`), yet all twelve routing tests send a request through it;
 * `mergePath`, called by two of the fourteen tests, stays low.
 *
 * Reach = the share of test cases (per the runner's rules: each `it(...)`) and of the project's own
 * routes whose call closure holds the symbol, the larger of the two.
 */
import * as fs from "node:fs";
import { describe, expect, it } from "vitest";
import { memoryEngine } from "../support/platform.ts";

const FIXTURE = fs.readFileSync(new URL("./reach-fixtures/tiny-hono.txt", import.meta.url), "utf8");

describe("impact: risk from reach", () => {
  it("rates the middleware compose every request passes through as high, with its reach", async () => {
    const { engine } = memoryEngine(FIXTURE);
    const a = await engine.impact("compose");
    expect(a.risk.productionCallers).toBeLessThan(5); // few callers: depth and counts alone said low
    expect(a.risk.reach).toMatchObject({ tests: 12, testsTotal: 14, routes: 0, routesTotal: 0 });
    expect(a.risk.reach.share).toBeCloseTo(12 / 14, 3);
    expect(a.risk.level).toBe("high");
    expect(a.text).toMatch(/^Risk: high .*at any depth, 12 of 14 tests reach it \(86%\)/m);
  });

  it("keeps a helper two tests call low", async () => {
    const { engine } = memoryEngine(FIXTURE);
    const a = await engine.impact("mergePath");
    expect(a.risk.reach).toMatchObject({ tests: 2, testsTotal: 14 });
    expect(a.risk.level).toBe("low");
  });

  it("counts the dispatcher between the requests and compose as reached by the same tests", async () => {
    const { engine } = memoryEngine(FIXTURE);
    const a = await engine.impact("Hono.dispatch");
    expect(a.risk.reach.tests).toBe(12);
    expect(a.risk.level).toBe("high");
  });
});
