/**
 * Ruby: full depth. Classes and modules are open: one opened in several files (or as `class A::B`)
 * is one, reached by its constant path from anywhere once loaded, and a module holds methods and is
 * mixed into classes (`include`, `prepend`, `extend` are bases). Inside a method a bare name is a
 * method of `self` (its class, mixins and superclasses) unless it is a local variable; constants
 * resolve through the lexical nesting, then from the top. `K.new` constructs K, `super` calls the
 * method of the same name in the bases. Requires resolve beside the file and on a `lib/`, `test/`,
 * `spec/` load path.
 */
import type { LanguageSpec } from "../types.ts";
import { QUERIES } from "../queries.gen.ts";
import { rubyHomeFile, rubyResolver } from "./resolve.ts";
import { RUBY_BUILTIN_METHODS } from "./builtins.ts";

export const ruby: LanguageSpec = {
  id: "ruby",
  name: "Ruby",
  grammar: "tree-sitter-ruby.wasm",
  grammarSource: { package: "@vscode/tree-sitter-wasm@0.3.1", path: "wasm/tree-sitter-ruby.wasm" },
  extensions: [".rb", ".rake", ".gemspec", ".ru", ".thor"],
  toolchain: ["ruby", "gem", "bundler", "rails"],
  query: QUERIES.ruby,
  decoratorTypes: [],
  wrapperTypes: [],
  commentTypes: ["comment"],
  docStyle: "preceding-comment",
  exportStyle: "top-level",
  fullDepth: true,
  testRunners: [
    { name: "rspec", matches: (a) => a[0] === "rspec" || (a[0] === "bundle" && a[1] === "exec" && a[2] === "rspec") },
  ],
  manifests: { Gemfile: undefined },
  constructorNames: ["initialize", "new"],
  keywords: [
    "def",
    "class",
    "return",
    "self",
    "nil",
    "true",
    "false",
    "else",
    "raise",
    "break",
    "while",
    "yield",
    "lambda",
  ],
  resolver: rubyResolver,
  homeFile: rubyHomeFile,
  staticMemberSeparator: "::",
  builtinMethods: RUBY_BUILTIN_METHODS,
  semantics: {
    exports: "top-level",
    packages: "namespaces",
    openModules: true,
    superCallsConstructor: false,
    superCallsSameMethod: true,
    instanceNames: ["self"],
    classNames: [],
    classMembersInScope: true,
    fieldSigil: "@",
    namedMethodsAreCalled: true,
    classOfInstance: "class",
    constructorMethod: "new",
    stringClass: "String",
    blocks: "braces",
  },
};
