/**
 * `impact` over fixtures in the memory platform: callers by depth with resolution and confidence,
 * callees, a file or lines as the target, the routes and tests reached, the risk summary, paging
 * within a budget on a symbol with thousands of callers, and the bad input the issue lists.
 */
import { describe, expect, it } from "vitest";
import type { EngineError, ImpactAnswer } from "../../src/index.ts";
import { memoryEngine } from "../support/platform.ts";

const FIXTURE = `
//- shop/__init__.py
//- shop/core.py
def helper(x):
    return x + 1


def compute(a, b):
    return helper(a) + b


class Base:
    def save(self):
        return 1


class Child(Base):
    def save(self):
        return 2
//- shop/service.py
from shop.core import compute, Base


def total(n):
    return compute(n, 2)


def persist(obj: Base):
    return obj.save()
//- shop/web/views.py
from flask import Flask
from shop.service import total

app = Flask(__name__)


@app.route("/total")
def total_view():
    return str(total(3))
//- tests/test_core.py
from shop.core import compute
from shop.service import total


def test_compute():
    assert compute(1, 2) == 4


def test_total():
    assert total(1) == 4
//- tests/test_imports_only.py
import shop.core


def test_module():
    assert shop.core
`;

async function check(
  target: string,
  options: Parameters<ReturnType<typeof memoryEngine>["engine"]["impact"]>[1] = {},
  files = FIXTURE,
): Promise<ImpactAnswer> {
  const { engine } = memoryEngine(files);
  return engine.impact(target, options);
}

async function failure(
  target: string,
  options: Parameters<ReturnType<typeof memoryEngine>["engine"]["impact"]>[1] = {},
): Promise<EngineError> {
  try {
    await check(target, options);
  } catch (error) {
    return error as EngineError;
  }
  throw new Error("expected an error");
}

