/**
 * The query language over a small Python project whose graph is written out by hand below: each
 * clause (MATCH with labels, properties and every relationship type, both directions and variable
 * length; WHERE; RETURN with DISTINCT, aliases and aggregates; ORDER BY; SKIP; LIMIT), parse
 * errors with their line and column, the refusals (writes, unbounded paths, over-budget results),
 * and flows and clusters on the same project.
 */
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { runQuery } from "../../src/core/query-language/query.ts";
import type { JsonValue } from "../../src/index.ts";
import { errorOf, memoryEngine, parseFixture } from "../support/platform.ts";

// The graph, by hand: show_cart → Cart (constructor), Cart.total (typed receiver); Cart.total →
// sum_items → helper; report → sum_items; main → report; test_sum → sum_items; test_helper → helper.
// Cart extends Base; Cart.total overrides Base.total. views.py and cli.py import models.py; the
// test file imports it too. One route: GET /cart → show_cart.
const PROJECT = parseFixture(`
  #- shop/__init__.py
  #- shop/models.py
  class Base:
      def total(self):
          return 0


  class Cart(Base):
      def __init__(self):
          self.items = []

      def total(self):
          return sum_items(self.items)


  def sum_items(items):
      return helper(items)


  def helper(items):
      return len(items)
  #- shop/views.py
  from flask import Flask
  from shop.models import Cart

  app = Flask(__name__)


  @app.route("/cart")
  def show_cart():
      cart = Cart()
      return cart.total()
  #- shop/cli.py
  import click
  from shop.models import sum_items


  @click.command()
  def report():
      sum_items([])


  def main():
      report()
  #- tests/test_models.py
  from shop.models import helper, sum_items


  def test_sum():
      assert sum_items([1]) == 1


  def test_helper():
      assert helper([]) == 0
`);

const { engine } = memoryEngine(PROJECT);
const rows = async (q: string, budget = 8000): Promise<JsonValue[][]> => (await engine.query(q, { budget })).rows;
const column = async (q: string): Promise<JsonValue[]> => (await rows(q)).map((r) => r[0]!);

