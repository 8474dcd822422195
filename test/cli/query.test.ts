/**
 * `codeslice query` as a user runs it: rows as text and --json, an invalid query's exit code 2
 * with the line and a caret under the column on stderr, an over-budget result with the LIMIT and
 * --budget that would do, a missing query, and --kind flows and clusters.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureCliBuilt, runCli, tempDirs } from "../support/cli.ts";

const temps = tempDirs("codeslice-cli-query-");
let root: string;

beforeAll(() => {
  ensureCliBuilt();
  root = temps.make();
  const files: Record<string, string> = {
    "app/core.py": "def helper(x):\n    return x\n\n\ndef work(x):\n    return helper(x)\n",
    "app/main.py": "from app.core import work\n\n\ndef main():\n    work(1)\n",
  };
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
}, 300_000);

afterAll(temps.cleanup);

const run = (...args: string[]) => runCli(["query", ...args, "--root", root, "--quiet"]);

describe("codeslice query", () => {
  it("prints rows, and the same rows as JSON", () => {
    const q = "MATCH (a:Symbol)-[:CALLS*1..2]->(b:Symbol {name: 'helper'}) RETURN a.name, length(a) ORDER BY a.name";
    const bad = run(q);
    expect(bad.status).toBe(2); // length() of a node: a type error, at its column
    expect(bad.stderr).toContain("column 76: length() takes a relationship, a string or a list.");
    const r = run(
      "MATCH (a:Symbol)-[p:CALLS*1..2]->(b:Symbol {name: 'helper'}) RETURN a.name, length(p) ORDER BY a.name",
      "--json",
    );
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      columns: ["a.name", "length(p)"],
      rows: [
        ["main", 2],
        ["work", 1],
      ],
      total: 2,
    });
    const text = run("MATCH (f:File)-[:IMPORTS]->(g:File) RETURN f.path, g.path");
    expect(text.status).toBe(0);
    expect(text.stdout).toContain("- app/main.py | app/core.py");
  });

  it("an invalid query exits 2 with the line, a caret under the column and the way out", () => {
    const r = run("MATCH (a)\nWHERE a.nmae = 'x'\nRETURN a");
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("Line 2, column 9: a has no property nmae.");
    expect(r.stderr).toContain("WHERE a.nmae = 'x'\n        ^");
    expect(r.stderr).toContain("docs/query.md");
  });

  it("an over-budget result exits 1 naming the LIMIT that fits and the budget that holds it all", () => {
    const r = run("MATCH (a:Symbol) RETURN a, a.path LIMIT 5", "--budget", "60");
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/hint: Add LIMIT \d+ \(SKIP to page\), return fewer columns, or run with --budget \d+\./);
  });

  it("needs a query unless --kind says flows or clusters", () => {
    const r = run();
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("query needs a query");
    const flows = run("--kind", "flows", "--json");
    expect(flows.status).toBe(0);
    expect(JSON.parse(flows.stdout).flows).toContainEqual(
      expect.objectContaining({ kind: "main", entry: "app.main.main", size: 2 }),
    );
    const clusters = run("--kind", "clusters", "--json");
    expect(clusters.status).toBe(0);
    expect(JSON.parse(clusters.stdout).clusters[0]).toMatchObject({
      files: ["app/core.py", "app/main.py"],
      cohesion: 1,
    });
  });
});
