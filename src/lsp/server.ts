/**
 * serveLsp(connection, options): wires the handlers (handlers.ts) to a language server connection
 * of any transport: the stdio one (stdio.ts) or a browser worker's message port (browser.ts,
 * `vscode-languageserver/browser`). Open documents feed the overlay; the first index starts once
 * the client is initialized, with work-done progress when the client supports it; each request's
 * cancellation becomes an AbortSignal and its failures become protocol errors with the next step.
 */
import {
  ErrorCodes,
  LSPErrorCodes,
  ResponseError,
  TextDocuments,
  TextDocumentSyncKind,
  WorkDoneProgressReporter,
  type CancellationToken,
  type Connection,
  type InitializeParams,
  type InitializeResult,
} from "vscode-languageserver";
import { TextDocument } from "vscode-languageserver-textdocument";
import { isEngineError, type Progress } from "../index.ts";
import { RequestCancelledError, type LspHandlers, type RequestContext } from "./handlers.ts";

/** The command a resolved code lens carries; the server answers it with the lens's locations. */
export const SHOW_REFERENCES_COMMAND = "codeslice.showReferences";

/**
 * Where a connection's handlers come from: one set for the whole connection, or a function asked
 * before every request (a host whose open project can change, as the engine worker's: the handlers
 * of the project open now). When it hands back another set, the open documents are laid over it.
 */
export type HandlersSource = LspHandlers | (() => Promise<LspHandlers>);

/** Options of {@link serveLsp}. */
export interface ServeLspOptions {
  /**
   * Makes the handlers for the project the client opened (its root URI, the first workspace folder's, or undefined).
   */
  createHandlers(rootUri: string | undefined, params: InitializeParams): Promise<HandlersSource> | HandlersSource;
  version: string;
  log?: (level: "info" | "warn" | "error", message: string) => void;
}

/** One percentage for the index's phases: scan 0–10, parse 10–90, graph 90–100. */
export function progressPercent(p: Progress): number {
  const pct =
    p.phase === "scan"
      ? Math.min(10, p.done / 200)
      : p.phase === "parse"
        ? 10 + (p.total ? (80 * p.done) / p.total : 0)
        : 90;
  return Math.round(pct);
}

/** The message a progress report shows for a phase. */
export function progressMessage(p: Progress): string {
  return p.phase === "scan"
    ? `scanning: ${p.done} files found`
    : p.phase === "parse"
      ? `parsing: ${p.done}${p.total ? `/${p.total}` : ""} files`
      : "building the code graph";
}

/** Reports an index's progress on `reporter`, increasing and at most every 100 ms. */
function reportTo(reporter: WorkDoneProgressReporter): (p: Progress) => void {
  let last = -1;
  let lastAt = 0;
  return (p) => {
    const pct = progressPercent(p);
    const now = Date.now();
    if (pct < last || (now - lastAt < 100 && p.phase !== "graph")) return;
    last = pct;
    lastAt = now;
    reporter.report(pct, progressMessage(p));
  };
}

/** The protocol error for what a handler threw. */
export function toResponseError(error: unknown): ResponseError<unknown> {
  if (error instanceof ResponseError) return error;
  if (error instanceof RequestCancelledError) return new ResponseError(LSPErrorCodes.RequestCancelled, error.message);
  if (isEngineError(error)) {
    const text = error.hint ? `${error.message} ${error.hint}` : error.message;
    return new ResponseError(LSPErrorCodes.RequestFailed, text, {
      code: error.code,
      hint: error.hint,
      data: error.data,
    });
  }
  if (error instanceof TypeError) return new ResponseError(ErrorCodes.InvalidParams, error.message);
  return new ResponseError(ErrorCodes.InternalError, `codeslice failed: ${(error as Error)?.message ?? String(error)}`);
}

/**
 * Runs a handler with the request's token as an AbortSignal and its work-done reporter as progress; errors become
 * protocol errors.
 */
function answer<P, R>(
  ready: () => Promise<LspHandlers>,
  run: (h: LspHandlers, params: P, ctx: RequestContext) => Promise<R>,
): (params: P, token: CancellationToken, workDone?: WorkDoneProgressReporter) => Promise<R> {
  return async (params, token, workDone) => {
    const abort = new AbortController();
    const sub = token.onCancellationRequested(() => abort.abort());
    let begun = false;
    const ctx: RequestContext = { signal: abort.signal };
    // The connection takes `workDoneToken` out of the params and hands a reporter for it (a null
    // one when the request carried none).
    if (workDone && !WorkDoneProgressReporter.isNullInstance(workDone)) {
      const report = reportTo(workDone);
      ctx.onProgress = (p) => {
        if (!begun) workDone.begin("codeslice: indexing", 0, progressMessage(p), false);
        begun = true;
        report(p);
      };
    }
    try {
      if (token.isCancellationRequested) throw new RequestCancelledError();
      return await run(await ready(), params, ctx);
    } catch (error) {
      // The connection answers a thrown ResponseError as that error.
      throw toResponseError(error);
    } finally {
      if (begun) workDone!.done();
      sub.dispose();
    }
  };
}

