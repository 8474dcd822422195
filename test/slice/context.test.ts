/** context(), pack(), search() and routes through the engine, on small fixture projects. */
import { readFileSync } from "node:fs";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { isEngineError } from "../../src/shared/errors.ts";
import { LIMITS } from "../../src/core/limits.ts";
import { errorOf, memoryEngine, parseFixture } from "../support/platform.ts";

const fixture = (name: string) => parseFixture(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8"));

describe("routes: METHOD /path through mounts", () => {
  const cases = [
    {
      file: "fastapi.txt",
      target: "POST /api/users",
      seed: "app.routers.users.create_user",
      mounts: ["app/main.py:5", "app/routers/users.py:4"],
    },
    {
      file: "fastapi.txt",
      target: "GET /api/users/42",
      seed: "app.routers.users.get_user",
      mounts: ["app/main.py:5", "app/routers/users.py:4"],
    },
    {
      file: "flask.txt",
      target: "DELETE /api/orders/7",
      seed: "shop.views.order",
      mounts: ["shop/__init__.py:7", "shop/views.py:3"],
    },
    { file: "express.txt", target: "GET /api/users", seed: "routes/users.js#listUsers", mounts: ["server.js:4"] },
    { file: "express.txt", target: "POST /api/users", seed: undefined, mounts: ["server.js:4"] },
    {
      file: "spring.txt",
      target: "POST /api/users/7/orders",
      seed: "src/main/java/shop/UserController.java#UserController.createOrder",
      mounts: [],
    },
    {
      file: "spring.txt",
      target: "GET /api/users/search",
      seed: "src/main/java/shop/UserController.java#UserController.search",
      mounts: [],
    },
  ];
  for (const c of cases) {
    it(`${c.file} ${c.target}`, async () => {
      const { engine } = memoryEngine(fixture(c.file));
      const answer = await engine.context(c.target, { budget: 2000 });
      expect(answer.resolvedAs).toBe("route");
      if (c.seed) expect(answer.seeds.map((s) => s.qualified)).toContain(c.seed);
      else expect(answer.chunks.find((x) => x.role === "seed")?.symbol).toBe(c.target); // inline handler
      expect(
        answer.chunks
          .filter((x) => x.role === "mount")
          .map((x) => `${x.path}:${x.start}`)
          .sort(),
      ).toEqual(c.mounts.sort());
    });
  }

  it("a route that does not exist names the known ones", async () => {
    const { engine } = memoryEngine(fixture("fastapi.txt"));
    const e = await errorOf(engine.context("PUT /api/users", { budget: 2000 }));
    expect(e.code).toBe("unknown_symbol");
    expect(e.data.known).toBeGreaterThan(0);
  });
});

const project = `
#- shop/models.py
class Item:
    """An item in the shop."""

    def __init__(self, name: str, price: int):
        self.name = name
        self.price = price


class Cart:
    """A shopping cart that holds items and computes totals."""

    def __init__(self):
        self.items = []

    def add(self, item: Item) -> None:
        self.items.append(item)

    def total(self) -> int:
        return sum(price_of(i) for i in self.items)


def price_of(item: Item) -> int:
    return item.price
#- shop/checkout.py
from shop.models import Cart, Item


def checkout(cart: Cart) -> int:
    """Charge the cart's total and return it."""
    amount = cart.total()
    return charge(amount)


def charge(amount: int) -> int:
    return amount


def demo():
    cart = Cart()
    cart.add(Item("pen", 3))
    return checkout(cart)
#- tests/test_checkout.py
from shop.checkout import checkout
from shop.models import Cart


def test_checkout_empty():
    assert checkout(Cart()) == 0
`;

describe("context budget", () => {
  it("orders chunks seed → type → callee → caller → witness and cites whole symbols", async () => {
    const { engine } = memoryEngine(project);
    const a = await engine.context("checkout", { budget: 4000 });
    const roles = a.chunks.map((c) => `${c.role} ${c.symbol}`);
    expect(roles[0]).toBe("seed shop.checkout.checkout");
    expect(roles).toContain("type shop.models.Cart");
    // Cart.total sits inside the Cart chunk: its lines are on the page once, not twice.
    const cart = a.chunks.find((c) => c.symbol === "shop.models.Cart")!;
    expect(cart.form).toBe("full");
    expect(roles).not.toContain("callee shop.models.Cart.total");
    expect(cart.start).toBeLessThanOrEqual(18);
    expect(cart.end).toBeGreaterThanOrEqual(19);
    expect(roles).toContain("callee shop.checkout.charge");
    expect(roles).toContain("caller shop.checkout.demo");
    expect(roles).toContain("witness tests.test_checkout.test_checkout_empty");
    const order = ["seed", "type", "callee", "caller", "mount", "witness"];
    const firstHop = a.chunks.filter((c) => c.role !== "seed");
    for (let i = 1; i < firstHop.length; i++)
      expect(order.indexOf(firstHop[i]!.role)).toBeGreaterThanOrEqual(order.indexOf(firstHop[i - 1]!.role) - 5);
    // Headers are the citations, and they name the real lines.
    expect(a.text).toContain("## shop/checkout.py:4-7 [seed] shop.checkout.checkout");
  });

  it("never exceeds the budget and reports the exact count, for every budget", async () => {
    const { engine } = memoryEngine(project);
    for (const target of ["checkout", "Cart", "shop/models.py", "price of item", "Cart.total"]) {
      for (const budget of [20, 40, 60, 90, 120, 160, 220, 300, 450, 700, 1000, 3000]) {
        try {
          const a = await engine.context(target, { budget });
          const recount = countTokens(a.text);
          expect(recount, `${target} @ ${budget}`).toBe(a.usage.tokens);
          expect(recount, `${target} @ ${budget}`).toBeLessThanOrEqual(budget);
          expect(a.chunks[0]?.role, `${target} @ ${budget}: seed first`).toBe("seed");
        } catch (error) {
          if (!isEngineError(error, "budget_too_small")) throw error;
          expect(error.data.needed as number).toBeGreaterThan(budget);
        }
      }
    }
  });

  it("with an envelope, text and envelope together stay within the budget, and each record costs its JSON", async () => {
    const { engine } = memoryEngine(project);
    const json = (v: unknown) => countTokens(JSON.stringify(v)) + 1;
    const pick = (v: object, fields?: readonly string[]) =>
      fields ? Object.fromEntries(fields.map((f) => [f, (v as Record<string, unknown>)[f]])) : v;
    for (const envelope of [
      { fixed: 40, perRecord: 1 },
      { fixed: 40, perRecord: 1, fields: { cut: ["handle", "tokens"], chunk: ["path", "start", "end"] } },
    ]) {
      for (const target of ["checkout", "Cart", "shop/models.py", "price of item"]) {
        for (const budget of [60, 120, 200, 300, 450, 700, 3000]) {
          try {
            const a = await engine.context(target, { budget, envelope });
            expect(countTokens(a.text), `${target} @ ${budget}`).toBe(a.usage.tokens);
            expect(a.usage.tokens + a.usage.envelope!, `${target} @ ${budget}`).toBeLessThanOrEqual(budget);
            const f = (envelope as { fields?: Record<string, readonly string[]> }).fields ?? {};
            const records = [
              ...a.seeds,
              ...a.notes,
              ...a.chunks.map((c) => pick(c, f.chunk)),
              ...a.cut.slice(0, a.cutListed).map((c) => pick(c, f.cut)),
            ];
            expect(a.usage.envelope, `${target} @ ${budget}`).toBe(
              envelope.fixed + records.reduce((n, r) => n + json(r), 0),
            );
          } catch (error) {
            if (!isEngineError(error, "budget_too_small")) throw error;
            // The budget it names answers.
            const again = await engine.context(target, { budget: error.data.needed, envelope });
            expect(again.usage.tokens + again.usage.envelope!).toBeLessThanOrEqual(error.data.needed);
          }
        }
      }
    }
    // Without an envelope the answer is the same as before envelopes existed: no envelope in usage.
    expect((await engine.context("checkout", { budget: 300 })).usage.envelope).toBeUndefined();
  });

  it("degrades a seed that does not fit to its outline and says what the full body needs", async () => {
    const body = Array.from({ length: 400 }, (_, i) => `    total += ${i}`).join("\n");
    const { engine } = memoryEngine({
      "big.py": `def big(n):\n    """Adds a lot."""\n    total = 0\n${body}\n    return total\n`,
    });
    const a = await engine.context("big", { budget: 300 });
    expect(a.chunks[0]).toMatchObject({ role: "seed", form: "outline" });
    expect(a.text).toContain("def big(n):");
    expect(a.text).toMatch(/full body needs \d+ tokens/);
    expect(countTokens(a.text)).toBeLessThanOrEqual(300);
    const tiny = await errorOf(engine.context("big", { budget: 5 }));
    expect(tiny.code).toBe("budget_too_small");
    expect(tiny.data.needed as number).toBeGreaterThan(5);
  });

  it("lists what it cut with a handle and the token cost", async () => {
    const { engine } = memoryEngine(project);
    const a = await engine.context("checkout", { budget: 160 });
    expect(a.cut.length).toBeGreaterThan(0);
    expect(a.text).toContain(`## Cut: ${a.cut.length} chunk`);
    for (const c of a.cut) expect(c.tokens).toBeGreaterThan(0);
    // The list is in priority order; at this budget its first entry is shown with its cost.
    const first = a.cut[0]!;
    expect(a.text).toContain(
      `- ${first.path}:${first.start}-${first.end} [${first.role}] ${first.symbol} (${first.tokens} tokens)`,
    );
  });

  it("handles a 50,000-line function without hanging", async () => {
    const body = Array.from({ length: 50_000 }, (_, i) => `  x += ${i % 10};`).join("\n");
    const { engine } = memoryEngine(
      { "huge.js": `function huge(x) {\n${body}\n  return x;\n}\n` },
      { maxFileBytes: 5_000_000 },
    );
    const a = await engine.context("huge", { budget: 500 });
    expect(a.chunks[0]).toMatchObject({ role: "seed", form: "outline" });
    expect(countTokens(a.text)).toBeLessThanOrEqual(500);
  });
});

describe("context targets and bad input", () => {
  it("understands file paths, path::symbol, dotted suffixes and words", async () => {
    const { engine } = memoryEngine(project);
    expect((await engine.context("shop/models.py", { budget: 2000 })).resolvedAs).toBe("file");
    expect((await engine.context("shop/models.py::Cart.add", { budget: 2000 })).seeds[0]!.qualified).toBe(
      "shop.models.Cart.add",
    );
    expect((await engine.context("Cart.total", { budget: 2000 })).seeds[0]!.qualified).toBe("shop.models.Cart.total");
    const words = await engine.context("shopping cart totals", { budget: 2000 });
    expect(words.resolvedAs).toBe("search");
    expect(words.seeds[0]!.qualified).toBe("shop.models.Cart");
    expect(words.notes.join(" ")).toContain("shop.models.Cart");
  });

  it("answers bad budgets and targets with specific errors", async () => {
    const { engine } = memoryEngine(project);
    for (const budget of [0, -5, 1.5, Number.NaN, 10 ** 12])
      expect((await errorOf(engine.context("checkout", { budget }))).code).toBe("invalid_argument");
    expect((await errorOf(engine.context("", {}))).code).toBe("invalid_argument");
    expect((await errorOf(engine.context("   ", {}))).code).toBe("invalid_argument");
    expect((await errorOf(engine.context("x".repeat(LIMITS.targetChars + 1), {}))).code).toBe("invalid_argument");
    expect((await errorOf(engine.context("../../etc/passwd", {}))).code).toBe("outside_root");
    expect((await errorOf(engine.context("shop/nothing.py", {}))).code).toBe("not_found");
    const unknown = await errorOf(engine.context("chekout", {}));
    expect(unknown.code).toBe("unknown_symbol");
    expect((unknown.data.suggestions as { qualified: string }[]).map((s) => s.qualified)).toContain(
      "shop.checkout.checkout",
    );
    const ambiguous = await errorOf(engine.context("__init__", {}));
    expect(ambiguous.code).toBe("ambiguous_symbol");
    expect(ambiguous.data.total).toBe(2);
    // A regex is just text: search reads its words.
    expect((await engine.context(".*check(out)?$", { budget: 2000 })).resolvedAs).toBe("search");
  });
});

describe("search and pack", () => {
  it("ranks name matches above docstring matches", async () => {
    const { engine } = memoryEngine(project);
    const hits = await engine.search("charge");
    expect(hits[0]!.qualified).toBe("shop.checkout.charge");
    expect(hits[0]!.matched).toContain("name");
    const docHit = hits.find((h) => h.qualified === "shop.checkout.checkout");
    expect(docHit).toBeDefined();
    expect(docHit!.score).toBeLessThan(hits[0]!.score);
    expect((await errorOf(engine.search("the of and"))).code).toBe("invalid_argument");
  });

  it("after edits, the carried-over search index answers exactly as a fresh build does", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 6; i++) {
      files[`shop/mod${i}.py`] =
        `def charge_card_${i}(amount):\n    """Charge a card for the amount."""\n    return amount\n\n\ndef refund_order_${i}(order):\n    return charge_card_${i}(order)\n`;
    }
    const { engine, platform } = memoryEngine(files);
    const queries = ["charge", "refund order", "card amount", "rename target", "brand new helper", "mod3"];
    const answers = async (e: typeof engine) =>
      Promise.all(
        queries.map((q) =>
          e.search(q, { limit: 50 }).then((hits) => hits.map((h) => `${h.qualified}@${h.path}:${h.line} ${h.score}`)),
        ),
      );
    const current = { ...files };
    const put = (path: string, text: string) => () => {
      current[path] = text;
      platform.fs.write(path, text);
    };
    const steps: [string, () => void][] = [
      [
        "rename inside one file",
        put("shop/mod2.py", files["shop/mod2.py"]!.replace("refund_order_2", "rename_target_2")),
      ],
      // One more definition in an early file shifts the graph ids of every later file.
      [
        "grow an early file",
        put("shop/mod0.py", `def brand_new_helper():\n    return 0\n\n\n${files["shop/mod0.py"]}`),
      ],
      ["add a file", put("shop/extra.py", "def charge_extra(amount):\n    return amount\n")],
      [
        "remove a file",
        () => {
          delete current["shop/mod4.py"];
          platform.fs.remove("shop/mod4.py");
        },
      ],
      // Enough re-indexing of one file that the tombstones pass the share that forces a rebuild.
      ...Array.from({ length: 6 }, (_, k): [string, () => void] => [
        `edit again (${k})`,
        put("shop/mod1.py", files["shop/mod1.py"]!.replace("return amount", `return amount + ${k}`)),
      ]),
    ];
    await answers(engine); // builds the index that the steps below carry forward
    for (const [what, step] of steps) {
      step();
      await engine.refresh();
      expect(await answers(engine), what).toEqual(await answers(memoryEngine({ ...current }).engine));
    }
    const names = (await engine.search("rename target")).map((h) => h.qualified);
    expect(names).toContain("shop.mod2.rename_target_2");
    expect((await engine.search("refund order", { limit: 50 })).map((h) => h.qualified)).not.toContain(
      "shop.mod2.refund_order_2",
    );
    expect((await engine.search("charge", { limit: 50 })).map((h) => h.path)).not.toContain("shop/mod4.py");
  });

  it("pack seeds from several search hits", async () => {
    const { engine } = memoryEngine(project);
    const a = await engine.pack("charge the cart total at checkout", { budget: 3000 });
    expect(a.resolvedAs).toBe("search");
    expect(a.seeds.length).toBeGreaterThan(1);
    expect(countTokens(a.text)).toBeLessThanOrEqual(3000);
  });
});

