// gold-csharp: compiler-grade code graph (`code-graph-gold/1`) of a C# corpus, from NRefactory 5's
// C# parser and resolver (Debian libicsharpcode-nrefactory-cil-dev; the parser is Mono's mcs
// grammar, the resolver the C# type system of MonoDevelop/SharpDevelop), with Mono 6.8's mcs as the
// gate: the corpus must compile with `mcs` (meta.mcs says how that went).
//
//   mcs -out:OUT/gold-csharp.exe -r:ICSharpCode.NRefactory.dll -r:ICSharpCode.NRefactory.CSharp.dll
//       -r:ICSharpCode.NRefactory.Cecil.dll -r:Mono.Cecil.dll GoldCSharp.cs
//   mono OUT/gold-csharp.exe <corpus> <config-json> > gold.json
//
// config: {"skip": [relpaths], "skip_re": "regex", "refs": [assembly paths], "define": ["SYMBOL"]}.
// The files are the corpus' committed `.cs` files (`git ls-files`) less the skipped ones, compiled as
// one assembly against `refs` (mscorlib, System, System.Core, System.Xml come from Mono's 4.5 profile).
//
// Rules (see ../README.md, "C#"):
//   definitions  classes, structs, interfaces, enums (`class`, `struct`, `interface`, `enum`), delegates
//                (`type`), methods (abstract and interface ones too; `method`), constructors
//                (`constructor`, named after the class), properties with accessors (`property`), at
//                any depth. Not: fields, events, indexers, operators, destructors, enum members,
//                namespaces. Each part of a partial class is a definition in its own file.
//                Qualified `<relpath>#<Namespace>.<Outer>.<member>` (the namespace dotted, nested
//                namespaces joined); overloads share it; start_line is the name token's line.
//   call edges   each invocation `m(..)`/`x.m(..)`/`T.m(..)`/`m<T>(..)`, `new T(..)` and `: this(..)` /
//                `: base(..)`. The member the resolver chose decides (static dispatch: an interface or
//                base method included; extension methods to their static method): a corpus method ->
//                `call`; a constructor -> the class part that declares it, or the first part for the
//                implicit one (`constructor`, `this`, `super`). The caller is the innermost enclosing
//                definition; lambdas and anonymous methods are transparent; calls in field
//                initialisers, indexers, operators, events and destructors belong to the type. A
//                delegate invoked through a variable, a call the resolver could not bind, or a callee
//                that is a local/field/parameter -> unresolvable. `line` is the line of the callee name
//                token (the type name after `new`, `this`/`base` for initialisers). Attributes,
//                operators, implicit `base()` and method groups are not calls.
//   import edges `using N;` -> every corpus file declaring a type in namespace N; `using static T;`
//                and `using X = T;` (a type) -> T's files; `using X = N;` -> as `using N;`.
//   inherits     each base-list entry resolving to a corpus type: a class's base class `extends`, an
//                interface implemented `implements`, an interface's base interface `extends`.
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Text;
using System.Text.RegularExpressions;
using ICSharpCode.NRefactory;
using ICSharpCode.NRefactory.CSharp;
using ICSharpCode.NRefactory.CSharp.Resolver;
using ICSharpCode.NRefactory.CSharp.TypeSystem;
using ICSharpCode.NRefactory.Semantics;
using ICSharpCode.NRefactory.TypeSystem;

class Def {
  public string File, Name, Qualified, Kind;
  public int Start, End, First;
}

class Edge {
  public string Caller, Callee, File, Via, CallerKind, CalleeKind, Form;
  public int Line;
  public List<string> Tags = new List<string>();
}

