/**
 * What an engine derives from an unchanged index (the graph's resolved edges, the search index) is
 * kept in the cache (core/engine/derived.ts) and loaded by the next engine of the same build: the
 * answers are those of a build from the records, and an edit, another build or another config
 * means the kept value is not used. Damage to it: test/fault/derived-damage.test.ts.
 */
import { describe, expect, it } from "vitest";
import { createEngine } from "../../src/core/engine/engine.ts";
import type { Platform } from "../../src/core/ports.ts";
import { MemoryFileSystem, MemoryStore } from "../../src/platform/memory/index.ts";
import { parseFixture, wasm } from "../support/platform.ts";
import { answersOf, DERIVED_FIXTURE, derivedKept, WatchedStore } from "../support/derived.ts";

function platformOver(fs: MemoryFileSystem, store: MemoryStore): Platform {
  return { fs, store, wasm };
}

describe("derived data kept in the cache", () => {
  it("a second engine of the same build loads it instead of building, with the same answers", async () => {
    const fs = new MemoryFileSystem(parseFixture(DERIVED_FIXTURE));
    const store = new WatchedStore();
    const first = createEngine(platformOver(fs, store), { buildId: "build-1" });
    const built = await answersOf(first);
    await derivedKept(store);
    expect(store.derivedSets).toBe(1);
    first.close();

    const second = createEngine(platformOver(fs, store), { buildId: "build-1" });
    expect(await answersOf(second)).toBe(built);
    await new Promise((r) => setTimeout(r, 50));
    // Loaded, not built: a build would have written it again.
    expect(store.derivedSets).toBe(1);
    second.close();

    // And the same as an engine that keeps nothing.
    const plain = createEngine(platformOver(fs, new MemoryStore()));
    expect(await answersOf(plain)).toBe(built);
    plain.close();
  });

  it("is not used after an edit: the next engine gives the fresh answer and keeps the new snapshot's", async () => {
    const fs = new MemoryFileSystem(parseFixture(DERIVED_FIXTURE));
    const store = new WatchedStore();
    const first = createEngine(platformOver(fs, store), { buildId: "b" });
    await first.callers("Store.check");
    await derivedKept(store);
    first.close();

    // An edit that keeps every symbol and only moves a call: edges that were kept would now be wrong.
    fs.write(
      "shop/cart.py",
      (await fs.readFile("shop/cart.py").then((b) => new TextDecoder().decode(b))).replace(
        "        return sum(i.price for i in items)",
        "        self.check(items)\n        return sum(i.price for i in items)",
      ),
    );
    const second = createEngine(platformOver(fs, store), { buildId: "b" });
    const callers = await second.callers("Store.check");
    expect(callers.results.map((c) => c.qualified).sort()).toEqual(["shop.base.Store.save", "shop.cart.Cart.total"]);
    await derivedKept(store, 1);
    expect(store.derivedSets).toBe(2);

    // In the same engine too: an edit after a load is patched in, never answered from the kept edges.
    const before = new TextDecoder().decode(await fs.readFile("shop/cart.py"));
    fs.write("shop/cart.py", before.replace("    cart.save(items)\n", "    cart.save(items)\n    anything(items)\n"));
    await second.index();
    const callersNow = await second.callers("anything");
    expect(callersNow.results.map((c) => c.qualified)).toEqual(["shop.cart.checkout"]);
    second.close();

    const plain = createEngine(platformOver(fs, new MemoryStore()));
    const third = createEngine(platformOver(fs, store), { buildId: "b" });
    expect(await answersOf(third)).toBe(await answersOf(plain));
    plain.close();
    third.close();
  });

  it("another build, or no build identity, does not use it", async () => {
    const fs = new MemoryFileSystem(parseFixture(DERIVED_FIXTURE));
    const store = new WatchedStore();
    const first = createEngine(platformOver(fs, store), { buildId: "old" });
    const built = await answersOf(first);
    await derivedKept(store);
    first.close();

    const other = createEngine(platformOver(fs, store), { buildId: "new" });
    expect(await answersOf(other)).toBe(built);
    await derivedKept(store, 1);
    expect(store.derivedSets).toBe(2);
    other.close();

    const none = createEngine(platformOver(fs, store));
    expect(await answersOf(none)).toBe(built);
    await new Promise((r) => setTimeout(r, 50));
    expect(store.derivedSets).toBe(2);
    none.close();
  });

  it("a first call that needs no search index keeps the edges without one; the first that needs it keeps it", async () => {
    const fs = new MemoryFileSystem(parseFixture(DERIVED_FIXTURE));
    const store = new WatchedStore();
    const first = createEngine(platformOver(fs, store), { buildId: "b" });
    await first.callers("Store.check");
    await derivedKept(store);
    first.close();

    // The edges are loaded, and the search index the first call did not build is built now and kept.
    const second = createEngine(platformOver(fs, store), { buildId: "b" });
    const answers = await answersOf(second);
    await derivedKept(store, 1);
    expect(store.derivedSets).toBe(2);
    second.close();

    const plain = createEngine(platformOver(fs, new MemoryStore()));
    expect(answers).toBe(await answersOf(plain));
    plain.close();

    // Kept whole now: loaded, not built or written again.
    const third = createEngine(platformOver(fs, store), { buildId: "b" });
    expect(await answersOf(third)).toBe(answers);
    await new Promise((r) => setTimeout(r, 50));
    expect(store.derivedSets).toBe(2);
    third.close();
  });

  it("a first locate resolves no call it does not read, keeps what it made, and a later callers keeps the calls", async () => {
    const fs = new MemoryFileSystem(parseFixture(DERIVED_FIXTURE));
    const store = new WatchedStore();
    const task = "Cart save fails with item has no price: cannot save it";
    const first = createEngine(platformOver(fs, store), { buildId: "b" });
    const located = await first.locate(task);
    const early = await derivedKept(store);
    first.close();

    // Kept without calls: a later engine loads it (no build), answers the same, and keeps the calls once read.
    const second = createEngine(platformOver(fs, store), { buildId: "b" });
    expect(await second.locate(task)).toEqual(located);
    await new Promise((r) => setTimeout(r, 50));
    expect(store.derivedSets).toBe(1);
    const callers = await second.callers("Store.check");
    const whole = await derivedKept(store, 1);
    expect(store.derivedSets).toBe(2);
    expect(whole.length).toBeGreaterThan(early.length);
    second.close();

    const plain = createEngine(platformOver(fs, new MemoryStore()));
    expect(await plain.locate(task)).toEqual(located);
    expect(await plain.callers("Store.check")).toEqual(callers);
    const all = await answersOf(plain);
    plain.close();
    const third = createEngine(platformOver(fs, store), { buildId: "b" });
    expect(await answersOf(third)).toBe(all);
    await new Promise((r) => setTimeout(r, 50));
    expect(store.derivedSets).toBe(2);
    third.close();
  });

  it("a changed config the modules resolved with is a different identity", async () => {
    const files = parseFixture(DERIVED_FIXTURE);
    const fs = new MemoryFileSystem(files);
    const store = new WatchedStore();
    const first = createEngine(platformOver(fs, store), { buildId: "b" });
    await first.graph();
    await derivedKept(store);
    first.close();
    fs.write("package.json", '{ "name": "shop", "version": "2.0.0" }');
    const second = createEngine(platformOver(fs, store), { buildId: "b" });
    await second.graph();
    await derivedKept(store, 1);
    expect(store.derivedSets).toBe(2);
    second.close();
  });
});
