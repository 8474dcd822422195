/**
 * Go: full depth. Methods are top-level, qualified by their receiver type (`Mux.Use`) and attached
 * to it as members; a package is a folder whose files share their top-level names; import paths
 * resolve through go.mod; embedded fields are bases; interfaces are satisfied by method sets. A name
 * is exported when it is capitalized. Import aliases `.` and `_` become "star" and "side-effect"
 * imports.
 */
import type { LanguageSpec } from "../types.ts";
import { QUERIES } from "../queries.gen.ts";
import { goResolver } from "./resolve.ts";
import { goTests } from "./tests.ts";

export const go: LanguageSpec = {
  id: "go",
  name: "Go",
  grammar: "tree-sitter-go.wasm",
  grammarSource: { package: "@vscode/tree-sitter-wasm@0.3.1", path: "wasm/tree-sitter-go.wasm" },
  extensions: [".go"],
  toolchain: ["go"],
  query: QUERIES.go,
  decoratorTypes: [],
  wrapperTypes: [],
  commentTypes: ["comment"],
  docStyle: "preceding-comment",
  exportStyle: "capitalized",
  fullDepth: true,
  resolver: goResolver,
  tests: goTests,
  testRunners: [{ name: "go test", matches: (a) => a[0] === "go" && a[1] === "test" }],
  manifests: { "go.mod": /^module\s+(\S+)/m },
  keywords: ["func", "return", "import", "true", "false", "nil", "var", "const", "else", "break", "continue"],
  semantics: {
    exports: "explicit",
    packages: "folder",
    starImportsBind: true,
    superCallsConstructor: false,
    instanceNames: [],
    classNames: [],
    typeCallsConvert: true,
    allocators: ["new"],
    staticTypes: true,
    structuralInterfaces: true,
    blocks: "braces",
  },
};
