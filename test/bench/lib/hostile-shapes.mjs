/**
 * Hostile source shapes for every shipped language: blocks, calls, lambdas, brackets and objects
 * nested `n` deep, each between a function before and a function after it (which an index keeps
 * when the grammar allows). Used by hostile-bench.mjs; deterministic.
 */

/** `s` `n` times, a line break after each: one line per level, so no shape reads as minified. */
const rep = (s, n) => `${s}\n`.repeat(n);
/** `n` lines of `open(i)`, the innermost `inner`, then `n` closers. */
const nest = (n, open, inner, close) =>
  `${Array.from({ length: n }, (_, i) => open(i)).join("\n")}\n${inner}\n${rep(close, n)}`;

/**
 * Per language: its file extension, a function before and after, and each shape's text. A shape a
 * language has no form of borrows the closest one (C has no lambdas: statement blocks instead).
 */
export const LANGUAGES = {
  typescript: {
    ext: "ts",
    before: "export function before(): number { return 1; }",
    after: "export function after(): number { return 2; }",
    blocks: (n) => `function top(): void {\n${nest(n, () => "if (x) {", "g();", "}\n")}}`,
    calls: (n) => `const c = ${rep("f(", n)}1${rep(")", n)};`,
    lambdas: (n) => `const l = ${nest(n, (i) => `(a${i}: number) => (`, "1", ")")};`,
    brackets: (n) => `const b = ${rep("[", n)}1${rep("]", n)};`,
    objects: (n) => `const o = ${rep("{a: ", n)}1${rep("}", n)};`,
  },
  tsx: {
    ext: "tsx",
    before: "export function before(): number { return 1; }",
    after: "export function after(): number { return 2; }",
    blocks: (n) => `function top(): void {\n${nest(n, () => "if (x) {", "g();", "}\n")}}`,
    calls: (n) => `const c = ${rep("f(", n)}1${rep(")", n)};`,
    lambdas: (n) => `const l = ${nest(n, (i) => `(a${i}: number) => (`, "1", ")")};`,
    brackets: (n) => `const b = ${rep("[", n)}1${rep("]", n)};`,
    objects: (n) => `const o = ${rep("{a: ", n)}1${rep("}", n)};`,
  },
  javascript: {
    ext: "js",
    before: "export function before() { return 1; }",
    after: "export function after() { return 2; }",
    blocks: (n) => `function top() {\n${nest(n, () => "if (x) {", "g();", "}\n")}}`,
    calls: (n) => `const c = ${rep("f(", n)}1${rep(")", n)};`,
    lambdas: (n) => `const l = ${nest(n, (i) => `(a${i}) => (`, "1", ")")};`,
    brackets: (n) => `const b = ${rep("[", n)}1${rep("]", n)};`,
    objects: (n) => `const o = ${rep("{a: ", n)}1${rep("}", n)};`,
  },
  python: {
    ext: "py",
    before: "def before():\n    return 1\n",
    after: "def after():\n    return 2\n",
    // One space per level: a file past ~1,400 levels is over the 1 MiB limit (skipped too_large).
    blocks: (n) =>
      `def top():\n${Array.from({ length: n }, (_, i) => `${" ".repeat(i + 1)}if x:`).join("\n")}\n${" ".repeat(n + 1)}g()\n`,
    calls: (n) => `c = ${rep("f(", n)}1${rep(")", n)}\n`,
    lambdas: (n) => `l = ${rep("lambda: (", n)}1${rep(")", n)}\n`,
    brackets: (n) => `b = ${rep("[", n)}1${rep("]", n)}\n`,
    objects: (n) => `o = ${rep("{'a': ", n)}1${rep("}", n)}\n`,
  },
  ruby: {
    ext: "rb",
    before: "def before\n  1\nend\n",
    after: "def after\n  2\nend\n",
    blocks: (n) => `def top\n${nest(n, () => "if x", "g", "end\n")}end\n`,
    calls: (n) => `c = ${rep("f(", n)}1${rep(")", n)}\n`,
    lambdas: (n) => `l = ${nest(n, () => "-> {", "1", "}\n")}\n`,
    brackets: (n) => `b = ${rep("[", n)}1${rep("]", n)}\n`,
    objects: (n) => `o = ${rep("{a: ", n)}1${rep("}", n)}\n`,
  },
  go: {
    ext: "go",
    before: "package p\n\nfunc before() int { return 1 }",
    after: "func after() int { return 2 }",
    blocks: (n) => `func top() {\n${nest(n, () => "if x {", "g()", "}\n")}}`,
    calls: (n) => `var c = ${rep("f(", n)}1${rep(")", n)}`,
    lambdas: (n) => `var l = ${nest(n, () => "func() {", "g()", "}()\n")}`,
    brackets: (n) => `var b = ${rep("(", n)}1${rep(")", n)}`,
    objects: (n) => `var o = ${rep('map[string]any{"a": ', n)}1${rep("}", n)}`,
  },
  rust: {
    ext: "rs",
    before: "fn before() -> i32 { 1 }",
    after: "fn after() -> i32 { 2 }",
    blocks: (n) => `fn top() {\n${nest(n, () => "if x {", "g();", "}\n")}}`,
    calls: (n) => `const C: i32 = ${rep("f(", n)}1${rep(")", n)};`,
    lambdas: (n) => `fn l() {\nlet l = ${nest(n, () => "|| {", "1", "}\n")};\n}`,
    brackets: (n) => `const B: i32 = ${rep("[", n)}1${rep("]", n)};`,
    objects: (n) => `fn o() {\nlet o = ${rep("S { a: ", n)}1${rep(" }", n)};\n}`,
  },
  java: {
    ext: "java",
    before: "class Before { int before() { return 1; } }",
    after: "class After { int after() { return 2; } }",
    blocks: (n) => `class Top { void top() {\n${nest(n, () => "if (x) {", "g();", "}\n")}} }`,
    calls: (n) => `class C { int c = ${rep("f(", n)}1${rep(")", n)}; }`,
    lambdas: (n) => `class L { Object l = ${rep("() -> (", n)}1${rep(")", n)}; }`,
    brackets: (n) => `class B { int[] b = ${rep("{", n)}1${rep("}", n)}; }`,
    objects: (n) => `class O { Object o = ${nest(n, () => "new Object() { Object a = ", "null", "; };\n")}; }`,
  },
  csharp: {
    ext: "cs",
    before: "class Before { int Before1() { return 1; } }",
    after: "class After { int After1() { return 2; } }",
    blocks: (n) => `class Top { void T() {\n${nest(n, () => "if (x) {", "G();", "}\n")}} }`,
    calls: (n) => `class C { int c = ${rep("F(", n)}1${rep(")", n)}; }`,
    lambdas: (n) => `class L { object l = ${rep("() => (", n)}1${rep(")", n)}; }`,
    brackets: (n) => `class B { int[] b = ${rep("new[] {", n)}1${rep("}", n)}; }`,
    objects: (n) => `class O { object o = ${rep("new { a = ", n)}1${rep(" }", n)}; }`,
  },
  kotlin: {
    ext: "kt",
    before: "fun before(): Int { return 1 }",
    after: "fun after(): Int { return 2 }",
    blocks: (n) => `fun top() {\n${nest(n, () => "if (x) {", "g()", "}\n")}}`,
    calls: (n) => `val c = ${rep("f(", n)}1${rep(")", n)}`,
    lambdas: (n) => `val l = ${nest(n, () => "{ ->", "1", "}\n")}`,
    brackets: (n) => `val b = ${rep("listOf(", n)}1${rep(")", n)}`,
    objects: (n) => `val o = ${nest(n, () => "object { val a = ", "1", "}\n")}`,
  },
  php: {
    ext: "php",
    before: "<?php\nfunction before() { return 1; }",
    after: "function after() { return 2; }",
    blocks: (n) => `function top() {\n${nest(n, () => "if ($x) {", "g();", "}\n")}}`,
    calls: (n) => `$c = ${rep("f(", n)}1${rep(")", n)};`,
    lambdas: (n) => `$l = ${nest(n, () => "function() { return ", "1;", "};\n")};`,
    brackets: (n) => `$b = ${rep("[", n)}1${rep("]", n)};`,
    objects: (n) => `$o = ${rep("['a' => ", n)}1${rep("]", n)};`,
  },
  c: {
    ext: "c",
    before: "int before(void) { return 1; }",
    after: "int after(void) { return 2; }",
    blocks: (n) => `void top(void) {\n${nest(n, () => "if (x) {", "g();", "}\n")}}`,
    calls: (n) => `int c(void) { return ${rep("f(", n)}1${rep(")", n)}; }`,
    lambdas: (n) => `void l(void) {\n${nest(n, () => "{", "g();", "}\n")}}`,
    brackets: (n) => `int b(void) { return ${rep("(", n)}1${rep(")", n)}; }`,
    objects: (n) => `struct s o = ${rep("{ .a = ", n)}1${rep(" }", n)};`,
  },
  cpp: {
    ext: "cpp",
    before: "int before() { return 1; }",
    after: "int after() { return 2; }",
    blocks: (n) => `void top() {\n${nest(n, () => "if (x) {", "g();", "}\n")}}`,
    calls: (n) => `int c() { return ${rep("f(", n)}1${rep(")", n)}; }`,
    lambdas: (n) => `void l() {\n${nest(n, (i) => `auto f${i} = [&](int x${i}) {`, "return;", "};\n")}}`,
    brackets: (n) => `int b() { return ${rep("(", n)}1${rep(")", n)}; }`,
    objects: (n) => `S o = ${rep("{ ", n)}1${rep(" }", n)};`,
  },
};

export const SHAPES = ["blocks", "calls", "lambdas", "brackets", "objects"];

/** The file of `shape` nested `n` deep in `language`: before, the shape, after. */
export function hostileFile(language, shape, n) {
  const l = LANGUAGES[language];
  return { path: `deep.${l.ext}`, text: `${l.before}\n\n${l[shape](n)}\n\n${l.after}\n` };
}
