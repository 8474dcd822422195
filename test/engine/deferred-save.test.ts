/**
 * A watching engine (the MCP server's, the warm CLI's) writes the snapshot of an edit's re-check
 * after the answer, not on its path: the edited file's record is in the store when `refresh()`
 * resolves, the snapshot a moment later. Whatever the store holds in between must be a cache a
 * new process can use: the old snapshot with every record it names, and the new records found by
 * content. Core code on the memory platform, with a watcher that reports every write.
 */
import { describe, expect, it } from "vitest";
import { createEngine, type Engine } from "../../src/core/engine/engine.ts";
import { decodeJson, SNAPSHOT_KEY, type Snapshot } from "../../src/core/engine/snapshot.ts";
import { MemoryFileSystem, MemoryStore } from "../../src/platform/memory/index.ts";
import { parseFixture, wasm } from "../support/platform.ts";
import { PROJECT } from "./inputs.cases.ts";

/** A memory file system whose writes are watch events. */
class WatchedFileSystem extends MemoryFileSystem {
  private readonly listeners = new Set<(path: string) => void>();
  edit(path: string, text: string): void {
    this.write(path, text);
    for (const l of this.listeners) l(path);
  }
  watch(_dirs: string[], onChange: (path: string) => void): { close(): void } {
    this.listeners.add(onChange);
    return { close: () => void this.listeners.delete(onChange) };
  }
}

