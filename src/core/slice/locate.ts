/**
 * Locations as targets: a location becomes the symbol that encloses it, or the lines themselves
 * when no single definition does. Every handle an answer prints (`path:start-end`, `path::name`)
 * reads back through here.
 */
import type { CodeGraph, SymbolNode } from "../graph/model.ts";
import type { FileSet } from "../../shared/locations.ts";

export { findFile, parseLocation, type FileSet, type Location } from "../../shared/locations.ts";

/** The graph's source files as a FileSet. */
export function sourceFiles(graph: CodeGraph): FileSet {
  return { has: (p) => graph.moduleSymbol.has(p), paths: () => graph.moduleSymbol.keys() };
}

/**
 * The symbols of `path` that a line range names: the innermost definition enclosing the whole
 * range (a method, not its class); for a range across several definitions, the outermost ones it
 * touches; none for module-level lines.
 */
export function symbolsAt(graph: CodeGraph, path: string, start: number, end: number): SymbolNode[] {
  const moduleId = graph.moduleSymbol.get(path);
  if (moduleId === undefined) return [];
  const defs = graph.records.get(path)?.definitions ?? [];
  let innermost: SymbolNode | undefined;
  for (let i = 0; i < defs.length; i++) {
    const s = graph.symbols[moduleId + 1 + i]!;
    if (s.start <= start && s.end >= end && (!innermost || s.start >= innermost.start)) innermost = s;
  }
  if (innermost) return [innermost];
  const touched: SymbolNode[] = [];
  for (let i = 0; i < defs.length; i++) {
    const s = graph.symbols[moduleId + 1 + i]!;
    if (s.start <= end && s.end >= start && !touched.some((t) => t.start <= s.start && t.end >= s.end)) touched.push(s);
  }
  return touched;
}
