/**
 * Runtime detection for the front ends: the Deno platform under Deno, the Node one elsewhere. Only
 * the chosen platform is loaded, so a run never evaluates the other runtime's adapter.
 */
import type { Logger, Platform } from "../index.ts";

/** Options for {@link createHostPlatform}. */
export interface HostPlatformOptions {
  /** The project folder to index. */
  root: string;
  /** Where the index lives; default `<root>/.codeslice`. */
  cacheDir?: string;
  logger?: Logger;
  /**
   * The process runs one command and exits (every CLI command but `mcp`): on Node, a run that
   * parses only a handful of files skips V8's optimizing wasm compile (see `NodeWasmSource`).
   */
  shortLived?: boolean;
}

/** The runtime this process runs on, as far as choosing a platform goes. */
export function hostRuntime(): "deno" | "node" {
  return typeof (globalThis as { Deno?: { version?: unknown } }).Deno?.version === "object" ? "deno" : "node";
}

/** A Platform for one project folder on the host's disk, whichever runtime this is. */
export async function createHostPlatform(options: HostPlatformOptions): Promise<Platform> {
  if (hostRuntime() === "deno") {
    const { createDenoPlatform } = await import("../platform/deno/index.ts");
    return createDenoPlatform(options);
  }
  const { createNodePlatform } = await import("../platform/node/index.ts");
  return createNodePlatform(options);
}
