# gold-ruby: a code graph (`code-graph-gold/1`) of a Ruby corpus, from Ruby itself.
#
#     ruby gold_ruby.rb <corpus-dir> <config-json> > gold.json
#
# Ruby has no static type checker in Debian, so this gold is what Ruby's own parser says plus what
# a real run of the corpus's own test suite observed. Needs Debian's `ruby` (3.1; Ripper, Coverage
# and TracePoint are built in) and the test framework the corpus uses (`ruby-test-unit`,
# `ruby-minitest` or `ruby-rspec`); nothing comes from rubygems.org or bundler.
#
# config-json: {"load_path": [dirs relative to the corpus put first on $LOAD_PATH, e.g. "lib"],
#               "tests": [globs of the test files to run, relative to the corpus],
#               "framework": "test-unit" | "minitest" | "rspec",
#               "exclude_tests": [test files to leave out, e.g. ones needing a missing library],
#               "prelude": [files (relative to this folder) loaded before the tests: stand-ins for
#                           development-only gems Debian lacks, such as a coverage reporter]}
#
# Rules (see ../README.md, "Ruby"):
#
#   definitions  from Ripper (Ruby's parser), every file of the corpus (`git ls-files`, .rb .rake
#                .gemspec .ru): `class` (kind class), `def` (method; `function` when directly at
#                the top of the file), `def self.x` / `def obj.x` (method x), `def` inside
#                `class << self` (method of the class around it). Not: modules (a namespace, as C++
#                namespaces and Rust inline modules in the other golds), constants, attr_*, methods
#                made by define_method or method_missing. Qualified
#                `<relpath>#<Outer>.<Inner>.<name>` over the lexical nesting of classes, modules and
#                defs (`class A::B` nests as A.B); start_line is the name token's line, end_line the
#                line of `end`.
#   call edges   observed, not inferred: a TracePoint on :call (a Ruby method starts) and :c_call of
#                `new` while the test suite runs in this process. Callee: the corpus definition at
#                the method's own location (tp.path, tp.lineno); for `K.new`, the corpus class K
#                (`constructor`), its definition found where Ruby says K was first defined
#                (Object.const_source_location), or, for a class reopened in several files, the
#                one in the file Ruby's naming convention gives it (`Thor::Base` in thor/base.rb). Call site: the caller's frame (file, line of the
#                method name), in a corpus file. Caller: the innermost definition (class, module
#                or method; blocks transparent) whose span holds the site, else the relpath. `super`
#                is an edge to the method it reached. An observed call counts only where it is
#                written as a call of that name on that line (Ripper's call sites: `f`, `x.f`,
#                `K.new`), so operators (`a << b`, `x[i]`, `a == b`), setters (`x.y = 1`),
#                `send(:f)` and Ruby's implicit calls (to_s in interpolation, each in a for loop) are
#                no edge. Calls into methods without a corpus `def`
#                (attr_reader, define_method, the standard library, gems) are no edge.
#   call sites   every call Ripper sees (`f`, `f(..)`, `x.f`, `x.f ..`, `super`), by (file, line of
#                the name). A site on a line that never ran (Ruby's Coverage, lines mode, plus the
#                lines of observed call sites) is listed in `unresolved_call_sites`: an edge there is
#                neither right nor wrong. A site that ran is scored: an edge codeslice reports there
#                that the run never took is a false positive. So precision_adjusted is precision over
#                executed sites, and recall is over the edges the run observed.
#   import edges `require` / `require_relative` / `load` with one literal string, as Ruby resolves
#                it: require_relative beside the file, require through $LOAD_PATH
#                ($LOAD_PATH.resolve_feature_path, after the suite has set it up), to a corpus file.
#   inherits     `class A < B` (extends) and `include` / `prepend` / `extend` of a constant in a
#                class or module body (implements), resolved by the runtime: the constant is looked
#                up through the lexical nesting of the loaded class (as Ruby does), and the module or
#                class it names is mapped to its definition by Object.const_source_location.
#
# Limits: only what the suite runs in this process is observed (tests that spawn `ruby` are not
# traced); a call site on a line that ran but whose own call did not (`a || f()`) still counts as
# executed; a class reopened in several files is one Ruby class, named by its first definition.
require "json"
require "ripper"
require "coverage"
require "pathname"
require "set"

ROOT = File.realpath(ARGV[0])
CFG = JSON.parse(ARGV[1] || "{}")
EXTS = %w[.rb .rake .gemspec .ru].freeze

