<?php
// gold-php: compiler-grade code graph (`code-graph-gold/1`) of a PHP corpus, from the PHP
// compiler's own AST (the php-ast extension, AST version 90, Debian `php-ast` on PHP 8.2) and the
// PHP tokenizer (`PhpToken::tokenize`, for the line of each name token).
//
//   php gold-php.php <corpus-dir> > gold.json
//
// Nothing is executed or autoloaded: PHP resolves every class, function and constant name at
// compile time from the file's namespace and `use` statements, and that is done here with the
// language's rules over the whole corpus. The files are the committed `.php` files (`git ls-files`);
// a file PHP 8.2 cannot parse is listed in `meta.unparsed` and left out of `meta.files`, so the
// score ignores it on both sides.
//
// Rules (see ../README.md, "PHP"):
//   definitions  classes, interfaces, traits, enums (`class`/`interface`/`trait`/`enum`), named
//                functions at any depth (`function`), methods (`method`; `__construct` is
//                `constructor`), incl. abstract and interface methods. Not: closures, arrow
//                functions, anonymous classes (transparent: their methods are named under the
//                enclosing definition), enum cases, properties; constants (class `const`, namespace
//                `const`, `define('X', …)`) are listed apart in `constants`, unscored, as the
//                Go/Java/Rust golds score no constants either. Qualified
//                `<relpath>#<namespace>.<Outer>.<name>`, the namespace as written, with its
//                backslashes (`src/Dispatcher/MarkBased.php#FastRoute\Dispatcher.MarkBased.dispatch`);
//                outside a namespace `<relpath>#<Outer>.<name>`.
//                start_line is the name token's line.
//   call edges   A call site's callee is what PHP's rules determine statically:
//                - `f()`, `A\f()`, `\A\f()`, `namespace\f()`: the function of that resolved name
//                  (an unqualified name: the `use function` alias, else the namespace's function if
//                  the corpus declares one, else the global one) -> `call`;
//                - `new X(..)` (incl. `self`/`static`/`parent`): the class -> `constructor`;
//                - `X::m()`, `self::m()`, `static::m()`, `parent::m()`: the method found from that
//                  class up its hierarchy (own methods, used traits, parent, interfaces) -> `call`;
//                - `$this->m()` in a class or enum (not in a trait): from the enclosing class up;
//                  `$this->p->m()` where property `p` is declared with a class type (PHP enforces
//                  typed properties on every write); `$x->m()` where `$x` is a parameter declared
//                  with a class type and never assigned in the function; `(new X)->m()`.
//                  These are static dispatch: an override below the class is not the callee.
//                A callee outside the corpus (a builtin, PHPUnit, a class whose hierarchy leaves the
//                corpus without the method) is external: no edge. Every other call site (untyped
//                receivers, dynamic names, `$this` in a trait, magic `__call`) is listed in
//                `unresolved_call_sites`. The caller is the innermost named function or method
//                (closures are transparent); code in a class body -> the class; top-level code ->
//                the namespace (`<relpath>#<ns>`) or the file. The line is the callee name token's.
//   import edges `use` of a class, function or constant (group `use` too) declared in the corpus
//                -> the file that declares it; `require`/`include` of a literal path or of
//                `__DIR__ . '<literal>'` -> that file.
//   inherits     `extends` (class and interface) and used traits (`extends`: their methods become
//                the class's), `implements` (`implements`), each resolving to a corpus type.

declare(strict_types=1);

if (!extension_loaded('ast')) {
    fwrite(STDERR, "gold-php needs the php-ast extension: apt-get install -y php-ast\n");
    exit(2);
}
$root = rtrim($argv[1] ?? '', '/');
if ($root === '' || !is_dir($root)) {
    fwrite(STDERR, "usage: php gold-php.php <corpus-dir>\n");
    exit(2);
}

use ast\flags;

$files = array_values(array_filter(
    explode("\n", trim((string) shell_exec('git -C ' . escapeshellarg($root) . ' ls-files -z -- "*.php" | tr "\\0" "\\n"'))),
    fn($f) => $f !== '' && is_file("$root/$f"),
));
sort($files);

// ---- Pass 1: declarations ------------------------------------------------------------------------

$defs = [];        // gold definitions
$constants = [];   // unscored
$classes = [];     // lc FQ name -> [fq, qualified, kind, file, extends[], implements[], traits[], methods[lc=>qualified], props[name=>type fq|null]]
$functions = [];   // lc FQ name -> [qualified, file]
$dupClasses = [];  // lc FQ names declared more than once (conditional declarations): unresolvable
$dupFunctions = [];
$propWrites = []; // prop name -> [[writer class lc|null, through $this, lc FQ of `new X` or null]]; '*' for dynamic names
$parsed = [];      // file -> [ast, tokens]
$unparsed = [];

foreach ($files as $file) {
    $src = file_get_contents("$root/$file");
    try {
        $tree = ast\parse_code($src, 90);
    } catch (Throwable $e) {
        $unparsed[] = ['file' => $file, 'error' => $e->getMessage()];
        continue;
    }
    $parsed[$file] = [$tree, nameTokens($src)];
}

