/** A grammar that fails to load skips its language's files, with the reason, and the rest indexes. */
import { describe, expect, it } from "vitest";
import { createEngine } from "../../src/core/engine/engine.ts";
import { MemoryFileSystem, MemoryStore } from "../../src/platform/memory/index.ts";
import type { WasmSource } from "../../src/core/ports.ts";
import { wasm } from "../support/platform.ts";

describe("grammar failure", () => {
  it("skips the files of a language whose grammar does not match its lock, and indexes the others", async () => {
    const damaged: WasmSource = {
      async load(file) {
        const bytes = await wasm.load(file);
        if (file !== "tree-sitter-python.wasm") return bytes;
        const copy = bytes.slice();
        copy[copy.length - 1] ^= 0xff;
        return copy;
      },
    };
    const fs = new MemoryFileSystem({
      "a.py": "def f():\n    pass\n",
      "b.py": "def g():\n    pass\n",
      "c.ts": "export function h() {}\n",
    });
    const engine = createEngine({ fs, store: new MemoryStore(), wasm: damaged });
    const summary = await engine.index();
    expect(
      summary.skipped
        .filter((s) => s.reason === "grammar_unavailable")
        .map((s) => s.path)
        .sort(),
    ).toEqual(["a.py", "b.py"]);
    expect(summary.skipped.find((s) => s.path === "a.py")!.detail).toContain("tree-sitter-python.wasm");
    expect(summary.byLanguage.TypeScript).toEqual({ files: 1, symbols: 1 });
  });
});
