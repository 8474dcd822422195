/**
 * Mutated real source files never crash extraction. Files from Debian's python3-requests and
 * python3-click (when installed; the playground's sample otherwise) and this repository's own
 * src/**\/*.ts get byte flips, truncation, and insertions of random bytes, invalid UTF-8, NUL
 * bytes, huge lines, deep bracket nesting, unterminated strings and comments, and spliced copies
 * of their own text. Indexed by the real engine (memory platform, real wasm), every file is indexed
 * or skipped with a reason, every stored record passes the engine's own shape check and reads back
 * as it was made, and queries answer or fail with an EngineError, never anything else.
 * A failing seed replays alone with FAULT_SEED=<n>.
 */
import process from "node:process";
import { describe, expect, it } from "vitest";
import { createEngine, type Engine } from "../../src/core/engine/engine.ts";
import { decodeRecord } from "../../src/core/engine/snapshot.ts";
import { EngineError } from "../../src/shared/errors.ts";
import { MemoryFileSystem, MemoryStore } from "../../src/platform/memory/index.ts";
import { wasm } from "../support/platform.ts";
import { plain, rng, seedList } from "./fixture.ts";
import { corpus, mutate, namesIn } from "./mutate.ts";

const seeds = seedList(208);

/** Runs a query; an EngineError is an answer too. Anything else is returned as the failure. */
async function query(what: string, run: () => Promise<unknown>): Promise<string | undefined> {
  try {
    await run();
    return undefined;
  } catch (error) {
    if (error instanceof EngineError && typeof error.code === "string") return undefined;
    return `${what}: ${(error as Error)?.stack ?? String(error)}`;
  }
}

describe("mutated source files", () => {
  it(`${seeds.length} seeds: the index completes, every file is indexed or skipped with a reason, queries never throw a non-EngineError`, async () => {
    const files = corpus();
    const paths = [...files.keys()].sort();
    expect(paths.filter((p) => p.endsWith(".py")).length).toBeGreaterThan(5);
    expect(paths.filter((p) => p.endsWith(".ts")).length).toBeGreaterThan(20);
    const failures: string[] = [];
    let indexed = 0;
    let skipped = 0;
    let partial = 0;
    const reasons = new Map<string, number>();
    const slow: [number, string][] = [];
    const runSeed = async (seed: number) => {
      const t0 = performance.now();
      const rand = rng(seed);
      const chosen = new Set<string>();
      const want = 2 + rand.int(3);
      while (chosen.size < want) chosen.add(rand.pick(paths));
      const project: Record<string, Uint8Array> = {};
      const log: string[] = [];
      const targets: string[] = [];
      for (const p of chosen) {
        const original = files.get(p)!;
        const { bytes, ops } = mutate(original, rand);
        project[p] = bytes;
        log.push(`${p}: ${ops.join(", ")}`);
        targets.push(...namesIn(new TextDecoder().decode(original)).slice(0, 40));
      }
      const what = `seed ${seed} [${log.join("; ")}]`;
      const fsys = new MemoryFileSystem(project);
      const store = new MemoryStore();
      const engine: Engine = createEngine({ fs: fsys, store, wasm });
      try {
        const summary = await engine.index();
        const records = await engine.records();
        const recorded = new Set(records.map((r) => r.path));
        const skips = new Map(summary.skipped.map((s) => [s.path, s.reason]));
        for (const s of summary.skipped) reasons.set(s.reason, (reasons.get(s.reason) ?? 0) + 1);
        for (const p of chosen) {
          const inRecords = recorded.has(p);
          const reason = skips.get(p);
          if (inRecords === (reason !== undefined) || (reason !== undefined && !reason))
            failures.push(
              `${what}: ${p} is ${inRecords ? "indexed and skipped" : "neither indexed nor skipped with a reason"}`,
            );
          if (inRecords) indexed++;
          else skipped++;
        }
        partial += summary.syntaxErrors.length;
        // Every record the engine stored passes its own shape check: otherwise each later run would
        // find it "damaged" and parse it again, forever.
        for (const key of await store.keys("v")) {
          if (!key.includes("/records/")) continue;
          if (!decodeRecord(await store.get(key), "x"))
            failures.push(`${what}: the stored record ${key} fails the engine's own check`);
        }
        // A second engine over the same store reads the same records back.
        const again = createEngine({ fs: fsys, store, wasm });
        const reread = plain(await again.records());
        if (JSON.stringify(reread) !== JSON.stringify(plain(records)))
          failures.push(`${what}: records read back from the store differ from the ones made`);
        // Queries on names the files had before mutation: answers or EngineErrors.
        const pick = targets.length ? [rand.pick(targets), rand.pick(targets)] : ["missing"];
        for (const name of pick) {
          for (const [label, run] of [
            [`context ${name}`, () => engine.context(name, { budget: 2000 })],
            [`callers ${name}`, () => engine.callers(name, { depth: 2 })],
            [`callees ${name}`, () => engine.callees(name)],
            [`signature ${name}`, () => engine.signature(name)],
          ] as const) {
            const failure = await query(label, run);
            if (failure) failures.push(`${what}: ${failure}`);
          }
        }
        for (const [label, run] of [
          ["graph", () => engine.graph()],
          ["map", () => engine.map({ budget: 1000 })],
          ["search", () => engine.search(pick[0]!)],
          ["context of a file", () => engine.context([...chosen][0]!, { budget: 1500 })],
        ] as const) {
          const failure = await query(label, run);
          if (failure) failures.push(`${what}: ${failure}`);
        }
      } catch (error) {
        failures.push(`${what}: index failed: ${(error as Error)?.stack ?? String(error)}`);
      }
      slow.push([performance.now() - t0, what.slice(0, 300)]);
    };
    for (let i = 0; i < seeds.length; i += 4) await Promise.all(seeds.slice(i, i + 4).map(runSeed));
    expect(failures, failures.slice(0, 10).join("\n\n")).toEqual([]);
    if (process.env.FAULT_VERBOSE)
      console.log(
        slow
          .sort((a, b) => b[0] - a[0])
          .slice(0, 8)
          .map(([ms, w]) => `${ms.toFixed(0)} ms ${w}`)
          .join("\n"),
      );
    if (process.env.FAULT_VERBOSE)
      console.log({ indexed, skipped, withSyntaxErrors: partial, reasons: Object.fromEntries(reasons) });
    // The mutations reached the parser: most files were indexed (many with syntax errors), some skipped.
    if (seeds.length > 1) {
      expect(indexed, JSON.stringify(Object.fromEntries(reasons))).toBeGreaterThan(2 * skipped);
      expect(partial).toBeGreaterThan(seeds.length / 4);
    }
  }, 300_000);
});
