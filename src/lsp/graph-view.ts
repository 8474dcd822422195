/**
 * What an editor asks of the code graph, answered from the graph itself: the symbols a name at a
 * position stands for, the call sites of a symbol (with each edge's resolution and confidence), a
 * file's definitions. The same edges `callers` and `callees` list; indexes over them are kept
 * per graph, so a warm request costs a few map look-ups.
 */
import type { AmbiguousCall, CallEdge, CodeGraph, Resolution, SymbolNode } from "../index.ts";

/** A symbol a name may stand for, and how sure the graph is. */
export interface Target {
  id: number;
  /** `definition`: the name is the symbol's own; `name`: matched by name only (no edge). */
  resolution: Resolution | "definition" | "name";
  confidence: number;
}

/** One place a symbol is called from. */
export interface Site {
  file: string;
  /** 1-based line, 0-based UTF-16 column of the called name (0 when the call record is gone). */
  line: number;
  col: number;
  caller: number;
  resolution: Resolution;
  confidence: number;
}

interface GraphIndexes {
  /** `file\0line` → the call edges and ambiguous calls there. */
  byLine: Map<string, { calls: CallEdge[]; ambiguous: AmbiguousCall[] }>;
  /** Symbol id → the ambiguous calls that list it as a candidate. */
  possible: Map<number, AmbiguousCall[]>;
}

const indexes = new WeakMap<CodeGraph, GraphIndexes>();

function indexesOf(graph: CodeGraph): GraphIndexes {
  let ix = indexes.get(graph);
  if (ix) return ix;
  ix = { byLine: new Map(), possible: new Map() };
  const at = (file: string, line: number) => {
    const key = `${file}\0${line}`;
    let entry = ix!.byLine.get(key);
    if (!entry) ix!.byLine.set(key, (entry = { calls: [], ambiguous: [] }));
    return entry;
  };
  for (const e of graph.calls) at(e.file, e.line).calls.push(e);
  for (const a of graph.ambiguous) {
    at(a.file, a.line).ambiguous.push(a);
    for (const id of a.candidates) {
      const list = ix.possible.get(id);
      if (list) list.push(a);
      else ix.possible.set(id, [a]);
    }
  }
  indexes.set(graph, ix);
  return ix;
}

/** The id of a file's `index`-th definition. */
function definitionId(graph: CodeGraph, file: string, index: number): number {
  return graph.moduleSymbol.get(file)! + 1 + index;
}

/** Whether a call edge's callee answers to `word` (a constructor edge answers to its class's name). */
function calleeNamed(graph: CodeGraph, e: CallEdge, word: string): boolean {
  const callee = graph.symbols[e.callee]!;
  if (callee.name === word) return true;
  return e.via === "constructor" && callee.kind === "constructor" && graph.symbols[callee.parent]?.name === word;
}

/**
 * The symbols `word` at (line, col) of `file` stands for: the definition it names, else the
 * callees of the calls of that name on that line (ambiguous ones with every candidate), else the
 * definitions of that name (in this file, then in the files it imports, then anywhere when few).
 */
export function targetsAt(graph: CodeGraph, file: string, line: number, col: number, word: string): Target[] {
  const record = graph.records.get(file);
  if (!record || !word) return [];
  const own = record.definitions.findIndex(
    (d) => d.nameLine === line && d.name === word && col >= d.nameCol && col <= d.nameCol + d.name.length,
  );
  if (own >= 0) return [{ id: definitionId(graph, file, own), resolution: "definition", confidence: 1 }];
  const here = indexesOf(graph).byLine.get(`${file}\0${line}`);
  const out: Target[] = [];
  const seen = new Set<number>();
  const add = (t: Target) => {
    if (!seen.has(t.id)) seen.add(t.id), out.push(t);
  };
  for (const e of here?.calls ?? [])
    if (calleeNamed(graph, e, word)) add({ id: e.callee, resolution: e.resolution, confidence: e.confidence });
  for (const a of here?.ambiguous ?? [])
    if (a.name === word) for (const id of a.candidates) add({ id, resolution: "ambiguous", confidence: 0.2 });
  if (out.length) return out.sort((a, b) => b.confidence - a.confidence);
  const named = byName(graph, file, word);
  return named.length ? named : importedModule(graph, file, line, word);
}

/**
 * The file an import on `line` names, when `word` is part of the module as written
 * (`from shop.models import …`, `import "./cart"`): its module symbol.
 */
