/**
 * PHP (`<?php` files, HTML around them allowed): definitions, `use` imports and literal
 * require/include paths. `#[...]` attribute lists are decorators; a statement namespace
 * (`namespace App\Http;`) spans the file, so its definitions nest under it.
 */
import type { LanguageSpec } from "../types.ts";
import { QUERIES } from "../queries.gen.ts";

export const php: LanguageSpec = {
  id: "php",
  name: "PHP",
  grammar: "tree-sitter-php.wasm",
  extensions: [".php", ".phtml"],
  query: QUERIES.php,
  decoratorTypes: ["attribute_list"],
  wrapperTypes: [],
  commentTypes: ["comment"],
  docStyle: "preceding-comment",
  exportStyle: "public-modifier",
  fullDepth: false,
};
