// gold-java: compiler-grade code graph (`code-graph-gold/1`) of a Java corpus, from javac's Tree
// API (com.sun.source), com.sun.source.util.Trees and javax.lang.model, JDK 17.
//
//   javac --add-exports jdk.compiler/com.sun.tools.javac.tree=ALL-UNNAMED -d OUT GoldJava.java
//   java  --add-exports jdk.compiler/com.sun.tools.javac.tree=ALL-UNNAMED -cp OUT GoldJava <corpus> > gold.json
//
// The files are the corpus' committed `.java` files (`git ls-files`), the set codeslice scans
// (module-info.java is left out of compilation: it declares nothing). Each file's source root is
// its folder minus its package path. Files are compiled in groups, one per build module (the
// nearest folder with a pom.xml / build.gradle(.kts), else the corpus root): a group's files are
// the compilation units, and the source roots of its own module, then of all others, form the
// -sourcepath. Libraries are not on the class path: JavacTask.analyze() attributes everything
// regardless (-XDshould-stop.ifError=FLOW), and what comes from a missing library has no symbol.
//
// Rules (see ../README.md, "Java"):
//   definitions  classes, interfaces, enums, records, annotation types (`class`, `interface`,
//                `enum`, `record`, `annotation`), at any depth (local classes too); methods
//                (abstract, interface and annotation members too) and explicit constructors
//                (`constructor`, named after the class; compact record constructors too). Anonymous
//                classes and lambdas are transparent: their methods nest under the enclosing named
//                definition. Qualified `<relpath>#<Outer>.<Inner>.<member>`; overloads share it;
//                start_line is the name token's line (annotations and doc comments excluded).
//   call edges   each method invocation `m(..)`/`x.m(..)`, `new T(..)` and `this(..)`/`super(..)`.
//                The element javac resolved decides: a corpus method -> `call` (static dispatch:
//                the declaration the compiler chose, an interface or superclass method included);
//                a constructor -> the class (`constructor`, `this`, `super`), an anonymous
//                `new T() {..}` -> T when T is a class. Calls in field initialisers and initialiser
//                blocks belong to the class; calls in lambdas and anonymous classes to the enclosing
//                named definition. No element (a missing library) -> unresolvable; a corpus element
//                that is no definition (implicit record accessor, values()) -> no edge. Method
//                references (`A::m`) are not calls. `line` is the line of the callee name token.
//   import edges file -> file of the imported type (`import a.B`, `import static a.B.m`,
//                `import static a.B.*` -> B's file; `import a.B.Inner` -> B's file); `import a.*` ->
//                every corpus file of package a. Same-package uses are no import edges.
//   inherits     extends / implements clauses of named types (interface `extends` -> `extends`),
//                each resolved to a corpus type.
import com.sun.source.tree.*;
import com.sun.source.util.*;
import com.sun.tools.javac.tree.JCTree;
import java.io.*;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.util.*;
import java.util.stream.*;
import javax.lang.model.element.*;
import javax.lang.model.type.*;
import javax.lang.model.util.*;
import javax.tools.*;

public class GoldJava {
  static Path root;
  static final List<Map<String, Object>> defs = new ArrayList<>();
  static final Map<String, List<Map<String, Object>>> defsBySig = new HashMap<>();
  static final Map<String, List<String>> filesOfType = new HashMap<>(); // top-level FQN -> files
  static final Map<String, Integer> defsByQualified = new HashMap<>();
  static final Map<String, List<String>> filesOfPackage = new HashMap<>();
  static final Map<String, String> groupOfFile = new HashMap<>();
  static final List<Object[]> rawEdges = new ArrayList<>(); // caller, calleeSig, file, line, via, callerKind, form, receiver, group
  static final List<Map<String, Object>> sites = new ArrayList<>();
  static final List<Map<String, Object>> unresolved = new ArrayList<>();
  static final List<String[]> rawImports = new ArrayList<>(); // from, kind(type|package), name, group
  static final List<String[]> rawInherits = new ArrayList<>(); // child qualified, base sig, kind, group
  static final Map<String, Integer> counts = new TreeMap<>();
  static int errors = 0;

  static void count(String k) { counts.merge(k, 1, Integer::sum); }

