/**
 * `tests <target> --run` / Engine.runTests on real runners: pytest and Vitest on small projects
 * with one failing test each (the answer within 600 tokens, the failing id and its assertion
 * shown, the raw log, run again here without codeslice, at least ten times longer), a runaway
 * test stopped by the timeout, and the refusals: a runner outside the allowlist, shell syntax,
 * nothing to run, a host that cannot start processes.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allowedArgv, isEngineError, summarizeOutput, type RunTestsAnswer } from "../../src/index.ts";
import { alive, ensureCliBuilt, jsonOf, repoRoot, runCli, tempDirs } from "../support/cli.ts";
import { failureLines } from "../../src/core/evidence/run-failures.ts";
import { memoryEngine } from "../support/platform.ts";

const temps = tempDirs("codeslice-run-tests-");
beforeAll(ensureCliBuilt, 300_000);
afterAll(temps.cleanup);

const project = temps.project;

function refusal(fn: () => unknown): { reason: string; character?: string; allowed?: string[] } {
  try {
    fn();
  } catch (e) {
    if (isEngineError(e, "run_refused")) return e.data;
    throw e;
  }
  throw new Error("not refused");
}

const hasPytest = spawnSync("pytest", ["--version"], { encoding: "utf8" }).status === 0;

/** The raw output of the same command, run here without codeslice. */
function rawOutput(root: string, argv: string[]): string {
  const r = spawnSync(argv[0]!, argv.slice(1), {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, CI: "1", NO_COLOR: "1" },
  });
  return `${r.stdout}${r.stderr}`;
}

const PY = {
  "pytest.ini": "[pytest]\npythonpath = .\n",
  "calc.py":
    'def add(a, b):\n    for step in range(120):\n        print(f"step {step}: adding {a} and {b} into the running total, cache warm, retries 0")\n    return a - b\n\n\ndef mul(a, b):\n    return a * b\n',
  "tests/test_calc.py":
    "from calc import add, mul\n\n\ndef test_add():\n    assert add(2, 3) == 5\n\n\ndef test_mul():\n    assert mul(2, 3) == 6\n",
  "slow.py": "import time\n\n\ndef wait_forever():\n    while True:\n        time.sleep(1)\n",
  "tests/test_slow.py": "from slow import wait_forever\n\n\ndef test_hangs():\n    wait_forever()\n",
  "forks.py":
    'import subprocess\nimport time\n\n\ndef fork_and_wait(pidfile):\n    child = subprocess.Popen(["sleep", "987"])\n    with open(pidfile, "w") as f:\n        f.write(str(child.pid))\n    while True:\n        time.sleep(1)\n',
  "tests/test_forks.py":
    'import os\n\nfrom forks import fork_and_wait\n\n\ndef test_forks():\n    fork_and_wait(os.path.join(os.path.dirname(__file__), "child.pid"))\n',
};

