/** The graph in the `code-graph-gold/1` JSON shape that ../shared/tools/graph-gold scores. */
import type { CallEdge, CodeGraph } from "../graph/model.ts";

/** One definition in gold shape. */
export interface GoldDefinition {
  file: string;
  name: string;
  qualified: string;
  kind: string;
  start_line: number;
  end_line: number;
  first_line?: number;
}

/** The gold-shaped graph; its edges also carry codeslice's own `resolution` and `confidence`. */
export interface GoldGraph {
  meta: { tool: string; format: string; files: number; min_confidence: number };
  definitions: GoldDefinition[];
  call_edges: GoldCallEdge[];
  /**
   * Calls that can reach an override or implementation through a base method (`via-base`), apart: SCIP gold holds
   * static references only.
   */
  dispatch_edges: GoldCallEdge[];
  /**
   * Calls a statement or operator makes (`with x` → `__enter__`, `a + b` → `__add__`), apart: a compiler's reference
   * list holds none.
   */
  protocol_edges: GoldCallEdge[];
  import_edges: { from: string; to: string }[];
  inherits: { child: string; base: string; kind: string }[];
}

/** One call edge in gold shape, with codeslice's resolution and confidence. */
export interface GoldCallEdge {
  caller: string;
  callee: string;
  file: string;
  line: number;
  via: string;
  resolution: string;
  confidence: number;
}

/**
 * The gold-shaped graph with each list as an iterable that makes its items one at a time, in the
 * order and with the values `toGoldGraph` gives: a writer streams it without the whole document in
 * memory (the Linux kernel's graph has millions of edges; the arrays and the string set that kept
 * each edge once were gigabytes).
 */
export type GoldGraphStream = {
  [K in keyof GoldGraph]: GoldGraph[K] extends (infer T)[] ? Iterable<T> : GoldGraph[K];
};

/**
 * Builds the gold-shaped document; call edges below `minConfidence` are left out. Edges that read
 * the same in this shape (a call linked to several overloads of one qualified name) are kept once.
 */
export function toGoldGraph(graph: CodeGraph, minConfidence = 0): GoldGraph {
  const s = goldGraphStream(graph, minConfidence);
  return {
    meta: s.meta,
    definitions: [...s.definitions],
    call_edges: [...s.call_edges],
    dispatch_edges: [...s.dispatch_edges],
    protocol_edges: [...s.protocol_edges],
    import_edges: [...s.import_edges],
    inherits: [...s.inherits],
  };
}

/** The three edge lists of the gold shape, in their order. */
const EDGE_LISTS = [
  (e: CallEdge) => e.resolution !== "via-base" && !e.protocol,
  (e: CallEdge) => e.resolution === "via-base" && !e.protocol,
  (e: CallEdge) => e.protocol === true,
] as const;

/**
 * The gold-shaped graph as iterables (see GoldGraphStream). Each list is made afresh when iterated,
 * and the lists must be iterated in the order of the document (an edge list keeps an edge once
 * across the lists before it, as one pass over the whole document does).
 */
export function goldGraphStream(graph: CodeGraph, minConfidence = 0): GoldGraphStream {
  const q = (id: number) => graph.symbols[id]!.qualified;
  const edge = (e: CallEdge): GoldCallEdge => ({
    caller: q(e.caller),
    callee: q(e.callee),
    file: e.file,
    line: e.line,
    via: e.via,
    resolution: e.resolution,
    confidence: e.confidence,
  });
  const kept = (e: CallEdge) => e.confidence >= minConfidence;
  // (the file is left out: the set holds one file's keys, see onceEach)
  const key = (e: CallEdge) => `${q(e.caller)}\0${q(e.callee)}\0${e.line}\0${e.via}\0${e.resolution}`;
  const lists = EDGE_LISTS.map((inList, n) => ({
    *[Symbol.iterator]() {
      for (const e of onceEach(graph.calls, (e) => kept(e) && inList(e), n, kept, key)) yield edge(e);
    },
  }));
  return {
    meta: {
      tool: "codeslice",
      format: "code-graph-gold/1",
      files: graph.moduleSymbol.size,
      min_confidence: minConfidence,
    },
    definitions: {
      *[Symbol.iterator]() {
        for (const s of graph.symbols) {
          if (s.kind === "module") continue;
          const g: GoldDefinition = {
            file: s.file,
            name: s.name,
            qualified: s.qualified,
            kind: s.kind,
            start_line: s.nameLine,
            end_line: s.end,
          };
          if (s.start < s.nameLine) g.first_line = s.start;
          yield g;
        }
      },
    },
    call_edges: lists[0]!,
    dispatch_edges: lists[1]!,
    protocol_edges: lists[2]!,
    import_edges: {
      *[Symbol.iterator]() {
        for (const e of graph.imports) yield { from: e.from, to: e.to };
      },
    },
    inherits: {
      *[Symbol.iterator]() {
        for (const e of graph.inherits) yield { child: q(e.child), base: q(e.base), kind: e.kind };
      },
    },
  };
}

/**
 * The edges of list `n` that `inList` keeps, each once by how it reads in gold shape, counting as
 * seen every kept edge of the lists before it (`kept` and the list predicates say which). An edge
 * reads as its caller's and callee's qualified names, file, line, via and resolution: two edges
 * that read the same have the same file, so the set of keys is one file's at a time. A build gives
 * each file's edges together (the calls are linked file by file); where a file's edges are not
 * together, one set for the whole list is kept instead, as before.
 */
function* onceEach(
  calls: readonly CallEdge[],
  inList: (e: CallEdge) => boolean,
  n: number,
  kept: (e: CallEdge) => boolean,
  key: (e: CallEdge) => string,
): Generator<CallEdge> {
  const grouped = byFileTogether(calls);
  // (without one file at a time, the key needs the file)
  const keyOf = (e: CallEdge) => (grouped ? key(e) : `${e.file}\0${key(e)}`);
  const before = (e: CallEdge) => kept(e) && EDGE_LISTS.slice(0, n).some((p) => p(e));
  let seen = new Set<string>();
  let file: string | undefined;
  for (let i = 0; i < calls.length; i++) {
    const e = calls[i]!;
    if (grouped && e.file !== file) {
      file = e.file;
      seen = new Set();
      // the edges of this file the lists before it kept
      for (let j = i; j < calls.length && calls[j]!.file === file; j++)
        if (before(calls[j]!)) seen.add(keyOf(calls[j]!));
    } else if (!grouped && i === 0 && n > 0) {
      for (const x of calls) if (before(x)) seen.add(keyOf(x));
    }
    if (!inList(e)) continue;
    const k = keyOf(e);
    if (seen.has(k)) continue;
    seen.add(k);
    yield e;
  }
}

/** True when each file's edges are next to each other in `calls`. */
function byFileTogether(calls: readonly CallEdge[]): boolean {
  const done = new Set<string>();
  for (let i = 0; i < calls.length; i++) {
    const f = calls[i]!.file;
    if (i > 0 && calls[i - 1]!.file !== f) {
      done.add(calls[i - 1]!.file);
      if (done.has(f)) return false;
    }
  }
  return true;
}
