// gold-go: compiler-grade code graph (`code-graph-gold/1`) of a Go corpus, from go/parser and
// go/types only (standard library, no module downloads).
//
//	go run . <corpus-dir> > gold.json      (or `go build -o gold-go . && ./gold-go <corpus-dir>`)
//
// The files are the corpus' committed `.go` files (`git ls-files`), the set codeslice scans. Each
// directory is a package; its import path is the path of the nearest go.mod's module plus the
// folder. Type checking follows `go test`: the non-test files of each package are checked first
// (imports of other corpus packages resolve to these), then each package again with its in-package
// `_test.go` files, then the external `p_test` package against that test build. The facts of a
// package come from its last (test) build. Imports outside the corpus go to the gc export data of
// the standard library; anything else is a fake empty package, so what is used from it has no
// object (an unresolvable call site, as in the Python/TS gold). Files that go/build would not
// compile for linux/amd64 (build constraints, `//go:build ignore`) keep their definitions, and their
// call sites are all listed as unresolvable. Directories named testdata, or starting with `_` or
// `.`, are checked like any other (they are code a reader sees); their own go.mod is honoured.
//
// Rules (see ../README.md, "Go"):
//
//	definitions  package-level funcs (`function`), methods (`method`, qualified by the receiver's base
//	             type: `Recv.M`), type specs (`struct`, `interface`, `type` for any other type and
//	             for aliases), and the methods declared in an interface type (`method`, `Iface.M`).
//	             Qualified `<relpath>#<Name>`; start_line is the name token's line.
//	call edges   a CallExpr whose callee (after parentheses and generic instantiation) is an
//	             identifier or `x.name`; the object go/types gives that token decides: a corpus func
//	             or concrete method -> `call`; a method of a corpus interface -> `interface` (the
//	             implementations are listed apart, in `implementations`). Conversions `T(x)`,
//	             func-valued fields and package variables are no edge; builtins and other modules are
//	             external; locals/parameters and tokens without an object are unresolvable.
//	             The caller is the enclosing func/method; calls in func literals belong to it, calls
//	             at package level to the file's module pseudo-definition (the relpath).
//	import edges `import "p"` for a corpus package p: one edge to each file of p's build (its
//	             non-test files that match the build); `import_edges_by_use` lists instead the
//	             files that declare what the file uses through the import (`p.X`).
//	inherits     struct embedding (`extends`, child struct -> embedded corpus type), interface
//	             embedding (`extends`), and `implements` from each corpus named non-interface type T
//	             (non-generic) to each non-generic corpus interface with methods that T or *T
//	             satisfies.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
)

type Def struct {
	File      string `json:"file"`
	Name      string `json:"name"`
	Qualified string `json:"qualified"`
	Kind      string `json:"kind"`
	StartLine int    `json:"start_line"`
	EndLine   int    `json:"end_line"`
	FirstLine int    `json:"first_line,omitempty"`
}

type Edge struct {
	Caller     string   `json:"caller"`
	Callee     string   `json:"callee"`
	File       string   `json:"file"`
	Line       int      `json:"line"`
	Via        string   `json:"via"`
	CallerKind string   `json:"caller_kind"`
	CalleeKind string   `json:"callee_kind"`
	Form       string   `json:"form"`
	Receiver   string   `json:"receiver"`
	Tags       []string `json:"tags"`
}

type Site struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Name     string `json:"name"`
	Form     string `json:"form"`
	Receiver string `json:"receiver"`
	Outcome  string `json:"outcome"`
}

type Unresolved struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Name   string `json:"name"`
	Form   string `json:"form"`
	Reason string `json:"reason"`
}

type FromTo struct {
	From string `json:"from"`
	To   string `json:"to"`
}

type Inherit struct {
	Child string `json:"child"`
	Base  string `json:"base"`
	Kind  string `json:"kind"`
}

type Impl struct {
	Interface      string `json:"interface"`
	InterfaceMeth  string `json:"interface_method"`
	Type           string `json:"type"`
	Implementation string `json:"implementation"`
}

type file struct {
	rel    string
	ast    *ast.File
	test   bool // _test.go
	xtest  bool // package p_test
	built  bool // matches the linux/amd64 build
	pkgDir string
}

type pkgInfo struct {
	dir        string
	importPath string
	files      []*file // all parsed files of the directory
	base       *types.Package
	baseState  int // 0 not started, 1 checking, 2 done
	test       *types.Package
	testInfo   *types.Info
	xtestInfo  *types.Info
	xtest      *types.Package
	factsFiles map[*file]*types.Info
}

