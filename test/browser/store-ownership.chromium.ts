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
    expect(await store.get("v15/snapshot.json")).toEqual(bytes("old"));
    expect(await names(dir)).toContain(STORE_MARKER);
    expect(await store.keys("v15/")).toEqual(["v15/records/ab/x.json", "v15/snapshot.json"]);
  });

  it("clear() removes the store's keys and keeps its marker", async () => {
    const dir = await fresh();
    const store = new OpfsStore(dir);
    await store.set("a", bytes("1"));
    await store.set("v1/b/c", bytes("2"));
    await store.clear();
    expect(await store.keys()).toEqual([]);
    expect(await names(dir)).toEqual([STORE_MARKER]);
    await store.set("a", bytes("3"));
    expect(await store.get("a")).toEqual(bytes("3"));
  });

  it("heals its own folder: a folder where a value goes, a file where a folder of keys goes", async () => {
    const dir = await fresh();
    const store = new OpfsStore(dir);
    await store.set("v16/records/ab/r.json", bytes("1"));
    await store.set("v16/snapshot.json", bytes("s"));
    // Damage made behind the store's back, then a new store over the folder (no cached handles).
    await (await openDirectory(dir, "v16")).removeEntry("snapshot.json");
    await writeRaw(dir, "v16/snapshot.json/inner", "junk");
    await (await openDirectory(dir, "v16/records")).removeEntry("ab", { recursive: true });
    await writeRaw(dir, "v16/records/ab", "a file");
    const again = new OpfsStore(dir);
    expect(await again.get("v16/snapshot.json")).toBeUndefined();
    expect(await again.get("v16/records/ab/r.json")).toBeUndefined();
    await again.set("v16/snapshot.json", bytes("healed"));
    await again.set("v16/records/ab/r.json", bytes("healed too"));
    expect(await again.get("v16/snapshot.json")).toEqual(bytes("healed"));
    expect(await again.get("v16/records/ab/r.json")).toEqual(bytes("healed too"));
  });
});

describe("OpfsStore in a dedicated worker (where the engine runs)", () => {
  it("round-trips every kind of value, leaves only its keys and marker, and the page reads what it wrote", async () => {
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
    // Nothing else in the folder: no temp or swap file left behind, only the marker besides the keys.
    expect(got.files).toEqual([STORE_MARKER, ...(got.keys as string[])].sort());
    // And the page's own store reads what the worker wrote.
    const page = new OpfsStore(await openDirectory(await root(), path));
    expect(text(Array.from((await page.get("over"))!))).toBe("short");
  });
});

describe("OPFS writes cut off midway", () => {
  it("a worker terminated mid-write (a reload) leaves each key whole or absent, never empty or partial", async () => {
    let leftovers = 0;
    for (let round = 0; round < 6; round++) {
      const path = `${TEST_ROOT}/cut${round}`;
      const worker = new Worker(new URL("./support/store-writer.worker.ts", import.meta.url), { type: "module" });
      const size = 40_000;
      let done = -1;
      const stopAt = 3 + round * 2;
      await new Promise<void>((resolve) => {
        worker.addEventListener("message", (e: MessageEvent<{ done: number }>) => {
          done = e.data.done;
          // Terminate somewhere inside the next writes, not at a clean boundary.
          if (done === stopAt)
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
      expect(keys.length).toBeGreaterThan(stopAt);
      for (const key of keys) {
        const got = (await store.get(key))!;
        const which = Number(key.split("/")[1]);
        if (key.startsWith("k/")) {
          expect(same(got, valueFor(which, size)), `${key}: ${got.length} bytes`).toBe(true);
        } else {
          // An overwritten key holds one whole value of the writes made to it.
          const i = (got.length - size) / 97;
          expect(Number.isInteger(i) && i % 7 === which, `${key}: ${got.length} bytes`).toBe(true);
          expect(same(got, valueFor(i, size)), key).toBe(true);
        }
      }
      // What the cut-off writes left (temp and swap files) goes with the next full listing.
      const scratchLeft = async () => {
        const found: string[] = [];
        const walk = async (d: FileSystemDirectoryHandle): Promise<void> => {
          for await (const [n, h] of (d as Iterable).entries()) {
            if (h.kind === "directory") await walk(h as FileSystemDirectoryHandle);
            else if (n.endsWith(".tmp") || n.endsWith(".crswap")) found.push(n);
          }
        };
        await walk(dir);
        return found;
      };
      const left = await scratchLeft();
      expect(await new OpfsStore(dir, "opfs:cut", { staleScratchMs: 0 }).keys("k/")).toEqual(
        keys.filter((k) => k.startsWith("k/")),
      );
      expect(await scratchLeft()).toEqual(left); // a prefix listing sweeps nothing
      expect(await new OpfsStore(dir, "opfs:cut", { staleScratchMs: 0 }).keys()).toEqual(keys);
      expect(await scratchLeft()).toEqual([]);
      leftovers += left.length;
    }
    console.log(`temp/swap files left by ${6} cut-off writers: ${leftovers}, all swept`);
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
