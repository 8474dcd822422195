/** A parse worker as a browser host writes one: the engine's parse loop, grammars fetched from wasm/. */
import { FetchWasmSource, serveParseWorkerOnSelf } from "../../../src/platform/browser/index.ts";

serveParseWorkerOnSelf(new FetchWasmSource(new URL("../../../wasm/", import.meta.url)));
