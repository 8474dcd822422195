/**
 * The cache damage loop (../cache-damage.suite.ts) on the Deno store, under `deno test` with the
 * Vitest shim: run by ../cache-damage.test.ts with the config next to this file.
 */
import { createDenoPlatform, DenoWasmSource } from "../../../src/platform/deno/index.ts";
import { cacheDamageSuite } from "../cache-damage.suite.ts";

const wasm = new DenoWasmSource();
cacheDamageSuite("Deno store", 128, async (root, cacheDir, logger) => ({
  ...(await createDenoPlatform({ root, cacheDir, logger })),
  wasm,
}));