var (
	root    string
	fset    = token.NewFileSet()
	pkgs    = map[string]*pkgInfo{} // by import path
	byDir   = map[string]*pkgInfo{}
	modules = map[string]string{} // module root dir (rel) -> module path
	stdImp  = importer.ForCompiler(fset, "gc", nil)
	fakes   = map[string]*types.Package{}
	defAt   = map[string]*Def{} // "file:line:col" of the name token -> def
	errs    = 0
	ctx     = build.Default
)

func posKey(p token.Pos) string {
	if !p.IsValid() {
		return ""
	}
	pp := fset.Position(p)
	rel, err := filepath.Rel(root, pp.Filename)
	if err != nil {
		return ""
	}
	return fmt.Sprintf("%s:%d:%d", filepath.ToSlash(rel), pp.Line, pp.Column)
}

func line(p token.Pos) int { return fset.Position(p).Line }

// ---- importer: corpus packages (non-test build), the stdlib's export data, else a fake package
type imp struct{ override map[string]*types.Package }

func (m imp) Import(p string) (*types.Package, error) { return m.ImportFrom(p, "", 0) }
func (m imp) ImportFrom(p, dir string, mode types.ImportMode) (*types.Package, error) {
	if m.override != nil {
		if pk, ok := m.override[p]; ok {
			return pk, nil
		}
	}
	if p == "unsafe" {
		return types.Unsafe, nil
	}
	if pi := corpusPkg(p); pi != nil {
		if pk := checkBase(pi); pk != nil {
			return pk, nil
		}
	}
	if pk, err := stdImp.Import(p); err == nil {
		return pk, nil
	}
	if pk, ok := fakes[p]; ok {
		return pk, nil
	}
	name := path.Base(p)
	if len(name) > 1 && name[0] == 'v' && strings.Trim(name[1:], "0123456789") == "" {
		name = path.Base(path.Dir(p))
	}
	name = strings.TrimSuffix(strings.TrimPrefix(name, "go-"), ".go")
	if i := strings.IndexAny(name, ".-"); i > 0 {
		name = name[:i]
	}
	pk := types.NewPackage(p, name)
	pk.MarkComplete()
	fakes[p] = pk
	return pk, nil
}

// corpusPkg: the corpus package of an import path; a path under a module of the corpus also finds
// a folder that a nested go.mod made its own module (chi's _examples import them so).
func corpusPkg(p string) *pkgInfo {
	if pi, ok := pkgs[p]; ok {
		return pi
	}
	for dir, m := range modules {
		if strings.HasPrefix(p, m+"/") {
			d := strings.TrimPrefix(p, m+"/")
			if dir != "." {
				d = dir + "/" + d
			}
			if pi, ok := byDir[d]; ok {
				return pi
			}
		}
	}
	return nil
}

func newInfo() *types.Info {
	return &types.Info{
		Types:      map[ast.Expr]types.TypeAndValue{},
		Defs:       map[*ast.Ident]types.Object{},
		Uses:       map[*ast.Ident]types.Object{},
		Selections: map[*ast.SelectorExpr]*types.Selection{},
	}
}

func check(path string, files []*file, info *types.Info, override map[string]*types.Package) *types.Package {
	var asts []*ast.File
	for _, f := range files {
		asts = append(asts, f.ast)
	}
	conf := types.Config{Importer: imp{override}, Error: func(err error) {
		errs++
		if os.Getenv("GOLD_GO_DEBUG") != "" {
			fmt.Fprintln(os.Stderr, err)
		}
	}, FakeImportC: true}
	pk, _ := conf.Check(path, fset, asts, info)
	return pk
}

func checkBase(pi *pkgInfo) *types.Package {
	switch pi.baseState {
	case 1:
		return nil // import cycle: treat as external
	case 2:
		return pi.base
	}
	pi.baseState = 1
	var fs []*file
	for _, f := range pi.files {
		if f.built && !f.test {
			fs = append(fs, f)
		}
	}
	if len(fs) > 0 {
		pi.base = check(pi.importPath, fs, newInfo(), nil)
	}
	pi.baseState = 2
	return pi.base
}

// ---- definitions
func recvName(e ast.Expr) string {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.ParenExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.Ident:
			return t.Name
		default:
			return ""
		}
	}
}

