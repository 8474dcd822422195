/** The built CLI as a subprocess, for tests that run it as a user does. */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
export const cli = path.join(repoRoot, "dist", "cli", "main.js");

/** What one CLI run printed and how it exited. */
export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI with `args` (from the repository root unless `cwd` is given). */
export function runCli(
  args: string[],
  { cwd = repoRoot, timeout = 120_000 }: { cwd?: string; timeout?: number } = {},
): CliRun {
  const r = spawnSync(process.execPath, [cli, ...args], { cwd, encoding: "utf8", timeout });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A run's stdout as JSON; a run that printed something else fails with what it printed. */
export function jsonOf<T = Record<string, unknown>>(r: CliRun): T {
  try {
    return JSON.parse(r.stdout) as T;
  } catch {
    throw new Error(
      `stdout is not JSON (exit ${r.status}): ${r.stdout.slice(0, 500)}\nstderr: ${r.stderr.slice(0, 500)}`,
    );
  }
}

/** Builds dist/ when it is missing (`npm test` builds first; a bare vitest run may not have). */
export function ensureCliBuilt(): void {
  if (fs.existsSync(cli)) return;
  const r = spawnSync(process.execPath, ["scripts/build.mjs"], { cwd: repoRoot, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`build failed:\n${r.stdout}\n${r.stderr}`);
}

/**
 * Temp folders (real paths) named with `prefix`, and other paths `add`ed, removed together by
 * `cleanup`; `project` makes one holding `files` (relative path → text).
 */
export function tempDirs(prefix: string): {
  make: () => string;
  add: (path: string) => void;
  cleanup: () => void;
  project: (files: Record<string, string>) => string;
} {
  const made: string[] = [];
  const make = () => {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
    made.push(dir);
    return dir;
  };
  return {
    add: (p) => void made.push(p),
    make,
    project: (files) => {
      const root = make();
      for (const [rel, text] of Object.entries(files)) {
        fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
        fs.writeFileSync(path.join(root, rel), text);
      }
      return root;
    },
    cleanup: () => {
      for (const d of made) fs.rmSync(d, { recursive: true, force: true });
    },
  };
}

/** True while a process with this id exists (signal 0 only asks). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
