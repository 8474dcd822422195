/**
 * C (.c, .h): definitions and includes. An include keeps the form it was written in: system
 * headers keep their angle brackets (module `<stdio.h>`), local ones are the quoted path (`util.h`),
 * so a resolver can tell them apart without another field. `typedef struct tag {…} name;` is one
 * definition named `name`.
 */
import type { LanguageSpec } from "../types.ts";
import { QUERIES } from "../queries.gen.ts";

export const c: LanguageSpec = {
  id: "c",
  name: "C",
  grammar: "tree-sitter-c.wasm",
  extensions: [".c", ".h"],
  query: QUERIES.c,
  decoratorTypes: [],
  wrapperTypes: ["declaration", "field_declaration"],
  commentTypes: ["comment"],
  docStyle: "preceding-comment",
  exportStyle: "top-level",
  fullDepth: false,
};
