/**
 * Structured content adds to the text, never repeats it (issue 24 item 6): for every tool, through
 * a real MCP Client, the structured content holds ids, paths, lines and numbers and shares no
 * string of 40 or more characters with the text but the ids and paths both cite (the prose lives
 * in the text only), reads back as the tool's declared shape (`expandContent`), and is no larger
 * than the text in tokens: on the small shop fixture (where what every answer carries weighs
 * most), served alone and as the first repository of a group (with `repos`), on a project of
 * real size (codeslice's own source), and for `run_tests` on a failing pytest test.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { createEngine } from "../../src/core/engine/engine.ts";
import { createEngineGroup } from "../../src/index.ts";
import { TOOL_NAMES } from "../../src/mcp/server.ts";
import { createNodePlatform } from "../../src/platform/node/index.ts";
import { memoryPlatform } from "../support/platform.ts";
import {
  call,
  connect,
  FIXTURE,
  fixtureDir,
  removeTemps,
  repoRoot,
  tempDir,
  type Answer,
  type Connected,
} from "./support.ts";

afterAll(removeTemps);

/** The shop fixture with tests for each language, so `tests` and `impact` have test names and commands to give. */
const PROJECT = `${FIXTURE}
//- codeslice.check.json
{ "forbid": [{ "from": "web/**", "to": "shop/**" }], "fileSize": { "maxLines": 12 } }
//- package.json
{ "name": "shop-web", "devDependencies": { "vitest": "4.1.12" } }
//- web/src/cart.test.ts
import { describe, expect, it } from "vitest";
import { Cart } from "./cart";
import { checkoutLabel } from "./app";

describe("the cart of a returning customer with a long name", () => {
  it("totals the prices of every item added to the cart in euros", () => {
    const cart = new Cart();
    cart.add(100);
    expect(cart.total()).toBe("1.00 EUR");
  });
  it("labels the checkout button with the total of the cart in euros", () => {
    expect(checkoutLabel()).toBe("12.50 EUR");
  });
});
//- shop/api.py
from fastapi import FastAPI

from shop.service import checkout, register

app = FastAPI()


@app.post("/orders")
def place_order(name: str, total: float) -> dict:
    return {"total": checkout(register(name), total).total}
//- tests/test_service.py
from shop.service import checkout, register


def test_register_greets_and_saves_a_new_customer_with_a_long_name():
    register("ann")


def test_checkout_places_an_order_for_a_registered_customer():
    checkout(register("bob"), 10.0)
`;

const DIFF = `diff --git a/shop/service.py b/shop/service.py
--- a/shop/service.py
+++ b/shop/service.py
@@ -12,5 +12,6 @@ def register(name: str) -> User:
 def checkout(user: User, total: float) -> Order:
     """Place an order for a user."""
     order = Order(user, total)
+    order.user.greet()
     order.save()
     return order
`;

/** A second repository for the group: a job that calls the shop over HTTP. */
const OPS = `
//- ops/client.py
import httpx


def fetch_orders():
    """The shop's orders, as JSON."""
    return httpx.get("http://shop.internal/orders").json()
//- ops/jobs.py
from ops.client import fetch_orders


def nightly_report():
    """Count the orders of the day."""
    return len(fetch_orders())
`;

/** A project whose one test fails, for run_tests (its id and command are longer than 40 characters). */
const FAILING = {
  "pytest.ini": "[pytest]\npythonpath = .\n",
  "app/__init__.py": "",
  "app/a.py": "def run():\n    return 42\n",
  "tests/test_a.py":
    "from app.a import run\n\n\ndef test_run_answers_the_question_of_life_the_universe_and_everything():\n" +
    "    assert run() == 43\n",
};
const hasPytest = spawnSync("pytest", ["--version"], { encoding: "utf8" }).status === 0;

/** One call per tool, with arguments that give a full answer on the fixture. */
const CALLS: Record<string, Record<string, unknown>> = {
  repo_map: {},
  locate: { task: "Checkout of a registered user places an order but the order is never saved" },
  context: { target: "shop.service.checkout", budget: 3000 },
  search: { query: "greeting", limit: 5 },
  signature: { symbol: "User" },
  callers: { symbol: "formatPrice" },
  callees: { symbol: "shop.service.register", depth: 2 },
  importers: { file: "web/src/format.ts", depth: 2 },
  tests: { target: "Cart.total" },
  trace: { from: "checkoutLabel", to: "formatPrice" },
  read_snippet: { path: "shop/service.py", start_line: 4, end_line: 10 },
  pack: { task: "place an order checkout", budget: 3000 },
  impact: { target: "shop.models.format_greeting" },
  changes: { diff: DIFF, target: "POST /orders" },
  shape_check: { target: "User", rename: ["name=full_name"] },
  check: {},
  grep: { pattern: "def \\w+\\(" },
  rename: { symbol: "formatPrice", new_name: "formatAmount" },
  query: { q: "MATCH (a:Symbol)-[:CALLS]->(b:Symbol {name: 'formatPrice'}) RETURN a.qualified" },
  dataflow: { target: "shop.service.checkout", variable: "order" },
};

