/**
 * The browser stores follow the disk cache's rules: the OPFS folder and the IndexedDB prefix are
 * codeslice's own (a marker, or the shape an earlier version left), anything else is refused
 * with `cache_refused` and never written into or deleted; inside its own folder the OPFS store
 * heals what stands in a value's way; and a write cut off midway (a worker terminated, as on a
 * reload) never leaves a value that reads back as something it was not.
 */
import { afterAll, describe, expect, it } from "vitest";
import { createStore, get as idbGet, set as idbSet } from "idb-keyval";
import {
  deleteBrowserIndex,
  findDirectory,
  IDB_MARKER,
  IdbStore,
  openBrowserStore,
  openDirectory,
  OpfsStore,
  OPFS_INDEX_DIR,
  STORE_MARKER,
} from "../../src/platform/browser/index.ts";
import { valueFor } from "./support/store-writer.worker.ts";
import { createEngine } from "../../src/core/engine/engine.ts";
import { MemoryFileSystem } from "../../src/platform/memory/index.ts";
import { createWorkerEngine } from "../../src/worker/index.ts";
import { wasm } from "../support/platform.ts";

const TEST_ROOT = `codeslice-own-${Date.now().toString(36)}`;
let counter = 0;
const bytes = (s: string) => new TextEncoder().encode(s);
type Iterable = FileSystemDirectoryHandle & { entries(): AsyncIterableIterator<[string, FileSystemHandle]> };

async function root(): Promise<FileSystemDirectoryHandle> {
  return navigator.storage.getDirectory();
}
async function fresh(): Promise<FileSystemDirectoryHandle> {
  return openDirectory(await root(), `${TEST_ROOT}/d${counter++}`);
}
async function writeRaw(dir: FileSystemDirectoryHandle, path: string, data: string | Uint8Array): Promise<void> {
  const parts = path.split("/");
  const parent = await openDirectory(dir, parts.slice(0, -1).join("/"));
  const w = await (await parent.getFileHandle(parts.at(-1)!, { create: true })).createWritable();
  await w.write(data as Uint8Array<ArrayBuffer>);
  await w.close();
}
async function readRaw(dir: FileSystemDirectoryHandle, path: string): Promise<string | undefined> {
  const parts = path.split("/");
  const parent = await findDirectory(dir, parts.slice(0, -1).join("/"));
  try {
    return await (await (await parent!.getFileHandle(parts.at(-1)!)).getFile()).text();
  } catch {
    return undefined;
  }
}
async function names(dir: FileSystemDirectoryHandle): Promise<string[]> {
  const out: string[] = [];
  for await (const [n] of (dir as Iterable).entries()) out.push(n);
  return out.sort();
}
// (toEqual walks 40 kB arrays element by element with diffs: seconds per round.)
const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);
async function expectRefused(p: Promise<unknown>): Promise<void> {
  await expect(p).rejects.toMatchObject({ name: "EngineError", code: "cache_refused" });
}

afterAll(async () => {
  await (await root()).removeEntry(TEST_ROOT, { recursive: true }).catch(() => {});
});

