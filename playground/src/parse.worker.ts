/** The playground's parse workers (nested in the engine worker): the engine's parse loop, wasm/ next to the site. */
import { FetchWasmSource, serveParseWorkerOnSelf } from "../../src/platform/browser/index.ts";

// As in engine.worker.ts: built, this script sits in assets/ and the wasm files in wasm/.
const wasmFolder = "../wasm/";
serveParseWorkerOnSelf(new FetchWasmSource(new URL(wasmFolder, import.meta.url)));
