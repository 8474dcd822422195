/**
 * Go: definitions and imports. Methods are top-level (kind "method", plain name); a type is
 * exported when its name is capitalized. Import aliases `.` and `_` become "star" and
 * "side-effect" imports.
 */
import type { LanguageSpec } from "../types.ts";
import { QUERIES } from "../queries.gen.ts";
import { goTests } from "./tests.ts";

export const go: LanguageSpec = {
  id: "go",
  name: "Go",
  grammar: "tree-sitter-go.wasm",
  extensions: [".go"],
  query: QUERIES.go,
  decoratorTypes: [],
  wrapperTypes: [],
  commentTypes: ["comment"],
  docStyle: "preceding-comment",
  exportStyle: "capitalized",
  fullDepth: false,
  tests: goTests,
};
