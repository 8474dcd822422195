/**
 * A name looked up through star imports (C's `#include`) is walked through the include closure only
 * when some star-import target binds it itself (star-exports.ts): a macro or a function defined in
 * a `.c` file alone is "not found" at once, without a memo entry per header. Records come from the
 * real extractor over small fixtures.
 */
import { describe, expect, it } from "vitest";
import { buildGraph } from "../../src/core/graph/build.ts";
import type { CodeGraph } from "../../src/core/graph/model.ts";
import { resolveName } from "../../src/core/graph/resolve.ts";
import { memoryEngine } from "../support/platform.ts";

async function graphOf(files: Record<string, string>): Promise<CodeGraph> {
  const recs = await memoryEngine(files).engine.records();
  return buildGraph(
    recs,
    recs.map((r) => r.path),
    new Map(),
  );
}

const C_PROJECT = {
  "main.c": [
    '#include "a.h"',
    "",
    "int main(void) {",
    "  helper();",
    "  linked_fn();",
    "  MACRO(1);",
    "  return 0;",
    "}",
    "",
  ].join("\n"),
  "a.h": ['#include "b.h"', "struct a_thing { int x; };", ""].join("\n"),
  "b.h": ["static inline int helper(void) { return 1; }", ""].join("\n"),
  "lib.h": ["int linked_fn(void);", ""].join("\n"),
  "lib.c": ['#include "lib.h"', "int linked_fn(void) { return 2; }", ""].join("\n"),
};

