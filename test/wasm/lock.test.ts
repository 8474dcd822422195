/**
 * wasm/ and its lock file agree (STYLE habit 4): the same set of files, the locked sha256, and each
 * grammar's ABI as the runtime reports it. Hashes are recomputed with node:crypto, independently of
 * the engine's own hashing; the load-time check is exercised through a tampering WasmSource.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Language, Parser } from "web-tree-sitter";
import { beforeAll, describe, expect, it } from "vitest";
import { createParserRuntime } from "../../src/core/parse/runtime.ts";
import { languageById, LANGUAGES } from "../../src/languages/index.ts";
import { NodeWasmSource } from "../../src/platform/node/index.ts";
import type { WasmSource } from "../../src/core/ports.ts";

interface LockEntry {
  file: string;
  source: string;
  sha256: string;
  abi?: number;
}
interface Lock {
  lockfileVersion: number;
  runtime: string;
  files: LockEntry[];
}

const wasmDir = fileURLToPath(new URL("../../wasm/", import.meta.url));
const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const lock = JSON.parse(readFileSync(`${wasmDir}wasm.lock.json`, "utf8")) as Lock;
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const grammars = lock.files.filter((f) => f.file !== "web-tree-sitter.wasm");

/** A WasmSource that flips one byte in the middle of `file` (and passes everything else through). */
function tampering(inner: WasmSource, file: string): WasmSource {
  return {
    async load(name) {
      const bytes = await inner.load(name);
      if (name !== file) return bytes;
      const copy = bytes.slice();
      const i = copy.length >> 1;
      copy[i] = copy[i]! ^ 0xff;
      return copy;
    },
  };
}

/** A WasmSource whose lock file leaves `file` out. */
function unlisting(inner: WasmSource, file: string): WasmSource {
  return {
    async load(name) {
      if (name !== "wasm.lock.json") return inner.load(name);
      const l = JSON.parse(new TextDecoder().decode(await inner.load(name))) as Lock;
      return new TextEncoder().encode(JSON.stringify({ ...l, files: l.files.filter((f) => f.file !== file) }));
    },
  };
}

describe("the load-time check (runs first: the runtime is verified once per process)", () => {
  it("a tampered web-tree-sitter.wasm is refused with wasm_mismatch", async () => {
    await expect(createParserRuntime(tampering(new NodeWasmSource(), "web-tree-sitter.wasm"))).rejects.toMatchObject({
      code: "wasm_mismatch",
      data: { file: "web-tree-sitter.wasm" },
    });
  });

  it("a tampered grammar is refused with wasm_mismatch, naming the file and both hashes", async () => {
    const spec = languageById("python")!;
    const runtime = await createParserRuntime(tampering(new NodeWasmSource(), spec.grammar));
    const expected = lock.files.find((f) => f.file === spec.grammar)!.sha256;
    const error = await runtime.load(spec).then(
      () => undefined,
      (e: { code: string; data: Record<string, unknown> }) => e,
    );
    expect(error?.code).toBe("wasm_mismatch");
    expect(error?.data.file).toBe(spec.grammar);
    expect(error?.data.expected).toBe(expected);
    expect(error?.data.actual).not.toBe(expected);
  });

  it("a grammar the lock does not list is refused with wasm_missing", async () => {
    const spec = languageById("python")!;
    const runtime = await createParserRuntime(unlisting(new NodeWasmSource(), spec.grammar));
    await expect(runtime.load(spec)).rejects.toMatchObject({ code: "wasm_missing", data: { file: spec.grammar } });
  });

  it("one runtime per wasm source: the parser and each compiled grammar are reused, not rebuilt per index run", async () => {
    const wasm = new NodeWasmSource();
    const spec = languageById("python")!;
    const first = await createParserRuntime(wasm);
    const again = await createParserRuntime(wasm);
    expect(again).toBe(first);
    expect(await again.load(spec)).toBe(await first.load(spec));
    expect(await createParserRuntime(new NodeWasmSource())).not.toBe(first);
  });

  it("untampered, every language of the engine loads", async () => {
    const runtime = await createParserRuntime(new NodeWasmSource());
    for (const spec of LANGUAGES) {
      const loaded = await runtime.load(spec);
      expect(loaded.grammarHash, spec.id).toBe(lock.files.find((f) => f.file === spec.grammar)?.sha256);
    }
  });
});

