/**
 * Artifact fuzzing (issue 22): crafted and damaged artifacts imported into an engine, then every
 * answer asked of it. An artifact is either refused with an `artifact_*` code, writing nothing, or
 * loaded and answered from; never a crash, never a citation of a path outside the project, and the
 * process stays under 500 MB. Mutations: byte flips and cuts (checksums made again, so they reach
 * the parser), and structured edits of the snapshot and records (numbers negative, huge or
 * fractional, strings long, prototype keys, paths outside the root, deep parent chains, stray and
 * repeated records). FAULT_SEED=n replays one seed; FAULT_SCALE=k runs k times as many.
 */
import { describe, expect, it } from "vitest";
import { createEngine, type Engine } from "../../src/core/engine/engine.ts";
import { encodeArtifact } from "../../src/core/engine/artifact.ts";
import {
  SNAPSHOT_KEY,
  decodeJson,
  encodeJson,
  type Snapshot,
  type StoredRecord,
} from "../../src/core/engine/snapshot.ts";
import { crc32 } from "../../src/core/engine/seal.ts";
import { isEngineError } from "../../src/shared/errors.ts";
import { MemoryFileSystem, MemoryStore } from "../../src/platform/memory/index.ts";
import { wasm } from "../support/platform.ts";
import { PROJECT, rng, seedList, type Rng } from "./fixture.ts";

const REFUSALS = ["artifact_corrupt", "artifact_truncated", "artifact_foreign", "artifact_version_mismatch"];

function engineOver(): { engine: Engine; store: MemoryStore } {
  const store = new MemoryStore();
  return { engine: createEngine({ fs: new MemoryFileSystem(PROJECT, "/project"), store, wasm }), store };
}

/** The honest parts of PROJECT's index. */
async function honestParts() {
  const a = engineOver();
  await a.engine.index();
  const snapshot = decodeJson<Snapshot>(await a.store.get(SNAPSHOT_KEY))!;
  const keys = [...new Set(snapshot.files.flatMap((f) => (f.record ? [f.record] : [])))].sort();
  const records = await Promise.all(keys.map(async (k) => decodeJson<StoredRecord>(await a.store.get(k))!));
  const extractors = Object.fromEntries(
    snapshot.files.flatMap((f) =>
      f.record ? [[f.language!, /([0-9a-f]{16})-[0-9a-f]{40}\.json$/.exec(f.record)![1]!]] : [],
    ),
  );
  return { snapshot, records, extractors, bytes: (await a.engine.exportIndex()).bytes };
}

/** A hostile value for a field that held `v`. */
function hostile(rand: Rng, v: unknown): unknown {
  const numbers = [-1, -(2 ** 31), 0, 2 ** 31, 2 ** 53, 999_999_999, 1.5, Number.MAX_SAFE_INTEGER];
  const strings = [
    "",
    "constructor",
    "__proto__",
    "../outside.py",
    "/etc/passwd",
    "x".repeat(200_000),
    "a\nb",
    "\u0000",
    "toString",
    "hasOwnProperty",
    "`",
    "```",
  ];
  if (typeof v === "number") return rand.chance(0.8) ? rand.pick(numbers) : rand.pick(strings);
  if (typeof v === "string") return rand.chance(0.8) ? rand.pick(strings) : rand.pick(numbers);
  if (typeof v === "boolean") return rand.pick([!v, "true", 1, null]);
  return rand.pick([null, {}, [], "x", -1]);
}

/** Replaces one random leaf of `value` (objects and arrays walked by a random path) with a hostile one. */
function mutateLeaf(rand: Rng, value: unknown): unknown {
  const root = structuredClone(value) as Record<string, unknown>;
  let at: Record<string, unknown> | unknown[] = root;
  for (let step = 0; step < 12; step++) {
    const keys = Object.keys(at);
    if (keys.length === 0) break;
    const k = rand.pick(keys);
    const child = (at as Record<string, unknown>)[k];
    if (child !== null && typeof child === "object" && rand.chance(0.85)) {
      at = child as Record<string, unknown>;
      continue;
    }
    (at as Record<string, unknown>)[k] = hostile(rand, child);
    break;
  }
  return root;
}

/** A deep parent chain over a record's definitions (each the child of the one before). */
function deepChain(record: StoredRecord, n: number): StoredRecord {
  const d = record.definitions[0] ?? {
    name: "f",
    qualified: "f",
    kind: "function",
    parent: -1,
    start: 1,
    end: 1,
    nameLine: 1,
    nameCol: 0,
    signature: "f",
    bodyStart: 0,
    exported: false,
  };
  return {
    ...record,
    definitions: Array.from({ length: n }, (_, i) => ({ ...d, name: `f${i}`, qualified: `f${i}`, parent: i - 1 })),
  };
}

/** Checksums made again, so a mutation of the bytes reaches the decoder instead of the CRC. */
async function resealed(bytes: Uint8Array): Promise<Uint8Array> {
  const out = bytes.slice();
  if (out.length < 64) return out;
  new DataView(out.buffer).setUint32(28, crc32(out, 28), true);
  out.set(new Uint8Array(await crypto.subtle.digest("SHA-256", out.subarray(0, out.length - 32))), out.length - 32);
  return out;
}

