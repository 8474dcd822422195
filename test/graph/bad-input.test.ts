/** The graph under hostile input: cycles, self-imports, missing modules, huge name collisions, deep nesting. */
import { describe, expect, it } from "vitest";
import { memoryEngine } from "../support/platform.ts";

describe("graph bad input", () => {
  it("import cycles and self-imports resolve without hanging", async () => {
    const { engine } = memoryEngine({
      "a.py": "from b import g\nfrom a import f\n\ndef f():\n    return g()\n",
      "b.py": "from a import f\n\ndef g():\n    return f()\n",
      "c.ts":
        "export * from './d';\nexport * from './c';\nexport function h() { return k(); }\nimport { k } from './d';\n",
      "d.ts": "export * from './c';\nexport function k() { return 1; }\n",
      "e.ts": "import { nothing } from './c';\nnothing();\n",
    });
    const g = await engine.codeGraph();
    const edges = g.calls.map((e) => `${g.symbols[e.caller]!.qualified} -> ${g.symbols[e.callee]!.qualified}`);
    expect(edges).toContain("a.f -> b.g");
    expect(edges).toContain("b.g -> a.f");
    expect(edges).toContain("c.ts#h -> d.ts#k");
    expect(edges.filter((e) => e.startsWith("e.ts"))).toEqual([]);
  });

  it("a missing module and a module shadowing a package are recorded, not guessed", async () => {
    const { engine } = memoryEngine({
      "app.py": "import missing_mod\nfrom json import loads\nmissing_mod.run()\nloads('1')\n",
      "json.py": "def dumps(x):\n    return x\n",
    });
    const g = await engine.codeGraph();
    // The local json.py shadows the standard library module, as Python would: loads is not in it.
    expect(g.calls.filter((e) => e.file === "app.py")).toEqual([]);
    expect(g.external.map((e) => e.target)).toContain("missing_mod.run");
  });

  it("10,000 definitions sharing one name stay ambiguous, quickly", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 100; i++)
      files[`m${i}.py`] = Array.from(
        { length: 100 },
        (_, j) => `class C${j}:\n    def run(self):\n        pass\n`,
      ).join("\n");
    files["use.py"] = "def go(x):\n    x.run()\n";
    const { engine } = memoryEngine(files);
    const started = Date.now();
    const g = await engine.codeGraph();
    expect(g.byName.get("run")!.length).toBe(10_000);
    expect(g.calls.filter((e) => e.file === "use.py")).toEqual([]);
    const amb = g.ambiguous.find((a) => a.file === "use.py")!;
    expect(amb.name).toBe("run");
    expect(Date.now() - started).toBeLessThan(60_000);
    const callers = await engine.callers("m0.C0.run");
    expect(callers.possible.length).toBe(1);
  });

  it("deeply nested classes and recursion", async () => {
    let src = "";
    for (let i = 0; i < 60; i++) src += `${"    ".repeat(i)}class N${i}:\n`;
    src += `${"    ".repeat(60)}def deep(self):\n${"    ".repeat(61)}return self.deep()\n`;
    src += "\n\ndef fact(n):\n    return 1 if n < 2 else n * fact(n - 1)\n";
    const { engine } = memoryEngine({ "nest.py": src });
    const g = await engine.codeGraph();
    const edges = g.calls.map((e) => `${g.symbols[e.caller]!.name} -> ${g.symbols[e.callee]!.name}`);
    expect(edges).toContain("fact -> fact");
    expect(edges).toContain("deep -> deep");
    // Past six segments at each end, the middle of a qualified name is a hash: bounded, still unique.
    const deep = g.symbols.find((s) => s.name === "deep")!.qualified;
    expect(deep).toMatch(/^nest\.N0\.N1\.N2\.N3\.N4\.N5\.…[0-9a-f]{8}\.N55\.N56\.N57\.N58\.N59\.deep$/);
    expect(g.symbols.find((s) => s.name === "N20")!.qualified).toMatch(
      /^nest\.N0\.N1\.N2\.N3\.N4\.N5\.…[0-9a-f]{8}\.N15\.N16\.N17\.N18\.N19\.N20$/,
    );
  });

  it("a class inheriting itself through a cycle does not loop", async () => {
    const { engine } = memoryEngine({
      "cyc.py": "class A(B):\n    pass\n\nclass B(A):\n    def m(self):\n        self.x()\n",
    });
    const g = await engine.codeGraph();
    expect(g.inherits.length).toBe(2);
    expect(g.calls.filter((e) => g.symbols[e.callee]!.name === "x")).toEqual([]);
  });
});
