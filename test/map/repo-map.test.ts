/**
 * A repo map an agent reads first (issue 24 item 5): central symbols from the product's own code,
 * with tests, examples, benchmarks and vendored code counted apart; test cases counted by their
 * runner's rules; the root package first under Services; entry points from the product's own
 * code, or, when it has none, a few from tests and examples with their count.
 */
import * as fs from "node:fs";
import { describe, expect, it } from "vitest";
import { memoryEngine } from "../support/platform.ts";

const FIXTURE = fs.readFileSync(new URL("./fixtures-tiny-web.txt", import.meta.url), "utf8");

describe("repo map", () => {
  it("ranks the product's own symbols, and counts benchmark and test definitions apart", async () => {
    const { engine } = memoryEngine(FIXTURE);
    const map = await engine.map({ budget: 4000 });
    const names = map.symbols.map((s) => s.qualified);
    expect(names).toContain("src/compose.ts#compose");
    // The benchmark's hook and its inner helper, however often called, are not the product.
    expect(names.filter((n) => n.startsWith("benchmarks/"))).toEqual([]);
    expect(map.text).not.toMatch(/resolveInitialState/);
    expect(map.symbolsApart.benchmark).toBeGreaterThanOrEqual(3); // useState, resolveInitialState, run
    expect(map.symbolsApart.test).toBeGreaterThanOrEqual(2); // the two pytest functions
    expect(map.text).toMatch(/Not ranked: .*\d+ definitions in tests.*\d+ in benchmarks/);
  });

  it("does not rank a function local to a function, however often it is called", async () => {
    const hooks = `//- src/hooks.ts\nexport function useHook(initial: number): number {\n  const resolveInitial = (n: number): number => n + initial;\n${"  resolveInitial(1);\n".repeat(6)}  return resolveInitial(initial);\n}\nexport const a = () => useHook(1);\n`;
    const { engine } = memoryEngine(`${FIXTURE}\n${hooks}`);
    const map = await engine.map({ budget: 4000 });
    const names = map.symbols.map((s) => s.qualified);
    expect(names).toContain("src/hooks.ts#useHook");
    expect(names).not.toContain("src/hooks.ts#useHook.resolveInitial");
  });

  it("counts test cases by the runner's rules: each it( of a Vitest file, each pytest test_ function", async () => {
    const { engine } = memoryEngine(FIXTURE);
    const map = await engine.map({ budget: 4000 });
    expect(map.witnesses.testFunctions).toBe(5 + 2);
    expect(map.text).toContain("- tests: 2 files, 7 test functions");
  });

  it("lists the root package first under Services, before the benchmark packages", async () => {
    const { engine } = memoryEngine(FIXTURE);
    const map = await engine.map({ budget: 4000 });
    expect(map.services.map((s) => s.path)).toEqual(["", "benchmarks/alpha", "benchmarks/beta"]);
    const services = map.text.slice(map.text.indexOf("## Services"));
    expect(services.split("\n")[1]).toMatch(/^- \.\/ package\.json "tiny-web"/);
  });

  it("names a folder's service by the manifest that names it: fzf's go.mod, not the Gemfile of its Ruby tests", async () => {
    const { engine } = memoryEngine(
      "//- Gemfile\nsource 'https://rubygems.org'\ngem 'minitest'\n" +
        "//- go.mod\nmodule github.com/junegunn/fzf\n\ngo 1.23\n" +
        "//- main.go\npackage main\n\nfunc main() {}\n" +
        "//- test/test_core.rb\nrequire 'minitest/autorun'\n\nclass TestCore < Minitest::Test\n  def test_x; end\nend\n",
    );
    const map = await engine.map({ budget: 4000 });
    expect(map.services).toEqual([{ path: "", manifest: "go.mod", name: "github.com/junegunn/fzf", files: 4 }]);
    expect(map.text).toMatch(/^- \.\/ go\.mod "github\.com\/junegunn\/fzf" \(4 files\)$/m);
  });

  it("counts a top-level main of the product's code as an entry point: fzf's main.go, not a test's", async () => {
    const { engine } = memoryEngine(
      "//- go.mod\nmodule github.com/junegunn/fzf\n\ngo 1.23\n" +
        '//- main.go\npackage main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println(run())\n}\n\nfunc run() int { return 1 }\n' +
        "//- src/core.go\npackage fzf\n\ntype Core struct{}\n\nfunc (c *Core) main() {}\n" +
        "//- src/core_test.go\npackage fzf\n\nfunc main() {}\n",
    );
    const map = await engine.map({ budget: 4000 });
    expect(map.entryPoints).toEqual([
      { kind: "main", label: "main.go#main", path: "main.go", line: 5, symbol: "main.go#main" },
    ]);
    expect(map.entryPointsElsewhere).toBe(0);
    expect(map.text).toMatch(/^## Entry points\n- main main\.go#main \(main\.go:5\)$/m);
  });

  it("takes entry points from the product's code; with none, names three from examples and counts them all", async () => {
    const { engine } = memoryEngine(FIXTURE);
    const map = await engine.map({ budget: 4000 });
    expect(map.entryPoints).toHaveLength(3);
    expect(map.entryPointsElsewhere).toBe(5);
    expect(map.text).toMatch(/- none in the product's own code; 5 in tests, examples and benchmarks, the first 3:/);
    const { engine: withOwn } = memoryEngine(
      `${FIXTURE}\n//- shop/web.py\nfrom flask import Flask\n\napp = Flask(__name__)\n\n\n@app.route("/cart")\ndef cart():\n    return "cart"\n`,
    );
    const own = await withOwn.map({ budget: 4000 });
    expect(own.entryPoints.map((e) => `${e.label} ${e.path}`)).toEqual(["GET /cart shop/web.py"]);
    expect(own.entryPointsElsewhere).toBe(0);
  });

  it("says what the ranking leaves out in a line of its own: every bullet under the header is a symbol", async () => {
    const { engine } = memoryEngine(FIXTURE);
    for (const budget of [300, 600, 4000]) {
      const { text } = await engine.map({ budget });
      const section = text.split("\n## ").find((s) => s.startsWith("Central symbols"));
      if (!section) continue;
      const [, ...body] = section.split("\n");
      const bullets = body.filter((l) => l.startsWith("- "));
      expect(bullets.length).toBeGreaterThan(0);
      for (const b of bullets) expect(b).toMatch(/^- \S+:\d+-\d+ [a-z]+ \S+ \(\d+ refs?\): /);
      expect(body[0]).toMatch(/^(Not ranked: \d+ definitions? in |- )/);
    }
  });

  it("ends a list of files read only in part with the exact count it does not show, and only then", async () => {
    const broken = (n: number) =>
      Array.from(
        { length: n },
        (_, i) => `//- pkg/broken_${String(i).padStart(2, "0")}.py\ndef ok():\n    return 1\n\ndef bad(:\n`,
      ).join("");
    const count = async (files: number, budget: number) => {
      const { engine } = memoryEngine(`${FIXTURE}\n${broken(files)}`);
      const { text } = await engine.map({ budget });
      const section = text.split("\n## ").find((s) => s.startsWith("Read only in part"));
      const lines = section?.split("\n").slice(1) ?? [];
      const shown = lines.filter((l) => /^- pkg\/broken_/.test(l)).length;
      const more = lines.map((l) => /^- … and (\d+) more$/.exec(l)).find(Boolean);
      return { shown, more: more ? Number(more[1]) : 0 };
    };
    for (const [files, budget] of [
      [4, 4000],
      [14, 4000],
      [14, 500],
      [14, 700],
      [14, 900],
    ] as const) {
      const { shown, more } = await count(files, budget);
      expect(shown).toBeGreaterThan(0);
      expect(shown + more).toBe(files);
    }
    expect((await count(4, 4000)).more).toBe(0);
  });
});