describe("OpfsStore: the folder is codeslice's own", () => {
  it("an empty folder is marked on first use; the marker is not a key", async () => {
    const dir = await fresh();
    const store = new OpfsStore(dir);
    expect(await store.keys()).toEqual([]);
    expect(await names(dir)).toEqual([STORE_MARKER]);
    await store.set("v16/snapshot.json", bytes("x"));
    expect(await store.keys()).toEqual(["v16/snapshot.json"]);
  });

  it("a folder of someone else's files is refused by every method, and nothing in it changes", async () => {
    const dir = await fresh();
    await writeRaw(dir, "notes.txt", "mine");
    await writeRaw(dir, "photos/cat.jpg", "meow");
    const store = new OpfsStore(dir, "opfs:someone-else");
    await expectRefused(store.get("notes.txt"));
    await expectRefused(store.set("v16/snapshot.json", bytes("x")));
    await expectRefused(store.delete("notes.txt"));
    await expectRefused(store.keys());
    await expectRefused(store.clear());
    await expect(store.get("x")).rejects.toThrow(/opfs:someone-else.*notes\.txt, photos/);
    expect(await names(dir)).toEqual(["notes.txt", "photos"]);
    expect(await readRaw(dir, "notes.txt")).toBe("mine");
    expect(await readRaw(dir, "photos/cat.jpg")).toBe("meow");
  });

  it("a folder an earlier version left (v<N> folders, a probe, swap files) is taken over and marked", async () => {
    const dir = await fresh();
    await writeRaw(dir, "v15/snapshot.json", "old");
    await writeRaw(dir, "v15/records/ab/x.json", "rec");
    await writeRaw(dir, "probe", "\u0001");
    await writeRaw(dir, "probe.crswap", "");
    const store = new OpfsStore(dir);
    // The layout before packs (a file per key) is never read as values: it is deleted, and the
    // engine makes the index again (the swap file is younger than a minute: it stays for now).
    expect(await store.get("v15/snapshot.json")).toBeUndefined();
    expect(await store.keys()).toEqual([]);
    expect(await names(dir)).toEqual([STORE_MARKER, "probe.crswap"]);
    await store.set("v15/snapshot.json", bytes("new"));
    await store.flush();
    expect(await new OpfsStore(dir).get("v15/snapshot.json")).toEqual(bytes("new"));
  });

  it("clear() removes the store's keys and keeps its marker", async () => {
    const dir = await fresh();
    const store = new OpfsStore(dir);
    await store.set("a", bytes("1"));
    await store.set("v1/b/c", bytes("2"));
    await store.flush();
    await store.set("queued", bytes("not landed yet"));
    await store.clear();
    expect(await store.keys()).toEqual([]);
    expect(await names(dir)).toEqual([STORE_MARKER]);
    await store.set("a", bytes("3"));
    expect(await store.get("a")).toEqual(bytes("3"));
    await store.flush();
    expect(await new OpfsStore(dir).keys()).toEqual(["a"]);
  });

  it("packs records: one file per batch, read back lazily by a new store, later values over earlier ones", async () => {
    const dir = await fresh();
    const store = new OpfsStore(dir);
    for (let i = 0; i < 300; i++) await store.set(`v26/records/${i % 10}/r${i}.json`, bytes(`record ${i}`));
    await store.set("v26/snapshot.json", bytes("snapshot 1"));
    await store.flush();
    await store.set("v26/snapshot.json", bytes("snapshot 2"));
    await store.delete("v26/records/3/r3.json");
    await store.flush();
    const files = await names(dir);
    // 301 values, an overwrite and a delete in two packs (the old layout made 302 files in 11 folders).
    expect(files.filter((n) => /^cs-\d{10}-[a-z0-9]+\.pack$/.test(n))).toHaveLength(2);
    expect(files).toHaveLength(3);
    const again = new OpfsStore(dir);
    expect(await again.keys("v26/records/")).toHaveLength(299);
    expect(await again.get("v26/records/3/r3.json")).toBeUndefined();
    expect(await again.get("v26/records/7/r287.json")).toEqual(bytes("record 287"));
    expect(await again.get("v26/snapshot.json")).toEqual(bytes("snapshot 2"));
  });

  it("a key too long for a pack's table is refused with invalid_argument at set, not when its batch is written", async () => {
    const store = new OpfsStore(await fresh());
    await expect(store.set("k".repeat(4097), bytes("x"))).rejects.toMatchObject({ code: "invalid_argument" });
    await store.set("k".repeat(4096), bytes("longest"));
    await store.flush();
    expect(await store.get("k".repeat(4096))).toEqual(bytes("longest"));
  });

  it("a store opening over a folder sees what another store of this page acknowledged and had not written yet", async () => {
    const dir = await fresh();
    const writer = new OpfsStore(dir);
    await writer.set("k", bytes("acknowledged"));
    expect(await new OpfsStore(dir).get("k")).toEqual(bytes("acknowledged"));
  });

  it("compacts: superseded values and deletes go once they outgrow the live ones, and no deleted key comes back", async () => {
    const dir = await fresh();
    const store = new OpfsStore(dir);
    const big = (i: number) => new Uint8Array(200_000).fill(i % 250);
    await store.set("gone", bytes("deleted before the compaction"));
    await store.flush();
    await store.delete("gone");
    await store.flush();
    // 40 rounds of rewriting the same 5 values (1 MB live, 40 MB written): each round one pack.
    for (let round = 0; round < 40; round++) {
      for (let k = 0; k < 5; k++) await store.set(`k${k}`, big(round * 5 + k));
      await store.flush();
    }
    const packs = (await names(dir)).filter((n) => n.endsWith(".pack"));
    expect(packs.length).toBeLessThan(12);
    const again = new OpfsStore(dir);
    expect(await again.keys()).toEqual(["k0", "k1", "k2", "k3", "k4"]);
    for (let k = 0; k < 5; k++) expect(same((await again.get(`k${k}`))!, big(39 * 5 + k))).toBe(true);
  });

  it("a pack damaged behind its back reads as absent and is deleted; a stray folder in its way goes too", async () => {
    const dir = await fresh();
    const store = new OpfsStore(dir);
    await store.set("first", bytes("in the first pack"));
    await store.flush();
    await store.set("second", bytes("in the second pack"));
    await store.flush();
    const [first, second] = (await names(dir)).filter((n) => n.endsWith(".pack"));
    const raw = (await (await dir.getFileHandle(second!)).getFile()).arrayBuffer();
    const flipped = new Uint8Array(await raw);
    flipped[40] ^= 0xff; // inside the table: the key's bytes
    await writeRaw(dir, second!, flipped);
    await openDirectory(dir, "stray/inner");
    const again = new OpfsStore(dir);
    expect(await again.get("second")).toBeUndefined();
    expect(await again.get("first")).toEqual(bytes("in the first pack"));
    expect(await names(dir)).toEqual([STORE_MARKER, first!]);
    // A pack holding another pack's whole bytes is not read either (its number is in its name).
    await again.set("third", bytes("x"));
    await again.flush();
    const third = (await names(dir)).find((n) => n.endsWith(".pack") && n !== first)!;
    await writeRaw(dir, third, new Uint8Array(await (await (await dir.getFileHandle(first!)).getFile()).arrayBuffer()));
    const fourth = new OpfsStore(dir);
    expect(await fourth.keys()).toEqual(["first"]);
  });
});

