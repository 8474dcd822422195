/**
 * Rust: full depth. `impl` blocks are not definitions: their functions are methods qualified by
 * the implementing type (`Parser.parse`) and attached to it wherever it is defined (resolved from
 * the block's scope), and `impl Trait for Type` makes the trait a base of the type (so its default
 * methods are the type's). Modules are files under a crate root (`crate::a::b` is `src/a/b.rs`) or
 * inline `mod` blocks; `use` trees bind one name per leaf, nested ones joined into one path; `self::`,
 * `super::` and `crate::` paths resolve like imports; `self` is the instance, `Self` the type.
 * Calling a type (a tuple struct) constructs without running code: no edge. `#[...]` attribute
 * items before a definition are its decorators.
 */
import type { LanguageSpec } from "../types.ts";
import { QUERIES } from "../queries.gen.ts";
import { rustResolver } from "./resolve.ts";
import { rustTests } from "./tests.ts";

export const rust: LanguageSpec = {
  id: "rust",
  name: "Rust",
  grammar: "tree-sitter-rust.wasm",
  grammarSource: { package: "@vscode/tree-sitter-wasm@0.3.1", path: "wasm/tree-sitter-rust.wasm" },
  extensions: [".rs"],
  toolchain: ["rustc", "cargo", "rustup"],
  query: QUERIES.rust,
  decoratorTypes: ["attribute_item"],
  wrapperTypes: [],
  commentTypes: ["line_comment", "block_comment"],
  docStyle: "preceding-comment",
  exportStyle: "public-modifier",
  fullDepth: true,
  importPathJoin: "::",
  fieldTerminator: ",",
  resolver: rustResolver,
  tests: rustTests,
  testRunners: [{ name: "cargo test", matches: (a) => a[0] === "cargo" && a[1] === "test" }],
  manifests: { "Cargo.toml": /^\s*name\s*=\s*"([^"]+)"/m },
  constructorNames: ["new"],
  keywords: [
    "fn",
    "return",
    "true",
    "false",
    "let",
    "const",
    "self",
    "else",
    "break",
    "continue",
    "while",
    "async",
    "await",
    "static",
  ],
  semantics: {
    exports: "top-level",
    starImportsBind: true,
    superCallsConstructor: false,
    instanceNames: ["self"],
    classNames: ["Self"],
    pathRoots: ["crate", "self", "super"],
    typeCallsConvert: true,
    staticTypes: true,
    blocks: "braces",
  },
};
