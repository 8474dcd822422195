/**
 * The match reader (src/core/parse/match-reader.ts) reads a query's matches from web-tree-sitter's
 * transfer buffer instead of `Query.matches`: on every language's fixtures, with the real grammars
 * and queries, it must hand extraction the same matches (pattern, capture names, the same nodes,
 * text predicates applied alike) and extraction must make the same record either way. A runtime
 * it was not written for is refused, so matches fall back to the public API.
 */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { extractFile } from "../../src/core/extract/extract.ts";
import {
  captureIndexes,
  captureNodes,
  fastWordAccess,
  forEachMatch,
  READER_WASM_SHA256,
  readsDirectly,
  registerMatchReader,
} from "../../src/core/parse/match-reader.ts";
import { createParserRuntime } from "../../src/core/parse/runtime.ts";
import { languageById } from "../../src/languages/index.ts";
import { NodeWasmSource } from "../../src/platform/node/index.ts";

/** web-tree-sitter's Emscripten module, as `Parser.init` leaves it in the options object. */
interface Binding {
  HEAP32: Int32Array;
  HEAPU8: Uint8Array;
  _malloc(size: number): number;
  _free(address: number): void;
  setValue(address: number, value: number, type?: string): void;
  getValue(address: number, type?: string): number;
}

const FIXTURES = path.join(import.meta.dirname, "../languages/fixtures");

/** Every fixture file with its language. */
function fixtures(): { id: string; file: string; text: string }[] {
  const out: { id: string; file: string; text: string }[] = [];
  for (const id of fs.readdirSync(FIXTURES).sort())
    for (const file of fs.readdirSync(path.join(FIXTURES, id)).sort())
      out.push({ id, file: `${id}/${file}`, text: fs.readFileSync(path.join(FIXTURES, id, file), "utf8") });
  return out;
}

/** Each match as plain data: pattern, then per capture its name and what its node says. */
function listed(query: import("web-tree-sitter").Query, root: import("web-tree-sitter").Node, publicApi: boolean) {
  const out: unknown[] = [];
  forEachMatch(query, root, { publicApi }, (pattern, count) => {
    const captures = [];
    for (let i = 0; i < count; i++) {
      const n = captureNodes[i]!;
      captures.push([query.captureNames[captureIndexes[i]!], n.id, n.startIndex, n.endIndex, n.startPosition, n.type]);
    }
    out.push([pattern, captures]);
  });
  return out;
}

