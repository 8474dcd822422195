/**
 * The platform contracts in real Chromium: HandleFileSystem over OPFS folders, MemoryFileSystem,
 * OpfsStore, IdbStore, the memory fallback, and FetchWasmSource over the served wasm/ folder; plus
 * the index persisting in OPFS across engines.
 */
import { afterAll, describe, expect, it } from "vitest";
import { createEngine } from "../../src/core/engine/engine.ts";
import { MemoryFileSystem, MemoryStore } from "../../src/platform/memory/index.ts";
import {
  BrowserFallbackStore,
  FetchWasmSource,
  HandleFileSystem,
  IdbStore,
  openBrowserStore,
  openDirectory,
  OpfsStore,
  type StoreNotice,
} from "../../src/platform/browser/index.ts";
import type { Store } from "../../src/core/ports.ts";
import { fileSystemContract, type FixtureEntry } from "../platform/file-system.contract.ts";
import { storeContract } from "../platform/store.contract.ts";
import { wasmSourceContract } from "../platform/wasm-source.contract.ts";
import { wasm } from "../support/platform.ts";

const TEST_ROOT = `codeslice-test-${Date.now().toString(36)}`;
let counter = 0;

async function freshOpfsDir(kind: string): Promise<FileSystemDirectoryHandle> {
  const root = await navigator.storage.getDirectory();
  return openDirectory(root, `${TEST_ROOT}/${kind}-${counter++}`);
}

/** Writes `files` (no links: OPFS has none) into a fresh OPFS folder. */
async function opfsTree(files: Record<string, FixtureEntry>): Promise<FileSystemDirectoryHandle> {
  const dir = await freshOpfsDir("fs");
  for (const [path, entry] of Object.entries(files)) {
    if (typeof entry === "object" && !(entry instanceof Uint8Array))
      throw new Error(`OPFS cannot hold the link ${path}`);
    const parts = path.split("/");
    const parent = await openDirectory(dir, parts.slice(0, -1).join("/"));
    const writable = await (await parent.getFileHandle(parts.at(-1)!, { create: true })).createWritable();
    await writable.write(typeof entry === "string" ? entry : (entry as Uint8Array<ArrayBuffer>));
    await writable.close();
  }
  return dir;
}

afterAll(async () => {
  const root = await navigator.storage.getDirectory();
  await root.removeEntry(TEST_ROOT, { recursive: true }).catch(() => {});
});

describe("the browser runtime", () => {
  it("is a real browser: a window, OPFS, no Node globals", () => {
    expect(typeof window).toBe("object");
    expect(typeof navigator.storage.getDirectory).toBe("function");
    expect((globalThis as { Buffer?: unknown }).Buffer).toBeUndefined();
    expect(typeof (globalThis as { require?: unknown }).require).toBe("undefined");
  });
});

fileSystemContract("HandleFileSystem over OPFS", async (files) => new HandleFileSystem(await opfsTree(files)), {
  symlinks: false,
});
fileSystemContract("MemoryFileSystem in Chromium", async (files) => new MemoryFileSystem(files));

storeContract("OpfsStore", async () => new OpfsStore(await freshOpfsDir("store")));
storeContract("IdbStore", async () => {
  const store = new IdbStore(`${TEST_ROOT}-${counter++}`);
  await store.clear();
  return store;
});
storeContract(
  "BrowserFallbackStore over OPFS",
  async () => new BrowserFallbackStore(new OpfsStore(await freshOpfsDir("store")), "opfs"),
);

/** A store that refuses every write the way a full origin does. */
class FullStore extends MemoryStore {
  override async set(): Promise<void> {
    throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
  }
}
storeContract("BrowserFallbackStore over a full store", async () => new BrowserFallbackStore(new FullStore(), "opfs"));

wasmSourceContract(
  "FetchWasmSource",
  async () => new FetchWasmSource(new URL("../../wasm/", import.meta.url)),
  async (missing) =>
    new FetchWasmSource(new URL("../../wasm/", import.meta.url), (input, init) =>
      String(input).endsWith(`/${missing}`)
        ? Promise.resolve(new Response("not here", { status: 404 }))
        : fetch(input, init),
    ),
);