# ---- Ripper: definitions with spans, call sites, requires, mixins --------------------------------

# A sexp builder that records the line of `end` for definitions.
class SpanBuilder < Ripper::SexpBuilderPP
  %i[def defs class module sclass].each do |ev|
    define_method(:"on_#{ev}") { |*args| super(*args).push([:@end, lineno]) }
  end
  # `super` has no token of its own in the tree: keep the line of the keyword
  %i[super zsuper].each do |ev|
    define_method(:"on_#{ev}") { |*args| super(*args).push([:@line, lineno]) }
  end
end

Def = Struct.new(:file, :name, :qualified, :kind, :start_line, :end_line, :parent, :nesting, keyword_init: true)

class FileFacts
  attr_reader :defs, :sites, :requires, :mixins, :scopes

  def initialize(rel, src)
    @rel = rel
    @defs = []     # Def (classes, methods) and module scopes (kind "module", not emitted)
    @sites = []    # [line, name]
    @requires = [] # [kind, string]
    @mixins = []   # [scope Def, kind, const path string, line]
    @sclass = false # directly in a `class << self` body: a `def` there is a class method
    sexp = SpanBuilder.new(src, rel).parse
    walk(sexp, nil, [], false) if sexp
  end

  private

  def const_path(node)
    return nil unless node.is_a?(Array)
    case node[0]
    when :@const then [node[1]]
    when :const_ref, :var_ref, :top_const_ref, :top_const_field then const_path(node[1])
    when :const_path_ref, :const_path_field
      a = const_path(node[1])
      b = const_path(node[2])
      a && b ? a + b : nil
    end
  end

  def first_line(node)
    return nil unless node.is_a?(Array)
    return node[2][0] if node[0].is_a?(Symbol) && node[0].to_s.start_with?("@") && node[2].is_a?(Array)
    node.filter_map { |n| first_line(n) }.min
  end

  def tok_line(tok) = tok.is_a?(Array) && tok[2].is_a?(Array) ? tok[2][0] : nil

  def site(tok)
    return unless tok.is_a?(Array) && %i[@ident @const @kw @op @backtick].include?(tok[0]) && tok[2].is_a?(Array)
    @sites << [tok[2][0], tok[1]]
  end

  # A class method (`def self.x`, `def obj.x`, a `def` in `class << self`) is joined to its class with `::`, as `ri`
  # writes it and codeslice names it (`Foo::x`, beside the instance method `Foo.x`).
  def add_def(name, kind, line, end_line, parent, nesting, static: false)
    qual = nesting.empty? || !static ? (nesting + [name]).join(".") : "#{nesting.join(".")}::#{name}"
    d = Def.new(file: @rel, name: name, qualified: "#{@rel}##{qual}", kind: kind, start_line: line, end_line: end_line, parent: parent, nesting: nesting + [name])
    @defs << d
    d
  end

  def string_literal(args)
    args = args[1] if args.is_a?(Array) && args[0] == :args_add_block
    args = args[1] if args.is_a?(Array) && args[0] == :arg_paren
    args = args[1] if args.is_a?(Array) && args[0] == :args_add_block
    return nil unless args.is_a?(Array) && args.size == 1
    s = args[0]
    return nil unless s.is_a?(Array) && s[0] == :string_literal && s[1].is_a?(Array) && s[1][0] == :string_content
    parts = s[1][1..]
    parts.size == 1 && parts[0][0] == :@tstring_content ? parts[0][1] : nil
  end

  def first_const_arg(args)
    args = args[1] if args.is_a?(Array) && args[0] == :arg_paren
    args = args[1] if args.is_a?(Array) && args[0] == :args_add_block
    return [] unless args.is_a?(Array)
    args.filter_map { |a| const_path(a)&.join("::") }
  end

  # scope: the Def around (nil at top level); nesting: names for qualification; top: directly at file level
  def walk(node, scope, nesting, in_block, top: true)
    return unless node.is_a?(Array)
    return node.each { |n| walk(n, scope, nesting, in_block, top: top) } unless node[0].is_a?(Symbol)
    case node[0]
    when :class, :module
      path = const_path(node[1]) || ["?"]
      name_tok = node[1][0] == :const_path_ref ? node[1][2] : node[1][1]
      line = tok_line(name_tok) || tok_line(node[1][1])
      end_line = node.last[1]
      kind = node[0] == :class ? "class" : "module"
      d = add_def(path.last, kind, line, end_line, scope, nesting + path[0...-1])
      d.nesting = nesting + path
      if node[0] == :class && node[2]
        sup = const_path(node[2])
        @mixins << [d, "extends", sup.join("::"), line] if sup
        walk(node[2], scope, nesting, in_block, top: false)
      end
      outer, @sclass = @sclass, false
      walk(node[0] == :class ? node[3] : node[2], d, d.nesting, false, top: false)
      @sclass = outer
    when :sclass
      walk(node[1], scope, nesting, in_block, top: false)
      outer, @sclass = @sclass, !in_block
      walk(node[2], scope, nesting, in_block, top: false)
      @sclass = outer
    when :def
      name = node[1][1]
      kind = top && !in_block && scope.nil? ? "function" : "method"
      d = add_def(name, kind, tok_line(node[1]), node.last[1], scope, nesting, static: @sclass && !in_block)
      outer, @sclass = @sclass, false
      walk(node[2..-2], d, d.nesting, false, top: false)
      @sclass = outer
    when :defs
      name = node[3][1]
      walk(node[1], scope, nesting, in_block, top: false)
      d = add_def(name, "method", tok_line(node[3]), node.last[1], scope, nesting, static: true)
      outer, @sclass = @sclass, false
      walk(node[4..-2], d, d.nesting, false, top: false)
      @sclass = outer
    when :brace_block, :do_block, :lambda
      node[1..].each { |n| walk(n, scope, nesting, true, top: false) }
    when :fcall, :vcall
      site(node[1])
    when :call
      site(node[3]) unless node[3] == :call # `x.()` has no name
      walk(node[1], scope, nesting, in_block, top: false)
    when :command, :command_call
      name_tok = node[0] == :command ? node[1] : node[3]
      site(name_tok)
      if node[0] == :command && name_tok[0] == :@ident
        if %w[require require_relative load].include?(name_tok[1])
          s = string_literal(node[2])
          @requires << [name_tok[1], s, tok_line(name_tok)] if s
        elsif %w[include prepend extend].include?(name_tok[1]) && scope && %w[class module].include?(scope.kind) && !in_block
          first_const_arg(node[2]).each { |c| @mixins << [scope, name_tok[1], c, tok_line(name_tok)] }
        end
      end
      node[1..].each { |n| walk(n, scope, nesting, in_block, top: false) }
    when :method_add_arg
      if node[1].is_a?(Array) && node[1][0] == :fcall && node[1][1][0] == :@ident && %w[require require_relative load].include?(node[1][1][1])
        s = string_literal(node[2])
        @requires << [node[1][1][1], s, tok_line(node[1][1])] if s
      end
      node[1..].each { |n| walk(n, scope, nesting, in_block, top: false) }
    when :super, :zsuper
      first = first_line(node[1...-1])
      @sites << [first && first < node.last[1] ? first : node.last[1], "super"]
      node[1...-1].each { |n| walk(n, scope, nesting, in_block, top: false) }
    else
      node[1..].each { |n| walk(n, scope, nesting, in_block, top: false) }
    end
  end
