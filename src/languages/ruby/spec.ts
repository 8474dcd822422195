/** Ruby: definitions and requires (`require`, `require_relative`, `load` with a literal path). */
import type { LanguageSpec } from "../types.ts";
import { QUERIES } from "../queries.gen.ts";

export const ruby: LanguageSpec = {
  id: "ruby",
  name: "Ruby",
  grammar: "tree-sitter-ruby.wasm",
  extensions: [".rb", ".rake", ".gemspec", ".ru"],
  query: QUERIES.ruby,
  decoratorTypes: [],
  wrapperTypes: [],
  commentTypes: ["comment"],
  docStyle: "preceding-comment",
  exportStyle: "top-level",
  fullDepth: false,
};