static class GoldCSharp {
  static string root;
  static readonly List<Def> defs = new List<Def>();
  static readonly Dictionary<object, Def> defOf = new Dictionary<object, Def>(); // IUnresolvedEntity -> def
  static readonly Dictionary<string, SortedSet<string>> filesOfNamespace = new Dictionary<string, SortedSet<string>>();
  static readonly List<Edge> edges = new List<Edge>();
  static readonly List<Dictionary<string, object>> unresolved = new List<Dictionary<string, object>>();
  static readonly List<Dictionary<string, object>> sites = new List<Dictionary<string, object>>();
  static readonly SortedDictionary<string, int> counts = new SortedDictionary<string, int>();
  static readonly SortedSet<string> imports = new SortedSet<string>();
  static readonly SortedSet<string> inherits = new SortedSet<string>();
  static int parseErrors = 0, resolveErrors = 0;

  static void Count(string k) { int n; counts.TryGetValue(k, out n); counts[k] = n + 1; }

  static int Main(string[] args) {
    if (args.Length != 2) { Console.Error.WriteLine("usage: gold-csharp <corpus> <config-json>"); return 2; }
    root = Path.GetFullPath(args[0]).TrimEnd('/');
    var cfg = Json.Parse(args[1]) as Dictionary<string, object> ?? new Dictionary<string, object>();
    var skip = new HashSet<string>(List(cfg, "skip"));
    var skipRe = cfg.ContainsKey("skip_re") ? new Regex((string)cfg["skip_re"]) : null;
    var refs = List(cfg, "refs");
    var defines = List(cfg, "define");
    var all = Git("ls-files", "-z", "--", "*.cs");
    var files = all.Where(f => !skip.Contains(f) && (skipRe == null || !skipRe.IsMatch(f))).OrderBy(f => f, StringComparer.Ordinal).ToList();
    var skipped = all.Except(files).OrderBy(f => f, StringComparer.Ordinal).ToList();

    var mcs = RunMcs(files, refs, defines);

    var parser = new CSharpParser(new CompilerSettings());
    foreach (var d in defines) parser.CompilerSettings.ConditionalSymbols.Add(d);
    var trees = new List<SyntaxTree>();
    var unresolvedFiles = new List<CSharpUnresolvedFile>();
    foreach (var rel in files) {
      var st = parser.Parse(File.ReadAllText(Path.Combine(root, rel)), rel);
      foreach (var e in st.Errors) { parseErrors++; Console.Error.WriteLine("parse: " + rel + ":" + e.Region.BeginLine + ": " + e.Message); }
      trees.Add(st);
      unresolvedFiles.Add(st.ToTypeSystem());
    }
    IProjectContent pc = new CSharpProjectContent();
    pc = pc.AddOrUpdateFiles(unresolvedFiles.Cast<IUnresolvedFile>());
    var loader = new CecilLoader();
    var asmPaths = new List<string> { "mscorlib.dll", "System.dll", "System.Core.dll", "System.Xml.dll", "System.Xml.Linq.dll", "System.Data.dll" }
      .Select(a => "/usr/lib/mono/4.5/" + a).Concat(refs).ToList();
    pc = pc.AddAssemblyReferences(asmPaths.Select(p => (IAssemblyReference)loader.LoadAssemblyFile(p)).ToList());
    var comp = pc.CreateCompilation();

    // pass 1: definitions (every file first, so calls can reach any file)
    var resolvers = new List<CSharpAstResolver>();
    for (int i = 0; i < trees.Count; i++) {
      var r = new CSharpAstResolver(comp, trees[i], unresolvedFiles[i]);
      resolvers.Add(r);
      CollectDefs(files[i], trees[i], r);
    }
    // pass 2: calls, imports, inherits
    for (int i = 0; i < trees.Count; i++) CollectUses(files[i], trees[i], resolvers[i]);

    Emit(files, skipped, mcs);
    return 0;
  }

  static List<string> List(Dictionary<string, object> cfg, string k) {
    object v;
    return cfg.TryGetValue(k, out v) && v is List<object> ? ((List<object>)v).Select(x => (string)x).ToList() : new List<string>();
  }