describe("BrowserFallbackStore", () => {
  it("moves to memory on the first refused write, says so once, and keeps what the primary holds readable", async () => {
    let writes = 0;
    class FillsUp extends MemoryStore {
      override async set(key: string, value: Uint8Array): Promise<void> {
        if (++writes > 2) throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
        return super.set(key, value);
      }
    }
    const notices: StoreNotice[] = [];
    const store = new BrowserFallbackStore(new FillsUp(), "opfs", (n) => notices.push(n));
    const bytes = (s: string) => new TextEncoder().encode(s);
    await store.set("a", bytes("1"));
    await store.set("b", bytes("2"));
    expect(store.current).toBe("opfs");
    await store.set("c", bytes("3"));
    await store.set("d", bytes("4"));
    expect(store.current).toBe("memory");
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ backend: "memory", reason: "quota_exceeded" });
    expect(notices[0]!.message).toMatch(/memory/);
    expect(await store.keys()).toEqual(["a", "b", "c", "d"]);
    expect(await store.get("a")).toEqual(bytes("1"));
    await store.delete("a");
    expect(await store.get("a")).toBeUndefined();
    expect(await store.keys()).toEqual(["b", "c", "d"]);
  });

  it("an OPFS batch refused after its values were acknowledged (quota): memory from then on, said once, every value kept", async () => {
    // A real OPFS folder whose new files refuse their bytes once `full` is set, as a used-up quota does.
    let full = false;
    const bind = <T extends object>(target: T, prop: string | symbol) => {
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    };
    const real = await freshOpfsDir("quota");
    const dir = new Proxy(real, {
      get(target, prop) {
        if (prop !== "getFileHandle") return bind(target, prop);
        return async (name: string, options?: FileSystemGetFileOptions) => {
          const handle = await target.getFileHandle(name, options);
          if (!full || !name.endsWith(".tmp")) return handle;
          return new Proxy(handle, {
            get: (h, p) =>
              p === "createWritable"
                ? () => Promise.reject(new DOMException("The quota has been exceeded.", "QuotaExceededError"))
                : bind(h, p),
          });
        };
      },
    });
    const notices: StoreNotice[] = [];
    const store = new BrowserFallbackStore(new OpfsStore(dir), "opfs", (n) => notices.push(n));
    const bytes = (s: string) => new TextEncoder().encode(s);
    await store.set("a", bytes("landed"));
    await store.flush();
    full = true;
    await store.set("b", bytes("acknowledged"));
    await store.set("c", bytes("acknowledged too"));
    expect(store.current).toBe("opfs"); // only queued so far
    // No further call: the batch's own write fails, and that is enough to move to memory.
    await expect.poll(() => notices.length, { timeout: 5000 }).toBe(1);
    expect(notices[0]).toMatchObject({ backend: "memory", reason: "quota_exceeded" });
    expect(store.current).toBe("memory");
    await store.set("d", bytes("in memory"));
    await store.flush();
    expect(await store.keys()).toEqual(["a", "b", "c", "d"]);
    expect(await store.get("a")).toEqual(bytes("landed"));
    expect(await store.get("b")).toEqual(bytes("acknowledged"));
    expect(await store.get("c")).toEqual(bytes("acknowledged too"));
    expect(await store.get("d")).toEqual(bytes("in memory"));
    expect(notices).toHaveLength(1);
  });

  it("other failures are not mistaken for a full store", async () => {
    class Broken extends MemoryStore {
      override async set(): Promise<void> {
        throw new TypeError("bug");
      }
    }
    const store = new BrowserFallbackStore(new Broken(), "opfs");
    await expect(store.set("k", new Uint8Array([1]))).rejects.toThrow("bug");
    expect(store.current).toBe("opfs");
  });
});

describe("openBrowserStore", () => {
  it("picks OPFS in Chromium, IndexedDB or memory when asked", async () => {
    const ns = `${TEST_ROOT}-open`;
    const opfs = await openBrowserStore({ namespace: ns });
    expect(opfs.backend).toBe("opfs");
    expect(opfs.notice).toBeUndefined();
    expect(await opfs.store.keys()).toEqual([]); // the probe key is gone
    const idb = await openBrowserStore({ namespace: ns, prefer: "indexeddb" });
    expect(idb.backend).toBe("indexeddb");
    const memory = await openBrowserStore({ namespace: ns, prefer: "memory" });
    expect(memory.backend).toBe("memory");
    const root = await navigator.storage.getDirectory();
    await (await openDirectory(root, "codeslice/index")).removeEntry(ns, { recursive: true });
  });

  it("refuses a namespace that is not a store key", async () => {
    await expect(openBrowserStore({ namespace: "../x" })).rejects.toMatchObject({ code: "invalid_argument" });
  });
});

describe("an index in OPFS", () => {
  const FILES = {
    "app/main.py": "from app.util import helper\n\ndef main():\n    return helper()\n",
    "app/util.py": "def helper():\n    return 1\n",
    "web/index.ts": "export function start(): number {\n  return 1;\n}\n",
  };

  it("a fresh engine over the same OPFS store and folder parses nothing; an edit re-parses one file", async () => {
    const dir = await opfsTree(FILES);
    const storeDir = await freshOpfsDir("index");
    const platform = () => ({ fs: new HandleFileSystem(dir), store: new OpfsStore(storeDir) as Store, wasm });
    const first = await createEngine(platform()).index();
    expect(first.parsed).toBe(3);
    expect(first.symbols).toBeGreaterThan(2);
    const again = await createEngine(platform()).index();
    expect(again.parsed).toBe(0);
    expect(again.reused).toBe(3);
    const writable = await (await (await dir.getDirectoryHandle("app")).getFileHandle("util.py")).createWritable();
    await writable.write("def helper():\n    return 2\n\ndef other():\n    return helper()\n");
    await writable.close();
    const edited = await createEngine(platform()).index();
    expect(edited.parsed).toBe(1);
    const callers = await createEngine(platform()).callers("helper");
    expect(callers.results.map((r) => r.qualified).sort()).toEqual(["app.main.main", "app.util.other"]);
  });
});
