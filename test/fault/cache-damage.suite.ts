/**
 * Random damage to a real cache folder, read back by the real engine in process: for every seed the
 * answers equal those of a clean run, and a second engine on the same folder afterwards answers the
 * same with nothing left to repair (the damage was mended, not just worked around). Shared by the
 * Node store (cache-damage.test.ts) and the Deno store (deno/cache-damage_test.ts); node:fs does
 * the damage under both runtimes. A failing seed replays alone with FAULT_SEED=<n>.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEngine, type Engine } from "../../src/core/engine/engine.ts";
import type { Logger, Platform } from "../../src/core/ports.ts";
import { damageCache } from "./damage.ts";
import {
  CALLERS_TARGETS,
  CONTEXT_TARGETS,
  plain,
  removeTemps,
  rng,
  seedList,
  tempDir,
  treeOf,
  writeProject,
} from "./fixture.ts";

/** Everything compared: three context answers, callers of two symbols, the graph, a search, the repo map. */
export async function answers(engine: Engine): Promise<unknown> {
  const out: Record<string, unknown> = {};
  for (const t of CONTEXT_TARGETS) out[`context ${t}`] = await engine.context(t, { budget: 1500 });
  for (const t of CALLERS_TARGETS) out[`callers ${t}`] = await engine.callers(t);
  out.graph = await engine.graph();
  out.search = await engine.search("price");
  out.map = await engine.map({ budget: 1500 });
  return plain(out);
}

/**
 * The damage loop over one host's platform. `openPlatform` must reuse one WasmSource: the parser
 * runtime is kept per source, and a fresh one per engine would spend the test compiling grammars.
 */
export function cacheDamageSuite(
  name: string,
  seedCount: number,
  openPlatform: (root: string, cacheDir: string, logger: Logger) => Promise<Platform>,
): void {
  const seeds = seedList(seedCount);
  let root: string;
  let clean: string;
  let expected: unknown;
  let projectTree: Record<string, string>;
  const quiet: Logger = { log() {} };
  const open = async (cacheDir: string, logger = quiet) => createEngine(await openPlatform(root, cacheDir, logger));

  beforeAll(async () => {
    const base = tempDir();
    root = path.join(base, "project");
    clean = path.join(base, "clean-cache");
    writeProject(root);
    projectTree = treeOf(root);
    expected = await answers(await open(clean));
    // The clean cache answers the same from a second engine, loading records and parsing nothing.
    const again = await open(clean);
    expect(await answers(again)).toEqual(expected);
    expect((await again.index()).parsed).toBe(0);
  });

  afterAll(removeTemps);

  describe(`random damage to the cache folder (${name}, in process)`, () => {
    it(`${seeds.length} seeds: answers equal a clean run, and the folder heals`, async () => {
      const work = tempDir();
      const failures: string[] = [];
      let warned = 0;
      const runSeed = async (seed: number) => {
        const cache = path.join(work, `cache-${seed}`);
        fs.cpSync(clean, cache, { recursive: true });
        const ops = damageCache(cache, rng(seed));
        const warnings: string[] = [];
        try {
          const first = await open(cache, {
            log: (level, message) => void (level === "warn" && warnings.push(message)),
          });
          expect(await answers(first), `seed ${seed}: ${ops.join("; ")}`).toEqual(expected);
          if (warnings.some((w) => /damaged or missing/.test(w))) warned++;
          const second = await open(cache);
          expect(await answers(second), `seed ${seed} (second engine): ${ops.join("; ")}`).toEqual(expected);
          const summary = await second.index();
          expect(
            { seed, parsed: summary.parsed, repaired: summary.repaired },
            "healed: nothing left to parse or repair",
          ).toEqual({ seed, parsed: 0, repaired: 0 });
        } catch (error) {
          failures.push(
            `seed ${seed} [${ops.join("; ")}]: ${String((error as Error).stack ?? error)
              .split("\n")
              .slice(0, 8)
              .join("\n")}`,
          );
        } finally {
          fs.rmSync(cache, { recursive: true, force: true });
        }
      };
      // A few seeds at a time, each on its own copy: their reads and writes overlap.
      for (let i = 0; i < seeds.length; i += 4) await Promise.all(seeds.slice(i, i + 4).map(runSeed));
      expect(failures, failures.join("\n\n")).toEqual([]);
      // The damage was real: most seeds made the engine repair something it had stored.
      if (seeds.length > 1)
        expect(warned, "seeds whose damage was noticed and repaired").toBeGreaterThan(seeds.length / 3);
      expect(treeOf(root), "the project folder changed").toEqual(projectTree);
    }, 300_000);
  });
}
