/**
 * The playground's build. Two small plugins:
 * - `wasm/`: the package's wasm folder is served at `<base>/wasm/` in dev and copied into the
 *   build under the same names (the worker's WasmSource fetches them by name, so no hashing);
 * - service worker: `sw.js` is generated with the exact list of built files plus every wasm file,
 *   so the page works offline once it has been loaded (see service-worker.js).
 */
import { createHash } from "node:crypto";
import { createReadStream, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vite";

const here = fileURLToPath(new URL(".", import.meta.url));
const wasmDir = fileURLToPath(new URL("../wasm/", import.meta.url));
const wasmFiles = () => readdirSync(wasmDir).filter((f) => f.endsWith(".wasm") || f === "wasm.lock.json").sort();

function wasmAssets(): Plugin {
  return {
    name: "codeslice-wasm-assets",
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

function serviceWorker(): Plugin {
  return {
    name: "codeslice-service-worker",
    apply: "build",
    generateBundle(_options, bundle) {
      // web-tree-sitter's own copy of its runtime under assets/ is never fetched (the engine hands
      // it the bytes from wasm/), so it is not worth caching.
      const files = ["./", ...Object.keys(bundle).filter((f) => f !== "sw.js" && !/^assets\/.*\.wasm$/.test(f)).map((f) => `./${f}`)].sort();
      const version = createHash("sha256").update(files.join("\n")).update(readFileSync(wasmDir + "wasm.lock.json")).digest("hex").slice(0, 12);
      const source = readFileSync(`${here}service-worker.js`, "utf8")
        .replace("__PRECACHE__", JSON.stringify(files))
        .replace("__VERSION__", JSON.stringify(version));
      this.emitFile({ type: "asset", fileName: "sw.js", source });
    },
  };
}

/** web-tree-sitter's Emscripten glue uses eval for its dynamic-linking path; nothing to act on. */
const quietWarnings = {
  onwarn(warning: { code?: string; id?: string; message: string }, warn: (w: never) => void) {
    if (warning.code === "EVAL" && (warning.id ?? warning.message).includes("web-tree-sitter")) return;
    warn(warning as never);
  },
};

export default defineConfig({
  root: here,
  base: "./",
  publicDir: false,
  plugins: [wasmAssets(), serviceWorker()],
  worker: { format: "es" },
  server: { host: "127.0.0.1", port: 5178 },
  preview: { host: "127.0.0.1", port: 5179 },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    chunkSizeWarningLimit: 2000,
    rollupOptions: quietWarnings,
  },
});
