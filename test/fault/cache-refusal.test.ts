/**
 * The data-loss cases the existing CLI and MCP tests leave out: `codeslice mcp --cache-dir` set to
 * a source folder, to the root's parent, to a non-empty folder elsewhere, to a new folder inside a
 * source folder, to a symbolic link to the project, and to `.`, all given relative to the folder the
 * client starts the server in; and the CLI's answering commands (not only `index`) with the link
 * and the new folder inside sources. Each is refused on every call with the user's files intact.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeTemps, STACK_FRAME, tempDir, treeOf, writeProject } from "./fixture.ts";
import { callTool, openServer } from "./mcp.ts";
import { cli, ensureBuilt, pool } from "./run.ts";

/** `<base>/project` (sources at the top and in src/), a sibling project, a folder of photos, links. */
function world(): { base: string; root: string } {
  const base = tempDir("codeslice-refusal-");
  const root = path.join(base, "project");
  writeProject(base, {
    "project/app.py": "def main():\n    return helper()\n\n\ndef helper():\n    return 1\n",
    "project/src/lib.ts": "export function lib(): number {\n  return 2;\n}\n",
    "project/src/util.py": "def util():\n    return 3\n",
    "project/docs/notes.txt": "notes\n",
    "sibling/keep.py": "KEEP = 1\n",
    "photos/cat.txt": "precious\n",
  });
  fs.symlinkSync("project", path.join(base, "link"));
  return { base, root };
}

beforeAll(ensureBuilt);
afterAll(removeTemps);

/** --cache-dir values as a user types them, relative to the project root (the server's cwd). */
const CASES: [string, string][] = [
  ["a source folder", "src"],
  ["the root's parent", ".."],
  ["the root as .", "."],
  ["a non-empty folder elsewhere", "../photos"],
  ["a new folder inside a source folder", "src/cache"],
  ["a symbolic link to the project", "../link"],
];

describe("codeslice mcp --cache-dir that would hold the user's files", () => {
  it("is refused on every call for each case, nothing on disk changes, and the server keeps serving", async () => {
    const failures: string[] = [];
    await pool(CASES, 3, async ([what, cacheDir]) => {
      const { base, root } = world();
      const before = treeOf(base);
      // The server starts in the project folder, as a client starts it, and resolves the option there.
      const t = await openServer(["--cache-dir", cacheDir, "--log-level", "warn"], root);
      try {
        const listed = (await t.client.listTools()).tools.length;
        for (const [name, args] of [
          ["repo_map", {}],
          ["context", { target: "helper" }],
          ["callers", { symbol: "helper" }],
        ] as const) {
          const a = await callTool(t.client, name, args);
          if (!a.isError || !/Refusing to use .* as the index cache/.test(a.text) || /internal error/.test(a.text)) {
            failures.push(`${what} (${cacheDir}), ${name}: isError=${a.isError} ${a.text.slice(0, 300)}`);
          }
        }
        if (listed < 9 || (await t.client.listTools()).tools.length !== listed)
          failures.push(`${what}: the server stopped listing its tools`);
        if (t.protocolErrors.length)
          failures.push(`${what}: protocol errors ${t.protocolErrors.map((e) => e.message).join("; ")}`);
      } finally {
        await t.close();
      }
      if (STACK_FRAME.test(t.stderr()))
        failures.push(`${what}: stack trace in the server log:\n${t.stderr().slice(0, 1000)}`);
      if (JSON.stringify(treeOf(base)) !== JSON.stringify(before))
        failures.push(`${what} (${cacheDir}) changed the disk: ${JSON.stringify(treeOf(base))}`);
    });
    expect(failures, failures.join("\n")).toEqual([]);
  }, 180_000);
});

describe("the CLI's answering commands with --cache-dir that would hold the user's files", () => {
  it.each([
    ["a symbolic link to the project", "../link", "contains_root"],
    ["a new folder inside a source folder", "src/cache", "inside_sources"],
    ["a source folder reached through the link", "../link/src", "not_empty"],
  ])(
    "%s (%s) is refused by context, callers and graph with exit 1 and nothing changed",
    async (_what, cacheDir, reason) => {
      const { base, root } = world();
      const before = treeOf(base);
      const runs = await Promise.all(
        [["context", "helper"], ["callers", "helper"], ["graph"]].map((c) =>
          cli([...c, "--json", "--quiet", "--cache-dir", cacheDir], { cwd: root }),
        ),
      );
      for (const r of runs) {
        expect(r.status, r.stderr).toBe(1);
        expect(JSON.parse(r.stdout)).toMatchObject({ error: { code: "cache_refused", data: { reason } } });
        expect(r.stderr).not.toMatch(/unexpected error/);
        expect(r.stderr).not.toMatch(STACK_FRAME);
      }
      expect(treeOf(base)).toEqual(before);
    },
    60_000,
  );
});
