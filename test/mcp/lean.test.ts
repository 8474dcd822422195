/**
 * The lean form of structured content (src/mcp/lean.ts) reads back as the data it came from, less
 * its prose: every rule (zeros and empties left out, sites as `path:line` or a line, a path the
 * qualified name holds, `#name` in an entry of the same file, `name:line` entries, tables with
 * shared values and nested tables) round-trips through `expandContent`.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { expandContent, leanContent, withoutProse } from "../../src/mcp/lean.ts";

const site = z.object({ path: z.string(), line: z.int() });
const schema = z.object({
  symbol: z.object({ qualified: z.string(), kind: z.string(), path: z.string(), line: z.int() }),
  results: z.array(
    z.object({
      qualified: z.string(),
      path: z.string(),
      line: z.int(),
      site,
      via: z.string(),
      confidence: z.number(),
      test: z.string().optional(),
    }),
  ),
  files: z.array(
    z.object({
      path: z.string(),
      score: z.number(),
      symbols: z.array(z.object({ qualified: z.string(), line: z.int() })),
    }),
  ),
  omitted: z.int(),
  truncated: z.boolean(),
  notes: z.array(z.string()),
  hop: z.object({ from: z.string(), toAt: site, code: z.string().optional() }),
});

const data = {
  symbol: { qualified: "src/format.ts#formatPrice", kind: "function", path: "src/format.ts", line: 2 },
  results: [
    {
      qualified: "src/cart.ts#Cart.total",
      path: "src/cart.ts",
      line: 11,
      site: { path: "src/cart.ts", line: 12 },
      via: "call",
      confidence: 0.95,
    },
    {
      qualified: "shop.models.User.greet",
      path: "shop/models.py",
      line: 10,
      site: { path: "shop/service.py", line: 7 },
      via: "call",
      confidence: 0.85,
      test: "t::x",
    },
  ],
  files: [
    {
      path: "src/fit.ts",
      score: 12.5,
      symbols: [
        { qualified: "src/fit.ts#fitBlocks", line: 442 },
        { qualified: "src/other.ts#x", line: 3 },
      ],
    },
    { path: "src/b.ts", score: 3, symbols: [{ qualified: "src/b.ts#b", line: 1 }] },
  ],
  omitted: 0,
  truncated: false,
  notes: ["budget lowered from 4000 to 1000 tokens"],
  hop: { from: "a", toAt: { path: "src/a.ts", line: 4 }, code: "return shared(value) + 0" },
};

describe("lean structured content", () => {
  it("reads back as the data, less its prose", () => {
    const lean = leanContent(data);
    const { notes: _n, ...rest } = data;
    const { code: _c, ...hop } = data.hop;
    expect(expandContent(lean, withoutProse(schema))).toEqual({ ...rest, hop });
    expect(withoutProse(schema).safeParse(expandContent(lean, withoutProse(schema))).success).toBe(true);
  });

  it("writes each rule in its short form", () => {
    const lean = leanContent(data) as Record<string, unknown>;
    expect(lean).not.toHaveProperty("notes");
    expect(lean).not.toHaveProperty("omitted");
    expect(lean).not.toHaveProperty("truncated");
    expect(lean.hop).toEqual({ from: "a", toAt: "src/a.ts:4" });
    expect(lean.results).toEqual([
      // A header in the order the entries first have the keys (the first entry's path is in its name),
      // then a row per entry; a Python name is written from its module (`.User.greet` in shop/models.py).
      ["qualified", "line", "site", { via: "call" }, "confidence", "path", "test"],
      ["src/cart.ts#Cart.total", 11, 12, 0.95, null, null],
      [".User.greet", 10, "shop/service.py:7", 0.85, "shop/models.py", "t::x"],
    ]);
    expect(lean.files).toEqual([
      ["path", "score", "symbols"],
      ["src/fit.ts", 12.5, ["#fitBlocks:442", "src/other.ts#x:3"]],
      ["src/b.ts", 3, ["#b:1"]],
    ]);
    // A column of tables with the same header names it once in the header.
    const nested = [
      {
        a: 1,
        xs: [
          { p: 1, q: 2 },
          { p: 3, q: 4 },
        ],
      },
      {
        a: 2,
        xs: [
          { p: 5, q: 6 },
          { p: 7, q: 8 },
        ],
      },
    ];
    expect(leanContent(nested)).toEqual([
      ["a", { xs: ["p", "q"] }],
      [
        1,
        [
          [1, 2],
          [3, 4],
        ],
      ],
      [
        2,
        [
          [5, 6],
          [7, 8],
        ],
      ],
    ]);
    const nestedSchema = z.array(z.object({ a: z.int(), xs: z.array(z.object({ p: z.int(), q: z.int() })) }));
    expect(expandContent(leanContent(nested), nestedSchema)).toEqual(nested);
  });

  it("keeps one entry an object, leaves out the values most answers share, and reads them back", () => {
    const oneSchema = z.object({
      resolvedAs: z.string(),
      usage: z.object({ tokens: z.int(), budget: z.int(), encoding: z.string() }),
      targets: z.array(z.object({ qualified: z.string(), kind: z.string(), path: z.string(), line: z.int() })),
      chunks: z.array(z.object({ path: z.string(), symbol: z.string(), start: z.int() })),
    });
    const one = {
      resolvedAs: "symbol",
      usage: { tokens: 309, budget: 3000, encoding: "o200k_base" },
      targets: [{ qualified: "shop.models.format_greeting", kind: "function", path: "shop/models.py", line: 31 }],
      chunks: [
        { path: "shop/service.py", symbol: "shop.service.checkout", start: 12 },
        { path: "shop/__init__.py", symbol: "shop.VERSION", start: 1 },
        { path: "src/pkg/mod.py", symbol: "pkg.mod.f", start: 3 },
      ],
    };
    const lean = leanContent(one) as Record<string, unknown>;
    expect(lean).toEqual({
      usage: { tokens: 309, budget: 3000 },
      targets: [{ qualified: ".format_greeting", kind: "function", path: "shop/models.py", line: 31 }],
      // Only a name the file's dotted path begins with is shortened: not a package's __init__, not src/.
      chunks: [
        ["path", "symbol", "start"],
        ["shop/service.py", ".checkout", 12],
        ["shop/__init__.py", "shop.VERSION", 1],
        ["src/pkg/mod.py", "pkg.mod.f", 3],
      ],
    });
    expect(expandContent(lean, oneSchema)).toEqual(one);
    const other = { ...one, resolvedAs: "file", usage: { ...one.usage, encoding: "cl100k_base" } };
    expect(leanContent(other)).toMatchObject({ resolvedAs: "file", usage: { encoding: "cl100k_base" } });
    expect(expandContent(leanContent(other), oneSchema)).toEqual(other);
  });

  it("leaves out a count the list beside it gives, and keeps one that differs", () => {
    const countSchema = z.object({
      directories: z.array(z.object({ path: z.string(), count: z.int() })),
      directoryCount: z.int(),
      files: z.array(z.string()),
      fileCount: z.int(),
    });
    const whole = {
      directories: [{ path: "shop", count: 3 }],
      directoryCount: 1,
      files: ["a.py", "b.py"],
      fileCount: 2,
    };
    expect(leanContent(whole)).toEqual({ directories: [{ path: "shop", count: 3 }], files: ["a.py", "b.py"] });
    expect(expandContent(leanContent(whole), countSchema)).toEqual(whole);
    // Listed in part (the first of 7): the count stays.
    const part = { ...whole, fileCount: 7 };
    expect(leanContent(part)).toMatchObject({ fileCount: 7 });
    expect(expandContent(leanContent(part), countSchema)).toEqual(part);
  });
});
