/**
 * The language server over Web Worker messages: the same handlers and wiring as `codeslice lsp`
 * on stdio (server.ts), on a MessagePort or a worker's global scope, through
 * `vscode-languageserver/browser`'s BrowserMessageReader and BrowserMessageWriter. Messages cross
 * as JSON-RPC objects (structured clone), one per postMessage.
 */
import {
  BrowserMessageReader,
  BrowserMessageWriter,
  createConnection,
  type Connection,
} from "vscode-languageserver/browser";
import { serveLsp, type ServeLspOptions } from "./server.ts";

/** What the browser transport can speak over: a MessagePort, a Worker, or a worker's own global scope. */
export type LspPort = ConstructorParameters<typeof BrowserMessageReader>[0];

/** Serves the language server on `port` until the client exits; returns the connection (for `dispose()`). */
export function serveLspOnPort(port: LspPort, options: ServeLspOptions): Connection {
  const connection = createConnection(new BrowserMessageReader(port), new BrowserMessageWriter(port));
  serveLsp(connection, options);
  return connection;
}
