/**
 * Java: definitions and imports. Annotations sit inside a `modifiers` node, not beside the
 * definition, so none are collected as decorators yet.
 */
import type { LanguageSpec } from "../types.ts";
import { QUERIES } from "../queries.gen.ts";
import { javaTests } from "./tests.ts";

export const java: LanguageSpec = {
  id: "java",
  name: "Java",
  grammar: "tree-sitter-java.wasm",
  extensions: [".java"],
  query: QUERIES.java,
  decoratorTypes: ["annotation", "marker_annotation"],
  decoratorContainers: ["modifiers"],
  wrapperTypes: [],
  commentTypes: ["line_comment", "block_comment"],
  docStyle: "preceding-comment",
  exportStyle: "public-modifier",
  fullDepth: false,
  tests: javaTests,
  routes: {
    // Spring: `@GetMapping("/x")`, `@RequestMapping(value = "/x", method = RequestMethod.POST)` under a class-level `@RequestMapping("/api")`.
    classPrefix: [/^@RequestMapping(?:\(\s*(?:(?:value|path)\s*=\s*)?\{?\s*"(?<path>[^"]*)"[^)]*\))?/],
    memberDecorators: [/^@(?<verb>Get|Post|Put|Patch|Delete|Request)Mapping(?:\(\s*(?:(?:value|path)\s*=\s*)?\{?\s*"(?<path>[^"]*)"[^)]*\))?/],
  },
};
