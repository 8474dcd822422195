/**
 * PHP (`<?php` files, HTML around them allowed): full depth. `#[...]` attribute lists are
 * decorators; a statement namespace (`namespace App\Http;`) governs the code after it up to the
 * next one, so the definitions there nest under it. Namespaces are packages: their classes,
 * interfaces, traits, enums and functions are visible in every file of the namespace; names
 * written with `\` resolve by PHP's rules (absolute, through a `use` alias, or relative to the
 * namespace), a `use` binding comes before the namespace's own names, and an unqualified function
 * no namespace has is the global one. `use` imports resolve to files through the PSR-4 roots and
 * `files` of composer.json (resolve.ts). `$this`, `self::`/`static::` (the enclosing class) and
 * `parent::` (its base) follow the class hierarchy, used traits included; parameter, property and
 * return types and `$x = new X` / `$x = call()` type receivers; properties and methods are apart.
 */
import type { LanguageSpec } from "../types.ts";
import { QUERIES } from "../queries.gen.ts";
import { phpResolver } from "./resolve.ts";

export const php: LanguageSpec = {
  id: "php",
  name: "PHP",
  grammar: "tree-sitter-php.wasm",
  grammarSource: { package: "@vscode/tree-sitter-wasm@0.3.1", path: "wasm/tree-sitter-php.wasm" },
  extensions: [".php", ".phtml"],
  toolchain: ["php", "composer"],
  query: QUERIES.php,
  decoratorTypes: ["attribute_list"],
  wrapperTypes: [],
  commentTypes: ["comment"],
  docStyle: "preceding-comment",
  exportStyle: "public-modifier",
  fullDepth: true,
  testRunners: [{ name: "phpunit", matches: (a) => /^(\.\/)?(vendor\/bin\/)?phpunit$/.test(a[0] ?? "") }],
  manifests: { "composer.json": /"name"\s*:\s*"([^"]+)"/ },
  constructorNames: ["__construct"],
  keywords: [
    "class",
    "return",
    "function",
    "true",
    "false",
    "null",
    "this",
    "const",
    "static",
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
    "final",
  ],
  importPathJoin: "\\",
  resolver: phpResolver,
  semantics: {
    exports: "top-level",
    packages: "namespaces",
    namespaceSeparator: "\\",
    arrowMembers: true,
    fieldsApart: true,
    globalNamespace: true,
    superCallsConstructor: true,
    superName: "parent",
    instanceNames: ["$this"],
    classNames: ["self", "static"],
    blocks: "braces",
  },
};
