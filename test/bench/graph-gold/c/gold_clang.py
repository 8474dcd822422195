#!/usr/bin/python3
"""gold-clang: compiler-grade code graph (`code-graph-gold/1`) of a C or C++ corpus, from clang.

    /usr/bin/python3 gold_clang.py <corpus-dir> <config-json> > gold.json

Needs Debian's clang-14 and python3-clang-14 (libclang's own Python binding). Each translation unit
is parsed by libclang (`-fsyntax-only`: nothing is built or linked) and its AST walked in process;
only the cursors whose file lies in the corpus are visited, so the standard headers cost their parse
and nothing more. (`clang -Xclang -ast-dump=json` says the same, but prints ~300 MB of JSON for one
leveldb unit, 99% of it the standard library, which is why this reads the AST through libclang.)

config-json: {"language": "c"|"cpp", "args": [compiler flags, e.g. "-I.", "-DX", "-std=c++17"],
              "per_dir": [[path prefix, [more flags for the files under it]], ...],
              "skip": [relpaths of files that do not compile on this machine, e.g. Windows ports],
              "skip_re": a regular expression of more such relpaths}
Paths in flags are relative to the corpus root (the process runs there): what a compile_commands.json
would say, written down, since building the corpus to record one is not done here.

The translation units are the committed `.c` (C) or `.c`/`.cc`/`.cpp`/`.cxx` (C++) files of the
corpus (`git ls-files`) but `skip`. Headers are seen through the units that include them; a header
no unit includes is parsed on its own (`-x c-header` / `-x c++-header`), so its definitions count.
Facts found more than once (a header in many units) are kept once. Only code the preprocessor keeps
is seen: `#if 0` and the other branches of a conditional are not (the syntax-only reader sees them).

Rules (see ../README.md, "C and C++"):

  definitions  function definitions (`function`); member functions, declared in a class or defined
               out of line (`method`; constructors `constructor`); classes (`class`), structs and
               unions (`struct`), enums (`enum`) with a body; typedefs and `using` aliases (`type`;
               `typedef struct {...} T` is one `struct` named T); function-like macros (`macro`).
               Not: prototypes, variables, fields, namespaces, anything whose name token is not
               spelled in the file (made by a macro, implicit members). Qualified
               `<relpath>#<ns>.<Class>.<name>` over the semantic parents (named namespaces, classes,
               functions for local classes; anonymous namespaces and `extern "C"` are transparent),
               in the file of the definition; start_line is the name token's line.
  call edges   call expressions written as calls, `f(..)`, `ns::f(..)`, `x.f(..)`, `p->f(..)`,
               `A::f(..)`, `this->f(..)`, whose callee token is spelled in the file (not in a macro
               body); the declaration clang resolved decides, by its USR: the definition of that
               function or method anywhere in the corpus (another unit's too), else its declaration
               in a corpus class (a pure virtual method) -> `call`. Virtual calls go to the method
               named statically. Constructors (`T x(..)`, `new T`), operators and conversions are not
               call sites. Invocations of a corpus function-like macro are `macro` edges to it.
               Callee outside the corpus (libc, the standard library): external, no edge. Callee a
               variable, field or parameter (function pointers), or none (dependent calls in
               templates, errors): unresolvable (`unresolved_call_sites`).
               Caller: the innermost enclosing function or method definition; a class for member
               initialisers; the relpath at file level.
  import edges `#include` of a corpus file, as the preprocessor resolved it (include dirs and all).
  inherits     C++ base specifiers resolving to a corpus class (`extends`).
"""
import json
import os
import re
import subprocess
import sys

import clang.cindex as ci

for lib in ("/usr/lib/llvm-14/lib/libclang.so.1", "/usr/lib/llvm-14/lib/libclang-14.so.1"):
    if os.path.exists(lib):
        ci.Config.set_library_file(lib)
        break

K = ci.CursorKind
FUNCS = {K.FUNCTION_DECL, K.CXX_METHOD, K.CONSTRUCTOR, K.DESTRUCTOR, K.FUNCTION_TEMPLATE, K.CONVERSION_FUNCTION}
RECORDS = {K.CLASS_DECL: "class", K.STRUCT_DECL: "struct", K.UNION_DECL: "struct", K.CLASS_TEMPLATE: "class",
           K.CLASS_TEMPLATE_PARTIAL_SPECIALIZATION: "class", K.ENUM_DECL: "enum"}
