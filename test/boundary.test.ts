/**
 * The core stays pure (STYLE habit 2: enforce the boundary, don't just promise it):
 * - bundled for the browser with esbuild, no module under src/core or src/languages imports a
 *   `node:` module (or a bare Node builtin) or anything from a platform adapter or front end;
 * - their source uses no runtime-specific global (found in the syntax tree, so comments and strings
 *   don't count);
 * - the per-folder tsconfig (no Node types, WebWorker lib) type-checks.
 * Each checker is also run on a deliberately bad tree, so a checker that sees nothing fails.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import { builtinModules } from "node:module";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { build, type Metafile, type Plugin } from "esbuild";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";

const repoRoot = fileURLToPath(new URL("..", import.meta.url));
const PURE = ["src/core/", "src/languages/", "src/shared/"];
/** Pure modules among the adapters: the packed store the disk and OPFS stores both adapt, and its format. */
const PURE_FILES = ["src/platform/pack-store.ts", "src/platform/store-pack.ts"];
const FORBIDDEN_TARGETS = [
  "src/platform/node/",
  "src/platform/deno/",
  "src/platform/browser/",
  "src/platform/memory/",
  "src/cli/",
  "src/mcp/",
  "src/worker/",
  "src/playground/",
];
const BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) fs.rmSync(t, { recursive: true, force: true });
});

/** Every .ts file under `dir` (relative to `root`, "/"-separated), declaration files excluded. */
function tsFiles(root: string, dir: string): string[] {
  const full = path.join(root, dir);
  if (!fs.existsSync(full)) return [];
  return (fs.readdirSync(full, { recursive: true }) as string[])
    .map((f) => `${dir}/${f.split(path.sep).join("/")}`)
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))
    .sort();
}

/** Marks Node builtins external so the bundle completes and the metafile shows who imports them. */
const builtinsExternal: Plugin = {
  name: "builtins-external",
  setup(b) {
    b.onResolve({ filter: /.*/ }, (args) =>
      BUILTINS.has(args.path) || args.path.startsWith("node:") ? { path: args.path, external: true } : undefined,
    );
  },
};

/** Bundles `entries` (relative to `root`) for the browser; returns the import graph. */
async function importGraph(root: string, entries: string[]): Promise<Metafile> {
  const result = await build({
    absWorkingDir: root,
    entryPoints: entries,
    bundle: true,
    platform: "browser",
    format: "esm",
    write: false,
    metafile: true,
    outdir: "out",
    logLevel: "silent",
    plugins: [builtinsExternal],
  });
  return result.metafile;
}

/** The forbidden arrows in an import graph: "<importer> -> <import>". */
function forbiddenImports(meta: Metafile): string[] {
  const bad: string[] = [];
  for (const [file, input] of Object.entries(meta.inputs)) {
    if (!PURE.some((p) => file.startsWith(p)) && !PURE_FILES.includes(file)) continue;
    for (const imp of input.imports) {
      const isBuiltin = imp.external && (imp.path.startsWith("node:") || BUILTINS.has(imp.path));
      const isAdapter = FORBIDDEN_TARGETS.some((t) => imp.path.startsWith(t));
      if (isBuiltin || isAdapter) bad.push(`${file} -> ${imp.original ?? imp.path}`);
    }
  }
  return bad.sort();
}

const FORBIDDEN_OBJECTS = new Set(["process", "Deno", "Buffer", "window", "document", "navigator", "global"]);
const FORBIDDEN_NAMES = new Set(["__dirname", "__filename"]);

/**
 * Uses of runtime-specific globals in one source file, found in its syntax tree: `process.x`,
 * `Deno.x`, `Buffer.x`, `window.x`, `document.x`, `require(...)`, `__dirname`, and the same through
 * `globalThis.`. Property names (`a.process`), declarations and object keys are not uses.
 */
