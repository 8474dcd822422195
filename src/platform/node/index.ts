/** The Node platform: file system, store and wasm source over node:fs. */
import * as nodePath from "node:path";
import { getHeapStatistics, setFlagsFromString } from "node:v8";
import * as zlib from "node:zlib";
import { openDiskCache } from "../fallback-store.ts";
import type { Logger, Platform } from "../../core/ports.ts";
import { createNodeFileSystem } from "./node-file-system.ts";
import { NodeStore } from "./node-store.ts";
import { NodeWasmSource } from "./node-wasm-source.ts";
import { NodeParseWorkers } from "./node-parse-workers.ts";
import { NodeProcesses } from "./node-processes.ts";
import { DEFAULT_HOST_ENVIRONMENT } from "../host-environments.ts";
export * from "../host-environments.ts";

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
   * only a handful of files then skips V8's optimizing wasm compile (see `NodeWasmSource`), and
   * V8's old generation grows at most twice its live size between full collections (see
   * {@link boundHeapGrowth}).
   */
  shortLived?: boolean;
}

/** Whether this process's heap growth was bounded already (V8's flags are per process). */
let heapGrowthBounded = false;

/**
 * Lets V8's old generation grow to twice the bytes a full collection left live before the next
 * one, where V8 chooses up to four times (the factor V8 itself keeps to on memory-constrained
 * devices). A cold index leaves little live (its records go to the store) but promotes much
 * garbage: each big file's query matches and each source text waiting in the read-ahead window
 * outlive the young generation. A full collection that happened to run during a big file saw
 * ~45 MB live on effect and let the heap reach four times that before the next, so a cold index's
 * peak RSS swung between 220 and 331 MB run to run; bounded, 208-220 MB at the same CPU
 * (docs/benchmarks.md, the parse-floor section). Only for a short-lived process: the flag is the
 * whole process's, and a host that embeds the engine chooses its own.
 */
export function boundHeapGrowth(): void {
  if (heapGrowthBounded) return;
  heapGrowthBounded = true;
  // A factor given on node's command line is the user's choice.
  if (process.execArgv.some((a) => /^--heap[-_]growing[-_]percent\b/.test(a))) return;
  try {
    setFlagsFromString("--heap-growing-percent=100");
  } catch {
    // a runtime without V8's flags (node:v8 emulated) grows its heap its own way
  }
}

/**
 * A Platform for one project folder on disk. Throws `root_not_found` / `root_not_directory`, and
 * `cache_refused` for a `cacheDir` that is not codeslice's own (the project itself, a folder of
 * the user's files). When the cache folder cannot be written (read-only file system, no access)
 * the index is kept in memory.
 */
export async function createNodePlatform(options: NodePlatformOptions): Promise<Platform> {
  const fs = await createNodeFileSystem(options.root);
  if (options.shortLived) boundHeapGrowth();
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
    host: DEFAULT_HOST_ENVIRONMENT,
    ...(nodeCrc32 ? { crc32: nodeCrc32 } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
  };
}

/** Node's native CRC-32 (`zlib.crc32`, Node 20.15 and later), or undefined on an older Node. */
const nodeCrc32: Platform["crc32"] =
  typeof (zlib as { crc32?: unknown }).crc32 === "function"
    ? (bytes, previous) => (zlib as unknown as { crc32(b: Uint8Array, p: number): number }).crc32(bytes, previous)
    : undefined;

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