/** Tokens that can be names, with their line: [lcText, line, prevSignificantToken]. */
function nameTokens(string $src): array
{
    $out = [];
    $prev = '';
    foreach (PhpToken::tokenize($src) as $t) {
        if ($t->isIgnorable()) continue;
        if ($t->id === T_STRING || $t->id === T_NAME_QUALIFIED || $t->id === T_NAME_FULLY_QUALIFIED || $t->id === T_NAME_RELATIVE
            || $t->id === T_STATIC || $t->id === T_ARRAY || $t->id === T_LIST || $t->id === T_PRINT || ($t->id >= 256 && preg_match('/^[A-Za-z_]\w*$/', $t->text))) {
            $out[] = [strtolower($t->text), $t->line, $prev];
        }
        $prev = $t->text;
    }
    return $out;
}

/** The line of the first token `name` at or after `line` whose previous token is one of `after` (null: any), consuming it. */
function nameLine(array &$tokens, string $name, int $line, ?array $after = null): int
{
    $lc = strtolower($name);
    foreach ($tokens as $i => $t) {
        if ($t[1] < $line || $t[0] !== $lc) continue;
        if ($after !== null && !in_array(strtolower($t[2]), $after, true)) continue;
        unset($tokens[$i]);
        return $t[1];
    }
    return $line;
}

/** Namespace context while walking a file. */
final class Ctx
{
    public string $ns = '';
    /** @var array<string, array<string,string>> kind (class|function|const) -> lc alias -> FQ */
    public array $uses = ['class' => [], 'function' => [], 'const' => []];
    /** @var list<array{string,string,int}> qualified-name parts: [name, kind, defIndex] */
    public array $stack = [];
    public ?string $class = null;      // lc FQ of the enclosing named class-like
    public ?string $classKind = null;
    public bool $anon = false;         // inside an anonymous class
    public ?string $caller = null;     // qualified name of the innermost named function/method/class
    public array $params = [];         // $name -> lc FQ type (typed, never assigned)
}

function qualifiedOf(string $file, Ctx $c, string $name): string
{
    $parts = array_map(fn($p) => $p[0], $c->stack);
    if ($c->ns !== '') array_unshift($parts, $c->ns);
    $parts[] = $name;
    return $file . '#' . implode('.', $parts);
}

function moduleOf(string $file, Ctx $c): string
{
    return $c->ns !== '' ? "$file#{$c->ns}" : $file;
}

/** PHP's class-name resolution (self/static/parent are the caller's business). */
function resolveClassName(string $name, int $flags, Ctx $c): string
{
    if ($flags === flags\NAME_FQ) return ltrim($name, '\\');
    if ($flags === flags\NAME_RELATIVE) return ltrim(($c->ns !== '' ? $c->ns . '\\' : '') . $name, '\\');
    $cut = strpos($name, '\\');
    $first = strtolower($cut === false ? $name : substr($name, 0, $cut));
    if (isset($c->uses['class'][$first])) return $c->uses['class'][$first] . ($cut === false ? '' : substr($name, $cut));
    return $c->ns !== '' ? $c->ns . '\\' . $name : $name;
}

/** PHP's function-name resolution; `$exists` says whether the corpus declares a function. */
function resolveFunctionName(string $name, int $flags, Ctx $c, array $functions): string
{
    if ($flags === flags\NAME_FQ) return ltrim($name, '\\');
    if ($flags === flags\NAME_RELATIVE || str_contains($name, '\\')) return resolveClassName($name, $flags, $c);
    $lc = strtolower($name);
    if (isset($c->uses['function'][$lc])) return $c->uses['function'][$lc];
    if ($c->ns !== '' && isset($functions[strtolower($c->ns . '\\' . $name)])) return $c->ns . '\\' . $name;
    return $name; // the global function (PHP's fallback at run time)
}

/** Applies a `use` statement (AST_USE or AST_GROUP_USE) to the context; returns the FQ names with their kinds. */
function applyUse(ast\Node $n, Ctx $c): array
{
    $out = [];
    $kindOf = fn(int $f) => $f === flags\USE_FUNCTION ? 'function' : ($f === flags\USE_CONST ? 'const' : 'class');
    $prefix = $n->kind === ast\AST_GROUP_USE ? ltrim((string) $n->children['prefix'], '\\') . '\\' : '';
    $list = $n->kind === ast\AST_GROUP_USE ? $n->children['uses'] : $n;
    foreach ($list->children as $el) {
        $kind = $kindOf($el->flags ?: $list->flags ?: $n->flags ?: flags\USE_NORMAL);
        $fq = ltrim($prefix . $el->children['name'], '\\');
        $alias = $el->children['alias'] ?? substr($fq, (int) strrpos('\\' . $fq, '\\'));
        $key = $kind === 'const' ? $alias : strtolower($alias);
        $c->uses[$kind][$key] = $fq;
        $out[] = [$kind, $fq, $el->lineno];
    }
    return $out;
}

