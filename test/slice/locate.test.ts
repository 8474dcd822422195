/**
 * Locations as targets: every form an agent or a person writes (`path:line`, `path:start-end`,
 * `path:line:col`, absolute, `./`, Windows separators, quoted odd names, a path from another
 * checkout), and every handle an answer prints reads back as a target.
 */
import { describe, expect, it } from "vitest";
import { createEngine } from "../../src/core/engine/engine.ts";
import { parseLocation } from "../../src/core/slice/locate.ts";
import { MemoryFileSystem, MemoryStore } from "../../src/platform/memory/index.ts";
import { parseFixture, wasm } from "../support/platform.ts";

const ROOT = "/home/dev/shop";

const FIXTURE = `
//- src/shop/__init__.py
//- src/shop/cart.py
"""Carts."""
TAX = 0.2


class Cart:
    def __init__(self):
        self.items = []

    def add(self, item):
        self.items.append(item)
        return total(self.items)


def total(items):
    return sum(i.price for i in items) * (1 + TAX)


registry = {"default": Cart}
//- src/shop/api.py
from shop.cart import Cart, total


def checkout(items):
    cart = Cart()
    for i in items:
        cart.add(i)
    return total(cart.items)
//- tests/test_cart.py
from shop.cart import Cart


def test_add():
    Cart().add(1)
//- web/cart.py
def total(x):
    return x
`;

function engine(extra: Record<string, string> = {}) {
  const fs = new MemoryFileSystem({ ...parseFixture(FIXTURE), ...extra }, ROOT);
  return createEngine({ fs, store: new MemoryStore(), wasm });
}

const seedOf = async (target: string) => {
  const a = await engine().context(target, { budget: 2000 });
  return { seeds: a.seeds.map((s) => s.qualified), first: a.chunks[0]!, notes: a.notes };
};

describe("parseLocation", () => {
  it.each([
    ["a.py:12", { path: "a.py", start: 12, end: 12 }],
    ["a.py:12-30", { path: "a.py", start: 12, end: 30 }],
    ["a.ts:12:7", { path: "a.ts", start: 12, end: 12 }],
    ["a.ts:12:7-14:2", { path: "a.ts", start: 12, end: 14 }],
    ["C:\\repo\\a.py:3", { path: "C:\\repo\\a.py", start: 3, end: 3 }],
    ["src/a.py::Cart.add", { path: "src/a.py", symbol: "Cart.add" }],
    ['"new\\nline.py":2-4', { path: "new\nline.py", start: 2, end: 4, quoted: true }],
    ['"x\\\\y.py"::f', { path: "x\\y.py", symbol: "f", quoted: true }],
  ])("%s", (text, expected) => {
    expect(parseLocation(text)).toMatchObject(expected);
  });

  it.each(["Cart.add", "a.py", "C:12", "fix the cart total", "POST /api/x"])("%s is not a location", (text) => {
    expect(parseLocation(text)).toBeUndefined();
  });
});

