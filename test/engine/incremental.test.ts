/**
 * Incremental by construction: records are keyed by content, so an unchanged tree parses nothing,
 * an edit re-parses exactly the edited file, and a fresh engine over the same store starts warm.
 *
 * The memory platform's mtimes are small integers, far older than any snapshot, so its files are
 * never inside the indexer's "racy" window (RACY_WINDOW_MS) and stat comparison alone applies.
 */
import { describe, expect, it } from "vitest";
import { createEngine } from "../../src/core/engine/engine.ts";
import { MemoryFileSystem, MemoryStore } from "../../src/platform/memory/index.ts";
import type { Platform, Store, WasmSource } from "../../src/core/ports.ts";
import { memoryEngine, parseFixture, wasm } from "../support/platform.ts";

const FIXTURE = `
//- app/main.py
from app.util import helper

def main():
    return helper()
//- app/util.py
def helper():
    return 1

class Tool:
    def run(self):
        return 2
//- web/index.ts
export function start(): number {
  return 1;
}
//- web/lib.js
export const lib = () => 2;
//- README.md
# not source
`;

/** A Store that counts writes, to prove an unchanged run writes nothing. */
class CountingStore extends MemoryStore {
  sets = 0;
  deletes = 0;
  override async set(key: string, value: Uint8Array): Promise<void> {
    this.sets++;
    return super.set(key, value);
  }
  override async delete(key: string): Promise<void> {
    this.deletes++;
    return super.delete(key);
  }
}

function platformOver(fs: MemoryFileSystem, store: Store): Platform {
  return { fs, store, wasm };
}

