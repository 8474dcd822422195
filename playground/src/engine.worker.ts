/**
 * The playground's engine worker: the library's serveEngine(), with wasm/ served next to the site,
 * and a parse pool of nested workers (used when the browser reports more than two cores).
 */
import { WebParseWorkers } from "../../src/platform/browser/index.ts";
import { serveEngine } from "../../src/worker/worker-host.ts";

// Built, this script sits in assets/ and the wasm files in wasm/; in dev it is /src/… and the
// dev server answers /wasm/. A variable keeps Vite from treating the folder as an asset to bundle.
const wasmFolder = "../wasm/";
serveEngine({
  wasmBase: new URL(wasmFolder, import.meta.url),
  workers: new WebParseWorkers(() => new Worker(new URL("./parse.worker.ts", import.meta.url), { type: "module" })),
});