end

files = Dir.chdir(ROOT) { IO.popen(%w[git ls-files -z], &:read).split("\0") }.select { |f| EXTS.include?(File.extname(f)) && File.file?(File.join(ROOT, f)) }
FACTS = {}
parse_errors = []
files.each do |rel|
  src = File.read(File.join(ROOT, rel), encoding: "UTF-8")
  FACTS[rel] = FileFacts.new(rel, src)
rescue StandardError => e
  parse_errors << "#{rel}: #{e.class}"
end

SITE_NAMES = {} # [file, line] => names called there (Ripper)
FACTS.each { |rel, f| f.sites.each { |line, name| (SITE_NAMES[[rel, line]] ||= Set.new) << name } }

CLASS_BY_PATH = Hash.new { |h, k| h[k] = [] } # constant path => its class/module definitions
FACTS.each_value { |f| f.defs.each { |d| CLASS_BY_PATH[d.nesting] << d if %w[class module].include?(d.kind) } }

DEF_AT = {} # [file, line] => Def (methods and classes; the first by line)
FACTS.each_value { |f| f.defs.each { |d| DEF_AT[[d.file, d.start_line]] ||= d } }

def rel_of(path)
  return nil unless path
  abs = File.expand_path(path, ROOT)
  abs = File.realpath(abs) if File.exist?(abs)
  abs.start_with?("#{ROOT}/") ? abs[(ROOT.size + 1)..] : nil
