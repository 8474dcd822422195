/**
 * rename's plan on fixtures with real grammars and the real graph: every edit expected is named
 * by the line of the fixture that holds it (`site`), so the expectations come from the source,
 * not from the plan. Then the refusals: keywords, invalid identifiers, collisions, symbols outside
 * the project, what rename does not handle.
 */
import { describe, expect, it } from "vitest";
import { isEngineError } from "../../src/shared/errors.ts";
import type { RenamePlan } from "../../src/core/rename/plan.ts";
import { memoryEngine, parseFixture } from "../support/platform.ts";

const PY = `
#- pkg/__init__.py
from .util import helper as helper
from .util import helper as assist_alias
#- pkg/util.py
import os

def helper(x):
    """helper doubles x."""
    return x * 2

class Base:
    def run(self):
        return helper(1)

class Child(Base):
    def run(self):
        return super().run() + self.extra()

    def extra(self):
        return self.run()

def use_os():
    return os.path.join("a", "b")
#- main.py
import pkg.util
from pkg.util import helper, Child
from pkg import util as u

def go(c: Child, anything):
    helper(2)
    pkg.util.helper(3)
    u.helper(4)
    c.run()
    anything.run()
    return "calls helper"

def shadowed(helper):
    return helper + 1

def aliased():
    from pkg.util import helper as h
    return h(5)
`;

const TS = `
//- src/a.ts
export function foo(x: number): number { return x; }
export class K { m(): number { return foo(1); } }
export class L extends K { m(): number { return this.m(); } }
//- src/index.ts
export { foo } from "./a";
export { foo as bar } from "./a";
export { K } from "./a";
//- src/b.ts
import { foo, K } from "./index";
import { foo as baz } from "./a";
import { bar } from "./index";
export const y = foo(2) + baz(3) + bar(4);
export function q(k: K): number { return k.m(); }
export function r(foo: number): number { return foo; }
//- src/c.ts
export async function lazy(): Promise<number> {
  const { foo } = await import("./a");
  return foo(1);
}
export async function lazyAlias(): Promise<number> {
  const { foo: f } = await import("./index");
  return f(2);
}
`;

/** `path:line:col why` of the `nth` spelling of `name` on the first line of `path` that contains `line`. */
function site(files: Record<string, string>, path: string, line: string, name: string, why: string, nth = 0): string {
  const lines = files[path]!.split("\n");
  const i = lines.findIndex((l) => l.includes(line));
  if (i < 0) throw new Error(`no line ${JSON.stringify(line)} in ${path}`);
  let col = -1;
  for (let k = 0; k <= nth; k++) col = lines[i]!.indexOf(name, col + 1);
  return `${path}:${i + 1}:${col} ${why}`;
}

const shown = (plan: RenamePlan) => plan.edits.map((e) => `${e.path}:${e.line}:${e.col} ${e.why}`).sort();

async function refusal(
  files: string,
  symbol: string,
  newName: string,
): Promise<{ code: string; data: Record<string, unknown> }> {
  const { engine } = memoryEngine(files);
  try {
    await engine.rename(symbol, newName);
  } catch (error) {
    if (isEngineError(error)) return { code: error.code, data: error.data as Record<string, unknown> };
    throw error;
  }
  throw new Error(`rename ${symbol} → ${newName} was not refused`);
}

