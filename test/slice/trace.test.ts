/**
 * Stack traces as targets, in every format the issue names: Python tracebacks, pytest failures,
 * Node/V8 and Deno frames, vitest and jest failures. Paths come from another machine: they match
 * by the longest suffix inside the root. The innermost project frame is the seed, the outer project
 * frames come as `frame` chunks, the error line is a note.
 */
import { describe, expect, it } from "vitest";
import { createEngine } from "../../src/core/engine/engine.ts";
import { parseTrace } from "../../src/core/slice/trace.ts";
import { MemoryFileSystem, MemoryStore } from "../../src/platform/memory/index.ts";
import { parseFixture, wasm } from "../support/platform.ts";
import { SHOP_CART_API } from "../support/shop-fixture.ts";

const FIXTURE = `${SHOP_CART_API}//- web/src/money.ts
export function format(cents: number): string {
  return (cents / 100).toFixed(2);
}
//- web/src/checkout.ts
import { format } from "./money";

export function receipt(total: number): string {
  const line = format(total);
  return "Total: " + line;
}
`;

function engine() {
  return createEngine({
    fs: new MemoryFileSystem(parseFixture(FIXTURE), "/home/dev/shop"),
    store: new MemoryStore(),
    wasm,
  });
}

const PYTHON = `Traceback (most recent call last):
  File "/srv/app/venv/lib/python3.11/site-packages/flask/app.py", line 1478, in wsgi_app
    response = self.full_dispatch_request()
  File "/ci/build/checkout/src/shop/api.py", line 7, in checkout
    cart.add(i)
  File "/ci/build/checkout/src/shop/cart.py", line 7, in add
    return total(self.items)
  File "/ci/build/checkout/src/shop/cart.py", line 11, in total
    return sum(i.price for i in items)
AttributeError: 'int' object has no attribute 'price'`;

const PYTEST = `_______________________________ test_checkout ________________________________

    def test_checkout():
>       checkout([1])

tests/test_api.py:5:
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _
src/shop/api.py:7: in checkout
    cart.add(i)
src/shop/cart.py:7: in add
    return total(self.items)
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _

>   return sum(i.price for i in items)
E   AttributeError: 'int' object has no attribute 'price'

src/shop/cart.py:11: AttributeError`;

const NODE = `TypeError: cents.toFixed is not a function
    at format (/home/runner/work/shop/web/src/money.ts:2:24)
    at receipt (/home/runner/work/shop/web/src/checkout.ts:4:16)
    at Object.<anonymous> (/home/runner/work/shop/web/src/main.ts:3:1)
    at Module._compile (node:internal/modules/cjs/loader:1256:14)`;

const DENO = `error: Uncaught (in promise) TypeError: cents.toFixed is not a function
    at format (file:///Users/me/shop/web/src/money.ts:2:24)
    at receipt (file:///Users/me/shop/web/src/checkout.ts:4:16)
    at file:///Users/me/shop/web/src/main.ts:3:1`;

const VITEST = ` FAIL  web/src/checkout.test.ts > receipt > formats the total
TypeError: cents.toFixed is not a function
 ❯ format web/src/money.ts:2:24
 ❯ receipt web/src/checkout.ts:4:16
 ❯ web/src/checkout.test.ts:6:12`;

const JEST = `  ● receipt › formats the total

    TypeError: cents.toFixed is not a function

      at format (web/src/money.ts:2:24)
      at receipt (web/src/checkout.ts:4:16)
      at Object.<anonymous> (web/src/checkout.test.ts:6:12)`;

describe("parseTrace", () => {
  it.each([
    ["Python", PYTHON, 4, "src/shop/cart.py", 11, /AttributeError/],
    ["pytest", PYTEST, 4, "src/shop/cart.py", 11, /AttributeError/],
    ["Node", NODE, 4, "/home/runner/work/shop/web/src/money.ts", 2, /TypeError/],
    ["Deno", DENO, 3, "/Users/me/shop/web/src/money.ts", 2, /TypeError/],
    ["vitest", VITEST, 3, "web/src/money.ts", 2, /TypeError/],
    ["jest", JEST, 3, "web/src/money.ts", 2, /TypeError/],
  ])("%s: frames outermost first, the error line kept", (_name, text, count, innermostPath, innermostLine, error) => {
    const t = parseTrace(text)!;
    expect(t.frames).toHaveLength(count);
    expect(t.frames.at(-1)!.path.endsWith(innermostPath)).toBe(true);
    expect(t.frames.at(-1)!.line).toBe(innermostLine);
    expect(t.error).toMatch(error);
  });

  it("plain words and locations are not traces", () => {
    expect(parseTrace("fix the cart total when items have no price")).toBeUndefined();
    expect(parseTrace("src/shop/cart.py:11")).toBeUndefined();
  });
});

describe("a trace as a target", () => {
  it.each([
    ["Python", PYTHON, "shop.cart.total", ["shop.cart.Cart.add", "shop.api.checkout"]],
    ["pytest", PYTEST, "shop.cart.total", ["shop.cart.Cart.add", "shop.api.checkout"]],
    ["Node", NODE, "web/src/money.ts#format", ["web/src/checkout.ts#receipt"]],
    ["Deno", DENO, "web/src/money.ts#format", ["web/src/checkout.ts#receipt"]],
    ["vitest", VITEST, "web/src/money.ts#format", ["web/src/checkout.ts#receipt"]],
    ["jest", JEST, "web/src/money.ts#format", ["web/src/checkout.ts#receipt"]],
  ])("%s: the innermost project frame is the seed, the outer ones frames", async (_name, text, seed, frames) => {
    const a = await engine().context(text, { budget: 4000 });
    expect(a.seeds.map((s) => s.qualified)).toEqual([seed]);
    expect(a.chunks.filter((c) => c.role === "frame").map((c) => c.symbol)).toEqual(frames);
    expect(a.notes.join("\n")).toMatch(/error: .*Error/);
    expect(a.text.split("\n")[0]).not.toContain("\n");
  });

  it("a trace with no frame in the project says so", async () => {
    const outside = `Traceback (most recent call last):\n  File "/usr/lib/python3/json/decoder.py", line 355, in raw_decode\nValueError: bad`;
    await expect(engine().context(outside)).rejects.toMatchObject({ code: "no_match" });
  });
});
