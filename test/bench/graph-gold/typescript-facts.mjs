// Syntax facts of one TypeScript file for the gold graph, from the TypeScript compiler's own parser.
//
// Same shape as python-facts.py: definitions (name token, span, enclosing definition), call sites
// (the callee's name token), heritage clauses (the token naming each base). Resolution is not done
// here: the SCIP index (the TypeScript checker) says what each token means.
// Lines are 1-based; columns are UTF-16 code units (TypeScript positions already are).

/** Strips `( )`, `!`, `as T`, `<T>x` and `satisfies T` around an expression. */
export function unwrap(ts, e) {
  while (
    e &&
    (ts.isParenthesizedExpression(e) ||
      ts.isNonNullExpression(e) ||
      ts.isAsExpression(e) ||
      ts.isTypeAssertionExpression(e) ||
      ts.isSatisfiesExpression(e))
  )
    e = e.expression;
  return e;
}

/**
 * @param ts the `typescript` module (5.9, from the bench tools folder)
 * @returns {{module: string, defs: object[], calls: object[], bases: object[]}}
 */
export function typescriptFacts(ts, rel, text) {
  const sf = ts.createSourceFile(
    rel,
    text,
    ts.ScriptTarget.Latest,
    true,
    rel.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const defs = [],
    calls = [],
    bases = [];
  const pos = (p) => sf.getLineAndCharacterOfPosition(p);
  const isFunctionValue = (init) => {
    const u = unwrap(ts, init);
    return !!u && (ts.isArrowFunction(u) || ts.isFunctionExpression(u));
  };
  const memberName = (n) =>
    ts.isIdentifier(n) || ts.isPrivateIdentifier(n) || ts.isStringLiteral(n) || ts.isNumericLiteral(n)
      ? n.text
      : n.getText(sf);
  // the identifier that names a callee or a base: `f`, `a.b.f` -> f; anything else has none
  const nameToken = (expr) => {
    const e = unwrap(ts, expr);
    if (e && ts.isIdentifier(e)) return e;
    if (e && ts.isPropertyAccessExpression(e)) return e.name;
    return null;
  };
  const receiver = (expr) => {
    const e = unwrap(ts, expr);
    if (!e || !ts.isPropertyAccessExpression(e)) return "none";
    const v = unwrap(ts, e.expression);
    if (v.kind === ts.SyntaxKind.ThisKeyword) return "this";
    if (v.kind === ts.SyntaxKind.SuperKeyword) return "super";
    if (ts.isIdentifier(v)) return "name";
    if (ts.isPropertyAccessExpression(v)) {
      let root = v;
      while (ts.isPropertyAccessExpression(root)) root = unwrap(ts, root.expression);
      return root.kind === ts.SyntaxKind.ThisKeyword ? "this-attr" : "chain";
    }
    if (ts.isCallExpression(v)) return "call-result";
    if (ts.isElementAccessExpression(v)) return "subscript";
    return "other";
  };

  function addDef(node, nameNode, name, kind, scope, stub) {
    const at = pos(nameNode.getStart(sf));
    defs.push({
      name,
      kind,
      line: at.line + 1,
      col: at.character,
      first_line: pos(node.getStart(sf)).line + 1,
      end_line: pos(node.getEnd()).line + 1,
      parent: scope,
      stub,
    });
    return defs.length - 1;
  }
  function addCall(calleeExpr, form, scope, node) {
    const tok = nameToken(calleeExpr);
    if (tok) {
      const at = pos(tok.getStart(sf));
      calls.push({ line: at.line + 1, col: at.character, name: tok.text, scope, form, receiver: receiver(calleeExpr) });
    } else {
      calls.push({ line: pos(node.getStart(sf)).line + 1, col: null, name: null, scope, form, receiver: "computed" });
    }
  }
  /** The definition `node` declares, if it is one the gold counts; returns its index. */
  function definitionOf(node, scope) {
    const inClass = node.parent && ts.isClassLike(node.parent);
    if (ts.isFunctionDeclaration(node) && node.name)
      return addDef(node, node.name, node.name.text, "function", scope, !node.body);
    if ((ts.isClassDeclaration(node) || ts.isClassExpression(node)) && node.name)
      return addDef(node, node.name, node.name.text, "class", scope, false);
    if (ts.isMethodDeclaration(node) && inClass) {
      const abstract = (ts.getCombinedModifierFlags(node) & ts.ModifierFlags.Abstract) !== 0;
      return addDef(node, node.name, memberName(node.name), "method", scope, !node.body && !abstract); // body-less, not abstract = overload signature
    }
    if (ts.isConstructorDeclaration(node)) {
      const keyword = node.getChildren(sf).find((c) => c.kind === ts.SyntaxKind.ConstructorKeyword) ?? node;
      return addDef(node, keyword, "constructor", "constructor", scope, !node.body);
    }
    if (ts.isGetAccessorDeclaration(node) && inClass)
      return addDef(node, node.name, memberName(node.name), "getter", scope, false);
    if (ts.isSetAccessorDeclaration(node) && inClass)
      return addDef(node, node.name, memberName(node.name), "setter", scope, false);
    if (ts.isPropertyDeclaration(node) && inClass && isFunctionValue(node.initializer))
      return addDef(node, node.name, memberName(node.name), "method", scope, false);
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && isFunctionValue(node.initializer))
      return addDef(node, node.name, node.name.text, "function", scope, false);
    if (ts.isInterfaceDeclaration(node)) return addDef(node, node.name, node.name.text, "interface", scope, false);
    if (ts.isTypeAliasDeclaration(node)) return addDef(node, node.name, node.name.text, "type", scope, false);
    if (ts.isEnumDeclaration(node)) return addDef(node, node.name, node.name.text, "enum", scope, false);
    return null;
  }

  function visit(node, scope) {
    const me = definitionOf(node, scope);
    if (me !== null && (ts.isClassLike(node) || ts.isInterfaceDeclaration(node))) {
      for (const clause of node.heritageClauses ?? []) {
        const kind = clause.token === ts.SyntaxKind.ExtendsKeyword ? "extends" : "implements";
        for (const t of clause.types) {
          const tok = nameToken(t.expression);
          if (!tok) continue;
          const at = pos(tok.getStart(sf));
          bases.push({ class_idx: me, line: at.line + 1, col: at.character, name: tok.text, kind });
        }
      }
    }
    if (ts.isCallExpression(node)) {
      const callee = unwrap(ts, node.expression);
      if (callee && callee.kind === ts.SyntaxKind.SuperKeyword) {
        const at = pos(callee.getStart(sf));
        calls.push({ line: at.line + 1, col: at.character, name: "super", scope, form: "super", receiver: "none" });
      } else {
        addCall(node.expression, callee && ts.isPropertyAccessExpression(callee) ? "attr" : "name", scope, node);
      }
    } else if (ts.isNewExpression(node)) addCall(node.expression, "new", scope, node);
    else if (ts.isTaggedTemplateExpression(node)) addCall(node.tag, "tagged", scope, node);

    const inner = me ?? scope;
    // decorators are evaluated in the enclosing scope
    ts.forEachChild(node, (child) => visit(child, child.kind === ts.SyntaxKind.Decorator ? scope : inner));
  }
  visit(sf, null);
  return { module: rel, defs, calls, bases };
}