/** A store that counts snapshot writes and copies itself (what a killed process leaves on disk). */
class CountingStore extends MemoryStore {
  snapshotWrites = 0;
  override async set(key: string, value: Uint8Array): Promise<void> {
    if (key === SNAPSHOT_KEY) this.snapshotWrites++;
    return super.set(key, value);
  }
  async copy(): Promise<MemoryStore> {
    const out = new MemoryStore();
    for (const key of await this.keys()) await out.set(key, (await this.get(key))!);
    return out;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Waits (up to 10 s) until `store` has taken `count` snapshot writes. */
async function writesReach(store: CountingStore, count: number): Promise<number> {
  for (let t = 0; t < 1000 && store.snapshotWrites < count; t++) await sleep(10);
  return store.snapshotWrites;
}

async function stored(store: MemoryStore): Promise<Snapshot> {
  return decodeJson<Snapshot>(await store.get(SNAPSHOT_KEY))!;
}
const hashOf = (snapshot: Snapshot, path: string) => snapshot.files.find((f) => f.path === path)?.hash;
const keyOf = (snapshot: Snapshot, path: string) => snapshot.files.find((f) => f.path === path)!.record!;

/** A watching engine past its first index and the settle pass; `saveDelayMs` as given (else the default). */
async function watching(
  saveDelayMs?: number,
): Promise<{ engine: Engine; fs: WatchedFileSystem; store: CountingStore }> {
  const fs = new WatchedFileSystem(parseFixture(PROJECT));
  const store = new CountingStore();
  const engine = createEngine({ fs, store, wasm }, { watch: true, ...(saveDelayMs ? { saveDelayMs } : {}) });
  await engine.refresh();
  await sleep(100); // the settle pass after the first index
  await engine.refresh();
  return { engine, fs, store };
}

/** What a host asks: the whole graph and a context, from an engine over `fs` and `store`. */
async function answers(fs: MemoryFileSystem, store: MemoryStore) {
  const engine = createEngine({ fs, store, wasm });
  const index = await engine.index();
  return {
    index: { parsed: index.parsed, repaired: index.repaired },
    graph: await engine.graph(),
    context: (await engine.context("b")).text,
  };
}

/** The hash a fresh index of `fs` gives `path`. */
async function indexedHash(fs: MemoryFileSystem, path: string): Promise<string | undefined> {
  const store = new MemoryStore();
  await createEngine({ fs, store, wasm }).index();
  return hashOf(await stored(store), path);
}

describe("the snapshot of an edit is written after the answer", () => {
  it("refresh resolves with the edited record stored and the old snapshot in place; the new one lands a moment later", async () => {
    const { engine, fs, store } = await watching();
    try {
      const before = await stored(store);
      const writes = store.snapshotWrites;
      fs.edit("m.py", "def a():\n    return b()\n\n\ndef b():\n    x = 2\n    return x\n");
      expect(await engine.refresh()).toMatchObject({ refreshed: true, parsed: 1, mode: "watch" });
      expect(store.snapshotWrites).toBe(writes);
      expect(await stored(store)).toEqual(before);
      expect((await engine.context("b")).text).toContain("x = 2");
      expect(await writesReach(store, writes + 1)).toBe(writes + 1);
      const after = await stored(store);
      expect(hashOf(after, "m.py")).not.toBe(hashOf(before, "m.py"));
      expect(hashOf(after, "other.py")).toBe(hashOf(before, "other.py"));
      // The old record was swept once the snapshot that no longer names it was written.
      expect(await store.get(keyOf(before, "m.py"))).toBeUndefined();
      expect(await store.get(keyOf(after, "m.py"))).toBeDefined();
    } finally {
      engine.close();
    }
  });

  it("a process killed before the write leaves a cache that answers as a fresh index, with nothing to repair", async () => {
    const { engine, fs, store } = await watching(600_000);
    try {
      fs.edit("m.py", "def a():\n    return b()\n\n\ndef b():\n    y = 3\n    return y\n");
      await engine.refresh();
      const killed = await store.copy(); // what is on disk before the snapshot's write
      const got = await answers(fs, killed);
      const fresh = await answers(fs, new MemoryStore());
      expect(got.graph).toEqual(fresh.graph);
      expect(got.context).toEqual(fresh.context);
      // The edited file is found changed against the old snapshot, and its record by its content.
      expect(got.index).toEqual({ parsed: 0, repaired: 0 });
    } finally {
      engine.close();
    }
  });

  it("edits in a row are written once; the records they made and dropped are swept, one made again is kept", async () => {
    const { engine, fs, store } = await watching(600_000);
    try {
      const original = await stored(store);
      const writes = store.snapshotWrites;
      const text = (n: number) => `def a():\n    return b()\n\n\ndef b():\n    return ${n}\n`;
      const keys: string[] = [];
      for (const n of [10, 11, 12]) {
        const held = new Set(await store.keys());
        fs.edit("m.py", text(n));
        await engine.refresh();
        keys.push(...(await store.keys()).filter((k) => !held.has(k))); // the one record this edit made
      }
      expect(keys).toHaveLength(3);
      // Back to the first edit's text: its record is used again and must survive the sweep.
      fs.edit("m.py", text(10));
      expect(await engine.refresh()).toMatchObject({ refreshed: true, parsed: 0, mode: "watch" });
      expect(store.snapshotWrites).toBe(writes);
      engine.close(); // writes what is unsaved
      expect(await writesReach(store, writes + 1)).toBe(writes + 1);
      expect(keyOf(await stored(store), "m.py")).toBe(keys[0]);
      expect(await store.get(keys[0]!)).toBeDefined();
      expect(await store.get(keys[1]!)).toBeUndefined();
      expect(await store.get(keys[2]!)).toBeUndefined();
      expect(await store.get(keyOf(original, "m.py"))).toBeUndefined();
      const fresh = await answers(fs, new MemoryStore());
      expect((await answers(fs, store)).graph).toEqual(fresh.graph);
    } finally {
      engine.close();
    }
  });

  it("close() writes a snapshot still unsaved, and so does a pass that re-scans, before it starts", async () => {
    const { engine, fs, store } = await watching(600_000);
    const writes = store.snapshotWrites;
    fs.edit("other.py", "from m import a\n\n\ndef c():\n    return a() + 1\n");
    await engine.refresh();
    expect(store.snapshotWrites).toBe(writes);
    // A full re-scan: the unsaved snapshot first, then the scan's own (if it changed anything).
    await engine.refresh({ rescan: true });
    expect(store.snapshotWrites).toBe(writes + 1);
    expect(hashOf(await stored(store), "other.py")).toBe(await indexedHash(fs, "other.py"));
    fs.edit("other.py", "from m import a\n\n\ndef c():\n    return a() + 2\n");
    await engine.refresh();
    engine.close();
    expect(await writesReach(store, writes + 2)).toBe(writes + 2);
    expect(hashOf(await stored(store), "other.py")).toBe(await indexedHash(fs, "other.py"));
  });
});
