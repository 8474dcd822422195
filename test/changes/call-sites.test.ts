/**
 * `changes` checks every call of a changed signature against the new parameters (issue 24, "what
 * breaks"): a call that bound to the old parameters and no longer binds to the new ones is listed
 * with its `path:line` and the reason, surest first, and its caller comes first among the callers.
 * Real git repositories, a working-tree edit each, Python and TypeScript.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createEngine } from "../../src/index.ts";
import { createNodePlatform } from "../../src/platform/node/index.ts";
import { bindError, callArguments, parametersOf, PYTHON_PARAMETERS, JS_PARAMETERS } from "../../src/languages/arity.ts";
import { readCall } from "../../src/core/changes/call-sites.ts";

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) fs.rmSync(t, { recursive: true, force: true });
});
const gitEnv = {
  ...process.env,
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@example.com",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@example.com",
  GIT_CONFIG_NOSYSTEM: "1",
  HOME: os.tmpdir(),
};

/** A committed repository of `files`, then `edit` applied to the working tree; the changes answer. */
async function changesAfter(files: Record<string, string>, edit: Record<string, string>) {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-callsites-")));
  temps.push(root);
  const git = (...args: string[]) => execFileSync("git", ["-C", root, ...args], { env: gitEnv, stdio: "ignore" });
  git("init", "-q", "-b", "main");
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  git("add", "-A");
  git("commit", "-q", "-m", "one");
  for (const [rel, text] of Object.entries(edit)) fs.writeFileSync(path.join(root, rel), text);
  const engine = createEngine(await createNodePlatform({ root, cacheDir: path.join(root, ".codeslice") }));
  try {
    return await engine.changes({ budget: 4000 });
  } finally {
    engine.close();
  }
}

const PRICING = `def price(amount, currency="EUR"):
    return (amount, currency)
`;
const USES = `from pricing import price


def one():
    return price(10)


def two():
    return price(10, "USD")


def three():
    return price(amount=10, currency="USD")


def four(args):
    return price(*args)
`;

describe("changes: calls a changed signature breaks", () => {
  it("Python: a new required parameter breaks the calls that do not pass it, not the spread one", async () => {
    const a = await changesAfter(
      { "pricing.py": PRICING, "uses.py": USES },
      { "pricing.py": PRICING.replace('def price(amount, currency="EUR"):', "def price(amount, currency, rounding):") },
    );
    const broken = a.callSites.breaking.map((b) => `${b.path}:${b.line} ${b.reason}`);
    expect(broken).toEqual([
      "uses.py:5 leaves out `currency`, which has no default",
      "uses.py:9 leaves out `rounding`, which has no default",
      "uses.py:13 leaves out `rounding`, which has no default",
    ]);
    // The spread call cannot be decided from its text; it is not reported as breaking.
    expect(a.callSites.checked).toBe(4);
    expect(a.text).toContain("Calls of changed signatures: 4 call sites checked against the new parameters, 3 break:");
    expect(a.text).toContain("- uses.py:5 in uses.one: `price(10)` leaves out `currency`, which has no default");
  });

  it("Python: a renamed keyword breaks the calls that name it; a parameter with a default breaks nothing", async () => {
    const renamed = await changesAfter(
      { "pricing.py": PRICING, "uses.py": USES },
      { "pricing.py": PRICING.replace('currency="EUR"', 'unit="EUR"').replace("(amount, currency)", "(amount, unit)") },
    );
    expect(renamed.callSites.breaking.map((b) => `${b.line} ${b.reason}`)).toEqual([
      "13 passes `currency=`; it has no parameter named `currency`",
    ]);
    const widened = await changesAfter(
      { "pricing.py": PRICING, "uses.py": USES },
      { "pricing.py": PRICING.replace('currency="EUR"):', 'currency="EUR", rounding=2):') },
    );
    expect(widened.callSites.breaking).toEqual([]);
    expect(widened.callSites.checked).toBe(4);
  });

  it("Python: a method called through an object skips self; a dropped parameter breaks the call that passes it; the breaking caller comes first", async () => {
    const cart = `class Cart:
    def total(self, discount=0):
        return 0 - discount
`;
    const uses = `from cart import Cart


def a_plain(c: Cart):
    return c.total()


def b_discounted(c: Cart):
    return c.total(5)
`;
    const a = await changesAfter(
      { "cart.py": cart, "uses.py": uses },
      { "cart.py": cart.replace("def total(self, discount=0):", "def total(self):").replace("0 - discount", "0") },
    );
    expect(a.callSites.breaking.map((b) => `${b.caller} ${b.reason}`)).toEqual([
      "uses.b_discounted passes 1 positional argument; it takes at most 0",
    ]);
    const callers = a.chunks.filter((c) => c.role === "caller").map((c) => c.symbol);
    expect(callers[0]).toBe("uses.b_discounted");
    expect(a.text).toContain("[caller] uses.b_discounted (breaks calling cart.Cart.total at line 9)");
  });

  it("Python: a class whose bases change (made generic) breaks no call of the class", async () => {
    // click 4ece17a1 made `Choice` generic: `class Choice(ParamType, t.Generic[V])` lists bases, not parameters.
    const types =
      "import typing as t\n\n\nclass ParamType:\n    pass\n\n\nclass Choice(ParamType):\n    def __init__(self, choices, case_sensitive=True):\n        self.choices = choices\n";
    const uses = 'from types_ import Choice\n\n\ndef make():\n    return Choice(["a", "b"])\n';
    const a = await changesAfter(
      { "types_.py": types, "uses.py": uses },
      { "types_.py": types.replace("class Choice(ParamType):", "class Choice(ParamType, t.Generic[t.Any]):") },
    );
    expect(a.symbols.find((s) => s.name === "Choice")?.change).toBe("signature");
    expect(a.callSites.breaking).toEqual([]);
  });

  it("TypeScript: one argument too many, or a required one missing, across files", async () => {
    const lib = "export function scale(x: number, factor = 2): number {\n  return x * factor;\n}\n";
    const app =
      'import { scale } from "./lib";\n\nexport function big(): number {\n  return scale(3, 4);\n}\n\nexport function small(): number {\n  return scale(3);\n}\n';
    const dropped = await changesAfter(
      { "lib.ts": lib, "app.ts": app },
      { "lib.ts": lib.replace("(x: number, factor = 2)", "(x: number)").replace("x * factor", "x * 2") },
    );
    expect(dropped.callSites.breaking.map((b) => `${b.path}:${b.line} ${b.reason}`)).toEqual([
      "app.ts:4 passes 2 positional arguments; it takes at most 1",
    ]);
    const required = await changesAfter(
      { "lib.ts": lib, "app.ts": app },
      { "lib.ts": lib.replace("factor = 2", "factor: number") },
    );
    expect(required.callSites.breaking.map((b) => `${b.path}:${b.line} ${b.reason}`)).toEqual([
      "app.ts:8 leaves out `factor`, which has no default",
    ]);
  });
});