describe("OpfsStore in a dedicated worker (where the engine runs)", () => {
  it("round-trips every kind of value, leaves only its packs and marker, and the page reads what it wrote", async () => {
    const path = `${TEST_ROOT}/worker-ops`;
    const worker = new Worker(new URL("./support/store-ops.worker.ts", import.meta.url), { type: "module" });
    const got = await new Promise<Record<string, unknown>>((resolve) => {
      worker.addEventListener("message", (e) => resolve(e.data), { once: true });
      worker.postMessage({ path });
    });
    worker.terminate();
    expect(got.error).toBeUndefined();
    const text = (v: unknown) => new TextDecoder().decode(Uint8Array.from(v as number[]));
    expect(got.all).toEqual(Array.from({ length: 512 }, (_, i) => (i * 7) % 256));
    expect(got.empty).toEqual([]);
    expect(got.bigSame).toBe(true);
    expect(text(got.over)).toBe("short");
    expect(text(got.grow)).toBe("a much longer second value");
    expect(text(got.race)).toMatch(/^race-[0-7]-x*$/);
    expect(text(got.race).length).toBe(7 + Number(text(got.race)[5]) * 3000);
    expect(got.gone).toBeNull();
    expect(text(got.healed)).toBe("value");
    expect(got.keys).toEqual(["big", "empty", "grow", "healed", "over", "race", "v1/records/ab/all.bin"]);
    // Nothing else in the folder: no temp or swap file left behind, only the marker and packs.
    const files = got.files as string[];
    expect(files[0]).toBe(STORE_MARKER);
    expect(
      files.slice(1).every((f) => /^cs-\d{10}-[a-z0-9]+\.pack$/.test(f)),
      files.join(", "),
    ).toBe(true);
    expect(files.length).toBeLessThan(6); // ten writes and a delete: a few packs, not a file per key
    // And the page's own store reads what the worker wrote.
    const page = new OpfsStore(await openDirectory(await root(), path));
    expect(text(Array.from((await page.get("over"))!))).toBe("short");
  });
});