describe("query: clauses", () => {
  it("MATCH a single hop with inline properties, incoming and outgoing", async () => {
    expect((await column("MATCH (a)-[:CALLS]->(b:Symbol {name: 'helper'}) RETURN a.qualified")).sort()).toEqual([
      "shop.models.sum_items",
      "tests.test_models.test_helper",
    ]);
    expect(await column("MATCH (b:Symbol {name: 'helper'})<-[:CALLS]-(a {name: 'sum_items'}) RETURN a.path")).toEqual([
      "shop/models.py",
    ]);
    expect(await column("MATCH (a:Symbol {name: 'sum_items'})-[:CALLS]->(b) RETURN b.name")).toEqual(["helper"]);
  });

  it("a relationship variable reads the edge: line, resolution and confidence", async () => {
    const r = await rows(
      "MATCH (a {name: 'show_cart'})-[c:CALLS]->(b {qualified: 'shop.models.Cart.total'}) RETURN c.line, c.resolution, c.confidence, type(c)",
    );
    expect(r).toEqual([[10, "type", 0.85, "CALLS"]]);
  });

  it("variable length reaches each node once at its fewest hops; length(r) is the hops", async () => {
    const r = await rows(
      "MATCH (a:Symbol)-[p:CALLS*1..3]->(b:Symbol {name: 'helper'}) RETURN a.name, length(p) ORDER BY a.name",
    );
    expect(r).toEqual([
      ["main", 3],
      ["report", 2],
      ["show_cart", 3],
      ["sum_items", 1],
      ["test_helper", 1],
      ["test_sum", 2],
      ["total", 2],
    ]);
    expect(await column("MATCH (a {name: 'main'})-[:CALLS*0..1]->(b) RETURN b.name ORDER BY b.name")).toEqual([
      "main",
      "report",
    ]);
  });

  it("WHERE: comparisons, string operators, IN, IS NULL, NOT, regular expressions", async () => {
    expect(
      await column(
        "MATCH (s:Symbol) WHERE s.path STARTS WITH 'shop/' AND s.kind = 'function' AND NOT s.name IN ['main', 'report'] RETURN s.name ORDER BY s.name",
      ),
    ).toEqual(["helper", "show_cart", "sum_items"]);
    expect(await column("MATCH (s:Symbol) WHERE s.name =~ 'te?st_.*' RETURN s.name ORDER BY s.name DESC")).toEqual([
      "test_sum",
      "test_helper",
    ]);
    expect(
      await column("MATCH (r:Route) WHERE r.handler IS NOT NULL AND r.path CONTAINS 'car' RETURN r.method"),
    ).toEqual(["GET"]);
  });

  it("RETURN: DISTINCT, aliases, count(*) with grouping, collect; ORDER BY an alias; SKIP and LIMIT", async () => {
    const a = await engine.query(
      "MATCH (a)-[:CALLS]->(b) RETURN b.name AS callee, count(*) AS n ORDER BY n DESC, callee LIMIT 2",
    );
    expect(a.columns).toEqual(["callee", "n"]);
    expect(a.rows).toEqual(
      [
        ["helper", 2],
        ["sum_items", 3],
      ].sort((x, y) => (y[1] as number) - (x[1] as number) || String(x[0]).localeCompare(String(y[0]))),
    );
    expect(
      await column(
        "MATCH (f:File)-[:IMPORTS]->(g:File {path: 'shop/models.py'}) RETURN DISTINCT f.path ORDER BY f.path SKIP 1 LIMIT 1",
      ),
    ).toEqual(["shop/views.py"]);
    expect(await rows("MATCH (f:File)-[:DEFINES]->(s) WHERE f.path = 'shop/cli.py' RETURN collect(s.name)")).toEqual([
      [["report", "main"]],
    ]);
    expect(await rows("MATCH (s:Symbol {name: 'nothing'}) RETURN count(*)")).toEqual([[0]]);
  });

  it("INHERITS, OVERRIDES, TESTS and SERVES", async () => {
    expect(await rows("MATCH (c)-[i:INHERITS]->(b) RETURN c.name, b.name, i.kind")).toEqual([
      ["Cart", "Base", "extends"],
    ]);
    expect(
      await column("MATCH (m)-[:OVERRIDES]->(b {qualified: 'shop.models.Base.total'}) RETURN m.qualified"),
    ).toEqual(["shop.models.Cart.total"]);
    expect(await column("MATCH (t:Test)-[:TESTS]->(s:Symbol {name: 'sum_items'}) RETURN t.id")).toEqual([
      "tests/test_models.py::test_sum",
    ]);
    expect(await rows("MATCH (r:Route)-[:SERVES]->(h) RETURN r.method, r.path, h.qualified")).toEqual([
      ["GET", "/cart", "shop.views.show_cart"],
    ]);
  });

  it("a path never uses one relationship twice (Cypher's rule): two callers of helper pair only with each other", async () => {
    expect(
      await rows("MATCH (a)-[:CALLS]->(x {name: 'helper'})<-[:CALLS]-(b) RETURN a.name, b.name ORDER BY a.name"),
    ).toEqual([
      ["sum_items", "test_helper"],
      ["test_helper", "sum_items"],
    ]);
  });

  it("a pattern in WHERE tests for a relationship: functions nothing calls, and callers of helper", async () => {
    expect(
      await column(
        "MATCH (f:Symbol {kind: 'function'}) WHERE f.path STARTS WITH 'shop/' AND NOT (f)<-[:CALLS]-() RETURN f.name ORDER BY f.name",
      ),
    ).toEqual(["main", "show_cart"]);
    expect(
      await column(
        "MATCH (f:Symbol) WHERE f.path STARTS WITH 'shop/' AND (f)-[:CALLS]->(:Symbol {name: 'helper'}) RETURN f.name",
      ),
    ).toEqual(["sum_items"]);
    // Arithmetic in parentheses is still arithmetic.
    expect(await rows("MATCH (f:Symbol {name: 'helper'}) RETURN (f.line) - (1)")).toEqual([[17]]); // helper is on line 18 of models.py
    const e = await errorOf(engine.query("MATCH (f:Symbol) WHERE (f)<-[:CALLS]-(g) RETURN f"));
    expect(e.data).toMatchObject({ reason: "unknown_variable", column: 39 });
  });

  it("two patterns join on a shared variable", async () => {
    expect(await column("MATCH (t:Test)-[:TESTS]->(s), (s)-[:CALLS]->(h {name: 'helper'}) RETURN t.name")).toEqual([
      "test_sum",
    ]);
  });

  it("nodes come back as handles in the text and as their properties in the rows", async () => {
    const a = await engine.query("MATCH (a {name: 'report'}) RETURN a");
    expect(a.text).toContain("shop.cli.report (function, shop/cli.py:6)");
    expect(a.rows[0]![0]).toMatchObject({
      label: "Symbol",
      qualified: "shop.cli.report",
      kind: "function",
      path: "shop/cli.py",
      line: 6,
    });
    expect(countTokens(a.text)).toBe(a.usage.tokens);
  });
});