  static List<string> Git(params string[] args) {
    var psi = new ProcessStartInfo("git", "-C " + Quote(root) + " " + string.Join(" ", args.Select(Quote))) { RedirectStandardOutput = true, UseShellExecute = false };
    var p = Process.Start(psi);
    var o = p.StandardOutput.ReadToEnd();
    p.WaitForExit();
    return o.Split('\0').Where(s => s.Length > 0).ToList();
  }

  static string Quote(string s) { return "'" + s.Replace("'", "'\\''") + "'"; }

  /** Compiles the corpus with mcs into a throwaway library: the gate that the code is C# Mono compiles. */
  static Dictionary<string, object> RunMcs(List<string> files, List<string> refs, List<string> defines) {
    var tmp = Path.Combine(Path.GetTempPath(), "gold-csharp-" + Process.GetCurrentProcess().Id);
    Directory.CreateDirectory(tmp);
    var rsp = Path.Combine(tmp, "args.rsp");
    var lines = new List<string> { "-target:library", "-nowarn:0618,0612,0168,0219,0414,0649,0169,0067,0659,0661,0660,0108,0114", "-unsafe", "-out:" + Path.Combine(tmp, "corpus.dll"), "-r:System.Xml.dll", "-r:System.Xml.Linq.dll", "-r:System.Core.dll", "-r:System.Data.dll" };
    foreach (var r in refs) lines.Add("-r:" + r);
    foreach (var d in defines) lines.Add("-define:" + d);
    foreach (var f in files) lines.Add(Quote(Path.Combine(root, f)).Replace("'", "\""));
    File.WriteAllLines(rsp, lines);
    var psi = new ProcessStartInfo("mcs", "@" + rsp) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
    var p = Process.Start(psi);
    var o = p.StandardOutput.ReadToEnd() + p.StandardError.ReadToEnd();
    p.WaitForExit();
    var errs = o.Split('\n').Where(l => l.Contains("error CS")).ToList();
    foreach (var e in errs.Take(20)) Console.Error.WriteLine("mcs: " + e);
    Directory.Delete(tmp, true);
    var m = new Dictionary<string, object>();
    m["exit"] = p.ExitCode;
    m["errors"] = errs.Count;
    return m;
  }

  // ---- definitions

  static string NamespaceOf(AstNode n) {
    var parts = new List<string>();
    for (var p = n.Parent; p != null; p = p.Parent) {
      var ns = p as NamespaceDeclaration;
      if (ns != null) parts.Insert(0, ns.Name);
    }
    return string.Join(".", parts);
  }

  /** The names of the enclosing definitions (types and members that are definitions), outermost first. */
  static List<string> Enclosing(AstNode n) {
    var parts = new List<string>();
    for (var p = n.Parent; p != null; p = p.Parent) {
      string name = DefName(p);
      if (name != null) parts.Insert(0, name);
    }
    return parts;
  }

  static string DefName(AstNode n) {
    if (n is TypeDeclaration) return ((TypeDeclaration)n).Name;
    if (n is DelegateDeclaration) return ((DelegateDeclaration)n).Name;
    if (n is MethodDeclaration) return ((MethodDeclaration)n).Name;
    if (n is ConstructorDeclaration) return EnclosingTypeName(n);
    if (n is PropertyDeclaration) return ((PropertyDeclaration)n).Name;
    return null;
  }

  static string EnclosingTypeName(AstNode n) {
    for (var p = n.Parent; p != null; p = p.Parent) if (p is TypeDeclaration) return ((TypeDeclaration)p).Name;
    return null;
  }

  static string KindOf(AstNode n) {
    var t = n as TypeDeclaration;
    if (t != null) {
      switch (t.ClassType) {
        case ClassType.Class: return "class";
        case ClassType.Struct: return "struct";
        case ClassType.Interface: return "interface";
        case ClassType.Enum: return "enum";
      }
    }
    if (n is DelegateDeclaration) return "type";
    if (n is MethodDeclaration) return "method";
    if (n is ConstructorDeclaration) return "constructor";
    if (n is PropertyDeclaration) return "property";
    return null;
  }

