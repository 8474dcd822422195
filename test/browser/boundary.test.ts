/**
 * The browser platform is browser code (runs in Node's suite): bundled for the browser with
 * esbuild, nothing under src/platform/browser pulls in a Node builtin, the Node or Deno platform,
 * or a front end; and the page-side client does not drag the engine into the page's bundle.
 */
import { builtinModules } from "node:module";
import { fileURLToPath } from "node:url";
import { build, type Metafile } from "esbuild";
import { describe, expect, it } from "vitest";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

async function graph(entry: string): Promise<Metafile> {
  const result = await build({
    absWorkingDir: repoRoot,
    entryPoints: [entry],
    bundle: true,
    platform: "browser",
    format: "esm",
    write: false,
    metafile: true,
    outdir: "out",
    logLevel: "silent",
    plugins: [
      {
        name: "builtins-external",
        setup(b) {
          b.onResolve({ filter: /.*/ }, (args) =>
            BUILTINS.has(args.path) || args.path.startsWith("node:") ? { path: args.path, external: true } : undefined,
          );
        },
      },
    ],
  });
  return result.metafile;
}

describe("src/platform/browser and the worker front end", () => {
  it("bundle for the browser with no Node builtin, no other platform and no other front end", async () => {
    const meta = await graph("src/worker/index.ts");
    const inputs = Object.keys(meta.inputs);
    expect(inputs).toContain("src/worker/worker-host.ts");
    expect(inputs).toContain("src/platform/browser/index.ts");
    // Our modules only: web-tree-sitter carries guarded Node-only imports of its own.
    const builtins = Object.entries(meta.inputs)
      .filter(([f]) => f.startsWith("src/"))
      .flatMap(([f, i]) =>
        i.imports
          .filter((x) => x.external && (x.path.startsWith("node:") || BUILTINS.has(x.path)))
          .map((x) => `${f} -> ${x.path}`),
      );
    expect(builtins).toEqual([]);
    expect(inputs.filter((f) => /^src\/(platform\/(node|deno)|cli|mcp)\//.test(f))).toEqual([]);
  });

  it("the page-side client (worker-client) leaves the engine, parser and tokenizer out of the page", async () => {
    const inputs = Object.keys((await graph("src/worker/worker-client.ts")).inputs);
    expect(inputs.filter((f) => f.startsWith("src/core/") || f === "src/index.ts")).toEqual([]);
    expect(inputs.filter((f) => /node_modules\/(web-tree-sitter|gpt-tokenizer)\//.test(f))).toEqual([]);
  });

  it("the playground's page (storage helpers and uploads included) leaves languages, queries and the engine out", async () => {
    // The page's module is evaluated on its main thread at every load: the language specs and their
    // query texts (≈140 kB) came in once through uploads.ts importing skipByName from src/index.ts.
    const inputs = Object.keys((await graph("playground/src/main.ts")).inputs);
    expect(inputs).toContain("src/platform/browser/uploads.ts");
    expect(inputs).toContain("src/platform/browser/browser-store.ts");
    expect(
      inputs.filter(
        (f) =>
          f.startsWith("src/languages/") ||
          f === "src/index.ts" ||
          /^src\/core\/(engine|graph|slice|extract|parse)/.test(f),
      ),
    ).toEqual([]);
    expect(inputs.filter((f) => /node_modules\/(web-tree-sitter|gpt-tokenizer)\//.test(f))).toEqual([]);
  });
});
