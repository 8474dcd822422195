#!/usr/bin/env python3
"""Syntax facts of Python files for the gold graph, from CPython's own parser (`ast`).

usage: python3 python-facts.py <corpus-root> < relpaths.txt > facts.json

For each file (one relative POSIX path per stdin line) prints where each def/class is (the name
token), which tokens are in call position, which tokens name a base class, and which corpus files
each import statement reaches. Nothing here decides what a name *means*: that comes from the SCIP
index (Pyright). Lines are 1-based; columns are UTF-16 code units, the unit SCIP uses.
"""
import ast
import json
import os
import re
import sys

DEF_HEAD = {"def": re.compile(r"(?:async\s+)?def\s+"), "class": re.compile(r"class\s+")}


def utf16_col(line, byte_col):
    """`ast` columns are UTF-8 byte offsets into the line; SCIP wants UTF-16 code units."""
    return len(line.encode("utf-8")[:byte_col].decode("utf-8", errors="replace").encode("utf-16-le")) // 2


def utf16_len(text):
    return len(text.encode("utf-16-le")) // 2


def module_of(rel):
    """`a/b/c.py` -> `a.b.c`; `a/b/__init__.py` -> `a.b`."""
    parts = rel[: -len(".py")].split("/")
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


class FileFacts:
    def __init__(self, rel, source):
        self.rel = rel
        self.lines = source.split("\n")
        self.defs, self.calls, self.bases, self.imports = [], [], [], []

    def name_token(self, expr):
        """(line, col, name) of the identifier naming `expr`: `x` -> x, `a.b.x` -> x, `G[T]` -> G."""
        while isinstance(expr, ast.Subscript):
            expr = expr.value
        if isinstance(expr, ast.Name):
            return expr.lineno, utf16_col(self.lines[expr.lineno - 1], expr.col_offset), expr.id
        if isinstance(expr, ast.Attribute):
            # the attribute name is the last token of the expression
            end = utf16_col(self.lines[expr.end_lineno - 1], expr.end_col_offset)
            return expr.end_lineno, end - utf16_len(expr.attr), expr.attr
        return None

    def def_name_col(self, node, keyword):
        line = self.lines[node.lineno - 1]
        start = len(line.encode("utf-8")[: node.col_offset].decode("utf-8", errors="replace"))
        head = DEF_HEAD[keyword].match(line, start)
        if head and line.startswith(node.name, head.end()):
            return utf16_len(line[: head.end()])
        return None  # name on a continuation line: no token, no SCIP symbol

    @staticmethod
    def receiver(func):
        """What a call's callee hangs off: none (`f()`), self/cls/super, a plain name, a chain..."""
        if not isinstance(func, ast.Attribute):
            return "none"
        v = func.value
        if isinstance(v, ast.Name):
            return v.id if v.id in ("self", "cls") else "name"
        if isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id == "super":
            return "super"
        if isinstance(v, ast.Attribute):
            root = v
            while isinstance(root, ast.Attribute):
                root = root.value
            return "self-attr" if isinstance(root, ast.Name) and root.id in ("self", "cls") else "chain"
        if isinstance(v, ast.Call):
            return "call-result"
        if isinstance(v, ast.Subscript):
            return "subscript"
        if isinstance(v, ast.Constant):
            return "literal"
        return "other"

    def visit(self, node, scope, scope_kind):
        """scope: index of the innermost enclosing def (None at module level)."""
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            self.visit_def(node, scope, scope_kind)
            return
        if isinstance(node, ast.Import):
            for alias in node.names:
                self.imports.append((node.lineno, 0, alias.name, []))
        elif isinstance(node, ast.ImportFrom):
            self.imports.append((node.lineno, node.level, node.module or "", [a.name for a in node.names]))
        elif isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, (ast.Name, ast.Attribute)):
                line, col, name = self.name_token(func)
                self.calls.append({"line": line, "col": col, "name": name, "scope": scope,
                                   "form": "name" if isinstance(func, ast.Name) else "attr",
                                   "receiver": self.receiver(func)})
            else:  # `f()()`, `x[0]()`, `(lambda: 0)()`: no name token to resolve
                self.calls.append({"line": node.lineno, "col": None, "name": None, "scope": scope,
                                   "form": type(func).__name__, "receiver": "computed"})
        for child in ast.iter_child_nodes(node):
            self.visit(child, scope, scope_kind)

    def visit_def(self, node, scope, scope_kind):
        is_class = isinstance(node, ast.ClassDef)
        kind = "class" if is_class else ("method" if scope_kind == "class" else "function")
        decorators = []
        for d in node.decorator_list:
            tok = self.name_token(d.func if isinstance(d, ast.Call) else d)
            decorators.append(tok[2] if tok else None)
        self.defs.append({
            "name": node.name, "kind": kind, "line": node.lineno,
            "col": self.def_name_col(node, "class" if is_class else "def"),
            "first_line": min([node.lineno] + [d.lineno for d in node.decorator_list]),
            "end_line": node.end_lineno, "parent": scope, "decorators": decorators,
        })
        me = len(self.defs) - 1
        if is_class:
            for b in node.bases:
                tok = self.name_token(b)
                if tok:
                    self.bases.append({"class_idx": me, "line": tok[0], "col": tok[1], "name": tok[2]})
        # decorators run in the enclosing scope; everything else (bases, defaults, body) is inside `me`
        for d in node.decorator_list:
            self.visit(d, scope, scope_kind)
        for field, value in ast.iter_fields(node):
            if field == "decorator_list":
                continue
            for child in value if isinstance(value, list) else [value]:
                if isinstance(child, ast.AST):
                    self.visit(child, me, kind)


def import_targets(rel, imports, modules):
    """Corpus files each import statement reaches, by Python's rules: `import a.b` -> a/b;
    `from X import n` -> X, plus X.n when that is itself a module."""
    mod = module_of(rel)
    package = mod if rel.endswith("__init__.py") else mod.rpartition(".")[0]
    out = []
    for line, level, module, names in imports:
        if level == 0:
            base = module
        else:
            pkg = package.split(".") if package else []
            up = level - 1
            if up > len(pkg):
                continue  # beyond the top-level package
            base = ".".join(pkg[: len(pkg) - up] + ([module] if module else []))
        if base in modules:
            out.append({"line": line, "module": base, "file": modules[base]})
        for n in names:
            sub = f"{base}.{n}" if base else n
            if sub in modules:
                out.append({"line": line, "module": sub, "file": modules[sub]})
    return out


def main():
    sys.setrecursionlimit(20000)
    root = sys.argv[1]
    rels = [l.strip() for l in sys.stdin if l.strip()]
    modules = {module_of(r): r for r in rels if r.endswith(".py")}
    out = {}
    for rel in rels:
        try:
            with open(os.path.join(root, rel), encoding="utf-8") as fh:
                source = fh.read()
            tree = ast.parse(source, filename=rel)
        except Exception as e:  # a file CPython can't parse is reported, not fatal
            out[rel] = {"error": str(e)}
            continue
        f = FileFacts(rel, source)
        f.visit(tree, None, "module")
        out[rel] = {"module": module_of(rel), "defs": f.defs, "calls": f.calls, "bases": f.bases,
                    "import_targets": import_targets(rel, f.imports, modules)}
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
