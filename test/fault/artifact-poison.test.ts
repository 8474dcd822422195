/**
 * A crafted artifact cannot poison the cache (issue 22, items 4 and 16): only records its snapshot
 * names, ranges inside their file, every field within its cap, no language that is an Object
 * prototype key, and an import never replaces a record the cache holds. Each refusal writes
 * nothing. Memory platforms, real grammars.
 */
import { describe, expect, it } from "vitest";
import { createEngine, type Engine } from "../../src/core/engine/engine.ts";
import { encodeArtifact } from "../../src/core/engine/artifact.ts";
import {
  SNAPSHOT_KEY,
  decodeJson,
  encodeJson,
  recordKey,
  type Snapshot,
  type StoredRecord,
} from "../../src/core/engine/snapshot.ts";
import { MemoryFileSystem, MemoryStore } from "../../src/platform/memory/index.ts";
import { errorOf, wasm } from "../support/platform.ts";

const FILES = {
  "a.py": "def alpha():\n    return beta()\n\n\ndef beta():\n    return 1\n",
  "b.ts": "export function gamma(): number {\n  return 2;\n}\n",
};

function engineOver(files: Record<string, string>): { engine: Engine; store: MemoryStore } {
  const store = new MemoryStore();
  return { engine: createEngine({ fs: new MemoryFileSystem(files, "/p"), store, wasm }), store };
}

/** The parts of a fresh index of FILES, records decoded, for artifacts made by hand. */
async function parts(): Promise<{
  snapshot: Snapshot;
  records: Map<string, StoredRecord>;
  extractors: Record<string, string>;
}> {
  const a = engineOver(FILES);
  await a.engine.index();
  const snapshot = decodeJson<Snapshot>(await a.store.get(SNAPSHOT_KEY))!;
  const records = new Map<string, StoredRecord>();
  for (const f of snapshot.files)
    if (f.record) records.set(f.path, decodeJson<StoredRecord>(await a.store.get(f.record))!);
  const extractors = Object.fromEntries(
    snapshot.files.flatMap((f) =>
      f.record ? [[f.language!, /([0-9a-f]{16})-[0-9a-f]{40}\.json$/.exec(f.record)![1]!]] : [],
    ),
  );
  return { snapshot, records, extractors };
}

const artifact = (snapshot: Snapshot, records: StoredRecord[], extractors: Record<string, string>) =>
  encodeArtifact(snapshot, records.map(encodeJson), extractors);

/** Imports `bytes` into an indexed engine: the error, and whether the store changed. */
async function importInto(bytes: Uint8Array) {
  const b = engineOver(FILES);
  await b.engine.index();
  const keys = async () => (await b.store.keys("")).sort().join("\n");
  const before = await keys();
  const error = await errorOf(b.engine.importIndex(bytes)).catch((e: unknown) => e as Error & { code?: string });
  return { error, unchanged: (await keys()) === before };
}

describe("a crafted artifact", () => {
  it("holding a record its snapshot does not name is refused", async () => {
    const { snapshot, records, extractors } = await parts();
    const stray: StoredRecord = { ...records.get("a.py")!, hash: "0".repeat(40) };
    const r = await importInto(await artifact(snapshot, [...records.values(), stray], extractors));
    expect(r.error.code).toBe("artifact_corrupt");
    expect(r.unchanged).toBe(true);
  });

  const tampered: [string, (r: StoredRecord) => StoredRecord][] = [
    [
      "a definition ending on line 999,999,999",
      (r) => ({ ...r, definitions: r.definitions.map((d, i) => (i === 0 ? { ...d, end: 999_999_999 } : d)) }),
    ],
    ["-1 lines", (r) => ({ ...r, lines: -1 })],
    [
      "more lines than its file's bytes hold",
      (r) => ({ ...r, lines: 5000, definitions: r.definitions.map((d) => ({ ...d, end: 4000 })) }),
    ],
    [
      "a 200 KB signature",
      (r) => ({
        ...r,
        definitions: r.definitions.map((d, i) => (i === 0 ? { ...d, signature: "x".repeat(200_000) } : d)),
      }),
    ],
    [
      "a negative column",
      (r) => ({ ...r, definitions: r.definitions.map((d, i) => (i === 0 ? { ...d, nameCol: -5 } : d)) }),
    ],
    ["a call on line 0", (r) => ({ ...r, calls: r.calls.map((c) => ({ ...c, line: 0 })) })],
    [
      "an unknown definition kind",
      (r) => ({ ...r, definitions: r.definitions.map((d) => ({ ...d, kind: "wormhole" as never })) }),
    ],
  ];
  for (const [what, tamper] of tampered) {
    it(`whose record has ${what} is refused`, async () => {
      const { snapshot, records, extractors } = await parts();
      const r = await importInto(
        await artifact(
          snapshot,
          [...records.entries()].map(([p, rec]) => (p === "a.py" ? tamper(rec) : rec)),
          extractors,
        ),
      );
      expect(r.error.code).toBe("artifact_corrupt");
      expect(r.unchanged).toBe(true);
    });
  }

  for (const language of ["constructor", "__proto__", "toString", "hasOwnProperty"]) {
    it(`giving a record the language ${JSON.stringify(language)} is refused as corrupt`, async () => {
      const { snapshot, records, extractors } = await parts();
      // The snapshot names the record under the key a lookup of the prototype key would make.
      const inherited = String((extractors as Record<string, unknown>)[language]);
      const moved = {
        ...snapshot,
        files: snapshot.files.map((f) =>
          f.path === "a.py" ? { ...f, language, record: recordKey(inherited, f.hash!) } : f,
        ),
      };
      const r = await importInto(
        await artifact(
          moved,
          [...records.entries()].map(([p, rec]) => (p === "a.py" ? { ...rec, language } : rec)),
          extractors,
        ),
      );
      expect(r.error.code).toBe("artifact_corrupt");
      expect(r.unchanged).toBe(true);
    });
  }

  it("naming a prototype key as a language in its header is refused as corrupt", async () => {
    const { snapshot, records, extractors } = await parts();
    const header = JSON.parse(`{"__proto__": "0123456789abcdef", "constructor": "0123456789abcdef"}`) as Record<
      string,
      string
    >;
    const r = await importInto(await artifact(snapshot, [...records.values()], { ...extractors, ...header }));
    expect(r.error.code).toBe("artifact_corrupt");
  });

  it("never replaces a record the cache holds under the same key", async () => {
    const { snapshot, records, extractors } = await parts();
    const b = engineOver(FILES);
    await b.engine.index();
    const key = snapshot.files.find((f) => f.path === "a.py")!.record!;
    const local = await b.store.get(key);
    const lie = {
      ...records.get("a.py")!,
      definitions: records.get("a.py")!.definitions.map((d) => ({ ...d, name: "planted", qualified: "planted" })),
    };
    await b.engine.importIndex(
      await artifact(
        snapshot,
        [...records.entries()].map(([p, rec]) => (p === "a.py" ? lie : rec)),
        extractors,
      ),
    );
    expect(Buffer.from((await b.store.get(key))!).equals(Buffer.from(local!))).toBe(true);
    await b.engine.index();
    expect((await b.engine.graph()).definitions.map((d) => d.name).sort()).toEqual(["alpha", "beta", "gamma"]);
  });
});
