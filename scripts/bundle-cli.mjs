// Bundles the command line into a few files, in place of tsc's dist/cli/main.js.
//
// Why: an `index` with nothing to do spends most of its time starting up, and Node's ESM loader
// resolves, reads and links each of the ~150 modules the CLI reaches one by one (~0.1 s of CPU on
// this project's machines). Bundled, the same code loads as one file plus the chunks a command
// asks for: the MCP server (with its SDK and zod), the Deno platform and the client configs are
// split off and loaded only when used, as they were before.
//
// The rest of dist/ stays tsc's: the package's exports (`codeslice`, `codeslice/node`, …), the
// parse workers' entries and the MCP server's own tests import those modules. Each bundled
// module's `import.meta.url` is rewritten to the URL of its tsc-built twin (dist/platform/node/…),
// so whatever it locates relative to itself — the package's wasm/ folder, the parse worker's entry,
// package.json — is found where it was; every chunk sits in dist/cli/, next to main.js.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { build } from "esbuild";

/**
 * Bundles `<root>/src/cli/main.ts` into `<outDir>/cli/` (main.js and its chunks), where `outDir`
 * is the folder tsc just compiled src/ into. Returns the files written, relative to outDir.
 */
export async function bundleCli(root, outDir) {
  const src = path.join(root, "src");
  const cliDir = path.join(outDir, "cli");
  const result = await build({
    absWorkingDir: root,
    entryPoints: { main: path.join(src, "cli/main.ts") },
    outdir: cliDir,
    // Chunks carry a prefix no tsc output in dist/cli/ has.
    chunkNames: "bundle-[name]-[hash]",
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    // Dependencies stay packages (resolved from node_modules at run time), as in tsc's output.
    packages: "external",
    // tsc's output keeps the shebang of main.ts; esbuild keeps it too (first line of the entry).
    legalComments: "none",
    charset: "utf8",
    metafile: true,
    logLevel: "warning",
    plugins: [
      {
        name: "import-meta-url-of-tsc-twin",
        setup(b) {
          b.onLoad({ filter: /\.ts$/ }, async (args) => {
            let contents = await readFile(args.path, "utf8");
            if (contents.includes("import.meta.url")) {
              const twin = path.relative(src, args.path).replace(/\.ts$/, ".js");
              const rel = path.relative(cliDir, path.join(outDir, twin)).split(path.sep).join("/");
              const spec = rel.startsWith(".") ? rel : `./${rel}`;
              contents = contents.replaceAll(
                "import.meta.url",
                `new URL(${JSON.stringify(spec)}, import.meta.url).href`,
              );
            }
            return { contents, loader: "ts" };
          });
        },
      },
    ],
  });
  return Object.keys(result.metafile.outputs).map((f) => path.relative(outDir, path.resolve(root, f)));
}