  static string Qualified(string rel, AstNode n, string name) {
    var parts = new List<string>();
    var ns = NamespaceOf(n);
    if (ns.Length > 0) parts.Add(ns);
    parts.AddRange(Enclosing(n));
    parts.Add(name);
    return rel + "#" + string.Join(".", parts);
  }

  static void CollectDefs(string rel, SyntaxTree st, CSharpAstResolver r) {
    foreach (var n in st.Descendants) {
      var kind = KindOf(n);
      if (kind == null) continue;
      var ed = (EntityDeclaration)n;
      var name = DefName(n);
      var nameTok = n is ConstructorDeclaration ? (AstNode)((ConstructorDeclaration)n).NameToken : ed.NameToken;
      var d = new Def { File = rel, Name = name, Kind = kind, Qualified = Qualified(rel, n, name), Start = nameTok.StartLocation.Line, End = n.EndLocation.Line };
      // first line: attributes or the first modifier/type token, when before the name
      var first = ed.Attributes.Any() ? ed.Attributes.First().StartLocation.Line : n.Children.Where(c => c.Role != Roles.Comment && !(c is NewLineNode) && !(c is WhitespaceNode)).Select(c => c.StartLocation.Line).DefaultIfEmpty(d.Start).First();
      d.First = first;
      defs.Add(d);
      var rr = r.Resolve(n);
      object key = null;
      if (rr is TypeResolveResult) {
        var td = rr.Type.GetDefinition();
        if (td != null) key = td.Parts.FirstOrDefault(p => p.UnresolvedFile != null && p.UnresolvedFile.FileName == rel && p.Region.Begin <= n.StartLocation.AddSafe(1) && p.Region.End >= n.StartLocation) ?? PartAt(td, rel, n);
        if (n.Parent is NamespaceDeclaration || n.Parent is SyntaxTree) {
          var nsName = NamespaceOf(n);
          SortedSet<string> set;
          if (!filesOfNamespace.TryGetValue(nsName, out set)) filesOfNamespace[nsName] = set = new SortedSet<string>(StringComparer.Ordinal);
          set.Add(rel);
        }
      } else if (rr is MemberResolveResult) {
        key = ((MemberResolveResult)rr).Member.UnresolvedMember;
      }
      if (key != null) defOf[key] = d;
      else Count("definition_without_entity");
    }
  }

  static TextLocation AddSafe(this TextLocation l, int cols) { return new TextLocation(l.Line, l.Column + cols); }

  static IUnresolvedTypeDefinition PartAt(ITypeDefinition td, string rel, AstNode n) {
    return td.Parts.FirstOrDefault(p => p.Region.FileName == rel && p.Region.BeginLine <= n.StartLocation.Line && p.Region.EndLine >= n.StartLocation.Line)
      ?? td.Parts.FirstOrDefault(p => p.Region.FileName == rel);
  }

  static Def DefOfType(ITypeDefinition td) {
    if (td == null) return null;
    foreach (var p in td.Parts.OrderBy(p => p.Region.FileName, StringComparer.Ordinal).ThenBy(p => p.Region.BeginLine)) {
      Def d;
      if (defOf.TryGetValue(p, out d)) return d;
    }
    return null;
  }

  static Def DefOfMember(IMember m) {
    if (m == null) return null;
    var um = m.MemberDefinition.UnresolvedMember;
    Def d;
    if (um != null && defOf.TryGetValue(um, out d)) return d;
    return null;
  }

  static bool InCorpus(IEntity e, ICompilation comp) {
    return e != null && e.ParentAssembly != null && e.ParentAssembly.UnresolvedAssembly is IProjectContent;
  }

  // ---- uses

  /** The innermost enclosing definition of a node (lambdas transparent; field initialisers, indexers,
   *  operators, events, destructors -> their type). */
  static Def CallerOf(AstNode n, CSharpAstResolver r) {
    for (var p = n.Parent; p != null; p = p.Parent) {
      if (KindOf(p) == null) continue;
      Def d;
      if (callerCache.TryGetValue(p, out d)) return d;
      d = defs.FirstOrDefault(x => x.File == currentFile && x.Start == (p is ConstructorDeclaration ? ((ConstructorDeclaration)p).NameToken : ((EntityDeclaration)p).NameToken).StartLocation.Line && x.Name == DefName(p));
      callerCache[p] = d;
      return d;
    }
    return null;
  }

