/**
 * `tests <target> --run` when one, four or seven tests fail, on real pytest and Vitest runs of a small project whose
 * cookie serializer a one-word edit breaks (`Partitioned`, `Secure`, `HttpOnly` misspelt: 1, 4 and 7 of its 10 tests
 * fail). Every answer stays within 600 tokens and a tenth of the runner's own output (run again here without
 * codeslice) and names every failing test; with several failures the first is shown whole and the others in one
 * line per difference, those that differ the same way on one line with where each failed.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allowedArgv, type RunTestsAnswer } from "../../src/index.ts";
import { ensureCliBuilt, jsonOf, repoRoot, runCli, tempDirs } from "../support/cli.ts";

const temps = tempDirs("codeslice-run-many-");
beforeAll(ensureCliBuilt, 300_000);
afterAll(temps.cleanup);

/** The tests: name, options, and the cookie they expect. 7 set HttpOnly, 4 of them Secure, 1 of those Partitioned. */
const CASES: [string, Record<string, string | boolean>, string][] = [
  ["session", { http_only: true }, "sid=abc; HttpOnly"],
  ["session_path", { path: "/app", http_only: true }, "sid=abc; Path=/app; HttpOnly"],
  ["secure", { http_only: true, secure: true }, "sid=abc; HttpOnly; Secure"],
  ["secure_path", { path: "/", http_only: true, secure: true }, "sid=abc; Path=/; HttpOnly; Secure"],
  ["admin", { path: "/admin", http_only: true, secure: true }, "sid=abc; Path=/admin; HttpOnly; Secure"],
  [
    "partitioned",
    { path: "/", http_only: true, secure: true, partitioned: true },
    "sid=abc; Path=/; HttpOnly; Secure; Partitioned",
  ],
  ["api", { path: "/api", http_only: true }, "sid=abc; Path=/api; HttpOnly"],
  ["plain", {}, "sid=abc"],
  ["plain_path", { path: "/docs" }, "sid=abc; Path=/docs"],
  ["theme", { path: "/ui" }, "sid=abc; Path=/ui"],
];

/** The edits: the word misspelt, and how many tests then fail. */
const EDITS: [string, string, number][] = [
  ["Partitioned", "partitioned", 1],
  ["Secure", "secure", 4],
  ["HttpOnly", "Httponly", 7],
];

const camel = (k: string) => k.replace(/_(\w)/g, (_, c: string) => c.toUpperCase());

const PY = {
  "pytest.ini": "[pytest]\npythonpath = .\n",
  "cookie.py": [
    "def serialize(name, value, path=None, http_only=False, secure=False, partitioned=False):",
    '    parts = [f"{name}={value}"]',
    "    for step in range(100):",
    '        print(f"serialize {name}: attribute table v2, step {step}, encoder utf-8, quoting per RFC 6265")',
    "    if path:",
    '        parts.append(f"Path={path}")',
    "    if http_only:",
    '        parts.append("HttpOnly")',
    "    if secure:",
    '        parts.append("Secure")',
    "    if partitioned:",
    '        parts.append("Partitioned")',
    '    return "; ".join(parts)',
    "",
  ].join("\n"),
  "tests/test_cookie.py": [
    "from cookie import serialize",
    "",
    ...CASES.flatMap(([name, opts, cookie]) => [
      "",
      `def test_${name}():`,
      `    assert serialize("sid", "abc"${Object.entries(opts)
        .map(([k, v]) => `, ${k}=${typeof v === "string" ? `"${v}"` : v ? "True" : "False"}`)
        .join("")}) == "${cookie}"`,
      "",
    ]),
  ].join("\n"),
};

const TS = {
  "package.json": JSON.stringify({ name: "cookies", type: "module", devDependencies: { vitest: "4.1.12" } }),
  "vitest.config.ts": "export default {};\n",
  "src/cookie.ts": [
    "export interface Options { path?: string; httpOnly?: boolean; secure?: boolean; partitioned?: boolean }",
    "",
    "export function serialize(name: string, value: string, opt: Options = {}): string {",
    "  const parts = [`${name}=${value}`];",
    "  for (let step = 0; step < 40; step++)",
    "    console.log(`serialize ${name}: attribute table v2, step ${step}, encoder utf-8, quoting per RFC 6265`);",
    "  if (opt.path) parts.push(`Path=${opt.path}`);",
    '  if (opt.httpOnly) parts.push("HttpOnly");',
    '  if (opt.secure) parts.push("Secure");',
    '  if (opt.partitioned) parts.push("Partitioned");',
    '  return parts.join("; ");',
    "}",
    "",
  ].join("\n"),
  "test/cookie.test.ts": [
    'import { describe, expect, it } from "vitest";',
    'import { serialize } from "../src/cookie.ts";',
    "",
    'describe("serialize", () => {',
    ...CASES.flatMap(([name, opts, cookie]) => [
      `  it("${name}", () => {`,
      `    expect(serialize("sid", "abc", ${JSON.stringify(Object.fromEntries(Object.entries(opts).map(([k, v]) => [camel(k), v])))})).toBe("${cookie}");`,
      "  });",
    ]),
    "});",
    "",
  ].join("\n"),
};

/** The runner's own output for the command the answer ran, without codeslice. */
function rawOutput(root: string, command: string): string {
  const { argv } = allowedArgv(command);
  const r = spawnSync(argv[0]!, argv.slice(1), {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, CI: "1", NO_COLOR: "1" },
  });
  return `${r.stdout}${r.stderr}`;
}