describe("files read only in part", () => {
  const project = parseFixture(`#- app/config.py
class Settings:
    def describe(self):
        return "settings"
#- app/broken.py
from app.config import Settings


def load(name):
    s = Settings()
    return s.describe(


def save(x):
    return x
#- app/clean.py
from app.config import Settings


def show():
    return Settings().describe()
`);

  it("an answer whose neighbourhood holds a file with syntax errors names the file, the broken lines, and the chunk they fall in", async () => {
    const { engine } = memoryEngine(project);
    const answer = await engine.context("app.config.Settings", { budget: 2000 });
    const brokenLine = project["app/broken.py"]!.split("\n").findIndex((l) => l.includes("s.describe(")) + 1;
    const note = answer.notes.find((n) => n.startsWith("app/broken.py has syntax errors"));
    expect(note).toBeDefined();
    expect(note).toMatch(new RegExp(`lines? ${brokenLine}\\b`));
    expect(answer.text).toContain(`Note: ${note}`);
    expect(answer.notes.some((n) => n.startsWith("app/clean.py"))).toBe(false);
  });

  it("the map lists the files read only in part, with their broken lines", async () => {
    const { engine } = memoryEngine(project);
    const map = await engine.map({ budget: 2000 });
    const brokenLine = project["app/broken.py"]!.split("\n").findIndex((l) => l.includes("s.describe(")) + 1;
    expect(map.readPartly.files).toBe(1);
    expect(map.readPartly.list[0]!.path).toBe("app/broken.py");
    expect(map.readPartly.list[0]!.lines).toContain(brokenLine);
    expect(map.text).toMatch(/## Read only in part: 1 file with syntax errors/);
    expect(map.text).toContain(`- app/broken.py: line ${brokenLine}`);
    const clean = memoryEngine({ "app/config.py": project["app/config.py"]! }).engine;
    const cleanMap = await clean.map({ budget: 2000 });
    expect(cleanMap.readPartly.files).toBe(0);
    expect(cleanMap.text).not.toContain("Read only in part");
  });

  it("an answer far from the broken file says nothing about it", async () => {
    const { engine } = memoryEngine(project);
    const answer = await engine.context("app/clean.py::show", { budget: 2000 });
    expect(answer.chunks.some((c) => c.path === "app/broken.py")).toBe(false);
    expect(answer.notes.some((n) => n.includes("syntax errors"))).toBe(
      answer.cut.some((c) => c.path === "app/broken.py"),
    );
  });
});
