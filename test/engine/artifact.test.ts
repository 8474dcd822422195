/**
 * The portable index artifact in-process (memory platforms, real grammars): a round trip into a
 * second engine parses nothing and answers the same; the bytes depend on the files only; and every
 * kind of bad artifact is refused with its own code before anything reaches the store.
 */
import { describe, expect, it } from "vitest";
import { createEngine, type Engine } from "../../src/core/engine/engine.ts";
import { ARTIFACT_FORMAT, encodeArtifact } from "../../src/core/engine/artifact.ts";
import { SCHEMA_VERSION, SNAPSHOT_KEY, decodeJson, type Snapshot } from "../../src/core/engine/snapshot.ts";
import { crc32 } from "../../src/core/engine/seal.ts";
import { MemoryFileSystem, MemoryStore } from "../../src/platform/memory/index.ts";
import { errorOf, parseFixture, wasm } from "../support/platform.ts";

const FILES = parseFixture(`
  #- shop/__init__.py
  #- shop/base.py
  class Animal:
      """An animal."""

      def sound(self):
          return "..."

      def speak(self):
          return self.sound()
  #- shop/dog.py
  from shop.base import Animal


  class Dog(Animal):
      def sound(self):
          return "woof"


  def make():
      return Dog().speak()
  #- web/view.ts
  import { helper } from "./util";

  export class View {
    render(): string { return helper("x"); }
  }
  #- web/util.ts
  export function helper(s: string): string { return s + "!"; }
  #- README.md
  # shop
`);

function engineOver(files: Record<string, string>, rootLabel: string): { engine: Engine; store: MemoryStore } {
  const store = new MemoryStore();
  return { engine: createEngine({ fs: new MemoryFileSystem(files, rootLabel), store, wasm }), store };
}

/** Everything a store holds, for "nothing was written" checks. */
async function contents(store: MemoryStore): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const key of await store.keys("")) out[key] = Buffer.from((await store.get(key))!).toString("base64");
  return out;
}

/** `bytes` with both checksums made again: an artifact whose only fault is the one put in. */
async function resealed(bytes: Uint8Array): Promise<Uint8Array> {
  const out = bytes.slice();
  new DataView(out.buffer).setUint32(28, crc32(out, 28), true);
  out.set(new Uint8Array(await crypto.subtle.digest("SHA-256", out.subarray(0, out.length - 32))), out.length - 32);
  return out;
}

/** The parts of a fresh index of FILES as the store holds them, for artifacts made by hand. */
async function storedIndex(): Promise<{
  snapshot: Snapshot;
  records: Uint8Array[];
  extractors: Record<string, string>;
}> {
  const a = engineOver(FILES, "/a");
  await a.engine.index();
  const snapshot = decodeJson<Snapshot>(await a.store.get(SNAPSHOT_KEY))!;
  const keys = [...new Set(snapshot.files.flatMap((f) => (f.record ? [f.record] : [])))].sort();
  const records = await Promise.all(keys.map(async (k) => (await a.store.get(k))!));
  // A record key is v<schema>/records/<2>/<extractor version>-<hash>.json.
  const extractors = Object.fromEntries(
    snapshot.files.flatMap((f) =>
      f.record ? [[f.language!, /([0-9a-f]{16})-[0-9a-f]{40}\.json$/.exec(f.record)![1]!]] : [],
    ),
  );
  return { snapshot, records, extractors };
}

async function exported(): Promise<Uint8Array> {
  const { engine } = engineOver(FILES, "/machine-a/shop");
  await engine.index();
  return (await engine.exportIndex()).bytes;
}