/** A declared return type: lc FQ, `@static`, `@parent`, or null (builtin, union, none). */
function returnType($t, Ctx $c): ?string
{
    if (!$t instanceof ast\Node) return null;
    if ($t->kind === ast\AST_NULLABLE_TYPE) return returnType($t->children['type'], $c);
    if ($t->kind === ast\AST_TYPE && $t->flags === flags\TYPE_STATIC) return '@static';
    if ($t->kind === ast\AST_NAME && strtolower($t->children['name']) === 'static') return '@static';
    if ($t->kind === ast\AST_NAME && strtolower($t->children['name']) === 'parent') return '@parent';
    return typeName($t, $c);
}

function typeName($t, Ctx $c): ?string
{
    if (!$t instanceof ast\Node) return null;
    if ($t->kind === ast\AST_NULLABLE_TYPE) return typeName($t->children['type'], $c);
    if ($t->kind !== ast\AST_NAME) return null; // builtin types, unions, intersections
    $name = $t->children['name'];
    $lc = strtolower($name);
    if ($lc === 'self' || $lc === 'static') return $c->class;
    if ($lc === 'parent') return null;
    return strtolower(resolveClassName($name, $t->flags, $c));
}

/** Walks the statement list of a file, calling `$visit` per node with the namespace context kept. */
function walkFile(string $file, ast\Node $tree, callable $visit): void
{
    $c = new Ctx();
    foreach ($tree->children as $stmt) {
        if ($stmt instanceof ast\Node && $stmt->kind === ast\AST_NAMESPACE) {
            $c->ns = ltrim((string) ($stmt->children['name'] ?? ''), '\\');
            $c->uses = ['class' => [], 'function' => [], 'const' => []];
            if ($stmt->children['stmts'] !== null) {
                walk($file, $stmt->children['stmts'], $c, $visit);
                $c->ns = '';
                $c->uses = ['class' => [], 'function' => [], 'const' => []];
            }
            continue;
        }
        walk($file, $stmt, $c, $visit);
    }
}

function walk(string $file, $n, Ctx $c, callable $visit): void
{
    if (!$n instanceof ast\Node) return;
    if ($n->kind === ast\AST_USE || $n->kind === ast\AST_GROUP_USE) {
        $visit('use', $n, $c, applyUse($n, $c));
        return;
    }
    $k = $n->kind;
    if ($k === ast\AST_CLASS && !($n->flags & flags\CLASS_ANONYMOUS)) {
        $saved = [$c->class, $c->classKind, $c->anon, $c->caller, $c->params];
        $visit('class', $n, $c, null);
        $kind = classKind($n->flags);
        $c->class = strtolower(($c->ns !== '' ? $c->ns . '\\' : '') . $n->children['name']);
        $c->classKind = $kind;
        $c->anon = false;
        $c->caller = qualifiedOf($file, $c, $n->children['name']);
        $c->stack[] = [$n->children['name'], $kind];
        $c->params = [];
        foreach (['extends', 'implements', 'attributes'] as $part) walk($file, $n->children[$part] ?? null, $c, $visit);
        walk($file, $n->children['stmts'], $c, $visit);
        array_pop($c->stack);
        [$c->class, $c->classKind, $c->anon, $c->caller, $c->params] = $saved;
        return;
    }
    if ($k === ast\AST_CLASS) { // anonymous: its methods nest under the enclosing definition
        $saved = [$c->anon];
        $c->anon = true;
        walk($file, $n->children['stmts'], $c, $visit);
        [$c->anon] = $saved;
        return;
    }
    if ($k === ast\AST_METHOD || $k === ast\AST_FUNC_DECL) {
        $saved = [$c->caller, $c->params, $c->class, $c->classKind];
        $visit($k === ast\AST_METHOD ? 'method' : 'function', $n, $c, null);
        $name = $n->children['name'];
        $c->caller = qualifiedOf($file, $c, $name);
        $c->stack[] = [$name, 'function'];
        if ($k === ast\AST_FUNC_DECL) [$c->class, $c->classKind] = [null, null];
        if ($k === ast\AST_METHOD && $c->anon) [$c->class, $c->classKind] = [null, null];
        $c->params = varsOf($n, $c);
        foreach ($n->children as $child) walk($file, $child, $c, $visit);
        array_pop($c->stack);
        [$c->caller, $c->params, $c->class, $c->classKind] = $saved;
        return;
    }
    if ($k === ast\AST_CLOSURE || $k === ast\AST_ARROW_FUNC) {
        // transparent for the caller; its variables: its own, and the outer ones an arrow function
        // sees or a closure imports by value (`use ($x)`)
        $saved = $c->params;
        $outer = [];
        if ($k === ast\AST_ARROW_FUNC) $outer = $c->params;
        foreach ($n->children['uses']->children ?? [] as $u) {
            if (!($u->flags & flags\CLOSURE_USE_REF) && isset($c->params[$u->children['name']])) $outer[$u->children['name']] = $c->params[$u->children['name']];
        }
        $own = varsOf($n, $c);
        foreach ($n->children['params']->children ?? [] as $p) unset($outer[$p->children['name']]);
        foreach (assignedVars($n->children['stmts'] ?? null) as [$w]) unset($outer[$w]);
        $c->params = $own + $outer;
        foreach ($n->children as $child) walk($file, $child, $c, $visit);
        $c->params = $saved;
        return;
    }
    $visit('node', $n, $c, null);
    foreach ($n->children as $child) walk($file, $child, $c, $visit);
}

