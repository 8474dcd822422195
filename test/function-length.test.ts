/**
 * The house rule "no function over ~150 lines", checked on every .ts file under src/core and the
 * front ends (src/cli, src/mcp, src/worker, src/lsp) with the TypeScript parser: function declarations, methods, accessors, constructors, arrow
 * functions and function expressions. A function's length is the line span of its body, nested
 * functions included (a factory that returns forty closures is one long function). The checker also
 * runs on a synthetic long function, so a checker that sees nothing fails.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const repoRoot = fileURLToPath(new URL("..", import.meta.url));

/** The most lines a function body in src/core or a front end may span. */
export const MAX_FUNCTION_LINES = 150;

/**
 * Temporary allowances, "file:function" → why. Each one names the change that removes it; an
 * allowance for a function that is no longer too long fails the test, so none outlives its reason.
 */
const ALLOWED = new Map<string, string>([]);

/** A function-like node's name for the report: declared name, Class.method, or the binding it is assigned to. */
function nameOf(node: ts.FunctionLikeDeclaration, sf: ts.SourceFile): string {
  const own =
    node.name &&
    (ts.isIdentifier(node.name) ||
      ts.isPrivateIdentifier(node.name) ||
      ts.isStringLiteral(node.name) ||
      ts.isNumericLiteral(node.name))
      ? node.name.text
      : undefined;
  const owner = node.parent && (ts.isClassLike(node.parent) ? node.parent.name?.text : undefined);
  if (ts.isConstructorDeclaration(node)) return `${owner ?? "<class>"}.constructor`;
  if (own) return owner ? `${owner}.${own}` : own;
  const p = node.parent;
  if (p && ts.isVariableDeclaration(p) && ts.isIdentifier(p.name)) return p.name.text;
  if (p && ts.isPropertyAssignment(p) && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name))) return p.name.text;
  if (p && ts.isPropertyDeclaration(p) && ts.isIdentifier(p.name)) return p.name.text;
  if (p && ts.isBinaryExpression(p) && p.operatorToken.kind === ts.SyntaxKind.EqualsToken) return p.left.getText(sf);
  return `<anonymous@${sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1}>`;
}

/** Every function in `text` whose body spans more than `max` lines, as "file:name:lines". */
export function longFunctions(file: string, text: string, max = MAX_FUNCTION_LINES): { key: string; report: string }[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const out: { key: string; report: string }[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const fn = node as ts.FunctionLikeDeclaration;
      const body = fn.body!;
      const first = sf.getLineAndCharacterOfPosition(body.getStart(sf)).line;
      const last = sf.getLineAndCharacterOfPosition(body.getEnd()).line;
      const lines = last - first + 1;
      if (lines > max) {
        const name = nameOf(fn, sf);
        out.push({ key: `${file}:${name}`, report: `${file}:${first + 1} ${name}: ${lines} lines` });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** The folders the rule covers: the core, and the front ends whose entry points grew longest (main(), serveEngine). */
const CHECKED = ["src/core", "src/cli", "src/mcp", "src/worker", "src/lsp"];

function checkedFiles(): string[] {
  return CHECKED.flatMap((dir) =>
    (fs.readdirSync(path.join(repoRoot, dir), { recursive: true }) as string[])
      .map((f) => `${dir}/${f.split(path.sep).join("/")}`)
      .filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts")),
  ).sort();
}

describe("function length", () => {
  it(`no function in ${CHECKED.join(", ")} spans more than ${MAX_FUNCTION_LINES} lines`, () => {
    const found = checkedFiles().flatMap((file) =>
      longFunctions(file, fs.readFileSync(path.join(repoRoot, file), "utf8")),
    );
    expect(found.filter((f) => !ALLOWED.has(f.key)).map((f) => f.report)).toEqual([]);
    const stale = [...ALLOWED.keys()].filter((key) => !found.some((f) => f.key === key));
    expect(stale.map((key) => `${key} is within ${MAX_FUNCTION_LINES} lines now: remove its allowance`)).toEqual([]);
  });

  it("the checker measures every kind of function, nested ones included", () => {
    const body = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join("\n");
    const src = [
      `export function decl() {\n${body(3)}\n}`,
      `function tooLong() {\n${body(4)}\n}`,
      `const arrow = () => {\n${body(4)}\n};`,
      `const expr = function () {\n${body(4)}\n};`,
      `class K {\n  method() {\n${body(4)}\n  }\n  constructor() {\n${body(4)}\n  }\n}`,
      `const o = { prop: () => {\n${body(4)}\n}, short() { return 1; } };`,
      `export function outer() {\n  const inner = () => {\n${body(2)}\n  };\n  return inner;\n}`,
    ].join("\n");
    expect(longFunctions("src/core/x.ts", src, 5).map((f) => f.report)).toEqual([
      "src/core/x.ts:6 tooLong: 6 lines",
      "src/core/x.ts:12 arrow: 6 lines",
      "src/core/x.ts:18 expr: 6 lines",
      "src/core/x.ts:25 K.method: 6 lines",
      "src/core/x.ts:31 K.constructor: 6 lines",
      "src/core/x.ts:38 prop: 6 lines",
      "src/core/x.ts:44 outer: 7 lines",
    ]);
  });
});