describe("a location answers with the symbol around it", () => {
  it.each([
    ["src/shop/cart.py:11", "shop.cart.Cart.add"],
    ["src/shop/cart.py:11:9", "shop.cart.Cart.add"],
    ["src/shop/cart.py:10-11", "shop.cart.Cart.add"],
    ["./src/shop/cart.py:15", "shop.cart.total"],
    ["src\\shop\\cart.py:15", "shop.cart.total"],
    [`${ROOT}/src/shop/cart.py:15`, "shop.cart.total"],
    ["C:\\Users\\dev\\elsewhere\\src\\shop\\api.py:5", "shop.api.checkout"],
    ["/ci/build/checkout/src/shop/api.py:5", "shop.api.checkout"],
    ["src/shop/cart.py::total", "shop.cart.total"],
    [`${ROOT}/src/shop/cart.py::Cart.add`, "shop.cart.Cart.add"],
  ])("%s → %s", async (target, qualified) => {
    expect((await seedOf(target)).seeds).toEqual([qualified]);
  });

  it("a range across definitions answers as those lines, widened to the whole definitions", async () => {
    const { seeds, first } = await seedOf("src/shop/cart.py:7-14");
    expect(seeds).toEqual([]);
    expect(first).toMatchObject({ path: "src/shop/cart.py", role: "seed", kind: "lines", start: 5, end: 15 });
  });

  it("module-level lines answer as those lines, and a whole file's range as the file", async () => {
    const { seeds, first } = await seedOf("src/shop/cart.py:18");
    expect(seeds).toEqual([]);
    expect(first).toMatchObject({ path: "src/shop/cart.py", role: "seed", kind: "lines", start: 15, end: 18 });
    expect((await seedOf("src/shop/cart.py:1-18")).first).toMatchObject({ kind: "file", start: 1, end: 18 });
  });

  it("a path from another checkout says which file it matched", async () => {
    const { notes } = await seedOf("/ci/build/checkout/src/shop/api.py:5");
    expect(notes.join("\n")).toMatch(/matched src\/shop\/api\.py/);
  });

  it("bad locations get specific errors", async () => {
    const e = engine();
    await expect(e.context("src/shop/cart.py:999")).rejects.toMatchObject({
      code: "invalid_argument",
      data: { totalLines: 18 },
    });
    await expect(e.context("src/shop/kart.py:3")).rejects.toMatchObject({ code: "not_found" });
    await expect(e.context("cart.py:3")).rejects.toMatchObject({ code: "ambiguous_symbol", data: { total: 2 } });
    await expect(e.context("src/shop/cart.py::totl")).rejects.toMatchObject({
      code: "unknown_symbol",
      data: { suggestions: [{ qualified: "shop.cart.total" }] },
    });
    await expect(e.context("../../etc/passwd:1")).rejects.toMatchObject({ code: "outside_root" });
    await expect(e.context("/etc/passwd:1")).rejects.toMatchObject({ code: "not_found" });
  });
});

describe("every handle an answer prints is a target", () => {
  it("chunk headers and cut-list handles of context answers read back to the same code", async () => {
    const e = engine();
    const handles = new Set<string>();
    for (const target of ["Cart", "shop.cart.total", "src/shop/api.py", "src/shop/cart.py:19"]) {
      for (const budget of [120, 400, 4000]) {
        const a = await e.context(target, { budget }).catch(() => undefined);
        if (!a) continue;
        for (const m of a.text.matchAll(/^## (\S+:\d+-\d+) \[/gm)) handles.add(m[1]!);
        for (const c of a.cut) handles.add(c.handle);
      }
    }
    expect(handles.size).toBeGreaterThan(5);
    for (const handle of handles) {
      const a = await e.context(handle, { budget: 4000 });
      const range = /^(.*):(\d+)-(\d+)$/.exec(handle);
      if (range) {
        // The answer's first chunk holds those lines.
        expect(a.chunks[0], handle).toMatchObject({ path: range[1] });
        expect(a.chunks[0]!.start <= Number(range[2]) && a.chunks[0]!.end >= Number(range[3]), handle).toBe(true);
      } else
        expect(
          a.seeds.map((s) => s.qualified),
          handle,
        ).toContain(handle);
    }
  });

  it("odd file names are quoted in headers and read back: a backslash, a newline", async () => {
    const e = engine({
      "odd/back\\slash.py": "def fn():\n    return 1\n",
      "odd/new\nline.py": "def nl():\n    return 2\n",
    });
    for (const target of ["nl", "fn"]) {
      const a = await e.context(target, { budget: 500 });
      const header = a.text.split("\n").find((l) => l.startsWith("## "))!;
      expect(header).toMatch(/^## "odd\/(back\\\\slash|new\\nline)\.py":1-2 \[seed\] /);
      const handle = /^## ("[^"]*(?:\\.[^"]*)*":\d+-\d+) /.exec(header)![1]!;
      expect((await e.context(handle, { budget: 500 })).seeds.map((s) => s.qualified)).toEqual(
        a.seeds.map((s) => s.qualified),
      );
    }
    expect((await e.context("odd/back\\slash.py::fn", { budget: 500 })).seeds).toHaveLength(1);
  });
});
