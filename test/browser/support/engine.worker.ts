/** The engine worker the protocol tests start: the same serveEngine() the playground's worker runs. */
import { serveEngine } from "../../../src/worker/worker-host.ts";

serveEngine({ wasmBase: new URL("../../../wasm/", import.meta.url) });