/** Every string in a JSON value. */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value && typeof value === "object") for (const v of Object.values(value)) strings(v, out);
  return out;
}

/**
 * Structured strings of 40+ characters that share a 40-character run with the text. Ids and paths
 * (no whitespace: `shop.models.User.greet`, `web/src/cart.ts:12`) are what both cite and are not
 * counted; a test's display name, a command, a note or a source line has spaces and is.
 */
function shared(a: Answer, min = 40): string[] {
  const found: string[] = [];
  for (const s of strings(a.raw.structuredContent)) {
    if (!/\s/.test(s)) continue;
    for (let i = 0; i + min <= s.length; i++) {
      if (a.text.includes(s.slice(i, i + min))) {
        found.push(s.length > 80 ? `${s.slice(0, 80)}…` : s);
        break;
      }
    }
  }
  return found;
}

/** Tokens of the text and of the structured content as sent. */
const sizes = (a: Answer) => ({
  text: countTokens(a.text),
  structured: countTokens(JSON.stringify(a.raw.structuredContent)),
});

/** The rules for one answer: no prose in both, and structured content no larger than the text. */
function holds(a: Answer, label: string): void {
  expect(a.isError, a.text).toBe(false);
  const { text, structured } = sizes(a);
  if (process.env.PRINT_SIZES) console.log(`${label}: structured ${structured}, text ${text}`);
  expect(shared(a), `strings in both: ${JSON.stringify(shared(a))}`).toEqual([]);
  expect(structured, `structured ${structured} vs text ${text} tokens`).toBeLessThanOrEqual(text);
}

/** codeslice's own source and its budget and graph tests: answers of the size an agent gets on a real project. */
function ownSource(): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(repoRoot, rel), { withFileTypes: true })) {
      const p = `${rel}/${e.name}`;
      if (e.isDirectory()) walk(p);
      else if (/\.(ts|json)$/.test(e.name)) files[p] = fs.readFileSync(path.join(repoRoot, p), "utf8");
    }
  };
  for (const dir of ["src/core", "src/mcp", "src/shared", "test/budget", "test/graph"]) walk(dir);
  files["package.json"] = fs.readFileSync(path.join(repoRoot, "package.json"), "utf8");
  // This repository's layer rules, and a size rule its longest files break: findings to list.
  const config = JSON.parse(fs.readFileSync(path.join(repoRoot, "codeslice.check.json"), "utf8"));
  files["codeslice.check.json"] = JSON.stringify({ ...config, fileSize: { maxLines: 600 } });
  return files;
}

/** One call per tool on codeslice's own source. */
const OWN_CALLS: Record<string, Record<string, unknown>> = {
  repo_map: {},
  locate: { task: "The fitter drops a chunk that does not fit the budget even when an outline would fit" },
  context: { target: "fitBlocks" },
  search: { query: "token budget fitter" },
  signature: { symbol: "createEngine" },
  callers: { symbol: "fitBlocks" },
  callees: { symbol: "buildGraph" },
  importers: { file: "src/core/budget/fit.ts" },
  tests: { target: "fitBlocks" },
  trace: { from: "buildContext", to: "fitBlocks" },
  read_snippet: { path: "src/core/budget/fit.ts", start_line: 1, end_line: 40 },
  pack: { task: "make the fitter keep outlines of chunks it cuts" },
  impact: { target: "fitBlocks" },
  changes: { diff: ownDiff() },
  shape_check: { target: "ContextAnswer", remove: ["cut"] },
  check: {},
  grep: { pattern: "fitBlocks\\(" },
  rename: { symbol: "fitBlocks", new_name: "fitAllBlocks" },
  query: { q: "MATCH (a:Symbol)-[:CALLS]->(b:Symbol {name: 'fitBlocks'}) RETURN a.qualified" },
  dataflow: { target: "fitBlocks" },
};

