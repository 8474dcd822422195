/**
 * Late matches (issue 21: the gold function in `context` at 8,000 tokens on bug reports): a bug
 * report that is mostly a stack trace is answered from its frames, and the words around the trace
 * (title, error, the reporter's code) still point at places. Those come last, as outlines, in what a
 * large budget has left after the frames and their neighbours, and never change a small budget's answer.
 */
import { describe, expect, it } from "vitest";
import { createEngine } from "../../src/core/engine/engine.ts";
import { MemoryFileSystem, MemoryStore } from "../../src/platform/memory/index.ts";
import { parseFixture, wasm } from "../support/platform.ts";
import { SHOP_CART_API } from "../support/shop-fixture.ts";

const FIXTURE = `${SHOP_CART_API}//- src/shop/coupons.py
def apply_coupon_discount(price, coupon):
    """The price after a coupon's percentage discount."""
    return price - price * coupon.percent / 100
`;

const REPORT = `Coupon discount crashes checkout

Traceback (most recent call last):
  File "/ci/build/checkout/src/shop/api.py", line 7, in checkout
    cart.add(i)
  File "/ci/build/checkout/src/shop/cart.py", line 7, in add
    return total(self.items)
  File "/ci/build/checkout/src/shop/cart.py", line 11, in total
    return sum(i.price for i in items)
TypeError: unsupported operand type(s) for +: 'int' and 'Coupon'
`;

function engine() {
  return createEngine({
    fs: new MemoryFileSystem(parseFixture(FIXTURE), "/home/dev/shop"),
    store: new MemoryStore(),
    wasm,
  });
}

describe("late matches", () => {
  it("a trace's words point past its frames: shown last at a large budget, never at a small one's cost", async () => {
    const e = engine();
    await e.index();
    const large = await e.context(REPORT, { budget: 8000 });
    // The trace is the answer's spine: its innermost project frame is the seed.
    expect(large.seeds[0]?.qualified).toBe("shop.cart.total");
    const coupon = large.chunks.find((c) => c.symbol === "shop.coupons.apply_coupon_discount");
    expect(coupon, large.text).toBeDefined();
    expect(coupon!.role).toBe("match");
    // After every chunk the trace brings.
    expect(large.chunks.at(-1)!.symbol).toBe("shop.coupons.apply_coupon_discount");
    expect(large.notes.some((n) => /the task's words point at 1 more place \(match\)/.test(n))).toBe(true);
    // Budgets only add: what the smallest answer shows, the large one shows too.
    const small = await e.context(REPORT, { budget: 300 });
    for (const c of small.chunks) expect(large.chunks.some((l) => l.path === c.path && l.start === c.start)).toBe(true);
    e.close();
  });
});