describe("match reader", () => {
  it("hands extraction the same matches as Query.matches, on every language's fixtures", async () => {
    const runtime = await createParserRuntime(new NodeWasmSource());
    let matches = 0;
    for (const { id, file, text } of fixtures()) {
      const loaded = await runtime.load(languageById(id)!);
      expect(readsDirectly(loaded.query), file).toBe(true);
      runtime.parser.setLanguage(loaded.language);
      const tree = runtime.parser.parse(text)!;
      try {
        const direct = listed(loaded.query, tree.rootNode, false);
        expect(direct, file).toEqual(listed(loaded.query, tree.rootNode, true));
        matches += direct.length;
      } finally {
        tree.delete();
      }
    }
    expect(matches).toBeGreaterThan(500);
  });

  it("drops the matches a text predicate rejects, as Query.matches does", async () => {
    // Rust's query reads a call inside a macro's tokens only before a parenthesised token tree
    // (`#match? @args "^\\("`): `g[2]` is no call, `f(1)` is.
    const runtime = await createParserRuntime(new NodeWasmSource());
    const loaded = await runtime.load(languageById("rust")!);
    const tests = (loaded.query as unknown as { textPredicates: unknown[][] }).textPredicates;
    runtime.parser.setLanguage(loaded.language);
    const tree = runtime.parser.parse("fn main() { m!(f(1), g[2], a.b(3), c.d[4]); }\n")!;
    try {
      const direct = listed(loaded.query, tree.rootNode, false);
      expect(direct).toEqual(listed(loaded.query, tree.rootNode, true));
      const tested = direct.filter((m) => tests[(m as [number])[0]]!.length > 0) as [number, unknown[][]][];
      const names = tested.flatMap(([, captures]) =>
        captures.filter((c) => c[0] === "name").map((c) => tree.rootNode.text.slice(c[2] as number, c[3] as number)),
      );
      expect([...new Set(names)].sort()).toEqual(["b", "f"]);
    } finally {
      tree.delete();
    }
  });

  it("makes the same record as extraction through Query.matches", async () => {
    const runtime = await createParserRuntime(new NodeWasmSource());
    for (const { id, file, text } of fixtures()) {
      const spec = languageById(id)!;
      const loaded = await runtime.load(spec);
      runtime.parser.setLanguage(loaded.language);
      const tree = runtime.parser.parse(text)!;
      try {
        const direct = extractFile(tree, loaded.query, spec, file, "h");
        const viaApi = extractFile(tree, loaded.query, spec, file, "h", { publicMatches: true });
        expect(JSON.stringify(direct), file).toBe(JSON.stringify(viaApi));
        expect(direct.definitions.length + direct.calls.length, file).toBeGreaterThan(0);
      } finally {
        tree.delete();
      }
    }
  });

  it("refuses a runtime it was not written for, and a module without what it reads", () => {
    const module = { Query: class {}, Node: class {} };
    const binding = { HEAP32: new Int32Array(4), _ts_init: () => 0, _free: () => {}, _ts_query_matches_wasm: () => {} };
    expect(registerMatchReader(module, binding, "0".repeat(64))).toBe(false);
    expect(registerMatchReader(module, { ...binding, HEAP32: undefined }, READER_WASM_SHA256)).toBe(false);
    expect(readsDirectly(new module.Query() as never)).toBe(false);
    expect(registerMatchReader(module, binding, READER_WASM_SHA256)).toBe(true);
    expect(readsDirectly(new module.Query() as never)).toBe(true);
  });

  it("reads and writes the transfer buffer's words as web-tree-sitter's own accessors do", async () => {
    // A copy of the runtime the engine loads, with a binding of its own whose originals can be
    // compared (a module initialises once: the engine's copy keeps the binding it was given).
    const url = `${pathToFileURL(path.join(import.meta.dirname, "../../node_modules/web-tree-sitter/web-tree-sitter.js")).href}?words`;
    const { Parser } = (await import(/* @vite-ignore */ url)) as typeof import("web-tree-sitter");
    const bytes = await new NodeWasmSource().load("web-tree-sitter.wasm");
    const binding = { wasmBinary: bytes } as unknown as Binding;
    await Parser.init(binding);
    const original = { setValue: binding.setValue, getValue: binding.getValue };
    fastWordAccess(binding);
    expect(binding.setValue).not.toBe(original.setValue);
    const at = binding._malloc(64);
    try {
      const bytesAt = (from: number) => [...binding.HEAPU8.slice(from, from + 24)];
      const values = [0, 1, -1, 0x7fffffff, -0x80000000, 123456789, -98765];
      // Aligned and not (the originals round an i32's address down to a multiple of 4), and the
      // types extraction never writes as words, which must reach the originals unchanged.
      for (const type of ["i32", "i16", "i8"])
        for (const offset of [0, 4, 8, 1, 2, 3, 6])
          for (const value of values) {
            binding.HEAPU8.fill(0xa5, at, at + 64);
            original.setValue(at + offset, value, type);
            const expected = bytesAt(at);
            const read = original.getValue(at + offset, type);
            binding.HEAPU8.fill(0xa5, at, at + 64);
            binding.setValue(at + offset, value, type);
            expect(bytesAt(at), `${type} ${offset} ${value}`).toEqual(expected);
            expect(binding.getValue(at + offset, type), `${type} ${offset} ${value}`).toBe(read);
          }
    } finally {
      binding._free(at);
    }
  });
});