describe("query: errors point at the column", () => {
  const cases: [string, string, number, string][] = [
    ["MATCH (a RETURN a", "syntax", 10, "RETURN"],
    ["MATCH (a)-[:CALLS]->(b) RETURN a.nmae", "unknown_property", 34, ""],
    ["MATCH (a:Fn) RETURN a", "unknown_label", 9, ""],
    ["MATCH (a)-[:CALL]->(b) RETURN a", "unknown_type", 13, ""],
    ["MATCH (a) WHERE x.name = 'y' RETURN a", "unknown_variable", 17, ""],
    ["MATCH (a) RETURN a LIMIT ten", "syntax", 26, "ten"],
    ["MATCH (a)\nWHERE a.name = 'x' AND\nRETURN a", "syntax", 1, "RETURN"],
    ["MATCH (a) RETURN foo(a)", "unknown_function", 18, ""],
    ["MATCH (a)-[r:CALLS*1..2]->(b) RETURN r.line", "type_error", 40, ""],
  ];
  for (const [q, reason, column, found] of cases) {
    it(`${reason}: ${JSON.stringify(q)}`, async () => {
      const e = await errorOf(engine.query(q));
      expect(e.code).toBe("invalid_query");
      expect(e.data).toMatchObject({ reason, column });
      if (found) expect(e.data).toMatchObject({ found });
    });
  }

  it("the line counts too, and the excerpt puts a caret under the column", async () => {
    const e = await errorOf(engine.query("MATCH (a)\nWHERE a.name = 'x' AND\nRETURN a"));
    expect(e.data).toMatchObject({ line: 3, column: 1, excerpt: "RETURN a\n^" });
  });
});

