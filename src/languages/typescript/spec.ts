/** TypeScript (.ts, .mts, .cts) and TSX: full depth. */
import type { LanguageSpec } from "../types.ts";
import { QUERIES } from "../queries.gen.ts";
import { JS_PARAMETERS } from "../arity.ts";
import { callbackSite } from "./hooks.ts";
import { classFieldLine } from "./class-fields.ts";
import { JS_BUILTIN_METHODS, JS_GLOBALS } from "./builtins.ts";
import { typescriptResolver } from "./resolve.ts";
import { jsTests } from "./tests.ts";
import { ecmascriptRename } from "./rename.ts";
import { COMMAND_DECORATORS } from "../entry-points.ts";
import { JS_TEST_RUNNERS } from "./tests.ts";
import { ecmascriptDataflow } from "./dataflow.ts";

const base = {
  parameters: JS_PARAMETERS,
  query: QUERIES.typescript,
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
    "public",
    "private",
    "protected",
    "static",
  ],
  commandDecorators: COMMAND_DECORATORS,
  rename: ecmascriptRename,
  dataflow: ecmascriptDataflow,
  routes: {
    // NestJS: `@Get(":id")` on methods of a `@Controller("users")` class.
    classPrefix: [/^@Controller\(\s*(?:(['"`])(?<path>.*?)\1)?/],
    memberDecorators: [/^@(?<verb>Get|Post|Put|Patch|Delete|Head|Options|All)\(\s*(?:(['"`])(?<path>.*?)\2)?/],
    // Express, Hono, Fastify, Koa routers: `router.get("/x", handler)`.
    callVerbs: ["get", "post", "put", "patch", "delete", "head", "options", "all", "any"],
    prefixKeywords: ["prefix", "basePath"],
    mountCalls: ["use", "mount", "route", "register"],
  },
} as const;

export const typescript: LanguageSpec = {
  ...base,
  id: "typescript",
  name: "TypeScript",
  grammar: "tree-sitter-typescript.wasm",
  grammarSource: { build: "typescript" },
  extensions: [".ts", ".mts", ".cts"],
  toolchain: ["typescript", "tsc", "node", "npm", "yarn", "pnpm", "deno", "bun"],
  fence: "ts",
};

export const tsx: LanguageSpec = {
  ...base,
  id: "tsx",
  name: "TSX",
  scipName: "TypeScriptReact",
  grammar: "tree-sitter-tsx.wasm",
  grammarSource: { build: "tsx" },
  extensions: [".tsx"],
  fence: "tsx",
};