function importedModule(graph: CodeGraph, file: string, line: number, word: string): Target[] {
  const written = graph.records
    .get(file)
    ?.imports.some((i) => i.line === line && i.module.split(/[^\p{L}\p{N}_$]+/u).includes(word));
  if (!written) return [];
  const edge = graph.imports.find((e) => e.from === file && e.line === line);
  const id = edge ? graph.moduleSymbol.get(edge.to) : undefined;
  return id === undefined ? [] : [{ id, resolution: "import", confidence: 0.95 }];
}

/** Definitions named `word`: this file's, else those of the files it imports, else all of them when at most 20. */
function byName(graph: CodeGraph, file: string, word: string): Target[] {
  const ids = (graph.byName.get(word) ?? []).filter((id) => graph.symbols[id]!.kind !== "module");
  const inFile = ids.filter((id) => graph.symbols[id]!.file === file);
  const imported = new Set(graph.importsFrom.get(file) ?? []);
  const near = inFile.length ? inFile : ids.filter((id) => imported.has(graph.symbols[id]!.file));
  const picked = near.length ? near : ids.length <= 20 ? ids : [];
  const confidence = picked.length === 1 ? 0.5 : 0.2;
  return picked.map((id) => ({ id, resolution: "name" as const, confidence }));
}

/** The column of the call of `name` on `line` of `file` (the first such call), 0 when none is recorded. */
export function callColumn(graph: CodeGraph, file: string, line: number, name: string): number {
  const call = graph.records.get(file)?.calls.find((c) => c.line === line && c.name === name);
  return call?.col ?? 0;
}

/** The name a call edge's site writes: a constructor edge's site names the class. */
function writtenName(graph: CodeGraph, callee: SymbolNode): string {
  return callee.kind === "constructor" ? (graph.symbols[callee.parent]?.name ?? callee.name) : callee.name;
}

/**
 * Every call site of symbol `id`: its callers' edges (as `callers` lists them at depth 1), then the
 * ambiguous calls that list it as a candidate (`callers`' possible callers), confidence first.
 */
export function callSitesOf(graph: CodeGraph, id: number): Site[] {
  const callee = graph.symbols[id]!;
  const name = writtenName(graph, callee);
  const sites: Site[] = [];
  for (const ei of graph.callsTo.get(id) ?? []) {
    const e = graph.calls[ei]!;
    sites.push({
      file: e.file,
      line: e.line,
      col: callColumn(graph, e.file, e.line, name),
      caller: e.caller,
      resolution: e.resolution,
      confidence: e.confidence,
    });
  }
  for (const a of indexesOf(graph).possible.get(id) ?? []) {
    sites.push({
      file: a.file,
      line: a.line,
      col: callColumn(graph, a.file, a.line, a.name),
      caller: a.caller,
      resolution: "ambiguous",
      confidence: 0.2,
    });
  }
  return sites;
}

/** What symbol `id` calls: one entry per callee with its sites (as `callees` lists them at depth 1). */
export function calleesOf(graph: CodeGraph, id: number): { callee: number; sites: Site[] }[] {
  const byCallee = new Map<number, Site[]>();
  for (const ei of graph.callsFrom.get(id) ?? []) {
    const e = graph.calls[ei]!;
    const callee = graph.symbols[e.callee]!;
    const site: Site = {
      file: e.file,
      line: e.line,
      col: callColumn(graph, e.file, e.line, writtenName(graph, callee)),
      caller: e.caller,
      resolution: e.resolution,
      confidence: e.confidence,
    };
    const list = byCallee.get(e.callee);
    if (list) list.push(site);
    else byCallee.set(e.callee, [site]);
  }
  return [...byCallee].map(([callee, sites]) => ({ callee, sites }));
}

/** The ids of a file's definitions, in file order (empty when the file is not indexed). */
export function definitionsOf(graph: CodeGraph, file: string): number[] {
  const mod = graph.moduleSymbol.get(file);
  const record = graph.records.get(file);
  if (mod === undefined || !record) return [];
  return record.definitions.map((_, i) => mod + 1 + i);
}

/** The column of symbol `id`'s name on its name line. */
export function nameColumn(graph: CodeGraph, s: SymbolNode): number {
  return s.kind === "module" ? 0 : (graph.records.get(s.file)?.definitions[s.index]?.nameCol ?? 0);
}