describe("index artifact", () => {
  it("loads into another engine under another root: nothing parsed, the same answers", async () => {
    const a = engineOver(FILES, "/machine-a/shop");
    const first = await a.engine.index();
    expect(first.parsed).toBe(5);
    const { bytes, summary } = await a.engine.exportIndex();
    expect(summary).toMatchObject({
      files: 6,
      records: 5,
      languages: { python: 3, typescript: 2 },
      bytes: bytes.length,
    });
    expect(Buffer.from(bytes).includes("/machine-a")).toBe(false);

    const b = engineOver(FILES, "/somewhere/else");
    const imported = await b.engine.importIndex(bytes);
    expect(imported).toMatchObject({ files: 6, records: 5 });
    const second = await b.engine.index();
    expect(second.parsed).toBe(0);
    expect(second.reused).toBe(5);
    expect(await b.engine.graph()).toEqual(await a.engine.graph());
    expect((await b.engine.context("Dog.sound")).text).toBe((await a.engine.context("Dog.sound")).text);
  });

  it("parses only the files that differ from the exporter's", async () => {
    const b = engineOver(
      { ...FILES, "web/util.ts": 'export function helper(s: string): string { return s + "?"; }\n' },
      "/b",
    );
    await b.engine.importIndex(await exported());
    const summary = await b.engine.index();
    expect(summary.parsed).toBe(1);
    expect(summary.reused).toBe(4);
  });

  it("gives the same bytes for the same files, whether the records were parsed or read back", async () => {
    const store = new MemoryStore();
    const fs = new MemoryFileSystem(FILES, "/x");
    const cold = createEngine({ fs, store, wasm });
    await cold.index();
    const fromMemory = (await cold.exportIndex()).bytes;
    const fromStore = (await createEngine({ fs, store, wasm }).exportIndex()).bytes;
    expect(Buffer.from(fromStore).equals(Buffer.from(fromMemory))).toBe(true);
    expect(Buffer.from(await exported()).equals(Buffer.from(fromMemory))).toBe(true);
  });

  it("exports a damaged cache only after repairing it", async () => {
    const store = new MemoryStore();
    const fs = new MemoryFileSystem(FILES, "/x");
    await createEngine({ fs, store, wasm }).index();
    const snapshot = decodeJson<Snapshot>(await store.get(SNAPSHOT_KEY))!;
    const keys = snapshot.files.flatMap((f) => (f.record ? [f.record] : []));
    // One record flipped, another replaced by a whole, valid record of a different file.
    const flipped = (await store.get(keys[0]!))!.slice();
    flipped[5] ^= 1;
    await store.set(keys[0]!, flipped);
    await store.set(keys[1]!, (await store.get(keys.at(-1)!))!);
    const bytes = (await createEngine({ fs, store, wasm }).exportIndex()).bytes;
    expect(Buffer.from(bytes).equals(Buffer.from(await exported()))).toBe(true);
  });

  it("replaces the index an engine held, and drops the records only that index used", async () => {
    const b = engineOver({ "other.py": "def lonely():\n    return 1\n" }, "/b");
    await b.engine.index();
    const before = await b.store.keys("");
    await b.engine.importIndex(await exported());
    const after = await b.store.keys("");
    expect(after.filter((k) => before.includes(k) && k !== SNAPSHOT_KEY)).toEqual([]);
    // The project on this machine has only other.py: the imported inventory gives way to the scan.
    const summary = await b.engine.index();
    expect(summary.sourceFiles).toBe(1);
    expect((await b.engine.graph()).definitions.map((d) => d.name)).toEqual(["lonely"]);
  });

  describe("refuses, writing nothing,", () => {
    const refused = async (bytes: Uint8Array) => {
      const b = engineOver(FILES, "/b");
      await b.engine.index();
      const before = await contents(b.store);
      const error = await errorOf(b.engine.importIndex(bytes));
      expect(await contents(b.store)).toEqual(before);
      return error;
    };

    it("a file that is not an artifact", async () => {
      const bytes = await exported();
      bytes[1] = "X".charCodeAt(0);
      expect((await refused(bytes)).code).toBe("artifact_foreign");
      expect((await refused(new TextEncoder().encode('{"files": []}'))).code).toBe("artifact_foreign");
    });

    it("a cut copy, however short", async () => {
      const bytes = await exported();
      for (const n of [0, 5, 20, 100, bytes.length - 1]) {
        const error = await refused(bytes.subarray(0, n));
        expect(error.code).toBe("artifact_truncated");
        expect(error.data).toMatchObject({ actualBytes: n });
      }
    });

    it("a flipped byte anywhere", async () => {
      const bytes = await exported();
      // The schema, the length and header-length fields, their CRC, the header, a record, the snapshot, the SHA-256 itself.
      for (const at of [12, 17, 22, 26, 29, 40, Math.floor(bytes.length / 3), bytes.length - 60, bytes.length - 5]) {
        const flipped = bytes.slice();
        flipped[at] ^= 0x10;
        expect((await refused(flipped)).code, `byte ${at}`).toBe("artifact_corrupt");
      }
    });

    it("another format or record schema, even with a checksum that holds", async () => {
      const bytes = await exported();
      const schema = bytes.slice();
      new DataView(schema.buffer).setUint32(12, SCHEMA_VERSION + 1, true);
      const error = await refused(await resealed(schema));
      expect(error.code).toBe("artifact_version_mismatch");
      expect(error.data).toEqual({ schema: { artifact: SCHEMA_VERSION + 1, engine: SCHEMA_VERSION } });
      const format = bytes.slice();
      new DataView(format.buffer).setUint32(8, ARTIFACT_FORMAT + 1, true);
      expect((await refused(await resealed(format))).data).toEqual({
        format: { artifact: ARTIFACT_FORMAT + 1, engine: ARTIFACT_FORMAT },
      });
    });

    it("records another grammar or query made", async () => {
      const { snapshot, records, extractors } = await storedIndex();
      const error = await refused(
        await encodeArtifact(snapshot, records, { ...extractors, python: "0123456789abcdef" }),
      );
      expect(error.code).toBe("artifact_version_mismatch");
      expect(error.data).toEqual({ languages: ["python"] });
    });

    it("a snapshot naming a path outside the project, or a record it does not hold", async () => {
      const { snapshot, records, extractors } = await storedIndex();
      // Sanity: the parts as they are make an artifact that loads.
      await engineOver(FILES, "/c").engine.importIndex(await encodeArtifact(snapshot, records, extractors));
      for (const path of ["../outside.py", "/etc/passwd", "shop//dog.py", "./shop/dog.py"]) {
        const moved = { ...snapshot, files: snapshot.files.map((f, i) => (i === 0 ? { ...f, path } : f)) };
        expect((await refused(await encodeArtifact(moved, records, extractors))).code, path).toBe("artifact_corrupt");
      }
      const missing = await refused(await encodeArtifact(snapshot, records.slice(1), extractors));
      expect(missing.code).toBe("artifact_corrupt");
      expect(String((missing.data as { reason: string }).reason)).toMatch(/does not hold/);
    });
  });
});