describe("query: refusals", () => {
  it("writes are refused at their keyword", async () => {
    for (const [q, column] of [
      ["CREATE (a:Symbol {name: 'x'})", 1],
      ["MATCH (a) SET a.name = 'x' RETURN a", 11],
      ["MATCH (a) DETACH DELETE a", 11],
      ["MERGE (a:File {path: 'x'})", 1],
    ] as const) {
      const e = await errorOf(engine.query(q));
      expect(e.data).toMatchObject({ reason: "write", column });
    }
  });

  it("a variable-length relationship needs an upper bound, at most 6", async () => {
    for (const [q, column] of [
      ["MATCH (a)-[:CALLS*]->(b) RETURN b", 18],
      ["MATCH (a)-[:CALLS*2..]->(b) RETURN b", 18],
      ["MATCH (a)-[:CALLS*1..7]->(b) RETURN b", 18],
    ] as const) {
      const e = await errorOf(engine.query(q));
      expect(e.data).toMatchObject({ reason: "unbounded", column, maxHops: 6 });
    }
  });

  it("Cypher outside the subset is named, not misread", async () => {
    expect((await errorOf(engine.query("MATCH (a) WITH a RETURN a"))).data).toMatchObject({
      reason: "unsupported",
      column: 11,
    });
    expect((await errorOf(engine.query("OPTIONAL MATCH (a) RETURN a"))).data).toMatchObject({
      reason: "unsupported",
      column: 1,
    });
  });

  it("a result over the token budget is refused with the rows that fit", async () => {
    const e = await errorOf(engine.query("MATCH (a:Symbol) RETURN a, a.qualified, a.path LIMIT 15", { budget: 150 }));
    expect(e.code).toBe("query_over_budget");
    expect(e.data).toMatchObject({ limit: "tokens", rows: 15, budget: 150 });
    const fits = (e.data as { fits: number }).fits;
    expect(fits).toBeGreaterThan(0);
    expect(fits).toBeLessThan(15);
    const ok = await engine.query(`MATCH (a:Symbol) RETURN a, a.qualified, a.path LIMIT ${fits}`, { budget: 150 });
    expect(ok.rows).toHaveLength(fits);
    expect(ok.usage.tokens).toBeLessThanOrEqual(150);
  });

  it("LIMIT over 1,000 rows and patterns past 500,000 combinations are refused; without LIMIT, 50 rows and a note", async () => {
    expect((await errorOf(engine.query("MATCH (a) RETURN a LIMIT 5000"))).data).toMatchObject({
      limit: "rows",
      maxRows: 1000,
    });
    expect((await errorOf(engine.query("MATCH (a), (b), (c), (d), (e) RETURN count(*)"))).data).toMatchObject({
      limit: "bindings",
      maxBindings: 500_000,
    });
    const a = await engine.query("MATCH (a), (b) RETURN a.name, b.name", { budget: 100_000 });
    expect(a.rows).toHaveLength(50);
    expect(a.truncated).toBe(true);
    expect(a.total).toBeGreaterThan(50);
    expect(a.text).toContain(`50 of ${a.total} rows shown`);
  });

  it("a query past its time limit stops with query_over_budget", async () => {
    const graph = await engine.codeGraph();
    const routes = await engine.routes();
    let t = 0;
    const e = await errorOf(
      runQuery(graph, routes, "MATCH (a), (b), (c) RETURN count(*)", { timeMs: 10 }, () => (t += 5)),
    );
    expect(e.data).toMatchObject({ limit: "time", timeMs: 10 });
  });

  it("the time limit holds inside one long variable-length walk too", async () => {
    // fan() calls 3,000 functions: one walk takes 3,000 edges and yields one row.
    const n = 3000;
    const defs = Array.from({ length: n }, (_, i) => `def f${i}():\n    pass\n`).join("\n");
    const calls = Array.from({ length: n }, (_, i) => `    m.f${i}()`).join("\n");
    const big = memoryEngine({ "m.py": defs, "hub.py": `import m\n\n\ndef fan():\n${calls}\n` }).engine;
    const graph = await big.codeGraph();
    // Both ends have one candidate: the walk starts from the first, fan, and matches f999 alone.
    const q = "MATCH (a:Symbol {name: 'fan'})-[:CALLS*1..2]->(b:Symbol {name: 'f999'}) RETURN count(b)";
    expect((await runQuery(graph, [], q)).rows).toEqual([[1]]);
    let t = 0;
    const e = await errorOf(runQuery(graph, [], q, { timeMs: 10 }, () => (t += 100)));
    expect(e.data).toMatchObject({ limit: "time", timeMs: 10 });
  });
});