describe("rename plans (Python)", () => {
  const files = parseFixture(PY);

  it("edits the definition, calls, imports and module attribute accesses; leaves shadowing parameters, other aliases' uses and strings alone", async () => {
    const { engine } = memoryEngine(PY);
    const plan = await engine.rename("pkg/util.py::helper", "assist");
    expect(shown(plan)).toEqual(
      [
        site(files, "main.py", "from pkg.util import helper, Child", "helper", "import"),
        site(files, "main.py", "    helper(2)", "helper", "call"),
        site(files, "main.py", "pkg.util.helper(3)", "helper", "call"),
        site(files, "main.py", "u.helper(4)", "helper", "call"),
        site(files, "main.py", "from pkg.util import helper as h", "helper", "import"),
        // `helper as helper` is the explicit re-export: both spellings move.
        site(files, "pkg/__init__.py", "from .util import helper as helper", "helper", "import", 0),
        site(files, "pkg/__init__.py", "from .util import helper as helper", "helper", "re-export", 1),
        site(files, "pkg/__init__.py", "helper as assist_alias", "helper", "import"),
        site(files, "pkg/util.py", "def helper(x):", "helper", "definition"),
        site(files, "pkg/util.py", "return helper(1)", "helper", "call"),
      ].sort(),
    );
    // The docstring and the string are mentions, apart and not applied by default.
    expect(plan.mentions.map((m) => `${m.path}:${m.line}:${m.col} mention`).sort()).toEqual([
      site(files, "main.py", '"calls helper"', "helper", "mention"),
      site(files, "pkg/util.py", '"""helper doubles', "helper", "mention"),
    ]);
    expect(plan.uncertain).toEqual([]);
    expect(plan.planToken).toMatch(/^[0-9a-f]{32}$/);
    expect(plan.files.map((f) => f.path)).toEqual(["main.py", "pkg/__init__.py", "pkg/util.py"]);
  });

  it("brings a method's overrides along with a note, and lists a call on an untyped receiver apart", async () => {
    const { engine } = memoryEngine(PY);
    const plan = await engine.rename("pkg.util.Base.run", "execute");
    const runDefs = files["pkg/util.py"]!.split("\n").flatMap((l, i) => (l === "    def run(self):" ? [i + 1] : []));
    expect(shown(plan)).toEqual(
      [
        site(files, "main.py", "c.run()", "run", "call"),
        `pkg/util.py:${runDefs[0]}:8 definition`,
        `pkg/util.py:${runDefs[1]}:8 override`,
        site(files, "pkg/util.py", "super().run()", "run", "call"),
        site(files, "pkg/util.py", "return self.run()", "run", "call"),
      ].sort(),
    );
    expect(plan.related.map((r) => r.qualified)).toEqual(["pkg.util.Child.run"]);
    expect(plan.edits.find((e) => e.why === "override")!.note).toMatch(/renamed with it/);
    expect(plan.notes.join(" ")).toMatch(/pkg\.util\.Child\.run/);
    expect(plan.uncertain.map((u) => `${u.path}:${u.line}:${u.col} `)).toEqual([
      site(files, "main.py", "anything.run()", "run", ""),
    ]);
  });

  it("gives the same token for the same preview, and another once a touched file changes", async () => {
    const { engine, platform } = memoryEngine(PY);
    const a = await engine.rename("pkg/util.py::helper", "assist");
    const b = await engine.rename("pkg/util.py::helper", "assist");
    expect(b.planToken).toBe(a.planToken);
    platform.fs.write("main.py", `${files["main.py"]}\n# edited\n`);
    const c = await engine.rename("pkg/util.py::helper", "assist");
    expect(c.planToken).not.toBe(a.planToken);
  });
});

