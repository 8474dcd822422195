/**
 * A graph built with its calls deferred (build.ts `deferCalls`: what an engine for one answer
 * builds) must be the graph a build makes once anything reads its calls, and `callsAmong` must give
 * the calls between some symbols exactly as the whole graph holds them, before and after. Records
 * come from the real extractor over real code: this project's own graph and search modules (about
 * sixty TypeScript files) and a Python package with classes, overrides and imports.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildGraph, callsAmong, callsDeferred, graphFromEdges, type GraphEdges } from "../../src/core/graph/build.ts";
import type { FileRecord } from "../../src/core/extract/record.ts";
import type { CallEdge, CodeGraph } from "../../src/core/graph/model.ts";
import { memoryEngine } from "../support/platform.ts";
import { mulberry32 } from "../support/rng.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** The text of every .ts file under `dirs` of this project, by path. */
function ownSources(dirs: string[]): Record<string, string> {
  const files: Record<string, string> = {};
  for (const dir of dirs)
    for (const name of fs.readdirSync(path.join(ROOT, dir)))
      if (name.endsWith(".ts")) files[`${dir}/${name}`] = fs.readFileSync(path.join(ROOT, dir, name), "utf8");
  return files;
}

const PYTHON: Record<string, string> = {
  "shop/base.py": [
    "class Store:",
    "    registry = {}",
    "    def save(self, item):",
    "        self.check(item)",
    "        return self.write(item)",
    "    def check(self, item):",
    "        if not item.price:",
    "            raise ValueError('no price')",
    "    def write(self, item):",
    "        self.registry[item.key] = item",
    "",
  ].join("\n"),
  "shop/cart.py": [
    "from shop.base import Store",
    "class Cart(Store):",
    "    def write(self, item):",
    "        self.items.append(item)",
    "        return super().write(item)",
    "    def total(self):",
    "        return sum(i.price for i in self.items)",
    "def checkout(cart: Cart, items):",
    "    for item in items:",
    "        cart.save(item)",
    "    return cart.total()",
    "",
  ].join("\n"),
};

async function records(files: Record<string, string>): Promise<FileRecord[]> {
  return memoryEngine(files).engine.records();
}

const paths = (recs: FileRecord[]) => recs.map((r) => r.path);
const line = (e: CallEdge) =>
  `${e.caller}->${e.callee} ${e.file}:${e.line} ${e.via} ${e.resolution}${e.classBody ? " body" : ""}`;
const entries = (m: Map<number, number[]>) => [...m].map(([k, v]) => `${k}:${v.join(",")}`);

/** What resolving calls makes, as text, in the graph's order. */
function callFacts(g: CodeGraph) {
  return {
    calls: g.calls.map(line),
    external: g.external.map((e) => `${e.caller} ${e.target} ${e.file}:${e.line}`),
    ambiguous: g.ambiguous.map((e) => `${e.caller} ${e.name} [${e.candidates.join(",")}] ${e.file}:${e.line}`),
    unresolved: g.unresolvedCalls,
    typeUses: entries(g.typeUses),
    edgeCounts: [...g.edgeCounts],
    callsFrom: entries(g.callsFrom),
    callsTo: entries(g.callsTo),
    imports: g.imports.map((e) => `${e.from}->${e.to}:${e.line}`),
    inherits: g.inherits.map((e) => `${e.child}<${e.base} ${e.kind}`),
  };
}

/** The calls between `ids` by definition: per symbol (ascending), every call of the whole graph it makes to one of them, and receives from one. */
function amongByDefinition(g: CodeGraph, ids: Set<number>): { from: string[]; to: string[] } {
  const order = [...ids].sort((a, b) => a - b);
  return {
    from: order.flatMap((id) =>
      g.calls.filter((e) => e.caller === id && ids.has(e.callee)).map((e) => `${id} out ${line(e)}`),
    ),
    to: order.flatMap((id) =>
      g.calls.filter((e) => e.callee === id && ids.has(e.caller)).map((e) => `${id} in ${line(e)}`),
    ),
  };
}

