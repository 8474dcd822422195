/**
 * An argument a tool does not take, sent by a real SDK Client to the built server over stdio: the
 * answer names the argument, the one meant (a page number means the cursor the last answer named)
 * and the arguments the tool takes, instead of the SDK's bare "Unrecognized key".
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { spawnSync } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliPath, fixtureDir, removeTemps, repoRoot } from "./support.ts";

let client: Client;

beforeAll(async () => {
  if (!fs.existsSync(path.join(repoRoot, "dist", "mcp", "stdio.js"))) {
    const r = spawnSync(process.execPath, ["scripts/build.mjs"], { cwd: repoRoot, encoding: "utf8" });
    if (r.status !== 0) throw new Error(`build failed:\n${r.stdout}\n${r.stderr}`);
  }
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cliPath, "mcp", fixtureDir()],
    stderr: "pipe",
    cwd: repoRoot,
  });
  client = new Client({ name: "codeslice-unknown-args-test", version: "1.0.0" });
  await client.connect(transport);
}, 300_000);

afterAll(async () => {
  await client?.close();
  removeTemps();
});

async function call(name: string, args: Record<string, unknown>): Promise<{ isError: boolean; text: string }> {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  return { isError: r.isError === true, text: r.content.map((c) => (c.type === "text" ? c.text : "")).join("\n") };
}

describe("unknown arguments", () => {
  it("a page number on a paged tool names the argument and points at cursor from the last answer", async () => {
    for (const tool of ["callers", "callees", "tests"]) {
      const a = await call(tool, { [tool === "tests" ? "target" : "symbol"]: "register", page: 2 });
      expect(a.isError).toBe(true);
      expect(a.text).toContain("page");
      expect(a.text).toMatch(/Did you mean cursor\b/);
      expect(a.text).toContain("next");
      expect(a.text).not.toContain("Unrecognized key");
    }
  });

  it("another unknown argument gets the nearest one and the list the tool takes", async () => {
    const a = await call("context", { target: "register", budgett: 900 });
    expect(a.isError).toBe(true);
    expect(a.text).toContain("budgett");
    expect(a.text).toMatch(/Did you mean budget\?/);
    expect(a.text).toMatch(/target, .*budget/);
  });

  it("known arguments still answer, and a wrong type is still refused", async () => {
    const ok = await call("callers", { symbol: "register", limit: 5 });
    expect(ok.isError).toBe(false);
    const bad = await call("callers", { symbol: "register", depth: "two" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain("depth");
  });
});