describe("rename plans (TypeScript)", () => {
  const files = parseFixture(TS);

  it("follows barrels: `export { f } from` and the imports through it move, `export { f as g }` keeps g; dynamic imports destructured", async () => {
    const { engine } = memoryEngine(TS);
    const plan = await engine.rename("src/a.ts#foo", "fooNew");
    expect(shown(plan)).toEqual(
      [
        site(files, "src/a.ts", "export function foo", "foo", "definition"),
        site(files, "src/a.ts", "return foo(1)", "foo", "call"),
        site(files, "src/index.ts", 'export { foo } from "./a";', "foo", "re-export"),
        site(files, "src/index.ts", "export { foo as bar }", "foo", "re-export"),
        site(files, "src/b.ts", 'import { foo, K } from "./index";', "foo", "import"),
        site(files, "src/b.ts", "import { foo as baz }", "foo", "import"),
        site(files, "src/b.ts", "export const y = foo(2)", "foo", "call"),
        // Destructured from a dynamic import: the binding and its use; `foo: f` keeps the local f.
        site(files, "src/c.ts", 'const { foo } = await import("./a")', "foo", "import"),
        site(files, "src/c.ts", "return foo(1)", "foo", "call"),
        site(files, "src/c.ts", 'const { foo: f } = await import("./index")', "foo", "import"),
      ].sort(),
    );
  });

  it("renames an overriding method with the method, and calls through typed receivers and this", async () => {
    const { engine } = memoryEngine(TS);
    const plan = await engine.rename("src/a.ts#K.m", "measure");
    expect(shown(plan)).toEqual(
      [
        site(files, "src/a.ts", "export class K", "m()", "definition"),
        site(files, "src/a.ts", "export class L", "m()", "override"),
        site(files, "src/a.ts", "export class L", "m()", "call", 1),
        site(files, "src/b.ts", "k.m()", "m()", "call"),
      ].sort(),
    );
    expect(plan.related.map((r) => r.qualified)).toEqual(["src/a.ts#L.m"]);
  });
});

describe("rename plans: method families", () => {
  it("links methods through a base that declares the name, not through one that does not", async () => {
    const fixture = `
#- shapes.py
class Shape:
    def area(self):
        return 0

class Square(Shape):
    def area(self):
        return 4

    def draw(self):
        return 1

class Circle(Shape):
    def draw(self):
        return 2
`;
    const files = parseFixture(fixture);
    const { engine } = memoryEngine(fixture);
    // Square.draw and Circle.draw share Shape, which has no draw: two unrelated methods.
    const draw = await engine.rename("shapes.Square.draw", "render");
    expect(shown(draw)).toEqual([site(files, "shapes.py", "    def draw(self):", "draw", "definition")]);
    expect(draw.related).toEqual([]);
    // Square.area overrides Shape.area: both move, whichever is named.
    const area = await engine.rename("shapes.Square.area", "surface");
    expect(area.related.map((r) => r.qualified)).toEqual(["shapes.Shape.area"]);
    expect(area.edits).toHaveLength(2);
  });
});

describe("rename plans: overloads", () => {
  it("renames every overload signature of a function with it", async () => {
    const fixture = `
//- src/o.ts
export function pick(x: number): number;
export function pick(x: string): string;
export function pick(x: any): any { return x; }
export const z = pick(1);
`;
    const files = parseFixture(fixture);
    const { engine } = memoryEngine(fixture);
    const plan = await engine.rename("pick", "choose");
    // A signature without a body is no definition of its own in the record: it names the function.
    expect(shown(plan)).toEqual(
      [
        site(files, "src/o.ts", "pick(x: number)", "pick", "reference"),
        site(files, "src/o.ts", "pick(x: string)", "pick", "reference"),
        site(files, "src/o.ts", "pick(x: any)", "pick", "definition"),
        site(files, "src/o.ts", "export const z = pick(1)", "pick", "call"),
      ].sort(),
    );
  });

  it("renames every @overload of a Python function with it", async () => {
    const fixture = `
#- m.py
from typing import overload

@overload
def pick(x: int) -> int: ...
@overload
def pick(x: str) -> str: ...
def pick(x):
    return x

z = pick(1)
`;
    const files = parseFixture(fixture);
    const lines = files["m.py"]!.split("\n");
    const defs = lines.flatMap((l, i) => (l.startsWith("def pick") ? [`m.py:${i + 1}:4`] : []));
    const { engine } = memoryEngine(fixture);
    const plan = await engine.rename("m.py::pick", "choose");
    expect(defs).toHaveLength(3);
    expect(plan.edits.map((e) => `${e.path}:${e.line}:${e.col}`).sort()).toEqual(
      [...defs, site(files, "m.py", "z = pick(1)", "pick", "").trim()].sort(),
    );
  });
});

