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

  it("rules nothing out where an included file can answer names it does not list (a package's submodules)", async () => {
    const g = await graphOf({
      "pkg/__init__.py": "X = 1\n",
      "pkg/sub.py": "def f():\n    return 1\n",
      "use.py": "from pkg import *\n\nsub.f()\n",
    });
    expect(g.context.memos.starExports.mayExport(g.context, "pkg/__init__.py", "sub")).toBe(true);
    expect(g.context.memos.starExports.mayExport(g.context, "pkg/__init__.py", "anything")).toBe(true);
  });
});
