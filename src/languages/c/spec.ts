/**
 * C (.c, .h): full depth. `#include` brings a header's names into the file, transitively (a star
 * import, resolved beside the file, then through the include folders of a compile_commands.json or
 * the project paths the include ends with; see resolve.ts); system headers keep their angle
 * brackets (`<stdio.h>`) and are outside the project. Functions not declared `static` link across
 * files: a call to a function a header declares goes to its definition in whichever `.c` file has
 * it, the one paired with an included header when several do. Function-like macros are callable
 * definitions. `typedef struct tag {…} name;` is one definition named `name`. A call through a
 * struct field (`p->fn()`) is a function pointer: never linked by name.
 */
import type { LanguageSpec } from "../types.ts";
import { QUERIES } from "../queries.gen.ts";
import { blankExportMacros, includeResolver } from "./resolve.ts";

export const c: LanguageSpec = {
  id: "c",
  name: "C",
  grammar: "tree-sitter-c.wasm",
  grammarSource: { package: "tree-sitter-c@0.24.1", path: "tree-sitter-c.wasm" },
  extensions: [".c", ".h"],
  toolchain: ["gcc", "clang", "cc", "make", "cmake"],
  query: QUERIES.c,
  decoratorTypes: [],
  wrapperTypes: ["declaration", "field_declaration"],
  commentTypes: ["comment"],
  docStyle: "preceding-comment",
  exportStyle: "storage-class",
  fullDepth: true,
  keywords: ["return", "const", "void", "static", "else", "break", "continue", "while"],
  resolver: includeResolver,
  sourceForParse: blankExportMacros,
  semantics: {
    exports: "top-level",
    starImportsBind: true,
    superCallsConstructor: false,
    instanceNames: [],
    classNames: [],
    staticTypes: true,
    linkage: true,
    pointerSubscripts: true,
    blocks: "braces",
  },
};
