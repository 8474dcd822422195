/**
 * The graph pipeline's modules, each on its own: the symbol table and module naming, the outward
 * shape, import resolution, the evaluator (exports by language semantics, self/super, annotations),
 * call linking, patches (never touching the previous graph) and the type-text helpers. Records come
 * from the real extractor over small fixtures; the modules are then called directly.
 */
import { describe, expect, it } from "vitest";
import { buildGraph } from "../../src/core/graph/build.ts";
import { callsOf } from "../../src/core/graph/calls.ts";
import { importEdgesOf, importTarget, resolveImport } from "../../src/core/graph/imports.ts";
import type { CodeGraph } from "../../src/core/graph/model.ts";
import { patchGraph } from "../../src/core/graph/patch.ts";
import { exportOf, resolveExpr } from "../../src/core/graph/resolve.ts";
import { outwardShape } from "../../src/core/graph/summary.ts";
import { fileSymbols, indexSymbols } from "../../src/core/graph/symbols.ts";
import { elementType, functionTypeParams, splitCall, typeCandidates } from "../../src/core/graph/type-text.ts";
import type { FileRecord } from "../../src/core/extract/record.ts";
import { memoryEngine } from "../support/platform.ts";

const PROJECT = {
  "pkg/__init__.py": "from pkg.models import Model\n",
  "pkg/models.py": [
    "class Base:",
    "    def save(self):",
    "        return 1",
    "",
    "",
    "class Model(Base):",
    "    def save(self):",
    "        super().save()",
    "        return self.check()",
    "",
    "    def check(self):",
    "        return True",
    "",
  ].join("\n"),
  "pkg/service.py": [
    "from pkg import Model",
    "from pkg.models import Base as B",
    "import pkg.models",
    "",
    "",
    "def run(m: Model):",
    "    m.save()",
    "    pkg.models.Model().check()",
    "    return B()",
    "",
  ].join("\n"),
  "web/lib.ts": "export function helper(): number { return 1; }\nfunction hidden(): number { return 2; }\n",
  "web/index.ts": 'export { helper as h } from "./lib";\nexport * from "./lib";\n',
  "web/app.js": "const lib = require('./util');\nfunction local() { return 1; }\nmodule.exports = { local };\n",
  "web/util.js": "function util() { return 1; }\n",
};

async function records(files: Record<string, string>): Promise<FileRecord[]> {
  return memoryEngine(files).engine.records();
}

async function graphOf(files: Record<string, string>): Promise<CodeGraph> {
  const recs = await records(files);
  return buildGraph(
    recs,
    recs.map((r) => r.path),
    new Map(),
  );
}

const q = (g: CodeGraph, id: number | undefined) => (id === undefined ? undefined : g.symbols[id]!.qualified);

describe("symbols", () => {
  it("number a file's module symbol then its definitions, and qualify by the language's module naming", async () => {
    const g = await graphOf(PROJECT);
    const models = g.moduleSymbol.get("pkg/models.py")!;
    expect(g.symbols[models]).toMatchObject({ kind: "module", qualified: "pkg.models" });
    expect(g.symbols[models + 1]).toMatchObject({ qualified: "pkg.models.Base", parent: models, index: 0 });
    expect(q(g, g.moduleSymbol.get("web/lib.ts")! + 1)).toBe("web/lib.ts#helper");
    const { byName, byQualified, children } = indexSymbols(g.symbols);
    expect(byName.get("save")!.map((id) => q(g, id))).toEqual(["pkg.models.Base.save", "pkg.models.Model.save"]);
    expect(byQualified.get("pkg.models")).toBe(models);
    expect(children.get(models + 1)!.map((id) => q(g, id))).toEqual(["pkg.models.Base.save"]);
  });

  it("fileSymbols names a file without a module-naming resolver by its path", async () => {
    const [record] = await records({ "a/b.ts": "export class C { m() {} }\n" });
    const syms = fileSymbols(record!, { moduleId: 7, resolver: undefined, resolverState: undefined });
    expect(syms.map((s) => [s.id, s.qualified, s.parent])).toEqual([
      [7, "a/b.ts", -1],
      [8, "a/b.ts#C", 7],
      [9, "a/b.ts#C.m", 8],
    ]);
  });
});

