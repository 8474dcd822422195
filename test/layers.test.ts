/**
 * The house's arrows point one way (STYLE habit 2), checked on every import of src/:
 *
 *   front ends (cli, mcp, worker, lsp)  →  public API (src/index.ts, src/platform/<host>/index.ts), shared
 *   platform adapters              →  core ports, public API, languages, shared
 *   core                           →  languages, shared
 *   languages                      →  shared
 *   shared                         →  nothing of ours
 *
 * and inside src/core the sub-layers point one way too, lowest first (a file imports its own
 * sub-layer or a lower one, and no files import each other in a cycle, type-only imports included):
 *
 *   base     limits.ts, ports.ts, budget/
 *   input    scan/, parse/, git/
 *   model    extract/, graph/                 the records and the code graph, built
 *   queries  query/, search/, text/           answers over the model (lookup, pages, impact, trace, routes, …)
 *   answers  slice/, changes/, map/, locate/, evidence/, check/, rename/, scip/, grep/, query-language/, dataflow/
 *   engine   engine/                          createEngine and the state it keeps
 *
 * and src/core names no language and no framework: what differs per language lives beside it in
 * src/languages/<id>/. Between front ends, only the CLI reaches into the MCP server and the language
 * server (it starts them), and the engine worker into the language server (it serves it on a port).
 * The checkers also run on deliberately wrong arrows and cycles, so a checker that sees nothing fails.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { LANGUAGES } from "../src/languages/index.ts";
import { stronglyConnected } from "../src/core/check/rules.ts";

const repoRoot = fileURLToPath(new URL("..", import.meta.url));

type Layer = "frontend" | "api" | "platform" | "ports" | "core" | "languages" | "shared" | "generated";

/** The layer of a file under src/ ("src/…", "/"-separated). */
export function layerOf(file: string): Layer {
  if (file === "src/index.ts") return "api";
  if (/^src\/(cli|mcp|worker|lsp)\//.test(file)) return "frontend";
  if (file === "src/core/ports.ts") return "ports";
  if (file.startsWith("src/core/")) return "core";
  if (file.startsWith("src/platform/")) return "platform";
  if (file === "src/languages/queries.gen.ts") return "generated";
  if (file.startsWith("src/languages/")) return "languages";
  if (file.startsWith("src/shared/")) return "shared";
  throw new Error(`no layer for ${file}`);
}

/** Public entry points a front end may import: the API and each platform's documented sub-path. */
const PUBLIC = new Set([
  "src/index.ts",
  "src/platform/node/index.ts",
  "src/platform/deno/index.ts",
  "src/platform/browser/index.ts",
  "src/platform/memory/index.ts",
]);

/** Why an import from `from` to `to` breaks the layering, or undefined when it is allowed. */
export function arrowProblem(from: string, to: string): string | undefined {
  const a = layerOf(from);
  const b = layerOf(to);
  const allowed: Record<Layer, Layer[]> = {
    shared: ["shared"],
    generated: [],
    languages: ["languages", "shared", "generated"],
    ports: ["shared"],
    core: ["core", "ports", "languages", "shared"],
    api: ["core", "ports", "languages", "shared"],
    // Adapters implement the ports; archive and upload readers also use the engine's public skip rules.
    platform: ["platform", "ports", "api", "languages", "shared"],
    frontend: ["frontend"],
  };
  if (a === "frontend") {
    if (b === "frontend")
      return from.split("/")[1] === to.split("/")[1] ||
        (from.startsWith("src/cli/") && (to.startsWith("src/mcp/") || to.startsWith("src/lsp/"))) ||
        (from.startsWith("src/worker/") && to.startsWith("src/lsp/"))
        ? undefined
        : `front end ${from} reaches into another front end ${to}`;
    return PUBLIC.has(to) || b === "shared"
      ? undefined
      : `front end ${from} imports ${to}, which is not the public API (src/index.ts, a platform's index.ts, or the shared leaf)`;
  }
  return allowed[a].includes(b) ? undefined : `${a} ${from} imports ${b} ${to}`;
}

/** The sub-layers of src/core, lowest first, by folder (or top-level file) under src/core/. */
const CORE_TIERS: readonly (readonly [string, readonly string[]])[] = [
  ["base", ["limits.ts", "ports.ts", "budget"]],
  ["input", ["scan", "parse", "git"]],
  ["model", ["extract", "graph"]],
  ["queries", ["query", "search", "text"]],
  [
    "answers",
    ["slice", "changes", "map", "locate", "evidence", "check", "rename", "scip", "grep", "query-language", "dataflow"],
  ],
  ["engine", ["engine"]],
  ["group", ["group"]],
];

/** The sub-layer of a src/core file, as its index in CORE_TIERS. */
export function coreTierOf(file: string): number {
  const first = file.slice("src/core/".length).split("/")[0]!;
  const tier = CORE_TIERS.findIndex(([, parts]) => parts.includes(first));
  if (tier < 0) throw new Error(`no core sub-layer for ${file}: add its folder to CORE_TIERS`);
  return tier;
}

/** Why an import between two src/core files points upward, or undefined when it does not. */
export function coreArrowProblem(from: string, to: string): string | undefined {
  if (!from.startsWith("src/core/") || !to.startsWith("src/core/")) return undefined;
  const a = coreTierOf(from);
  const b = coreTierOf(to);
  return b > a ? `${CORE_TIERS[a]![0]} ${from} imports ${CORE_TIERS[b]![0]} ${to}, a higher core sub-layer` : undefined;
}

/** The import cycles of a file graph (its strongly connected components with more than one file, or a file importing itself), each sorted. */
export function importCycles(edges: ReadonlyMap<string, readonly string[]>): string[][] {
  const next = (v: string) => (edges.get(v) ?? []).filter((w) => edges.has(w));
  return stronglyConnected([...edges.keys()].sort(), next)
    .filter((c) => c.length > 1 || next(c[0]!).includes(c[0]!))
    .map((c) => c.sort())
    .sort((a, b) => (a[0]! < b[0]! ? -1 : 1));
}

/** What is wrong inside src/core for these files and their texts: upward imports, then cycles. */
export function coreProblems(texts: ReadonlyMap<string, string>): string[] {
  const edges = new Map<string, string[]>();
  const problems: string[] = [];
  for (const [file, text] of texts) {
    if (!file.startsWith("src/core/")) continue;
    const to = importsOf(file, text).filter((t) => t.startsWith("src/core/"));
    edges.set(file, to);
    for (const t of to) {
      const problem = coreArrowProblem(file, t);
      if (problem) problems.push(problem);
    }
  }
  for (const cycle of importCycles(edges)) problems.push(`import cycle: ${cycle.join(", ")}`);
  return problems;
}

/** Every relative import of a source file (static, re-export and literal dynamic), resolved to a src/ path. */
function importsOf(file: string, text: string): string[] {
  const out: string[] = [];
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const add = (spec: string) => {
    if (spec.startsWith(".")) out.push(path.posix.normalize(path.posix.join(path.posix.dirname(file), spec)));
  };
  const visit = (node: ts.Node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    )
      add(node.moduleSpecifier.text);
    else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    )
      add(node.arguments[0].text);
    else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    )
      add(node.argument.literal.text);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