SCOPES = {K.NAMESPACE} | set(RECORDS) | FUNCS
KEEP_GOING = 0x200  # CXTranslationUnit_KeepGoing: a missing header does not stop the unit
SOURCE_EXT = {"c": (".c",), "cpp": (".c", ".cc", ".cpp", ".cxx", ".c++")}
HEADER_EXT = (".h", ".hh", ".hpp", ".hxx", ".h++", ".inl", ".ipp", ".tpp")


class Gold:
    def __init__(self, root, cfg):
        self.root = os.path.realpath(root)
        self.cfg = cfg
        self.lang = cfg["language"]
        files = subprocess.run(["git", "ls-files"], cwd=root, capture_output=True, text=True, check=True).stdout.split("\n")
        self.files = [f for f in files if f.endswith(SOURCE_EXT["cpp"] + HEADER_EXT)]
        skip_re = re.compile(cfg["skip_re"]) if cfg.get("skip_re") else None
        self.skip = set(cfg.get("skip", [])) | {f for f in self.files if skip_re and skip_re.search(f)}
        self.lines = {}
        self.defs = {}  # (file, line, name) -> def
        self.def_by_usr = {}  # usr -> qualified of the definition (with a body)
        self.decl_by_usr = {}  # usr -> qualified of a member declared in a corpus class
        self.sites = []  # (file, line, col, name, callee usr, form)
        self.macro_sites = []  # (file, line, col, name, macro qualified)
        self.unresolved = {}
        self.imports = set()
        self.inherits = set()
        self.spans = {}  # file -> [(start, end, qualified, kind)] for callers of macro sites
        self.seen_files = set()
        self.errors = 0
        self.units = 0
        self.counts = {}

    def rel(self, f):
        if f is None:
            return None
        p = os.path.realpath(f.name if hasattr(f, "name") else f)
        if not p.startswith(self.root + os.sep):
            return None
        r = p[len(self.root) + 1:]
        return r if r in self.file_set and r not in self.skip else None  # a skipped file is outside the corpus

    def text_line(self, rel, line):
        if rel not in self.lines:
            with open(os.path.join(self.root, rel), encoding="utf-8", errors="replace") as fh:
                self.lines[rel] = fh.read().split("\n")
        ls = self.lines[rel]
        return ls[line - 1] if 0 < line <= len(ls) else ""

    def spelled(self, rel, line, col, name):
        """True when `name` is written at (line, col) of the file: the token is not a macro's."""
        t = self.text_line(rel, line)
        # columns are bytes; the corpora are ASCII where names are
        return t[col - 1:col - 1 + len(name)] == name

    def file_loc(self, loc):
        f, line, col = ci.c_object_p(), ci.c_uint(), ci.c_uint()
        ci.conf.lib.clang_getFileLocation(loc, ci.byref(f), ci.byref(line), ci.byref(col), None)
        return (ci.File(f) if f else None), line.value, col.value

    def qualified(self, c, rel):
        parts = []
        p = c
        while p is not None and p.kind != K.TRANSLATION_UNIT:
            if p.kind in SCOPES or p.kind in (K.TYPEDEF_DECL, K.TYPE_ALIAS_DECL, K.MACRO_DEFINITION):
                name = p.spelling
                if p.kind in RECORDS and not name:
                    name = self.typedef_name(p)
                if p.kind == K.MACRO_DEFINITION:
                    name = p.spelling
                if name and not name.startswith("(anonymous") and not name.startswith("(unnamed"):
                    parts.append(name.split("<")[0] if p.kind in RECORDS else name)
            p = p.semantic_parent
        return f"{rel}#{'.'.join(reversed(parts))}"

    def typedef_name(self, rec):
        """The typedef a record is the inline body of (`typedef struct [tag] {...} T`), else ""."""
        f = rec.extent.start.file
        return self.typedef_bodies.get((f.name if f else None, rec.extent.start.offset), "")

    # ---- definitions
    def add_def(self, c, rel, name, kind, usr=None, body=False):
        f, line, col = self.file_loc(c.location)
        if self.rel(f) != rel or not self.spelled(rel, line, col, name.split("<")[0] if not name.startswith("operator") else "operator"):
            return None
        q = self.qualified(c, rel)
        end = self.file_loc(c.extent.end)[1]
        start = self.file_loc(c.extent.start)[1]
        key = (rel, line, name)
        if key not in self.defs:
            d = {"file": rel, "name": name, "qualified": q, "kind": kind, "start_line": line, "end_line": end}
            if start and start < line:
                d["first_line"] = start
            self.defs[key] = d
            self.spans.setdefault(rel, []).append((start, end, q, kind))
        if usr:
            if body:
                self.def_by_usr.setdefault(usr, q)
            else:
                self.decl_by_usr.setdefault(usr, q)
        return q

    def walk(self, c, rel, caller):
        k = c.kind
        here = caller
        if k in FUNCS:
            in_class = c.semantic_parent is not None and c.semantic_parent.kind in RECORDS
            body = c.is_definition()
            if body or in_class and c.lexical_parent is not None and c.lexical_parent.kind in RECORDS:
                kind = "method" if in_class else "function"
                if k == K.CONSTRUCTOR and c.lexical_parent is not None and c.lexical_parent.kind in RECORDS:
                    kind = "constructor"
                if k == K.FUNCTION_TEMPLATE and in_class:
                    kind = "method"
                usr = (c.canonical or c).get_usr()
                name = c.spelling
                if k in (K.CONSTRUCTOR, K.DESTRUCTOR):
                    name = name.split("<")[0]  # `DynArray<T, N>` is the constructor DynArray
                q = self.add_def(c, rel, name, kind, usr, body)
                if body and q:
                    here = q
        elif k in RECORDS and c.is_definition() and self.typedef_name(c):
            pass  # the typedef names it; its members are walked there
        elif k in RECORDS and c.is_definition():
            name = c.spelling
            if name and not name.startswith("(anonymous") and not name.startswith("(unnamed"):
                q = self.add_def(c, rel, name.split("<")[0], RECORDS[k])
                if q and k != K.ENUM_DECL:
                    here = q
                    for b in c.get_children():
                        if b.kind == K.CXX_BASE_SPECIFIER:
                            base = b.referenced
                            if base is not None and base.kind == K.TYPEDEF_DECL:
                                base = base.underlying_typedef_type.get_declaration()
                            if base is not None:
                                bd = base.get_definition() or base
                                brel = self.rel(self.file_loc(bd.location)[0])
                                if brel:
                                    self.inherits.add((q, self.qualified(bd, brel)))
        elif k in (K.TYPEDEF_DECL, K.TYPE_ALIAS_DECL):
            kids = [x for x in c.get_children() if x.kind in RECORDS and x.is_definition()]
            inner = kids[0] if kids and k == K.TYPEDEF_DECL else None
            if inner is not None and inner.extent.start.offset >= c.extent.start.offset:
                # `typedef struct tag {...} T;` is one definition, T, of the body's kind
                self.add_def(c, rel, c.spelling, RECORDS[inner.kind])
                self.walk_children(inner, rel, caller, skip_self_def=True)
                return
            self.add_def(c, rel, c.spelling, "type")
        elif k == K.CALL_EXPR:
            self.call(c, rel, caller)
        self.walk_children(c, rel, here)

    def walk_children(self, c, rel, caller, skip_self_def=False):
        for ch in c.get_children():
            if skip_self_def and ch.kind == K.CXX_BASE_SPECIFIER:
                continue
            f = ch.location.file
            if f is not None and ch.kind != K.CALL_EXPR:
                crel = self.rel(f)
                if crel is None:
                    continue
            self.walk(ch, rel if f is None else (self.rel(f) or rel), caller)

    # ---- calls
    def call(self, c, rel, caller):
        ref = c.referenced
        if ref is not None and ref.kind in (K.CONSTRUCTOR, K.CONVERSION_FUNCTION, K.DESTRUCTOR):
            return
        name = c.spelling
        if not name or name.startswith("operator"):
            return
        f, line, col = self.file_loc(self.callee_loc(c))
        srel = self.rel(f)
        if srel is None:
            return
        if not self.spelled(srel, line, col, name):
            self.counts["in_macro_body"] = self.counts.get("in_macro_body", 0) + 1
            return
        self.counts["call_sites"] = self.counts.get("call_sites", 0) + 1
        site = {"file": srel, "line": line, "name": name, "caller": caller or srel}
        if ref is None or ref.kind not in FUNCS:
            site["reason"] = "no declaration" if ref is None else f"{ref.kind.name.lower()} (function pointer)"
            self.unresolved[(srel, line, col)] = site
            return
        dfile = self.rel(self.file_loc(ref.location)[0])
        if dfile is None:
            self.counts["external"] = self.counts.get("external", 0) + 1
            return
        usr = (ref.canonical or ref).get_usr()
        inst = ref
        # a call to a template specialization resolves to its template
        tmpl = ci.conf.lib.clang_getSpecializedCursorTemplate(ref) if hasattr(ci.conf.lib, "clang_getSpecializedCursorTemplate") else None
        if tmpl is not None and not tmpl.kind.is_invalid():
            inst = tmpl
            usr = (tmpl.canonical or tmpl).get_usr()
        site["usr"] = usr
        site["form"] = "member" if any(x.kind == K.MEMBER_REF_EXPR for x in c.get_children()) else "plain"
        self.sites.append(site)

    @staticmethod
    def callee_loc(c):
        """Where the callee's name is written: the member or name reference the call's first child holds."""
        x = next(iter(c.get_children()), None)
        while x is not None:
            if x.kind in (K.MEMBER_REF_EXPR, K.DECL_REF_EXPR, K.OVERLOADED_DECL_REF):
                return x.location
            if x.kind not in (K.UNEXPOSED_EXPR, K.PAREN_EXPR):
                break
            x = next(iter(x.get_children()), None)
        return c.location

    # ---- units
    def parse(self, path, header=False):
        args = list(self.cfg.get("args", []))
        for prefix, extra in self.cfg.get("per_dir", []):
            if path.startswith(prefix):
                args += extra
        if header:
            args = ["-x", "c-header" if self.lang == "c" else "c++-header"] + args
        elif self.lang == "cpp" and path.endswith(".c"):
            args = ["-x", "c"] + [a for a in args if not a.startswith("-std=c++")]
        opts = ci.TranslationUnit.PARSE_DETAILED_PROCESSING_RECORD | KEEP_GOING
        tu = ci.Index.create().parse(os.path.join(self.root, path), args=args, options=opts)
        self.units += 1
        self.errors += sum(1 for d in tu.diagnostics if d.severity >= 3)
        for inc in tu.get_includes():
            b = self.rel(inc.include)
            if b:
                self.seen_files.add(b)
        self.seen_files.add(path)
        macros = []
        self.typedef_bodies = {}
        self.find_typedef_bodies(tu.cursor)
        for c in tu.cursor.get_children():
            f = c.location.file
            rel = self.rel(f) if f is not None else None
            if rel is None:
                continue
            if rel != path and rel in self.unit_set:
                continue  # a unit #included by another (onelua.c, cJSON's tests): its own unit has its facts
            if c.kind == K.MACRO_DEFINITION:
                if ci.conf.lib.clang_Cursor_isMacroFunctionLike(c):
                    self.add_def(c, rel, c.spelling, "macro")
                    d = self.defs.get((rel, self.file_loc(c.location)[1], c.spelling))
                    if d:
                        self.def_by_usr.setdefault("macro:" + c.spelling + "@" + rel + ":" + str(d["start_line"]), d["qualified"])
                continue
            if c.kind == K.MACRO_INSTANTIATION:
                macros.append((c, rel))
                continue
            if c.kind == K.INCLUSION_DIRECTIVE:
                # every #include the preprocessor ran, also of a header a guard then skips
                try:
                    b = self.rel(c.get_included_file())
                except AssertionError:  # a header not found (outside this machine's include path)
                    b = None
                if b:
                    self.imports.add((rel, b))
                continue
            self.walk(c, rel, None)
        for c, rel in macros:
            ref = c.referenced
            if ref is None or not ci.conf.lib.clang_Cursor_isMacroFunctionLike(ref):
                continue
            drel = self.rel(ref.location.file)
            if drel is None:
                continue
            f, line, col = self.file_loc(c.location)
            if not self.spelled(rel, line, col, c.spelling):
                continue
            self.macro_sites.append({"file": rel, "line": line, "col": col, "name": c.spelling,
                                     "usr": "macro:" + ref.spelling + "@" + drel + ":" + str(ref.location.line)})

    def find_typedef_bodies(self, c):
        for ch in c.get_children():
            f = ch.location.file
            if f is None or self.rel(f) is None:
                continue
            if ch.kind == K.TYPEDEF_DECL:
                for x in ch.get_children():
                    if x.kind in RECORDS and x.is_definition() and x.extent.start.offset >= ch.extent.start.offset:
                        self.typedef_bodies[(x.extent.start.file.name, x.extent.start.offset)] = ch.spelling
            elif ch.kind in (K.NAMESPACE, K.LINKAGE_SPEC, K.UNEXPOSED_DECL) or ch.kind in RECORDS or ch.kind in FUNCS:
                self.find_typedef_bodies(ch)

    def caller_at(self, rel, line):
        best = None
        for s, e, q, kind in self.spans.get(rel, []):
            if kind in ("function", "method", "constructor") and s <= line <= e and (best is None or e - s < best[1] - best[0]):
                best = (s, e, q)
        return best[2] if best else rel

    def run(self):
        self.file_set = set(self.files)
        exts = SOURCE_EXT[self.lang]
        units = [f for f in self.files if f.endswith(exts) and f not in self.skip]
        self.unit_set = set(units)
        for i, u in enumerate(units):
            print(f"[{i + 1}/{len(units)}] {u}", file=sys.stderr)
            self.parse(u)
        for h in self.files:
            if h.endswith(HEADER_EXT) and h not in self.seen_files and h not in self.skip:
                print(f"[header] {h}", file=sys.stderr)
                self.parse(h, header=True)
        return self.result()

    def result(self):
        edges, seen = [], set()
        for s in self.sites:
            callee = self.def_by_usr.get(s["usr"]) or self.decl_by_usr.get(s["usr"])
            if callee is None:
                # a corpus declaration without a definition anywhere (a prototype of nothing)
                self.unresolved.setdefault((s["file"], s["line"], s["name"]), {**{k: s[k] for k in ("file", "line", "name")}, "reason": "declared, never defined"})
                continue
            e = {"caller": s["caller"], "callee": callee, "file": s["file"], "line": s["line"], "via": "call",
                 "form": s["form"], "tags": [s["form"]] if s["form"] != "plain" else []}
            k = (e["caller"], e["callee"], e["file"], e["line"])
            if k not in seen:
                seen.add(k)
                edges.append(e)
        for m in self.macro_sites:
            callee = self.def_by_usr.get(m["usr"])
            if callee is None:
                continue
            e = {"caller": self.caller_at(m["file"], m["line"]), "callee": callee, "file": m["file"], "line": m["line"],
                 "via": "macro", "form": "macro", "tags": ["macro"]}
            k = (e["caller"], e["callee"], e["file"], e["line"])
            if k not in seen:
                seen.add(k)
                edges.append(e)
        defs = sorted(self.defs.values(), key=lambda d: (d["file"], d["start_line"], d["name"]))
        imports = [{"from": a, "to": b} for a, b in sorted(self.imports)]
        inherits = [{"child": a, "base": b, "kind": "extends"} for a, b in sorted(self.inherits)]
        unresolved = [{"file": s["file"], "line": s["line"], "name": s["name"], "reason": s["reason"]} for s in self.unresolved.values()]
        pairs = {(e["caller"], e["callee"]) for e in edges}
        return {
            "meta": {
                "format": "code-graph-gold/1", "language": self.lang,
                "indexer": f"libclang {ci.conf.lib.clang_getClangVersion().decode() if False else clang_version()}",
                "args": self.cfg.get("args", []), "skipped_files": sorted(self.skip),
                "counts": {"files": len(self.files), "units": self.units, "compile_errors": self.errors,
                           "definitions": len(defs), "call_edges": len(edges), "call_edge_pairs": len(pairs),
                           "import_edges": len(imports), "inherits": len(inherits), "call_sites": self.counts},
            },
            "definitions": defs,
            "call_edges": edges,
            "import_edges": imports,
            "inherits": inherits,
            "unresolved_call_sites": unresolved,
        }


