/**
 * Rust: definitions and imports. `impl` blocks are not definitions (their functions are methods
 * with plain names); `#[...]` attribute items before a definition are its decorators. `use` lists
 * yield one import per leaf; below the first level of nesting the module is the outermost path.
 */
import type { LanguageSpec } from "../types.ts";
import { QUERIES } from "../queries.gen.ts";
import { rustTests } from "./tests.ts";

export const rust: LanguageSpec = {
  id: "rust",
  name: "Rust",
  grammar: "tree-sitter-rust.wasm",
  extensions: [".rs"],
  query: QUERIES.rust,
  decoratorTypes: ["attribute_item"],
  wrapperTypes: [],
  commentTypes: ["line_comment", "block_comment"],
  docStyle: "preceding-comment",
  exportStyle: "public-modifier",
  fullDepth: false,
  tests: rustTests,
};