/** Misspells `word` in the source, runs `tests serialize --run`, and returns the answer and the raw log's tokens. */
function answerWith(root: string, source: string, word: string, to: string) {
  const file = path.join(root, source);
  const original = fs.readFileSync(file, "utf8");
  fs.writeFileSync(file, original.replace(`"${word}"`, `"${to}"`));
  try {
    const args = ["tests", "serialize", "--run", "--root", root, "--quiet", "--no-server", "--json"];
    const r = runCli(args, { timeout: 180_000 });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(1);
    const a = jsonOf<RunTestsAnswer>(r);
    expect(a.runs).toHaveLength(1);
    const raw = countTokens(rawOutput(root, a.runs[0]!.command));
    return { answer: a.text, tokens: countTokens(a.text), raw };
  } finally {
    fs.writeFileSync(file, original);
  }
}

/** The names of the tests an edit breaks: those whose expected cookie holds the word. */
const failing = (word: string) => CASES.filter(([, , cookie]) => cookie.includes(word)).map(([name]) => name);

const hasPytest = spawnSync("pytest", ["--version"], { encoding: "utf8" }).status === 0;

describe.skipIf(!hasPytest)("pytest with 1, 4 and 7 failures", () => {
  let root: string;
  beforeAll(() => {
    root = temps.project(PY);
  });

  for (const [word, to, n] of EDITS) {
    it(`${word} misspelt: ${n} failing, every id shown, ≤ 600 tokens and a tenth of the raw log`, () => {
      const { answer, tokens, raw } = answerWith(root, "cookie.py", word, to);
      expect(answer).toMatch(new RegExp(`\\nexit 1 after [\\d.]+ s: ${n} failed, ${10 - n} passed in [\\d.]+s\\n`));
      const names = failing(word);
      expect(names).toHaveLength(n);
      // Every failing id: whole when alone, else under the file they share.
      if (n === 1) expect(answer).toContain(`failed (1):\n  tests/test_cookie.py::test_${names[0]}\n`);
      else
        expect(answer).toContain(
          `failed (${n}):\n  tests/test_cookie.py::\n${names.map((t) => `    test_${t}\n`).join("")}`,
        );
      // The first failure whole: the line that raised, the error, the expected/got pair and where.
      const first = CASES.find(([name]) => name === names[0])!;
      const got = first[2].replace(word, to);
      expect(answer).toContain(`> assert serialize("sid", "abc"`);
      // (pytest elides long values in its error line: the -/+ pair holds them whole)
      expect(answer).toContain("AssertionError: assert 'sid=abc");
      expect(answer).toContain(`\n  - ${first[2]}\n`);
      expect(answer).toContain(`\n  + ${got}\n`);
      expect(answer).toMatch(/tests\/test_cookie\.py:\d+: AssertionError/);
      if (n > 1) {
        expect(answer).toContain("\nthe first failure:\n");
        // The others differ the same way: one line, with the line of each.
        const line = answer.split("\n").find((l) => l.startsWith(`  ${n - 1}× tests/test_cookie.py:`));
        expect(line, answer).toBeDefined();
        expect(line!.match(/:\d+/g)).toHaveLength(n - 1);
        expect(line).toMatch(/: same as the first$/);
        expect(answer).toMatch(new RegExp(`\\n${n - 1} more, a line per difference \\(\\d+ lines folded\\):\\n`));
        expect(answer.split("\n").filter((l) => l.includes("AssertionError: assert"))).toHaveLength(1);
      }
      expect(tokens).toBeLessThanOrEqual(600);
      expect(raw).toBeGreaterThanOrEqual(10 * tokens);
    }, 180_000);
  }
});

describe("Vitest with 1, 4 and 7 failures", () => {
  let root: string;
  beforeAll(() => {
    root = temps.project(TS);
    // The project's own Vitest: this repository's, linked in (codeslice never lets npx download one).
    fs.symlinkSync(path.join(repoRoot, "node_modules"), path.join(root, "node_modules"));
  });

  for (const [word, to, n] of EDITS) {
    it(`${word} misspelt: ${n} failing, every id shown, ≤ 600 tokens and a tenth of the raw log`, () => {
      const { answer, tokens, raw } = answerWith(root, "src/cookie.ts", word, to);
      expect(answer).toMatch(
        new RegExp(`\\nexit 1 after [\\d.]+ s: Tests ${n} failed \\| ${10 - n} passed \\(10\\)\\n`),
      );
      const names = failing(word);
      if (n === 1) expect(answer).toContain(`failed (1):\n  test/cookie.test.ts > serialize > ${names[0]}\n`);
      else
        expect(answer).toContain(
          `failed (${n}):\n  test/cookie.test.ts > serialize >\n${names.map((t) => `    ${t}\n`).join("")}`,
        );
      const first = CASES.find(([name]) => name === names[0])!;
      // (Vitest elides long values in its message: the Expected/Received pair holds them whole)
      expect(answer).toMatch(/\n {2}AssertionError: expected (…|'sid=abc[^']*') to be (…|'sid=abc[^']*')\n/);
      expect(answer).toContain(`\n  Expected: "${first[2]}"\n  Received: "${first[2].replace(word, to)}"\n`);
      expect(answer).toMatch(/❯ test\/cookie\.test\.ts:\d+:\d+/);
      if (n > 1) {
        expect(answer).toContain("\nthe first failure:\n");
        const line = answer.split("\n").find((l) => l.startsWith(`  ${n - 1}× test/cookie.test.ts:`));
        expect(line, answer).toBeDefined();
        expect(line!.match(/:\d+/g)).toHaveLength(n - 1);
        expect(line).toMatch(/: same as the first$/);
        expect(answer.split("\n").filter((l) => l.includes("AssertionError:"))).toHaveLength(1);
      }
      expect(tokens).toBeLessThanOrEqual(600);
      expect(raw).toBeGreaterThanOrEqual(10 * tokens);
    }, 180_000);
  }
});
