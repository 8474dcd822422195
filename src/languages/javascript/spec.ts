/** JavaScript (.js, .mjs, .cjs, .jsx): full depth, ESM and CommonJS. */
import { DEFAULT_SEMANTICS, type LanguageSpec } from "../types.ts";
import { QUERIES } from "../queries.gen.ts";
import { JS_PARAMETERS } from "../arity.ts";
import { callbackSite } from "../typescript/hooks.ts";
import { classFieldLine } from "../typescript/class-fields.ts";
import { JS_BUILTIN_METHODS, JS_GLOBALS } from "../typescript/builtins.ts";
import { typescriptResolver } from "../typescript/resolve.ts";
import { jsTests } from "../typescript/tests.ts";
import { ecmascriptRename } from "../typescript/rename.ts";
import { COMMAND_DECORATORS } from "../entry-points.ts";
import { JS_TEST_RUNNERS } from "../typescript/tests.ts";
import { ecmascriptDataflow } from "../typescript/dataflow.ts";

export const javascript: LanguageSpec = {
  id: "javascript",
  name: "JavaScript",
  grammar: "tree-sitter-javascript.wasm",
  grammarSource: { package: "@vscode/tree-sitter-wasm@0.3.1", path: "wasm/tree-sitter-javascript.wasm" },
  extensions: [".js", ".mjs", ".cjs", ".jsx"],
  toolchain: ["node", "nodejs", "npm", "yarn", "pnpm", "deno", "bun", "browser", "chrome", "firefox", "safari"],
  parameters: JS_PARAMETERS,
  query: QUERIES.javascript,
  decoratorTypes: ["decorator"],
  wrapperTypes: ["export_statement", "lexical_declaration", "variable_declaration"],
  commentTypes: ["comment"],
  docStyle: "preceding-comment",
  exportStyle: "export-statement",
  fullDepth: true,
  callbackSite,
  builtinMethods: JS_BUILTIN_METHODS,
  globals: JS_GLOBALS,
  classFieldLine,
  resolver: typescriptResolver,
  fence: "js",
  tests: jsTests,
  testRunners: JS_TEST_RUNNERS,
  testFrameworks: ["jest", "vitest"],
  manifests: { "package.json": /"name"\s*:\s*"([^"]+)"/, "deno.json": /"name"\s*:\s*"([^"]+)"/ },
  constructorNames: ["constructor"],
  keywords: [
    "class",
    "return",
    "import",
    "true",
    "false",
    "null",
    "undefined",
    "let",
    "const",
    "var",
    "function",
    "this",
    "async",
    "await",
    "else",
    "try",
    "throw",
    "catch",
    "finally",
    "break",
    "continue",
    "while",
    "typeof",
    "instanceof",
    "yield",
    "void",
    "static",
  ],
  commandDecorators: COMMAND_DECORATORS,
  fenceByExtension: { ".jsx": "jsx" },
  rename: ecmascriptRename,
  dataflow: ecmascriptDataflow,
  // CommonJS modules export what they assign to module.exports, which the index reads as any top-level definition.
  semantics: { ...DEFAULT_SEMANTICS, exports: "explicit-or-top-level" },
  routes: {
    // NestJS: `@Get(":id")` on methods of a `@Controller("users")` class.
    classPrefix: [/^@Controller\(\s*(?:(['"`])(?<path>.*?)\1)?/],
    memberDecorators: [/^@(?<verb>Get|Post|Put|Patch|Delete|Head|Options|All)\(\s*(?:(['"`])(?<path>.*?)\2)?/],
    // Express, Hono, Fastify, Koa routers: `router.get("/x", handler)`.
    callVerbs: ["get", "post", "put", "patch", "delete", "head", "options", "all", "any"],
    prefixKeywords: ["prefix", "basePath"],
    mountCalls: ["use", "mount", "route", "register"],
  },
};
