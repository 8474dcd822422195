/**
 * The engine's state is in parts (src/core/engine/state.ts), each written by one module: the
 * index passes by passes.ts, the graph cache by graph-cache.ts, the text index by text.ts, the
 * first index's waiters by refresh.ts. Another module that needs a part changed calls its owner
 * (portable.ts calls dropIndex and dropGraph instead of resetting their fields). Checked on every
 * engine file, and on deliberately wrong writes so a checker that sees nothing fails.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const engineDir = fileURLToPath(new URL("../../src/core/engine/", import.meta.url));

/** Each part of EngineState and the one file that may write it. */
const OWNERS: Record<string, string> = {
  passes: "passes.ts",
  graph: "graph-cache.ts",
  text: "text.ts",
  refresh: "refresh.ts",
};

const MUTATORS = new Set(["set", "add", "delete", "clear"]);

/** The part a written expression belongs to: `s.<part>.<field>…` (any object name), else undefined. */
function partOf(node: ts.Expression): string | undefined {
  let e: ts.Expression = node;
  const chain: string[] = [];
  while (ts.isPropertyAccessExpression(e) || ts.isNonNullExpression(e)) {
    if (ts.isPropertyAccessExpression(e)) chain.unshift(e.name.text);
    e = e.expression;
  }
  return chain.length >= 2 && chain[0]! in OWNERS ? chain[0] : undefined;
}

/** `file: part.field…` for each write to a state part in `text` made outside the part's owner. */
export function foreignWrites(file: string, text: string): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const out: string[] = [];
  const flag = (target: ts.Expression) => {
    const part = partOf(target);
    if (part && OWNERS[part] !== file) out.push(`${file}: ${target.getText(sf)}`);
  };
  const visit = (node: ts.Node) => {
    if (
      ts.isBinaryExpression(node) &&
      node.operatorToken.kind >= ts.SyntaxKind.FirstAssignment &&
      node.operatorToken.kind <= ts.SyntaxKind.LastAssignment
    )
      flag(node.left);
    else if (
      (ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) &&
      (node.operator === ts.SyntaxKind.PlusPlusToken || node.operator === ts.SyntaxKind.MinusMinusToken)
    )
      flag(node.operand);
    else if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      MUTATORS.has(node.expression.name.text)
    )
      flag(node.expression.expression);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

describe("the engine's state parts", () => {
  it("are each written by their owner module only", () => {
    const files = fs.readdirSync(engineDir).filter((f) => f.endsWith(".ts"));
    expect(files).toEqual(expect.arrayContaining(Object.values(OWNERS)));
    const writes = files.flatMap((f) => foreignWrites(f, fs.readFileSync(path.join(engineDir, f), "utf8")));
    expect(writes).toEqual([]);
  });

  it("the checker flags a write from another module, and lets the owner write", () => {
    const text =
      "function f(s) {\n  s.graph.cache = undefined;\n  s.passes.dirty ||= true;\n  s.refresh.progressListeners.add(cb);\n  s.passes.late.parsed++;\n  const x = s.graph.cache;\n}\n";
    expect(foreignWrites("portable.ts", text)).toEqual([
      "portable.ts: s.graph.cache",
      "portable.ts: s.passes.dirty",
      "portable.ts: s.refresh.progressListeners",
      "portable.ts: s.passes.late.parsed",
    ]);
    expect(foreignWrites("graph-cache.ts", "s.graph.cache = undefined; s.graph.routes.set(g, r);")).toEqual([]);
  });
});
