/**
 * The commands tests() gives, run by the real runners: each case's project written to a temp
 * folder and its command lines run as a shell would, where the machine has the runner (Vitest
 * always: it is this project's own; pytest, go and cargo when installed; Maven and Gradle need the
 * network for JUnit, so their ids are checked by tests.test.ts only). A runnable id is only as
 * good as the run it selects.
 */
import { execSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { memoryEngine, parseFixture } from "../support/platform.ts";
import { CASES } from "./cases.ts";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const temps: string[] = [];
afterAll(() => {
  for (const t of temps) fs.rmSync(t, { recursive: true, force: true });
});

const has = (tool: string) => tool === "vitest" || spawnSync("sh", ["-c", `command -v ${tool}`]).status === 0;

/** The command as the runner here runs it: the project's own Vitest (no download), flags added after the runner's words. */
function local(command: string, tool: string, flags = ""): string {
  const extra = flags ? ` ${flags}` : "";
  if (tool === "vitest")
    return command.replace(/^npx vitest run/, `${path.join(repoRoot, "node_modules", ".bin", "vitest")} run${extra}`);
  if (tool === "go") return command.replace(/^go test/, `go test${extra}`);
  if (tool === "cargo") return command.replace(/^cargo test/, `cargo test${extra}`);
  return `${command}${extra}`;
}

describe("runnable ids run what they name", () => {
  for (const c of CASES.filter((x) => x.run)) {
    const run = c.run!;
    it.skipIf(!has(run.tool))(
      `${run.tool}: ${c.name}`,
      async () => {
        const files = parseFixture(c.fixture);
        const { engine } = memoryEngine(files);
        const answer = await engine.tests(c.target, c.depth ? { depth: c.depth } : {});
        const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-runners-")));
        temps.push(root);
        for (const [rel, text] of Object.entries(files)) {
          fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
          fs.writeFileSync(path.join(root, rel), text);
        }
        let output = "";
        for (const plan of answer.run) {
          const cwd = path.join(root, plan.cwd);
          // Test files import "vitest": let them find this project's copy.
          if (run.tool === "vitest")
            fs.symlinkSync(path.join(repoRoot, "node_modules"), path.join(cwd, "node_modules"));
          for (const command of plan.commands) {
            try {
              output += execSync(local(command, run.tool, run.flags), {
                cwd,
                encoding: "utf8",
                stdio: ["ignore", "pipe", "pipe"],
                timeout: 240_000,
                env: {
                  ...process.env,
                  NO_COLOR: "1",
                  FORCE_COLOR: "0",
                  CARGO_TARGET_DIR: path.join(root, ".target"),
                  PYTHONDONTWRITEBYTECODE: "1",
                },
              });
            } catch (error) {
              const e = error as { stdout?: string; stderr?: string; message: string };
              throw new Error(
                `${command} failed in ${plan.cwd || "."}: ${e.message}\n${e.stdout ?? ""}\n${e.stderr ?? ""}`,
              );
            }
          }
        }
        for (const re of run.expect) expect(output).toMatch(re);
        for (const re of run.reject ?? []) expect(output).not.toMatch(re);
      },
      300_000,
    );
  }
});
