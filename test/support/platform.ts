/** Test platforms: the memory platform with the real wasm assets, and multi-file fixtures. */
import {
  DEFAULT_HOST_ENVIRONMENT,
  MemoryFileSystem,
  MemoryStore,
  type MemoryEntry,
} from "../../src/platform/memory/index.ts";
import { FetchWasmSource } from "../../src/platform/browser/fetch-wasm-source.ts";
import type { Platform, WasmSource } from "../../src/core/ports.ts";
import { createEngine, type Engine, type EngineOptions } from "../../src/core/engine/engine.ts";
import { isEngineError, type EngineError } from "../../src/shared/errors.ts";

/** The package's real wasm/ folder: read from disk, or fetched where the tests are served (Chromium). */
async function wasmSource(): Promise<WasmSource> {
  const dir = new URL("../../wasm/", import.meta.url);
  if (dir.protocol !== "file:") return new FetchWasmSource(dir);
  // A computed specifier keeps the browser bundle free of the Node platform's node:fs imports.
  const nodeSource = "../../src/platform/node/node-wasm-source.ts";
  const { NodeWasmSource } = (await import(
    /* @vite-ignore */ nodeSource
  )) as typeof import("../../src/platform/node/node-wasm-source.ts");
  return new NodeWasmSource();
}

export const wasm: WasmSource = await wasmSource();

export { dedent, parseFixture } from "./fixture-text.ts";
import { parseFixture } from "./fixture-text.ts";

/** A memory platform over `files` (a fixture string or a map), with the default host profile the factories carry. */
export function memoryPlatform(
  files: string | Record<string, MemoryEntry>,
): Platform & { fs: MemoryFileSystem; store: MemoryStore } {
  const map = typeof files === "string" ? parseFixture(files) : files;
  return { fs: new MemoryFileSystem(map), store: new MemoryStore(), wasm, host: DEFAULT_HOST_ENVIRONMENT };
}

/** An engine over a memory platform. */
export function memoryEngine(
  files: string | Record<string, MemoryEntry>,
  options?: EngineOptions,
): { engine: Engine; platform: ReturnType<typeof memoryPlatform> } {
  const platform = memoryPlatform(files);
  return { engine: createEngine(platform, options), platform };
}

/** The EngineError a promise rejects with (anything else fails the test, and so does success). */
export async function errorOf(p: Promise<unknown>): Promise<EngineError> {
  try {
    await p;
  } catch (error) {
    if (isEngineError(error)) return error;
    throw error;
  }
  throw new Error("expected an EngineError");
}