  static readonly Dictionary<AstNode, Def> callerCache = new Dictionary<AstNode, Def>();
  static string currentFile;

  static void CollectUses(string rel, SyntaxTree st, CSharpAstResolver r) {
    currentFile = rel;
    foreach (var n in st.Descendants) {
      if (n is InvocationExpression) Invocation(rel, (InvocationExpression)n, r);
      else if (n is ObjectCreateExpression) Creation(rel, (ObjectCreateExpression)n, r);
      else if (n is ConstructorInitializer) Initializer(rel, (ConstructorInitializer)n, r);
      else if (n is UsingDeclaration) Using(rel, ((UsingDeclaration)n).Import, r, false);
      else if (n is UsingAliasDeclaration) Using(rel, ((UsingAliasDeclaration)n).Import, r, true);
      else if (n is TypeDeclaration) Bases(rel, (TypeDeclaration)n, r);
    }
  }

  static Dictionary<string, object> Site(string rel, int line, string name, string form) {
    var s = new Dictionary<string, object>();
    s["file"] = rel; s["line"] = line; s["name"] = name; s["form"] = form; s["outcome"] = "";
    sites.Add(s);
    return s;
  }

  static void Unresolvable(Dictionary<string, object> s, string reason) {
    s["outcome"] = "unresolvable";
    Count("unresolvable_" + reason);
    var u = new Dictionary<string, object>();
    u["file"] = s["file"]; u["line"] = s["line"]; u["name"] = s["name"]; u["form"] = s["form"]; u["reason"] = reason;
    unresolved.Add(u);
  }

  static void AddEdge(string rel, AstNode at, Def callee, string via, string form, CSharpAstResolver r, Dictionary<string, object> site, params string[] tags) {
    var caller = CallerOf(at, r);
    if (caller == null) { Count("no_caller"); site["outcome"] = "no_caller"; return; }
    site["outcome"] = "edge";
    var e = new Edge { Caller = caller.Qualified, CallerKind = caller.Kind, Callee = callee.Qualified, CalleeKind = callee.Kind, File = rel, Line = (int)site["line"], Via = via, Form = form };
    e.Tags.AddRange(tags.Where(t => t != null));
    edges.Add(e);
  }

  static void Invocation(string rel, InvocationExpression inv, CSharpAstResolver r) {
    var target = inv.Target;
    while (target is ParenthesizedExpression) target = ((ParenthesizedExpression)target).Expression;
    string name; int line; string form; Expression receiver = null;
    if (target is IdentifierExpression) {
      var id = (IdentifierExpression)target;
      name = id.Identifier; line = id.IdentifierToken.StartLocation.Line; form = "name";
    } else if (target is MemberReferenceExpression) {
      var mr = (MemberReferenceExpression)target;
      name = mr.MemberName; line = mr.MemberNameToken.StartLocation.Line; receiver = mr.Target;
      form = receiver is ThisReferenceExpression ? "this" : receiver is BaseReferenceExpression ? "base" : "member";
    } else if (target is PointerReferenceExpression) {
      var pr = (PointerReferenceExpression)target;
      name = pr.MemberName; line = pr.StartLocation.Line; form = "pointer";
    } else {
      var s0 = Site(rel, inv.StartLocation.Line, "", "computed");
      Unresolvable(s0, "callee_not_a_name");
      return;
    }
    var s = Site(rel, line, name, form);
    var rr = r.Resolve(inv);
    var ir = rr as CSharpInvocationResolveResult;
    if (ir == null || rr.IsError) {
      var tr = r.Resolve(target);
      if (rr.IsError) resolveErrors++;
      Unresolvable(s, rr.IsError ? "no_symbol" : "not_an_invocation");
      return;
    }
    if (ir.IsDelegateInvocation) { Unresolvable(s, "delegate"); return; }
    var m = ir.Member;
    if (!InCorpus(m, r.Compilation)) { s["outcome"] = "external"; Count("external"); return; }
    var d = DefOfMember(m);
    if (d == null) { s["outcome"] = "non_callable"; Count("corpus_member_without_definition"); return; }
    string tag = ir.IsExtensionMethodInvocation ? "extension" : m.DeclaringTypeDefinition != null && m.DeclaringTypeDefinition.Kind == TypeKind.Interface ? "interface" : null;
    string tag2 = form == "base" ? "base" : receiver != null && !ir.IsExtensionMethodInvocation && ir.TargetResult is TypeResolveResult ? "static" : null;
    string tag3 = m is IMethod && ((IMethod)m).TypeArguments.Count > 0 ? "generic" : null;
    AddEdge(rel, inv, d, "call", form, r, s, tag, tag2, tag3);
  }