rescue SystemCallError # a file a test made and removed again
  nil
end

REL_MEMO = Hash.new { |h, k| h[k] = rel_of(k) }

# The innermost definition holding a line of a file (nil: file level).
def enclosing(rel, line)
  best = nil
  FACTS[rel]&.defs&.each do |d|
    next unless d.start_line <= line && line <= d.end_line
    best = d if best.nil? || d.start_line >= best.start_line
  end
  best
end

# ---- the run ------------------------------------------------------------------------------------

edges = {}
observed_lines = Hash.new { |h, k| h[k] = Set.new }
counts = Hash.new(0)

record = lambda do |loc, callee, via|
  rel = REL_MEMO[loc.absolute_path || loc.path]
  return unless rel && FACTS[rel]
  line = loc.lineno
  observed_lines[rel] << line
  caller_def = enclosing(rel, line)
  caller = caller_def ? caller_def.qualified : rel
  key = [caller, callee.qualified, rel, line]
  edges[key] ||= { "caller" => caller, "callee" => callee.qualified, "file" => rel, "line" => line, "via" => via,
                   "caller_kind" => caller_def ? caller_def.kind : "module" }
end

CLASS_DEF = {}
class_def = lambda do |klass|
  return CLASS_DEF[klass] if CLASS_DEF.key?(klass)
  name = begin
    Module.instance_method(:name).bind_call(klass)
  rescue StandardError
    nil
  end
  loc = name && (Object.const_source_location(name) rescue nil)
  rel = loc && !loc.empty? ? REL_MEMO[loc[0]] : nil
  d = rel && DEF_AT[[rel, loc[1]]]
  # reopened in several files: named by the file Ruby's naming convention gives it (thor/base.rb)
  if d && name
    home = "#{name.split("::").map { |c| c.gsub(/([a-z\d])([A-Z])/, '\1_\2').gsub(/([A-Z]+)([A-Z][a-z])/, '\1_\2').downcase }.join("/")}.rb"
    alt = CLASS_BY_PATH[name.split("::")]&.find { |x| x.file == home || x.file.end_with?("/#{home}") }
    d = alt if alt
  end
  CLASS_DEF[klass] = d && %w[class module].include?(d.kind) ? d : nil
end

tp = TracePoint.new(:call, :c_call) do |t|
  if t.event == :c_call
    next unless t.method_id == :new
    klass = t.self
    next unless klass.is_a?(Class)
    d = class_def.call(klass)
    next unless d && d.kind == "class"
    loc = caller_locations(1, 1)&.first
    site_rel = loc && REL_MEMO[loc.absolute_path || loc.path]
    next unless site_rel && SITE_NAMES[[site_rel, loc.lineno]]&.include?("new")
    record.call(loc, d, "constructor") if loc
  else
    rel = REL_MEMO[t.path]
    next unless rel
    d = DEF_AT[[rel, t.lineno]]
    next unless d && d.kind != "class" && d.kind != "module" && d.name == t.method_id.to_s
    loc = caller_locations(2, 1)&.first
    next unless loc
    # `K.new` runs initialize from the C frame of `new`: that site's edge is the constructor one
    next if t.method_id == :initialize && loc.label == "new"
    # `super` is called from the method of the same name; any other call must be written as a
    # call of that name on that line (not an operator, `send(:x)`, a setter or an implicit call)
    site_rel = REL_MEMO[loc.absolute_path || loc.path]
    names = site_rel && SITE_NAMES[[site_rel, loc.lineno]]
    next unless names
    via_super = !names.include?(d.name) && names.include?("super") && loc.label.sub(/^block (\(\d+ levels\) )?in /, "") == d.name
    next unless via_super || names.include?(d.name)
    record.call(loc, d, via_super ? "super" : "call")
  end
rescue StandardError
  counts["hook_errors"] += 1
end

load_path = (CFG["load_path"] || ["lib"]).map { |d| File.join(ROOT, d) }
$LOAD_PATH.unshift(*load_path)
tests = (CFG["tests"] || []).flat_map { |g| Dir.glob(g, base: ROOT) }.sort - (CFG["exclude_tests"] || [])
framework = CFG["framework"] || "minitest"

out = $stdout.dup
$stdout.reopen(File::NULL) # the suite's own output must not mix with the JSON
test_result = nil