describe("outward shape", () => {
  it("ignores bodies, positions, docs and search words; sees names, imports and bindings", async () => {
    const base = "import os\n\n\ndef f(x):\n    return os.path.join(x)\n";
    const [a] = await records({ "m.py": base });
    const [moved] = await records({ "m.py": `# comment\n\n${base.replace("os.path.join(x)", "os.getcwd()")}` });
    const [renamed] = await records({ "m.py": base.replace("def f", "def g") });
    const [imported] = await records({ "m.py": `import sys\n${base}` });
    expect(outwardShape(moved!)).toBe(outwardShape(a!));
    expect(outwardShape(renamed!)).not.toBe(outwardShape(a!));
    expect(outwardShape(imported!)).not.toBe(outwardShape(a!));
  });
});

describe("imports", () => {
  it("resolve through the language's resolver, one edge per imported file", async () => {
    const g = await graphOf(PROJECT);
    const st = g.context.files.get("pkg/service.py")!;
    expect(
      importEdgesOf(g.context, st)
        .map((e) => e.to)
        .sort(),
    ).toEqual(["pkg/__init__.py", "pkg/models.py"]);
    const first = resolveImport(g.context, st, st.record.imports[0]!);
    expect(resolveImport(g.context, st, st.record.imports[0]!)).toBe(first); // memoized
    expect(importTarget(g.context, "pkg/service.py", "B")).toEqual({ file: "pkg/models.py", name: "Base" });
  });
});

describe("the evaluator", () => {
  it("exports follow each language's semantics", async () => {
    const g = await graphOf(PROJECT);
    const ctx = g.context;
    const def = (v: ReturnType<typeof exportOf>) => (v?.kind === "def" ? q(g, v.id) : v?.kind);
    // Python: every top-level name, re-exports through imports.
    expect(def(exportOf(ctx, "pkg/__init__.py", "Model"))).toBe("pkg.models.Model");
    // TypeScript: only what is exported, aliases and star re-exports followed.
    expect(def(exportOf(ctx, "web/lib.ts", "helper"))).toBe("web/lib.ts#helper");
    expect(exportOf(ctx, "web/lib.ts", "hidden")).toBeUndefined();
    expect(def(exportOf(ctx, "web/index.ts", "h"))).toBe("web/lib.ts#helper");
    expect(def(exportOf(ctx, "web/index.ts", "helper"))).toBe("web/lib.ts#helper");
    // JavaScript: CommonJS modules expose their top-level definitions.
    expect(def(exportOf(ctx, "web/app.js", "local"))).toBe("web/app.js#local");
  });

  it("expressions: imported names, annotated parameters, self, super()", async () => {
    const g = await graphOf(PROJECT);
    const ctx = g.context;
    const service = ctx.files.get("pkg/service.py")!;
    const run = service.record.definitions.findIndex((d) => d.name === "run");
    expect(resolveExpr(ctx, service, run, "m")).toMatchObject({
      kind: "instance",
      id: g.byQualified.get("pkg.models.Model"),
    });
    expect(resolveExpr(ctx, service, run, "pkg.models.Model")).toMatchObject({
      kind: "def",
      id: g.byQualified.get("pkg.models.Model"),
    });
    const models = ctx.files.get("pkg/models.py")!;
    const save = models.record.definitions.findIndex((d) => d.qualified === "Model.save");
    expect(resolveExpr(ctx, models, save, "self")).toMatchObject({
      kind: "instance",
      id: g.byQualified.get("pkg.models.Model"),
    });
    expect(resolveExpr(ctx, models, save, "super()")).toMatchObject({
      kind: "super",
      id: g.byQualified.get("pkg.models.Model"),
    });
  });
});

describe("calls", () => {
  it("link each call with how it was resolved", async () => {
    const g = await graphOf(PROJECT);
    const out = callsOf(g.context, g.context.files.get("pkg/service.py")!);
    const edges = out.calls.map((e) => `${e.line} ${q(g, e.callee)} ${e.resolution}`).sort();
    expect(edges).toEqual([
      "7 pkg.models.Model.save type",
      "8 pkg.models.Model import",
      "8 pkg.models.Model.check type",
      "9 pkg.models.Base import",
    ]);
    const models = callsOf(g.context, g.context.files.get("pkg/models.py")!);
    expect(models.calls.map((e) => `${e.line} ${q(g, e.callee)} ${e.resolution}`).sort()).toEqual([
      "8 pkg.models.Base.save self",
      "9 pkg.models.Model.check self",
    ]);
  });
});

