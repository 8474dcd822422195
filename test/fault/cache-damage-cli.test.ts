/**
 * Random cache damage through the built CLI (`node dist/cli/main.js … --json --quiet --cache-dir X`):
 * each seed damages a copy of a clean cache and runs one command on it (context of three targets,
 * callers of two symbols, graph, in turn). Exit 0, JSON equal to a clean run, and stderr without an
 * unexpected error or a stack frame. A failing seed replays alone with FAULT_SEED=<n>.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { damageCache } from "./damage.ts";
import {
  CALLERS_TARGETS,
  CONTEXT_TARGETS,
  removeTemps,
  rng,
  seedList,
  STACK_FRAME,
  tempDir,
  treeOf,
  writeProject,
} from "./fixture.ts";
import { cli, ensureBuilt, pool, type Run } from "./run.ts";

const COMMANDS: string[][] = [
  ...CONTEXT_TARGETS.map((t) => ["context", t, "--budget", "1500"]),
  ...CALLERS_TARGETS.map((t) => ["callers", t]),
  ["graph"],
];
const seeds = seedList(102);

let root: string;
let clean: string;
const expected: unknown[] = [];

const run = (command: string[], cacheDir: string) =>
  cli([...command, "--root", root, "--cache-dir", cacheDir, "--json", "--quiet"]);

function parsed(r: Run, what: string): unknown {
  try {
    return JSON.parse(r.stdout);
  } catch {
    throw new Error(
      `${what}: stdout is not JSON (exit ${r.status}): ${r.stdout.slice(0, 300)}\nstderr: ${r.stderr.slice(0, 1500)}`,
    );
  }
}

beforeAll(async () => {
  ensureBuilt();
  const base = tempDir();
  root = path.join(base, "project");
  clean = path.join(base, "clean-cache");
  writeProject(root);
  const index = await run(["index"], clean);
  expect(index.status, index.stderr).toBe(0);
  // The clean answers: each command once on the clean cache.
  const runs = await pool(COMMANDS, 3, (c) => run(c, clean));
  runs.forEach((r, i) => {
    expect(r.status, r.stderr).toBe(0);
    expected[i] = parsed(r, COMMANDS[i]!.join(" "));
  });
}, 120_000);

afterAll(removeTemps);

describe("random damage to the cache folder, through the CLI", () => {
  // Groups of seeds, each its own test: a slow machine shows progress, and a failure names its group.
  const groups = Array.from({ length: Math.ceil(seeds.length / 17) }, (_, g) => seeds.slice(g * 17, g * 17 + 17));
  it.each(groups.map((g) => [`${g[0]}–${g.at(-1)}`, g] as const))(
    "seeds %s: exit 0, JSON equal to a clean run, no stack trace",
    async (_label, group) => {
      const work = tempDir();
      const before = treeOf(root);
      const failures: string[] = [];
      await pool(group, 3, async (seed) => {
        const cache = path.join(work, `cache-${seed}`);
        fs.cpSync(clean, cache, { recursive: true });
        const ops = damageCache(cache, rng(seed));
        const which = seed % COMMANDS.length;
        const command = COMMANDS[which]!;
        try {
          const r = await run(command, cache);
          const what = `seed ${seed} (${command.join(" ")}) [${ops.join("; ")}]`;
          if (r.status !== 0 || /unexpected error/.test(r.stderr) || STACK_FRAME.test(r.stderr)) {
            failures.push(`${what}: exit ${r.status}\n${r.stderr.slice(0, 1500)}`);
            return;
          }
          expect(parsed(r, what), what).toEqual(expected[which]);
        } catch (error) {
          failures.push(String((error as Error).message).slice(0, 2000));
        } finally {
          fs.rmSync(cache, { recursive: true, force: true });
        }
      });
      expect(failures, failures.join("\n\n")).toEqual([]);
      expect(treeOf(root), "the project folder changed").toEqual(before);
    },
    240_000,
  );
});
