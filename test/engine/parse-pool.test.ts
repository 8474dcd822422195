/**
 * The parse pool gives the one-thread index, record for record and in the same order, and never
 * loses or holds up a file: a worker that crashes, fails a job, never answers or cannot start
 * hands its files back to the engine's thread.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { runIndex } from "../../src/core/engine/indexer.ts";
import { createParsePool } from "../../src/core/engine/parse-pool.ts";
import { serveParseWorker } from "../../src/core/engine/parse-worker.ts";
import type { ParseWorkers, Platform, WorkerChannel } from "../../src/core/ports.ts";
import { MemoryFileSystem, MemoryStore } from "../../src/platform/memory/index.ts";
import { NodeParseWorkers } from "../../src/platform/node/node-parse-workers.ts";
import { sha256Hex } from "../../src/shared/hash.ts";
import { wasm } from "../support/platform.ts";

const lock = await sha256Hex(await wasm.load("wasm.lock.json"));

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));

/** The fixture corpus: every language's annotated fixtures and this repository's own src/ (~150 files). */
function corpus(): Record<string, Uint8Array> {
  const files: Record<string, Uint8Array> = {};
  for (const dir of ["test/languages/fixtures", "src"]) {
    for (const rel of fs.readdirSync(path.join(repoRoot, dir), { recursive: true }) as string[]) {
      const abs = path.join(repoRoot, dir, rel);
      if (fs.statSync(abs).isFile()) files[`${dir}/${rel.split(path.sep).join("/")}`] = fs.readFileSync(abs);
    }
  }
  // Identical files in one run share one parse: copies exercise that path too.
  files["copies/a/runtime.ts"] = files["src/core/parse/runtime.ts"]!;
  files["copies/b/runtime.ts"] = files["src/core/parse/runtime.ts"]!;
  return files;
}

/** A worker in this thread: the real parse loop behind a channel, with a hook to misbehave. */
function inThreadWorkers(
  misbehave?: (job: { path: string }, channel: { fail(): void; drop(): void }) => boolean,
): ParseWorkers & { spawned: number } {
  const workers = {
    parallelism: 2,
    spawned: 0,
    spawn(): WorkerChannel {
      workers.spawned++;
      let toEngine: (m: unknown) => void = () => {};
      let failed: (e: Error) => void = () => {};
      let toWorker: (m: unknown) => void = () => {};
      let dead = false;
      serveParseWorker(
        { post: (m) => queueMicrotask(() => !dead && toEngine(m)), onMessage: (h) => (toWorker = h) },
        wasm,
      );
      return {
        post(message) {
          let dropped = false;
          const handled = misbehave?.(message as { path: string }, {
            fail: () => {
              dead = true;
              queueMicrotask(() => failed(new Error("worker crashed")));
            },
            drop: () => void (dropped = true),
          });
          if (!handled && !dropped) queueMicrotask(() => toWorker(message));
        },
        listen(onMessage, onFailure) {
          toEngine = onMessage;
          failed = onFailure;
        },
        terminate: () => void (dead = true),
      };
    },
  };
  return workers;
}

async function indexWith(files: Record<string, Uint8Array>, extra: Partial<Platform>, jobs: number) {
  const store = new MemoryStore();
  const platform: Platform = { fs: new MemoryFileSystem(files), store, wasm, ...extra };
  const result = await runIndex(platform, { jobs });
  const stored = new Map<string, Uint8Array>();
  for (const key of await store.keys("")) if (!key.endsWith("snapshot.json")) stored.set(key, (await store.get(key))!);
  return { result, stored };
}

function expectSameIndex(a: Awaited<ReturnType<typeof indexWith>>, b: Awaited<ReturnType<typeof indexWith>>) {
  expect([...b.result.records.entries()]).toEqual([...a.result.records.entries()]);
  expect(b.result.snapshot.files).toEqual(a.result.snapshot.files);
  expect(b.result.snapshot.skipped).toEqual(a.result.snapshot.skipped);
  expect(b.result.parsed).toEqual(a.result.parsed);
  expect(b.result.reused).toBe(a.result.reused);
  expect([...b.stored.keys()].sort()).toEqual([...a.stored.keys()].sort());
  for (const [key, bytes] of a.stored) expect(b.stored.get(key), key).toEqual(bytes);
}

/** A cheap corpus past the pool's threshold, for the failure cases: the fixtures and 120 small files. */
function smallCorpus(): Record<string, Uint8Array> {
  const files: Record<string, Uint8Array> = {};
  const all = corpus();
  for (const [p, bytes] of Object.entries(all)) if (p.startsWith("test/")) files[p] = bytes;
  const enc = new TextEncoder();
  for (let i = 0; i < 60; i++) {
    files[`gen/${i}.py`] = enc.encode(
      `from gen import m${(i + 1) % 60}\n\nclass C${i}:\n    def run(self):\n        return m${(i + 1) % 60}.f(${i})\n`,
    );
    files[`gen/${i}.ts`] = enc.encode(
      `import { g${(i + 1) % 60} } from "./${(i + 1) % 60}";\nexport function g${i}(x: number) {\n  return g${(i + 1) % 60}(x + ${i});\n}\n`,
    );
  }
  return files;
}

