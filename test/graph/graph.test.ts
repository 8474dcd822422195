/**
 * Resolution rules, tested as data: each fixture under fixtures/ is a small multi-file project
 * (files separated by `#- path` or `//- path` lines) whose comments say what the graph must find:
 *
 *   -> <qualified callee> (<resolution>)   a call edge from this line (resolution optional)
 *   -> <qualified callee>@<line> (…)        …to the definition of that name whose name is on that
 *                                           line (overloads share a qualified name): the edges from
 *                                           this line to that name must reach exactly the lines given
 *   -> external <name>                      a call into code outside the project
 *   -> ambiguous                            an unresolved call whose name several definitions share
 *   -> nothing                              no edge from this line
 *   -> imports <path>                       an import edge from this file to <path>
 *   -> inherits <qualified base>            the class defined on this line extends/implements it
 *
 * Several annotations on one line are separated by " ; ". Edges are exact: every call edge and
 * import edge in the fixture must be annotated, so a wrong edge fails the test.
 */
import { describe, expect, it } from "vitest";
import { fixtureFiles } from "../support/fixtures.ts";
import { memoryEngine, parseFixture } from "../support/platform.ts";
import { goldGraphStream, toGoldGraph, type GoldCallEdge } from "../../src/core/query/gold-json.ts";
import type { CallEdge, CodeGraph } from "../../src/core/graph/model.ts";

