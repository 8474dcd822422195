/** Entry of a Node parse worker (see node-parse-workers.ts): the engine's parse loop over `parentPort`. */
import { parentPort, workerData } from "node:worker_threads";
import { serveParseWorker } from "../../index.ts";
import { NodeWasmSource } from "./node-wasm-source.ts";

const port = parentPort;
if (!port) throw new Error("parse-worker.ts runs only as a worker thread");
const base = (workerData as { wasmBase?: string } | null)?.wasmBase;
serveParseWorker(
  {
    post: (message, transfer) => port.postMessage(message, transfer ?? []),
    onMessage: (handler) => port.on("message", handler),
  },
  base ? new NodeWasmSource(new URL(base)) : new NodeWasmSource(),
);
