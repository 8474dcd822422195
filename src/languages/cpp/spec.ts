/**
 * C++ (.cc, .cpp, .cxx, .hh, .hpp, .hxx; `.h` is C): definitions and includes. Namespaces are
 * modules; an out-of-line `Foo::bar() {}` is a top-level method named `bar` (no class in its
 * qualified name). Includes keep their form, as in C: `<vector>` or `shapes.hpp`.
 */
import type { LanguageSpec } from "../types.ts";
import { QUERIES } from "../queries.gen.ts";

export const cpp: LanguageSpec = {
  id: "cpp",
  name: "C++",
  scipName: "CPP",
  grammar: "tree-sitter-cpp.wasm",
  extensions: [".cc", ".cpp", ".cxx", ".c++", ".hh", ".hpp", ".hxx", ".h++", ".ipp", ".tpp", ".inl"],
  query: QUERIES.cpp,
  decoratorTypes: [],
  wrapperTypes: ["template_declaration", "declaration", "field_declaration", "linkage_specification", "export_declaration"],
  commentTypes: ["comment"],
  docStyle: "preceding-comment",
  exportStyle: "top-level",
  fullDepth: false,
  fence: "cpp",
};