function classKind(int $flags): string
{
    if ($flags & flags\CLASS_INTERFACE) return 'interface';
    if ($flags & flags\CLASS_TRAIT) return 'trait';
    if ($flags & flags\CLASS_ENUM) return 'enum';
    return 'class';
}

/**
 * What the variables of a function hold, where the source pins it: a parameter declared with a class
 * type and never written in the body (PHP checks the type on entry) => lc FQ; a variable written
 * exactly once in the body, by a plain `$x = <expr>` => that expression node (typed later).
 */
function varsOf(ast\Node $fn, Ctx $c): array
{
    $out = [];
    $writes = assignedVars($fn->children['stmts'] ?? null);
    $count = array_count_values(array_map(fn($w) => $w[0], $writes));
    $params = [];
    foreach ($fn->children['params']->children ?? [] as $p) {
        $name = $p->children['name'];
        $params[$name] = true;
        $t = typeName($p->children['type'], $c);
        if ($t !== null && !($p->flags & flags\PARAM_VARIADIC) && !($p->flags & flags\PARAM_REF) && !isset($count[$name])) $out[$name] = $t;
    }
    foreach ($writes as [$name, $node]) {
        if (!isset($params[$name]) && $count[$name] === 1 && $node !== null) $out[$name] = $node;
    }
    return $out;
}

/**
 * Variables written anywhere in a body (assignments, foreach targets, list(), by-reference uses,
 * global, static, unset, `&$x` arguments are not seen): [[name, value node of a plain `$x = v` or null]].
 */
function assignedVars($n): array
{
    $out = [];
    $stack = [$n];
    while ($stack) {
        $x = array_pop($stack);
        if (!$x instanceof ast\Node) continue;
        $targets = [];
        switch ($x->kind) {
            case ast\AST_ASSIGN:
                $v = $x->children['var'];
                if ($v instanceof ast\Node && $v->kind === ast\AST_VAR && is_string($v->children['name'])) $out[] = [$v->children['name'], $x->children['expr']];
                else $targets[] = $v;
                break;
            case ast\AST_ASSIGN_REF: case ast\AST_ASSIGN_OP: $targets[] = $x->children['var']; break;
            case ast\AST_FOREACH: $targets[] = $x->children['value']; $targets[] = $x->children['key']; break;
            case ast\AST_GLOBAL: case ast\AST_STATIC: case ast\AST_UNSET: $targets[] = $x->children['var']; break;
            case ast\AST_CATCH: $targets[] = $x->children['var']; break;
            case ast\AST_CLOSURE_USES: foreach ($x->children as $u) if ($u->flags & flags\CLOSURE_USE_REF) $out[] = [$u->children['name'], null]; break;
            case ast\AST_REF: $targets[] = $x->children['var']; break;
        }
        foreach ($targets as $t) {
            $inner = [$t];
            while ($inner) {
                $y = array_pop($inner);
                if (!$y instanceof ast\Node) continue;
                if ($y->kind === ast\AST_VAR && is_string($y->children['name'])) $out[] = [$y->children['name'], null];
                if ($y->kind === ast\AST_ARRAY || $y->kind === ast\AST_ARRAY_ELEM) foreach ($y->children as $ch) $inner[] = $ch;
            }
        }
        foreach ($x->children as $ch) $stack[] = $ch;
    }
    return $out;
}

