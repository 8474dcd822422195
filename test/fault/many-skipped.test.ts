/**
 * A project with more skipped files than a call can take arguments (150,000 binaries beside one
 * source file) indexes and answers: the skipped list was spread into push(), which overflowed the
 * stack ("internal error: Maximum call stack size exceeded" on a search run from /tmp).
 */
import { describe, expect, it } from "vitest";
import { createEngine } from "../../src/core/engine/engine.ts";
import { MemoryFileSystem, MemoryStore } from "../../src/platform/memory/index.ts";
import { wasm } from "../support/platform.ts";

describe("a project of many skipped files", () => {
  it("indexes 150,000 skipped files beside a source file and answers", async () => {
    const files: Record<string, string> = { "a.py": "def hello():\n    return 1\n" };
    for (let i = 0; i < 150_000; i++) files[`d${Math.floor(i / 1000)}/f${i}.png`] = "x";
    const engine = createEngine({ fs: new MemoryFileSystem(files, "/repo"), store: new MemoryStore(), wasm });
    const summary = await engine.index();
    expect(summary.skipped.length).toBeGreaterThanOrEqual(150_000);
    expect((await engine.search("hello")).map((h) => h.qualified)).toEqual(["a.hello"]);
  }, 120_000);
});
