/**
 * C++ (.cc, .cpp, .cxx, .hh, .hpp, .hxx; `.h` too in a project with more C++ sources than C ones):
 * full depth. Includes, linkage and macros as in C (../c/resolve.ts). Namespaces are modules; an
 * out-of-line `Foo::bar() {}` is a method named `Foo.bar` in the file that defines it, and inside it
 * the class's members are in scope as in the class body. Calls `f()`, `ns::f()`, `obj.m()`,
 * `p->m()`, `this->m()`, `Class::m()`: receivers typed by their declarations (locals, parameters,
 * fields), members found through base classes. Overloads of a method are told apart by argument
 * count (default values give a range, `...` any count); a class declaring the name hides its bases'.
 */
import type { LanguageSpec } from "../types.ts";
import { QUERIES } from "../queries.gen.ts";
import { parameterRange, type ParameterStyle } from "../arity.ts";
import { blankExportMacros, includeResolver } from "../c/resolve.ts";

const CPP_PARAMETERS: ParameterStyle = { variadic: /\.\.\./, defaults: true, voidList: true };

export const cpp: LanguageSpec = {
  id: "cpp",
  name: "C++",
  scipName: "CPP",
  grammar: "tree-sitter-cpp.wasm",
  grammarSource: { package: "@vscode/tree-sitter-wasm@0.3.1", path: "wasm/tree-sitter-cpp.wasm" },
  extensions: [".cc", ".cpp", ".cxx", ".c++", ".hh", ".hpp", ".hxx", ".h++", ".ipp", ".tpp", ".inl"],
  toolchain: ["g++", "clang++", "msvc", "cmake"],
  sharedExtensions: [".h"],
  query: QUERIES.cpp,
  decoratorTypes: [],
  wrapperTypes: [
    "template_declaration",
    "declaration",
    "field_declaration",
    "linkage_specification",
    "export_declaration",
  ],
  commentTypes: ["comment"],
  docStyle: "preceding-comment",
  exportStyle: "storage-class",
  fullDepth: true,
  keywords: [
    "class",
    "return",
    "const",
    "void",
    "static",
    "this",
    "true",
    "false",
    "else",
    "try",
    "throw",
    "catch",
    "break",
    "continue",
    "while",
    "public",
    "private",
    "protected",
    "final",
  ],
  fence: "cpp",
  resolver: includeResolver,
  sourceForParse: blankExportMacros,
  arity: (signature, name) => parameterRange(signature, name, CPP_PARAMETERS),
  semantics: {
    overloads: "hidden",
    exports: "top-level",
    packages: "namespaces",
    starImportsBind: true,
    superCallsConstructor: false,
    instanceNames: ["this"],
    classNames: [],
    classMembersInScope: true,
    callsNameMethods: false,
    staticTypes: true,
    linkage: true,
    pointerSubscripts: true,
    // `T(x)` builds a temporary or converts; constructions are not call edges (as in the clang gold)
    typeCallsConvert: true,
    blocks: "braces",
  },
};
