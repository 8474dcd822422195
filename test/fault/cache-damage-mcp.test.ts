/**
 * Random cache damage through the MCP server: the built `codeslice mcp` as a real stdio subprocess
 * with the SDK Client. The server keeps records in memory once loaded, so each seed gets its own
 * short-lived server on its own damaged copy of a clean cache (a few at a time). Every tool's
 * structured answer equals a clean server's (freshness aside); no answer is an error, none says
 * "internal error", and the server's log has no error line or stack frame. FAULT_SEED=<n> replays.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { damageCache } from "./damage.ts";
import { removeTemps, rng, seedList, STACK_FRAME, tempDir, treeOf, writeProject } from "./fixture.ts";
import { callTool, openServer, TOOL_CALLS, withoutFreshness } from "./mcp.ts";
import { cli, ensureBuilt, pool } from "./run.ts";

const seeds = seedList(100);

let root: string;
let clean: string;
let expected: unknown[];

/** Every tool once on a fresh server over `cacheDir`; throws with the server's log on a failure. */
async function everyTool(cacheDir: string): Promise<{ answers: unknown[]; problems: string[] }> {
  const s = await openServer(["--root", root, "--cache-dir", cacheDir, "--log-level", "warn"]);
  const problems: string[] = [];
  const answers: unknown[] = [];
  try {
    for (const [name, args] of TOOL_CALLS) {
      const a = await callTool(s.client, name, args);
      if (a.isError || /internal error/.test(a.text))
        problems.push(`${name} ${JSON.stringify(args)}: ${a.text.slice(0, 500)}`);
      answers.push(withoutFreshness(a.data));
    }
  } finally {
    await s.close();
  }
  const log = s.stderr();
  if (/: error: |uncaught|unhandled/.test(log) || STACK_FRAME.test(log))
    problems.push(`server log:\n${log.slice(0, 1500)}`);
  if (s.protocolErrors.length) problems.push(`protocol errors: ${s.protocolErrors.map((e) => e.message).join("; ")}`);
  return { answers, problems };
}

beforeAll(async () => {
  ensureBuilt();
  const base = tempDir();
  root = path.join(base, "project");
  clean = path.join(base, "clean-cache");
  writeProject(root);
  const index = await cli(["index", "--root", root, "--cache-dir", clean, "--quiet"]);
  expect(index.status, index.stderr).toBe(0);
  const { answers, problems } = await everyTool(clean);
  expect(problems).toEqual([]);
  expected = answers;
}, 120_000);

afterAll(removeTemps);

describe("random damage to the cache folder, through the MCP server", () => {
  // Groups of seeds, each its own test: a slow machine shows progress, and a failure names its group.
  const groups = Array.from({ length: Math.ceil(seeds.length / 10) }, (_, g) => seeds.slice(g * 10, g * 10 + 10));
  it.each(groups.map((g) => [`${g[0]}–${g.at(-1)}`, g] as const))(
    "seeds %s: every tool answers as on a clean cache, never an error",
    async (_label, group) => {
      const work = tempDir();
      const before = treeOf(root);
      const failures: string[] = [];
      await pool(group, 3, async (seed) => {
        const cache = path.join(work, `cache-${seed}`);
        fs.cpSync(clean, cache, { recursive: true });
        const ops = damageCache(cache, rng(seed));
        const what = `seed ${seed} [${ops.join("; ")}]`;
        try {
          const { answers, problems } = await everyTool(cache);
          if (problems.length) failures.push(`${what}:\n${problems.join("\n")}`);
          else expect(answers, what).toEqual(expected);
        } catch (error) {
          failures.push(`${what}: ${String((error as Error).message).slice(0, 2000)}`);
        } finally {
          fs.rmSync(cache, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
        }
      });
      expect(failures, failures.join("\n\n")).toEqual([]);
      expect(treeOf(root), "the project folder changed").toEqual(before);
    },
    240_000,
  );
});
