/**
 * The built CLI's list answers as a user runs them: callers over 1,100 call sites in pages (under
 * 4,000 tokens by default, totals stated, production first, every page reached by the cursor the
 * previous one names), tests with runnable ids and commands, trace with cited hops. Assertions are
 * on exit codes, JSON fields and token counts. `npm test` builds first; a bare vitest run builds
 * here only when dist/ is missing.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { busyProject } from "../support/busy-project.ts";
import { ensureCliBuilt, runCli, tempDirs } from "../support/cli.ts";

const temps = tempDirs("codeslice-cli-lists-");
const run = (args: string[]) => runCli([...args, "--quiet"]);

const project = temps.project;

beforeAll(ensureCliBuilt, 300_000);

afterAll(temps.cleanup);

describe("codeslice callers over 1,100 call sites", () => {
  let root: string;
  beforeAll(() => {
    root = project({ ...busyProject(), "pytest.ini": "[pytest]\n" });
  });

  it("prints one page under 4,000 tokens: the totals, production first, tests counted, the next cursor", () => {
    const r = run(["callers", "shared", "--root", root]);
    expect(r.status).toBe(0);
    expect(countTokens(r.stdout.trimEnd())).toBeLessThanOrEqual(4000);
    expect(r.stdout).toContain("1,100 resolved call sites: 600 in production code, 500 in test code");
    expect(r.stdout).toMatch(/Tests: 500 resolved call sites in 25 test files/);
    expect(r.stdout).toMatch(/cursor=\d+\.summary\.1/);
  });

  it("the cursor each page names reaches every production call site once", () => {
    const sites = new Set<string>();
    let cursor: string | undefined;
    let pages = 0;
    do {
      // Large pages keep the subprocess count (2-3 s each on a loaded machine) small.
      const r = run([
        "callers",
        "shared",
        "--root",
        root,
        "--json",
        "--limit",
        "250",
        "--budget",
        "16000",
        ...(cursor ? ["--cursor", cursor] : []),
      ]);
      expect(r.status).toBe(0);
      const a = JSON.parse(r.stdout) as {
        results: { site: { path: string; line: number } }[];
        page: { next?: string };
        usage: { tokens: number };
      };
      expect(a.usage.tokens).toBeLessThanOrEqual(16000);
      for (const x of a.results) sites.add(`${x.site.path}:${x.site.line}`);
      cursor = a.page.next;
      pages++;
    } while (cursor && pages < 100);
    expect(sites.size).toBe(600);
  }, 180_000);

  it("--tests only lists tests with their pytest ids; a bad cursor or mode is bad usage", () => {
    const r = run(["callers", "shared", "--root", root, "--tests", "only", "--limit", "3", "--json"]);
    const a = JSON.parse(r.stdout) as { results: { test?: string }[]; page: { next?: string } };
    expect(a.results.map((x) => x.test)).toEqual([
      expect.stringMatching(/^tests\/test_m\d+\.py::test_shared_\d+_\d+$/),
      expect.any(String),
      expect.any(String),
    ]);
    expect(a.page.next).toMatch(/^3\.only\.1\.v/);
    expect(run(["callers", "shared", "--root", root, "--cursor", "soon"]).status).toBe(2);
    expect(run(["callers", "shared", "--root", root, "--tests", "some"]).status).toBe(2);
  });

  it("importers page the same way", () => {
    const r = run(["importers", "core/util.py", "--root", root, "--limit", "5"]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("55 files: 30 production, 25 test.");
    expect(r.stdout).toMatch(/cursor=5\.summary\.1\.v/);
  });
});

describe("codeslice tests and trace", () => {
  let root: string;
  beforeAll(() => {
    root = project({
      "pyproject.toml": "[tool.pytest.ini_options]\n",
      "shop/__init__.py": "",
      "shop/models.py":
        "def format_greeting(name):\n    return 'Hello ' + name\n\n\ndef register(name):\n    return format_greeting(name)\n",
      "tests/test_models.py":
        "from shop.models import register\n\n\nclass TestRegister:\n    def test_greets(self):\n        assert register('ann')\n",
    });
  });

  it("tests prints runnable ids and the command that runs them", () => {
    const r = run(["tests", "format_greeting", "--root", root]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("pytest tests/test_models.py::TestRegister::test_greets");
    const j = JSON.parse(run(["tests", "shop/models.py", "--root", root, "--json"]).stdout) as {
      resolvedAs: string;
      tests: { id: string }[];
    };
    expect(j).toMatchObject({ resolvedAs: "file", tests: [{ id: "tests/test_models.py::TestRegister::test_greets" }] });
  });

  it("trace prints the cited hops; one argument is bad usage", () => {
    const r = run(["trace", "test_greets", "format_greeting", "--root", root]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(
      "tests/test_models.py:6 tests.test_models.TestRegister.test_greets —call→ shop.models.register",
    );
    expect(r.stdout).toContain("shop/models.py:6 shop.models.register —call→ shop.models.format_greeting");
    expect(run(["trace", "format_greeting", "--root", root]).status).toBe(2);
    const help = run(["--help"]);
    expect(help.stdout).toMatch(/tests <target>/);
    expect(help.stdout).toMatch(/trace <from> <to>/);
  });
});

describe("codeslice impact and changes", () => {
  let busy: string;
  let small: string;
  beforeAll(() => {
    busy = project({ ...busyProject(), "pytest.ini": "[pytest]\n" });
    small = project({
      "pyproject.toml": "[tool.pytest.ini_options]\n",
      "shop/__init__.py": "",
      "shop/models.py":
        "def format_greeting(name):\n    return 'Hello ' + name\n\n\ndef register(name):\n    return format_greeting(name)\n",
      "tests/test_models.py":
        "from shop.models import register\n\n\nclass TestRegister:\n    def test_greets(self):\n        assert register('ann')\n",
    });
  });

  it("impact of 1,100 call sites: one page under 4,000 tokens with the total, the risk and the next cursor", () => {
    const r = run(["impact", "shared", "--root", busy]);
    expect(r.status).toBe(0);
    expect(countTokens(r.stdout.trimEnd())).toBeLessThanOrEqual(4000);
    expect(r.stdout).toMatch(/^Risk: high — \d[\d,]* production callers/m);
    expect(r.stdout).toMatch(/cursor=\d+\.summary\.3/);
    const j = JSON.parse(run(["impact", "shared", "--root", busy, "--json", "--depth", "1"]).stdout) as {
      total: { up: number };
      page: { matching: number };
    };
    expect(j.total.up).toBeGreaterThan(j.page.matching);
  });

  it("impact names tests with runnable ids; a depth of 0 or 1,000 and an unknown direction are bad usage", () => {
    const j = JSON.parse(run(["impact", "format_greeting", "--root", small, "--json"]).stdout) as {
      tests: { id?: string }[];
      risk: { productionCallers: number };
    };
    expect(j.tests.map((t) => t.id)).toEqual(["tests/test_models.py::TestRegister::test_greets"]);
    expect(j.risk.productionCallers).toBe(1);
    expect(run(["impact", "format_greeting", "--root", small, "--depth", "0"]).status).toBe(2);
    expect(run(["impact", "format_greeting", "--root", small, "--depth", "1000"]).status).toBe(2);
    expect(run(["impact", "format_greeting", "--root", small, "--direction", "sideways"]).status).toBe(2);
    expect(run(["callers", "format_greeting", "--root", small, "--direction", "up"]).status).toBe(2);
    const unknown = run(["impact", "nothing_here", "--root", small, "--json"]);
    expect(unknown.status).toBe(1);
    expect(JSON.parse(unknown.stdout).error.code).toBe("unknown_symbol");
  });

  it("changes outside a git repository says so, and reads a pasted diff instead", () => {
    const r = run(["changes", "--root", small, "--json"]);
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout).error.code).toBe("not_a_repository");
    expect(r.stderr).toContain("--diff -");
    const diffFile = path.join(small, "..", `${path.basename(small)}.diff`);
    temps.add(diffFile);
    fs.writeFileSync(
      diffFile,
      "--- a/shop/models.py\n+++ b/shop/models.py\n@@ -1,2 +1,2 @@\n-def format_greeting(name):\n+def format_greeting(name, polite=False):\n     return 'Hello ' + name\n",
    );
    const d = run(["changes", "--root", small, "--diff", diffFile, "--json"]);
    expect(d.status).toBe(0);
    const a = JSON.parse(d.stdout) as {
      mode: string;
      symbols: { change: string; qualified: string }[];
      impact: { tests: { path: string }[] };
    };
    expect(a.mode).toBe("diff");
    expect(a.symbols.map((s) => `${s.change} ${s.qualified}`)).toEqual(["signature shop.models.format_greeting"]);
    expect(a.impact.tests.map((t) => t.path)).toEqual(["tests/test_models.py"]);
    expect(run(["changes", "--root", small, "--diff", path.join(small, "missing.diff")]).status).toBe(2);
    expect(run(["impact", "format_greeting", "--root", small, "--base", "HEAD"]).status).toBe(2);
  });
});
