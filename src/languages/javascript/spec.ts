/** JavaScript (.js, .mjs, .cjs, .jsx): full depth, ESM and CommonJS. */
import type { LanguageSpec } from "../types.ts";
import { QUERIES } from "../queries.gen.ts";
import { callbackSite } from "../typescript/hooks.ts";
import { JS_BUILTIN_METHODS } from "../typescript/builtins.ts";
import { typescriptResolver } from "../typescript/resolve.ts";

export const javascript: LanguageSpec = {
  id: "javascript",
  name: "JavaScript",
  grammar: "tree-sitter-javascript.wasm",
  extensions: [".js", ".mjs", ".cjs", ".jsx"],
  query: QUERIES.javascript,
  decoratorTypes: ["decorator"],
  wrapperTypes: ["export_statement", "lexical_declaration", "variable_declaration"],
  commentTypes: ["comment"],
  docStyle: "preceding-comment",
  exportStyle: "export-statement",
  fullDepth: true,
  callbackSite,
  builtinMethods: JS_BUILTIN_METHODS,
  resolver: typescriptResolver,
};