function sourceFiles(): string[] {
  return (fs.readdirSync(path.join(repoRoot, "src"), { recursive: true }) as string[])
    .map((f) => `src/${f.split(path.sep).join("/")}`)
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))
    .sort();
}

/** The identifiers and literals of a file (its code without comments: a comment may mention Python, code may not branch on it), and its string literals apart. */
function codeParts(text: string): { code: string; literals: string[] } {
  const sf = ts.createSourceFile("x.ts", text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const parts: string[] = [];
  const literals: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) parts.push(node.text);
    else if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node) || ts.isRegularExpressionLiteral(node))
      parts.push(node.text);
    if (ts.isStringLiteralLike(node)) literals.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return { code: parts.join(" "), literals };
}

/** Frameworks core code must not name (the languages' route and test rules name them). */
const FRAMEWORKS = [
  "fastapi",
  "flask",
  "django",
  "express",
  "nest",
  "nestjs",
  "spring",
  "rails",
  "laravel",
  "koa",
  "hono",
];

/** Every registered language's id and name, and "golang". */
const LANGUAGE_NAMES = [...new Set([...LANGUAGES.flatMap((l) => [l.id, l.name.toLowerCase()]), "golang"])];

/** Escapes a name for a RegExp. */
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\#]/g, "\\$&");

