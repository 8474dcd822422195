/**
 * Java: full depth. A package's classes see each other unimported (the declared package, across
 * source roots); imports resolve by path tails (single-type, nested, static, wildcard); inside a
 * method the members of the enclosing classes, inherited ones too, are in scope; `this(…)` and
 * `super(…)` call constructors. Overloads share one qualified name; a call links to those whose
 * parameter count accepts its argument count (varargs take n−1 or more), looking in the bases when
 * the class's own overloads take none.
 */
import type { LanguageSpec } from "../types.ts";
import { QUERIES } from "../queries.gen.ts";
import { parameterRange, type ParameterStyle } from "../arity.ts";
import { javaResolver } from "./resolve.ts";
import { javaTests } from "./tests.ts";
import { MAVEN_GRADLE_TEST, SPRING_ROUTES } from "../jvm.ts";

const JAVA_PARAMETERS: ParameterStyle = { variadic: /\.\.\./, defaults: false };

export const java: LanguageSpec = {
  id: "java",
  name: "Java",
  grammar: "tree-sitter-java.wasm",
  grammarSource: { package: "@vscode/tree-sitter-wasm@0.3.1", path: "wasm/tree-sitter-java.wasm" },
  extensions: [".java"],
  toolchain: ["java", "jdk", "jre", "maven", "gradle"],
  query: QUERIES.java,
  decoratorTypes: ["annotation", "marker_annotation"],
  decoratorContainers: ["modifiers"],
  wrapperTypes: [],
  commentTypes: ["line_comment", "block_comment"],
  docStyle: "preceding-comment",
  exportStyle: "public-modifier",
  fullDepth: true,
  resolver: javaResolver,
  tests: javaTests,
  testRunners: [MAVEN_GRADLE_TEST],
  manifests: {
    "pom.xml": /<artifactId>([^<]+)<\/artifactId>/,
    "build.gradle": undefined,
    "build.gradle.kts": undefined,
  },
  keywords: [
    "class",
    "return",
    "import",
    "true",
    "false",
    "null",
    "this",
    "else",
    "try",
    "throw",
    "throws",
    "catch",
    "finally",
    "break",
    "continue",
    "while",
    "instanceof",
    "void",
    "public",
    "private",
    "protected",
    "static",
    "final",
  ],
  arity: (signature, name) => parameterRange(signature, name, JAVA_PARAMETERS),
  semantics: {
    overloads: "inherited",
    exports: "top-level",
    packages: "declared",
    starImportsBind: true,
    superCallsConstructor: true,
    instanceNames: ["this"],
    classNames: [],
    classMembersInScope: true,
    callsNameMethods: true,
    thisCallsConstructor: true,
    staticTypes: true,
    blocks: "braces",
  },
  routes: SPRING_ROUTES,
};