var defs []*Def
var defsByFile = map[string][]*Def{}

func addDef(f *file, name *ast.Ident, qual, kind string, end token.Pos) *Def {
	d := &Def{File: f.rel, Name: name.Name, Qualified: f.rel + "#" + qual, Kind: kind, StartLine: line(name.Pos()), EndLine: line(end)}
	defs = append(defs, d)
	defsByFile[f.rel] = append(defsByFile[f.rel], d)
	defAt[posKey(name.Pos())] = d
	return d
}

func collectDefs(f *file) {
	for _, decl := range f.ast.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			var def *Def
			if d.Recv != nil && len(d.Recv.List) > 0 {
				r := recvName(d.Recv.List[0].Type)
				def = addDef(f, d.Name, r+"."+d.Name.Name, "method", d.End())
			} else {
				def = addDef(f, d.Name, d.Name.Name, "function", d.End())
			}
			if d.Body == nil {
				continue
			}
			// types declared inside the body: `<Func>.<T>` (as codeslice qualifies them)
			prefix := strings.TrimPrefix(def.Qualified, f.rel+"#") + "."
			ast.Inspect(d.Body, func(n ast.Node) bool {
				if ds, ok := n.(*ast.DeclStmt); ok {
					if gd, ok := ds.Decl.(*ast.GenDecl); ok && gd.Tok == token.TYPE {
						typeDecl(f, gd, prefix)
					}
				}
				return true
			})
		case *ast.GenDecl:
			if d.Tok == token.TYPE {
				typeDecl(f, d, "")
			}
		}
	}
}

func typeDecl(f *file, d *ast.GenDecl, prefix string) {
	for _, s := range d.Specs {
		ts := s.(*ast.TypeSpec)
		end := ts.End()
		if !d.Lparen.IsValid() {
			end = d.End()
		}
		kind := "type"
		if ts.Assign.IsValid() {
			kind = "type"
		} else if _, ok := ts.Type.(*ast.StructType); ok {
			kind = "struct"
		} else if it, ok := ts.Type.(*ast.InterfaceType); ok {
			kind = "interface"
			for _, m := range it.Methods.List {
				if _, isFn := m.Type.(*ast.FuncType); isFn {
					for _, n := range m.Names {
						addDef(f, n, prefix+ts.Name.Name+"."+n.Name, "method", m.End())
					}
				}
			}
		}
		addDef(f, ts.Name, prefix+ts.Name.Name, kind, end)
	}
}

// ---- call sites
var (
	edges      []Edge
	edgeSeen   = map[string]bool{}
	sites      []Site
	unresolved []Unresolved
	counts     = map[string]int{}
)

func unparen(e ast.Expr) ast.Expr {
	for {
		p, ok := e.(*ast.ParenExpr)
		if !ok {
			return e
		}
		e = p.X
	}
}

// inCorpus: the object is declared in a corpus file.
func inCorpus(o types.Object) bool {
	if o == nil {
		return false
	}
	k := posKey(o.Pos())
	return k != "" && !strings.HasPrefix(k, "..")
}

func defOf(o types.Object) *Def {
	if fn, ok := o.(*types.Func); ok {
		o = fn.Origin()
	}
	return defAt[posKey(o.Pos())]
}

// enclosing: innermost named definition; calls in func literals belong to the enclosing func.
func collectCalls(f *file, info *types.Info) {
	for _, decl := range f.ast.Decls {
		var caller *Def
		if fd, ok := decl.(*ast.FuncDecl); ok {
			caller = defAt[posKey(fd.Name.Pos())]
		}
		ast.Inspect(decl, func(n ast.Node) bool {
			c, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			site(f, info, caller, c)
			return true
		})
	}
}

