/**
 * Brackets nested past any real code are blanked before tree-sitter sees them: such a file
 * overflowed the parser's unguarded wasm stack and corrupted the runtime, so every later parse of
 * the run (and of the process) failed. The rest of the file is kept. Real grammar, real wasm, the
 * memory platform.
 */
import { describe, expect, it } from "vitest";
import { createEngine } from "../../src/core/engine/engine.ts";
import { MemoryFileSystem, MemoryStore } from "../../src/platform/memory/index.ts";
import { blankDeeperThan, classifyContent, MAX_NESTING } from "../../src/shared/skip-rules.ts";
import { wasm } from "../support/platform.ts";

const enc = new TextEncoder();
/** A function whose body opens `n` object literals after a call: 3,000 and more crash tree-sitter-typescript's parse. */
const deep = (n: number) =>
  `export function f(written: string) {\n  const path = g(written)${"{a:".repeat(n)}\n  return path;\n}\n`;

describe("deeply nested brackets", () => {
  it("classifyContent keeps a file nested past MAX_NESTING; the parse blanks only what lies deeper", () => {
    const over = `x = ${"[".repeat(MAX_NESTING + 1)}\n`;
    expect(classifyContent(enc.encode(over))).toEqual({ text: over });
    const at = `x = ${"(".repeat(MAX_NESTING)}1${")".repeat(MAX_NESTING)}\n`;
    expect(blankDeeperThan(at, MAX_NESTING)).toBe(at);
    expect(blankDeeperThan(over, MAX_NESTING)).toBe(`x = ${"[".repeat(MAX_NESTING)}0\n`);
    // Stray closers do not bank depth for later openers.
    const closers = `${"}".repeat(5000)}${"{".repeat(MAX_NESTING)}\n`;
    expect(blankDeeperThan(closers, MAX_NESTING)).toBe(closers);
  });

  it("the index keeps the nested file's definitions before the deep expression and parses the files after it", async () => {
    const fs = new MemoryFileSystem({
      "a_deep.ts": enc.encode(`export function first(): void {}\n${deep(MAX_NESTING + 1000)}`),
      "b_ok.ts": enc.encode("export function after(x: number): number {\n  return x + 1;\n}\n"),
      "c_ok.py": enc.encode("def later():\n    return after(1)\n"),
    });
    const engine = createEngine({ fs, store: new MemoryStore(), wasm });
    const summary = await engine.index();
    expect(summary.skipped).toEqual([]);
    const records = await engine.records();
    expect(records.map((r) => r.path).sort()).toEqual(["a_deep.ts", "b_ok.ts", "c_ok.py"]);
    expect(records.find((r) => r.path === "a_deep.ts")!.definitions.map((d) => d.name)).toEqual(["first"]);
    expect(records.find((r) => r.path === "b_ok.ts")!.definitions.map((d) => d.name)).toEqual(["after"]);
    expect(records.find((r) => r.path === "c_ok.py")!.definitions.map((d) => d.name)).toEqual(["later"]);
  }, 60_000);
});