describe("rename refuses", () => {
  it("keywords and invalid identifiers, per language", async () => {
    expect(await refusal(PY, "pkg/util.py::helper", "class")).toMatchObject({
      code: "rename_refused",
      data: { reason: "keyword" },
    });
    expect(await refusal(PY, "pkg/util.py::helper", "None")).toMatchObject({
      code: "rename_refused",
      data: { reason: "keyword" },
    });
    expect(await refusal(PY, "pkg/util.py::helper", "1st")).toMatchObject({
      code: "rename_refused",
      data: { reason: "invalid_identifier" },
    });
    expect(await refusal(PY, "pkg/util.py::helper", "has-dash")).toMatchObject({
      code: "rename_refused",
      data: { reason: "invalid_identifier" },
    });
    expect(await refusal(PY, "pkg/util.py::helper", "$x")).toMatchObject({
      code: "rename_refused",
      data: { reason: "invalid_identifier" },
    });
    expect(await refusal(PY, "pkg/util.py::helper", "x".repeat(201))).toMatchObject({
      code: "rename_refused",
      data: { reason: "invalid_identifier" },
    });
    expect(await refusal(TS, "src/a.ts#foo", "function")).toMatchObject({
      code: "rename_refused",
      data: { reason: "keyword" },
    });
    expect(await refusal(TS, "src/a.ts#foo", "a b")).toMatchObject({
      code: "rename_refused",
      data: { reason: "invalid_identifier" },
    });
  });

  it("a name that collides in a scope the rename reaches: the defining module, an importing file, a related class", async () => {
    const inModule = await refusal(PY, "pkg/util.py::helper", "use_os");
    expect(inModule).toMatchObject({ code: "rename_refused", data: { reason: "collision" } });
    expect((inModule.data.conflicts as { path: string }[]).map((c) => c.path)).toContain("pkg/util.py");
    // `go` is defined in main.py only, which imports helper: renaming helper to go would capture it.
    const inImporter = await refusal(PY, "pkg/util.py::helper", "go");
    expect((inImporter.data.conflicts as { path: string }[]).map((c) => c.path)).toContain("main.py");
    // `os` is imported in pkg/util.py.
    expect(await refusal(PY, "pkg/util.py::helper", "os")).toMatchObject({ data: { reason: "collision" } });
    // Child has `extra`: Base.run → extra would merge two methods of one class.
    const member = await refusal(PY, "pkg.util.Base.run", "extra");
    expect(member).toMatchObject({ code: "rename_refused", data: { reason: "collision" } });
    expect((member.data.conflicts as { what: string }[])[0]!.what).toMatch(/Child\.extra/);
    // TypeScript: q is exported from b.ts, which imports foo.
    expect(await refusal(TS, "src/a.ts#foo", "q")).toMatchObject({ data: { reason: "collision" } });
  });

  it("symbols defined outside the project, and what rename does not handle", async () => {
    expect(await refusal(PY, "join", "joined")).toMatchObject({
      code: "rename_refused",
      data: { reason: "outside_project" },
    });
    expect(await refusal(PY, "nothing_like_this", "x")).toMatchObject({ code: "unknown_symbol" });
    expect(await refusal(PY, "pkg/util.py::helper", "helper")).toMatchObject({ data: { reason: "same_name" } });
    const dunder = `
#- m.py
class A:
    def __init__(self):
        pass
`;
    expect(await refusal(dunder, "m.A.__init__", "setup")).toMatchObject({ data: { reason: "unsupported" } });
    const go = `
//- m.go
package m

func Hello() {}
`;
    expect(await refusal(go, "Hello", "Hi")).toMatchObject({ data: { reason: "unsupported" } });
  });
});