func site(f *file, info *types.Info, caller *Def, c *ast.CallExpr) {
	counts["call_sites"]++
	callerQ, callerKind := f.rel, "module"
	if caller != nil {
		callerQ, callerKind = caller.Qualified, caller.Kind
	}
	fun := unparen(c.Fun)
	// generic instantiation f[T](...) / x.f[T](...) (not m[k](...) on a map or slice of funcs)
	switch ix := fun.(type) {
	case *ast.IndexExpr:
		if id := identOf(unparen(ix.X)); id != nil && info != nil {
			if _, isFn := info.Uses[id].(*types.Func); isFn {
				fun = unparen(ix.X)
			}
		}
	case *ast.IndexListExpr:
		fun = unparen(ix.X)
	}
	var name *ast.Ident
	var selExpr *ast.SelectorExpr
	receiver := "none"
	switch fn := fun.(type) {
	case *ast.Ident:
		name = fn
	case *ast.SelectorExpr:
		name = fn.Sel
		selExpr = fn
		switch x := unparen(fn.X).(type) {
		case *ast.Ident:
			receiver = "name"
			if info != nil {
				if _, isPkg := info.Uses[x].(*types.PkgName); isPkg {
					receiver = "pkg"
				}
			}
		case *ast.SelectorExpr:
			receiver = "chain"
		case *ast.CallExpr:
			receiver = "call-result"
		case *ast.IndexExpr, *ast.IndexListExpr:
			receiver = "subscript"
		case *ast.CompositeLit, *ast.BasicLit:
			receiver = "literal"
		default:
			receiver = "other"
		}
	}
	ln := c.Lparen
	s := Site{File: f.rel, Line: line(c.Pos()), Form: "call", Receiver: receiver}
	if name == nil && info != nil && info.Types[c.Fun].IsType() {
		counts["conversion"]++
		s.Outcome = "external"
		sites = append(sites, s)
		return
	}
	if name == nil {
		s.Line = line(ln)
		s.Outcome = "no_token"
		counts["no_token"]++
		unresolved = append(unresolved, Unresolved{f.rel, s.Line, "", "call", "callee_not_a_name"})
		sites = append(sites, s)
		return
	}
	s.Name = name.Name
	s.Line = line(name.Pos())
	defer func() { sites = append(sites, s) }()
	if info == nil || !f.built {
		s.Outcome = "no_symbol"
		counts["not_built"]++
		unresolved = append(unresolved, Unresolved{f.rel, s.Line, name.Name, "call", "file_not_in_build"})
		return
	}
	if tv, ok := info.Types[c.Fun]; ok && tv.IsType() {
		counts["conversion"]++
		s.Outcome = "non_callable"
		if o := info.Uses[name]; o == nil || !inCorpus(o) {
			s.Outcome = "external"
		}
		return
	}
	o := info.Uses[name]
	switch obj := o.(type) {
	case nil:
		counts["no_symbol"]++
		s.Outcome = "no_symbol"
		unresolved = append(unresolved, Unresolved{f.rel, s.Line, name.Name, "call", "no_symbol"})
	case *types.Builtin:
		counts["builtin"]++
		s.Outcome = "external"
	case *types.TypeName:
		counts["conversion"]++
		s.Outcome = "non_callable"
	case *types.Var:
		if obj.IsField() || obj.Parent() == obj.Pkg().Scope() {
			counts["func_field_or_package_var"]++
			s.Outcome = "non_callable"
			if !inCorpus(obj) {
				s.Outcome = "external"
			}
		} else {
			counts["local_or_param"]++
			s.Outcome = "local"
			unresolved = append(unresolved, Unresolved{f.rel, s.Line, name.Name, "call", "local_variable_or_parameter"})
		}
	case *types.Func:
		d := defOf(obj)
		if d == nil {
			if inCorpus(obj) {
				counts["in_corpus_non_definition"]++
				s.Outcome = "non_callable"
			} else {
				counts["external"]++
				s.Outcome = "external"
			}
			return
		}
		via := "call"
		tags := []string{}
		if sig, ok := obj.Type().(*types.Signature); ok {
			if sig.Recv() != nil && types.IsInterface(sig.Recv().Type()) {
				via = "interface"
			}
			if sig.TypeParams().Len() > 0 || sig.RecvTypeParams().Len() > 0 {
				tags = append(tags, "generic")
			}
		}
		if selExpr != nil {
			if sel := info.Selections[selExpr]; sel != nil {
				if len(sel.Index()) > 1 {
					tags = append(tags, "promoted-via-embedding")
				}
				if sel.Kind() == types.MethodExpr {
					tags = append(tags, "method-expression")
				}
				if sel.Kind() == types.MethodVal && via == "call" {
					if _, ptr := sel.Recv().(*types.Pointer); !ptr && isPtrRecv(obj) {
						tags = append(tags, "pointer-method-on-value")
					}
				}
			}
		}
		if d.File != f.rel {
			tags = append(tags, "cross-file")
			if path.Dir(d.File) != path.Dir(f.rel) {
				tags = append(tags, "cross-package")
			}
		}
		counts["edge_"+via]++
		s.Outcome = "edge"
		key := fmt.Sprintf("%s|%s|%s|%d", callerQ, d.Qualified, f.rel, s.Line)
		if !edgeSeen[key] {
			edgeSeen[key] = true
			edges = append(edges, Edge{callerQ, d.Qualified, f.rel, s.Line, via, callerKind, d.Kind, "call", receiver, tags})
		}
	default:
		counts["other_object"]++
		s.Outcome = "external"
	}
}

