/**
 * What a demanding user hits in the first hour with the built CLI: the project folder as a
 * positional argument on every command that takes no other (as `mcp <root>` always did), messages
 * that quote what was typed as typed (a Windows path, a regular expression), and `tests` saying at
 * which depth tests do reach a symbol when the default finds none.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { planWarm, ROOT_ARG_COMMANDS } from "../../src/cli/warm-client.ts";
import { COMMANDS } from "../../src/cli/commands/index.ts";
import { parseLspArgs } from "../../src/lsp/stdio.ts";
import { parseStdioArgs } from "../../src/mcp/stdio.ts";
import { ensureCliBuilt, jsonOf, runCli, tempDirs } from "../support/cli.ts";

const temps = tempDirs("codeslice-first-hour-");
afterAll(temps.cleanup);

/** A test reaches `target` only through three helpers: four hops, where `tests` looks two deep by default. */
const DEEP = {
  "app/core.py": "def target():\n    return 1\n",
  "app/helpers.py":
    "from app.core import target\n\n\ndef one():\n    return target()\n\n\ndef two():\n    return one()\n\n\n" +
    "def three():\n    return two()\n",
  "tests/test_app.py":
    "from app.helpers import three\n\n\ndef test_three():\n    assert three() == 1\n\n\n" +
    "def test_three_again():\n    assert three() + 1 == 2\n",
};

let project: string;
let parent: string;
const run = (args: string[], cwd = parent) => runCli([...args, "--no-server", "--quiet"], { cwd });

beforeAll(() => {
  ensureCliBuilt();
  project = temps.project(DEEP);
  parent = path.dirname(project);
}, 300_000);

describe("the project folder as an argument", () => {
  it("index, map and routes take it as --root does", () => {
    const name = path.basename(project);
    const cache = path.join(temps.make(), "cache");
    const indexed = run(["index", name, "--cache-dir", cache, "--json"]);
    expect(indexed.stderr).toBe("");
    expect(indexed.status).toBe(0);
    expect(jsonOf<{ sourceFiles: number }>(indexed).sourceFiles).toBe(3);
    const map = run(["map", name, "--cache-dir", cache]);
    expect(map.status).toBe(0);
    expect(map.stdout).toContain("app/core.py");
    // The same folder written both ways is one folder.
    expect(run(["index", name, "--root", project, "--cache-dir", cache]).status).toBe(0);
    expect(run(["routes", `./${name}`, "--cache-dir", cache]).status).toBe(0);
  });

  it("refuses a positional folder and a --root that name different folders, naming both", () => {
    const other = temps.make();
    const r = run(["index", project, "--root", other]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(project);
    expect(r.stderr).toContain(`--root ${other}`);
  });

  it("points a folder given to a command with a target at --root", () => {
    const r = run(["callers", "target", "./proj"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("--root ./proj");
    // changes' one argument is a route: a folder there is the project, written where mcp takes it.
    const changes = run(["changes", path.basename(project)]);
    expect(changes.status).toBe(2);
    expect(changes.stderr).toContain(`--root ${path.basename(project)}`);
  });

  it("sends the warm CLI's call to the server of that folder, and a disagreeing pair to the full CLI", () => {
    const env = { CODESLICE_SERVER: "1" };
    if (process.platform === "win32") return;
    expect(planWarm(["map", path.basename(project)], env, parent)?.root).toBe(project);
    expect(planWarm(["map", path.basename(project), "--root", project], env, parent)?.root).toBe(project);
    expect(planWarm(["map", project, "--root", temps.make()], env, parent)).toBeUndefined();
  });

  it("mcp and lsp take a positional folder with a --root naming the same one, and refuse two different ones", () => {
    const name = path.basename(project);
    const other = temps.make();
    expect(parseStdioArgs([name, "--root", project], parent).root).toBe(project);
    expect(() => parseStdioArgs([project, "--root", other], parent)).toThrow(other);
    expect(parseLspArgs([name, "--root", project], parent).root).toBe(project);
    expect(() => parseLspArgs([project, "--root", other], parent)).toThrow(other);
  });

  it("is declared by every command that takes --root and no other argument, and the warm CLI knows them", () => {
    const owners = COMMANDS.filter((c) => Object.values(c.flags).some((f) => f.name === "root"));
    const withoutTarget = owners.filter((c) => (c.args ?? []).every((a) => a.root));
    expect(withoutTarget.length).toBeGreaterThan(5);
    for (const c of withoutTarget) expect(c.args?.map((a) => a.root === true)).toEqual([true]);
    expect([...ROOT_ARG_COMMANDS].sort()).toEqual(withoutTarget.map((c) => c.name).sort());
  });
});

describe("messages quote what was typed, as typed", () => {
  it("a Windows path and a regular expression keep their single backslashes", () => {
    const cache = path.join(temps.make(), "cache");
    const windows = "C:\\Users\\me\\proj";
    const grep = run(["grep", "a\\d", "--paths", windows, "--root", project, "--cache-dir", cache]);
    expect(grep.status).toBe(1);
    expect(grep.stderr).toContain(`"${windows}"`);
    expect(grep.stderr).not.toContain("\\\\");
    const symbol = run(["callers", "x\\y", "--root", project, "--cache-dir", cache]);
    expect(symbol.stderr).toContain('"x\\y"');
    expect(symbol.stderr).not.toContain("\\\\");
    const header = run(["grep", "target\\(", "--root", project, "--cache-dir", cache]);
    expect(header.status).toBe(0);
    expect(header.stdout.split("\n")[0]).toContain('"target\\("');
    // --json stays JSON: the same pattern, escaped as JSON escapes it, read back whole.
    const json = jsonOf<{ pattern?: string; text: string }>(
      run(["grep", "target\\(", "--root", project, "--cache-dir", cache, "--json"]),
    );
    expect(json.text).toContain('"target\\("');
  });
});

describe("tests names the depth that finds tests", () => {
  it("says how many tests reach the symbol at which depth, and that depth finds them", () => {
    const cache = path.join(temps.make(), "cache");
    const shallow = run(["tests", "app.core.target", "--root", project, "--cache-dir", cache, "--json"]);
    const none = jsonOf<{ total: number; deeper?: { depth: number; tests: number }; text: string }>(shallow);
    expect(none.total).toBe(0);
    expect(none.deeper).toEqual({ depth: 4, tests: 2 });
    expect(none.text).toContain("2 tests reach it within depth 4");
    expect(none.text).toContain("depth=4");
    const deep = jsonOf<{ total: number; deeper?: unknown }>(
      run(["tests", "app.core.target", "--depth", "4", "--root", project, "--cache-dir", cache, "--json"]),
    );
    expect(deep.total).toBe(2);
    expect(deep.deeper).toBeUndefined();
    // A symbol no test reaches at any depth says nothing more.
    fs.writeFileSync(path.join(project, "app/alone.py"), "def alone():\n    return 0\n");
    const alone = jsonOf<{ total: number; deeper?: unknown; text: string }>(
      run(["tests", "app.alone.alone", "--root", project, "--cache-dir", cache, "--json"]),
    );
    expect(alone.total).toBe(0);
    expect(alone.deeper).toBeUndefined();
    expect(alone.text).not.toContain("within depth 4");
  });
});