function amongText(g: CodeGraph, ids: Set<number>): { from: string[]; to: string[] } {
  const among = callsAmong(g, ids);
  const order = [...ids].sort((a, b) => a - b);
  return {
    from: order.flatMap((id) => (among.from.get(id) ?? []).map((e) => `${id} out ${line(e)}`)),
    to: order.flatMap((id) => (among.to.get(id) ?? []).map((e) => `${id} in ${line(e)}`)),
  };
}

describe.each([
  ["this project's graph and search modules", () => ownSources(["src/core/graph", "src/core/search"])],
  ["a Python package", () => PYTHON],
])("calls deferred until read, on %s", (_name, files) => {
  it("are those of a build once anything reads them", async () => {
    const recs = await records(files());
    const full = buildGraph(recs, paths(recs), new Map());
    const deferred = buildGraph(recs, paths(recs), new Map(), { deferCalls: true });
    expect(callsDeferred(deferred)).toBe(true);
    expect(callsDeferred(full)).toBe(false);
    expect(full.calls.length).toBeGreaterThan(4);
    expect(callFacts(deferred)).toEqual(callFacts(full));
    expect(callsDeferred(deferred)).toBe(false);
  });

  it("callsAmong answers from the files asked about, as the whole graph would", async () => {
    const recs = await records(files());
    const full = buildGraph(recs, paths(recs), new Map());
    const random = mulberry32(7);
    let resolvedBefore = 0;
    const callers = [...full.callsFrom.keys()];
    for (let round = 0; round < 25; round++) {
      // Half the symbols are callers of something, so that most subsets hold calls between them.
      const ids = new Set<number>();
      const size = Math.min(2 + Math.floor(random() * 40), full.symbols.length);
      while (ids.size < size) {
        const pick =
          random() < 0.5 ? callers[Math.floor(random() * callers.length)]! : Math.floor(random() * full.symbols.length);
        ids.add(pick);
        for (const i of full.callsFrom.get(pick) ?? []) if (random() < 0.3) ids.add(full.calls[i]!.callee);
      }
      const deferred = buildGraph(recs, paths(recs), new Map(), { deferCalls: true });
      const early = amongText(deferred, ids);
      expect(callsDeferred(deferred)).toBe(true); // (answered without resolving every call)
      expect(early).toEqual(amongText(full, ids));
      const expected = amongByDefinition(full, ids);
      expect(early).toEqual(expected);
      resolvedBefore += expected.from.length;
    }
    expect(resolvedBefore).toBeGreaterThan(10);
  });

  it("a graph from the edges kept before its calls defers them, and resolves them as a build does", async () => {
    const recs = await records(files());
    const full = buildGraph(recs, paths(recs), new Map());
    const early = graphFromEdges(recs, paths(recs), new Map(), { imports: full.imports, inherits: full.inherits });
    expect(callsDeferred(early)).toBe(true);
    expect(callFacts(early)).toEqual(callFacts(full));
    const { calls, external, ambiguous, unresolvedCalls, imports, inherits, typeUses, edgeCounts } = full;
    const edges: GraphEdges = { calls, external, ambiguous, unresolvedCalls, imports, inherits, typeUses, edgeCounts };
    expect(callsDeferred(graphFromEdges(recs, paths(recs), new Map(), edges))).toBe(false);
  });

  it("a record made without the field names it binds (by hand) resolves as one made by the extractor", async () => {
    const recs = await records(files());
    expect(recs.some((r) => r.fields)).toBe(true);
    const bare = recs.map(({ fields: _fields, ...r }) => r as FileRecord);
    expect(callFacts(buildGraph(bare, paths(bare), new Map()))).toEqual(
      callFacts(buildGraph(recs, paths(recs), new Map())),
    );
  });
});
