/**
 * Cache-damage fuzz in Chromium, for the OPFS and the IndexedDB store: index a small fixture,
 * damage random stored values behind the engine's back (truncate, empty, flip bytes, delete,
 * garbage, a whole value of another key; in OPFS also a folder where a value was, a file where a
 * folder of values was, the marker gone; in IndexedDB a value of the wrong type), open a new
 * engine on the same store, and require the answers of a clean run with nothing thrown. A third
 * engine then finds the store healed: nothing to parse, nothing to repair.
 *
 * VITE_FUZZ_SEEDS (default 120) sets the seeds per backend; VITE_FUZZ_SEED=n replays one seed.
 */
import { describe, expect, it } from "vitest";
import { createStore, del as idbDel, set as idbSet } from "idb-keyval";
import { createEngine, type Engine } from "../../src/core/engine/engine.ts";
import { MemoryFileSystem, MemoryStore } from "../../src/platform/memory/index.ts";
import {
  findDirectory,
  IdbStore,
  openBrowserStore,
  openDirectory,
  OPFS_INDEX_DIR,
  OpfsStore,
  STORE_MARKER,
  type StoreBackend,
} from "../../src/platform/browser/index.ts";
import type { Logger, Store } from "../../src/core/ports.ts";
import { wasm } from "../support/platform.ts";

const env = (import.meta as { env?: Record<string, string | undefined> }).env ?? {};
const SEEDS = Number(env.VITE_FUZZ_SEEDS ?? 120);
const ONE_SEED = env.VITE_FUZZ_SEED === undefined ? undefined : Number(env.VITE_FUZZ_SEED);

const FILES: Record<string, string> = {
  "shop/models.py":
    "class Order:\n    def total(self):\n        return sum_items(self)\n\n    def lines(self):\n        return []\n\ndef sum_items(order):\n    return len(order.lines())\n",
  "shop/views.py":
    "from shop.models import Order\nfrom shop.pricing import discount\n\ndef checkout():\n    order = Order()\n    return order.total() - discount(order)\n\ndef page():\n    return checkout()\n",
  "shop/pricing.py":
    "from shop.models import sum_items\n\nRATE = 0.1\n\ndef discount(order):\n    return sum_items(order) * RATE\n",
  "shop/__init__.py": "",
  "web/api.ts":
    "import { format } from './format';\n\nexport function fetchOrder(id: string): string {\n  return format(id);\n}\n\nexport class Client {\n  get(id: string): string {\n    return fetchOrder(id);\n  }\n}\n",
  "web/format.ts": "export function format(s: string): string {\n  return s.trim();\n}\n",
  "README.md": "# shop\n",
};

/** Everything the engine answers for the fixture, as plain data. */
async function answers(engine: Engine): Promise<unknown> {
  const summary = await engine.index();
  return {
    counts: { files: summary.files, symbols: summary.symbols, sourceFiles: summary.sourceFiles },
    map: await engine.map({ budget: 800 }),
    search: await engine.search("order total"),
    context: await engine.context("shop.views.checkout", { budget: 600 }),
    contextFile: await engine.context("web/api.ts", { budget: 400 }),
    callers: await engine.callers("sum_items"),
    callees: await engine.callees("shop.views.checkout"),
    importers: await engine.importers("shop/models.py"),
  };
}

/** A seeded PRNG (mulberry32): a failing seed replays exactly. */
function rng(seed: number): { int(n: number): number; pick<T>(xs: T[]): T } {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { int: (n) => Math.floor(next() * n), pick: (xs) => xs[Math.floor(next() * xs.length)]! };
}

type Damage =
  | "truncate"
  | "empty"
  | "flip"
  | "delete"
  | "garbage"
  | "other-value"
  | "folder"
  | "parent-file"
  | "no-marker"
  | "wrong-type";
const COMMON: Damage[] = ["truncate", "empty", "flip", "delete", "garbage", "other-value"];

/** Raw access to one backend's namespace, behind the store's back. */
interface Raw {
  put(key: string, bytes: Uint8Array): Promise<void>;
  remove(key: string): Promise<void>;
  special(kind: Damage, key: string): Promise<void>;
  kinds: Damage[];
}