def clang_version():
    try:
        return subprocess.run(["clang", "--version"], capture_output=True, text=True).stdout.split("\n")[0]
    except OSError:
        return "clang"


def main():
    if len(sys.argv) != 3:
        print("usage: gold_clang.py <corpus-dir> <config-json>", file=sys.stderr)
        sys.exit(2)
    cfg = json.loads(sys.argv[2])
    ci.conf.lib.clang_getFileLocation.argtypes = [ci.SourceLocation, ci.POINTER(ci.c_object_p), ci.POINTER(ci.c_uint), ci.POINTER(ci.c_uint), ci.POINTER(ci.c_uint)]
    ci.conf.lib.clang_getSpecializedCursorTemplate.argtypes = [ci.Cursor]
    ci.conf.lib.clang_getSpecializedCursorTemplate.restype = ci.Cursor
    ci.conf.lib.clang_getSpecializedCursorTemplate.errcheck = ci.Cursor.from_cursor_result
    ci.conf.lib.clang_Cursor_isMacroFunctionLike.argtypes = [ci.Cursor]
    ci.conf.lib.clang_Cursor_isMacroFunctionLike.restype = ci.c_uint
    root = os.path.realpath(sys.argv[1])
    os.chdir(root)  # include dirs in the config are relative to the corpus
    json.dump(Gold(root, cfg).run(), sys.stdout)


if __name__ == "__main__":
    main()
