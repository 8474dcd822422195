/**
 * The parse pool on Deno: module Workers give the records of a one-thread run, in the same order.
 * Runs under `deno test` only (see run.test.ts).
 */
import { describe, expect, it } from "vitest";
import { runIndex } from "../../src/core/engine/indexer.ts";
import type { ParseWorkers, Platform } from "../../src/core/ports.ts";
import { denoParseWorkers, DenoWasmSource } from "../../src/platform/deno/index.ts";
import { MemoryFileSystem, MemoryStore } from "../../src/platform/memory/index.ts";

// deno-lint-ignore no-explicit-any
const Deno = (globalThis as any).Deno;
const root = new URL("../../", import.meta.url);

/** Every language's fixtures and this repository's src/: well past the pool's 100-file threshold. */
async function corpus(): Promise<Record<string, Uint8Array>> {
  const files: Record<string, Uint8Array> = {};
  const walk = async (rel: string) => {
    for await (const e of Deno.readDir(new URL(rel, root))) {
      if (e.isDirectory) await walk(`${rel}/${e.name}`);
      else if (e.isFile) files[`${rel}/${e.name}`] = await Deno.readFile(new URL(`${rel}/${e.name}`, root));
    }
  };
  await walk("test/languages/fixtures");
  await walk("src");
  return files;
}

async function indexWith(files: Record<string, Uint8Array>, workers: ParseWorkers | undefined, jobs: number) {
  const platform: Platform = {
    fs: new MemoryFileSystem(files),
    store: new MemoryStore(),
    wasm: new DenoWasmSource(),
    ...(workers ? { workers } : {}),
  };
  return runIndex(platform, { jobs });
}

describe("parse pool under Deno", () => {
  it("Workers give the same records, in the same order, as one thread", async () => {
    const files = await corpus();
    const single = await indexWith(files, undefined, 1);
    const base = denoParseWorkers();
    let replies = 0;
    const counting: ParseWorkers = {
      parallelism: 2,
      spawn() {
        const channel = base.spawn();
        return {
          ...channel,
          listen: (onMessage, onFailure) => channel.listen((m) => (replies++, onMessage(m)), onFailure),
        };
      },
    };
    const pooled = await indexWith(files, counting, 2);
    expect(replies).toBeGreaterThan(100);
    expect(single.parsed.length).toBeGreaterThan(100);
    expect([...pooled.records.entries()]).toEqual([...single.records.entries()]);
    expect(pooled.snapshot.files).toEqual(single.snapshot.files);
    expect(pooled.parsed).toEqual(single.parsed);
  }, 300_000);
});
