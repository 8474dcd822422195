/**
 * Brackets nested past any real code skip the file before tree-sitter sees it: such a file
 * overflowed the parser's unguarded wasm stack and corrupted the runtime, so every later parse of
 * the run (and of the process) failed. Real grammar, real wasm, the memory platform.
 */
import { describe, expect, it } from "vitest";
import { createEngine } from "../../src/core/engine/engine.ts";
import { MemoryFileSystem, MemoryStore } from "../../src/platform/memory/index.ts";
import { classifyContent, MAX_NESTING } from "../../src/shared/skip-rules.ts";
import { wasm } from "../support/platform.ts";

const enc = new TextEncoder();
/** A function whose body opens `n` object literals after a call: 3,000 and more crash tree-sitter-typescript's parse. */
const deep = (n: number) => `export function f(written: string) {\n  const path = g(written)${"{a:".repeat(n)}\n  return path;\n}\n`;

describe("deeply nested brackets", () => {
  it("classifyContent skips a file nested past MAX_NESTING and keeps one at it", () => {
    const at = classifyContent(enc.encode(`x = ${"(".repeat(MAX_NESTING)}1${")".repeat(MAX_NESTING)}\n`));
    expect("text" in at).toBe(true);
    const over = classifyContent(enc.encode(`x = ${"[".repeat(MAX_NESTING + 1)}\n`));
    expect(over).toEqual({ reason: "too_deeply_nested", detail: `brackets nest ${MAX_NESTING + 1} deep (the limit is ${MAX_NESTING})` });
    // Stray closers do not bank depth for later openers.
    const closers = classifyContent(enc.encode(`${"}".repeat(5000)}${"{".repeat(MAX_NESTING)}\n`));
    expect("text" in closers).toBe(true);
  });

  it("the index skips the nested file with its reason and parses the files after it", async () => {
    const fs = new MemoryFileSystem({
      "a_deep.ts": enc.encode(deep(MAX_NESTING + 1000)),
      "b_ok.ts": enc.encode("export function after(x: number): number {\n  return x + 1;\n}\n"),
      "c_ok.py": enc.encode("def later():\n    return after(1)\n"),
    });
    const engine = createEngine({ fs, store: new MemoryStore(), wasm });
    const summary = await engine.index();
    expect(summary.skipped.find((s) => s.path === "a_deep.ts")?.reason).toBe("too_deeply_nested");
    const records = await engine.records();
    expect(records.map((r) => r.path).sort()).toEqual(["b_ok.ts", "c_ok.py"]);
    expect(records.find((r) => r.path === "b_ok.ts")!.definitions.map((d) => d.name)).toEqual(["after"]);
    expect(records.find((r) => r.path === "c_ok.py")!.definitions.map((d) => d.name)).toEqual(["later"]);
  }, 60_000);
});