describe("impact", () => {
  it("lists callers by depth, with resolution, confidence, routes, tests and the risk", async () => {
    const a = await check("shop.core.helper", { tests: "include" });
    expect(a.resolvedAs).toBe("symbol");
    expect(a.direction).toBe("up");
    expect(a.depth).toBe(3);
    const rows = a.entries.map((e) => `${e.depth} ${e.qualified}`);
    expect(rows).toEqual(
      expect.arrayContaining(["1 shop.core.compute", "2 shop.service.total", "3 shop.web.views.total_view"]),
    );
    const compute = a.entries.find((e) => e.qualified === "shop.core.compute")!;
    expect(compute).toMatchObject({ direction: "up", resolution: "scope", site: { path: "shop/core.py", line: 6 } });
    expect(compute.confidence).toBeGreaterThan(0.5);
    const view = a.entries.find((e) => e.qualified === "shop.web.views.total_view")!;
    expect(view.pathConfidence).toBeLessThanOrEqual(view.confidence);
    expect(a.routes).toEqual([expect.objectContaining({ method: "GET", path: "/total", depth: 3 })]);
    expect(a.tests.map((t) => t.id)).toEqual(expect.arrayContaining(["tests/test_core.py::test_compute"]));
    expect(a.risk).toMatchObject({ productionCallers: 3, directCallers: 1, routes: 1 });
    expect(a.risk.deepest.path).toEqual([
      "shop.web.views.total_view",
      "shop.service.total",
      "shop.core.compute",
      "shop.core.helper",
    ]);
    expect(a.text).toMatch(/^## Callers at depth 1$/m);
    expect(a.text).toMatch(/^Risk: (low|medium|high) — 3 production callers/m);
    expect(a.usage.tokens).toBeLessThanOrEqual(a.usage.budget);
  });

  it("sets test code apart by default, and lists only it with tests=only", async () => {
    const a = await check("shop.core.compute");
    expect(a.entries.every((e) => !e.inTest)).toBe(true);
    expect(a.testCode.entries).toBeGreaterThan(0);
    expect(a.text).toMatch(/counted, not listed/);
    const only = await check("shop.core.compute", { tests: "only" });
    expect(only.entries.length).toBeGreaterThan(0);
    expect(only.entries.every((e) => e.inTest)).toBe(true);
    expect(only.entries.find((e) => e.qualified === "tests.test_core.test_compute")!.test).toBe(
      "tests/test_core.py::test_compute",
    );
  });

  it("follows dispatch: a call through the base method reaches the override (via-base)", async () => {
    const a = await check("shop.core.Child.save");
    const persist = a.entries.find((e) => e.qualified === "shop.service.persist");
    expect(persist?.resolution).toBe("via-base");
  });

  it("goes down to callees, or both ways", async () => {
    const down = await check("shop.service.total", { direction: "down" });
    expect(down.entries.map((e) => `${e.direction} ${e.depth} ${e.qualified}`)).toEqual([
      "down 1 shop.core.compute",
      "down 2 shop.core.helper",
    ]);
    expect(down.total.up).toBe(0);
    const both = await check("shop.service.total", { direction: "both", depth: 1 });
    expect(both.entries.map((e) => e.direction)).toEqual(["up", "down"]);
  });

  it("takes a file (everything it defines, and test files importing it) or lines of a file", async () => {
    const file = await check("shop/core.py");
    expect(file.resolvedAs).toBe("file");
    expect(file.targets.map((t) => t.qualified)).toEqual(
      expect.arrayContaining(["shop.core.compute", "shop.core.helper", "shop.core.Child.save"]),
    );
    expect(file.tests.map((t) => `${t.via} ${t.path}`)).toEqual(
      expect.arrayContaining(["import tests/test_imports_only.py"]),
    );
    const lines = await check("shop/core.py:5-6");
    expect(lines.resolvedAs).toBe("lines");
    expect(lines.targets.map((t) => t.qualified)).toEqual(["shop.core.compute"]);
    const module = await check("shop/web/views.py:4");
    expect(module.targets.map((t) => t.kind)).toEqual(["module"]);
  });

  it("pages a symbol with thousands of callers within the budget, stating the total", async () => {
    const callers = Array.from({ length: 2000 }, (_, i) => `def caller_${i}():\n    return target()\n`).join("\n\n");
    const files = `//- lib/core.py\ndef target():\n    return 1\n//- lib/many.py\nfrom lib.core import target\n\n\n${callers}\n`;
    const first = await check("lib.core.target", {}, files);
    expect(first.total.up).toBe(2000);
    expect(first.usage.tokens).toBeLessThanOrEqual(4000);
    expect(first.page.matching).toBe(2000);
    expect(first.page.next).toBeDefined();
    expect(first.text).toContain(`cursor=${first.page.next}`);
    const second = await check("lib.core.target", { cursor: first.page.next! }, files);
    expect(second.page.offset).toBe(first.page.shown);
    expect(second.entries[0]!.qualified).not.toBe(first.entries[0]!.qualified);
  });

  it("keeps the direction it was asked with on the next page: the cursor carries it", async () => {
    const first = await check("shop.service.total", { direction: "down", limit: 1 });
    expect(first.entries.map((e) => `${e.direction} ${e.qualified}`)).toEqual(["down shop.core.compute"]);
    expect(first.text).toContain(`cursor=${first.page.next}`);
    // The next page as the text says to ask for it: the cursor alone.
    const second = await check("shop.service.total", { cursor: first.page.next! });
    expect(second.direction).toBe("down");
    expect(second.entries.map((e) => `${e.direction} ${e.qualified}`)).toEqual(["down shop.core.helper"]);
    // Asking for another direction with that cursor is refused, as for tests and depth.
    const { engine } = memoryEngine(FIXTURE);
    await expect(
      engine.impact("shop.service.total", { cursor: first.page.next!, direction: "up" }),
    ).rejects.toMatchObject({ code: "invalid_argument", data: { direction: "up" } });
    // A callers' cursor (direction up, the default) pages callers.
    const up = await check("shop.core.helper", { limit: 1 });
    const upNext = await check("shop.core.helper", { cursor: up.page.next! });
    expect(upNext.direction).toBe("up");
    expect(upNext.page.offset).toBe(1);
  });

  it("refuses bad input with a code and data", async () => {
    expect((await failure("shop.core.nothing")).code).toBe("unknown_symbol");
    expect((await failure("save")).code).toBe("ambiguous_symbol");
    const zero = await failure("shop.core.helper", { depth: 0 });
    expect(zero).toMatchObject({ code: "invalid_argument", data: { depth: 0, max: 10 } });
    expect((await failure("shop.core.helper", { depth: 1000 })).code).toBe("invalid_argument");
    expect((await failure("shop.core.helper", { direction: "sideways" as "up" })).data).toMatchObject({
      direction: "sideways",
    });
    expect((await failure("shop/core.py:900")).data).toMatchObject({ totalLines: 16 });
    expect((await failure("  ")).code).toBe("invalid_argument");
    expect((await failure("shop.core.helper", { cursor: "nonsense" })).code).toBe("invalid_argument");
  });
});
