/**
 * Patches after edits that change what other files see (reresolve.ts, dependents.ts): one after
 * another, each patched graph must equal a fresh build of the same files, ids and edge order
 * included, and the previous graph must stay as it was. The edits are the ones a missed dependent
 * would get wrong: a new function an importer's unresolved call now reaches, a removed base class,
 * a renamed re-export, an override a base-typed call now dispatches to, a changed return type read
 * two files away. Records come from the real extractor.
 */
import { describe, expect, it } from "vitest";
import { buildGraph } from "../../src/core/graph/build.ts";
import { affectedFiles } from "../../src/core/graph/dependents.ts";
import type { CodeGraph } from "../../src/core/graph/model.ts";
import { patchGraph } from "../../src/core/graph/patch.ts";
import { outwardShape, sameOutwardShape } from "../../src/core/graph/summary.ts";
import type { FileRecord } from "../../src/core/extract/record.ts";
import { memoryEngine } from "../support/platform.ts";

async function records(files: Record<string, string>): Promise<FileRecord[]> {
  return memoryEngine(files).engine.records();
}

const build = (recs: FileRecord[]) =>
  buildGraph(
    recs,
    recs.map((r) => r.path),
    new Map(),
  );

const sortedEntries = (m: Map<number, number[]>) => [...m].map(([k, v]) => `${k}:${v.join(",")}`).sort();

/** Everything a graph holds, with raw ids (a patch must number symbols as a fresh build does). */
function facts(g: CodeGraph) {
  return {
    symbols: g.symbols.map((s) => `${s.id} ${s.kind} ${s.qualified} parent=${s.parent} ${s.start}-${s.end}`),
    moduleSymbol: [...g.moduleSymbol],
    calls: g.calls.map(
      (e) =>
        `${e.caller}->${e.callee} ${e.file}:${e.line} ${e.via} ${e.resolution} ${e.confidence}${e.classBody ? " body" : ""}`,
    ),
    external: g.external.map((e) => `${e.caller} ${e.target} ${e.file}:${e.line}`),
    ambiguous: g.ambiguous.map((e) => `${e.caller} ${e.name} [${e.candidates.join(",")}] ${e.file}:${e.line}`),
    unresolved: g.unresolvedCalls,
    imports: g.imports.map((e) => `${e.from}->${e.to}:${e.line}`),
    inherits: g.inherits.map((e) => `${e.child}<${e.base} ${e.kind}`),
    typeUses: sortedEntries(g.typeUses),
    subclasses: sortedEntries(g.subclasses),
    children: sortedEntries(g.children),
    byName: [...g.byName].map(([k, v]) => `${k}:${v.join(",")}`).sort(),
    byQualified: [...g.byQualified].map(([k, v]) => `${k}:${v}`).sort(),
    edgeCounts: [...g.edgeCounts],
    callsFrom: sortedEntries(g.callsFrom),
    callsTo: sortedEntries(g.callsTo),
  };
}

const PROJECT: Record<string, string> = {
  "pkg/__init__.py": "from pkg.models import Model as Thing\nfrom pkg.models import Base\n",
  "pkg/models.py": [
    "class Root:",
    "    def ping(self):",
    "        return 0",
    "",
    "",
    "class Base(Root):",
    "    def save(self):",
    "        return 1",
    "",
    "    def check(self):",
    "        return 2",
    "",
    "",
    "class Model(Base):",
    "    def check(self):",
    "        return 3",
    "",
  ].join("\n"),
  "pkg/util.py": "import os\n\n\ndef first():\n    return os.getcwd()\n",
  "pkg/factory.py": "from pkg.models import Model\n\n\ndef make() -> Model:\n    return Model()\n",
  "pkg/app.py": [
    "from pkg import Thing",
    "from pkg.util import *",
    "from pkg.factory import make",
    "from pkg import util",
    "",
    "",
    "def run(data, b: 'Base'):",
    "    t = Thing()",
    "    t.save()",
    "    helper()",
    "    util.other()",
    "    data.rare_method()",
    "    make().check()",
    "    return t",
    "",
  ].join("\n"),
  "pkg/base_user.py": "from pkg import Base\n\n\ndef use(b: Base):\n    b.save()\n    b.ping()\n",
  "pkg/sub.py": "from pkg.models import Model\n\n\nclass Special(Model):\n    pass\n",
  "pkg/leaf.py": "def alone():\n    return 1\n",
};

