/**
 * Call-edge fixtures marked in their comments: a line ending in `<marker> calls: A, B` must have
 * edges to exactly those callees (qualified names), and `<marker> calls: none` none at all.
 */
import type { CodeGraph } from "../../src/core/graph/model.ts";
import { memoryEngine, parseFixture } from "./platform.ts";

/** The marked lines' wanted callees and the graph's callees on those lines, both as `path:line callee`. */
export async function markedCalls(
  fixture: string,
  marker = "#",
): Promise<{ want: string[]; got: string[]; graph: CodeGraph }> {
  const files = parseFixture(fixture);
  const { engine } = memoryEngine(files);
  const graph = await engine.codeGraph();
  const want: string[] = [];
  const lines = new Set<string>();
  const mark = new RegExp(`${marker} calls: (.+)$`);
  for (const [path, text] of Object.entries(files)) {
    text.split("\n").forEach((line, i) => {
      const m = mark.exec(line);
      if (!m) return;
      lines.add(`${path}:${i + 1}`);
      if (m[1]!.trim() !== "none") for (const c of m[1]!.split(",")) want.push(`${path}:${i + 1} ${c.trim()}`);
    });
  }
  const got = [
    ...new Set(
      graph.calls
        .filter((e) => lines.has(`${e.file}:${e.line}`))
        .map((e) => `${e.file}:${e.line} ${graph.symbols[e.callee]!.qualified}`),
    ),
  ];
  return { want: want.sort(), got: got.sort(), graph };
}