function forbiddenGlobals(fileName: string, text: string): string[] {
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const hits: string[] = [];
  const at = (node: ts.Node) => `${fileName}:${sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1}`;
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node)) {
      const parent = node.parent;
      const name = node.text;
      const isPropertyName =
        (ts.isPropertyAccessExpression(parent) && parent.name === node) ||
        ((ts.isPropertyAssignment(parent) ||
          ts.isMethodDeclaration(parent) ||
          ts.isPropertyDeclaration(parent) ||
          ts.isPropertySignature(parent) ||
          ts.isMethodSignature(parent)) &&
          parent.name === node);
      if (!isPropertyName) {
        if (
          FORBIDDEN_OBJECTS.has(name) &&
          ((ts.isPropertyAccessExpression(parent) && parent.expression === node) ||
            (ts.isElementAccessExpression(parent) && parent.expression === node))
        ) {
          hits.push(`${at(node)} ${name}.`);
        }
        if (name === "require" && ts.isCallExpression(parent) && parent.expression === node)
          hits.push(`${at(node)} require(`);
        if (FORBIDDEN_NAMES.has(name)) hits.push(`${at(node)} ${name}`);
      }
      if (
        name === "globalThis" &&
        ts.isPropertyAccessExpression(parent) &&
        parent.expression === node &&
        (FORBIDDEN_OBJECTS.has(parent.name.text) || parent.name.text === "require")
      ) {
        hits.push(`${at(node)} globalThis.${parent.name.text}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return hits;
}

describe("the pure core's import graph", () => {
  it("bundles for the browser with no Node builtin, adapter or front end under src/core, src/languages or the packed store", async () => {
    const entries = ["src/index.ts", ...PURE.flatMap((p) => tsFiles(repoRoot, p.slice(0, -1))), ...PURE_FILES];
    expect(entries.length).toBeGreaterThan(10);
    const meta = await importGraph(repoRoot, entries);
    expect(Object.keys(meta.inputs).filter((f) => f.startsWith("src/core/")).length).toBeGreaterThan(5);
    expect(forbiddenImports(meta)).toEqual([]);
  });

  it("src/index.ts pulls in no adapter or front end at all, even transitively", async () => {
    const meta = await importGraph(repoRoot, ["src/index.ts"]);
    const inputs = Object.keys(meta.inputs);
    expect(inputs).toContain("src/index.ts");
    expect(inputs.filter((f) => FORBIDDEN_TARGETS.some((t) => f.startsWith(t)))).toEqual([]);
    const srcInputs = inputs.filter((f) => f.startsWith("src/"));
    expect(srcInputs.filter((f) => f !== "src/index.ts" && !PURE.some((p) => f.startsWith(p)))).toEqual([]);
  });

  it("the checker catches a forbidden arrow (a bad tree is flagged)", async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-boundary-"));
    temps.push(root);
    const put = (rel: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      fs.writeFileSync(path.join(root, rel), text);
    };
    put(
      "src/core/a.ts",
      `import { readFileSync } from "node:fs";\nimport { x } from "../platform/node/x.ts";\nexport const a = () => readFileSync("f") && x;\n`,
    );
    put("src/languages/b.ts", `import * as p from "path";\nexport const b = p.sep;\n`);
    put("src/platform/node/x.ts", `export const x = 1;\n`);
    const meta = await importGraph(root, ["src/core/a.ts", "src/languages/b.ts"]);
    expect(forbiddenImports(meta)).toEqual([
      "src/core/a.ts -> ../platform/node/x.ts",
      "src/core/a.ts -> node:fs",
      "src/languages/b.ts -> path",
    ]);
  });
});

/**
 * Names of a runtime's own globals (a server runtime's, a browser's): the language files describe the language, so no
 * string, template or regular-expression literal of theirs names one, not even in a data list (a host's globals are
 * a host environment profile's, `src/platform/host-environments.ts`). Case-sensitive and whole words: `child_process`
 * and a query's `(self)` node are not runtime names; English words (`global`, `history`) are left out.
 */
const RUNTIME_NAMES = new Set([
  "process",
  "Buffer",
  "Deno",
  "Bun",
  "window",
  "document",
  "navigator",
  "localStorage",
  "sessionStorage",
  "__dirname",
  "__filename",
]);

/** The runtime names the literals of one source file spell, as `file:line name`. */
function runtimeNamesInLiterals(fileName: string, text: string): string[] {
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const hits: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteralLike(node) || ts.isRegularExpressionLiteral(node) || ts.isTemplateLiteralToken(node)) {
      const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
      for (const word of new Set(node.text.split(/[^\w$]+/)))
        if (RUNTIME_NAMES.has(word)) hits.push(`${fileName}:${line} ${word}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return hits;
}

describe("the language files name no runtime", () => {
  it("no literal under src/languages spells a runtime's global", () => {
    const hits = tsFiles(repoRoot, "src/languages").flatMap((f) =>
      runtimeNamesInLiterals(f, fs.readFileSync(path.join(repoRoot, f), "utf8")),
    );
    expect(hits).toEqual([]);
  });

  it("the checker flags names in lists, templates and patterns, not in comments or longer words", () => {
    const bad = [
      'const G = new Set("console process window".split(" "));',
      "const S = [{ pattern: /^Bun\\.spawn$/ }];",
      "const T = `${x} Buffer`;",
    ].join("\n");
    expect(runtimeNamesInLiterals("bad.ts", bad)).toEqual([
      "bad.ts:1 process",
      "bad.ts:1 window",
      "bad.ts:2 Bun",
      "bad.ts:3 Buffer",
    ]);
    const fine = [
      "// process.env and window.location in a comment",
      "const m = /^(child_process\\.|cp\\.)?exec$/;",
      'const q = "(call receiver: (self))";',
      'const w = "processes windows Documents";',
    ].join("\n");
    expect(runtimeNamesInLiterals("fine.ts", fine)).toEqual([]);
  });
});

describe("the pure core's globals", () => {
  it("src/core, src/languages and the packed store use no runtime-specific global", () => {
    const files = [...PURE.flatMap((p) => tsFiles(repoRoot, p.slice(0, -1))), ...PURE_FILES];
    const hits = files.flatMap((f) => forbiddenGlobals(f, fs.readFileSync(path.join(repoRoot, f), "utf8")));
    expect(hits).toEqual([]);
  });

  it("the checker flags real uses and ignores comments, strings and property names", () => {
    const bad = [
      "const a = process.env.HOME;",
      "if (typeof Deno !== 'undefined') Deno.exit(1);",
      "const m = require('fs');",
      "const b = Buffer.from('x');",
      "const w = window.location;",
      "const d = document.body;",
      "const here = __dirname;",
      "const g = globalThis.process;",
      "const e = process['env'];",
    ].join("\n");
    expect(forbiddenGlobals("bad.ts", bad)).toEqual([
      "bad.ts:1 process.",
      "bad.ts:2 Deno.",
      "bad.ts:3 require(",
      "bad.ts:4 Buffer.",
      "bad.ts:5 window.",
      "bad.ts:6 document.",
      "bad.ts:7 __dirname",
      "bad.ts:8 globalThis.process",
      "bad.ts:9 process.",
    ]);
    const fine = [
      "// process.env is never read here; require() neither",
      "/* window.document */",
      "const s = 'process.exit(1) in a string';",
      "const t = `Buffer.from in a template ${1}`;",
      "const o = { process: 1, window: 2 };",
      "const p = o.process + o.window;",
      "interface I { document: string; require(): void }",
      "function f(x: { process: number }) { return x.process; }",
    ].join("\n");
    expect(forbiddenGlobals("fine.ts", fine)).toEqual([]);
  });
});

describe("the purity fence in the compiler", () => {
  it("tsc -p src/core/tsconfig.json --noEmit passes", () => {
    const tsc = path.join(repoRoot, "node_modules", "typescript", "bin", "tsc");
    const r = spawnSync(process.execPath, [tsc, "-p", "src/core/tsconfig.json", "--noEmit"], {
      cwd: repoRoot,
      encoding: "utf8",
    });
    expect(r.stdout + r.stderr).toBe("");
    expect(r.status).toBe(0);
  }, 120_000);

  it("the fence rejects Node types (no `types`, WebWorker lib)", () => {
    const config = JSON.parse(fs.readFileSync(path.join(repoRoot, "src/core/tsconfig.json"), "utf8")) as {
      compilerOptions: { types?: string[]; lib?: string[] };
      include: string[];
    };
    expect(config.compilerOptions.types).toEqual([]);
    expect(config.compilerOptions.lib?.map((l) => l.toLowerCase())).toContain("webworker");
    expect(config.compilerOptions.lib?.map((l) => l.toLowerCase())).not.toContain("dom");
    expect(config.include.map((i) => i.replace(/^\.\.\//, ""))).toEqual(expect.arrayContaining(["core", "languages"]));
  });
});
