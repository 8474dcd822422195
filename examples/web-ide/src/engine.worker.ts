// The engine worker: codeslice's engine and its language server, one index for both.
import { serveEngine } from "codeslice/worker";

serveEngine({ wasmBase: new URL("/wasm/", self.location.origin) });