describe("names star imports can bring in", () => {
  it("knows the names the included files bind, not those of files nobody includes", async () => {
    const g = await graphOf(C_PROJECT);
    const ctx = g.context;
    const table = ctx.memos.starExports;
    expect(table.mayExport(ctx, "a.h", "helper")).toBe(true);
    expect(table.mayExport(ctx, "a.h", "a_thing")).toBe(true);
    expect(table.mayExport(ctx, "a.h", "linked_fn")).toBe(false); // defined in lib.c, which nobody includes
    expect(table.mayExport(ctx, "a.h", "MACRO")).toBe(false); // bound nowhere
  });

  it("answers a name no included file binds without walking the includes", async () => {
    const g = await graphOf(C_PROJECT);
    const ctx = g.context;
    const main = ctx.files.get("main.c")!;
    expect(ctx.memos.exports.size).toBe(0);
    expect(resolveName(ctx, main, -1, "MACRO", 0, true)).toBeUndefined();
    expect(ctx.memos.exports.size).toBe(0); // no (header, name) entry left behind
    // a name an included header binds is still found through the chain main.c → a.h → b.h
    expect(resolveName(ctx, main, -1, "helper", 0, true)).toMatchObject({
      kind: "def",
      id: g.byName.get("helper")![0],
    });
    expect(ctx.memos.exports.size).toBeGreaterThan(0);
  });

  it("links the calls as before: through the includes, and by linkage to the .c file", async () => {
    const g = await graphOf(C_PROJECT);
    const q = (id: number) => g.symbols[id]!.name;
    const edges = g.calls.map((e) => `${q(e.caller)} -> ${q(e.callee)} ${g.symbols[e.callee]!.file}`).sort();
    expect(edges).toEqual(["main -> helper b.h", "main -> linked_fn lib.c"]);
  });

  it("finds a name through a header that includes its includer (a cycle), whichever file asks first", async () => {
    const files = {
      "a.h": ['#include "b.h"', '#include "d.h"', ""].join("\n"),
      "b.h": ['#include "a.h"', ""].join("\n"),
      "d.h": ["static inline int helper(void) { return 1; }", ""].join("\n"),
      // Linked first: its walk a.h → b.h → (a.h, in progress) leaves b.h unanswered until a.h's answer is known.
      "first.c": ['#include "a.h"', "int f1(void) { return helper(); }", ""].join("\n"),
      "second.c": ['#include "b.h"', "int f2(void) { return helper(); }", ""].join("\n"),
    };
    const g = await graphOf(files);
    const q = (id: number) => g.symbols[id]!.name;
    const edges = g.calls.map((e) => `${q(e.caller)} -> ${q(e.callee)} ${g.symbols[e.callee]!.file}`).sort();
    expect(edges).toEqual(["f1 -> helper d.h", "f2 -> helper d.h"]);
  });

  it("rules nothing out where an included file can answer names it does not list (a package's submodules)", async () => {
    const g = await graphOf({
      "pkg/__init__.py": "X = 1\n",
      "pkg/sub.py": "def f():\n    return 1\n",
      "use.py": "from pkg import *\n\nsub.f()\n",
    });
    expect(g.context.memos.starExports.mayExport(g.context, "pkg/__init__.py", "sub")).toBe(true);
    expect(g.context.memos.starExports.mayExport(g.context, "pkg/__init__.py", "anything")).toBe(true);
  });

  // A name some header binds is walked only through the includes that lead to that header: on the whole
  // Linux kernel nearly every called name is bound by some header (tools/ has its own printk and kfree).
  const REACH_PROJECT = {
    "main.c": [
      '#include "a.h"',
      '#include "other.h"',
      "",
      "int main(void) {",
      "  from_b();",
      "  only_c();",
      "  return 0;",
      "}",
      "",
    ].join("\n"),
    // a.h and b.h include each other (guarded headers do)
    "a.h": ['#include "b.h"', "struct a_thing { int x; };", ""].join("\n"),
    "b.h": ['#include "a.h"', "static inline int from_b(void) { return 1; }", ""].join("\n"),
    "other.h": ["struct other { int y; };", ""].join("\n"),
    "c.h": ["static inline int only_c(void) { return 3; }", ""].join("\n"),
    "d.h": ['#include "c.h"', ""].join("\n"),
    "uses-d.c": ['#include "d.h"', "int g(void) { return only_c(); }", ""].join("\n"),
  };

  it("looks a bound name up only in the included files that reach a file binding it", async () => {
    const g = await graphOf(REACH_PROJECT);
    const ctx = g.context;
    const table = ctx.memos.starExports;
    expect(table.mayExport(ctx, "a.h", "from_b")).toBe(true); // a.h → b.h
    expect(table.mayExport(ctx, "b.h", "a_thing")).toBe(true); // b.h → a.h, round the cycle
    expect(table.mayExport(ctx, "b.h", "from_b")).toBe(true);
    expect(table.mayExport(ctx, "d.h", "only_c")).toBe(true);
    // c.h binds only_c, but neither a.h, b.h nor other.h leads to it
    expect(table.mayExport(ctx, "a.h", "only_c")).toBe(false);
    expect(table.mayExport(ctx, "other.h", "only_c")).toBe(false);
    expect(table.mayExport(ctx, "other.h", "from_b")).toBe(false);
    expect(table.mayExport(ctx, "c.h", "from_b")).toBe(false);
  });

  it("walks none of the includes that cannot lead to the name, and links as before", async () => {
    const g = await graphOf(REACH_PROJECT);
    const ctx = g.context;
    const main = ctx.files.get("main.c")!;
    expect(resolveName(ctx, main, -1, "only_c", 0, true)).toBeUndefined();
    expect(ctx.memos.exports.size).toBe(0); // neither a.h, b.h nor other.h was asked
    expect(resolveName(ctx, main, -1, "from_b", 0, true)).toMatchObject({
      kind: "def",
      id: g.byName.get("from_b")![0],
    });
    const q = (id: number) => g.symbols[id]!.name;
    const edges = g.calls.map((e) => `${q(e.caller)} -> ${q(e.callee)} ${g.symbols[e.callee]!.file}`).sort();
    expect(edges).toEqual(["g -> only_c c.h", "main -> from_b b.h"]);
  });
});