describe("binding a call to parameters", () => {
  const py = (sig: string, name: string, call: string[], through = false) => {
    const params = parametersOf(sig, name, PYTHON_PARAMETERS, through)!;
    return bindError(params, callArguments(call, PYTHON_PARAMETERS));
  };
  it("Python keyword-only, positional-only, *args and **kwargs", () => {
    expect(py("def f(a, *, b):", "f", ["1", "b=2"])).toBeUndefined();
    expect(py("def f(a, *, b):", "f", ["1", "2"])).toBe("passes 2 positional arguments; it takes at most 1");
    expect(py("def f(a, /, b):", "f", ["a=1", "b=2"])).toBe("passes `a=`; it has no parameter named `a`");
    expect(py("def f(a, *rest, **kw):", "f", ["1", "2", "3", "x=4"])).toBeUndefined();
    expect(py("def f(a, b=1):", "f", ["1", "a=2"])).toBe("passes `a` twice (by position and by name)");
    expect(py("def m(self, a):", "m", ["1"], true)).toBeUndefined();
    expect(py("def m(self, a):", "m", ["**opts"], true)).toBeUndefined();
  });
  it("TypeScript optional names, rest parameters and this", () => {
    const ts = (sig: string, call: string[]) =>
      bindError(parametersOf(sig, "f", JS_PARAMETERS, false)!, callArguments(call, JS_PARAMETERS));
    expect(ts("function f(this: Window, a: number, b?: string)", ["1"])).toBeUndefined();
    expect(ts("function f(a: number, ...more: number[])", ["1", "2", "3"])).toBeUndefined();
    expect(ts("function f(a: number, b: { x: number; y: number })", ["1"])).toBe(
      "leaves out `b`, which has no default",
    );
    expect(ts("function f(a: number)", ["...xs"])).toBeUndefined();
  });
  it("reads a call's arguments across lines, with strings, brackets and comments", () => {
    const lines = [
      "    total = price(  # the unit price",
      '        amount=f(1, 2), currency="a, b",',
      "        items=[1, 2],",
      "    )",
    ];
    const call = readCall(lines, 1, "price")!;
    expect(call.args.map((a) => a.trim())).toEqual(["amount=f(1, 2)", 'currency="a, b"', "items=[1, 2]", ""]);
    expect(call.text).toBe('price( amount=f(1, 2), currency="a, b", items=[1, 2], )');
    expect(callArguments(call.args, PYTHON_PARAMETERS)).toEqual({
      positional: 0,
      keywords: ["amount", "currency", "items"],
      spread: false,
      keywordSpread: false,
    });
    expect(readCall(["x = a.price(1) + price(2)"], 1, "price")).toBeUndefined();
    expect(readCall(["cart.total(5)"], 1, "total")?.throughObject).toBe(true);
  });
});
