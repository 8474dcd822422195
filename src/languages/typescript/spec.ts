/** TypeScript (.ts, .mts, .cts) and TSX: full depth. */
import type { LanguageSpec } from "../types.ts";
import { QUERIES } from "../queries.gen.ts";
import { callbackSite } from "./hooks.ts";
import { JS_BUILTIN_METHODS } from "./builtins.ts";
import { typescriptResolver } from "./resolve.ts";

const base = {
  query: QUERIES.typescript,
  decoratorTypes: ["decorator"],
  wrapperTypes: ["export_statement", "lexical_declaration", "variable_declaration"],
  commentTypes: ["comment"],
  docStyle: "preceding-comment",
  exportStyle: "export-statement",
  fullDepth: true,
  callbackSite,
  builtinMethods: JS_BUILTIN_METHODS,
  resolver: typescriptResolver,
} as const;

export const typescript: LanguageSpec = {
  ...base,
  id: "typescript",
  name: "TypeScript",
  grammar: "tree-sitter-typescript.wasm",
  extensions: [".ts", ".mts", ".cts"],
};

export const tsx: LanguageSpec = {
  ...base,
  id: "tsx",
  name: "TSX",
  grammar: "tree-sitter-tsx.wasm",
  extensions: [".tsx"],
};