  static void Creation(string rel, ObjectCreateExpression oc, CSharpAstResolver r) {
    var t = oc.Type;
    AstNode nameNode = t;
    if (t is MemberType) nameNode = ((MemberType)t).MemberNameToken;
    else if (t is SimpleType) nameNode = ((SimpleType)t).IdentifierToken;
    var s = Site(rel, nameNode.StartLocation.Line, t is MemberType ? ((MemberType)t).MemberName : t is SimpleType ? ((SimpleType)t).Identifier : t.ToString(), "new");
    var rr = r.Resolve(oc);
    var ir = rr as InvocationResolveResult;
    if (rr.IsError || ir == null) {
      if (rr.Type != null && rr.Type.Kind != TypeKind.Unknown && !InCorpus(rr.Type.GetDefinition(), r.Compilation)) { s["outcome"] = "external"; Count("external"); return; }
      resolveErrors++;
      Unresolvable(s, "no_symbol");
      return;
    }
    var td = ir.Member.DeclaringTypeDefinition;
    if (!InCorpus(td, r.Compilation)) { s["outcome"] = "external"; Count("external"); return; }
    if (td.Kind == TypeKind.Delegate || td.Kind == TypeKind.Interface) { s["outcome"] = "non_callable"; Count("new_delegate_or_interface"); return; }
    var ctor = DefOfMember(ir.Member);
    Def d = ctor != null ? TypePartOf(ir.Member, td) : DefOfType(td);
    if (d == null) { s["outcome"] = "non_callable"; Count("corpus_type_without_definition"); return; }
    AddEdge(rel, oc, d, "constructor", "new", r, s, ctor == null ? "implicit-ctor" : null);
  }

  /** The definition of the class part that declares a constructor. */
  static Def TypePartOf(IMember ctor, ITypeDefinition td) {
    var um = ctor.MemberDefinition.UnresolvedMember;
    var part = um != null ? um.DeclaringTypeDefinition : null;
    Def d;
    if (part != null && defOf.TryGetValue(part, out d)) return d;
    return DefOfType(td);
  }

  static void Initializer(string rel, ConstructorInitializer ci, CSharpAstResolver r) {
    if (ci.IsNull) return;
    var kw = ci.ConstructorInitializerType == ConstructorInitializerType.This ? "this" : "base";
    var s = Site(rel, ci.StartLocation.Line, kw, kw);
    var rr = r.Resolve(ci);
    var ir = rr as InvocationResolveResult;
    if (rr.IsError || ir == null) { resolveErrors++; Unresolvable(s, "no_symbol"); return; }
    var td = ir.Member.DeclaringTypeDefinition;
    if (!InCorpus(td, r.Compilation)) { s["outcome"] = "external"; Count("external"); return; }
    var ctor = DefOfMember(ir.Member);
    Def d = ctor != null ? TypePartOf(ir.Member, td) : DefOfType(td);
    if (d == null) { s["outcome"] = "non_callable"; return; }
    AddEdge(rel, ci, d, kw == "this" ? "this" : "super", kw, r, s, ctor == null ? "implicit-ctor" : null);
  }

