/**
 * `codeslice dataflow` as a user runs it, on the Express fixture of test/dataflow: the sinks as
 * text with their chains, --var/--line as JSON, an unknown route and a bad --line refused.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseFixture } from "../support/platform.ts";
import { ensureCliBuilt, jsonOf, runCli, tempDirs } from "../support/cli.ts";
import { EXPRESS, lineOf } from "../dataflow/fixtures.ts";

const temps = tempDirs("codeslice-cli-dataflow-");
let root: string;

beforeAll(() => {
  ensureCliBuilt();
  root = temps.project(parseFixture(EXPRESS));
}, 300_000);

afterAll(temps.cleanup);

const run = (...args: string[]) => runCli(["dataflow", ...args, "--root", root, "--quiet"]);

describe("codeslice dataflow", () => {
  it("prints each sink the request body reaches, with its chain, and the ones it does not", () => {
    const r = run("POST /backup");
    expect(r.status).toBe(0);
    const exec = lineOf(EXPRESS, "backup_exec");
    expect(r.stdout).toContain(`REACHED  exec exec(…) at ${exec.path}:${exec.line}`);
    expect(r.stdout).toContain(`${exec.path}:${lineOf(EXPRESS, "backup_dir").line}  user input enters: req.body`);
    expect(r.stdout).toContain(
      `not reached  file fs.writeFileSync(…) at ${exec.path}:${lineOf(EXPRESS, "backup_write").line}`,
    );
  });

  it("answers --var with --line as JSON: the origins of the value there", () => {
    const html = lineOf(EXPRESS, "greet_html");
    const a = jsonOf<{ question: string; origins: { line: number }[][] }>(
      run("GET /greet", "--var", "name", "--line", String(html.line), "--json"),
    );
    expect(a.question).toBe("variable");
    expect(a.origins.map((c) => c.at(-1)!.line).sort((x, y) => x - y)).toEqual([
      lineOf(EXPRESS, "greet_init").line,
      lineOf(EXPRESS, "greet_branch").line,
    ]);
  });

  it("refuses an unknown route (exit 1, the routes it knows) and a line that is not a number (exit 2)", () => {
    const unknown = run("GET /nowhere");
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toMatch(/No route GET \/nowhere found/);
    const bad = run("GET /greet", "--line", "x");
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--line/);
  });
});