describe.skipIf(!hasPytest)("pytest", () => {
  let root: string;
  beforeAll(() => {
    root = project(PY);
  });

  it("answers a failing test with its id and assertion in ≤ 600 tokens, a tenth of the raw log or less", () => {
    const r = runCli(["tests", "add", "--run", "--root", root, "--quiet"]);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain("$ pytest tests/test_calc.py::test_add");
    expect(r.stdout).toMatch(/\nexit 1 after [\d.]+ s: 1 failed in [\d.]+s\n/);
    expect(r.stdout).toMatch(/failed \(1\):\n {2}tests\/test_calc\.py::test_add\n/);
    expect(r.stdout).toContain("\n  > assert add(2, 3) == 5\n  assert -1 == 5\n");
    expect(r.stdout).toContain("tests/test_calc.py:5: AssertionError");
    const answer = countTokens(r.stdout.trimEnd());
    const raw = countTokens(rawOutput(root, ["pytest", "tests/test_calc.py::test_add"]));
    expect(answer).toBeLessThanOrEqual(600);
    expect(raw).toBeGreaterThanOrEqual(10 * answer);
  }, 120_000);

  it("stops a runaway test at the timeout, with the runner's last lines, and exits 1", () => {
    const started = Date.now();
    const r = runCli(["tests", "wait_forever", "--run", "--timeout", "2", "--root", root, "--quiet", "--json"]);
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(r.status).toBe(1);
    const a = jsonOf<RunTestsAnswer>(r);
    expect(a.passed).toBe(false);
    expect(a.runs[0]).toMatchObject({ timedOut: true, exitCode: null, signal: "SIGKILL" });
    expect(a.text).toMatch(/error: timed out after 2 s; the runner and every process it started were killed/);
    expect(a.runs[0]!.result.tail?.some((l) => l.includes("collected 1 item"))).toBe(true);
  }, 120_000);

  it("kills what a runaway test started, not only the runner", async () => {
    const r = runCli(["tests", "fork_and_wait", "--run", "--timeout", "3", "--root", root, "--quiet", "--json"]);
    expect(jsonOf<RunTestsAnswer>(r).runs[0]).toMatchObject({ timedOut: true, killScope: "group" });
    const pid = Number(fs.readFileSync(path.join(root, "tests/child.pid"), "utf8"));
    expect(pid).toBeGreaterThan(0);
    // The group got SIGKILL; give the kernel a moment to reap the orphan.
    for (let i = 0; i < 20 && alive(pid); i++) await new Promise((res) => setTimeout(res, 100));
    expect(alive(pid)).toBe(false);
  }, 120_000);

  it("after a timeout runs no further command, and says how many were left", () => {
    const two = project({
      "slow.py": PY["slow.py"],
      "a/pytest.ini": "[pytest]\npythonpath = ..\n",
      "a/test_a.py": "from slow import wait_forever\n\n\ndef test_a():\n    wait_forever()\n",
      "b/pytest.ini": "[pytest]\npythonpath = ..\n",
      "b/test_b.py": "from slow import wait_forever\n\n\ndef test_b():\n    wait_forever()\n",
    });
    const a = jsonOf<RunTestsAnswer>(
      runCli(["tests", "wait_forever", "--run", "--timeout", "2", "--root", two, "--quiet", "--json"]),
    );
    expect(a.runs).toHaveLength(1);
    expect(a.runs[0]!.timedOut).toBe(true);
    expect(a.notRun).toHaveLength(1);
    expect(a.passed).toBe(false);
    expect(a.text).toMatch(/; 1 more command not run \(after a timeout, or past 4 per call\)/);
  }, 120_000);

  it("runs under the Deno front end too (Deno.Command)", () => {
    const deno = path.join(repoRoot, "node_modules", ".bin", "deno");
    const r = spawnSync(
      deno,
      ["run", "-A", path.join(repoRoot, "dist", "cli", "main.js"), "tests", "add", "--run", "--root", root, "--quiet"],
      { encoding: "utf8", timeout: 120_000 },
    );
    expect(r.stderr).toBe("");
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/failed \(1\):\n {2}tests\/test_calc\.py::test_add\n/);
    expect(r.stdout).toContain("\n  assert -1 == 5\n");
  }, 120_000);
});