/** Edits applied one after another (each to the files as the previous one left them). */
const EDITS: { name: string; path: string; edit: (text: string) => string }[] = [
  {
    name: "a body edit with as many calls (the shape kept: the edited file alone, call adjacency patched)",
    path: "pkg/app.py",
    edit: (t) => t.replace("    t.save()\n", "    t.check()\n"),
  },
  {
    name: "a body edit with one more call",
    path: "pkg/app.py",
    edit: (t) => t.replace("    t.check()\n", "    t.check()\n    t.save()\n"),
  },
  {
    name: "a new function a star importer's unresolved call now reaches",
    path: "pkg/util.py",
    edit: (t) => `${t}\n\ndef helper():\n    return first()\n`,
  },
  {
    name: "a new function reached as a module attribute",
    path: "pkg/util.py",
    edit: (t) => `${t}\n\ndef other():\n    return 1\n`,
  },
  {
    name: "a new method an untyped receiver's call now reaches by its unique name",
    path: "pkg/leaf.py",
    edit: (t) => `${t}\n\nclass Odd:\n    def rare_method(self):\n        return 1\n`,
  },
  {
    name: "a method renamed (the call that reached it by its unique name loses it)",
    path: "pkg/leaf.py",
    edit: (t) => t.replace("def rare_method(", "def rare_method_2("),
  },
  {
    name: "the method named back",
    path: "pkg/leaf.py",
    edit: (t) => t.replace("def rare_method_2(", "def rare_method("),
  },
  {
    name: "a function inserted first (every later symbol id moves)",
    path: "pkg/models.py",
    edit: (t) => `def early():\n    return 0\n\n\n${t}`,
  },
  {
    name: "an override a base-typed call now dispatches to",
    path: "pkg/sub.py",
    edit: (t) => t.replace("    pass\n", "    def save(self):\n        return 9\n"),
  },
  {
    name: "a subclass moved under another base (a base-typed call no longer dispatches to its override)",
    path: "pkg/sub.py",
    edit: (t) =>
      t.replace("import Model\n", "import Model, Root\n").replace("class Special(Model):", "class Special(Root):"),
  },
  {
    name: "and back under the base",
    path: "pkg/sub.py",
    edit: (t) => t.replace("class Special(Root):", "class Special(Model):"),
  },
  { name: "a renamed re-export", path: "pkg/__init__.py", edit: (t) => t.replace("Model as Thing", "Model as Item") },
  {
    name: "the importer follows the new name",
    path: "pkg/app.py",
    edit: (t) => t.replace("from pkg import Thing", "from pkg import Item as Thing"),
  },
  {
    name: "a return type read two files away",
    path: "pkg/factory.py",
    edit: (t) =>
      t
        .replace("def make() -> Model:", "def make() -> 'Root':")
        .replace("from pkg.models import Model", "from pkg.models import Model, Root"),
  },
  { name: "a removed base class", path: "pkg/models.py", edit: (t) => t.replace("class Base(Root):", "class Base:") },
  {
    name: "a removed method",
    path: "pkg/models.py",
    edit: (t) => t.replace("    def save(self):\n        return 1\n\n", ""),
  },
  {
    name: "a second definition of a name (the unique name becomes ambiguous)",
    path: "pkg/util.py",
    edit: (t) => `${t}\n\nclass Other:\n    def rare_method(self):\n        return 2\n`,
  },
  {
    name: "a module-level name added to a re-exporting module",
    path: "pkg/__init__.py",
    edit: (t) => `${t}VERSION = 2\n`,
  },
];