describe("OPFS writes cut off midway", () => {
  it("a worker terminated mid-write (a reload) leaves a prefix of its writes: each key whole, never empty or partial", async () => {
    let leftovers = 0;
    for (let round = 0; round < 6; round++) {
      const path = `${TEST_ROOT}/cut${round}`;
      const worker = new Worker(new URL("./support/store-writer.worker.ts", import.meta.url), { type: "module" });
      const size = 40_000;
      let landed = -1;
      const stopAt = 9 + round * 5; // a write that landed; the worker is cut off a little after it
      await new Promise<void>((resolve) => {
        worker.addEventListener("message", (e: MessageEvent<{ done: number; landed?: number }>) => {
          if (e.data.landed !== undefined) landed = e.data.landed;
          // Terminate somewhere inside the next writes, not at a clean boundary.
          if (e.data.done === stopAt + 2)
            setTimeout(() => {
              worker.terminate();
              resolve();
            }, round);
        });
        worker.postMessage({ path, count: 1000, size });
      });
      const dir = await openDirectory(await root(), path);
      const store = new OpfsStore(dir);
      const keys = await store.keys();
      const firsts = keys.filter((k) => k.startsWith("k/")).map((k) => Number(k.split("/")[1]));
      const last = Math.max(...firsts);
      // Every write that had landed is there, and what is there is a prefix of the writes.
      expect(last).toBeGreaterThanOrEqual(landed);
      expect(firsts.sort((a, b) => a - b)).toEqual(Array.from({ length: last + 1 }, (_, i) => i));
      for (const key of keys) {
        const got = (await store.get(key))!;
        const which = Number(key.split("/")[1]);
        if (key.startsWith("k/")) {
          expect(same(got, valueFor(which, size)), `${key}: ${got.length} bytes`).toBe(true);
        } else {
          // An overwritten key holds the last value written to it within that prefix (the writes
          // went k/0, over/0, k/1, over/1, …: the prefix may end between k/last and over/last).
          const i = (got.length - size) / 97;
          const latest = last - ((((last - which) % 7) + 7) % 7);
          expect(latest === last ? [latest, latest - 7] : [latest], key).toContain(i);
          expect(same(got, valueFor(i, size)), key).toBe(true);
        }
      }
      // What the cut-off writes left (temp and swap files) goes when a store next opens the folder.
      const scratchLeft = async () => {
        const found: string[] = [];
        for await (const [n] of (dir as Iterable).entries())
          if (n.endsWith(".tmp") || n.endsWith(".crswap")) found.push(n);
        return found;
      };
      leftovers += (await scratchLeft()).length;
      expect(await new OpfsStore(dir, "opfs:cut", { staleScratchMs: 0 }).keys()).toEqual(keys);
      expect(await scratchLeft()).toEqual([]);
    }
    console.log(`temp/swap files left by ${6} cut-off writers: ${leftovers}, all swept`);
  });
});

describe("an engine worker killed right after index() returned", () => {
  it("loses nothing: a new engine over the same OPFS store parses no file (the run ends once its writes landed)", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 40; i++)
      files[`pkg/mod${i}.py`] =
        `def f${i}(x):\n    return ${i > 0 ? `f${i - 1}(x) + ` : ""}x\n\nclass C${i}:\n    pass\n`;
    const namespace = `${TEST_ROOT}-kill${counter++}`;
    const worker = new Worker(new URL("./support/engine.worker.ts", import.meta.url), { type: "module" });
    const engine = createWorkerEngine(worker);
    await engine.open({ kind: "files", files, label: "killed" }, { kind: "browser", namespace, prefer: "opfs" });
    expect((await engine.index()).parsed).toBe(40);
    worker.terminate(); // as a reload does, at once: no time for a batch timer to fire
    const opened = await openBrowserStore({ namespace, prefer: "opfs" });
    expect(opened.backend).toBe("opfs");
    const again = createEngine({ fs: new MemoryFileSystem(files, "killed"), store: opened.store, wasm });
    const summary = await again.index();
    expect(summary).toMatchObject({ parsed: 0, reused: 40 });
    again.close();
    await deleteBrowserIndex(namespace);
  });
});

