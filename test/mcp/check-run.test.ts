/**
 * The check and run_tests tools through a real MCP Client over stdio (`codeslice mcp`): their
 * tools/list entries (each ≤ 140 tokens, o200k; the whole list ≤ 4,000 with or without
 * run_tests), run_tests served only with --allow-run and listed as not read-only, check's
 * findings and its error without a config, and run_tests on a failing pytest test.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkStructured, cliPath, fixtureDir, removeTemps, repoRoot } from "./support.ts";

beforeAll(() => {
  if (!fs.existsSync(cliPath)) {
    const r = spawnSync(process.execPath, ["scripts/build.mjs"], { cwd: repoRoot, encoding: "utf8" });
    if (r.status !== 0) throw new Error(`build failed:\n${r.stdout}\n${r.stderr}`);
  }
}, 300_000);
afterAll(removeTemps);

const project = fixtureDir;

async function session(args: string[]): Promise<Client> {
  const client = new Client({ name: "check-run-test", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [cliPath, "mcp", ...args],
      stderr: "pipe",
      cwd: repoRoot,
    }),
  );
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  // The server sends the lean form (src/mcp/lean.ts); read it back as the tool's objects.
  const data = checkStructured(name, r);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return {
    isError: r.isError === true,
    text: r.content.map((c) => (c.type === "text" ? c.text : "")).join("\n"),
    data: data as any,
  };
}

const hasPytest = spawnSync("pytest", ["--version"], { encoding: "utf8" }).status === 0;

const PY = {
  "pytest.ini": "[pytest]\npythonpath = .\n",
  "codeslice.check.json": JSON.stringify({ cycles: true }),
  "app/__init__.py": "",
  "app/a.py": "from app.b import helper\n\n\ndef run():\n    return helper() + 1\n",
  "app/b.py": "from app import a\n\n\ndef helper():\n    return 41\n",
  "tests/test_a.py": "from app.a import run\n\n\ndef test_run():\n    assert run() == 43\n",
};

describe("tools/list", () => {
  it("lists check (≤ 140 tokens) and no run_tests by default; run_tests (≤ 140 tokens, not read-only) with --allow-run; the list ≤ 4,000 tokens both ways", async () => {
    const root = project(PY);
    const plain = await session(["--root", root]);
    const allowed = await session(["--root", root, "--allow-run"]);
    try {
      const a = await plain.listTools();
      const b = await allowed.listTools();
      expect(a.tools.map((t) => t.name)).toContain("check");
      expect(a.tools.map((t) => t.name)).not.toContain("run_tests");
      const check = a.tools.find((t) => t.name === "check")!;
      const run = b.tools.find((t) => t.name === "run_tests")!;
      const sizes = {
        check: countTokens(JSON.stringify(check)),
        run_tests: countTokens(JSON.stringify(run)),
        list: countTokens(JSON.stringify(a)),
        listWithRun: countTokens(JSON.stringify(b)),
      };
      console.log(`tools/list entries (o200k): ${JSON.stringify(sizes)}`);
      expect(sizes.check).toBeLessThanOrEqual(140);
      expect(sizes.run_tests).toBeLessThanOrEqual(140);
      expect(sizes.list).toBeLessThanOrEqual(4000);
      expect(sizes.listWithRun).toBeLessThanOrEqual(4000);
      expect(run.annotations).toMatchObject({ readOnlyHint: false });
      expect(check.annotations).toMatchObject({ readOnlyHint: true });
      const refused = await call(plain, "run_tests", { target: "run" });
      expect(refused.isError).toBe(true);
      expect(refused.text).toMatch(/run_tests/);
    } finally {
      await plain.close();
      await allowed.close();
    }
  }, 120_000);
});

describe("check over MCP", () => {
  it("answers findings as linter lines with structured findings, and an error naming the files without a config", async () => {
    const client = await session(["--root", project(PY)]);
    const bare = await session(["--root", project({ "a.py": "x = 1\n" })]);
    try {
      const r = await call(client, "check");
      expect(r.isError).toBe(false);
      expect(r.text).toContain("app/a.py:1: import-cycle: import cycle: app/a.py → app/b.py → app/a.py");
      expect(r.data).toMatchObject({
        total: 1,
        rules: ["import-cycle"],
        findings: [{ rule: "import-cycle", path: "app/a.py", line: 1 }],
      });
      const none = await call(bare, "check");
      expect(none.isError).toBe(true);
      expect(none.text).toMatch(/No check config: none of codeslice\.check\.json, package\.json, pyproject\.toml/);
    } finally {
      await client.close();
      await bare.close();
    }
  }, 120_000);
});

describe.skipIf(!hasPytest)("run_tests over MCP", () => {
  it("runs the failing test and answers its id and assertion", async () => {
    const client = await session(["--root", project(PY), "--allow-run"]);
    try {
      const r = await call(client, "run_tests", { target: "app.a.run", timeout: 60 });
      expect(r.isError).toBe(false);
      expect(r.text).toContain("$ pytest tests/test_a.py::test_run");
      expect(r.text).toContain("tests/test_a.py::test_run");
      expect(r.text).toContain("\n  assert 42 == 43\n");
      expect(r.data).toMatchObject({
        passed: false,
        runs: [{ runner: "pytest", exitCode: 1, timedOut: false, failed: ["tests/test_a.py::test_run"] }],
      });
      expect(countTokens(r.text)).toBeLessThanOrEqual(600);
    } finally {
      await client.close();
    }
  }, 120_000);
});