foreach ($parsed as $file => [$tree, $tokens]) {
    $declTokens = $tokens;
    walkFile($file, $tree, function (string $what, ast\Node $n, Ctx $c) use ($file, &$defs, &$classes, &$functions, &$dupClasses, &$dupFunctions, &$declTokens, &$constants, &$propWrites) {
        if ($what === 'class') {
            $name = $n->children['name'];
            $kind = classKind($n->flags);
            $fq = ($c->ns !== '' ? $c->ns . '\\' : '') . $name;
            $q = qualifiedOf($file, $c, $name);
            $line = nameLine($declTokens, $name, $n->lineno, ['class', 'interface', 'trait', 'enum']);
            $defs[] = ['file' => $file, 'name' => $name, 'qualified' => $q, 'kind' => $kind, 'start_line' => $line, 'end_line' => $n->endLineno];
            $names = fn($list) => array_map(fn($x) => strtolower(resolveClassName($x->children['name'], $x->flags, $c)), $list ? $list->children : []);
            $extends = $n->children['extends'];
            $rec = [
                'fq' => $fq, 'qualified' => $q, 'kind' => $kind, 'file' => $file,
                'extends' => $kind === 'interface' ? $names($n->children['implements']) : ($extends ? [strtolower(resolveClassName($extends->children['name'], $extends->flags, $c))] : []),
                'implements' => $kind === 'interface' ? [] : $names($n->children['implements']),
                'traits' => [], 'methods' => [], 'props' => [],
            ];
            $cls = strtolower($fq);
            foreach ($n->children['stmts']->children ?? [] as $s) {
                if ($s->kind === ast\AST_USE_TRAIT) array_push($rec['traits'], ...$names($s->children['traits']));
                if ($s->kind === ast\AST_METHOD) {
                    $c3 = clone $c; $c3->class = $cls;
                    $rec['methods'][strtolower($s->children['name'])] = [$q . '.' . $s->children['name'], returnType($s->children['returnType'], $c3)];
                    if (strtolower($s->children['name']) === '__construct') {
                        foreach ($s->children['params']->children as $p) {
                            if ($p->flags & (flags\PARAM_MODIFIER_PUBLIC | flags\PARAM_MODIFIER_PROTECTED | flags\PARAM_MODIFIER_PRIVATE)) {
                                $c2 = clone $c; $c2->class = $cls;
                                $rec['props'][$p->children['name']] = typeName($p->children['type'], $c2);
                            }
                        }
                    }
                }
                if ($s->kind === ast\AST_PROP_GROUP) {
                    $c2 = clone $c; $c2->class = $cls;
                    foreach ($s->children['props']->children as $p) $rec['props'][$p->children['name']] = $s->children['type'] === null ? '@untyped' : typeName($s->children['type'], $c2);
                }
                if ($s->kind === ast\AST_CLASS_CONST_GROUP) {
                    foreach ($s->children['const']->children as $k) $constants[] = ['file' => $file, 'name' => $k->children['name'], 'qualified' => "$q." . $k->children['name'], 'line' => $k->lineno];
                }
            }
            if (isset($classes[$cls])) $dupClasses[$cls] = true;
            $classes[$cls] = $rec;
        } elseif ($what === 'method' || $what === 'function') {
            $name = $n->children['name'];
            $line = nameLine($declTokens, $name, $n->lineno, ['function', '&']);
            $kind = $what === 'function' ? 'function' : (strtolower($name) === '__construct' ? 'constructor' : 'method');
            $q = qualifiedOf($file, $c, $name);
            $defs[] = ['file' => $file, 'name' => $name, 'qualified' => $q, 'kind' => $kind, 'start_line' => $line, 'end_line' => $n->endLineno];
            if ($what === 'function') {
                $fq = strtolower(($c->ns !== '' ? $c->ns . '\\' : '') . $name);
                if (isset($functions[$fq])) $dupFunctions[$fq] = true;
                $functions[$fq] = ['qualified' => $q, 'file' => $file, 'ret' => returnType($n->children['returnType'], $c)];
            }
        } elseif ($what === 'node' && ($n->kind === ast\AST_ASSIGN || $n->kind === ast\AST_ASSIGN_REF || $n->kind === ast\AST_ASSIGN_OP)
            && $n->children['var'] instanceof ast\Node && in_array($n->children['var']->kind, [ast\AST_PROP, ast\AST_NULLSAFE_PROP], true)) {
            $v = $n->children['var'];
            $prop = is_string($v->children['prop']) ? $v->children['prop'] : '*';
            $isThis = $v->children['expr'] instanceof ast\Node && $v->children['expr']->kind === ast\AST_VAR && $v->children['expr']->children['name'] === 'this';
            $e = $n->children['expr'];
            $newClass = null;
            if ($n->kind === ast\AST_ASSIGN && $e instanceof ast\Node && $e->kind === ast\AST_NEW && $e->children['class'] instanceof ast\Node
                && $e->children['class']->kind === ast\AST_NAME && !in_array(strtolower($e->children['class']->children['name']), ['self', 'static', 'parent'], true)) {
                $newClass = strtolower(resolveClassName($e->children['class']->children['name'], $e->children['class']->flags, $c));
            }
            $propWrites[$prop][] = [$c->class, $isThis && $c->classKind !== 'trait', $newClass];
        } elseif ($what === 'node' && $n->kind === ast\AST_CONST_DECL) {
            foreach ($n->children as $k) $constants[] = ['file' => $file, 'name' => $k->children['name'], 'qualified' => moduleOf($file, $c) . '.' . $k->children['name'], 'line' => $k->lineno];
        } elseif ($what === 'node' && $n->kind === ast\AST_CALL && ($n->children['expr']->kind ?? null) === ast\AST_NAME
            && strtolower($n->children['expr']->children['name']) === 'define' && is_string($n->children['args']->children[0] ?? null)) {
            $constants[] = ['file' => $file, 'name' => $n->children['args']->children[0], 'qualified' => $file . '.' . $n->children['args']->children[0], 'line' => $n->lineno];
        }
    });
}

// ---- Hierarchy -------------------------------------------------------------------------------------

/**
 * The method `lc` of class `cls` as PHP looks it up: own methods, used traits, the parent chain,
 * then interfaces (abstract declarations). ['def', qualified, return type, declaring class] |
 * ['external'] | ['none'].
 */
