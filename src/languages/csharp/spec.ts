/**
 * C#: full depth. `[Attribute]` lists are decorators; a file-scoped namespace spans the whole file,
 * so the file's types nest under it like a block namespace. Namespaces are packages (their types
 * are visible in every file of the namespace and through `using`), a partial class is one type
 * over its files, class members are in scope in methods, `this`/`base` and `: this(…)`/`: base(…)`.
 * Overloads are told apart by argument count (optional parameters give a range, `params` any
 * count). Extension methods (`static R M(this T x)`) are members of T's values where their
 * namespace is in scope.
 */
import type { LanguageSpec } from "../types.ts";
import { QUERIES } from "../queries.gen.ts";
import { parameterRange, type ParameterStyle } from "../arity.ts";
import { blankInactiveBranches } from "./preprocess.ts";
import { csharpDocText } from "./doc-comments.ts";

const CSHARP_PARAMETERS: ParameterStyle = { variadic: /^(\[[^\]]*\]\s*)*params\s/, defaults: true, thisReceiver: true };

export const csharp: LanguageSpec = {
  id: "csharp",
  name: "C#",
  scipName: "CSharp",
  grammar: "tree-sitter-c-sharp.wasm",
  grammarSource: { package: "tree-sitter-c-sharp@0.23.5", path: "tree-sitter-c_sharp.wasm" },
  extensions: [".cs"],
  toolchain: ["dotnet", "msbuild", "nuget"],
  query: QUERIES.csharp,
  decoratorTypes: ["attribute_list"],
  wrapperTypes: [],
  commentTypes: ["comment"],
  docStyle: "preceding-comment",
  exportStyle: "public-modifier",
  fullDepth: true,
  sourceForParse: blankInactiveBranches,
  docText: csharpDocText,
  testRunners: [{ name: "dotnet test", matches: (a) => a[0] === "dotnet" && a[1] === "test" }],
  manifests: { "*.csproj": undefined },
  keywords: [
    "class",
    "return",
    "true",
    "false",
    "null",
    "var",
    "const",
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
    "void",
    "public",
    "private",
    "protected",
    "static",
  ],
  fence: "csharp",
  typeNamePattern:
    /^(?:[A-Z]\w*|bool|byte|char|decimal|double|float|int|long|object|sbyte|short|string|uint|ulong|ushort)$/,
  extensionReceiver: /\(\s*(?:\[[^\]]*\]\s*)?this\s+([\w.]+(?:<[^()]*?>)?\??)\s+@?\w+\s*[,)=]/,
  arity: (signature, name) => parameterRange(signature, name, CSHARP_PARAMETERS),
  semantics: {
    overloads: "inherited",
    exports: "top-level",
    packages: "namespaces",
    starImportsBind: true,
    superCallsConstructor: true,
    superName: "base",
    instanceNames: ["this"],
    classNames: [],
    classMembersInScope: true,
    thisCallsConstructor: true,
    staticTypes: true,
    blocks: "braces",
  },
};
