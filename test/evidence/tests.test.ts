/**
 * tests(target), as data: each case is a multi-file project (manifests included), a target, and
 * the tests the answer must list — runnable ids in each runner's own syntax and how each reaches
 * the target — with the command lines that run them. One case per runner convention: pytest
 * classes, functions, parametrize and unittest classes; Vitest nested describe blocks; Jest; go
 * test; cargo unit and integration tests; JUnit under Maven and Gradle; a monorepo package with
 * its own runner.
 */
import { describe, expect, it } from "vitest";
import type { TestsAnswer } from "../../src/index.ts";
import { memoryEngine, parseFixture } from "../support/platform.ts";
import { CASES } from "./cases.ts";

function shape(a: TestsAnswer): string[] {
  return a.tests.map(
    (t) =>
      `${t.id} [${t.evidence}]${t.group ? " (group)" : ""}${t.file ? " (file)" : ""}${t.parametrized ? " (parametrized)" : ""}`,
  );
}

describe("tests: runnable ids per runner", () => {
  for (const c of CASES) {
    it(c.name, async () => {
      const { engine } = memoryEngine(parseFixture(c.fixture));
      const a = await engine.tests(c.target, c.depth ? { depth: c.depth } : {});
      expect(shape(a)).toEqual(c.tests);
      expect(a.run.flatMap((r) => r.commands)).toEqual(c.commands);
      expect(a.run.map((r) => r.detectedBy ?? "")).toEqual(a.run.map(() => c.detectedBy ?? ""));
      expect(a.total).toBe(c.tests.length);
      expect(a.text).toContain(c.commands[0]!);
    });
  }

  it("the walk's depth bounds how far through helpers a test may be", async () => {
    const { engine } = memoryEngine(parseFixture(CASES[0]!.fixture));
    const shallow = await engine.tests("format_greeting", { depth: 1 });
    expect(shallow.tests.map((t) => t.id)).not.toContain("tests/test_models.py::test_through_helper");
    const deep = await engine.tests("format_greeting", { depth: 3 });
    const helper = deep.tests.find((t) => t.id === "tests/test_models.py::test_through_helper")!;
    expect(helper).toMatchObject({ depth: 3, through: ["tests.helpers.make_user", "shop.models.register"] });
  });

  it("with no project file naming a runner, the language's first is assumed, and the answer says so", async () => {
    const { engine } = memoryEngine(
      parseFixture(
        "//- lib.py\ndef f():\n    return 1\n//- test_lib.py\nfrom lib import f\n\n\ndef test_f():\n    assert f()\n",
      ),
    );
    const a = await engine.tests("f");
    expect(a.run).toEqual([
      { runner: "pytest", name: "pytest", cwd: "", tests: 1, commands: ["pytest test_lib.py::test_f"] },
    ]);
    expect(a.text).toMatch(/\(assumed\)/);
    expect(a.completeness.notes.join("\n")).toMatch(/no project file names a test runner/);
  });

  it("no test: says what was searched and what could not be seen", async () => {
    const { engine } = memoryEngine(parseFixture("//- a.py\ndef lonely():\n    return 1\n"));
    const a = await engine.tests("lonely");
    expect(a.total).toBe(0);
    expect(a.text).toMatch(/No test found within depth 2/);
    expect(a.text).toMatch(/Not seen \(so an empty list does not prove nothing is there\)/);
  });

  it("pages with a cursor like the other lists", async () => {
    const files: Record<string, string> = { "pytest.ini": "[pytest]\n", "lib.py": "def f():\n    return 1\n" };
    for (let i = 0; i < 30; i++)
      files[`tests/test_${i}.py`] = `from lib import f\n\n\ndef test_${i}():\n    assert f()\n`;
    const { engine } = memoryEngine(files);
    const first = await engine.tests("f", { limit: 12 });
    expect(first.page).toMatchObject({ matching: 30, shown: 12, next: expect.stringMatching(/^12\.only\.2\.v/) });
    expect(first.runAll?.[0]!.commands[0]).toMatch(/^pytest tests\/test_0\.py /);
    const ids = [...first.tests];
    for (let cursor = first.page.next; cursor; ) {
      const page = await engine.tests("f", { cursor, limit: 12 });
      ids.push(...page.tests);
      cursor = page.page.next;
    }
    expect(new Set(ids.map((t) => t.id)).size).toBe(30);
  });
});
