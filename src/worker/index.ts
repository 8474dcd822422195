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
  ProjectSource,
  StoreChoice,
  OpenAnswer,
  Neighbourhood,
  NeighbourNode,
  CallOptions,
  WorkerProgress,
  EngineCalls,
  EngineMethod,
  ToWorker,
  FromWorker,
  WireError,
  IndexArtifact,
} from "./worker-protocol.ts";
// The language server over Web Worker messages: `createWorkerEngine(worker).languageServer()` on
// the page; these for a host that serves it on a port of its own.
export { serveProjectLsp, DEFAULT_ROOT_URI } from "./lsp-host.ts";
export type { LspProject } from "./lsp-host.ts";
export { serveLspOnPort } from "../lsp/browser.ts";
export type { LspPort } from "../lsp/browser.ts";
export { LspHandlers } from "../lsp/handlers.ts";
export { OverlayFileSystem } from "../lsp/overlay-fs.ts";