describe("patches of edits other files can see", () => {
  it("equal a fresh build after each edit, in a chain, and leave the previous graph as it was", async () => {
    let files = { ...PROJECT };
    let graph = build(await records(files));
    for (const step of EDITS) {
      const text = step.edit(files[step.path]!);
      expect(text, `${step.name}: the edit applies`).not.toBe(files[step.path]);
      files = { ...files, [step.path]: text };
      const recs = await records(files);
      const changed = recs.filter((r) => r.path === step.path);
      const was = graph.records.get(step.path)!;
      expect(sameOutwardShape(was, changed[0]!), `${step.name}: the shape compared in place`).toBe(
        outwardShape(was) === outwardShape(changed[0]!),
      );
      const before = JSON.stringify(facts(graph));
      const patched = patchGraph(graph, changed);
      expect(patched, `${step.name}: patched, not refused`).toBeDefined();
      expect(JSON.stringify(facts(graph)), `${step.name}: the previous graph is untouched`).toBe(before);
      expect(facts(patched!), step.name).toEqual(facts(build(recs)));
      graph = patched!;
    }
  });

  it("equal a fresh build after TypeScript edits through re-exports and a star re-export", async () => {
    let files: Record<string, string> = {
      "src/a.ts":
        "export class A {\n  m(): number {\n    return 1;\n  }\n}\n\nexport function f(): A {\n  return new A();\n}\n",
      "src/b.ts": 'export { A as Alias } from "./a";\nexport * from "./a";\n',
      "src/c.ts":
        'import { Alias, f, g } from "./b";\n\nexport function run(): void {\n  new Alias().m();\n  f().m();\n  g();\n}\n',
      "src/d.ts": "export function lone(): number {\n  return 2;\n}\n",
    };
    const edits: [string, string, (t: string) => string][] = [
      [
        "a new function a star re-export now passes on",
        "src/a.ts",
        (t) => `${t}\nexport function g(): number {\n  return 3;\n}\n`,
      ],
      ["a renamed method", "src/a.ts", (t) => t.replace("  m(): number", "  n(): number")],
      ["a renamed re-export", "src/b.ts", (t) => t.replace("A as Alias", "A as Other")],
      [
        "a changed return type",
        "src/a.ts",
        (t) =>
          t.replace("export function f(): A", "export function f(): number").replace("return new A();", "return 1;"),
      ],
      ["a function inserted first", "src/a.ts", (t) => `export function zero(): number {\n  return 0;\n}\n\n${t}`],
    ];
    let graph = build(await records(files));
    for (const [name, path, edit] of edits) {
      const text = edit(files[path]!);
      expect(text, name).not.toBe(files[path]);
      files = { ...files, [path]: text };
      const recs = await records(files);
      const patched = patchGraph(
        graph,
        recs.filter((r) => r.path === path),
      );
      const fresh = build(recs);
      expect(patched, `${name}: patched, not refused`).toBeDefined();
      expect(facts(patched!), name).toEqual(facts(fresh));
      graph = patched!;
    }
  });

  it("resolve again only the files that can see the change", async () => {
    const old = build(await records(PROJECT));
    const edit = async (path: string, text: string) => {
      const recs = await records({ ...PROJECT, [path]: text });
      const fresh = build(recs);
      return [
        ...affectedFiles(
          old,
          fresh.context,
          recs.filter((r) => r.path === path),
          100,
        )!,
      ].sort();
    };
    // A new name nothing spells: the file alone.
    expect(await edit("pkg/leaf.py", `${PROJECT["pkg/leaf.py"]}\n\ndef lonely():\n    return 2\n`)).toEqual([
      "pkg/leaf.py",
    ]);
    // A changed class: the files that name it, and those that name what names it.
    const models = await edit(
      "pkg/models.py",
      PROJECT["pkg/models.py"]!.replace(
        "    def check(self):\n        return 3",
        "    def check(self, x=0):\n        return 3",
      ),
    );
    expect(models).toEqual(
      expect.arrayContaining(["pkg/models.py", "pkg/__init__.py", "pkg/factory.py", "pkg/sub.py", "pkg/app.py"]),
    );
    expect(models).not.toContain("pkg/leaf.py");
  });

  it("build afresh when what no one name owns changes (a star import)", async () => {
    const old = build(await records(PROJECT));
    const recs = await records({ ...PROJECT, "pkg/leaf.py": `from pkg.util import *\n${PROJECT["pkg/leaf.py"]}` });
    expect(
      patchGraph(
        old,
        recs.filter((r) => r.path === "pkg/leaf.py"),
      ),
    ).toBeUndefined();
  });
});