dump = lambda do
  tp.disable
  cov = Coverage.result
  executed = Hash.new { |h, k| h[k] = Set.new }
  cov.each do |path, c|
    rel = REL_MEMO[path]
    next unless rel && FACTS[rel]
    (c.is_a?(Hash) ? c[:lines] : c).each_with_index { |n, i| executed[rel] << i + 1 if n && n > 0 }
  end
  observed_lines.each { |rel, ls| executed[rel].merge(ls) }
  unresolved = []
  sites = 0
  FACTS.each do |rel, f|
    f.sites.uniq.each do |line, name|
      sites += 1
      unresolved << { "file" => rel, "line" => line, "name" => name, "reason" => "not executed" } unless executed[rel].include?(line)
    end
  end
  # requires, resolved as Ruby would now that the suite has set up $LOAD_PATH
  imports = Set.new
  FACTS.each do |rel, f|
    f.requires.each do |kind, s, _line|
      target = case kind
               when "require_relative" then [File.expand_path(s, File.dirname(File.join(ROOT, rel)))].flat_map { |p| [p, "#{p}.rb"] }.find { |p| File.file?(p) }
               when "load" then [File.join(ROOT, s), s].find { |p| File.file?(p) }
               else
                 r = ($LOAD_PATH.resolve_feature_path(s) rescue nil)
                 r && r[0] == :rb ? r[1] : nil
               end
      to = target && REL_MEMO[target]
      imports << [rel, to] if to && FACTS[to] && to != rel
    end
  end
  # inherits: each superclass / mixin constant looked up through the lexical nesting, by the runtime
  inherits = Set.new
  FACTS.each_value do |f|
    f.mixins.each do |scope, kind, const, _line|
      nest = scope.nesting
      target = nil
      (nest.size).downto(0) do |n|
        host = begin
          n.zero? ? Object : Object.const_get(nest[0...n].join("::"))
        rescue StandardError, LoadError
          nil
        end
        next unless host.is_a?(Module)
        target = (host.const_get(const) rescue nil)
        break if target
      end
      next unless target.is_a?(Module)
      base = class_def.call(target)
      next unless base
      inherits << [scope.qualified, base.qualified, kind == "extends" ? "extends" : "implements"] unless base.qualified == scope.qualified
    end
  end
  defs = FACTS.values.flat_map(&:defs).reject { |d| d.kind == "module" }
              .map { |d| { "file" => d.file, "name" => d.name, "qualified" => d.qualified, "kind" => d.kind, "start_line" => d.start_line, "end_line" => d.end_line } }
  call_edges = edges.values.sort_by { |e| [e["file"], e["line"], e["callee"]] }
  pairs = call_edges.map { |e| [e["caller"], e["callee"]] }.uniq
  out.write(JSON.generate({
    "meta" => {
      "format" => "code-graph-gold/1", "language" => "ruby",
      "indexer" => "ruby #{RUBY_VERSION} (Ripper, TracePoint over the #{framework} suite, Coverage)",
      "framework" => framework, "tests_run" => tests, "test_result" => test_result, "parse_errors" => parse_errors,
      "files" => FACTS.keys.sort,
      "counts" => { "files" => FACTS.size, "definitions" => defs.size, "call_edges" => call_edges.size, "call_edge_pairs" => pairs.size,
                    "import_edges" => imports.size, "inherits" => inherits.size, "call_sites" => sites,
                    "call_sites_not_executed" => unresolved.size, "hook_errors" => counts["hook_errors"] },
    },
    "definitions" => defs,
    "call_edges" => call_edges,
    "import_edges" => imports.sort.map { |a, b| { "from" => a, "to" => b } },
    "inherits" => inherits.sort.map { |a, b, k| { "child" => a, "base" => b, "kind" => k } },
    "unresolved_call_sites" => unresolved,
  }))
  out.flush
end

Coverage.start(lines: true)
Dir.chdir(ROOT)
(CFG["prelude"] || []).each { |p| load File.join(__dir__, p) }
at_exit { dump.call } unless framework == "rspec"
tp.enable
case framework
when "rspec"
  require "rspec/core"
  test_result = RSpec::Core::Runner.run(tests.map { |t| File.join(ROOT, t) } + %w[--format progress --no-color], $stderr, $stderr)
  dump.call
  exit!(0)
when "minitest"
  require "minitest/autorun"
  tests.each { |t| require File.join(ROOT, t) }
else
  require "test/unit"
  tests.each { |t| require File.join(ROOT, t) }
end
