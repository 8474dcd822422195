/**
 * The example's build. codeslice's grammars (the package's `wasm/` folder) are served at `/wasm/`
 * in dev and copied into the build under the same names: the engine worker fetches them by name.
 */
import { createReadStream, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { defineConfig, type Plugin } from "vite";

// The package exports its wasm folder (`codeslice/wasm/*`).
const wasmDir = `${dirname(createRequire(import.meta.url).resolve("codeslice/wasm/wasm.lock.json"))}/`;
const wasmFiles = () => readdirSync(wasmDir).filter((f) => f.endsWith(".wasm") || f === "wasm.lock.json");

function codesliceWasm(): Plugin {
  return {
    name: "codeslice-wasm",
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const m = /^\/wasm\/([A-Za-z0-9._-]+)$/.exec((req.url ?? "").split("?")[0]!);
        if (!m || !wasmFiles().includes(m[1]!)) return next();
        res.setHeader("Content-Type", m[1]!.endsWith(".json") ? "application/json" : "application/wasm");
        createReadStream(wasmDir + m[1]).pipe(res);
      });
    },
    generateBundle() {
      for (const file of wasmFiles()) this.emitFile({ type: "asset", fileName: `wasm/${file}`, source: readFileSync(wasmDir + file) });
    },
  };
}

export default defineConfig({
  plugins: [codesliceWasm()],
  worker: { format: "es" },
  server: { host: "127.0.0.1" },
  build: {
    target: "es2022",
    chunkSizeWarningLimit: 2000,
    rollupOptions: {
      // The page takes only createWorkerEngine from `codeslice/worker`; the engine behind serveEngine
      // belongs to the worker's bundle. codeslice's modules do nothing on import, so the page's
      // bundle may drop what it does not use (1.2 MB of engine otherwise).
      treeshake: { moduleSideEffects: (id) => !/[\\/]codeslice[\\/]dist[\\/]|[\\/]dist[\\/](worker|lsp|core|languages|platform|shared)[\\/]/.test(id) },
      // web-tree-sitter's Emscripten glue uses eval for its dynamic-linking path; nothing to act on.
      onwarn(warning, warn) {
        if (warning.code === "EVAL" && (warning.id ?? warning.message).includes("web-tree-sitter")) return;
        warn(warning);
      },
    },
  },
});
