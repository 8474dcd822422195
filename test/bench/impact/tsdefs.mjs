// Definitions in TypeScript/TSX sources, from the TypeScript compiler API (the project's own
// typescript 5.9 devDependency; typescript 7 has no JS compiler API). No codeslice code involved.
// Copied from the localize benchmark's tsdefs.mjs (../shared/tools/localize) unchanged but for
// where the compiler is loaded from.
//
// defsOfTs(path, text) -> [{ qual, name, kind: "function"|"method"|"class"|"type", start, end, norm }]
// Lines are 1-based; start is the first token (JSDoc and other leading comments excluded).
// A function is: a function declaration, a method / constructor / accessor, or an arrow function
// or function expression bound to a name (const x = () => ..., class field, object property).
// Anonymous callbacks are not definitions: their lines belong to the nearest named one.
// `norm` hashes the node's token stream with comments, whitespace and type syntax dropped.
import { createHash } from "node:crypto";
import { createRequire } from "node:module";

const ts = createRequire(new URL("../../../package.json", import.meta.url))("typescript");
if (typeof ts.createSourceFile !== "function")
  throw new Error(
    `typescript ${ts.version} has no JS compiler API; run \`npm ci\` in the codeslice checkout (typescript 5.9)`,
  );

function unwrap(e) {
  while (
    e &&
    (ts.isParenthesizedExpression(e) ||
      ts.isAsExpression(e) ||
      ts.isSatisfiesExpression?.(e) ||
      ts.isTypeAssertionExpression?.(e) ||
      ts.isNonNullExpression(e))
  )
    e = e.expression;
  return e;
}
const isFn = (e) => e && (ts.isArrowFunction(e) || ts.isFunctionExpression(e));

function nameText(n) {
  if (!n) return undefined;
  if (ts.isIdentifier(n) || ts.isPrivateIdentifier(n) || ts.isStringLiteral(n) || ts.isNumericLiteral(n)) return n.text;
  if (ts.isComputedPropertyName(n)) return `[${n.expression.getText()}]`;
  return undefined;
}

function tokenHash(sf, node, skipBodiesOf) {
  const text = sf.text;
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, /*skipTrivia*/ true, sf.languageVariant, text);
  const start = node.getStart(sf),
    end = node.getEnd();
  const parts = [];
  // For a class "shell", the member functions' text is cut out so only the class's own lines count.
  const holes = (skipBodiesOf || []).map((m) => [m.getStart(sf), m.getEnd()]);
  // Type syntax does not count as a code change (typing-only commits are not tasks here).
  // The `:` / `as` / `satisfies` in front of a type goes with it.
  const typeHoles = (n) =>
    ts.forEachChild(n, (c) => {
      if (!ts.isTypeNode(c)) return typeHoles(c);
      let a = c.getStart(sf);
      const before = text.slice(Math.max(0, a - 40), a);
      const m = before.match(/(:|\bas|\bsatisfies)\s*$/);
      if (m) a -= m[0].length;
      holes.push([a, c.getEnd()]);
    });
  typeHoles(node);
  holes.sort((a, b) => a[0] - b[0]);
  scanner.setTextPos(start);
  let tok;
  while ((tok = scanner.scan()) !== ts.SyntaxKind.EndOfFileToken) {
    const p = scanner.getTokenStart ? scanner.getTokenStart() : scanner.getTokenPos();
    if (p >= end) break;
    const hole = holes.find(([a, b]) => p >= a && p < b);
    if (hole) {
      scanner.setTextPos(hole[1]);
      continue;
    }
    parts.push(scanner.getTokenText());
  }
  return createHash("sha1").update(parts.join(" ")).digest("hex").slice(0, 16);
}

export function defsOfTs(file, text) {
  const kind = file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const line = (pos) => sf.getLineAndCharacterOfPosition(pos).line + 1;
  const out = [];
  const parseErrors = sf.parseDiagnostics?.length || 0;

  function add(node, rangeNode, name, k, chain, members) {
    const qual = [...chain, name].join(".");
    out.push({
      qual,
      name,
      kind: k,
      start: line(rangeNode.getStart(sf)),
      end: line(rangeNode.getEnd()),
      norm: tokenHash(sf, rangeNode, members),
    });
    return [...chain, name];
  }

  function visit(node, chain, inClass) {
    let next = chain,
      nextInClass = inClass;
    if (ts.isFunctionDeclaration(node) && node.name) {
      next = add(node, node, node.name.text, inClass ? "method" : "function", chain);
      nextInClass = false;
    } else if (ts.isClassDeclaration(node) || ts.isClassExpression(node)) {
      let nm = node.name?.text;
      if (!nm && ts.isVariableDeclaration(node.parent) && ts.isIdentifier(node.parent.name)) nm = node.parent.name.text;
      if (!nm && ts.isClassDeclaration(node)) nm = "default";
      if (nm) {
        const members = node.members.filter(
          (m) =>
            ts.isMethodDeclaration(m) ||
            ts.isConstructorDeclaration(m) ||
            ts.isGetAccessor(m) ||
            ts.isSetAccessor(m) ||
            (ts.isPropertyDeclaration(m) && isFn(unwrap(m.initializer))),
        );
        next = add(node, node, nm, "class", chain, members);
        nextInClass = true;
      }
    } else if (ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node) || ts.isEnumDeclaration(node)) {
      next = add(node, node, node.name.text, "type", chain);
    } else if (ts.isMethodDeclaration(node) || ts.isGetAccessor(node) || ts.isSetAccessor(node)) {
      const nm = nameText(node.name);
      if (nm && node.body) {
        next = add(node, node, nm, "method", chain);
        nextInClass = false;
      }
    } else if (ts.isConstructorDeclaration(node) && node.body) {
      next = add(node, node, "constructor", "method", chain);
      nextInClass = false;
    } else if (ts.isPropertyDeclaration(node) && isFn(unwrap(node.initializer))) {
      const nm = nameText(node.name);
      if (nm) {
        next = add(node, node, nm, "method", chain);
        nextInClass = false;
      }
    } else if (ts.isPropertyAssignment(node) && isFn(unwrap(node.initializer))) {
      const nm = nameText(node.name);
      if (nm) {
        next = add(node, node, nm, "method", chain);
        nextInClass = false;
      }
    } else if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && isFn(unwrap(node.initializer))) {
      // Range: the whole `export const x = ...;` statement when it declares only this name.
      const list = node.parent,
        stmt = list?.parent;
      const rangeNode = stmt && ts.isVariableStatement(stmt) && list.declarations.length === 1 ? stmt : node;
      next = add(node, rangeNode, node.name.text, inClass ? "method" : "function", chain);
      nextInClass = false;
    } else if (
      isFn(node) &&
      node.name &&
      !ts.isVariableDeclaration(node.parent) &&
      !ts.isPropertyAssignment(node.parent) &&
      !ts.isPropertyDeclaration(node.parent)
    ) {
      // named function expression used as a value: `return async function cors(c, next) {...}`
      next = add(node, node, node.name.text, "function", chain);
      nextInClass = false;
    }
    ts.forEachChild(node, (c) => visit(c, next, nextInClass));
  }
  ts.forEachChild(sf, (c) => visit(c, [], false));
  return { defs: out, parseErrors };
}
