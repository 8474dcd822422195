#!/usr/bin/env python3
"""Definitions in Python sources, from CPython's own `ast` (no codeslice code involved).

Adapted from the localize benchmark's pydefs.py (../shared/tools/localize): the same definitions and
`norm`, except that a definition starts at its first decorator, so a decorator line belongs to the
function it decorates (the lines a diff touches are mapped to the innermost definition).

stdin: JSON list of {"key": str, "source": str}
stdout: JSON {key: {"ok": true, "defs": [...]} | {"ok": false, "error": str}}

Each def: {"qual": "Class.method", "name": "method", "kind": "function"|"method"|"class",
"start": first decorator's line, else the def/class line (1-based), "end": end_lineno, "norm": sha1}.
`norm` hashes ast.dump() of the node without its docstring, type annotations and positions, so
comment, docstring, annotation, blank-line and formatting edits do not count as a change. For a class
`norm` covers only the class's own statements (nested defs removed), so a method edit does
not make its class "changed".
"""
import ast
import copy
import hashlib
import json
import re
import sys

# PEP 758 (Python 3.14) `except A, B:` does not parse on older CPython; parenthesise in place
# (same line numbers, no definition on that line).
EXCEPT_TUPLE = re.compile(r"^(\s*except\*?)\s+([A-Za-z_][\w.]*(?:\s*,\s*[A-Za-z_][\w.]*)+)\s*:", re.M)


def strip_doc(body):
    if body and isinstance(body[0], ast.Expr) and isinstance(getattr(body[0], "value", None), ast.Constant) \
            and isinstance(body[0].value.value, str):
        return body[1:]
    return body


class DropAnnotations(ast.NodeTransformer):
    """Type annotations do not count as a code change (typing-only commits are not tasks here)."""

    def visit_arg(self, node):
        node.annotation = None
        node.type_comment = None
        return node

    def visit_FunctionDef(self, node):
        node.returns = None
        node.type_comment = None
        self.generic_visit(node)
        return node

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_AnnAssign(self, node):
        self.generic_visit(node)
        if node.value is None:
            return ast.Pass()
        return ast.Assign(targets=[node.target], value=node.value)


def norm_of(node):
    n = DropAnnotations().visit(copy.deepcopy(node))
    if isinstance(n, ast.ClassDef):
        n.body = [s for s in strip_doc(n.body)
                  if not isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    else:
        n.body = strip_doc(n.body)
    return hashlib.sha1(ast.dump(n, include_attributes=False).encode()).hexdigest()[:16]


def defs_of(src):
    try:
        tree = ast.parse(src)
    except SyntaxError:
        tree = ast.parse(EXCEPT_TUPLE.sub(lambda m: f"{m.group(1)} ({m.group(2)}):", src))
    out = []

    def visit(node, chain, in_class):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                is_class = isinstance(child, ast.ClassDef)
                qual = ".".join(chain + [child.name])
                kind = "class" if is_class else ("method" if in_class else "function")
                start = min([child.lineno] + [d.lineno for d in child.decorator_list])
                out.append({"qual": qual, "name": child.name, "kind": kind,
                            "start": start, "end": child.end_lineno, "norm": norm_of(child)})
                visit(child, chain + [child.name], is_class)
            else:
                visit(child, chain, in_class)

    visit(tree, [], False)
    return out


def main():
    items = json.load(sys.stdin)
    res = {}
    for it in items:
        try:
            res[it["key"]] = {"ok": True, "defs": defs_of(it["source"])}
        except Exception as e:  # noqa: BLE001
            res[it["key"]] = {"ok": False, "error": f"{type(e).__name__}: {e}"}
    json.dump(res, sys.stdout)


if __name__ == "__main__":
    main()