describe("Vitest", () => {
  it("answers a failing test with its id, the assertion and the frame in ≤ 600 tokens, a tenth of the raw log or less", () => {
    const root = project({
      "package.json": JSON.stringify({ name: "cart", type: "module", devDependencies: { vitest: "4.1.12" } }),
      "vitest.config.ts": "export default {};\n",
      "src/cart.ts":
        "export interface Item { name: string; cents: number; qty: number }\n\nexport function total(items: Item[]): number {\n  for (const i of items) console.log(`pricing ${i.name}: ${i.cents} x ${i.qty}, tax table v3, currency EUR, rounding half-even`);\n  return items.reduce((n, i) => n + i.cents, 0);\n}\n",
      "test/cart.test.ts":
        'import { describe, expect, it } from "vitest";\nimport { total } from "../src/cart.ts";\n\nconst items = Array.from({ length: 60 }, (_, k) => ({ name: `item-${k}`, cents: 100 + k, qty: 2 }));\n\ndescribe("total", () => {\n  it("multiplies by quantity", () => {\n    expect(total(items)).toBe(items.reduce((n, i) => n + i.cents * i.qty, 0));\n  });\n  it("is zero for no items", () => {\n    expect(total([])).toBe(0);\n  });\n});\n',
      // A passing test that logs a caught error on purpose, as tests of error paths do.
      "src/parse.ts":
        'export function parsePrice(text: string): number {\n  try {\n    return JSON.parse(text) as number;\n  } catch (e) {\n    console.error("parsePrice fell back to 0:", e);\n    return 0;\n  }\n}\n',
      "test/parse.test.ts":
        'import { expect, it } from "vitest";\nimport { total } from "../src/cart.ts";\nimport { parsePrice } from "../src/parse.ts";\n\nit("falls back to 0 on a bad price", () => {\n  expect(parsePrice("{")).toBe(0);\n  expect(total([])).toBe(0);\n});\n',
    });
    // The project's own Vitest: this repository's, linked in (codeslice never lets npx download one).
    fs.symlinkSync(path.join(repoRoot, "node_modules"), path.join(root, "node_modules"));
    const r = runCli(["tests", "total", "--run", "--root", root, "--quiet"], { timeout: 180_000 });
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/^\$ npx vitest run test\/cart\.test\.ts test\/parse\.test\.ts -t /);
    expect(r.stdout).toContain("test/cart.test.ts > total > multiplies by quantity");
    expect(r.stdout).toContain("AssertionError: expected 7770 to be 15540");
    expect(r.stdout).toContain("❯ test/cart.test.ts:8:26");
    expect(r.stdout).toMatch(/\nexit 1 after [\d.]+ s: Tests 1 failed \| 2 passed \(3\)\n/);
    // What the passing test logged (a SyntaxError it caught) is not a failure's detail.
    expect(r.stdout).not.toContain("SyntaxError");
    const answer = countTokens(r.stdout.trimEnd());
    const argv = allowedArgv(r.stdout.split("\n")[0]!.slice(2)).argv;
    const raw = countTokens(rawOutput(root, argv));
    expect(answer).toBeLessThanOrEqual(600);
    expect(raw).toBeGreaterThanOrEqual(10 * answer);
    // A run that passes shows its command and counts, not what its tests logged.
    const passing = runCli(["tests", "parsePrice", "--run", "--root", root, "--quiet"], { timeout: 180_000 });
    expect(passing.status).toBe(0);
    expect(passing.stdout).toMatch(
      /\nexit 0 after [\d.]+ s \(passed\): Tests 1 passed \(1\)\n\(1 test found; raw output \d+ tokens\)\n$/,
    );
  }, 180_000);
});

const hasCargo = spawnSync("cargo", ["--version"], { encoding: "utf8" }).status === 0;

describe.skipIf(!hasCargo)("cargo test", () => {
  it("answers the failing test's path and the panic with left and right", () => {
    const root = project({
      "Cargo.toml": '[package]\nname = "rfx"\nversion = "0.1.0"\nedition = "2021"\n',
      "src/lib.rs":
        "pub fn add(a: i32, b: i32) -> i32 {\n    a - b\n}\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn adds() {\n        assert_eq!(add(2, 3), 5);\n    }\n}\n",
    });
    const r = runCli(["tests", "add", "--run", "--root", root, "--quiet"], { timeout: 300_000 });
    expect(r.status).toBe(1);
    expect(r.stdout).toContain("$ cargo test -- --exact tests::adds");
    expect(r.stdout).toMatch(/failed \(1\):\n {2}tests::adds\n/);
    expect(r.stdout).toMatch(/panicked at src\/lib\.rs:11:9/);
    expect(r.stdout).toContain("left: -1");
    expect(r.stdout).toContain("right: 5");
  }, 300_000);
});

