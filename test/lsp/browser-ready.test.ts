/**
 * The language server's handlers and wiring are ready for a browser Web Worker: bundled for the
 * browser with esbuild (`vscode-languageserver`'s common build, as `vscode-languageserver/browser`
 * uses), `src/lsp/server.ts`, `handlers.ts` and `overlay-fs.ts` reach no Node builtin and no
 * Node-only module (web-tree-sitter's guarded Node branch aside, as in test/boundary.test.ts); only
 * `stdio.ts` does. The checker also runs on stdio.ts, so a checker that
 * sees nothing fails.
 */
import * as fs from "node:fs";
import { builtinModules } from "node:module";
import * as path from "node:path";
import { build, type Plugin } from "esbuild";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../support/cli.ts";

const BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

/** The Node builtins (and `vscode-languageserver/node`) a browser bundle of `entry` reaches, with who imports each. */
async function nodeImports(entry: string): Promise<string[]> {
  const found: string[] = [];
  const mark: Plugin = {
    name: "mark-node",
    setup(b) {
      b.onResolve({ filter: /.*/ }, (args) => {
        // A bare name a package in node_modules provides is that package in a browser bundle, not the
        // builtin (graphology's `events` resolves to the `events` package).
        const shimmed =
          !args.path.startsWith("node:") &&
          fs.existsSync(path.join(repoRoot, "node_modules", args.path, "package.json"));
        const nodeOnly =
          (BUILTINS.has(args.path) && !shimmed) ||
          args.path.startsWith("node:") ||
          /^vscode-languageserver(-protocol)?\/node/.test(args.path);
        if (nodeOnly) {
          // web-tree-sitter loads Node modules only when it runs under Node (the engine's own
          // boundary test covers the engine); everything else must not reach one.
          if (!args.importer.includes("node_modules/web-tree-sitter/"))
            found.push(`${args.path} ← ${args.importer.slice(repoRoot.length)}`);
          return { path: args.path, external: true };
        }
        return undefined;
      });
    },
  };
  await build({
    absWorkingDir: repoRoot,
    entryPoints: [entry],
    bundle: true,
    platform: "browser",
    format: "esm",
    write: false,
    logLevel: "silent",
    plugins: [mark],
  });
  return found;
}

describe("the LSP handlers in a browser bundle", () => {
  it("server.ts, handlers.ts and overlay-fs.ts reach nothing of Node", async () => {
    for (const entry of ["src/lsp/server.ts", "src/lsp/handlers.ts", "src/lsp/overlay-fs.ts"])
      expect([entry, await nodeImports(entry)]).toEqual([entry, []]);
  }, 120_000);

  it("the checker sees the stdio transport's Node imports", async () => {
    const found = await nodeImports("src/lsp/stdio.ts");
    expect(found.some((f) => f.startsWith("vscode-languageserver/node"))).toBe(true);
    expect(found.some((f) => f.startsWith("node:"))).toBe(true);
  }, 120_000);
});