  static void Using(string rel, AstType import, CSharpAstResolver r, bool alias) {
    var rr = r.Resolve(import);
    if (rr is NamespaceResolveResult) {
      SortedSet<string> set;
      if (filesOfNamespace.TryGetValue(((NamespaceResolveResult)rr).NamespaceName, out set)) foreach (var f in set) if (f != rel) imports.Add(rel + "\0" + f);
    } else if (rr is TypeResolveResult) {
      var td = rr.Type.GetDefinition();
      if (td != null && InCorpus(td, r.Compilation)) {
        while (td.DeclaringTypeDefinition != null) td = td.DeclaringTypeDefinition;
        foreach (var p in td.Parts) if (p.Region.FileName != rel) imports.Add(rel + "\0" + p.Region.FileName);
      }
    } else Count("using_unresolved");
  }

  static void Bases(string rel, TypeDeclaration t, CSharpAstResolver r) {
    Def child;
    var rrT = r.Resolve(t) as TypeResolveResult;
    if (rrT == null) return;
    var td0 = rrT.Type.GetDefinition();
    if (td0 == null) return;
    var part = PartAt(td0, rel, t);
    if (part == null || !defOf.TryGetValue(part, out child)) return;
    foreach (var b in t.BaseTypes) {
      var rr = r.Resolve(b);
      if (!(rr is TypeResolveResult)) continue;
      var td = rr.Type.GetDefinition();
      if (td == null || !InCorpus(td, r.Compilation)) continue;
      var d = DefOfType(td);
      if (d == null) continue;
      var kind = td.Kind == TypeKind.Interface && t.ClassType != ClassType.Interface ? "implements" : "extends";
      inherits.Add(child.Qualified + "\0" + d.Qualified + "\0" + kind);
    }
  }

  // ---- output

  static void Emit(List<string> files, List<string> skipped, Dictionary<string, object> mcs) {
    var o = new Dictionary<string, object>();
    var meta = new Dictionary<string, object>();
    meta["format"] = "code-graph-gold/1";
    meta["language"] = "csharp";
    meta["indexer"] = "NRefactory " + typeof(CSharpParser).Assembly.GetName().Version + " (parser + resolver), mcs gate";
    meta["files"] = files;
    meta["skipped_files"] = skipped;
    meta["mcs"] = mcs;
    var pairs = new HashSet<string>(edges.Select(e => e.Caller + "\0" + e.Callee));
    var c = new Dictionary<string, object>();
    c["files"] = files.Count; c["definitions"] = defs.Count; c["call_edges"] = edges.Count; c["call_edge_pairs"] = pairs.Count;
    c["import_edges"] = imports.Count; c["inherits"] = inherits.Count;
    counts["parse_errors"] = parseErrors; counts["resolve_errors"] = resolveErrors;
    c["call_sites"] = counts;
    meta["counts"] = c;
    o["meta"] = meta;
    o["definitions"] = defs.Select(d => {
      var m = new Dictionary<string, object>();
      m["file"] = d.File; m["name"] = d.Name; m["qualified"] = d.Qualified; m["kind"] = d.Kind; m["start_line"] = d.Start; m["end_line"] = d.End;
      if (d.First < d.Start) m["first_line"] = d.First;
      return (object)m;
    }).ToList();
    o["call_edges"] = edges.Select(e => {
      var m = new Dictionary<string, object>();
      m["caller"] = e.Caller; m["callee"] = e.Callee; m["file"] = e.File; m["line"] = e.Line; m["via"] = e.Via;
      m["caller_kind"] = e.CallerKind; m["callee_kind"] = e.CalleeKind; m["form"] = e.Form; m["tags"] = e.Tags;
      return (object)m;
    }).ToList();
    o["import_edges"] = imports.Select(s => { var p = s.Split('\0'); var m = new Dictionary<string, object>(); m["from"] = p[0]; m["to"] = p[1]; return (object)m; }).ToList();
    o["inherits"] = inherits.Select(s => { var p = s.Split('\0'); var m = new Dictionary<string, object>(); m["child"] = p[0]; m["base"] = p[1]; m["kind"] = p[2]; return (object)m; }).ToList();
    o["unresolved_call_sites"] = unresolved;
    o["call_sites"] = sites;
    var sb = new StringBuilder();
    Json.Write(sb, o);
    var stdout = new StreamWriter(Console.OpenStandardOutput(), new UTF8Encoding(false));
    stdout.Write(sb.ToString());
    stdout.Flush();
  }
}

