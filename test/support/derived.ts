/** Shared by the derived-data tests (test/engine/derived.test.ts, test/fault/derived-damage.test.ts). */
import type { Engine } from "../../src/core/engine/engine.ts";
import { DERIVED_KEY } from "../../src/core/engine/derived.ts";
import { MemoryStore } from "../../src/platform/memory/index.ts";

/** A fixture with what the kept edges hold: inheritance, imports, ambiguous, external and typed calls. */
export const DERIVED_FIXTURE = `
//- shop/base.py
class Store:
    def save(self, item):
        return self.check(item)

    def check(self, item):
        raise ValueError("item has no price: cannot save it")
//- shop/cart.py
import json
from shop.base import Store

class Cart(Store):
    def save(self, item):
        json.dumps(item)
        return super().save(item)

    def total(self, items):
        return sum(i.price for i in items)

class Wishlist(Store):
    def run(self):
        return 1

class Queue:
    def run(self):
        return 2

def checkout(cart: Cart, items):
    cart.save(items)
    return cart.total(items)

def anything(x):
    return x.run()
//- web/api.ts
import { price } from "./price";
export function quote(n: number): number {
  return price(n) * 2;
}
//- web/price.ts
export function price(n: number): number {
  return n + 1;
}
//- package.json
{ "name": "shop" }
`;

/** A Store that counts the writes of the derived value. */
export class WatchedStore extends MemoryStore {
  derivedSets = 0;
  override async set(key: string, value: Uint8Array): Promise<void> {
    if (key === DERIVED_KEY) this.derivedSets++;
    return super.set(key, value);
  }
}

/** Waits until the store holds the derived value (written after the answer, off its path). */
export async function derivedKept(store: MemoryStore, before = 0): Promise<Uint8Array> {
  for (let i = 0; i < 200; i++) {
    const bytes = await store.get(DERIVED_KEY);
    if (bytes && (!(store instanceof WatchedStore) || store.derivedSets > before)) return bytes;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error("the derived value was not written");
}

/** Every answer the kept data feeds, as JSON. */
export async function answersOf(engine: Engine): Promise<string> {
  const task = "Cart save fails with item has no price: cannot save it";
  return JSON.stringify([
    await engine.graph(),
    await engine.locate(task),
    await engine.search("save"),
    await engine.callers("Store.check"),
    await engine.callees("checkout"),
    await engine.context("Cart.save", { budget: 600 }),
    await engine.pack(task, { budget: 800 }),
  ]);
}
