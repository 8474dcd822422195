/**
 * The rules of `check` on small real projects through the built CLI: import cycles, exports with
 * no callers, calls into deprecated code (a decorator, JSDoc @deprecated, warnings.warn with a
 * DeprecationWarning), forbidden imports, file sizes; the config read from each of its three
 * homes; a wrong or missing config refused with the key and the way out.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureCliBuilt, jsonOf, runCli, tempDirs } from "../support/cli.ts";

const temps = tempDirs("codeslice-check-rules-");
beforeAll(ensureCliBuilt, 300_000);
afterAll(temps.cleanup);

const project = temps.project;
const check = (root: string, ...args: string[]) => runCli(["check", "--root", root, "--quiet", ...args]);

const PY = {
  "shop/__init__.py": "",
  "shop/cart.py":
    'from shop.prices import price\nimport warnings\n\n\ndef total(items):\n    return sum(price(i) for i in items)\n\n\ndef old_total(items):\n    warnings.warn("use total", DeprecationWarning, stacklevel=2)\n    return total(items)\n',
  "shop/prices.py":
    'from shop.cart import total\nfrom typing_extensions import deprecated\n\n\ndef price(item):\n    return item.cost\n\n\n@deprecated("use price")\ndef legacy_price(item):\n    return price(item)\n\n\ndef unused_helper():\n    return total([])\n',
  "shop/views.py":
    "from shop.cart import old_total\nfrom shop.prices import legacy_price\n\n\ndef checkout(items):\n    return old_total(items) + legacy_price(items[0])\n",
  // A warning inside an `if` deprecates an argument, not the function; a project's own warning class counts.
  "shop/pay.py":
    'import warnings\n\n\nclass RemovedInShop2Warning(DeprecationWarning):\n    pass\n\n\ndef pay(amount, legacy=None):\n    if legacy is not None:\n        warnings.warn("legacy is ignored", DeprecationWarning)\n    return amount\n\n\ndef refund(amount):\n    warnings.warn("use pay(-amount)", RemovedInShop2Warning)\n    return pay(-amount)\n\n\ndef settle():\n    return pay(1) + refund(1)\n',
};

describe("rules on a Python project, config in pyproject.toml", () => {
  let root: string;
  beforeAll(() => {
    root = project({
      ...PY,
      "pyproject.toml":
        '[project]\nname = "shop"\n\n[tool.codeslice]\ncycles = true\ndeprecated = true\nnoCallers = { ignore = ["shop/views.py", "shop/pay.py"] }\n\n[[tool.codeslice.forbid]]\nfrom = "shop/views.py"\nto = "shop/prices.py"\nmessage = "views go through the cart"\n\n[tool.codeslice.fileSize]\nmaxLines = 12\n',
    });
  });

  it("prints each finding as path:line: rule: message and exits 1", () => {
    const r = check(root);
    expect(r.status).toBe(1);
    const lines = r.stdout.trim().split("\n");
    expect(lines).toContain("shop/cart.py:1: import-cycle: import cycle: shop/cart.py → shop/prices.py → shop/cart.py");
    expect(lines).toContain(
      "shop/views.py:6: deprecated-call: calls shop.cart.old_total, deprecated: warns DeprecationWarning (shop/cart.py:10) (shop/cart.py:9)",
    );
    expect(lines).toContain(
      "shop/views.py:6: deprecated-call: calls shop.prices.legacy_price, deprecated: decorated @deprecated (shop/prices.py:10)",
    );
    expect(lines).toContain(
      "shop/pay.py:20: deprecated-call: calls shop.pay.refund, deprecated: warns DeprecationWarning (shop/pay.py:15) (shop/pay.py:14)",
    );
    expect(r.stdout).not.toContain("calls shop.pay.pay");
    expect(lines).toContain("shop/views.py:2: forbidden-import: imports shop/prices.py: views go through the cart");
    expect(lines).toContain(
      "shop/prices.py:14: no-callers: exported function shop.prices.unused_helper has no callers and is imported by name nowhere",
    );
    expect(lines).toContain("shop/prices.py:1: file-size: 16 lines, over the limit of 12");
    // price and total are called; old_total calls total from inside deprecated code: no finding for that.
    expect(r.stdout).not.toMatch(/no-callers: .*\b(price|total|checkout)\b has/);
    expect(lines.at(-1)).toMatch(
      /^8 findings: 5 files, 4 imports checked against pyproject.toml \(tool.codeslice\) \(forbidden-import 1, import-cycle 1, no-callers 1, deprecated-call 3, file-size 2\)$/,
    );
  });

  it("--json carries the findings with their rule, path, line and related files", () => {
    const a = jsonOf<{
      findings: { rule: string; path: string; line: number; related?: { path: string }[] }[];
      rules: string[];
    }>(check(root, "--json"));
    expect(a.rules).toEqual(["forbidden-import", "import-cycle", "no-callers", "deprecated-call", "file-size"]);
    expect(a.findings.find((f) => f.rule === "import-cycle")).toMatchObject({
      path: "shop/cart.py",
      line: 1,
      related: [{ path: "shop/prices.py" }],
    });
  });
});

describe("JSDoc @deprecated and the config in package.json", () => {
  it("flags a call into a function documented @deprecated, and nothing once the rule is off", () => {
    const files = {
      "src/api.ts":
        "/**\n * Old entry.\n * @deprecated Use start().\n */\nexport function begin(): number {\n  return start();\n}\n\nexport function start(): number {\n  return 1;\n}\n",
      "src/main.ts": 'import { begin } from "./api.ts";\n\nexport function main(): number {\n  return begin();\n}\n',
    };
    const root = project({ ...files, "package.json": JSON.stringify({ name: "x", codeslice: { deprecated: true } }) });
    const r = check(root);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain(
      "src/main.ts:4: deprecated-call: calls src/api.ts#begin, deprecated: documented @deprecated (src/api.ts:5)",
    );
    const off = project({
      ...files,
      "package.json": JSON.stringify({ name: "x", codeslice: { deprecated: false, cycles: true } }),
    });
    const r2 = check(off);
    expect(r2.status).toBe(0);
    expect(r2.stdout.trim()).toMatch(
      /^ok: 2 files, 1 imports checked against package.json \(codeslice\) \(import-cycle 0\)$/,
    );
  });
});