describe("patches", () => {
  it("equal a fresh build, keep ids, and leave the previous graph as it was", async () => {
    const edited = {
      ...PROJECT,
      "pkg/service.py": `# a new first line\n${PROJECT["pkg/service.py"].replace("    m.save()\n", "    m.save()\n    m.check()\n")}`,
    };
    const old = await graphOf(PROJECT);
    const snapshot = JSON.stringify(old.symbols);
    const callsBefore = old.calls.length;
    const changed = (await records(edited)).filter((r) => r.path === "pkg/service.py");
    const patched = patchGraph(old, changed)!;
    expect(patched).toBeDefined();
    expect(JSON.stringify(old.symbols)).toBe(snapshot);
    expect(old.calls).toHaveLength(callsBefore);
    const fresh = await graphOf(edited);
    const facts = (g: CodeGraph) => ({
      symbols: g.symbols.map((s) => `${s.qualified}:${s.start}-${s.end}`),
      calls: g.calls.map((e) => `${q(g, e.caller)}->${q(g, e.callee)}@${e.file}:${e.line} ${e.resolution}`),
      imports: g.imports.map((e) => `${e.from}->${e.to}`),
      inherits: g.inherits.map((e) => `${q(g, e.child)}<${q(g, e.base)}`),
    });
    expect(facts(patched)).toEqual(facts(fresh));
  });

  it("resolve an edit other files can see again where they see it, and refuse one whose reach cannot be told", async () => {
    const old = await graphOf(PROJECT);
    const edited = { ...PROJECT, "pkg/models.py": PROJECT["pkg/models.py"].replace("def check", "def verify") };
    const renamed = (await records(edited)).filter((r) => r.path === "pkg/models.py");
    const patched = patchGraph(old, renamed)!;
    expect(patched).toBeDefined();
    const calls = (g: CodeGraph) =>
      g.calls.map((e) => `${q(g, e.caller)}->${q(g, e.callee)}@${e.file}:${e.line} ${e.resolution}`);
    expect(calls(patched)).toEqual(calls(await graphOf(edited)));
    // A star import added: every name the file shows may change (test/graph/reresolve.test.ts has the rest).
    const starred = (
      await records({ ...PROJECT, "pkg/models.py": `from pkg.service import *\n${PROJECT["pkg/models.py"]}` })
    ).filter((r) => r.path === "pkg/models.py");
    expect(patchGraph(old, starred)).toBeUndefined();
    expect(patchGraph(old, [])).toBe(old);
  });
});

describe("type text", () => {
  it.each([
    ["Optional[User]", ["User"]],
    ["User | None", ["User"]],
    ["Union[A, B]", ["A", "B"]],
    ['t.Optional["Context"]', ["Context"]],
    ['t.Type["HelpFormatter"]', ["HelpFormatter"]],
    ['"Forward"', ["Forward"]],
    ["Promise<Client<T>>", ["Client"]],
    ["list[int]", ["list"]],
    ["string[]", []],
  ])("typeCandidates(%s)", (text, expected) => {
    expect(typeCandidates(text)).toEqual(expected);
  });

  it("function types, element types and call splitting", () => {
    expect(functionTypeParams("(this: X, sub: Subscriber<T>, n?: number) => void")).toEqual([
      "Subscriber<T>",
      "number",
    ]);
    expect(functionTypeParams("string")).toBeUndefined();
    expect(elementType("List[Item]")).toBe("Item");
    expect(elementType("Array<Item>")).toBe("Item");
    expect(elementType("Item[]")).toBe("Item");
    expect(elementType("Item")).toBeUndefined();
    expect(splitCall("a.b(c).d")).toEqual(["a.b(c).d", false]);
    expect(splitCall("get_client(x)")).toEqual(["get_client", true]);
  });
});
