/** Python: full depth (definitions, calls, types, imports, bindings). */
import type { LanguageSpec } from "../types.ts";
import { QUERIES } from "../queries.gen.ts";
import { PYTHON_BUILTIN_METHODS } from "./builtins.ts";
import { pythonResolver } from "./resolve.ts";

export const python: LanguageSpec = {
  id: "python",
  name: "Python",
  grammar: "tree-sitter-python.wasm",
  extensions: [".py", ".pyi"],
  query: QUERIES.python,
  decoratorTypes: ["decorator"],
  wrapperTypes: ["decorated_definition"],
  commentTypes: ["comment"],
  docStyle: "body-string",
  exportStyle: "underscore-private",
  fullDepth: true,
  builtinMethods: PYTHON_BUILTIN_METHODS,
  resolver: pythonResolver,
};