async function opfsRaw(ns: string): Promise<Raw> {
  const dir = await openDirectory(await navigator.storage.getDirectory(), `${OPFS_INDEX_DIR}/${ns}`);
  const parentOf = async (key: string) => openDirectory(dir, key.split("/").slice(0, -1).join("/"));
  const leaf = (key: string) => key.split("/").at(-1)!;
  const remove = async (key: string) =>
    (await parentOf(key)).removeEntry(leaf(key), { recursive: true }).catch(() => {});
  return {
    kinds: [...COMMON, "folder", "parent-file", "no-marker"],
    // Straight onto the file, the way an older version (or a crash) leaves it.
    async put(key, bytes) {
      const w = await (await (await parentOf(key)).getFileHandle(leaf(key), { create: true })).createWritable();
      await w.write(bytes as Uint8Array<ArrayBuffer>);
      await w.close();
    },
    remove,
    async special(kind, key) {
      if (kind === "folder") {
        await remove(key);
        const folder = await (await parentOf(key)).getDirectoryHandle(leaf(key), { create: true });
        await folder.getFileHandle("stray", { create: true });
      } else if (kind === "parent-file") {
        // The folder holding the value becomes a file (its sibling values go with it).
        const parts = key.split("/");
        const folderKey = parts.slice(0, -1).join("/");
        if (!folderKey) return;
        const grand = await openDirectory(dir, parts.slice(0, -2).join("/"));
        await grand.removeEntry(parts.at(-2)!, { recursive: true }).catch(() => {});
        const w = await (await grand.getFileHandle(parts.at(-2)!, { create: true })).createWritable();
        await w.write("not a folder");
        await w.close();
      } else if (kind === "no-marker") {
        await dir.removeEntry(STORE_MARKER).catch(() => {});
      }
    },
  };
}

function idbRaw(ns: string): Raw {
  const db = createStore("codeslice-index", "kv");
  return {
    kinds: [...COMMON, "wrong-type"],
    put: (key, bytes) => idbSet(`${ns}/${key}`, bytes, db),
    remove: (key) => idbDel(`${ns}/${key}`, db),
    async special(kind, key) {
      if (kind === "wrong-type") await idbSet(`${ns}/${key}`, { not: "bytes" }, db);
    },
  };
}

/** Applies one damage to `key`; returns a line for the failure message. */
async function damage(
  raw: Raw,
  r: ReturnType<typeof rng>,
  key: string,
  pristine: Map<string, Uint8Array>,
): Promise<string> {
  const kind = r.pick(raw.kinds);
  try {
    return await damageWith(kind, raw, r, key, pristine);
  } catch (error) {
    // An earlier damage of this seed is in the way (a file where this key's folder was).
    if ((error as Error).name !== "TypeMismatchError") throw error;
    return `${kind} ${key} (blocked by an earlier damage)`;
  }
}

async function damageWith(
  kind: Damage,
  raw: Raw,
  r: ReturnType<typeof rng>,
  key: string,
  pristine: Map<string, Uint8Array>,
): Promise<string> {
  const bytes = pristine.get(key)!;
  switch (kind) {
    case "truncate":
      await raw.put(key, bytes.slice(0, r.int(bytes.length)));
      break;
    case "empty":
      await raw.put(key, new Uint8Array(0));
      break;
    case "flip": {
      const copy = bytes.slice();
      for (let n = 1 + r.int(3); n > 0; n--) copy[r.int(copy.length)] ^= 1 + r.int(255);
      await raw.put(key, copy);
      break;
    }
    case "delete":
      await raw.remove(key);
      break;
    case "garbage":
      await raw.put(
        key,
        Uint8Array.from({ length: r.int(2 * bytes.length + 1) }, () => r.int(256)),
      );
      break;
    case "other-value": {
      // A whole, well-sealed value that belongs to another key.
      const others = [...pristine.keys()].filter((k) => k !== key);
      await raw.put(key, pristine.get(r.pick(others))!);
      break;
    }
    default:
      await raw.special(kind, key);
  }
  return `${kind} ${key}`;
}

/** Puts the namespace back to exactly `pristine` (a store over it heals whatever damage is left). */
async function restore(backend: StoreBackend, ns: string, pristine: Map<string, Uint8Array>): Promise<void> {
  let store: OpfsStore | IdbStore;
  if (backend === "opfs")
    store = new OpfsStore(await openDirectory(await navigator.storage.getDirectory(), `${OPFS_INDEX_DIR}/${ns}`));
  else store = new IdbStore(ns);
  await store.clear();
  for (const [k, v] of pristine) await store.set(k, v);
}

async function snapshotOf(store: Store): Promise<Map<string, Uint8Array>> {
  const out = new Map<string, Uint8Array>();
  for (const k of await store.keys()) out.set(k, (await store.get(k))!);
  return out;
}