const fixtures = await fixtureFiles("graph/fixtures");
const ANNOTATION = /(?:#|\/\/)\s*->\s*(.*)$/;

describe("graph resolution fixtures", () => {
  for (const name of Object.keys(fixtures).filter((f) => f.endsWith(".txt"))) {
    it(name.replace(/\.txt$/, ""), async () => {
      const files = parseFixture(fixtures[name]!);
      const { engine } = memoryEngine(files);
      const graph = await engine.codeGraph();
      const q = (id: number) => graph.symbols[id]!.qualified;

      const wantCalls: string[] = [];
      const wantExternal: string[] = [];
      const wantAmbiguous: string[] = [];
      const wantImports: string[] = [];
      const wantInherits: string[] = [];
      const nothing: string[] = [];
      for (const [path, text] of Object.entries(files)) {
        text.split("\n").forEach((lineText, i) => {
          const m = ANNOTATION.exec(lineText);
          if (!m) return;
          const line = i + 1;
          for (const part of m[1]!.split(" ; ")) {
            const a = part.trim().replace(/^->\s*/, "");
            let mm: RegExpExecArray | null;
            if (a === "nothing") nothing.push(`${path}:${line}`);
            else if (a === "ambiguous") wantAmbiguous.push(`${path}:${line}`);
            else if ((mm = /^external (\S+)$/.exec(a))) wantExternal.push(`${path}:${line} ${mm[1]}`);
            else if ((mm = /^imports (\S+)$/.exec(a))) wantImports.push(`${path} -> ${mm[1]}`);
            else if ((mm = /^inherits (\S+)$/.exec(a))) wantInherits.push(`${path}:${line} ${mm[1]}`);
            else if ((mm = /^(\S+)(?: \(([\w-]+)\))?$/.exec(a)))
              wantCalls.push(`${path}:${line} ${mm[1]}${mm[2] ? ` (${mm[2]})` : ""}`);
            else throw new Error(`bad annotation in ${path}:${line}: ${a}`);
          }
        });
      }

      const gotCalls = graph.calls.map((e) => `${e.file}:${e.line} ${q(e.callee)}`);
      const atLine = (w: string) => w.replace(/@\d+( |$)/, "$1");
      const gotWithRes = graph.calls.map((e) => `${e.file}:${e.line} ${q(e.callee)} (${e.resolution})`);
      const expectedCalls = wantCalls.map((w) => atLine(w.replace(/ \([\w-]+\)$/, "")));
      // Overloads: where an annotation names the definition's line, the lines reached must be those named.
      const wantLines = new Map<string, number[]>();
      for (const w of wantCalls) {
        const mm = /^(\S+ \S+)@(\d+)/.exec(w);
        if (mm) (wantLines.get(mm[1]!) ?? wantLines.set(mm[1]!, []).get(mm[1]!)!).push(Number(mm[2]));
      }
      for (const [site, lines] of wantLines) {
        const got = graph.calls
          .filter((e) => `${e.file}:${e.line} ${q(e.callee)}` === site)
          .map((e) => graph.symbols[e.callee]!.nameLine);
        expect(
          [...new Set(got)].sort((a, b) => a - b),
          `overloads reached from ${site}`,
        ).toEqual([...new Set(lines)].sort((a, b) => a - b));
      }
      expect([...new Set(gotCalls)].sort(), "call edges").toEqual([...new Set(expectedCalls)].sort());
      for (const w of wantCalls.filter((c) => c.endsWith(")"))) expect(gotWithRes, "resolution").toContain(atLine(w));
      for (const n of nothing)
        expect(
          gotCalls.filter((c) => c.startsWith(`${n} `)),
          `edges at ${n}`,
        ).toEqual([]);
      const gotExternal = graph.external.map((e) => `${e.file}:${e.line} ${e.target}`);
      for (const w of wantExternal) expect(gotExternal, "external calls").toContain(w);
      const gotAmbiguous = graph.ambiguous.map((a) => `${a.file}:${a.line}`);
      for (const w of wantAmbiguous) expect(gotAmbiguous, "ambiguous calls").toContain(w);
      expect(graph.imports.map((e) => `${e.from} -> ${e.to}`).sort(), "import edges").toEqual(
        [...new Set(wantImports)].sort(),
      );
      const gotInherits = graph.inherits.map(
        (e) => `${graph.symbols[e.child]!.file}:${graph.symbols[e.child]!.nameLine} ${q(e.base)}`,
      );
      expect(gotInherits.sort(), "inherits").toEqual(wantInherits.sort());
    });
  }
});

describe("files with the same content", () => {
  it("each resolves its relative imports from its own folder, though they share one record", async () => {
    const same = 'import { helper } from "./util";\n\nexport function run(): number {\n  return helper();\n}\n';
    const { engine } = memoryEngine({
      "a/index.ts": same,
      "a/util.ts": "export function helper(): number {\n  return 1;\n}\n",
      "b/index.ts": same,
      "b/util.ts": "export function helper(): number {\n  return 2;\n}\n",
    });
    const graph = await engine.codeGraph();
    expect(graph.imports.map((e) => `${e.from} -> ${e.to}`).sort()).toEqual([
      "a/index.ts -> a/util.ts",
      "b/index.ts -> b/util.ts",
    ]);
    const edges = graph.calls
      .map((e) => `${graph.symbols[e.caller]!.qualified} -> ${graph.symbols[e.callee]!.qualified}`)
      .sort();
    expect(edges).toEqual(["a/index.ts#run -> a/util.ts#helper", "b/index.ts#run -> b/util.ts#helper"]);
  });
});

/** Everything a graph answers with, in a comparable form (maps as sorted entries). */
function graphFacts(graph: Awaited<ReturnType<ReturnType<typeof memoryEngine>["engine"]["codeGraph"]>>) {
  const entries = <K, V>(m: Map<K, V>) =>
    [...m].sort((a, b) => (String(a[0]) < String(b[0]) ? -1 : String(a[0]) > String(b[0]) ? 1 : 0));
  return {
    symbols: graph.symbols,
    calls: graph.calls,
    external: graph.external,
    ambiguous: graph.ambiguous,
    unresolved: graph.unresolvedCalls,
    imports: graph.imports,
    inherits: graph.inherits,
    typeUses: entries(graph.typeUses),
    callsFrom: entries(graph.callsFrom),
    callsTo: entries(graph.callsTo),
    importsFrom: entries(graph.importsFrom),
    importedBy: entries(graph.importedBy),
    subclasses: entries(graph.subclasses),
    records: entries(graph.records),
  };
}

describe("updating the graph after an edit", () => {
  const project: Record<string, string> = {
    "shop/__init__.py": "",
    "shop/models.py":
      "class Order:\n    def __init__(self, total: int):\n        self.total = total\n\n    def save(self):\n        return self.total\n\n\nclass Refund(Order):\n    def save(self):\n        return super().save()\n",
    "shop/service.py":
      "from shop.models import Order, Refund\n\n\ndef place(total: int) -> Order:\n    order = Order(total)\n    order.save()\n    return order\n\n\ndef refund(order: Order) -> Refund:\n    r = Refund(order.total)\n    r.save()\n    return r\n",
    "web/api.ts":
      'import { total } from "./lib";\n\nexport class Api {\n  run(): number {\n    return total([1, 2]);\n  }\n}\n',
    "web/lib.ts":
      "export function total(xs: number[]): number {\n  return xs.length;\n}\n\nexport function unused(): void {}\n",
    "go.mod": "module example.com/svc\n",
    "svc/store.go": "package svc\n\ntype Store struct{}\n\nfunc (s *Store) Save() {}\n",
    "svc/run.go": "package svc\n\nfunc Run(s *Store) {\n\ts.Save()\n}\n",
  };

  it("a body edit is patched into the previous graph, and the patched graph equals a fresh build", async () => {
    const { engine, platform } = memoryEngine(project);
    const before = await engine.codeGraph();
    const current = { ...project };
    const edits: [string, string][] = [
      // new calls inside a body, lines shifted above everything
      [
        "shop/service.py",
        `# header\n${project["shop/service.py"]!.replace("    order.save()\n", "    order.save()\n    order.save()\n    print(order)\n")}`,
      ],
      ["web/api.ts", project["web/api.ts"]!.replace("return total([1, 2]);", "total([1]);\n    return total([2]);")],
      [
        "shop/models.py",
        project["shop/models.py"]!.replace(
          "        return self.total\n",
          "        print('saving')\n        return self.total\n",
        ),
      ],
      // a Go method called from another file of its package: the package tables survive the patch
      ["svc/run.go", `// header\n${project["svc/run.go"]!.replace("\ts.Save()\n", "\ts.Save()\n\ts.Save()\n")}`],
    ];
    let previous = before;
    for (const [path, text] of edits) {
      current[path] = text;
      const previousSymbols = previous.symbols.map((s) => ({ ...s }));
      platform.fs.write(path, text);
      await engine.refresh();
      const patched = await engine.codeGraph();
      // Patched, not rebuilt: the symbol tables are shared and every id is kept.
      expect(patched.byQualified, `${path}: patched`).toBe(previous.byQualified);
      expect(patched.symbols.map((s) => s.qualified)).toEqual(previousSymbols.map((s) => s.qualified));
      expect(graphFacts(patched), path).toEqual(graphFacts(await memoryEngine({ ...current }).engine.codeGraph()));
      // The previous graph is untouched: a request still holding it sees the lines it was built on.
      expect(previous.symbols).toEqual(previousSymbols);
      expect(
        patched.symbols.some((s, i) => s.start !== previousSymbols[i]!.start || s.end !== previousSymbols[i]!.end),
      ).toBe(true);
      previous = patched;
    }
  });

  it("an edit to what a conftest fixture returns re-types the tests that take it, as a fresh build does", async () => {
    const files = parseFixture(fixtures["python-fixtures.txt"]!);
    const { engine, platform } = memoryEngine(files);
    const fetchCallees = async () => {
      const graph = await engine.codeGraph();
      return graph.calls
        .filter((e) => e.file === "tests/test_signer.py" && e.line === 42)
        .map((e) => graph.symbols[e.callee]!.qualified);
    };
    expect(await fetchCallees()).toEqual(["pkg.signer.Client.fetch"]);
    const current = { ...files };
    // The fixture's body alone changes (a local's value, then the returned name): its outward shape does too.
    const edits = [
      files["tests/conftest.py"]!.replace("    c = Client()", "    c = Other()"),
      files["tests/conftest.py"]!.replace("    return c\n", "    d = Other()\n    return d\n"),
    ];
    for (const text of edits) {
      current["tests/conftest.py"] = text;
      platform.fs.write("tests/conftest.py", text);
      await engine.refresh();
      expect(await fetchCallees()).toEqual(["pkg.signer.Other.fetch"]);
      expect(graphFacts(await engine.codeGraph())).toEqual(
        graphFacts(await memoryEngine({ ...current }).engine.codeGraph()),
      );
    }
  });

  it("a new local in a body is patched; a local a field is set from is not; both equal a fresh build", async () => {
    const small: Record<string, string> = {
      "app/__init__.py": "",
      "app/models.py":
        "class Item:\n    def save(self):\n        return 1\n\n\nclass Box:\n    def __init__(self, item):\n        self.item = item\n\n    def size(self):\n        return 2\n",
      "app/use.py":
        "from app.models import Box\n\n\ndef run():\n    box = Box(None)\n    box.item.save()\n    return box.size()\n",
    };
    const { engine, platform } = memoryEngine(small);
    const current = { ...small };
    const edits: [string, string, "patched" | "rebuilt"][] = [
      [
        "app/use.py",
        small["app/use.py"]!.replace("    box.item.save()\n", "    box.item.save()\n    extra = box.size()\n"),
        "patched",
      ],
      [
        "app/models.py",
        small["app/models.py"]!.replace("        return 2\n", "        n = 3\n        return n\n"),
        "patched",
      ],
      // `self.item = item` now reads a local that is an Item: another file's `box.item.save()` resolves.
      [
        "app/models.py",
        small["app/models.py"]!.replace(
          "        self.item = item\n",
          "        item = Item()\n        self.item = item\n",
        ),
        "rebuilt",
      ],
    ];
    for (const [path, text, how] of edits) {
      const before = await engine.codeGraph();
      current[path] = text;
      platform.fs.write(path, text);
      await engine.refresh();
      const after = await engine.codeGraph();
      if (how === "patched") expect(after.byQualified, `${path}: patched`).toBe(before.byQualified);
      else expect(after.byQualified, `${path}: rebuilt`).not.toBe(before.byQualified);
      expect(graphFacts(after), path).toEqual(graphFacts(await memoryEngine({ ...current }).engine.codeGraph()));
    }
    const last = await engine.codeGraph();
    const edges = last.calls.map((e) => `${last.symbols[e.caller]!.qualified} -> ${last.symbols[e.callee]!.qualified}`);
    expect(edges).toContain("app.use.run -> app.models.Item.save");
  });

  it("an edit others can see (a renamed function, a new import, a new field) builds a new graph, equal to a fresh build", async () => {
    const { engine, platform } = memoryEngine(project);
    const current = { ...project };
    const edits: [string, string][] = [
      ["web/lib.ts", project["web/lib.ts"]!.replace("unused", "renamed")],
      ["shop/service.py", `import os\n${project["shop/service.py"]}`],
      [
        "shop/models.py",
        project["shop/models.py"]!.replace(
          "        self.total = total\n",
          "        self.total = total\n        self.parent = Order(0)\n",
        ),
      ],
    ];
    for (const [path, text] of edits) {
      const before = await engine.codeGraph();
      current[path] = text;
      platform.fs.write(path, text);
      await engine.refresh();
      const after = await engine.codeGraph();
      expect(after.byQualified, `${path}: rebuilt`).not.toBe(before.byQualified);
      expect(graphFacts(after), path).toEqual(graphFacts(await memoryEngine({ ...current }).engine.codeGraph()));
    }
  });
});

describe("dispatch and class bodies", () => {
  const files = parseFixture(fixtures["python-dispatch.txt"]!);

  it("an override's callers include the calls that reach it through its base; the base method's context shows its implementations", async () => {
    const { engine } = memoryEngine(files);
    const callers = await engine.callers("SecureCookieSessionInterface.save_session");
    expect(callers.results.map((r) => `${r.qualified} ${r.resolution}`)).toEqual(["app.core.Flask.finish via-base"]);
    const ctx = await engine.context("SessionInterface.save_session", { budget: 4000 });
    expect(
      ctx.chunks
        .filter((c) => c.role === "impl")
        .map((c) => c.symbol)
        .sort(),
    ).toEqual(["app.sessions.NullSession.save_session", "app.sessions.SecureCookieSessionInterface.save_session"]);
  });

  it("a call in a class body has the class as its caller, but the class's own callers do not run it", async () => {
    const { engine } = memoryEngine(files);
    const callers = await engine.callers("SecureCookieSessionInterface", { depth: 3 });
    expect(callers.results.map((r) => `${r.depth} ${r.qualified}`)).toEqual(["1 app.core.Flask"]);
    const make = await engine.callers("Flask");
    expect(make.results.map((r) => r.qualified)).toEqual(["app.core.make"]);
  });
});

describe("the gold-shaped JSON of a call linked to several overloads", () => {
  it("holds one edge per caller, qualified callee and line: overloads share the qualified name", async () => {
    const { engine } = memoryEngine(parseFixture(fixtures["java-overloads.txt"]!));
    const graph = await engine.codeGraph();
    const gold = toGoldGraph(graph);
    const site = (e: { file: string; line: number; callee: string }) => `${e.file}:${e.line} ${e.callee}`;
    // `c.apply()` reaches all three overloads of Calc.apply in the graph, one edge in the JSON.
    expect(graph.calls.filter((e) => e.file === "src/main/java/com/calc/Use.java" && e.line === 9).length).toBe(3);
    expect(
      gold.call_edges.filter((e) => e.file === "src/main/java/com/calc/Use.java" && e.line === 9).map(site),
    ).toEqual(["src/main/java/com/calc/Use.java:9 src/main/java/com/calc/Calc.java#Calc.apply"]);
    const keys = gold.call_edges.map((e) => `${e.caller} ${site(e)} ${e.via} ${e.resolution}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe("the gold-shaped JSON made one item at a time (goldGraphStream)", () => {
  /** Each call edge once per reading in gold shape, across the three lists in document order. */
  function onceAcross(graph: CodeGraph, min: number) {
    const q = (id: number) => graph.symbols[id]!.qualified;
    const seen = new Set<string>();
    const lists: string[][] = [[], [], []];
    const which = (e: CallEdge) => (e.protocol ? 2 : e.resolution === "via-base" ? 1 : 0);
    for (const n of [0, 1, 2])
      for (const e of graph.calls) {
        if (e.confidence < min || which(e) !== n) continue;
        const key = [q(e.caller), q(e.callee), e.file, e.line, e.via, e.resolution].join(" ");
        if (!seen.has(key)) lists[n]!.push(key);
        seen.add(key);
      }
    return lists;
  }
  const read = (edges: Iterable<GoldCallEdge>) =>
    [...edges].map((e) => [e.caller, e.callee, e.file, e.line, e.via, e.resolution].join(" "));

  it("gives what toGoldGraph gives, each edge once across the lists, with the calls in any order", async () => {
    const files = {
      ...parseFixture(fixtures["java-overloads.txt"]!),
      ...parseFixture(fixtures["python-dispatch.txt"]!),
    };
    const { engine } = memoryEngine(files);
    const built = await engine.codeGraph();
    // a protocol edge that reads as a plain call edge of the same site is left out (the call list
    // comes first); a dispatch edge twice is kept once
    const twin = built.calls.find((e) => e.resolution !== "via-base" && !e.protocol)!;
    const base = built.calls.find((e) => e.resolution === "via-base");
    const calls = [...built.calls, { ...twin, protocol: true as const }, ...(base ? [{ ...base }] : [])];
    // the file's edges together, as a build gives them, and scattered (reversed)
    const grouped = { ...built, calls: [...calls].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0)) };
    const scattered = { ...built, calls: [...calls].reverse() };
    expect(new Set(scattered.calls.map((e) => e.file)).size).toBeGreaterThan(1);
    for (const graph of [built, grouped, scattered])
      for (const min of [0, 0.9]) {
        const stream = goldGraphStream(graph, min);
        const lists = [stream.call_edges, stream.dispatch_edges, stream.protocol_edges].map(read);
        expect(lists).toEqual(onceAcross(graph, min));
        const gold = toGoldGraph(graph, min);
        expect([...stream.definitions]).toEqual(gold.definitions);
        expect([...stream.import_edges]).toEqual(gold.import_edges);
        expect([...stream.inherits]).toEqual(gold.inherits);
        expect([gold.call_edges, gold.dispatch_edges, gold.protocol_edges].map(read)).toEqual(lists);
      }
    const q = (id: number) => built.symbols[id]!.qualified;
    const twinReads = [q(twin.caller), q(twin.callee), twin.file, twin.line, twin.via, twin.resolution].join(" ");
    for (const graph of [grouped, scattered]) {
      expect(read(goldGraphStream(graph).call_edges)).toContain(twinReads);
      expect(read(goldGraphStream(graph).protocol_edges)).not.toContain(twinReads);
    }
  });
});