function lookupMethod(string $cls, string $lc, array $classes, array $dupClasses, array &$seen = []): array
{
    if (isset($seen[$cls])) return ['none'];
    $seen[$cls] = true;
    if (isset($dupClasses[$cls])) return ['none'];
    if (!isset($classes[$cls])) return ['external'];
    $r = $classes[$cls];
    if (isset($r['methods'][$lc])) return ['def', $r['methods'][$lc][0], $r['methods'][$lc][1], $cls];
    $external = false;
    foreach ([...$r['traits'], ...$r['extends'], ...$r['implements']] as $base) {
        $x = lookupMethod($base, $lc, $classes, $dupClasses, $seen);
        if ($x[0] === 'def') return $x;
        if ($x[0] === 'external') $external = true;
    }
    return [$external ? 'external' : 'none'];
}

/** The declared class type of property `prop` on `cls` or its bases. */
function propType(string $cls, string $prop, array $classes, array &$seen = []): ?string
{
    if (isset($seen[$cls]) || !isset($classes[$cls])) return null;
    $seen[$cls] = true;
    $r = $classes[$cls];
    if (array_key_exists($prop, $r['props'])) return $r['props'][$prop] === '@untyped' ? untypedPropType($cls, $prop) : $r['props'][$prop];
    foreach ([...$r['traits'], ...$r['extends']] as $base) {
        $t = propType($base, $prop, $classes, $seen);
        if ($t !== null) return $t;
    }
    return null;
}

/** True if class `cls` is `base` or below it (extends / traits). */
function isBelow(?string $cls, string $base, int $depth = 0): bool
{
    global $classes;
    if ($cls === null || $depth > 20) return false;
    if ($cls === $base) return true;
    foreach ([...($classes[$cls]['extends'] ?? []), ...($classes[$cls]['traits'] ?? [])] as $b) if (isBelow($b, $base, $depth + 1)) return true;
    return false;
}

/**
 * An untyped property's class where the corpus pins it: every write to `->prop` in the corpus is
 * `$this->prop = new X(..)` of one class X, made in the declaring class or a class below it, and no
 * write goes through another object. Then any object the property holds is an X (or null).
 */
function untypedPropType(string $declarer, string $prop): ?string
{
    global $propWrites;
    $type = null;
    foreach ($propWrites[$prop] ?? [] as [$writer, $isThis, $newClass]) {
        if (!$isThis) return null;
        if (!isBelow($writer, $declarer)) continue;
        if ($newClass === null || ($type !== null && $type !== $newClass)) return null;
        $type = $newClass;
    }
    return $type;
}

/** A short text of a receiver, for the edge's `receiver` field. */
function receiverText($e): string
{
    if (!$e instanceof ast\Node) return '';
    if ($e->kind === ast\AST_VAR && is_string($e->children['name'])) return '$' . $e->children['name'];
    if ($e->kind === ast\AST_PROP || $e->kind === ast\AST_NULLSAFE_PROP) return receiverText($e->children['expr']) . '->' . (is_string($e->children['prop']) ? $e->children['prop'] : '?');
    if ($e->kind === ast\AST_NEW) return 'new';
    return 'call';
}

/** The class `new X` / `X::` names (self, static, parent from the enclosing class), lc FQ. */
function classOfName(ast\Node $name, Ctx $c): ?string
{
    global $classes;
    $lc = strtolower($name->children['name']);
    if ($lc === 'self' || $lc === 'static') return $c->class;
    if ($lc === 'parent') return $c->class !== null ? ($classes[$c->class]['extends'][0] ?? null) : null;
    return strtolower(resolveClassName($name->children['name'], $name->flags, $c));
}

/** A declared return type made concrete: `static` is the class called through, `parent` the declarer's base. */
function concreteReturn(?string $ret, string $through, string $declarer): ?string
{
    global $classes;
    if ($ret === '@static') return $through;
    if ($ret === '@parent') return $classes[$declarer]['extends'][0] ?? null;
    return $ret;
}

/**
 * The class an expression evaluates to where PHP pins it (lc FQ) or null: `$this` in a class or enum
 * (not a trait), a typed property of `$this`, a typed unwritten parameter, a variable written once
 * (by the type of what it was given), `new X`, a call whose callee declares a class return type.
 */
function exprType($e, Ctx $c, int $depth): ?string
{
    global $classes, $functions, $dupFunctions;
    if (!$e instanceof ast\Node || $depth > 12) return null;
    switch ($e->kind) {
        case ast\AST_VAR:
            $name = $e->children['name'];
            if ($name === 'this') return $c->classKind !== 'trait' ? $c->class : null;
            if (!is_string($name) || !isset($c->params[$name])) return null;
            $v = $c->params[$name];
            return is_string($v) ? $v : exprType($v, $c, $depth + 1);
        case ast\AST_PROP:
        case ast\AST_NULLSAFE_PROP:
            $e2 = $e->children['expr'];
            if (!is_string($e->children['prop'])) return null;
            $owner = exprType($e2, $c, $depth + 1);
            return $owner !== null ? propType($owner, $e->children['prop'], $classes) : null;
        case ast\AST_NEW:
            $cl = $e->children['class'];
            return $cl instanceof ast\Node && $cl->kind === ast\AST_NAME ? classOfName($cl, $c) : null;
        case ast\AST_CLONE:
            return exprType($e->children['expr'], $c, $depth + 1);
        case ast\AST_ASSIGN:
            return exprType($e->children['expr'], $c, $depth + 1);
        case ast\AST_CALL:
            $f = $e->children['expr'];
            if (!$f instanceof ast\Node || $f->kind !== ast\AST_NAME) return null;
            $fq = strtolower(resolveFunctionName($f->children['name'], $f->flags, $c, $functions));
            if (isset($dupFunctions[$fq]) || !isset($functions[$fq])) return null;
            $ret = $functions[$fq]['ret'];
            return $ret !== null && $ret[0] !== '@' ? $ret : null;
        case ast\AST_STATIC_CALL:
        case ast\AST_METHOD_CALL:
        case ast\AST_NULLSAFE_METHOD_CALL:
            $x = resolveMethodCall($e, $c, $depth + 1);
            return $x[0] === 'def' ? concreteReturn($x[2], $x[4], $x[3]) : null;
    }
    return null;
}