function fuzz(backend: "opfs" | "indexeddb"): void {
  it(`${backend}: ${ONE_SEED ?? SEEDS} seed(s) of damaged values; each new engine answers like a clean run, and heals the store`, async () => {
    const clean = await answers(
      createEngine({ fs: new MemoryFileSystem(FILES, "shop"), store: new MemoryStore(), wasm }),
    );
    const ns = `fuzz-${backend}-${Date.now().toString(36)}`;
    const open = async (warnings: string[] = []) => {
      const opened = await openBrowserStore({ namespace: ns, prefer: backend });
      expect(opened.backend).toBe(backend);
      const logger: Logger = { log: (level, m) => void (level === "warn" && warnings.push(m)) };
      return createEngine({ fs: new MemoryFileSystem(FILES, "shop"), store: opened.store, wasm, logger });
    };
    // The pristine index, written through the real store.
    const first = await open();
    expect(await answers(first)).toEqual(clean);
    first.close();
    const pristine = await snapshotOf((await openBrowserStore({ namespace: ns, prefer: backend })).store);
    expect(pristine.size).toBeGreaterThan(4);
    const raw = backend === "opfs" ? await opfsRaw(ns) : idbRaw(ns);
    const keys = [...pristine.keys()];
    const seeds = ONE_SEED !== undefined ? [ONE_SEED] : Array.from({ length: SEEDS }, (_, i) => i + 1);
    const kinds = new Map<string, number>();
    for (const seed of seeds) {
      await restore(backend, ns, pristine);
      const r = rng(seed * 7919 + (backend === "opfs" ? 1 : 2));
      const done: string[] = [];
      for (let n = 1 + r.int(4); n > 0; n--) done.push(await damage(raw, r, r.pick(keys), pristine));
      for (const d of done) kinds.set(d.split(" ")[0]!, (kinds.get(d.split(" ")[0]!) ?? 0) + 1);
      const why = `seed ${seed}: ${done.join("; ")}`;
      const damaged = await open();
      let got: unknown;
      try {
        got = await answers(damaged);
      } catch (error) {
        throw new Error(`${why}: threw ${String(error)}`, { cause: error });
      }
      expect(got, why).toEqual(clean);
      damaged.close();
      // Healed: a third engine neither parses nor repairs anything, and answers the same.
      const warnings: string[] = [];
      const healed = await open(warnings);
      const summary = await healed.index();
      expect(summary.parsed, why).toBe(0);
      expect(await answers(healed), why).toEqual(clean);
      expect(warnings, why).toEqual([]);
      healed.close();
    }
    // Every kind of damage was tried (over the full seed run).
    if (ONE_SEED === undefined && SEEDS >= 50) expect([...kinds.keys()].sort()).toEqual([...raw.kinds].sort());
    if (backend === "opfs") {
      const parent = await findDirectory(await navigator.storage.getDirectory(), OPFS_INDEX_DIR);
      await parent?.removeEntry(ns, { recursive: true });
    } else await new IdbStore(ns).drop();
  }, 900_000);
}

describe("cache-damage fuzz", () => {
  fuzz("opfs");
  fuzz("indexeddb");

  // With the snapshot gone, a well-sealed record found under a file's content key must be that
  // content's record: a whole value moved under another key reads as absent (found by this fuzz).
  it("a record swapped for another key's whole value, with the snapshot gone, answers like a clean run", async () => {
    const clean = await answers(
      createEngine({ fs: new MemoryFileSystem(FILES, "shop"), store: new MemoryStore(), wasm }),
    );
    const ns = `fuzz-swap-${Date.now().toString(36)}`;
    const engine = async () =>
      createEngine({
        fs: new MemoryFileSystem(FILES, "shop"),
        store: (await openBrowserStore({ namespace: ns, prefer: "indexeddb" })).store,
        wasm,
      });
    await answers(await engine());
    const pristine = await snapshotOf((await openBrowserStore({ namespace: ns, prefer: "indexeddb" })).store);
    const raw = idbRaw(ns);
    const records = [...pristine.keys()].filter((k) => k.includes("/records/"));
    await raw.remove([...pristine.keys()].find((k) => k.endsWith("snapshot.json"))!);
    for (let i = 0; i < records.length; i++)
      await raw.put(records[i]!, pristine.get(records[(i + 1) % records.length]!)!);
    try {
      expect(await answers(await engine())).toEqual(clean);
    } finally {
      await new IdbStore(ns).drop();
    }
  });
});
