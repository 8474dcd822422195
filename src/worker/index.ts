/**
 * The engine in a Web Worker (`codeslice/worker`): `serveEngine` inside the worker, and
 * `createWorkerEngine` on the page, speaking one message protocol. A front end beside the CLI and
 * the MCP server: it drives the engine through the public API and the browser platform.
 */
export { serveEngine } from "./worker-host.ts";
export type { ServeOptions, MessageEndpoint } from "./worker-host.ts";
export { createWorkerEngine } from "./worker-client.ts";
export type { WorkerEngine, WorkerEngineOptions, WorkerLike } from "./worker-client.ts";
export { toWire, fromWire } from "./worker-protocol.ts";
export type {
  ProjectSource, StoreChoice, OpenAnswer, Neighbourhood, NeighbourNode, CallOptions, WorkerProgress, EngineCalls, EngineMethod,
  ToWorker, FromWorker, WireError, IndexArtifact,
} from "./worker-protocol.ts";
