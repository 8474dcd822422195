/** The Deno platform: file system, store and wasm source over Deno's own APIs (no node: imports). */
import { openDiskCache } from "../fallback-store.ts";
import type { Logger, Platform } from "../../core/ports.ts";
import { requireDeno } from "./deno-api.ts";
import { createDenoFileSystem } from "./deno-file-system.ts";
import { nativePaths } from "./deno-paths.ts";
import { DenoStore } from "./deno-store.ts";
import { DenoWasmSource } from "./deno-wasm-source.ts";
import { DenoProcesses } from "./deno-processes.ts";
import { WebParseWorkers } from "../web-parse-workers.ts";
import { DEFAULT_HOST_ENVIRONMENT } from "../host-environments.ts";
export * from "../host-environments.ts";

export { DenoFileSystem, createDenoFileSystem } from "./deno-file-system.ts";
export { DenoStore } from "./deno-store.ts";
export { DenoWasmSource } from "./deno-wasm-source.ts";
export { mapDenoError, missingDenoFlag } from "./deno-api.ts";
export { WebParseWorkers } from "../web-parse-workers.ts";

// The worker entry beside this module: TypeScript from sources, JavaScript from dist/.
const WORKER_ENTRY = new URL(
  import.meta.url.endsWith(".ts") ? "./parse-worker.ts" : "./parse-worker.js",
  import.meta.url,
);

/** Parse workers on Deno: module Workers (they inherit this process's permissions) running parse-worker.ts. */
export function denoParseWorkers(): WebParseWorkers {
  return new WebParseWorkers(() => new Worker(WORKER_ENTRY.href, { type: "module" }));
}

/** Options for {@link createDenoPlatform}. */
export interface DenoPlatformOptions {
  /** The project folder to index. */
  root: string;
  /** Where the index lives; default `<root>/.codeslice`. */
  cacheDir?: string;
  logger?: Logger;
}

/**
 * A Platform for one project folder on disk. Throws `root_not_found` / `root_not_directory`, or
 * `permission_denied` naming the `--allow-*` flag when Deno was started without it, and
 * `cache_refused` for a `cacheDir` that is not codeslice's own. When the cache
 * folder cannot be written (read-only, no `--allow-write`) the index is kept in memory instead.
 */
export async function createDenoPlatform(options: DenoPlatformOptions): Promise<Platform> {
  const deno = requireDeno();
  const fs = await createDenoFileSystem(options.root, deno);
  const paths = nativePaths(deno);
  const cacheDir = paths.absolute(options.cacheDir ?? paths.join(fs.rootLabel, ".codeslice"));
  const store = await openDiskCache(new DenoStore(cacheDir, deno, { root: fs.rootLabel }), {
    explicit: options.cacheDir !== undefined,
    ...(options.logger ? { logger: options.logger } : {}),
  });
  return {
    fs,
    store,
    wasm: new DenoWasmSource(),
    host: DEFAULT_HOST_ENVIRONMENT,
    workers: denoParseWorkers(),
    processes: new DenoProcesses(fs.rootLabel, deno),
    ...(options.logger ? { logger: options.logger } : {}),
  };
}