/** The root the client opened: `rootUri`, else the first workspace folder. */
function rootOf(params: InitializeParams): string | undefined {
  return params.rootUri ?? params.workspaceFolders?.[0]?.uri ?? undefined;
}

/** Serves the language server on `connection` until the client exits. */
export function serveLsp(connection: Connection, options: ServeLspOptions): void {
  const log = options.log ?? (() => {});
  let source: Promise<HandlersSource> | undefined;
  let progressOk = false;
  const documents = new TextDocuments(TextDocument);
  let current: LspHandlers | undefined;
  const ready = async (): Promise<LspHandlers> => {
    if (!source) throw new ResponseError(ErrorCodes.ServerNotInitialized, "The server is not initialized yet.");
    const got = await source;
    const h = typeof got === "function" ? await got() : got;
    if (h !== current) {
      // New handlers (the first, or another project's): the editor's unsaved text goes over them too.
      for (const doc of documents.all()) h.changed(doc.uri, doc.getText());
      current = h;
    }
    return h;
  };

  connection.onInitialize(async (params): Promise<InitializeResult> => {
    progressOk = params.capabilities.window?.workDoneProgress === true;
    source = Promise.resolve(options.createHandlers(rootOf(params), params));
    await source;
    return {
      serverInfo: { name: "codeslice", version: options.version },
      capabilities: {
        textDocumentSync: TextDocumentSyncKind.Incremental,
        definitionProvider: true,
        referencesProvider: true,
        hoverProvider: true,
        documentSymbolProvider: true,
        workspaceSymbolProvider: true,
        callHierarchyProvider: true,
        codeLensProvider: { resolveProvider: true },
        executeCommandProvider: { commands: [SHOW_REFERENCES_COMMAND] },
      },
    };
  });
  connection.onInitialized(() => void firstIndex(connection, ready, progressOk, log));
  wireDocuments(connection, documents, ready);
  wireRequests(connection, ready);
  connection.listen();
}

/** The first index, started as soon as the client is ready, with `$/progress` when it can show it. */
async function firstIndex(
  connection: Connection,
  ready: () => Promise<LspHandlers>,
  progressOk: boolean,
  log: NonNullable<ServeLspOptions["log"]>,
): Promise<void> {
  let reporter: WorkDoneProgressReporter | undefined;
  try {
    const h = await ready();
    if (progressOk) {
      reporter = await connection.window.createWorkDoneProgress();
      reporter.begin("codeslice: indexing", 0, "starting", false);
    }
    const r = await h.refresh(reporter ? { onProgress: reportTo(reporter) } : {});
    log("info", `indexed: ${r.sourceFiles} source files (${r.parsed} parsed) in ${r.durationMs} ms`);
  } catch (error) {
    log("warn", `the first index failed: ${(error as Error).message}`);
  } finally {
    reporter?.done();
  }
}

/** didOpen/didChange/didClose: the documents' text goes into the overlay the engine reads. */
function wireDocuments(
  connection: Connection,
  documents: TextDocuments<TextDocument>,
  ready: () => Promise<LspHandlers>,
): void {
  const push = (doc: TextDocument) =>
    void ready().then(
      (h) => h.changed(doc.uri, doc.getText()),
      () => {},
    );
  // Fires on open as well as on each change.
  documents.onDidChangeContent((e) => push(e.document));
  documents.onDidClose(
    (e) =>
      void ready().then(
        (h) => h.closed(e.document.uri),
        () => {},
      ),
  );
  documents.listen(connection);
}

/** Every request, each through {@link answer}. */
function wireRequests(connection: Connection, ready: () => Promise<LspHandlers>): void {
  connection.onDefinition(answer(ready, (h, p, c) => h.definition(p, c)));
  connection.onReferences(answer(ready, (h, p, c) => h.references(p, c)));
  connection.onHover(answer(ready, (h, p, c) => h.hover(p, c)));
  connection.onDocumentSymbol(answer(ready, (h, p, c) => h.documentSymbol(p, c)));
  connection.onWorkspaceSymbol(answer(ready, (h, p, c) => h.workspaceSymbol(p, c)));
  connection.languages.callHierarchy.onPrepare(answer(ready, (h, p, c) => h.prepareCallHierarchy(p, c)));
  connection.languages.callHierarchy.onIncomingCalls(answer(ready, (h, p, c) => h.incomingCalls(p, c)));
  connection.languages.callHierarchy.onOutgoingCalls(answer(ready, (h, p, c) => h.outgoingCalls(p, c)));
  connection.onCodeLens(answer(ready, (h, p, c) => h.codeLens(p, c)));
  connection.onCodeLensResolve(answer(ready, (h, p, c) => h.codeLensResolve(p, c)));
  connection.onExecuteCommand(
    answer(ready, async (_h, p) => (p.command === SHOW_REFERENCES_COMMAND ? (p.arguments?.[2] ?? []) : null)),
  );
  connection.onRequest(
    "codeslice/context",
    answer(ready, (h, p: Parameters<LspHandlers["context"]>[0], c) => h.context(p ?? {}, c)),
  );
  connection.onRequest(
    "codeslice/impact",
    answer(ready, (h, p: Parameters<LspHandlers["impact"]>[0], c) => h.impact(p ?? {}, c)),
  );
}