/** One seed's artifact and a word on what was done to it. */
async function mutant(
  seed: number,
  honest: Awaited<ReturnType<typeof honestParts>>,
): Promise<{ bytes: Uint8Array; what: string }> {
  const rand = rng(seed);
  const { snapshot, records, extractors } = honest;
  switch (rand.int(6)) {
    case 0: {
      const bytes = honest.bytes.slice();
      const n = 1 + rand.int(8);
      for (let i = 0; i < n; i++) bytes[rand.int(bytes.length)] ^= 1 << rand.int(8);
      return { bytes: rand.chance(0.7) ? await resealed(bytes) : bytes, what: `${n} byte flip(s)` };
    }
    case 1:
      return { bytes: honest.bytes.subarray(0, rand.int(honest.bytes.length)), what: "cut" };
    case 2: {
      const i = rand.int(records.length);
      const mutated = records.map((r, j) => (j === i ? (mutateLeaf(rand, r) as StoredRecord) : r));
      return { bytes: await encodeArtifact(snapshot, mutated.map(encodeJson), extractors), what: `record ${i} leaf` };
    }
    case 3: {
      const mutated = mutateLeaf(rand, snapshot) as Snapshot;
      return { bytes: await encodeArtifact(mutated, records.map(encodeJson), extractors), what: "snapshot leaf" };
    }
    case 4: {
      const extra = rand.pick([
        () => ({ ...records[0]!, hash: "f".repeat(40) }), // a record nothing names
        () => records[0]!, // a repeated record
      ])();
      const ext = rand.chance(0.5)
        ? { ...extractors, [rand.pick(["constructor", "__proto__", "cobol"])]: "0123456789abcdef" }
        : extractors;
      return {
        bytes: await encodeArtifact(snapshot, [...records, extra].map(encodeJson), ext),
        what: "stray record / header language",
      };
    }
    default: {
      const i = rand.int(records.length);
      const n = rand.pick([1000, 20_000, 50_000]);
      const mutated = records.map((r, j) => (j === i ? deepChain(r, n) : r));
      return {
        bytes: await encodeArtifact(snapshot, mutated.map(encodeJson), extractors),
        what: `parent chain ${n} deep in record ${i}`,
      };
    }
  }
}

/** Paths outside the project an answer cites: the ones the mutations plant, and any `../` or absolute one. */
function outsidePaths(text: string): string[] {
  return [...text.matchAll(/(?:^|[\s(`'"#])((?:\.\.\/|\/(?:etc|tmp|home|root|usr|var|proc)\/)[^\s:`'")]*)/g)].map(
    (m) => m[1]!,
  );
}

describe("artifact fuzz", () => {
  it(`${seedList(120).length} seeds: refused with an artifact code or answered, never a crash or a path outside the root`, async () => {
    const honest = await honestParts();
    const outcomes = { refused: 0, loaded: 0 };
    let peakRss = 0;
    for (const seed of seedList(120)) {
      const { bytes, what } = await mutant(seed, honest);
      const label = `seed ${seed} (${what})`;
      const b = engineOver();
      await b.engine.index();
      const before = (await b.store.keys("")).sort().join("\n");
      try {
        await b.engine.importIndex(bytes);
      } catch (error) {
        if (!isEngineError(error) || !REFUSALS.includes(error.code))
          throw new Error(`${label}: import threw ${String((error as Error)?.stack ?? error)}`);
        expect((await b.store.keys("")).sort().join("\n"), `${label}: a refusal wrote`).toBe(before);
        outcomes.refused++;
        continue;
      }
      outcomes.loaded++;
      try {
        const summary = await b.engine.index();
        const files = new Set(Object.keys(PROJECT));
        for (const r of await b.engine.records())
          expect(files.has(r.path), `${label}: record for ${r.path}`).toBe(true);
        const texts = [
          (await b.engine.map({ budget: 2000 })).text,
          (await b.engine.context("Checkout.scan", { budget: 3000 })).text,
          (await b.engine.pack("price a line with tax", { budget: 3000 })).text,
          JSON.stringify(await b.engine.search("cart")),
          JSON.stringify(summary.skipped),
        ];
        for (const t of texts) expect(outsidePaths(t), `${label}: cites outside the root`).toEqual([]);
        const scip = await b.engine.scip({ project: "p" });
        expect(scip.bytes, `${label}: SCIP size`).toBeLessThan(50_000_000);
      } catch (error) {
        throw new Error(`${label}: ${String((error as Error)?.stack ?? error)}`);
      } finally {
        b.engine.close();
      }
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
    }
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    console.log(
      `artifact fuzz: ${outcomes.refused} refused, ${outcomes.loaded} loaded, peak RSS ${Math.round(peakRss / 2 ** 20)} MB`,
    );
    expect(peakRss).toBeLessThan(500 * 2 ** 20);
    expect(outcomes.refused).toBeGreaterThan(0);
  }, 120_000);
});