describe("flows and clusters", () => {
  it("a flow per entry point, named by it and ranked by size", async () => {
    const a = await engine.flows();
    const byName = Object.fromEntries(a.flows.map((f) => [`${f.kind} ${f.name}`, f.size]));
    // show_cart → Cart, Cart.total (+ Cart.__init__ when the constructor call links it) → sum_items → helper.
    expect(byName["route GET /cart"]).toBeGreaterThanOrEqual(4);
    expect(byName["command report"]).toBe(2);
    expect(byName["main shop.cli.main"]).toBe(3);
    expect(byName["test tests/test_models.py::test_sum"]).toBe(2);
    expect(byName["test tests/test_models.py::test_helper"]).toBe(1);
    expect(a.flows[0]!.name).toBe("GET /cart");
    expect(a.entries).toMatchObject({ route: 1, command: 1, main: 1, test: 2 });
    expect((await engine.flows({ filter: "report" })).flows.map((f) => f.name)).toEqual(["report"]);
  });

  it("clusters cover the linked files once each, with a cohesion and the entries reaching them", async () => {
    const a = await engine.clusters();
    const files = a.clusters.flatMap((c) => c.files);
    expect(new Set(files).size).toBe(files.length);
    expect(files.sort()).toEqual(["shop/cli.py", "shop/models.py", "shop/views.py", "tests/test_models.py"]);
    for (const c of a.clusters) {
      expect(c.cohesion).toBeGreaterThanOrEqual(0);
      expect(c.cohesion).toBeLessThanOrEqual(1);
    }
    const models = a.clusters.find((c) => c.files.includes("shop/models.py"))!;
    expect(models.entries.map((e) => e.name)).toContain("GET /cart");
    expect(a.text).toContain("cohesion");
  });
});

describe("query: bad input never crashes", () => {
  it("deep nesting is refused at the token that goes too deep, not by the stack", async () => {
    for (const q of [
      `MATCH (a) WHERE ${"(".repeat(1500)}true${")".repeat(1500)} RETURN a`,
      `MATCH (a) WHERE ${"NOT ".repeat(900)}true RETURN a`,
      `MATCH (a) RETURN ${"-".repeat(3000)}1`,
    ]) {
      const e = await errorOf(engine.query(q));
      expect(e.code).toBe("invalid_query");
      expect(e.data).toMatchObject({ reason: "syntax" });
      expect(String(e.message)).toContain("nests deeper than 64");
    }
  });

  it("random text and cut-off queries get invalid_query or invalid_argument, never another error", async () => {
    const whole =
      "MATCH (a:Symbol {name: 'helper'})<-[c:CALLS*1..2]-(b) WHERE b.path STARTS WITH 'shop' AND c IS NOT NULL RETURN DISTINCT b.name AS n, count(*) ORDER BY n DESC SKIP 1 LIMIT 3";
    const inputs = [
      ...Array.from({ length: whole.length }, (_, i) => whole.slice(0, i)),
      "",
      "   ",
      "MATCH",
      "()",
      "MATCH (a)-[",
      "'",
      "`",
      "MATCH (a) RETURN a.",
      "MATCH (a) RETURN $x",
      "MATCH (a) RETURN a LIMIT -1",
      "\u0000\uffff",
    ];
    let seed = 26;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const alphabet = "()[]{}<>-:*.,|'\"=~ abcMATCHRETURNWHERE0123456789";
    for (let k = 0; k < 200; k++)
      inputs.push(
        Array.from(
          { length: 1 + Math.floor(random() * 60) },
          () => alphabet[Math.floor(random() * alphabet.length)],
        ).join(""),
      );
    for (const q of inputs) {
      try {
        await engine.query(q);
      } catch (error) {
        const code = (error as { code?: string }).code;
        expect(["invalid_query", "invalid_argument"], `${JSON.stringify(q)}: ${String(error)}`).toContain(code);
      }
    }
  });
});
