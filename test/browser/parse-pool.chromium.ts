/**
 * The parse pool in Chromium: Web Workers a host supplies (WebParseWorkers) give the records of a
 * one-thread run, in the same order; a worker whose entry fails to load hands its files back.
 */
import { describe, expect, it } from "vitest";
import { runIndex } from "../../src/core/engine/indexer.ts";
import type { ParseWorkers, Platform } from "../../src/core/ports.ts";
import { MemoryFileSystem, MemoryStore, WebParseWorkers } from "../../src/platform/browser/index.ts";
import { wasm } from "../support/platform.ts";

/** 150 small files in two languages: past the pool's 100-file threshold. */
function corpus(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < 75; i++) {
    files[`pkg/mod${i}.py`] =
      `from pkg.mod${(i + 1) % 75} import f${(i + 1) % 75}\n\ndef f${i}(x):\n    """Step ${i}."""\n    return f${(i + 1) % 75}(x) + ${i}\n\nclass C${i}:\n    def run(self):\n        return f${i}(1)\n`;
    files[`web/m${i}.ts`] =
      `import { g${(i + 1) % 75} } from "./m${(i + 1) % 75}";\n/** Step ${i}. */\nexport function g${i}(x: number): number {\n  return g${(i + 1) % 75}(x + ${i});\n}\n`;
  }
  files["copy/mod0.py"] = files["pkg/mod0.py"]!;
  return files;
}

async function indexWith(workers: ParseWorkers | undefined, jobs: number) {
  const platform: Platform = {
    fs: new MemoryFileSystem(corpus()),
    store: new MemoryStore(),
    wasm,
    ...(workers ? { workers } : {}),
  };
  return runIndex(platform, { jobs });
}

describe("parse pool in Chromium", () => {
  it("Web Workers give the same records, in the same order, as one thread", async () => {
    const single = await indexWith(undefined, 1);
    let replies = 0;
    const base = new WebParseWorkers(
      () => new Worker(new URL("./support/parse.worker.ts", import.meta.url), { type: "module" }),
      2,
    );
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
    const pooled = await indexWith(counting, 2);
    expect(single.parsed.length).toBeGreaterThan(100);
    expect(replies).toBeGreaterThan(100);
    expect([...pooled.records.entries()]).toEqual([...single.records.entries()]);
    expect(pooled.snapshot.files).toEqual(single.snapshot.files);
    expect(pooled.parsed).toEqual(single.parsed);
  });

  it("a worker whose entry does not load fails over to the page's thread", async () => {
    const single = await indexWith(undefined, 1);
    const broken = new WebParseWorkers(
      () => new Worker(new URL("./support/no-such.worker.js", import.meta.url), { type: "module" }),
      2,
    );
    const pooled = await indexWith(broken, 2);
    expect([...pooled.records.entries()]).toEqual([...single.records.entries()]);
  });
});