describe("exports with no callers", () => {
  it("counts a function passed as a callback and one taken from a dynamic import as used", () => {
    const root = project({
      "codeslice.check.json": JSON.stringify({ noCallers: { ignore: ["src/main.ts"] } }),
      "src/util.ts":
        "export function double(x: number): number {\n  return 2 * x;\n}\n\nexport function apply(xs: number[]): number[] {\n  return xs.map(double);\n}\n\nexport function lonely(): number {\n  return 0;\n}\n",
      "src/main.ts":
        'export async function main(): Promise<number[]> {\n  const { apply } = await import("./util.ts");\n  return apply([1]);\n}\n',
    });
    const r = check(root);
    expect(r.status).toBe(1);
    expect(r.stdout.trim().split("\n")).toEqual([
      "src/util.ts:9: no-callers: exported function src/util.ts#lonely has no callers and is imported by name nowhere",
      expect.stringMatching(/^1 finding: 2 files/),
    ]);
  });
});

describe("a config that cannot be used", () => {
  it("names the file, the key and the reason for an unknown rule, a bad layer reference and bad JSON", () => {
    const base = { "a.py": "import b\n", "b.py": "x = 1\n" };
    const typo = check(project({ ...base, "codeslice.check.json": JSON.stringify({ cycle: true }) }));
    expect(typo.status).toBe(1);
    expect(typo.stderr).toMatch(/codeslice\.check\.json: cycle: unknown rule; known: layers, forbid, cycles/);
    const layer = check(
      project({
        ...base,
        "codeslice.check.json": JSON.stringify({ layers: [{ name: "app", files: "*.py", mayImport: ["lib"] }] }),
      }),
    );
    expect(layer.status).toBe(1);
    expect(layer.stderr).toMatch(/layers\.app\.mayImport: names no layer "lib"; layers: app/);
    const json = check(project({ ...base, "codeslice.check.json": "{ layers: [" }));
    expect(json.status).toBe(1);
    expect(json.stderr).toMatch(/codeslice\.check\.json is not valid: not JSON/);
  });

  it("says where it looked when there is no config, and --config reads one from elsewhere", () => {
    const root = project({ "a.py": "import b\n", "b.py": "import a\n" });
    const none = check(root);
    expect(none.status).toBe(1);
    expect(none.stderr).toMatch(
      /No check config: none of codeslice\.check\.json, package\.json, pyproject\.toml holds one/,
    );
    // The way out shows what a rule looks like and where the rest are (found on pytest, tryit6: it named the files only).
    expect(none.stderr).toContain('{"cycles": true');
    expect(none.stderr).toContain("codeslice check --help");
    const file = path.join(temps.make(), "rules.json");
    fs.writeFileSync(file, JSON.stringify({ cycles: true }));
    const given = check(root, "--config", file);
    expect(given.status).toBe(1);
    expect(given.stdout).toContain("a.py:1: import-cycle: import cycle: a.py → b.py → a.py");
  });
});