describe("IdbStore: the prefix is codeslice's own", () => {
  const raw = createStore("codeslice-index", "kv");

  it("an empty prefix is marked on first use; the marker is not a key", async () => {
    const ns = `${TEST_ROOT}-i${counter++}`;
    const store = new IdbStore(ns);
    expect(await store.keys()).toEqual([]);
    expect(await idbGet(`${ns}/${IDB_MARKER}`, raw)).toBeDefined();
    await store.set("v16/snapshot.json", bytes("x"));
    expect(await store.keys()).toEqual(["v16/snapshot.json"]);
  });

  it("a prefix holding someone else's keys is refused, and they stay", async () => {
    const ns = `${TEST_ROOT}-i${counter++}`;
    await idbSet(`${ns}/settings`, "theirs", raw);
    const store = new IdbStore(ns);
    await expectRefused(store.get("settings"));
    await expectRefused(store.set("v16/snapshot.json", bytes("x")));
    await expectRefused(store.clear());
    expect(await store.drop()).toBe(false);
    expect(await idbGet(`${ns}/settings`, raw)).toBe("theirs");
    expect(await idbGet(`${ns}/${IDB_MARKER}`, raw)).toBeUndefined();
  });

  it("keys an earlier version left are taken over; clear() keeps the marker, drop() removes all", async () => {
    const ns = `${TEST_ROOT}-i${counter++}`;
    await idbSet(`${ns}/v15/snapshot.json`, bytes("old"), raw);
    const store = new IdbStore(ns);
    expect(await store.get("v15/snapshot.json")).toEqual(bytes("old"));
    await store.clear();
    expect(await store.keys()).toEqual([]);
    expect(await idbGet(`${ns}/${IDB_MARKER}`, raw)).toBeDefined();
    expect(await new IdbStore(ns).drop()).toBe(true);
    expect(await idbGet(`${ns}/${IDB_MARKER}`, raw)).toBeUndefined();
  });
});

describe("openBrowserStore and deleteBrowserIndex", () => {
  it("a namespace folder holding someone else's files: open throws cache_refused (no quiet move elsewhere), delete leaves it", async () => {
    const ns = `${TEST_ROOT}-ns${counter++}`;
    const dir = await openDirectory(await root(), `${OPFS_INDEX_DIR}/${ns}`);
    await writeRaw(dir, "keep-me.txt", "user data");
    await expectRefused(openBrowserStore({ namespace: ns }));
    await expectRefused(deleteBrowserIndex(ns));
    expect(await readRaw(dir, "keep-me.txt")).toBe("user data");
    expect(await names(dir)).toEqual(["keep-me.txt"]);
    await (await openDirectory(await root(), OPFS_INDEX_DIR)).removeEntry(ns, { recursive: true });
  });

  it("deletes a marked index in OPFS and IndexedDB, and a legacy one", async () => {
    const ns = `${TEST_ROOT}-ns${counter++}`;
    const opfs = await openBrowserStore({ namespace: ns });
    await opfs.store.set("v16/snapshot.json", bytes("x"));
    const idb = await openBrowserStore({ namespace: ns, prefer: "indexeddb" });
    await idb.store.set("v16/snapshot.json", bytes("y"));
    await deleteBrowserIndex(ns);
    expect(await findDirectory(await root(), `${OPFS_INDEX_DIR}/${ns}`)).toBeUndefined();
    expect(await new IdbStore(ns).inspect()).toMatchObject({ ownership: "empty" });

    const legacy = await openDirectory(await root(), `${OPFS_INDEX_DIR}/${ns}`);
    await writeRaw(legacy, "v12/snapshot.json", "old");
    await deleteBrowserIndex(ns);
    expect(await findDirectory(await root(), `${OPFS_INDEX_DIR}/${ns}`)).toBeUndefined();
    // Nothing there at all is fine too.
    await deleteBrowserIndex(ns);
  });
});