/** A minimal JSON reader (the config) and writer (the gold). */
static class Json {
  public static object Parse(string s) { int i = 0; return Value(s, ref i); }

  static void Ws(string s, ref int i) { while (i < s.Length && char.IsWhiteSpace(s[i])) i++; }

  static object Value(string s, ref int i) {
    Ws(s, ref i);
    if (s[i] == '{') {
      var d = new Dictionary<string, object>(); i++; Ws(s, ref i);
      if (s[i] == '}') { i++; return d; }
      while (true) {
        Ws(s, ref i); var k = (string)Value(s, ref i); Ws(s, ref i); i++; // ':'
        d[k] = Value(s, ref i); Ws(s, ref i);
        if (s[i++] == '}') return d;
      }
    }
    if (s[i] == '[') {
      var l = new List<object>(); i++; Ws(s, ref i);
      if (s[i] == ']') { i++; return l; }
      while (true) {
        l.Add(Value(s, ref i)); Ws(s, ref i);
        if (s[i++] == ']') return l;
      }
    }
    if (s[i] == '"') {
      var sb = new StringBuilder(); i++;
      while (s[i] != '"') {
        if (s[i] == '\\') {
          i++;
          char c = s[i];
          if (c == 'n') sb.Append('\n'); else if (c == 't') sb.Append('\t'); else if (c == 'u') { sb.Append((char)Convert.ToInt32(s.Substring(i + 1, 4), 16)); i += 4; } else sb.Append(c);
          i++;
        } else sb.Append(s[i++]);
      }
      i++;
      return sb.ToString();
    }
    int start = i;
    while (i < s.Length && ",}] \n\r\t".IndexOf(s[i]) < 0) i++;
    var lit = s.Substring(start, i - start);
    if (lit == "true") return true;
    if (lit == "false") return false;
    if (lit == "null") return null;
    return double.Parse(lit, System.Globalization.CultureInfo.InvariantCulture);
  }

  public static void Write(StringBuilder sb, object v) {
    if (v == null) sb.Append("null");
    else if (v is string) Str(sb, (string)v);
    else if (v is bool) sb.Append((bool)v ? "true" : "false");
    else if (v is int || v is long || v is double) sb.Append(Convert.ToString(v, System.Globalization.CultureInfo.InvariantCulture));
    else if (v is System.Collections.IDictionary) {
      sb.Append('{'); bool first = true;
      foreach (System.Collections.DictionaryEntry e in (System.Collections.IDictionary)v) {
        if (!first) sb.Append(','); first = false;
        Str(sb, (string)e.Key); sb.Append(':'); Write(sb, e.Value);
      }
      sb.Append('}');
    } else if (v is System.Collections.IEnumerable) {
      sb.Append('['); bool first = true;
      foreach (var x in (System.Collections.IEnumerable)v) { if (!first) sb.Append(','); first = false; Write(sb, x); }
      sb.Append(']');
    } else Str(sb, v.ToString());
  }

  static void Str(StringBuilder sb, string s) {
    sb.Append('"');
    foreach (var c in s) {
      if (c == '"') sb.Append("\\\""); else if (c == '\\') sb.Append("\\\\"); else if (c < ' ') sb.Append("\\u").Append(((int)c).ToString("x4")); else sb.Append(c);
    }
    sb.Append('"');
  }
}
