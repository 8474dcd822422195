/** The parse pool's threads on Node: `worker_threads` running parse-worker.ts. */
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import type { ParseWorkers, WorkerChannel } from "../../core/ports.ts";

/** Run from TypeScript sources (tests, tsx) rather than the built `dist/`. */
const FROM_SOURCE = import.meta.url.endsWith(".ts");
const ENTRY = new URL(FROM_SOURCE ? "./parse-worker.ts" : "./parse-worker.js", import.meta.url);

/**
 * A worker's old-generation heap limit. It holds one or two files and their records at a time (the
 * syntax tree lives in wasm memory); a worker that passes this dies alone and its files are parsed
 * in the main thread, so the pool never multiplies the index's peak.
 */
const WORKER_HEAP_MB = 256;

/** tsx's ESM register API (its CommonJS build cannot register hooks for a worker). */
function tsxApi(): string {
  const pkg = createRequire(import.meta.url).resolve("tsx/package.json");
  return pathToFileURL(pkg.replace(/package\.json$/, "dist/esm/api/index.mjs")).href;
}

/** Starts parse workers that read grammars from `wasmBase` (default: the package's `wasm/`). */
export class NodeParseWorkers implements ParseWorkers {
  readonly parallelism = availableParallelism();
  constructor(private readonly wasmBase?: URL) {}

  spawn(): WorkerChannel {
    const workerData = { wasmBase: this.wasmBase?.href };
    const resourceLimits = { maxOldGenerationSizeMb: WORKER_HEAP_MB };
    // Node 20 cannot load a .ts worker entry: from sources, the worker registers tsx (a dev
    // dependency, present wherever the sources run) and then imports the entry.
    const worker = FROM_SOURCE
      ? new Worker(
          `import(${JSON.stringify(tsxApi())})` +
            `.then((m) => { (m.register ?? m.default.register)(); return import(${JSON.stringify(ENTRY.href)}); });`,
          { eval: true, workerData, resourceLimits },
        )
      : new Worker(ENTRY, { workerData, resourceLimits });
    return {
      post: (message, transfer) => worker.postMessage(message, transfer),
      listen(onMessage, onFailure) {
        worker.on("message", onMessage);
        worker.on("error", (error) => onFailure(error instanceof Error ? error : new Error(String(error))));
        worker.on("messageerror", (error) => onFailure(error));
        worker.on("exit", (code) => onFailure(new Error(`the worker exited (code ${code})`)));
      },
      terminate: () => void worker.terminate(),
    };
  }
}