/**
 * Language and framework names core code must not carry as identifiers or strings: the words of
 * three letters or more anywhere, and a short one (`go`, `c`, `c++`) as a whole string literal.
 */
const NAMES = new RegExp(
  `\\b(${[...LANGUAGE_NAMES.filter((n) => /^[a-z]{3,}$/.test(n)), ...FRAMEWORKS].map(escape).join("|")})\\b`,
  "i",
);
const SHORT_NAMES = new Set(LANGUAGE_NAMES.filter((n) => !/^[a-z]{3,}$/.test(n)));

/** The first language or framework name in a file's code, if any. */
function nameIn(text: string): string | undefined {
  const { code, literals } = codeParts(text);
  return NAMES.exec(code)?.[0] ?? literals.find((l) => SHORT_NAMES.has(l.toLowerCase()));
}

describe("layering", () => {
  it("every import in src/ follows the arrows", () => {
    const problems: string[] = [];
    for (const file of sourceFiles()) {
      for (const to of importsOf(file, fs.readFileSync(path.join(repoRoot, file), "utf8"))) {
        const problem = arrowProblem(file, to);
        if (problem) problems.push(problem);
      }
    }
    expect(problems).toEqual([]);
  });

  it("the checker flags wrong arrows", () => {
    expect(arrowProblem("src/core/engine/engine.ts", "src/cli/main.ts")).toMatch(/core .* imports frontend/);
    expect(arrowProblem("src/core/graph/build.ts", "src/platform/node/node-store.ts")).toMatch(
      /core .* imports platform/,
    );
    expect(arrowProblem("src/languages/python/resolve.ts", "src/core/graph/model.ts")).toMatch(
      /languages .* imports core/,
    );
    expect(arrowProblem("src/shared/paths.ts", "src/core/engine/engine.ts")).toMatch(/shared .* imports core/);
    expect(arrowProblem("src/mcp/server.ts", "src/core/engine/engine.ts")).toMatch(/not the public API/);
    expect(arrowProblem("src/mcp/server.ts", "src/cli/main.ts")).toMatch(/another front end/);
    expect(arrowProblem("src/lsp/server.ts", "src/worker/worker-host.ts")).toMatch(/another front end/);
    expect(arrowProblem("src/worker/lsp-host.ts", "src/lsp/browser.ts")).toBeUndefined();
    expect(arrowProblem("src/platform/node/node-store.ts", "src/core/engine/engine.ts")).toMatch(
      /platform .* imports core/,
    );
    expect(arrowProblem("src/platform/browser/index.ts", "src/worker/worker-host.ts")).toMatch(
      /platform .* imports frontend/,
    );
    expect(arrowProblem("src/cli/main.ts", "src/index.ts")).toBeUndefined();
    expect(arrowProblem("src/core/graph/build.ts", "src/languages/index.ts")).toBeUndefined();
    expect(
      importsOf(
        "src/core/x.ts",
        'import a from "./a.ts";\nexport * from "../b/c.ts";\nconst m = await import("../cli/main.ts");\ntype T = import("./t.ts").T;',
      ),
    ).toEqual(["src/core/a.ts", "src/b/c.ts", "src/cli/main.ts", "src/core/t.ts"]);
  });

  it("src/core's sub-layers point one way, with no import cycle (type-only imports included)", () => {
    const texts = new Map(
      sourceFiles()
        .filter((f) => f.startsWith("src/core/"))
        .map((f) => [f, fs.readFileSync(path.join(repoRoot, f), "utf8")] as const),
    );
    expect(texts.size).toBeGreaterThan(100);
    expect(coreProblems(texts)).toEqual([]);
  });

  it("the core checker flags an upward import and a cycle, type-only ones too", () => {
    expect(coreArrowProblem("src/core/graph/build.ts", "src/core/query/lookup.ts")).toMatch(
      /^model .* imports queries .*higher/,
    );
    expect(coreArrowProblem("src/core/map/repo-map.ts", "src/core/engine/snapshot.ts")).toMatch(
      /^answers .* imports engine/,
    );
    expect(coreArrowProblem("src/core/query/impact.ts", "src/core/slice/plan.ts")).toMatch(
      /^queries .* imports answers/,
    );
    expect(coreArrowProblem("src/core/engine/engine.ts", "src/core/graph/model.ts")).toBeUndefined();
    expect(coreArrowProblem("src/core/slice/plan.ts", "src/core/locate/locate.ts")).toBeUndefined();
    expect(() => coreTierOf("src/core/newthing/x.ts")).toThrow(/CORE_TIERS/);
    expect(
      importCycles(
        new Map([
          ["a", ["b"]],
          ["b", ["c"]],
          ["c", ["a"]],
          ["d", ["a"]],
          ["e", ["e"]],
        ]),
      ),
    ).toEqual([["a", "b", "c"], ["e"]]);
    // The real files plus one deliberately bad file: a model file reaching up to a query, and a
    // type-only import back from the query it imports.
    const texts = new Map(
      sourceFiles()
        .filter((f) => f.startsWith("src/core/"))
        .map((f) => [f, fs.readFileSync(path.join(repoRoot, f), "utf8")] as const),
    );
    texts.set(
      "src/core/graph/bad.ts",
      'import { findSymbol } from "../query/lookup.ts";\nexport const x = findSymbol;\n',
    );
    texts.set(
      "src/core/query/lookup.ts",
      `${texts.get("src/core/query/lookup.ts")}\nexport type Bad = import("../graph/bad.ts").Bad;\n`,
    );
    expect(coreProblems(texts)).toEqual([
      "model src/core/graph/bad.ts imports queries src/core/query/lookup.ts, a higher core sub-layer",
      "import cycle: src/core/graph/bad.ts, src/core/query/lookup.ts",
    ]);
  });

  it("src/core names no language and no framework in its code", () => {
    const hits: string[] = [];
    for (const file of sourceFiles().filter((f) => f.startsWith("src/core/"))) {
      const name = nameIn(fs.readFileSync(path.join(repoRoot, file), "utf8"));
      if (name) hits.push(`${file}: ${name}`);
    }
    expect(hits).toEqual([]);
    expect(nameIn('if (record.language === "python") x(); // Python only')).toBe("python");
    expect(nameIn("// what Python calls a module\nconst x = 1;")).toBeUndefined();
    // Built from the registry: Kotlin, C, C++ and Go are caught too, a short name only as a whole string.
    expect(nameIn('const k = spec.id === "kotlin";')).toBe("kotlin");
    expect(nameIn('if (lang === "go") x();')).toBe("go");
    expect(nameIn('if (lang === "c") x();')).toBe("c");
    expect(nameIn('const native = ["cpp"];')).toBe("cpp");
    expect(nameIn('const name = "C++";')).toBe("C++");
    expect(nameIn("const go = (c: number) => c + 1;")).toBeUndefined();
  });
});
