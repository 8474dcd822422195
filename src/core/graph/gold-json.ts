/** The graph in the `code-graph-gold/1` JSON shape that ../shared/tools/graph-gold scores. */
import type { FileRecord } from "../extract/record.ts";
import { qualifiedName } from "./qualify.ts";

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

/** The gold-shaped graph document. */
export interface GoldGraph {
  meta: { tool: string; format: string; files: number };
  definitions: GoldDefinition[];
  call_edges: { caller: string; callee: string; file: string; line: number; via: string; resolution?: string; confidence?: number }[];
  import_edges: { from: string; to: string }[];
  inherits: { child: string; base: string; kind: string }[];
}

/** Builds the gold-shaped document from records (definitions only until edges exist). */
export function toGoldGraph(records: Iterable<FileRecord>): GoldGraph {
  const definitions: GoldDefinition[] = [];
  let files = 0;
  for (const r of records) {
    files++;
    for (const d of r.definitions) {
      const g: GoldDefinition = {
        file: r.path,
        name: d.name,
        qualified: qualifiedName(r.path, r.language, d.qualified),
        kind: d.kind,
        start_line: d.nameLine,
        end_line: d.end,
      };
      if (d.start < d.nameLine) g.first_line = d.start;
      definitions.push(g);
    }
  }
  return { meta: { tool: "codeslice", format: "code-graph-gold/1", files }, definitions, call_edges: [], import_edges: [], inherits: [] };
}
