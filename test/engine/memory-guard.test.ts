/**
 * Heap guards: with a host that reports its heap, work that would not fit is refused with
 * memory_limit naming the sizes, and the engine stays usable; without the report nothing changes.
 */
import { describe, expect, it } from "vitest";
import { createEngine } from "../../src/core/engine/engine.ts";
import { runIndex } from "../../src/core/engine/indexer.ts";
import { call, connect, FIXTURE } from "../mcp/support.ts";
import { memoryPlatform } from "../support/platform.ts";

const MiB = 1024 * 1024;

describe("memory guard", () => {
  it("refuses the graph when the heap cannot hold it, and answers once it can", async () => {
    let limit = 1 * MiB;
    const platform = { ...memoryPlatform(FIXTURE), memory: () => ({ used: 0.95 * MiB, limit }) };
    const engine = createEngine(platform);
    await expect(engine.context("User.greet")).rejects.toMatchObject({ code: "memory_limit", data: { limitMiB: 1 } });
    expect((await engine.index()).sourceFiles).toBeGreaterThan(0); // the index itself still runs
    limit = 4096 * MiB;
    expect((await engine.context("User.greet", { budget: 2000 })).seeds[0]!.qualified).toBe("shop.models.User.greet");
  });

  it("over MCP the refusal is a tool error that says how to give the server more heap", async () => {
    const platform = { ...memoryPlatform(FIXTURE), memory: () => ({ used: 30 * MiB, limit: 32 * MiB }) };
    const c = await connect(createEngine(platform), { fs: platform.fs });
    try {
      const r = await call(c.client, "context", { target: "User.greet" });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/Not enough memory .* 32 MiB heap/);
      expect(r.text).toMatch(/NODE_OPTIONS=--max-old-space-size=\d+/);
    } finally {
      await c.close();
    }
  });

  it("an index that keeps no records holds none of those it parsed, and later answers read them back", async () => {
    const kept = await runIndex(memoryPlatform(FIXTURE), {});
    const streamed = await runIndex(memoryPlatform(FIXTURE), { keepRecords: false });
    expect(kept.records.size).toBeGreaterThan(3);
    expect(streamed.records.size).toBe(0);
    const entries = (r: typeof kept) => r.snapshot.files.map((f) => `${f.path} ${f.record}`);
    expect(entries(streamed)).toEqual(entries(kept));
    // the same engine answers afterwards as one that kept them
    const lean = createEngine(memoryPlatform(FIXTURE));
    expect((await lean.index({ keepRecords: false })).sourceFiles).toBe(
      kept.snapshot.files.filter((f) => f.language).length,
    );
    expect(await lean.graph()).toEqual(await createEngine(memoryPlatform(FIXTURE)).graph());
  });
});