describe("refusals", () => {
  it("refuses a program outside the allowlist and shell syntax, naming what it refused", () => {
    expect(refusal(() => allowedArgv("rm -rf /"))).toMatchObject({
      reason: "not_allowed",
      allowed: expect.arrayContaining(["pytest", "vitest", "go test"]),
    });
    expect(refusal(() => allowedArgv("npx mocha test/a.test.js"))).toMatchObject({ reason: "not_allowed" });
    expect(refusal(() => allowedArgv("go build ./..."))).toMatchObject({ reason: "not_allowed" });
    expect(refusal(() => allowedArgv("pytest tests/a.py; rm -rf ~"))).toMatchObject({
      reason: "shell_syntax",
      character: ";",
    });
    expect(refusal(() => allowedArgv("pytest $(cat ids)"))).toMatchObject({ reason: "shell_syntax", character: "$" });
    expect(refusal(() => allowedArgv("pytest `id`"))).toMatchObject({ reason: "shell_syntax", character: "`" });
    expect(refusal(() => allowedArgv("cargo test > out.txt"))).toMatchObject({
      reason: "shell_syntax",
      character: ">",
    });
    expect(refusal(() => allowedArgv('pytest "$HOME/x"'))).toMatchObject({ reason: "shell_syntax", character: "$" });
    expect(refusal(() => allowedArgv("pytest tests/*.py"))).toMatchObject({ reason: "shell_syntax", character: "*" });
    // What `tests` writes is accepted: quoted words stay one argument; npx never downloads.
    expect(allowedArgv("npx vitest run 'test/a b.test.ts' -t '^(cart total$|it'\\''s )'").argv).toEqual([
      "npx",
      "--no",
      "vitest",
      "run",
      "test/a b.test.ts",
      "-t",
      "^(cart total$|it's )",
    ]);
    expect(allowedArgv("pytest 'tests/test_a.py::TestX::test_y[1-2]'")).toEqual({
      argv: ["pytest", "tests/test_a.py::TestX::test_y[1-2]"],
      runner: "pytest",
    });
  });

  it("refuses a detected runner that is not allowlisted (Mocha) through the CLI, with exit 1 and the allowlist", () => {
    const root = project({
      "package.json": JSON.stringify({ name: "m", devDependencies: { mocha: "10.0.0" } }),
      "src/sum.js": "export function sum(a, b) {\n  return a + b;\n}\n",
      "test/sum.test.js":
        'import { sum } from "../src/sum.js";\n\ndescribe("sum", () => {\n  it("adds", () => {\n    sum(1, 2);\n  });\n});\n',
    });
    const r = runCli(["tests", "sum", "--run", "--root", root, "--quiet"]);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(
      /Refused to run "npx mocha .*": "npx --no" is not a test runner codeslice runs \(allowed: pytest, npm\/pnpm\/yarn test, vitest, jest/,
    );
  });

  it("refuses a budget out of run_tests' range as bad usage (exit 2) before running anything", () => {
    const r = runCli(["tests", "anything", "--run", "--budget", "50", "--quiet"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--budget with --run must be between 200 and 20000, got 50/);
  });

  it("refuses when nothing tests the target, and on a host that cannot start processes", async () => {
    const root = project({ "pytest.ini": "[pytest]\n", "lonely.py": "def alone():\n    return 1\n" });
    const r = runCli(["tests", "alone", "--run", "--root", root, "--quiet"]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/No tests found for .*alone: nothing to run/);
    const { engine } = memoryEngine({
      "calc.py": "def add(a, b):\n    return a + b\n",
      "tests/test_calc.py": "from calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n",
    });
    const error = await engine.runTests("add").catch((e: unknown) => e);
    expect(isEngineError(error, "run_refused") && error.data.reason).toBe("unsupported");
  });
});

describe("output with no failure recognized", () => {
  it("keeps the last lines of the raw output", () => {
    const out = Array.from({ length: 100 }, (_, i) => `line ${i}`).join("\n");
    const s = summarizeOutput(out);
    expect(s.failed).toEqual([]);
    expect(s.details).toEqual([]);
    expect(s.tail).toHaveLength(40);
    expect(s.tail![39]).toBe("line 99");
  });
});

describe("output trims that keep what a reader acts on", () => {
  it("drops pytest's Full diff block, which repeats the lines above it, and comments that name an error", () => {
    const out = [
      "    # Specifically, if app.testing is not set to True, the AssertionErrors",
      '>       assert list(messages) == [("message", "Hello World")]',
      "E       AssertionError: assert [('error', 'H...sting</em>'))] == [('message', 'Hello World')]",
      "E         At index 0 diff: ('error', 'Hello World') != ('message', 'Hello World')",
      "E         Full diff:",
      "E           [",
      "E         -         'message',",
      "E         +         'error',",
      "E           ]",
      "test_basic.py:666: AssertionError",
      "FAILED test_basic.py::test_extended_flashing - AssertionError: assert",
    ].join("\n");
    const s = summarizeOutput(out);
    expect(s.details).toEqual([
      '> assert list(messages) == [("message", "Hello World")]',
      "AssertionError: assert [('error', 'H...sting</em>'))] == [('message', 'Hello World')]",
      "At index 0 diff: ('error', 'Hello World') != ('message', 'Hello World')",
      "test_basic.py:666: AssertionError",
    ]);
    expect(s.failed).toEqual(["test_basic.py::test_extended_flashing"]);
  });

  it("keeps a pytest failure's raising line and its error lines up to the first difference, a -/+ pair whole", () => {
    const out = [
      "=================================== FAILURES ===================================",
      "_________________________________ test_totals _________________________________",
      "",
      "    def test_totals():",
      ">       check_cart(make_cart())",
      "",
      "tests/test_cart.py:12: ",
      "_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _",
      "",
      "    def check_cart(cart):",
      ">       assert cart.items == [1, 2, 3]",
      "E       assert [1, 2] == [1, 2, 3]",
      "E         ",
      "E         Right contains one more item: 3",
      "E         Use -v to get more diff",
      "",
      "tests/test_cart.py:7: AssertionError",
      "_________________________________ test_label __________________________________",
      "",
      ">       assert label(3) == 'three'",
      "E       AssertionError: assert 'tree' == 'three'",
      "E         ",
      "E         - three",
      "E         ?  -",
      "E         + tree",
      "E         ? ",
      "",
      "tests/test_cart.py:20: AssertionError",
      "=========================== short test summary info ============================",
      "FAILED tests/test_cart.py::test_totals - assert [1, 2] == [1, 2, 3]",
      "FAILED tests/test_cart.py::test_label - AssertionError: assert 'tree' == 'three'",
      "============================== 2 failed in 0.05s ===============================",
    ].join("\n");
    const s = summarizeOutput(out);
    expect(s.failed).toEqual(["tests/test_cart.py::test_totals", "tests/test_cart.py::test_label"]);
    expect(s.details).toEqual([
      "> assert cart.items == [1, 2, 3]",
      "assert [1, 2] == [1, 2, 3]",
      "Right contains one more item: 3",
      "tests/test_cart.py:7: AssertionError",
      "> assert label(3) == 'three'",
      "AssertionError: assert 'tree' == 'three'",
      "- three",
      "?  -",
      "+ tree",
      "tests/test_cart.py:20: AssertionError",
    ]);
    expect(s.summary).toBe("2 failed in 0.05s");
  });

  it("reads pytest's failures one by one, each matched to its id by its header, with where and a one-line form", () => {
    const out = [
      "==================================== ERRORS ====================================",
      "___________________ ERROR at setup of TestBox.test_open[2] ____________________",
      ">       raise RuntimeError('no box')",
      "E       RuntimeError: no box",
      "tests/conftest.py:4: RuntimeError",
      "=================================== FAILURES ===================================",
      "_____________________________ TestBox.test_size[1] _____________________________",
      ">       assert box.size() == 'size=10; unit=cm'",
      "E       AssertionError: assert 'size=10; unit=mm' == 'size=10; unit=cm'",
      "tests/test_box.py:9: AssertionError",
      "__________________________________ test_flags __________________________________",
      ">       assert flags() == [('read', 'yes'), ('write', 'no')]",
      "E       AssertionError: assert [('read', 'yes'), ('write', 'yes')] == [('read', 'yes'), ('write', 'no')]",
      "E         At index 1 diff: ('write', 'yes') != ('write', 'no')",
      "tests/test_box.py:14: AssertionError",
      "=========================== short test summary info ============================",
      "FAILED tests/test_box.py::TestBox::test_size[1] - AssertionError: assert",
      "FAILED tests/test_box.py::test_flags - AssertionError: assert",
      "ERROR tests/test_box.py::TestBox::test_open[2] - RuntimeError: no box",
      "==================== 2 failed, 1 error in 0.05s ====================",
    ].join("\n");
    const s = summarizeOutput(out);
    expect(s.failures).toEqual([
      {
        ids: ["tests/test_box.py::TestBox::test_open[2]"],
        lines: ["> raise RuntimeError('no box')", "RuntimeError: no box", "tests/conftest.py:4: RuntimeError"],
        at: "tests/conftest.py:4",
        brief: "RuntimeError: no box",
      },
      {
        ids: ["tests/test_box.py::TestBox::test_size[1]"],
        lines: [
          "> assert box.size() == 'size=10; unit=cm'",
          "AssertionError: assert 'size=10; unit=mm' == 'size=10; unit=cm'",
          "tests/test_box.py:9: AssertionError",
        ],
        at: "tests/test_box.py:9",
        brief: "assert …mm… == …cm…",
      },
      {
        ids: ["tests/test_box.py::test_flags"],
        lines: [
          "> assert flags() == [('read', 'yes'), ('write', 'no')]",
          "AssertionError: assert [('read', 'yes'), ('write', 'yes')] == [('read', 'yes'), ('write', 'no')]",
          "At index 1 diff: ('write', 'yes') != ('write', 'no')",
          "tests/test_box.py:14: AssertionError",
        ],
        at: "tests/test_box.py:14",
        brief: "assert …yes… == …no…",
      },
    ]);
  });

  it("folds failures at one place into a line with their differing values, and skips the source pytest lists", () => {
    const block = (name: string, sig: string) => [
      `_____________________________ ${name} _____________________________`,
      "    def unsign(self, value):",
      "        except (ValueError, OSError) as exc:",
      '>       raise BadSignature(f"Signature {sig!r} does not match")',
      `E       itsdangerous.exc.BadSignature: Signature b'${sig}' does not match`,
      "src/itsdangerous/signer.py:256: BadSignature",
    ];
    const out = [
      "=================================== FAILURES ===================================",
      "_____________________________ test_pad _____________________________",
      '>       string += "=" * (-len(string) % 4)',
      "E       TypeError: can't concat str to bytes",
      "src/itsdangerous/encoding.py:33: TypeError",
      ...block("TestSigner.test_a", "RI9c"),
      ...block("TestSigner.test_b", "BWFI"),
      ...block("TestSigner.test_c", "RI9c"),
      "=========================== short test summary info ============================",
      "FAILED tests/test_encoding.py::test_pad - TypeError",
      "FAILED tests/test_signer.py::TestSigner::test_a - itsdangerous.exc.BadSignature",
      "FAILED tests/test_signer.py::TestSigner::test_b - itsdangerous.exc.BadSignature",
      "FAILED tests/test_signer.py::TestSigner::test_c - itsdangerous.exc.BadSignature",
    ].join("\n");
    const s = summarizeOutput(out);
    // pytest's listing of a frame's source is code, not an error line, though it names ValueError.
    expect(s.details.some((l) => l.includes("except"))).toBe(false);
    expect(s.failures?.[1]?.at).toBe("src/itsdangerous/signer.py:256");
    expect(failureLines(s.failures!)).toEqual([
      "the first failure:",
      '  > string += "=" * (-len(string) % 4)',
      "  TypeError: can't concat str to bytes",
      "  src/itsdangerous/encoding.py:33: TypeError",
      "3 more, a line per difference (8 lines folded):",
      "  3× src/itsdangerous/signer.py:256: itsdangerous.exc.BadSignature: Signature b'{RI9c|BWFI}' does not match",
    ]);
  });

  it("reads Vitest's failures one by one; tests that share one error are one failure", () => {
    const out = [
      "⎯⎯⎯⎯⎯⎯⎯ Failed Tests 3 ⎯⎯⎯⎯⎯⎯⎯",
      " FAIL  test/db.test.ts > db > reads",
      " FAIL  test/db.test.ts > db > writes",
      "Error: connection refused",
      " ❯ test/db.test.ts:4:11",
      "⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/2]⎯",
      " FAIL  test/cookie.test.ts > cookie > flags",
      "AssertionError: expected 'a=1; Httponly; Secure' to be 'a=1; HttpOnly; Secure' // Object.is equality",
      'Expected: "a=1; HttpOnly; Secure"',
      'Received: "a=1; Httponly; Secure"',
      " ❯ test/cookie.test.ts:9:20",
      "⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[2/2]⎯",
      " Test Files  2 failed (2)",
      "      Tests  3 failed (3)",
    ].join("\n");
    const s = summarizeOutput(out);
    expect(s.failures?.map((f) => [f.ids, f.at, f.brief])).toEqual([
      [
        ["test/db.test.ts > db > reads", "test/db.test.ts > db > writes"],
        "test/db.test.ts:4:11",
        "Error: connection refused",
      ],
      [["test/cookie.test.ts > cookie > flags"], "test/cookie.test.ts:9:20", "expected …HttpOnly…, got …Httponly…"],
    ]);
  });

  it("reads Vitest's details from its failed-tests part only, without its diff headers and equality note", () => {
    const out = [
      " RUN  v4.1.12 /tmp/p",
      "",
      "stderr | test/parse.test.ts > falls back",
      "TypeError: a caught error a passing test logs",
      "    at parse (/tmp/p/src/parse.ts:3:11)",
      "",
      " ❯ test/cart.test.ts (2 tests | 1 failed) 9ms",
      "   × total > multiplies 6ms",
      "",
      "⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯",
      "",
      " FAIL  |main| test/cart.test.ts > total > multiplies",
      "AssertionError: expected 7770 to be 15540 // Object.is equality",
      "",
      "- Expected",
      "+ Received",
      "",
      "- 15540",
      "+ 7770",
      "",
      " ❯ test/cart.test.ts:8:26",
      '      6|   it("multiplies", () => {',
      "",
      "⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/1]⎯",
      "",
      " Test Files  1 failed (1)",
      "      Tests  1 failed | 1 passed (2)",
    ].join("\n");
    const s = summarizeOutput(out);
    expect(s.failed).toEqual(["|main| test/cart.test.ts > total > multiplies"]);
    expect(s.details).toEqual([
      "AssertionError: expected 7770 to be 15540",
      "- 15540",
      "+ 7770",
      "❯ test/cart.test.ts:8:26",
    ]);
    expect(s.summary).toBe("Tests  1 failed | 1 passed (2)");
  });

  it("clips a long Expected/Received pair to the part around its first difference, and the message's cut values", () => {
    const expected =
      "__Host-great_cookie=banana; Max-Age=1000; Path=/; Expires=Sun, 24 Dec 2000 10:30:59 GMT; HttpOnly; Secure; SameSite=Strict; Priority=High; Partitioned";
    const received = expected.replace("HttpOnly", "Httponly");
    const s = summarizeOutput(
      [
        "AssertionError: expected '__Host-great_cookie=banana; Max-Age=1…' to be '__Host-great_cookie=banana; Max-Age=1…'",
        `Expected: "${expected}"`,
        `Received: "${received}"`,
      ].join("\n"),
    );
    // The first differing character: "O" against "o", in the quoted strings as the runner prints them.
    const at = `"${expected}"`.indexOf("HttpOnly") + 4;
    expect(s.details[1]).toBe(`Expected: …${`"${expected}"`.slice(at - 30, at + 30)}…`);
    expect(s.details[2]).toBe(`Received: …${`"${received}"`.slice(at - 30, at + 30)}…`);
    // The message's values, cut at their start by the runner, are the pair's: the message keeps its words.
    expect(s.details[0]).toBe("AssertionError: expected … to be …");
    expect(s.details[2]).toContain("Httponly");
    // A second failure whose clipped pair reads the same shows its frame, not the pair again.
    const twice = summarizeOutput(
      [
        `Expected: "${expected}"`,
        `Received: "${received}"`,
        " ❯ src/a.test.ts:1:2",
        `Expected: "x${expected}"`,
        `Received: "x${received}"`,
        " ❯ src/a.test.ts:9:2",
      ].join("\n"),
    );
    expect(twice.details).toEqual([s.details[1], s.details[2], "❯ src/a.test.ts:1:2", "❯ src/a.test.ts:9:2"]);
  });
});