/**
 * The method a static or instance call reaches by PHP's rules: ['def', qualified, return type,
 * declaring class, class called through] | ['external'] | ['unresolvable', reason].
 */
function resolveMethodCall(ast\Node $n, Ctx $c, int $depth): array
{
    global $classes, $dupClasses;
    $m = $n->children['method'];
    if (!is_string($m)) return ['unresolvable', 'dynamic method name'];
    if ($n->kind === ast\AST_STATIC_CALL) {
        $cl = $n->children['class'];
        if (!$cl instanceof ast\Node || $cl->kind !== ast\AST_NAME) return ['unresolvable', 'dynamic class'];
        $lcName = strtolower($cl->children['name']);
        if (in_array($lcName, ['self', 'static', 'parent'], true) && $c->classKind === 'trait') return ['unresolvable', 'trait: the using class decides'];
        $cls = classOfName($cl, $c);
        if ($cls === null) return ['unresolvable', 'no class'];
    } else {
        $cls = exprType($n->children['expr'], $c, $depth + 1);
        if ($cls === null) return ['unresolvable', 'receiver type not pinned'];
    }
    $x = lookupMethod($cls, strtolower($m), $classes, $dupClasses);
    if ($x[0] === 'def') return [...$x, $cls];
    return $x[0] === 'external' ? ['external'] : ['unresolvable', 'method not declared (magic)'];
}

// ---- Pass 2: calls, imports, inherits -------------------------------------------------------------

$edges = [];
$unresolved = [];
$imports = [];
$inherits = [];
$sites = 0;

foreach ($classes as $cls => $r) {
    if (isset($dupClasses[$cls])) continue;
    foreach ([...array_map(fn($b) => [$b, 'extends'], [...$r['extends'], ...$r['traits']]), ...array_map(fn($b) => [$b, 'implements'], $r['implements'])] as [$b, $kind]) {
        if (isset($classes[$b]) && !isset($dupClasses[$b])) $inherits[] = ['child' => $r['qualified'], 'base' => $classes[$b]['qualified'], 'kind' => $kind];
    }
}