describe("wasm/ matches wasm/wasm.lock.json", () => {
  it("the lock lists exactly the .wasm files in the folder, once each", () => {
    const onDisk = readdirSync(wasmDir)
      .filter((f) => f !== "wasm.lock.json")
      .sort();
    const listed = lock.files.map((f) => f.file);
    expect(new Set(listed).size).toBe(listed.length);
    expect([...listed].sort()).toEqual(onDisk);
  });

  it("records the runtime and a pinned source package@version for every file", () => {
    expect(lock.lockfileVersion).toBe(1);
    const runtime = lock.files.find((f) => f.file === "web-tree-sitter.wasm");
    expect(runtime?.source).toBe(lock.runtime);
    const installed = (
      JSON.parse(readFileSync(`${repoRoot}node_modules/web-tree-sitter/package.json`, "utf8")) as { version: string }
    ).version;
    expect(lock.runtime).toBe(`web-tree-sitter@${installed}`);
    for (const f of lock.files) expect(f.source, f.file).toMatch(/^(@[a-z0-9-]+\/)?[a-z0-9.-]+@\d+\.\d+\.\d+$/);
    for (const f of grammars) expect(Number.isInteger(f.abi), f.file).toBe(true);
  });

  it.each(lock.files.map((f) => f.file))("%s has the locked sha256", (file) => {
    expect(sha256(readFileSync(`${wasmDir}${file}`))).toBe(lock.files.find((f) => f.file === file)!.sha256);
  });

  it("every language the engine knows has its grammar in the lock", () => {
    for (const spec of LANGUAGES)
      expect(
        lock.files.map((f) => f.file),
        spec.id,
      ).toContain(spec.grammar);
  });

  it("every language's grammarSource (what sync-wasm.mjs reads) is the source its lock entry records", () => {
    for (const spec of LANGUAGES) {
      const entry = lock.files.find((f) => f.file === spec.grammar) as
        | { source: string; build?: { grammar: string } }
        | undefined;
      const source = spec.grammarSource;
      expect(source, spec.id).toBeDefined();
      if (source && "build" in source) expect(entry?.build?.grammar, spec.id).toBe(source.build);
      else expect(entry?.source, spec.id).toBe(source?.package);
    }
    expect(readFileSync(new URL("../../scripts/sync-wasm.mjs", import.meta.url), "utf8")).not.toMatch(
      /tree-sitter-python\.wasm/,
    );
  });

  describe("each grammar loads with web-tree-sitter at the locked ABI", () => {
    beforeAll(async () => {
      await Parser.init({ wasmBinary: readFileSync(`${wasmDir}web-tree-sitter.wasm`) });
    });
    it.each(grammars.map((f) => f.file))("%s", async (file) => {
      const language = await Language.load(new Uint8Array(readFileSync(`${wasmDir}${file}`)));
      expect(language.abiVersion).toBe(lock.files.find((f) => f.file === file)!.abi);
      // And it parses: a one-line program gives a tree with a root node.
      const parser = new Parser();
      parser.setLanguage(language);
      const tree = parser.parse("x");
      expect(tree?.rootNode.type.length).toBeGreaterThan(0);
      tree?.delete();
      parser.delete();
    });
  });
});

describe("generated queries", () => {
  it("src/languages/queries.gen.ts is in sync with the .scm files", () => {
    const r = spawnSync(process.execPath, ["scripts/gen-queries.mjs", "--check"], { cwd: repoRoot, encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
  });
});
