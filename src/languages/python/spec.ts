/** Python: full depth (definitions, calls, types, imports, bindings). */
import type { LanguageSpec } from "../types.ts";
import { QUERIES } from "../queries.gen.ts";
import { PYTHON_PARAMETERS } from "../arity.ts";
import { PYTHON_BUILTIN_METHODS } from "./builtins.ts";
import { pythonResolver } from "./resolve.ts";
import { pythonTests } from "./tests.ts";
import { pythonRename } from "./rename.ts";
import { COMMAND_DECORATORS } from "../entry-points.ts";
import { pythonDataflow } from "./dataflow.ts";

export const python: LanguageSpec = {
  id: "python",
  name: "Python",
  grammar: "tree-sitter-python.wasm",
  grammarSource: { package: "@vscode/tree-sitter-wasm@0.3.1", path: "wasm/tree-sitter-python.wasm" },
  extensions: [".py", ".pyi"],
  toolchain: ["python", "python3", "cpython", "pypy", "pip", "conda", "poetry", "uv"],
  parameters: PYTHON_PARAMETERS,
  query: QUERIES.python,
  decoratorTypes: ["decorator"],
  wrapperTypes: ["decorated_definition"],
  commentTypes: ["comment"],
  docStyle: "body-string",
  exportStyle: "underscore-private",
  fullDepth: true,
  builtinMethods: PYTHON_BUILTIN_METHODS,
  resolver: pythonResolver,
  fence: "python",
  tests: pythonTests,
  testFrameworks: ["pytest", "unittest"],
  testRunners: [
    {
      name: "pytest",
      matches: (a) => a[0] === "pytest" || (/^python3?$/.test(a[0] ?? "") && a[1] === "-m" && a[2] === "pytest"),
    },
  ],
  manifests: {
    "pyproject.toml": /^\s*name\s*=\s*["']([^"']+)["']/m,
    "setup.py": /name\s*=\s*["']([^"']+)["']/,
    "setup.cfg": /^\s*name\s*=\s*(\S+)/m,
  },
  constructorNames: ["__init__"],
  keywords: [
    "def",
    "class",
    "return",
    "self",
    "cls",
    "import",
    "pass",
    "none",
    "true",
    "false",
    "async",
    "await",
    "elif",
    "else",
    "try",
    "except",
    "finally",
    "raise",
    "break",
    "continue",
    "while",
    "lambda",
    "yield",
  ],
  commandDecorators: COMMAND_DECORATORS,
  commandFiles: { path: /(^|\/)management\/commands\/[^/]+\.py$/, method: "handle" },
  rename: pythonRename,
  dataflow: pythonDataflow,
  semantics: {
    exports: "top-level",
    laterBindingWins: true,
    starImportsBind: true,
    superCallsConstructor: false,
    instanceNames: ["self", "this"],
    classNames: ["cls"],
    classFunctionsAreMethods: true,
    classBodyRunsOnce: true,
    blocks: "indent",
  },
  routes: {
    // FastAPI, Flask, Starlette-style: `@app.get("/x")`, `@router.post(path="/x")`, `@bp.route("/x",
    // methods=["POST"])`.
    decorators: [
      new RegExp(
        String.raw`^@(?<owner>[\w.]+)\.(?<verb>get|post|put|patch|delete|head|options|route|api_route|` +
          String.raw`websocket|all)\(\s*(?:path\s*=\s*|rule\s*=\s*)?[rbuf]?(['"\x60])(?<path>.*?)\3(?<rest>.*)$`,
        "i",
      ),
    ],
    prefixKeywords: ["prefix", "url_prefix", "base_path"],
    mountCalls: ["include_router", "register_blueprint", "mount", "register", "add_router"],
  },
};
