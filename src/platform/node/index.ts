/** The Node platform: file system, store and wasm source over node:fs. */
import * as nodePath from "node:path";
import { getHeapStatistics } from "node:v8";
import { openDiskCache } from "../fallback-store.ts";
import type { Logger, Platform } from "../../core/ports.ts";
import { createNodeFileSystem } from "./node-file-system.ts";
import { NodeStore } from "./node-store.ts";
import { NodeWasmSource } from "./node-wasm-source.ts";
import { NodeParseWorkers } from "./node-parse-workers.ts";
import { NodeProcesses } from "./node-processes.ts";

export { NodeFileSystem, createNodeFileSystem, mapNodeError } from "./node-file-system.ts";
export { NodeStore } from "./node-store.ts";
/** The tag file that marks a folder as codeslice's cache (the warm CLI's server listens only in one). */
export { CACHE_TAG_FILE } from "../disk-store.ts";
export { NodeWasmSource } from "./node-wasm-source.ts";
export { NodeParseWorkers } from "./node-parse-workers.ts";
export { NodeProcesses } from "./node-processes.ts";
export { createNodePlanFiles } from "./node-plan-files.ts";

/** Options for {@link createNodePlatform}. */
export interface NodePlatformOptions {
  /** The project folder to index. */
  root: string;
  /** Where the index lives; default `<root>/.codeslice`. */
  cacheDir?: string;
  logger?: Logger;
  /**
   * The process runs one command and exits (the CLI does; a server does not): a run that parses
   * only a handful of files then skips V8's optimizing wasm compile (see `NodeWasmSource`).
   */
  shortLived?: boolean;
}

/**
 * A Platform for one project folder on disk. Throws `root_not_found` / `root_not_directory`, and
 * `cache_refused` for a `cacheDir` that is not codeslice's own (the project itself, a folder of
 * the user's files). When the cache folder cannot be written (read-only file system, no access)
 * the index is kept in memory.
 */
export async function createNodePlatform(options: NodePlatformOptions): Promise<Platform> {
  const fs = await createNodeFileSystem(options.root);
  const cacheDir = nodePath.resolve(options.cacheDir ?? nodePath.join(fs.rootLabel, ".codeslice"));
  const store = await openDiskCache(new NodeStore(cacheDir, { root: fs.rootLabel }), {
    explicit: options.cacheDir !== undefined,
    ...(options.logger ? { logger: options.logger } : {}),
  });
  return {
    fs,
    store,
    wasm: new NodeWasmSource(undefined, { shortLived: options.shortLived ?? false }),
    workers: new NodeParseWorkers(),
    processes: new NodeProcesses(fs.rootLabel),
    memory: nodeHeapUsage,
    ...(options.logger ? { logger: options.logger } : {}),
  };
}

/**
 * V8's heap in use and the old generation's limit (`--max-old-space-size`), where long-lived data
 * lives and where the process dies when it is full. V8's `heap_size_limit` adds the young
 * generation (three 16 MiB semi-spaces on Node 20: --max-old-space-size=64 reads 112 MiB), which
 * never holds an index; leaving it in made a 64 MB server think it had 112.
 */
export function nodeHeapUsage(): { used: number; limit: number } {
  const s = getHeapStatistics();
  const young = 48 * 1024 * 1024;
  return {
    used: s.used_heap_size,
    limit: s.heap_size_limit > 2 * young ? s.heap_size_limit - young : s.heap_size_limit / 2,
  };
}