describe("parse pool", () => {
  const files = corpus();
  const small = smallCorpus();
  let single: Awaited<ReturnType<typeof indexWith>>;
  let smallSingle: Awaited<ReturnType<typeof indexWith>>;

  it("one thread: the reference run", async () => {
    single = await indexWith(files, {}, 1);
    expect(single.result.parsed.length).toBeGreaterThan(100);
    smallSingle = await indexWith(small, {}, 1);
    expect(smallSingle.result.parsed.length).toBeGreaterThan(100);
  }, 120_000); // the repository indexed in one thread: over 30 s on a busy 2-core machine

  it("Node worker_threads give the same records, in the same order, as one thread", async () => {
    const workers = new NodeParseWorkers();
    let spawned = 0;
    let replies = 0;
    const counting: ParseWorkers = {
      parallelism: 2,
      spawn() {
        spawned++;
        const channel = workers.spawn();
        return {
          ...channel,
          listen: (onMessage, onFailure) => channel.listen((m) => (replies++, onMessage(m)), onFailure),
        };
      },
    };
    const pooled = await indexWith(files, { workers: counting }, 2);
    expect(spawned).toBe(2);
    expect(replies).toBeGreaterThan(100);
    expectSameIndex(single, pooled);
  }, 120_000);

  it("a worker that crashes hands its files back to the engine's thread; crashed workers are replaced within a bound", async () => {
    const crashing = inThreadWorkers((job, w) => {
      if (job.path.endsWith(".py") || job.path.includes("/3")) {
        w.fail();
        return true;
      }
      return false;
    });
    const pooled = await indexWith(small, { workers: crashing }, 2);
    expect(crashing.spawned).toBeGreaterThan(2); // crashed workers were replaced, within a bound
    expect(crashing.spawned).toBeLessThanOrEqual(4);
    expectSameIndex(smallSingle, pooled);
  }, 120_000);

  it("a worker that cannot start, or answers `failed`, leaves the index unchanged", async () => {
    const refusing: ParseWorkers = {
      parallelism: 2,
      spawn: () => {
        throw new Error("no threads here");
      },
    };
    expectSameIndex(smallSingle, await indexWith(small, { workers: refusing }, 2));
    const failing: ParseWorkers = {
      parallelism: 2,
      spawn() {
        let reply: (m: unknown) => void = () => {};
        return {
          post: (m) =>
            queueMicrotask(() => reply({ type: "failed", id: (m as { id: number }).id, message: "no grammar" })),
          listen: (onMessage) => void (reply = onMessage),
          terminate() {},
        };
      },
    };
    expectSameIndex(smallSingle, await indexWith(small, { workers: failing }, 2));
  }, 120_000);

  it("a real worker thread that exits at once fails over without a hang", async () => {
    const exiting: ParseWorkers = {
      parallelism: 2,
      spawn() {
        const worker = new Worker("process.exit(3)", { eval: true });
        return {
          post: (m) => worker.postMessage(m),
          listen(onMessage, onFailure) {
            worker.on("message", onMessage);
            worker.on("error", onFailure);
            worker.on("exit", (code) => onFailure(new Error(`exit ${code}`)));
          },
          terminate: () => void worker.terminate(),
        };
      },
    };
    expectSameIndex(smallSingle, await indexWith(small, { workers: exiting }, 2));
  }, 120_000);

  it("a worker that never answers is given up after stallMs, and its files resolve undefined", async () => {
    const silent = inThreadWorkers((_job, w) => (w.drop(), false));
    const pool = createParsePool(silent, { size: 1, stallMs: 50 });
    const started = Date.now();
    const results = await Promise.all(
      [1, 2, 3].map((i) => pool.extract({ language: "python", lock, path: `${i}.py`, hash: "h", text: "x = 1\n" })),
    );
    pool.close();
    expect(results).toEqual([undefined, undefined, undefined]);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("a pool answers with the stored bytes of the record", async () => {
    const pool = createParsePool(inThreadWorkers(), { size: 2 });
    const bytes = await pool.extract({
      language: "python",
      lock,
      path: "a.py",
      hash: "h",
      text: "def f():\n    pass\n",
    });
    pool.close();
    expect(bytes).toBeInstanceOf(Uint8Array);
    expect(await pool.extract({ language: "python", lock, path: "b.py", hash: "h", text: "" })).toBeUndefined();
  });

  it("a worker with another wasm lock than the engine's refuses its files, which are parsed in-thread", async () => {
    const pool = createParsePool(inThreadWorkers(), { size: 1 });
    expect(
      await pool.extract({
        language: "python",
        lock: "not-this-lock",
        path: "a.py",
        hash: "h",
        text: "def f():\n    pass\n",
      }),
    ).toBeUndefined();
    pool.close();
  });

  it("a grammar the engine's wasm fails is skipped as in a one-thread run, though the workers' copy is sound", async () => {
    const damaged: typeof wasm = {
      async load(file) {
        const bytes = await wasm.load(file);
        if (file !== "tree-sitter-python.wasm") return bytes;
        const copy = bytes.slice();
        copy[copy.length - 1] ^= 0xff;
        return copy;
      },
    };
    const run = async (extra: Partial<Platform>, jobs: number) => {
      const platform: Platform = { fs: new MemoryFileSystem(small), store: new MemoryStore(), wasm: damaged, ...extra };
      return runIndex(platform, { jobs });
    };
    const one = await run({}, 1);
    const pooled = await run({ workers: inThreadWorkers() }, 2);
    expect(one.snapshot.skipped.filter((x) => x.reason === "grammar_unavailable").length).toBeGreaterThan(50);
    expect(pooled.snapshot.skipped).toEqual(one.snapshot.skipped);
    expect([...pooled.records.entries()]).toEqual([...one.records.entries()]);
  }, 120_000);
});
