/** The WasmSource contract (STYLE habit 3): the lock file and every file it lists load, byte-exact. */
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../src/shared/hash.ts";
import type { WasmSource } from "../../src/core/ports.ts";

interface LockFile {
  lockfileVersion: number;
  runtime: string;
  files: { file: string; source: string; sha256: string; abi?: number }[];
}

/**
 * Registers the WasmSource contract. `make()` gives a source over the complete wasm/ folder;
 * `makeWithout(file)` one over a copy lacking `file`.
 */
export function wasmSourceContract(
  name: string,
  make: () => Promise<WasmSource>,
  makeWithout: (file: string) => Promise<WasmSource>,
): void {
  describe(`WasmSource contract: ${name}`, () => {
    it("loads wasm.lock.json, which lists the runtime and grammars", async () => {
      const source = await make();
      const lock = JSON.parse(new TextDecoder().decode(await source.load("wasm.lock.json"))) as LockFile;
      expect(lock.lockfileVersion).toBe(1);
      const files = lock.files.map((f) => f.file);
      expect(files).toContain("web-tree-sitter.wasm");
      expect(files.filter((f) => /^tree-sitter-.+\.wasm$/.test(f)).length).toBeGreaterThan(0);
    });

    it("loads every file the lock lists, with the locked sha256 and the wasm magic number", async () => {
      const source = await make();
      const lock = JSON.parse(new TextDecoder().decode(await source.load("wasm.lock.json"))) as LockFile;
      for (const entry of lock.files) {
        const bytes = await source.load(entry.file);
        expect([...bytes.subarray(0, 4)], entry.file).toEqual([0x00, 0x61, 0x73, 0x6d]);
        expect(await sha256Hex(bytes), entry.file).toBe(entry.sha256);
      }
    });

    it("a missing file is wasm_missing, naming the file", async () => {
      const source = await makeWithout("tree-sitter-python.wasm");
      await expect(source.load("tree-sitter-python.wasm")).rejects.toMatchObject({
        code: "wasm_missing",
        data: { file: "tree-sitter-python.wasm" },
      });
      await expect(source.load("no-such-grammar.wasm")).rejects.toMatchObject({
        code: "wasm_missing",
        data: { file: "no-such-grammar.wasm" },
      });
    });
  });
}
