/** Entry of a Deno parse worker (see index.ts): the engine's parse loop, grammars read by DenoWasmSource. */
import { serveParseWorkerOnSelf } from "../web-parse-workers.ts";
import { DenoWasmSource } from "./deno-wasm-source.ts";

// A wasm folder other than the package's own comes as the entry URL's `wasm` parameter.
const base = new URL(import.meta.url).searchParams.get("wasm");
serveParseWorkerOnSelf(base ? new DenoWasmSource(new URL(base)) : new DenoWasmSource());
