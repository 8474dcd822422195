/** The cache damage loop (cache-damage.suite.ts) on the Node store. */
import { createNodePlatform, NodeWasmSource } from "../../src/platform/node/index.ts";
import { cacheDamageSuite } from "./cache-damage.suite.ts";

const wasm = new NodeWasmSource();
cacheDamageSuite("Node store", 128, async (root, cacheDir, logger) => ({ ...(await createNodePlatform({ root, cacheDir, logger })), wasm }));