foreach ($parsed as $file => [$tree, $tokens]) {
    $callTokens = $tokens;
    walkFile($file, $tree, function (string $what, ast\Node $n, Ctx $c, $used) use ($file, $root, $classes, $functions, $dupClasses, $dupFunctions, &$edges, &$unresolved, &$imports, &$callTokens, &$sites) {
        if ($what === 'use') {
            foreach ($used as [$kind, $fq, $line]) {
                $lc = strtolower($fq);
                $to = $kind === 'class' ? ($classes[$lc]['file'] ?? null) : ($kind === 'function' ? ($functions[$lc]['file'] ?? null) : null);
                if ($to !== null && $to !== $file) $imports[] = ['from' => $file, 'to' => $to];
            }
            return;
        }
        if ($what !== 'node') return;
        $k = $n->kind;
        if (in_array($k, [ast\AST_INCLUDE_OR_EVAL], true) && $n->flags !== flags\EXEC_EVAL) {
            $e = $n->children['expr'];
            $rel = null;
            if (is_string($e)) $rel = $e;
            elseif ($e instanceof ast\Node && $e->kind === ast\AST_BINARY_OP && $e->flags === flags\BINARY_CONCAT
                && $e->children['left'] instanceof ast\Node && $e->children['left']->kind === ast\AST_MAGIC_CONST
                && $e->children['left']->flags === flags\MAGIC_DIR && is_string($e->children['right'])) {
                $rel = (dirname($file) === '.' ? '' : dirname($file) . '/') . ltrim($e->children['right'], '/');
            }
            if ($rel !== null) {
                foreach ([$rel, (dirname($file) === '.' ? '' : dirname($file) . '/') . $rel] as $cand) {
                    $norm = normalizePath($cand);
                    if ($norm !== null && is_file("$root/$norm") && $norm !== $file) { $imports[] = ['from' => $file, 'to' => $norm]; break; }
                }
            }
            return;
        }
        $caller = $c->caller ?? moduleOf($file, $c);
        $callerKind = $c->caller === null ? 'module' : 'definition';
        $edge = function (string $callee, int $line, string $via, string $form, string $recv) use ($caller, $file, &$edges, $callerKind) {
            $edges[] = ['caller' => $caller, 'callee' => $callee, 'file' => $file, 'line' => $line, 'via' => $via,
                'caller_kind' => $callerKind, 'form' => $form, 'receiver' => $recv];
        };
        $dontCare = function (int $line, string $name, string $form, string $reason) use ($file, &$unresolved) {
            $unresolved[] = ['file' => $file, 'line' => $line, 'name' => $name, 'form' => $form, 'reason' => $reason];
        };
        if ($k === ast\AST_CALL) {
            $sites++;
            $e = $n->children['expr'];
            if (!$e instanceof ast\Node || $e->kind !== ast\AST_NAME) {
                $dontCare($n->lineno, '', 'call', 'dynamic callee');
                return;
            }
            $line = nameLine($callTokens, $e->children['name'], $e->lineno);
            $fq = strtolower(resolveFunctionName($e->children['name'], $e->flags, $c, $functions));
            if (isset($dupFunctions[$fq])) $dontCare($line, $e->children['name'], 'call', 'declared twice');
            elseif (isset($functions[$fq])) $edge($functions[$fq]['qualified'], $line, 'call', 'function', '');
            return; // else a builtin or a dependency's function: external
        }
        if ($k === ast\AST_NEW) {
            $sites++;
            $cl = $n->children['class'];
            if ($cl instanceof ast\Node && $cl->kind === ast\AST_CLASS) return; // anonymous class
            if (!$cl instanceof ast\Node || $cl->kind !== ast\AST_NAME) {
                $dontCare($n->lineno, '', 'new', 'dynamic class');
                return;
            }
            $line = nameLine($callTokens, $cl->children['name'], $cl->lineno);
            $cls = classOfName($cl, $c);
            if ($cls === null || isset($dupClasses[$cls])) $dontCare($line, $cl->children['name'], 'new', 'no class');
            elseif (isset($classes[$cls])) $edge($classes[$cls]['qualified'], $line, 'constructor', 'new', '');
            return;
        }
        if ($k === ast\AST_STATIC_CALL || $k === ast\AST_METHOD_CALL || $k === ast\AST_NULLSAFE_METHOD_CALL) {
            $sites++;
            $m = $n->children['method'];
            $static = $k === ast\AST_STATIC_CALL;
            $line = is_string($m) ? nameLine($callTokens, $m, $n->lineno, $static ? ['::'] : ['->', '?->']) : $n->lineno;
            $x = resolveMethodCall($n, $c, 0);
            $recv = $static ? (($n->children['class'] instanceof ast\Node && $n->children['class']->kind === ast\AST_NAME) ? $n->children['class']->children['name'] : '') : receiverText($n->children['expr']);
            if ($x[0] === 'def') $edge($x[1], $line, 'call', $static ? 'static' : 'method', $recv);
            elseif ($x[0] !== 'external') $dontCare($line, is_string($m) ? $m : '', $static ? 'static' : 'method', $x[1] ?? 'unknown');
            return;
        }
    });
}

function normalizePath(string $p): ?string
{
    $out = [];
    foreach (explode('/', $p) as $seg) {
        if ($seg === '' || $seg === '.') continue;
        if ($seg === '..') {
            if (!$out) return null;
            array_pop($out);
        } else $out[] = $seg;
    }
    return implode('/', $out);
}

$dedupe = function (array $list): array {
    $seen = [];
    $out = [];
    foreach ($list as $x) {
        $k = json_encode($x);
        if (isset($seen[$k])) continue;
        $seen[$k] = true;
        $out[] = $x;
    }
    return $out;
};

$edges = $dedupe($edges);
$imports = $dedupe($imports);
$inherits = $dedupe($inherits);
$unresolved = $dedupe($unresolved);
echo json_encode([
    'meta' => [
        'tool' => 'gold-php',
        'format' => 'code-graph-gold/1',
        'language' => 'php',
        'indexer' => 'php-ast ' . phpversion('ast') . ' (AST version 90) on PHP ' . PHP_VERSION . ', PhpToken for name lines',
        'files' => array_keys($parsed),
        'unparsed' => $unparsed,
        'duplicate_classes' => array_keys($dupClasses),
        'duplicate_functions' => array_keys($dupFunctions),
        'counts' => [
            'files' => count($parsed), 'definitions' => count($defs), 'call_edges' => count($edges),
            'call_edge_pairs' => count(array_unique(array_map(fn($e) => $e['caller'] . ' -> ' . $e['callee'], $edges))),
            'import_edges' => count($imports), 'inherits' => count($inherits), 'call_sites' => $sites,
            'unresolvable_call_sites' => count($unresolved), 'constants' => count($constants),
        ],
    ],
    'definitions' => $defs,
    'call_edges' => $edges,
    'unresolved_call_sites' => $unresolved,
    'import_edges' => $imports,
    'inherits' => $inherits,
    'constants' => $constants,
], JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES) . "\n";
