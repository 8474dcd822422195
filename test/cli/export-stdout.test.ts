/**
 * `index --export -` into a pipe writes the whole artifact: a pipe takes 64 KiB at a time, and a
 * write that ignored how much went through cut a 3 MB artifact to its first chunk, exit 0.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, expect, it } from "vitest";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const cli = path.join(repoRoot, "dist", "cli", "main.js");
const temp = fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-export-stdout-"));
afterAll(() => fs.rmSync(temp, { recursive: true, force: true }));

it("index --export - writes to a pipe the same bytes as --export FILE", () => {
  // This repository's src/: an artifact of megabytes, many pipe buffers long.
  const args = ["index", "--root", path.join(repoRoot, "src"), "--cache-dir", path.join(temp, "cache"), "--quiet"];
  const file = path.join(temp, "index.csa");
  expect(spawnSync(process.execPath, [cli, ...args, "--export", file]).status).toBe(0);
  const piped = spawnSync(process.execPath, [cli, ...args, "--export", "-"], { maxBuffer: 1 << 30, timeout: 120_000 });
  expect(piped.status).toBe(0);
  const expected = fs.readFileSync(file);
  expect(expected.length).toBeGreaterThan(1 << 20);
  expect(piped.stdout.length).toBe(expected.length);
  expect(Buffer.compare(piped.stdout, expected)).toBe(0);
}, 180_000);