describe("incremental indexing", () => {
  it("the first run parses every source file; a second run on an unchanged tree parses nothing", async () => {
    const { engine } = memoryEngine(FIXTURE);
    const first = await engine.index();
    expect(first.parsed).toBe(4);
    expect(first.sourceFiles).toBe(4);
    expect(first.files).toBe(5);
    const second = await engine.index();
    expect(second.parsed).toBe(0);
    expect(second.reused).toBe(4);
    expect(second.removed).toBe(0);
    expect(second.symbols).toBe(first.symbols);
  });

  it("an unchanged run writes nothing to the store", async () => {
    const fs = new MemoryFileSystem(parseFixture(FIXTURE));
    const store = new CountingStore();
    const engine = createEngine(platformOver(fs, store));
    await engine.index();
    const { sets, deletes } = store;
    expect(sets).toBeGreaterThan(0);
    await engine.index();
    expect(store.sets).toBe(sets);
    expect(store.deletes).toBe(deletes);
  });

  it("editing one file re-parses exactly that file, and the answer reflects the edit", async () => {
    const { engine, platform } = memoryEngine(FIXTURE);
    await engine.index();
    platform.fs.write("app/util.py", "def helper():\n    return 1\n\ndef added():\n    return 3\n");
    const after = await engine.index();
    expect(after.parsed).toBe(1);
    expect(after.reused).toBe(3);
    const names = (await engine.graph()).definitions
      .filter((d) => d.file === "app/util.py")
      .map((d) => d.name)
      .sort();
    expect(names).toEqual(["added", "helper"]);
    expect((await engine.index()).parsed).toBe(0);
  });

  it("touching a file without changing its bytes re-reads it but parses nothing", async () => {
    const { engine, platform } = memoryEngine(FIXTURE);
    await engine.index();
    const text = new TextDecoder().decode(await platform.fs.readFile("web/index.ts"));
    platform.fs.write("web/index.ts", text);
    const after = await engine.index();
    expect(after.parsed).toBe(0);
    expect(after.reused).toBe(4);
  });

  it("a new file is parsed alone", async () => {
    const { engine, platform } = memoryEngine(FIXTURE);
    await engine.index();
    platform.fs.write("app/extra.py", "def extra():\n    pass\n");
    const after = await engine.index();
    expect(after.parsed).toBe(1);
    expect(after.sourceFiles).toBe(5);
  });

  it("deleting a file reports removed: 1 and its definitions are gone", async () => {
    const { engine, platform } = memoryEngine(FIXTURE);
    await engine.index();
    platform.fs.remove("web/lib.js");
    const after = await engine.index();
    expect(after.removed).toBe(1);
    expect(after.parsed).toBe(0);
    expect(after.sourceFiles).toBe(3);
    expect((await engine.graph()).definitions.some((d) => d.file === "web/lib.js")).toBe(false);
    expect((await engine.index()).removed).toBe(0);
  });

  it("a file whose content becomes identical to another's shares its record without parsing", async () => {
    const { engine, platform } = memoryEngine(FIXTURE);
    await engine.index();
    platform.fs.write("app/copy.py", new TextDecoder().decode(await platform.fs.readFile("app/util.py")));
    const after = await engine.index();
    expect(after.parsed).toBe(0);
    const defs = (await engine.graph()).definitions;
    expect(
      defs
        .filter((d) => d.file === "app/copy.py")
        .map((d) => d.name)
        .sort(),
    ).toEqual(["Tool", "helper", "run"]);
  });

  it("a fresh engine over the same store reuses every record (parsed 0) and answers the same", async () => {
    const fs = new MemoryFileSystem(parseFixture(FIXTURE));
    const store = new MemoryStore();
    const first = createEngine(platformOver(fs, store));
    const summary = await first.index();
    const graph = await first.graph();
    const fresh = createEngine(platformOver(fs, store));
    const again = await fresh.index();
    expect(again.parsed).toBe(0);
    expect(again.reused).toBe(summary.sourceFiles);
    expect(again.symbols).toBe(summary.symbols);
    expect((await fresh.graph()).definitions).toEqual(graph.definitions);
    // The records a parse keeps in memory are the ones a later run reads back, key for key.
    const byPath = (rs: { path: string }[]) => [...rs].sort((a, b) => (a.path < b.path ? -1 : 1));
    expect(byPath(await fresh.records())).toStrictEqual(byPath(await first.records()));
  });

  it("a fresh engine after an edit made while no engine ran re-parses only that file", async () => {
    const fs = new MemoryFileSystem(parseFixture(FIXTURE));
    const store = new MemoryStore();
    await createEngine(platformOver(fs, store)).index();
    fs.write("web/index.ts", "export function start(): number {\n  return 2;\n}\n");
    const again = await createEngine(platformOver(fs, store)).index();
    expect(again.parsed).toBe(1);
    expect(again.reused).toBe(3);
  });

  it("records no file points at any more are collected from the store", async () => {
    const fs = new MemoryFileSystem(parseFixture(FIXTURE));
    const store = new MemoryStore();
    const engine = createEngine(platformOver(fs, store));
    await engine.index();
    const before = (await store.keys()).filter((k) => k.includes("/records/"));
    expect(before.length).toBe(4);
    fs.write("app/util.py", "def changed():\n    pass\n");
    fs.remove("web/lib.js");
    await engine.index();
    const after = (await store.keys()).filter((k) => k.includes("/records/"));
    expect(after.length).toBe(3);
  });

  it("tells the wasm source how many files a run may parse before it compiles any: all on a cold run, none unchanged, one after an edit", async () => {
    const fs = new MemoryFileSystem(parseFixture(FIXTURE));
    const hints: number[] = [];
    // A WasmSource of its own: the parser runtime is made once per source, so the first parse of
    // this engine's runs is the first for this source too.
    const hinted: WasmSource = { load: (file) => wasm.load(file), expectParses: (files) => void hints.push(files) };
    const engine = createEngine({ fs, store: new MemoryStore(), wasm: hinted }, { jobs: 1 });
    await engine.index();
    expect(hints).toEqual([4]);
    await engine.index();
    expect(hints).toEqual([4]);
    fs.write("app/util.py", "def helper():\n    return 7\n");
    expect((await engine.index()).parsed).toBe(1);
    expect(hints).toEqual([4, 1]);
  });

  it("concurrent index() calls share one run", async () => {
    const { engine } = memoryEngine(FIXTURE);
    const [a, b] = await Promise.all([engine.index(), engine.index()]);
    // One shared run: both see its 4 parses (run one after the other, the second would parse 0).
    expect(a.parsed).toBe(4);
    expect(b.parsed).toBe(4);
    expect((await engine.index()).parsed).toBe(0);
  });
});
