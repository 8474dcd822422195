/**
 * C#: definitions and using directives. `[Attribute]` lists are decorators; a file-scoped
 * namespace spans the whole file, so the file's types nest under it like a block namespace.
 */
import type { LanguageSpec } from "../types.ts";
import { QUERIES } from "../queries.gen.ts";

export const csharp: LanguageSpec = {
  id: "csharp",
  name: "C#",
  grammar: "tree-sitter-c-sharp.wasm",
  extensions: [".cs"],
  query: QUERIES.csharp,
  decoratorTypes: ["attribute_list"],
  wrapperTypes: [],
  commentTypes: ["comment"],
  docStyle: "preceding-comment",
  exportStyle: "public-modifier",
  fullDepth: false,
  fence: "csharp",
};
