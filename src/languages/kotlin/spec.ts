/**
 * Kotlin: full depth, with the JVM's package rules. A package's files see each other's top-level
 * names unimported (the declared `package`, across source roots); `import a.b.C` (and `as D`) and
 * `import a.b.*` resolve through the package's folder (see resolve.ts). A function in a class body
 * is a method; the functions of a companion object are members of the class around it, so
 * `Base.create()` reaches them. Calling a class constructs it (`Helper()`); `this(…)`/`super(…)`
 * before a secondary constructor's body call constructors, and `class C : Base(x)` calls Base's.
 * Grammar: `@tree-sitter-grammars/tree-sitter-kotlin` 1.1.0, chosen by test/bench/grammar-fidelity.mjs.
 */
import type { LanguageSpec } from "../types.ts";
import { QUERIES } from "../queries.gen.ts";
import { kotlinResolver } from "./resolve.ts";
import { kotlinTests } from "./tests.ts";
import { MAVEN_GRADLE_TEST, SPRING_ROUTES } from "../jvm.ts";

export const kotlin: LanguageSpec = {
  id: "kotlin",
  name: "Kotlin",
  grammar: "tree-sitter-kotlin.wasm",
  grammarSource: { package: "@tree-sitter-grammars/tree-sitter-kotlin@1.1.0", path: "tree-sitter-kotlin.wasm" },
  extensions: [".kt", ".kts"],
  toolchain: ["kotlin", "kotlinc", "gradle"],
  query: QUERIES.kotlin,
  decoratorTypes: ["annotation"],
  decoratorContainers: ["modifiers"],
  wrapperTypes: [],
  commentTypes: ["line_comment", "block_comment"],
  docStyle: "preceding-comment",
  exportStyle: "unless-private",
  fullDepth: true,
  resolver: kotlinResolver,
  tests: kotlinTests,
  testRunners: [MAVEN_GRADLE_TEST],
  manifests: {
    "build.gradle": undefined,
    "build.gradle.kts": undefined,
    "pom.xml": /<artifactId>([^<]+)<\/artifactId>/,
  },
  keywords: [
    "class",
    "return",
    "import",
    "true",
    "false",
    "null",
    "this",
    "var",
    "else",
    "try",
    "throw",
    "catch",
    "finally",
    "break",
    "continue",
    "while",
    "public",
    "private",
    "protected",
  ],
  semantics: {
    exports: "top-level",
    packages: "declared",
    starImportsBind: true,
    superCallsConstructor: true,
    instanceNames: ["this"],
    classNames: [],
    classFunctionsAreMethods: true,
    classMembersInScope: true,
    thisCallsConstructor: true,
    staticTypes: true,
    blocks: "braces",
  },
  routes: SPRING_ROUTES,
};
