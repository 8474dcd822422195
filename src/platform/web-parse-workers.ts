/**
 * The parse pool's threads over the Web Worker API, which Deno and browsers share: a channel over
 * a `Worker`, and the worker-side binding of the engine's parse loop to its global scope.
 */
import { serveParseWorker } from "../index.ts";
import type { ParseWorkers, WasmSource, WorkerChannel } from "../core/ports.ts";

/** The host's thread count, from `navigator.hardwareConcurrency` (1 when it does not say). */
export function hardwareConcurrency(): number {
  const n = (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator?.hardwareConcurrency;
  return typeof n === "number" && n >= 1 ? Math.floor(n) : 1;
}

/** Parse workers started by `start` (a module Worker whose entry calls {@link serveParseWorkerOnSelf}). */
export class WebParseWorkers implements ParseWorkers {
  constructor(
    private readonly start: () => Worker,
    readonly parallelism: number = hardwareConcurrency(),
  ) {}

  spawn(): WorkerChannel {
    const worker = this.start();
    return {
      post: (message, transfer) => worker.postMessage(message, transfer ?? []),
      listen(onMessage, onFailure) {
        worker.onmessage = (event) => onMessage(event.data);
        worker.onmessageerror = () => onFailure(new Error("a message from the worker could not be read"));
        worker.onerror = (event) => {
          // Unhandled, a worker's error would also be raised in this thread (Deno ends the process).
          event.preventDefault();
          onFailure(new Error(event.message || "the worker failed"));
        };
      },
      terminate: () => worker.terminate(),
    };
  }
}

/** Inside a parse worker: serves the engine's parse jobs on the worker's global scope. */
export function serveParseWorkerOnSelf(wasm: WasmSource): void {
  const scope = globalThis as unknown as {
    postMessage(message: unknown, transfer: Transferable[]): void;
    onmessage: ((event: MessageEvent) => void) | null;
  };
  serveParseWorker(
    {
      post: (message, transfer) => scope.postMessage(message, transfer ?? []),
      onMessage: (handler) => (scope.onmessage = (event) => handler(event.data)),
    },
    wasm,
  );
}
