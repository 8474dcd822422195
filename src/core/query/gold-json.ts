/** The graph in the `code-graph-gold/1` JSON shape that ../shared/tools/graph-gold scores. */
import type { CodeGraph } from "../graph/model.ts";

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
 * Builds the gold-shaped document; call edges below `minConfidence` are left out. Edges that read
 * the same in this shape (a call linked to several overloads of one qualified name) are kept once.
 */
export function toGoldGraph(graph: CodeGraph, minConfidence = 0): GoldGraph {
  const q = (id: number) => graph.symbols[id]!.qualified;
  const edge = (e: CodeGraph["calls"][number]): GoldCallEdge => ({
    caller: q(e.caller),
    callee: q(e.callee),
    file: e.file,
    line: e.line,
    via: e.via,
    resolution: e.resolution,
    confidence: e.confidence,
  });
  const seen = new Set<string>();
  const once = (e: GoldCallEdge): boolean => {
    const key = `${e.caller}\0${e.callee}\0${e.file}\0${e.line}\0${e.via}\0${e.resolution}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  };
  const definitions: GoldDefinition[] = [];
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
    definitions.push(g);
  }
  return {
    meta: {
      tool: "codeslice",
      format: "code-graph-gold/1",
      files: graph.moduleSymbol.size,
      min_confidence: minConfidence,
    },
    definitions,
    call_edges: graph.calls
      .filter((e) => e.confidence >= minConfidence && e.resolution !== "via-base" && !e.protocol)
      .map(edge)
      .filter(once),
    dispatch_edges: graph.calls
      .filter((e) => e.confidence >= minConfidence && e.resolution === "via-base" && !e.protocol)
      .map(edge)
      .filter(once),
    protocol_edges: graph.calls
      .filter((e) => e.confidence >= minConfidence && e.protocol)
      .map(edge)
      .filter(once),
    import_edges: graph.imports.map((e) => ({ from: e.from, to: e.to })),
    inherits: graph.inherits.map((e) => ({ child: q(e.child), base: q(e.base), kind: e.kind })),
  };
}
