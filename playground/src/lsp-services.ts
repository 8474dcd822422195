/**
 * Editor services through the browser language server: the engine worker serves src/lsp's handlers
 * on a MessagePort (`engine.languageServer()`), and definition, references, hover and the call
 * hierarchy go there as LSP requests, as any web IDE's client would send them. The file list and a
 * file's text stay engine calls (the protocol has no "list the project's files").
 */
import {
  BrowserMessageReader,
  BrowserMessageWriter,
  CancellationTokenSource,
  createProtocolConnection,
  type ProtocolConnection,
} from "vscode-languageserver-protocol/browser";
import type {
  CallHierarchyIncomingCall,
  CallHierarchyItem,
  CallHierarchyOutgoingCall,
  Hover,
  Location,
  LocationLink,
  MarkupContent,
  WorkspaceSymbol,
} from "vscode-languageserver-protocol";
import type { ContextAnswer } from "../../src/index.ts";
import type { WorkerEngine } from "../../src/worker/worker-client.ts";
import {
  workerEditorServices,
  type CallHierarchy,
  type EditorServices,
  type Place,
  type Position,
} from "./editor-services.ts";

/** Document URIs are `<ROOT>/<path>`. */
const ROOT = "file:///workspace";

type Data = { qualified?: string; confidence?: number } | undefined;

function pathOf(uri: string): string {
  return decodeURIComponent(uri.startsWith(`${ROOT}/`) ? uri.slice(ROOT.length + 1) : uri.replace(/^file:\/\/\/?/, ""));
}

function placeOf(loc: Location | LocationLink | CallHierarchyItem): Place {
  const uri = "targetUri" in loc ? loc.targetUri : loc.uri;
  const range =
    "targetSelectionRange" in loc ? loc.targetSelectionRange : "selectionRange" in loc ? loc.selectionRange : loc.range;
  const data = (loc as { data?: Data }).data;
  return {
    path: pathOf(uri),
    line: range.start.line + 1,
    column: range.start.character,
    ...(data?.qualified ? { symbol: data.qualified } : {}),
    ...(typeof data?.confidence === "number" ? { confidence: data.confidence } : {}),
  };
}

function hoverText(h: Hover | null): string | undefined {
  if (!h) return undefined;
  const c = h.contents;
  const parts = Array.isArray(c) ? c : [c];
  const text = parts
    .map((p) => (typeof p === "string" ? p : (p as MarkupContent | { value: string }).value))
    .join("\n\n");
  // The server answers markdown with the signature in a fence: the editor shows it as code.
  return text.replace(/^```\w*\n?|\n?```$/gm, "").trim() || undefined;
}

/** What the language server adds beyond the editor's questions: quick open's symbols and an agent's bundle. */
export interface LspExtras {
  connection(): Promise<ProtocolConnection>;
  /** `workspace/symbol`: symbols matching words, best first. */
  symbols(query: string, signal?: AbortSignal): Promise<Place[]>;
  /** `codeslice/context`: the bundle an agent gets for `target` within `budget` tokens. */
  context(target: string, budget: number, signal?: AbortSignal): Promise<ContextAnswer>;
}

/** Editor services over the engine worker's language server. */
export function lspEditorServices(engine: WorkerEngine): EditorServices & LspExtras {
  const fallback = workerEditorServices(engine);
  let ready: Promise<ProtocolConnection> | undefined;

  function connection(): Promise<ProtocolConnection> {
    ready ??= (async () => {
      const port = engine.languageServer();
      const c = createProtocolConnection(new BrowserMessageReader(port), new BrowserMessageWriter(port));
      c.listen();
      await c.sendRequest("initialize", { processId: null, rootUri: ROOT, capabilities: {}, workspaceFolders: null });
      await c.sendNotification("initialized", {});
      return c;
    })();
    return ready;
  }

  async function request<T>(method: string, params: unknown, signal?: AbortSignal): Promise<T> {
    const c = await connection();
    const source = new CancellationTokenSource();
    const cancel = () => source.cancel();
    signal?.addEventListener("abort", cancel, { once: true });
    try {
      return (await c.sendRequest(method, params, source.token)) as T;
    } finally {
      signal?.removeEventListener("abort", cancel);
      source.dispose();
    }
  }

  const at = (p: Position) => ({
    textDocument: { uri: `${ROOT}/${p.path}` },
    position: { line: p.line - 1, character: p.column },
  });

  async function definition(p: Position, signal?: AbortSignal): Promise<Place[]> {
    const r = await request<Location | Location[] | LocationLink[] | null>("textDocument/definition", at(p), signal);
    return (r === null ? [] : Array.isArray(r) ? r : [r]).map(placeOf);
  }

  async function prepare(p: Position, signal?: AbortSignal): Promise<CallHierarchyItem | undefined> {
    const items = await request<CallHierarchyItem[] | null>("textDocument/prepareCallHierarchy", at(p), signal);
    return items?.[0];
  }

  return {
    connection,
    async symbols(query, signal) {
      const r = await request<WorkspaceSymbol[] | null>("workspace/symbol", { query }, signal);
      return (r ?? []).flatMap((x) =>
        "range" in x.location
          ? [
              {
                ...placeOf({ uri: x.location.uri, range: x.location.range }),
                symbol: (x.data as Data)?.qualified ?? x.name,
              },
            ]
          : [],
      );
    },
    context: (target, budget, signal) => request<ContextAnswer>("codeslice/context", { target, budget }, signal),
    files: (signal) => fallback.files(signal),
    read: (path, signal) => fallback.read(path, signal),
    definition,
    async references(p, signal) {
      const r = await request<Location[] | null>(
        "textDocument/references",
        { ...at(p), context: { includeDeclaration: false } },
        signal,
      );
      return (r ?? []).map((loc) => ({ ...placeOf(loc), name: p.word }));
    },
    async hover(p, signal) {
      const [h, item] = await Promise.all([
        request<Hover | null>("textDocument/hover", at(p), signal),
        prepare(p, signal),
      ]);
      const text = hoverText(h);
      if (!text) return undefined;
      const symbol = (item?.data as Data)?.qualified ?? item?.name ?? p.word;
      return { symbol, text };
    },
    async callHierarchy(p, signal) {
      const item = await prepare(p, signal);
      if (!item) return undefined;
      const [incoming, outgoing] = await Promise.all([
        request<CallHierarchyIncomingCall[] | null>("callHierarchy/incomingCalls", { item }, signal),
        request<CallHierarchyOutgoingCall[] | null>("callHierarchy/outgoingCalls", { item }, signal),
      ]);
      const symbolOf = (i: CallHierarchyItem) => (i.data as Data)?.qualified ?? i.name;
      const centre = { ...placeOf(item), symbol: symbolOf(item) };
      // An incoming call opens where the call is; an outgoing one where the callee is defined.
      const inc: CallHierarchy["incoming"] = (incoming ?? []).flatMap((c) =>
        c.fromRanges.map((r) => ({
          path: pathOf(c.from.uri),
          line: r.start.line + 1,
          column: r.start.character,
          symbol: symbolOf(c.from),
          ...(typeof (c.from.data as Data)?.confidence === "number"
            ? { confidence: (c.from.data as Data)!.confidence! }
            : {}),
        })),
      );
      const out: CallHierarchy["outgoing"] = (outgoing ?? []).map((c) => ({
        ...placeOf(c.to),
        symbol: symbolOf(c.to),
      }));
      return { symbol: centre, incoming: inc, outgoing: out };
    },
  };
}