  public static void main(String[] args) throws Exception {
    String classPath = System.getenv("GOLD_JAVA_CLASSPATH");
    if (args.length != 1) {
      System.err.println("usage: [GOLD_JAVA_CLASSPATH=jars] GoldJava <corpus-dir>");
      System.exit(2);
    }
    root = Paths.get(args[0]).toAbsolutePath().normalize();
    List<String> rels = git("ls-files", "-z", "--", "*.java");
    List<String> buildFiles = git("ls-files", "-z", "--", "pom.xml", "*/pom.xml", "build.gradle", "*/build.gradle", "build.gradle.kts", "*/build.gradle.kts");
    Set<String> moduleDirs = new TreeSet<>();
    for (String b : buildFiles) moduleDirs.add(parentOf(b));
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();

    // source roots from the package declarations (parse only)
    Map<String, String> rootOf = new HashMap<>();
    Map<String, String> pkgOfFile = new HashMap<>();
    {
      StandardJavaFileManager fm = javac.getStandardFileManager(null, null, StandardCharsets.UTF_8);
      List<File> fs = rels.stream().map(r -> root.resolve(r).toFile()).collect(Collectors.toList());
      JavacTask t = (JavacTask) javac.getTask(null, fm, d -> {}, List.of("-proc:none"), null, fm.getJavaFileObjectsFromFiles(fs));
      for (CompilationUnitTree cu : t.parse()) {
        String rel = rel(cu.getSourceFile().toUri());
        String pkg = cu.getPackageName() == null ? "" : cu.getPackageName().toString();
        pkgOfFile.put(rel, pkg);
        String dir = parentOf(rel);
        String pdir = pkg.replace('.', '/');
        String r = dir;
        if (pkg.isEmpty()) r = dir;
        else if (dir.equals(pdir)) r = ".";
        else if (dir.endsWith("/" + pdir)) r = dir.substring(0, dir.length() - pdir.length() - 1);
        rootOf.put(rel, r);
        filesOfPackage.computeIfAbsent(pkg, k -> new ArrayList<>()).add(rel);
        for (Tree td : cu.getTypeDecls()) {
          if (td instanceof ClassTree) {
            String n = ((ClassTree) td).getSimpleName().toString();
            filesOfType.computeIfAbsent(pkg.isEmpty() ? n : pkg + "." + n, k -> new ArrayList<>()).add(rel);
          }
        }
      }
    }
    // groups: one per build module
    Map<String, List<String>> groups = new TreeMap<>();
    for (String rel : rels) {
      String g = ".";
      for (String m : moduleDirs) if (!m.equals(".") && (rel.startsWith(m + "/")) && m.length() > g.length()) g = m;
      if (g.equals(".") && !moduleDirs.contains(".")) g = ".";
      groupOfFile.put(rel, g);
      groups.computeIfAbsent(g, k -> new ArrayList<>()).add(rel);
    }
    for (Map.Entry<String, List<String>> ge : groups.entrySet()) {
      String g = ge.getKey();
      List<String> own = ge.getValue().stream().filter(r -> !r.endsWith("module-info.java")).collect(Collectors.toList());
      if (own.isEmpty()) continue;
      LinkedHashSet<String> sp = new LinkedHashSet<>();
      for (String r : own) sp.add(root.resolve(rootOf.get(r)).toString());
      for (String r : rels) if (!r.endsWith("module-info.java")) sp.add(root.resolve(rootOf.get(r)).toString());
      StandardJavaFileManager fm = javac.getStandardFileManager(null, null, StandardCharsets.UTF_8);
      List<String> opts = new ArrayList<>(List.of("-proc:none", "-XDshould-stop.ifError=FLOW", "-XDshould-stop.at=FLOW", "-implicit:none",
          "-nowarn", "-Xlint:none", "-encoding", "UTF-8", "-sourcepath", String.join(File.pathSeparator, sp)));
      if (classPath != null && !classPath.isEmpty()) opts.addAll(List.of("-classpath", classPath));
      List<File> fs = own.stream().map(r -> root.resolve(r).toFile()).collect(Collectors.toList());
      JavacTask task = (JavacTask) javac.getTask(null, fm, d -> {
        if (d.getKind() == Diagnostic.Kind.ERROR) {
          errors++;
          if (System.getenv("GOLD_JAVA_DEBUG") != null) System.err.println(d);
        }
      }, opts, null, fm.getJavaFileObjectsFromFiles(fs));
      Iterable<? extends CompilationUnitTree> units = task.parse();
      task.analyze();
      Trees trees = Trees.instance(task);
      Elements elements = task.getElements();
      Types types = task.getTypes();
      for (CompilationUnitTree cu : units) new Scan(cu, trees, elements, types, g).scan(cu, null);
    }
    // resolve the collected references to definitions
    for (Map<String, Object> d : defs) defsByQualified.merge((String) d.get("qualified"), 1, Integer::sum);
    List<Map<String, Object>> edges = new ArrayList<>();
    Set<String> edgeSeen = new HashSet<>();
    Set<String> pairs = new HashSet<>();
    for (Object[] e : rawEdges) {
      Map<String, Object> d = defFor((String) e[1], (String) e[8]);
      Map<String, Object> site = (Map<String, Object>) e[9];
      if (d == null) {
        // a corpus element without a definition of its own (implicit accessor, values(), default ctor of an anonymous class)
        site.put("outcome", ((boolean) e[10]) ? "non_callable" : "external");
        count(((boolean) e[10]) ? "in_corpus_non_definition" : "external");
        continue;
      }
      site.put("outcome", "edge");
      count("edge_" + e[4]);
      String key = e[0] + "|" + d.get("qualified") + "|" + e[2] + "|" + e[3];
      if (!edgeSeen.add(key)) continue;
      pairs.add(e[0] + "|" + d.get("qualified"));
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("caller", e[0]); m.put("callee", d.get("qualified")); m.put("file", e[2]); m.put("line", e[3]);
      m.put("via", e[4]); m.put("caller_kind", e[5]); m.put("callee_kind", d.get("kind")); m.put("form", e[6]); m.put("receiver", e[7]);
      List<String> tags = new ArrayList<>((List<String>) e[11]);
      if (!d.get("file").equals(e[2])) tags.add("cross-file");
      if (defsByQualified.getOrDefault((String) d.get("qualified"), 0) > 1) tags.add("overloaded");
      m.put("tags", tags);
      edges.add(m);
    }
    List<Map<String, Object>> imports = new ArrayList<>();
    Set<String> impSeen = new HashSet<>();
    for (String[] im : rawImports) {
      List<String> tos;
      if (im[1].equals("package")) tos = filesOfPackage.getOrDefault(im[2], List.of());
      else {
        List<String> c = filesOfType.getOrDefault(im[2], List.of());
        List<String> same = c.stream().filter(f -> groupOfFile.get(f).equals(im[3])).collect(Collectors.toList());
        tos = same.isEmpty() ? (c.isEmpty() ? List.of() : List.of(c.get(0))) : List.of(same.get(0));
      }
      for (String to : tos) {
        if (to.equals(im[0]) || to.endsWith("module-info.java") || to.endsWith("package-info.java")) continue;
        if (!impSeen.add(im[0] + "|" + to)) continue;
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("from", im[0]); m.put("to", to);
        imports.add(m);
      }
    }
    List<Map<String, Object>> inherits = new ArrayList<>();
    Set<String> inhSeen = new HashSet<>();
    for (String[] ih : rawInherits) {
      Map<String, Object> b = defFor(ih[1], ih[3]);
      if (b == null || !inhSeen.add(ih[0] + "|" + b.get("qualified"))) continue;
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("child", ih[0]); m.put("base", b.get("qualified")); m.put("kind", ih[2]);
      inherits.add(m);
    }
    counts.put("compile_errors", errors);
    Map<String, Object> c = new LinkedHashMap<>();
    c.put("files", rels.size()); c.put("definitions", defs.size()); c.put("call_edges", edges.size());
    c.put("call_edge_pairs", pairs.size()); c.put("import_edges", imports.size()); c.put("inherits", inherits.size());
    c.put("call_sites", counts);
    Map<String, Object> meta = new LinkedHashMap<>();
    meta.put("format", "code-graph-gold/1"); meta.put("language", "java");
    meta.put("indexer", "javac " + System.getProperty("java.version")); meta.put("counts", c);
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("meta", meta); out.put("definitions", defs); out.put("call_edges", edges); out.put("import_edges", imports);
    out.put("inherits", inherits); out.put("unresolved_call_sites", unresolved); out.put("call_sites", sites);
    Writer w = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8));
    json(w, out);
    w.write("\n");
    w.flush();
  }

  /** The definition for a signature key, preferring one of the same build module. */
  static Map<String, Object> defFor(String sig, String group) {
    List<Map<String, Object>> l = defsBySig.get(sig);
    if (l == null || l.isEmpty()) return null;
    for (Map<String, Object> d : l) if (group.equals(groupOfFile.get((String) d.get("file")))) return d;
    return l.get(0);
  }

  static String parentOf(String rel) {
    int i = rel.lastIndexOf('/');
    return i < 0 ? "." : rel.substring(0, i);
  }

  static String rel(URI u) {
    return root.relativize(Paths.get(u).toAbsolutePath().normalize()).toString().replace(File.separatorChar, '/');
  }

  static List<String> git(String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of("git"));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).directory(root.toFile()).redirectErrorStream(false).start();
    byte[] out = p.getInputStream().readAllBytes();
    p.waitFor();
    return Arrays.stream(new String(out, StandardCharsets.UTF_8).split("\0")).filter(s -> !s.isEmpty()).sorted().collect(Collectors.toList());
  }

  /** Stable key of a type or executable across compilation tasks. */
  static String sigOf(Element e, Elements elements, Types types) {
    if (e instanceof TypeElement) return "T " + elements.getBinaryName((TypeElement) e);
    if (e instanceof ExecutableElement) {
      Element owner = e.getEnclosingElement();
      if (!(owner instanceof TypeElement)) return null;
      StringBuilder sb = new StringBuilder("M ").append(elements.getBinaryName((TypeElement) owner)).append('.').append(e.getSimpleName()).append('(');
      boolean first = true;
      for (VariableElement p : ((ExecutableElement) e).getParameters()) {
        if (!first) sb.append(',');
        first = false;
        TypeMirror t = p.asType();
        try {
          t = types.erasure(t);
        } catch (RuntimeException ex) {
          // erroneous type: keep as is
        }
        sb.append(t.toString());
      }
      return sb.append(')').toString();
    }
    return null;
  }

  static class Scan extends TreePathScanner<Void, Void> {
    final CompilationUnitTree cu;
    final Trees trees;
    final Elements elements;
    final Types types;
    final String rel, group, src;
    final SourcePositions sp;
    final Deque<Map<String, Object>> stack = new ArrayDeque<>();

    Scan(CompilationUnitTree cu, Trees trees, Elements elements, Types types, String group) throws IOException {
      this.cu = cu;
      this.trees = trees;
      this.elements = elements;
      this.types = types;
      this.group = group;
      this.rel = rel(cu.getSourceFile().toUri());
      this.src = cu.getSourceFile().getCharContent(true).toString();
      this.sp = trees.getSourcePositions();
    }

    int line(long pos) { return (int) cu.getLineMap().getLineNumber(pos); }

    String qualOf(String name) {
      Map<String, Object> top = stack.peek();
      return top == null ? rel + "#" + name : top.get("qualified") + "." + name;
    }

    Map<String, Object> addDef(String name, String kind, long namePos, Tree t, Element e) {
      Map<String, Object> d = new LinkedHashMap<>();
      d.put("file", rel); d.put("name", name); d.put("qualified", qualOf(name)); d.put("kind", kind);
      d.put("start_line", line(namePos));
      d.put("end_line", line(Math.max(namePos, sp.getEndPosition(cu, t) - 1)));
      long first = sp.getStartPosition(cu, t);
      if (first >= 0 && line(first) < line(namePos)) d.put("first_line", line(first));
      defs.add(d);
      String sig = e == null ? null : sigOf(e, elements, types);
      if (sig != null) defsBySig.computeIfAbsent(sig, k -> new ArrayList<>()).add(d);
      return d;
    }

    /** Position of the first whole-word `name` at or after `from`. */
    long nameAfter(long from, String name) {
      int i = (int) Math.max(0, from);
      while ((i = src.indexOf(name, i)) >= 0) {
        boolean l = i == 0 || !Character.isJavaIdentifierPart(src.charAt(i - 1));
        boolean r = i + name.length() >= src.length() || !Character.isJavaIdentifierPart(src.charAt(i + name.length()));
        if (l && r) return i;
        i++;
      }
      return from;
    }

    @Override
    public Void visitImport(ImportTree t, Void v) {
      Tree q = t.getQualifiedIdentifier();
      if (q instanceof MemberSelectTree) {
        MemberSelectTree ms = (MemberSelectTree) q;
        boolean star = ms.getIdentifier().contentEquals("*");
        if (t.isStatic()) {
          // import static a.B.m / a.B.*: B
          rawImports.add(new String[] {rel, "type", topLevel(ms.getExpression().toString()), group});
        } else if (star) {
          String name = ms.getExpression().toString();
          if (filesOfPackage.containsKey(name)) rawImports.add(new String[] {rel, "package", name, group});
          else rawImports.add(new String[] {rel, "type", topLevel(name), group}); // import a.B.* (B's nested types)
        } else rawImports.add(new String[] {rel, "type", topLevel(ms.toString()), group});
      }
      return null;
    }

    /** The longest prefix of a dotted name that is a corpus top-level type. */
    String topLevel(String dotted) {
      String s = dotted;
      while (true) {
        if (filesOfType.containsKey(s)) return s;
        int i = s.lastIndexOf('.');
        if (i < 0) return dotted;
        s = s.substring(0, i);
      }
    }

    @Override
    public Void visitClass(ClassTree t, Void v) {
      Element e = trees.getElement(getCurrentPath());
      String name = t.getSimpleName().toString();
      if (name.isEmpty()) return super.visitClass(t, v); // anonymous: transparent
      String kind;
      switch (t.getKind()) {
        case INTERFACE: kind = "interface"; break;
        case ENUM: kind = "enum"; break;
        case ANNOTATION_TYPE: kind = "annotation"; break;
        default: kind = t.getKind().name().equals("RECORD") ? "record" : "class";
      }
      long kw = ((JCTree) t).pos;
      Map<String, Object> d = addDef(name, kind, nameAfter(kw, name), t, e);
      boolean iface = kind.equals("interface") || kind.equals("annotation");
      if (t.getExtendsClause() != null) inherit(d, t.getExtendsClause(), "extends");
      for (Tree i : t.getImplementsClause()) inherit(d, i, iface ? "extends" : "implements");
      stack.push(d);
      try {
        return super.visitClass(t, v);
      } finally {
        stack.pop();
      }
    }

    void inherit(Map<String, Object> child, Tree base, String kind) {
      Element b = trees.getElement(new TreePath(getCurrentPath(), base));
      if (b instanceof TypeElement) rawInherits.add(new String[] {(String) child.get("qualified"), sigOf(b, elements, types), kind, group});
    }

    @Override
    public Void visitMethod(MethodTree t, Void v) {
      if (sp.getEndPosition(cu, t) < 0) return null; // generated (default constructor, record members)
      Element e = trees.getElement(getCurrentPath());
      boolean ctor = t.getName().contentEquals("<init>");
      Map<String, Object> top = stack.peek();
      String name = ctor ? enclosingClassName() : t.getName().toString();
      Map<String, Object> d = addDef(name, ctor ? "constructor" : "method", ((JCTree) t).pos, t, e);
      stack.push(d);
      try {
        return super.visitMethod(t, v);
      } finally {
        stack.pop();
      }
    }

    String enclosingClassName() {
      for (TreePath p = getCurrentPath().getParentPath(); p != null; p = p.getParentPath())
        if (p.getLeaf() instanceof ClassTree) return ((ClassTree) p.getLeaf()).getSimpleName().toString();
      return "?";
    }

    @Override
    public Void visitMemberReference(MemberReferenceTree t, Void v) {
      return super.visitMemberReference(t, v); // not a call
    }

    Map<String, Object> site(String name, int line, String form, String receiver) {
      count("call_sites");
      Map<String, Object> s = new LinkedHashMap<>();
      s.put("file", rel); s.put("line", line); s.put("name", name); s.put("form", form); s.put("receiver", receiver); s.put("outcome", "");
      sites.add(s);
      return s;
    }

    void unresolvable(Map<String, Object> s, String reason) {
      s.put("outcome", reason.equals("callee_not_a_name") ? "no_token" : "no_symbol");
      count(reason);
      Map<String, Object> u = new LinkedHashMap<>();
      u.put("file", rel); u.put("line", s.get("line")); u.put("name", s.get("name")); u.put("form", s.get("form")); u.put("reason", reason);
      unresolved.add(u);
    }

    void edge(Map<String, Object> s, Element target, String via, String form, String receiver) {
      String sig = sigOf(target, elements, types);
      Map<String, Object> top = stack.peek();
      String caller = top == null ? rel : (String) top.get("qualified");
      String callerKind = top == null ? "module" : (String) top.get("kind");
      boolean corpus = inCorpus(target);
      if (sig == null) {
        s.put("outcome", corpus ? "non_callable" : "external");
        return;
      }
      rawEdges.add(new Object[] {caller, sig, rel, s.get("line"), via, callerKind, form, receiver, group, s, corpus, tags(target, receiver)});
    }

    /** What makes this call hard for a resolver (for recall by tag; not scored on its own). */
    List<String> tags(Element target, String receiver) {
      List<String> tags = new ArrayList<>();
      TypeElement owner = target instanceof TypeElement ? (TypeElement) target : (TypeElement) target.getEnclosingElement();
      if (owner.getNestingKind() != NestingKind.TOP_LEVEL) tags.add("nested-type");
      if (owner.getKind() == ElementKind.INTERFACE) tags.add("interface");
      if (target instanceof ExecutableElement) {
        TypeElement here = null;
        for (TreePath p = getCurrentPath(); p != null; p = p.getParentPath())
          if (p.getLeaf() instanceof ClassTree) {
            Element ce = trees.getElement(p);
            if (ce instanceof TypeElement) { here = (TypeElement) ce; break; }
          }
        boolean enclosing = false, sub = false;
        for (Element o = here; o != null; o = o.getEnclosingElement()) {
          if (o.equals(owner)) { enclosing = o != here; break; }
        }
        if (here != null && !here.equals(owner) && !enclosing) sub = types.isSubtype(types.erasure(here.asType()), types.erasure(owner.asType()));
        if (receiver.equals("none")) {
          if (enclosing && !sub) tags.add("outer-class-member");
          else if (sub) tags.add("inherited");
          else if (here != null && !here.equals(owner)) tags.add("static-import");
        }
        if (receiver.equals("super")) tags.add("super-member");
        if (target.getModifiers().contains(Modifier.STATIC)) tags.add("static");
      }
      return tags;
    }

    boolean inCorpus(Element e) {
      Element o = e;
      while (o != null && !(o instanceof TypeElement && o.getEnclosingElement() instanceof PackageElement)) o = o.getEnclosingElement();
      return o != null && filesOfType.containsKey(((TypeElement) o).getQualifiedName().toString());
    }

    int endLine(Tree t) {
      long end = sp.getEndPosition(cu, t);
      return end > 0 ? line(end - 1) : line(sp.getStartPosition(cu, t));
    }

    String receiverOf(ExpressionTree x) {
      TreePath p = new TreePath(getCurrentPath(), x);
      switch (x.getKind()) {
        case IDENTIFIER: {
          String n = ((IdentifierTree) x).getName().toString();
          if (n.equals("this")) return "this";
          if (n.equals("super")) return "super";
          Element e = trees.getElement(p);
          if (e instanceof TypeElement) return "type";
          return "name";
        }
        case MEMBER_SELECT: {
          MemberSelectTree ms = (MemberSelectTree) x;
          if (ms.getIdentifier().contentEquals("this")) return "this"; // Outer.this.m()
          if (ms.getIdentifier().contentEquals("super")) return "super";
          Element e = trees.getElement(p);
          if (e instanceof TypeElement || e instanceof PackageElement) return "type";
          ExpressionTree in = ms.getExpression();
          if (in instanceof IdentifierTree && ((IdentifierTree) in).getName().contentEquals("this")) return "this-attr";
          return "chain";
        }
        case METHOD_INVOCATION: return "call-result";
        case NEW_CLASS: return "new-result";
        case ARRAY_ACCESS: return "subscript";
        case PARENTHESIZED: case TYPE_CAST: return "other";
        default: return x instanceof LiteralTree ? "literal" : "other";
      }
    }

    @Override
    public Void visitMethodInvocation(MethodInvocationTree t, Void v) {
      if (sp.getEndPosition(cu, t) < 0) return super.visitMethodInvocation(t, v); // javac's implicit super()
      ExpressionTree sel = t.getMethodSelect();
      TreePath selPath = new TreePath(getCurrentPath(), sel);
      String name, receiver, form = "call";
      int ln;
      if (sel instanceof IdentifierTree) {
        name = ((IdentifierTree) sel).getName().toString();
        receiver = "none";
        ln = line(sp.getStartPosition(cu, sel));
        if (name.equals("this") || name.equals("super")) form = name;
      } else if (sel instanceof MemberSelectTree) {
        name = ((MemberSelectTree) sel).getIdentifier().toString();
        receiver = receiverOf(((MemberSelectTree) sel).getExpression());
        ln = endLine(sel);
        if (name.equals("super")) form = "super"; // outer.super(...)
      } else {
        Map<String, Object> s = site(null, line(sp.getStartPosition(cu, t)), "call", "computed");
        unresolvable(s, "callee_not_a_name");
        return super.visitMethodInvocation(t, v);
      }
      Map<String, Object> s = site(name, ln, form, receiver);
      Element e = trees.getElement(selPath);
      if (!(e instanceof ExecutableElement) || isErroneous(e)) unresolvable(s, "no_symbol");
      else if (form.equals("call")) edge(s, e, "call", form, receiver);
      else edge(s, e.getEnclosingElement(), form, form, receiver);
      return super.visitMethodInvocation(t, v);
    }

    boolean isErroneous(Element e) {
      TypeMirror m = e.asType();
      return m == null || m.getKind() == TypeKind.ERROR;
    }

    @Override
    public Void visitNewClass(NewClassTree t, Void v) {
      // enum constants `A(1)` / `A { .. }`: javac's implicit `new`, not a call in the source
      Tree parent = getCurrentPath().getParentPath().getLeaf();
      if (parent instanceof VariableTree) {
        Element pv = trees.getElement(getCurrentPath().getParentPath());
        if (pv != null && pv.getKind() == ElementKind.ENUM_CONSTANT) return super.visitNewClass(t, v);
      }
      ExpressionTree id = t.getIdentifier();
      Tree nameTree = id instanceof ParameterizedTypeTree ? ((ParameterizedTypeTree) id).getType() : id;
      if (nameTree instanceof AnnotatedTypeTree) nameTree = ((AnnotatedTypeTree) nameTree).getUnderlyingType();
      String name = nameTree instanceof MemberSelectTree ? ((MemberSelectTree) nameTree).getIdentifier().toString()
          : nameTree instanceof IdentifierTree ? ((IdentifierTree) nameTree).getName().toString() : null;
      Map<String, Object> s = site(name, endLine(nameTree), "new", t.getEnclosingExpression() != null ? "outer" : "none");
      Element type = trees.getElement(new TreePath(new TreePath(getCurrentPath(), id), nameTree));
      if (type == null) type = trees.getElement(new TreePath(getCurrentPath(), id));
      if (!(type instanceof TypeElement) || isErroneous(type)) {
        unresolvable(s, "no_symbol");
      } else if (type.getKind() == ElementKind.INTERFACE || type.getKind() == ElementKind.ANNOTATION_TYPE) {
        s.put("outcome", inCorpus(type) ? "non_callable" : "external"); // anonymous implementation of an interface
        count(inCorpus(type) ? "anonymous_interface" : "external");
      } else edge(s, type, "constructor", "new", (String) s.get("receiver"));
      return super.visitNewClass(t, v);
    }
  }

  // ---- minimal JSON writer
  static void json(Writer w, Object o) throws IOException {
    if (o == null) w.write("null");
    else if (o instanceof String) {
      String s = (String) o;
      w.write('"');
      for (int i = 0; i < s.length(); i++) {
        char c = s.charAt(i);
        if (c == '"' || c == '\\') { w.write('\\'); w.write(c); }
        else if (c < 0x20) w.write(String.format("\\u%04x", (int) c));
        else w.write(c);
      }
      w.write('"');
    } else if (o instanceof Number || o instanceof Boolean) w.write(o.toString());
    else if (o instanceof Map) {
      w.write('{');
      boolean first = true;
      for (Map.Entry<?, ?> e : ((Map<?, ?>) o).entrySet()) {
        if (!first) w.write(',');
        first = false;
        json(w, e.getKey().toString());
        w.write(':');
        json(w, e.getValue());
      }
      w.write('}');
    } else if (o instanceof Collection) {
      w.write('[');
      boolean first = true;
      for (Object x : (Collection<?>) o) {
        if (!first) w.write(',');
        first = false;
        json(w, x);
      }
      w.write(']');
    } else json(w, o.toString());
  }
}