func isPtrRecv(fn *types.Func) bool {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return false
	}
	_, ptr := sig.Recv().Type().(*types.Pointer)
	return ptr
}

func identOf(e ast.Expr) *ast.Ident {
	switch x := e.(type) {
	case *ast.Ident:
		return x
	case *ast.SelectorExpr:
		return x.Sel
	}
	return nil
}

// ---- main
func gitFiles(dir string) []string {
	cmd := exec.Command("git", "ls-files", "-z", "--", "*.go")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		fmt.Fprintln(os.Stderr, "git ls-files:", err)
		os.Exit(1)
	}
	var res []string
	for _, p := range bytes.Split(out, []byte{0}) {
		if len(p) > 0 {
			res = append(res, string(p))
		}
	}
	sort.Strings(res)
	return res
}

func modulePath(gomod string) string {
	fh, err := os.Open(gomod)
	if err != nil {
		return ""
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(l, "module ") {
			return strings.Trim(strings.TrimSpace(l[len("module "):]), `"`)
		}
	}
	return ""
}

func importPathOf(dir string) string {
	for d := dir; ; d = path.Dir(d) {
		if m, ok := modules[d]; ok {
			if d == dir {
				return m
			}
			rest := dir
			if d != "." {
				rest = strings.TrimPrefix(dir, d+"/")
			}
			return m + "/" + rest
		}
		if d == "." || d == "/" {
			return "corpus/" + dir
		}
	}
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: gold-go <corpus-dir>")
		os.Exit(2)
	}
	root, _ = filepath.Abs(os.Args[1])
	ctx.GOOS, ctx.GOARCH, ctx.CgoEnabled = "linux", "amd64", false
	rels := gitFiles(root)
	// modules
	cmd := exec.Command("git", "ls-files", "--", "go.mod", "*/go.mod")
	cmd.Dir = root
	out, _ := cmd.Output()
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if l != "" {
			modules[path.Dir(l)] = modulePath(filepath.Join(root, l))
		}
	}
	var all []*file
	for _, rel := range rels {
		full := filepath.Join(root, rel)
		af, err := parser.ParseFile(fset, full, nil, parser.ParseComments|parser.SkipObjectResolution)
		if af == nil {
			fmt.Fprintln(os.Stderr, "parse:", err)
			continue
		}
		dir := path.Dir(rel)
		f := &file{rel: rel, ast: af, pkgDir: dir, test: strings.HasSuffix(rel, "_test.go")}
		f.xtest = f.test && strings.HasSuffix(af.Name.Name, "_test")
		ok, _ := ctx.MatchFile(filepath.Join(root, dir), path.Base(rel))
		f.built = ok && err == nil
		all = append(all, f)
		pi := byDir[dir]
		if pi == nil {
			pi = &pkgInfo{dir: dir, importPath: importPathOf(dir)}
			byDir[dir] = pi
			pkgs[pi.importPath] = pi
		}
		pi.files = append(pi.files, f)
		collectDefs(f)
	}
	// package name sanity: built non-test files with another package name than the majority are dropped
	for _, pi := range byDir {
		names := map[string]int{}
		for _, f := range pi.files {
			if f.built && !f.xtest {
				names[f.ast.Name.Name]++
			}
		}
		best, n := "", -1
		for k, v := range names {
			if v > n || v == n && k < best {
				best, n = k, v
			}
		}
		for _, f := range pi.files {
			if f.built && !f.xtest && f.ast.Name.Name != best {
				f.built = false
			}
		}
	}
	dirs := make([]string, 0, len(byDir))
	for d := range byDir {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	factsInfo := map[*file]*types.Info{}
	testPkgs := map[string]*types.Package{} // import path -> package of the test build
	typesOfFacts := []*types.Package{}
	for _, d := range dirs {
		pi := byDir[d]
		checkBase(pi)
		var fs []*file
		hasTest := false
		for _, f := range pi.files {
			if f.built && !f.xtest {
				fs = append(fs, f)
				hasTest = hasTest || f.test
			}
		}
		var info *types.Info
		var pk *types.Package
		if hasTest || pi.base == nil {
			info = newInfo()
			if len(fs) > 0 {
				pk = check(pi.importPath, fs, info, nil)
			}
		} else {
			// re-check the base build to have its Info (the base check's Info was not kept)
			info = newInfo()
			pk = check(pi.importPath, fs, info, nil)
		}
		if pk != nil {
			testPkgs[pi.importPath] = pk
			typesOfFacts = append(typesOfFacts, pk)
		}
		for _, f := range fs {
			factsInfo[f] = info
		}
		var xs []*file
		for _, f := range pi.files {
			if f.built && f.xtest {
				xs = append(xs, f)
			}
		}
		if len(xs) > 0 {
			xinfo := newInfo()
			override := map[string]*types.Package{}
			if pk != nil {
				override[pi.importPath] = pk
			}
			xp := check(pi.importPath+"_test", xs, xinfo, override)
			if xp != nil {
				typesOfFacts = append(typesOfFacts, xp)
			}
			for _, f := range xs {
				factsInfo[f] = xinfo
			}
		}
	}
	// calls
	for _, f := range all {
		collectCalls(f, factsInfo[f])
	}
	// imports
	importSeen := map[string]bool{}
	var imports, importsByUse []FromTo
	useSeen := map[string]bool{}
	for _, f := range all {
		for _, is := range f.ast.Imports {
			p := strings.Trim(is.Path.Value, "`\"")
			pi := corpusPkg(p)
			if pi == nil {
				continue
			}
			for _, g := range pi.files {
				if g.test || !g.built || g.rel == f.rel {
					continue
				}
				k := f.rel + "|" + g.rel
				if !importSeen[k] {
					importSeen[k] = true
					imports = append(imports, FromTo{f.rel, g.rel})
				}
			}
		}
		info := factsInfo[f]
		if info == nil {
			continue
		}
		ast.Inspect(f.ast, func(n ast.Node) bool {
			se, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			x, ok := se.X.(*ast.Ident)
			if !ok {
				return true
			}
			pn, ok := info.Uses[x].(*types.PkgName)
			if !ok {
				return true
			}
			if corpusPkg(pn.Imported().Path()) == nil {
				return true
			}
			o := info.Uses[se.Sel]
			if o == nil {
				return true
			}
			k := posKey(o.Pos())
			if k == "" {
				return true
			}
			to := k[:strings.Index(k, ":")]
			if to != f.rel && !useSeen[f.rel+"|"+to] {
				useSeen[f.rel+"|"+to] = true
				importsByUse = append(importsByUse, FromTo{f.rel, to})
			}
			return true
		})
	}
	// inherits: embedding
	var inherits []Inherit
	inhSeen := map[string]bool{}
	addInh := func(child, base *Def, kind string) {
		if child == nil || base == nil || child == base {
			return
		}
		k := child.Qualified + "|" + base.Qualified
		if !inhSeen[k] {
			inhSeen[k] = true
			inherits = append(inherits, Inherit{child.Qualified, base.Qualified, kind})
		}
	}
	namedDef := func(t types.Type) *Def {
		if t == nil {
			return nil
		}
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := t.(*types.Named); ok {
			return defAt[posKey(n.Origin().Obj().Pos())]
		}
		return nil
	}
	for _, f := range all {
		info := factsInfo[f]
		if info == nil {
			continue
		}
		ast.Inspect(f.ast, func(n ast.Node) bool {
			gd, ok := n.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				return true
			}
			for _, s := range gd.Specs {
				ts := s.(*ast.TypeSpec)
				child := defAt[posKey(ts.Name.Pos())]
				switch t := ts.Type.(type) {
				case *ast.StructType:
					for _, fl := range t.Fields.List {
						if len(fl.Names) == 0 {
							addInh(child, namedDef(info.TypeOf(fl.Type)), "extends")
						}
					}
				case *ast.InterfaceType:
					for _, fl := range t.Methods.List {
						if len(fl.Names) == 0 {
							addInh(child, namedDef(info.TypeOf(fl.Type)), "extends")
						}
					}
				}
			}
			return true
		})
	}
	// inherits: interface satisfaction, and the implementations of each interface method
	var impls []Impl
	implSeen := map[string]bool{}
	type named struct {
		n *types.Named
		d *Def
	}
	collect := func(pk *types.Package, want func(*types.Named) bool, out *[]named, seen map[*Def]bool) {
		sc := pk.Scope()
		for _, nm := range sc.Names() {
			tn, ok := sc.Lookup(nm).(*types.TypeName)
			if !ok || tn.IsAlias() {
				continue
			}
			n, ok := tn.Type().(*types.Named)
			if !ok || n.TypeParams().Len() > 0 || !want(n) {
				continue
			}
			d := defAt[posKey(tn.Pos())]
			if d == nil || seen[d] {
				continue
			}
			seen[d] = true
			*out = append(*out, named{n, d})
		}
	}
	isIface := func(n *types.Named) bool {
		it, ok := n.Underlying().(*types.Interface)
		return ok && it.IsMethodSet() && it.NumMethods() > 0
	}
	concreteSeen := map[*Def]bool{}
	for _, pk := range typesOfFacts {
		// the interfaces as this package sees them: its own, those of the corpus packages it
		// imports (transitively, the very objects it was checked against), else the base builds
		universe := map[string]*types.Package{}
		var walk func(*types.Package)
		walk = func(p *types.Package) {
			if _, ok := universe[p.Path()]; ok {
				return
			}
			universe[p.Path()] = p
			for _, q := range p.Imports() {
				walk(q)
			}
		}
		walk(pk)
		for _, d := range dirs {
			if b := byDir[d].base; b != nil {
				if _, ok := universe[b.Path()]; !ok {
					universe[b.Path()] = b
				}
			}
		}
		var ifaces []named
		ifaceSeen := map[*Def]bool{}
		paths := make([]string, 0, len(universe))
		for p := range universe {
			paths = append(paths, p)
		}
		sort.Strings(paths)
		collect(pk, isIface, &ifaces, ifaceSeen)
		for _, p := range paths {
			collect(universe[p], isIface, &ifaces, ifaceSeen)
		}
		var concrete []named
		collect(pk, func(n *types.Named) bool { return !types.IsInterface(n) }, &concrete, concreteSeen)
		for _, c := range concrete {
			for _, i := range ifaces {
				it := i.n.Underlying().(*types.Interface)
				var recv types.Type
				if types.Implements(c.n, it) {
					recv = c.n
				} else if types.Implements(types.NewPointer(c.n), it) {
					recv = types.NewPointer(c.n)
				} else {
					continue
				}
				addInh(c.d, i.d, "implements")
				for k := 0; k < it.NumMethods(); k++ {
					m := it.Method(k)
					o, _, _ := types.LookupFieldOrMethod(recv, true, m.Pkg(), m.Name())
					im, id := defOf(m), (*Def)(nil)
					if o != nil {
						id = defOf(o)
					}
					if im == nil || id == nil {
						continue
					}
					key := im.Qualified + "|" + c.d.Qualified
					if !implSeen[key] {
						implSeen[key] = true
						impls = append(impls, Impl{i.d.Qualified, im.Qualified, c.d.Qualified, id.Qualified})
					}
				}
			}
		}
	}
	pairs := map[string]bool{}
	for _, e := range edges {
		pairs[e.Caller+"|"+e.Callee] = true
	}
	builtFiles := 0
	for _, f := range all {
		if f.built {
			builtFiles++
		}
	}
	counts["type_errors"] = errs
	sort.SliceStable(unresolved, func(i, j int) bool { return false })
	res := map[string]any{
		"meta": map[string]any{
			"format":   "code-graph-gold/1",
			"language": "go",
			"indexer":  "go/types " + runtime.Version(),
			"counts": map[string]any{
				"files": len(all), "files_type_checked": builtFiles, "definitions": len(defs), "call_edges": len(edges),
				"call_edge_pairs": len(pairs), "import_edges": len(imports), "import_edges_by_use": len(importsByUse),
				"inherits": len(inherits), "implementations": len(impls), "call_sites": counts,
			},
		},
		"definitions":           nz(defs),
		"call_edges":            nz(edges),
		"import_edges":          nz(imports),
		"import_edges_by_use":   nz(importsByUse),
		"inherits":              nz(inherits),
		"implementations":       nz(impls),
		"unresolved_call_sites": nz(unresolved),
		"call_sites":            nz(sites),
	}
	enc := json.NewEncoder(os.Stdout)
	if err := enc.Encode(res); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func nz[T any](x []T) []T {
	if x == nil {
		return []T{}
	}
	return x
}
