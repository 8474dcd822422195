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
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { createEngine, type Engine } from "../../src/core/engine/engine.ts";
import { decodeRecord } from "../../src/core/engine/snapshot.ts";
import { EngineError } from "../../src/core/shared/errors.ts";
import { MemoryFileSystem, MemoryStore } from "../../src/platform/memory/index.ts";
import { wasm } from "../support/platform.ts";
import { plain, rng, type Rng } from "./fixture.ts";
import { repoRoot } from "./run.ts";

const SEEDS = 208;
const seeds = process.env.FAULT_SEED ? [Number(process.env.FAULT_SEED)] : Array.from({ length: SEEDS }, (_, i) => i);

/** The corpus: path in the test project → original bytes. */
function corpus(): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  const add = (dir: string, prefix: string, ext: RegExp, maxBytes: number) => {
    if (!fs.existsSync(dir)) return;
    for (const e of fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[]) {
      if (!e.isFile() || !ext.test(e.name)) continue;
      const full = path.join(e.parentPath, e.name);
      const bytes = fs.readFileSync(full);
      if (bytes.length <= maxBytes) out.set(`${prefix}/${path.relative(dir, full).split(path.sep).join("/")}`, new Uint8Array(bytes));
    }
  };
  const debian = "/usr/lib/python3/dist-packages";
  add(path.join(debian, "requests"), "requests", /\.py$/, 40_000);
  add(path.join(debian, "click"), "click", /\.py$/, 40_000);
  if (out.size === 0) add(path.join(repoRoot, "playground", "sample"), "sample", /\.py$/, 40_000);
  add(path.join(repoRoot, "src"), "ts", /\.ts$/, 40_000);
  return out;
}

const enc = new TextEncoder();

/** Byte strings worth inserting. */
function insertion(rand: Rng, original: Uint8Array): { what: string; bytes: Uint8Array } {
  switch (rand.int(10)) {
    case 0:
      return { what: "random bytes", bytes: rand.bytes(1 + rand.int(64)) };
    case 1:
      return { what: "invalid UTF-8", bytes: Uint8Array.from(rand.pick([[0xc3, 0x28], [0xff, 0xfe], [0xe2, 0x82], [0xf0, 0x9f, 0x98], [0xed, 0xa0, 0x80], [0x80]])) };
    case 2:
      return { what: "NUL bytes", bytes: new Uint8Array(1 + rand.int(8)) };
    case 3: {
      const n = 20_000 + rand.int(100_000);
      return { what: `a ${n}-character line`, bytes: enc.encode(rand.chance(0.5) ? "x".repeat(n) : "a = f(b) + g(c); ".repeat(n / 17)) };
    }
    case 4: {
      const depth = 500 + rand.int(4000);
      const open = rand.pick(["(", "[", "{", "([{", "f(", "[[", "{a:"]);
      return { what: `${depth} open brackets`, bytes: enc.encode(open.repeat(depth) + (rand.chance(0.5) ? ")]}".repeat(depth) : "")) };
    }
    case 5:
      return { what: "an unterminated string or comment", bytes: enc.encode(rand.pick(['"""never closed', "'", "/* open", "`${", "r'''", '"\\', "#"])) };
    case 6: {
      const start = rand.int(original.length);
      return { what: "a spliced copy of its own text", bytes: original.slice(start, start + rand.int(2000)) };
    }
    case 7:
      return { what: "keywords", bytes: enc.encode(rand.pick(["\ndef ", "\nclass ", "function ", "export default ", "import ", "from . import (", "async def (", "@", "lambda", "=>", "interface X<", "\n\tdef f():\n  return\n"])) };
    case 8:
      return { what: "CR and odd whitespace", bytes: enc.encode(rand.pick(["\r", "\r\n\r", "\t\v\f", "\u2028", "\ufeff", "\u00a0"])) };
    default:
      return { what: "deep indentation", bytes: enc.encode(`\n${" ".repeat(1000 + rand.int(5000))}x = 1\n`) };
  }
}

/** `original` with 1–4 random mutations; returns the bytes and what was done. */
function mutate(original: Uint8Array, rand: Rng): { bytes: Uint8Array; ops: string[] } {
  let bytes = original.slice();
  const ops: string[] = [];
  const count = 1 + rand.int(4);
  for (let i = 0; i < count; i++) {
    const at = rand.int(bytes.length + 1);
    switch (rand.int(5)) {
      case 0: {
        const n = 1 + rand.int(16);
        for (let k = 0; k < n && bytes.length; k++) bytes[rand.int(bytes.length)] ^= 1 << rand.int(8);
        ops.push(`flip ${n} bits`);
        break;
      }
      case 1:
        bytes = bytes.slice(0, at);
        ops.push(`truncate to ${at}`);
        break;
      case 2: {
        const len = rand.int(500);
        bytes = Uint8Array.from([...bytes.subarray(0, at), ...bytes.subarray(at + len)]);
        ops.push(`delete ${len} bytes at ${at}`);
        break;
      }
      default: {
        const ins = insertion(rand, original);
        const out = new Uint8Array(bytes.length + ins.bytes.length);
        out.set(bytes.subarray(0, at));
        out.set(ins.bytes, at);
        out.set(bytes.subarray(at), at + ins.bytes.length);
        bytes = out;
        ops.push(`insert ${ins.what} at ${at}`);
      }
    }
  }
  return { bytes, ops };
}

/** Names defined in the original text: targets for queries (they may be gone after mutation). */
function namesIn(text: string): string[] {
  return [...text.matchAll(/(?:def|class|function|interface)\s+([A-Za-z_]\w*)/g)].map((m) => m[1]!);
}

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
    const runSeed = async (seed: number) => {
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
        for (const p of chosen) {
          const inRecords = recorded.has(p);
          const reason = skips.get(p);
          if (inRecords === (reason !== undefined) || (reason !== undefined && !reason)) failures.push(`${what}: ${p} is ${inRecords ? "indexed and skipped" : "neither indexed nor skipped with a reason"}`);
          if (inRecords) indexed++;
          else skipped++;
        }
        partial += summary.syntaxErrors.length;
        // Every record the engine stored passes its own shape check: otherwise each later run would
        // find it "damaged" and parse it again, forever.
        for (const key of await store.keys("v")) {
          if (!key.includes("/records/")) continue;
          if (!decodeRecord(await store.get(key), "x")) failures.push(`${what}: the stored record ${key} fails the engine's own check`);
        }
        // A second engine over the same store reads the same records back.
        const again = createEngine({ fs: fsys, store, wasm });
        const reread = plain(await again.records());
        if (JSON.stringify(reread) !== JSON.stringify(plain(records))) failures.push(`${what}: records read back from the store differ from the ones made`);
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
    };
    for (let i = 0; i < seeds.length; i += 4) await Promise.all(seeds.slice(i, i + 4).map(runSeed));
    expect(failures, failures.slice(0, 10).join("\n\n")).toEqual([]);
    // The mutations reached the parser: most files were indexed (many with syntax errors), some skipped.
    if (seeds.length > 1) {
      expect(indexed).toBeGreaterThan(skipped);
      expect(partial).toBeGreaterThan(seeds.length / 4);
    }
  }, 300_000);
});