/** A one-line change to fitBlocks, as `git diff` prints it. */
function ownDiff(): string {
  const text = fs.readFileSync(path.join(repoRoot, "src/core/budget/fit.ts"), "utf8").split("\n");
  const at = text.findIndex((l) => /^export function fitBlocks\b/.test(l));
  const ctx = text.slice(at, at + 3);
  return [
    "diff --git a/src/core/budget/fit.ts b/src/core/budget/fit.ts",
    "--- a/src/core/budget/fit.ts",
    "+++ b/src/core/budget/fit.ts",
    `@@ -${at + 1},3 +${at + 1},4 @@`,
    ` ${ctx[0]}`,
    "+  // the budget covers the envelope too",
    ` ${ctx[1]}`,
    ` ${ctx[2]}`,
    "",
  ].join("\n");
}

describe("structured content adds to the text, never repeats it", () => {
  let fixture: Connected | undefined;
  let own: Connected | undefined;
  let group: Connected | undefined;
  let opsEngine: { close(): void } | undefined;
  afterAll(async () => {
    await fixture?.close();
    await own?.close();
    await group?.close();
    opsEngine?.close();
  });

  it("covers every tool", () => {
    expect(Object.keys(CALLS).sort()).toEqual([...TOOL_NAMES].sort());
    expect(Object.keys(OWN_CALLS).sort()).toEqual([...TOOL_NAMES].sort());
  });

  for (const tool of Object.keys(CALLS)) {
    it(`${tool}: on a small project, structured ≤ text in tokens, no prose in both, and it reads back as the tool's shape`, async () => {
      if (!fixture) {
        const platform = memoryPlatform(PROJECT);
        fixture = await connect(createEngine(platform), { fs: platform.fs });
      }
      holds(await call(fixture.client, tool, CALLS[tool]!), `${tool} (fixture)`);
    });
  }

  // Served as a group, every answer names its repository and its citations read repo:path:line.
  for (const tool of [...Object.keys(CALLS), "repos"]) {
    it(`${tool}: in a group of two repositories, structured ≤ text in tokens and no prose in both`, async () => {
      if (!group) {
        const shop = memoryPlatform(PROJECT);
        const ops = memoryPlatform(OPS);
        const engines = createEngineGroup([
          { name: "shop", engine: createEngine(shop), root: "/shop" },
          { name: "ops", engine: createEngine(ops), root: "/ops" },
        ]);
        group = await connect(engines.members[0]!.engine, { fs: shop.fs, group: engines });
        opsEngine = engines.members[1]!.engine;
      }
      const args = tool === "repos" ? {} : { ...CALLS[tool]!, repo: "shop" };
      holds(await call(group.client, tool, args), `${tool} (group)`);
    });
  }

  it.skipIf(!hasPytest)(
    "run_tests: on a failing pytest test, structured ≤ text in tokens and no prose in both",
    async () => {
      const root = fixtureDir(FAILING);
      const platform = await createNodePlatform({ root, cacheDir: path.join(tempDir("codeslice-run-cache-"), "c") });
      const run = await connect(createEngine(platform), { fs: platform.fs, allowRun: true });
      try {
        const a = await call(run.client, "run_tests", { target: "app.a.run", timeout: 60 });
        expect(a.text).toContain("test_run_answers_the_question_of_life_the_universe_and_everything");
        expect(a.data).toMatchObject({ passed: false, runs: [{ runner: "pytest", exitCode: 1 }] });
        holds(a, "run_tests");
      } finally {
        await run.close();
      }
    },
    120_000,
  );

  // repo_map's other kinds (the route map and the tool map folded into it) hold to the same rules.
  for (const args of [{ kind: "routes" }, { kind: "tools" }]) {
    it(`repo_map kind ${args.kind}: on codeslice's own source, structured ≤ text in tokens and no prose in both`, async () => {
      if (!own) {
        const platform = memoryPlatform(ownSource());
        own = await connect(createEngine(platform), { fs: platform.fs });
      }
      const a = await call(own.client, "repo_map", args);
      expect(a.isError, a.text).toBe(false);
      expect(shared(a), `strings in both: ${JSON.stringify(shared(a))}`).toEqual([]);
      expect(sizes(a).structured).toBeLessThanOrEqual(sizes(a).text);
    }, 60_000);
  }

  for (const tool of Object.keys(OWN_CALLS)) {
    it(`${tool}: on codeslice's own source, structured ≤ text in tokens and no prose in both`, async () => {
      if (!own) {
        const platform = memoryPlatform(ownSource());
        own = await connect(createEngine(platform), { fs: platform.fs });
      }
      holds(await call(own.client, tool, OWN_CALLS[tool]!), `${tool} (own source)`);
    }, 60_000);
  }
});
