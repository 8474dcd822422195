/**
 * The language server's answers, independent of any transport: each handler takes the protocol's
 * params and a signal and returns the protocol's result, from the same engine the MCP server and
 * the CLI use. Every request first brings the index up to date (open documents' unsaved text
 * included, through the overlay) and then reads the code graph; a cancelled request stops waiting
 * at once (the index it started goes on for the next request). `server.ts` wires these to a
 * connection: the stdio one today, a browser worker's later.
 */
import type {
  CallHierarchyIncomingCall,
  CallHierarchyIncomingCallsParams,
  CallHierarchyItem,
  CallHierarchyOutgoingCall,
  CallHierarchyOutgoingCallsParams,
  CallHierarchyPrepareParams,
  CodeLens,
  CodeLensParams,
  DocumentSymbol,
  DocumentSymbolParams,
  Hover,
  Location,
  ReferenceParams,
  TextDocumentPositionParams,
  WorkspaceSymbol,
  WorkspaceSymbolParams,
} from "vscode-languageserver";
import {
  isEngineError,
  type CodeGraph,
  type ContextAnswer,
  type Engine,
  type ImpactAnswer,
  type ImpactDirection,
  type Progress,
  type RefreshResult,
  type SearchHit,
  type SymbolNode,
} from "../index.ts";
import { nameRange, siteRange, symbolKind, symbolRange, UriMap, wordAt } from "./convert.ts";
import { calleesOf, callSitesOf, definitionsOf, targetsAt, type Site, type Target } from "./graph-view.ts";
import type { OverlayFileSystem } from "./overlay-fs.ts";

/** Kinds that get a code lens (callers and tests): what can be called or constructed. */
const LENS_KINDS = new Set(["function", "method", "constructor", "class", "getter", "setter", "macro", "struct"]);

/** Largest workspace/symbol answer. */
export const WORKSPACE_SYMBOL_LIMIT = 50;

/** A request's cancellation and progress. */
export interface RequestContext {
  signal?: AbortSignal;
  /** Told the first index's progress, when this request waits for it. */
  onProgress?: (p: Progress) => void;
}

/** Raised when a request's signal fires: the connection answers RequestCancelled. */
export class RequestCancelledError extends Error {
  constructor() {
    super("The request was cancelled.");
  }
}

/** `codeslice/context` params: a target (or the symbol at a position) and a token budget. */
export interface ContextParams extends Partial<TextDocumentPositionParams> {
  target?: string;
  budget?: number;
}

/** `codeslice/impact` params: a target (or the symbol at a position), depth and direction. */
export interface ImpactParams extends Partial<TextDocumentPositionParams> {
  target?: string;
  depth?: number;
  direction?: ImpactDirection;
}

/** What a symbol item carries in `data`: enough to find it again, and the edge's confidence when it came from one. */
export interface SymbolData {
  qualified: string;
  path: string;
  line: number;
  resolution?: string;
  confidence?: number;
}

/** Options of {@link LspHandlers}. */
export interface LspHandlersOptions {
  engine: Engine;
  overlay: OverlayFileSystem;
  /** The project root as a URI: documents outside it get empty answers. */
  rootUri: string;
}

/** Waits for `work`, or rejects with RequestCancelledError as soon as `signal` fires. */
export function unlessCancelled<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) return Promise.reject(new RequestCancelledError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new RequestCancelledError());
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** The handlers of every request the server answers. */
export class LspHandlers {
  readonly uris: UriMap;
  private readonly engine: Engine;
  private readonly overlay: OverlayFileSystem;

  constructor(options: LspHandlersOptions) {
    this.engine = options.engine;
    this.overlay = options.overlay;
    this.uris = new UriMap(options.rootUri);
  }

  /** Brings the index up to date (the first call builds it) and returns the code graph. */
  async graph(ctx: RequestContext = {}): Promise<CodeGraph> {
    await this.refresh(ctx);
    return unlessCancelled(this.engine.codeGraph(), ctx.signal);
  }

  /** Refreshes the index; a cancelled request stops waiting, the refresh goes on. */
  refresh(ctx: RequestContext = {}): Promise<RefreshResult> {
    return unlessCancelled(this.engine.refresh(ctx.onProgress ? { onProgress: ctx.onProgress } : {}), ctx.signal);
  }

  /** A document was opened or edited: its text is what answers read from now on. */
  changed(uri: string, text: string): void {
    const path = this.uris.pathOf(uri);
    if (path !== undefined) this.overlay.set(path, text);
  }

  /** A document was closed: the file on disk answers again. */
  closed(uri: string): void {
    const path = this.uris.pathOf(uri);
    if (path !== undefined) this.overlay.delete(path);
  }

  /** The symbols the name at a position stands for, best first; [] off a name or outside the project. */
  async targets(
    params: TextDocumentPositionParams,
    ctx: RequestContext,
  ): Promise<{ graph: CodeGraph; targets: Target[] }> {
    const graph = await this.graph(ctx);
    const path = this.uris.pathOf(params.textDocument.uri);
    if (path === undefined || !graph.moduleSymbol.has(path)) return { graph, targets: [] };
    const text = new TextDecoder().decode(await this.overlay.readFile(path));
    const at = wordAt(text, params.position);
    if (!at) return { graph, targets: [] };
    return { graph, targets: targetsAt(graph, path, params.position.line + 1, params.position.character, at.word) };
  }

  /** textDocument/definition: where the name at the cursor is defined, each with its edge's confidence in `data`. */
  async definition(params: TextDocumentPositionParams, ctx: RequestContext = {}): Promise<Location[]> {
    const { graph, targets } = await this.targets(params, ctx);
    return targets.map((t) => {
      const s = graph.symbols[t.id]!;
      return { uri: this.uris.uriOf(s.file), range: nameRange(graph, s), data: this.data(s, t) } as Location;
    });
  }

  /**
   * textDocument/references: the call sites of the symbol at the cursor (every edge `callers`
   * lists, then its possible callers), each with `data.resolution` and `data.confidence`:
   * ambiguous calls and calls reaching an override through dynamic dispatch are marked so.
   */
  async references(params: ReferenceParams, ctx: RequestContext = {}): Promise<Location[]> {
    const { graph, targets } = await this.targets(params, ctx);
    const out: Location[] = [];
    const seen = new Set<string>();
    for (const t of targets.slice(0, 1)) {
      const s = graph.symbols[t.id]!;
      if (params.context?.includeDeclaration)
        out.push({
          uri: this.uris.uriOf(s.file),
          range: nameRange(graph, s),
          data: { resolution: "definition", confidence: 1 },
        } as Location);
      for (const site of callSitesOf(graph, t.id)) {
        const key = `${site.file}:${site.line}:${site.col}:${site.caller}`;
        if (seen.has(key)) continue;
        seen.add(key);
        out.push(this.siteLocation(graph, site, s));
      }
    }
    return out;
  }

  /** textDocument/hover: the symbol's signature and docstring, as `signature` answers it, and how sure the link is. */
  async hover(params: TextDocumentPositionParams, ctx: RequestContext = {}): Promise<Hover | null> {
    const { graph, targets } = await this.targets(params, ctx);
    const first = targets[0];
    if (!first) return null;
    const s = graph.symbols[first.id]!;
    const sig = await unlessCancelled(
      this.engine.signature(s.qualified).catch(() => undefined),
      ctx.signal,
    );
    const text = sig?.text ?? graph.records.get(s.file)?.definitions[s.index]?.signature ?? s.qualified;
    const where = `${s.qualified} · ${s.file}:${s.start}`;
    const how = first.resolution === "definition" ? "" : ` · ${first.resolution}, confidence ${first.confidence}`;
    const others =
      targets.length > 1
        ? `\n\n${targets.length - 1} other candidate${targets.length > 2 ? "s" : ""}: ${targets
            .slice(1, 6)
            .map((t) => graph.symbols[t.id]!.qualified)
            .join(", ")}`
        : "";
    return { contents: { kind: "markdown", value: `\`\`\`${s.language}\n${text}\n\`\`\`\n\n${where}${how}${others}` } };
  }

  /** textDocument/documentSymbol: the file's definitions, nested as they are in the file. */
  async documentSymbol(params: DocumentSymbolParams, ctx: RequestContext = {}): Promise<DocumentSymbol[]> {
    const graph = await this.graph(ctx);
    const path = this.uris.pathOf(params.textDocument.uri);
    if (path === undefined) return [];
    const top: DocumentSymbol[] = [];
    const made = new Map<number, DocumentSymbol>();
    for (const id of definitionsOf(graph, path)) {
      const s = graph.symbols[id]!;
      const sym: DocumentSymbol = {
        name: s.name,
        detail: s.qualified,
        kind: symbolKind(s.kind),
        range: symbolRange(s),
        selectionRange: nameRange(graph, s),
        children: [],
      };
      made.set(id, sym);
      const parent = made.get(s.parent);
      (parent ? parent.children! : top).push(sym);
    }
    return top;
  }

  /** workspace/symbol: the `search` answer (names, paths, signatures, docstrings), best first. */
  async workspaceSymbol(params: WorkspaceSymbolParams, ctx: RequestContext = {}): Promise<WorkspaceSymbol[]> {
    const graph = await this.graph(ctx);
    if (!params.query.trim()) return [];
    let hits: SearchHit[];
    try {
      hits = await unlessCancelled(this.engine.search(params.query, { limit: WORKSPACE_SYMBOL_LIMIT }), ctx.signal);
    } catch (error) {
      // A query of stop words or symbols ("at", "_") is what a user types on the way to a name:
      // names that start with it answer, not an error on every keystroke.
      if (!isEngineError(error, "invalid_argument")) throw error;
      hits = namesStartingWith(graph, params.query.trim());
    }
    const out: WorkspaceSymbol[] = [];
    for (const h of hits) {
      const id = graph.byQualified.get(h.qualified);
      const s = id === undefined ? undefined : graph.symbols[id];
      const range = s ? nameRange(graph, s) : siteRange(h.line, 0, "");
      const container =
        s && s.parent >= 0 && graph.symbols[s.parent]!.kind !== "module" ? graph.symbols[s.parent]!.name : h.path;
      out.push({
        name: s?.name ?? h.qualified,
        kind: symbolKind(h.kind),
        containerName: container,
        location: { uri: this.uris.uriOf(h.path), range },
        data: { qualified: h.qualified, score: h.score },
      });
    }
    return out;
  }

  /** textDocument/prepareCallHierarchy: the symbols at the cursor as call hierarchy items. */
  async prepareCallHierarchy(
    params: CallHierarchyPrepareParams,
    ctx: RequestContext = {},
  ): Promise<CallHierarchyItem[] | null> {
    const { graph, targets } = await this.targets(params, ctx);
    return targets.length ? targets.map((t) => this.item(graph, graph.symbols[t.id]!, t)) : null;
  }

  /**
   * callHierarchy/incomingCalls: who calls the item (as `callers` at depth 1), one entry per caller with its call
   * sites.
   */
  async incomingCalls(
    params: CallHierarchyIncomingCallsParams,
    ctx: RequestContext = {},
  ): Promise<CallHierarchyIncomingCall[]> {
    const graph = await this.graph(ctx);
    const s = this.find(graph, params.item.data as SymbolData | undefined);
    if (!s) return [];
    const byCaller = new Map<number, Site[]>();
    for (const site of callSitesOf(graph, s.id)) {
      const list = byCaller.get(site.caller);
      if (list) list.push(site);
      else byCaller.set(site.caller, [site]);
    }
    return [...byCaller].map(([caller, sites]) => ({
      from: this.item(graph, graph.symbols[caller]!, best(sites)),
      fromRanges: sites.map((x) =>
        siteRange(x.line, x.col, s.kind === "constructor" ? (graph.symbols[s.parent]?.name ?? s.name) : s.name),
      ),
    }));
  }

  /**
   * callHierarchy/outgoingCalls: what the item calls (as `callees` at depth 1), one entry per callee with the call
   * sites.
   */
  async outgoingCalls(
    params: CallHierarchyOutgoingCallsParams,
    ctx: RequestContext = {},
  ): Promise<CallHierarchyOutgoingCall[]> {
    const graph = await this.graph(ctx);
    const s = this.find(graph, params.item.data as SymbolData | undefined);
    if (!s) return [];
    return calleesOf(graph, s.id).map(({ callee, sites }) => {
      const target = graph.symbols[callee]!;
      const name = target.kind === "constructor" ? (graph.symbols[target.parent]?.name ?? target.name) : target.name;
      return {
        to: this.item(graph, target, best(sites)),
        fromRanges: sites.map((x) => siteRange(x.line, x.col, name)),
      };
    });
  }

  /** textDocument/codeLens: one lens per callable definition; the counts come with codeLens/resolve. */
  async codeLens(params: CodeLensParams, ctx: RequestContext = {}): Promise<CodeLens[]> {
    const graph = await this.graph(ctx);
    const path = this.uris.pathOf(params.textDocument.uri);
    if (path === undefined) return [];
    return definitionsOf(graph, path)
      .map((id) => graph.symbols[id]!)
      .filter((s) => LENS_KINDS.has(s.kind))
      .map((s) => ({ range: nameRange(graph, s), data: this.data(s) }));
  }

  /**
   * codeLens/resolve: "N callers · M tests", resolving to those lists: the command's arguments are
   * the document, the position, the callers' locations and the tests' locations (what an editor's
   * "show references" takes). The counts are `callers`' and `tests`' totals.
   */
  async codeLensResolve(lens: CodeLens, ctx: RequestContext = {}): Promise<CodeLens> {
    const graph = await this.graph(ctx);
    const s = this.find(graph, lens.data as SymbolData | undefined);
    if (!s) return { ...lens, command: { title: "symbol no longer indexed", command: "" } };
    const sites = callSitesOf(graph, s.id);
    const callers = sites.filter((x) => x.resolution !== "ambiguous").map((x) => this.siteLocation(graph, x, s));
    const possible = sites.length - callers.length;
    const tests = await unlessCancelled(
      this.engine.tests(s.qualified, { limit: 1000, budget: 1_000_000 }).catch(() => undefined),
      ctx.signal,
    );
    const testLocations = (tests?.tests ?? []).map((t) => ({
      uri: this.uris.uriOf(t.path),
      range: siteRange(t.start, 0, ""),
      data: { id: t.id, confidence: t.confidence },
    }));
    const title =
      `${callers.length} ` +
      (`caller${callers.length === 1 ? "" : "s"}${possible ? ` (+${possible} possible)` : ""} · ` +
        `${tests ? `${tests.total} test${tests.total === 1 ? "" : "s"}` : "tests unknown"}`);
    const uri = this.uris.uriOf(s.file);
    return {
      range: lens.range,
      command: {
        title,
        command: "codeslice.showReferences",
        arguments: [uri, lens.range.start, callers, testLocations],
      },
      data: { ...(lens.data as SymbolData), callers: callers.length, possible, tests: tests?.total ?? null },
    };
  }

  /** `codeslice/context`: the bundle an agent would get for a target (or the symbol at a position), within `budget`. */
  async context(params: ContextParams, ctx: RequestContext = {}): Promise<ContextAnswer> {
    const target = await this.targetText(params, ctx);
    return unlessCancelled(
      this.engine.context(target, params.budget !== undefined ? { budget: params.budget } : {}),
      ctx.signal,
    );
  }

  /** `codeslice/impact`: the blast radius of a target (or the symbol at a position). */
  async impact(params: ImpactParams, ctx: RequestContext = {}): Promise<ImpactAnswer> {
    const target = await this.targetText(params, ctx);
    const opts = {
      ...(params.depth !== undefined ? { depth: params.depth } : {}),
      ...(params.direction ? { direction: params.direction } : {}),
    };
    return unlessCancelled(this.engine.impact(target, opts), ctx.signal);
  }

  private async targetText(params: ContextParams | ImpactParams, ctx: RequestContext): Promise<string> {
    if (typeof params.target === "string" && params.target.trim()) {
      await this.refresh(ctx);
      return params.target;
    }
    if (params.textDocument && params.position) {
      const { graph, targets } = await this.targets(params as TextDocumentPositionParams, ctx);
      if (targets[0]) return graph.symbols[targets[0].id]!.qualified;
      const path = this.uris.pathOf(params.textDocument.uri);
      if (path !== undefined) return path;
    }
    throw new TypeError(
      "Pass `target` (a symbol, a file, `METHOD /path` or words), or `textDocument` and `position` of a name.",
    );
  }

  private data(s: SymbolNode, t?: Target): SymbolData {
    const d: SymbolData = { qualified: s.qualified, path: s.file, line: s.nameLine };
    if (t && t.resolution !== "definition") Object.assign(d, { resolution: t.resolution, confidence: t.confidence });
    return d;
  }

  private item(graph: CodeGraph, s: SymbolNode, t?: Target | Site): CallHierarchyItem {
    const name = s.kind === "module" ? s.file.slice(s.file.lastIndexOf("/") + 1) : s.name;
    return {
      name,
      kind: symbolKind(s.kind),
      detail: s.qualified,
      uri: this.uris.uriOf(s.file),
      range: symbolRange(s),
      selectionRange: nameRange(graph, s),
      data: this.data(
        s,
        t && "id" in t ? t : t ? { id: s.id, resolution: t.resolution, confidence: t.confidence } : undefined,
      ),
    };
  }

  private siteLocation(graph: CodeGraph, site: Site, callee: SymbolNode): Location {
    const name = callee.kind === "constructor" ? (graph.symbols[callee.parent]?.name ?? callee.name) : callee.name;
    const caller = graph.symbols[site.caller]!;
    return {
      uri: this.uris.uriOf(site.file),
      range: siteRange(site.line, site.col, name),
      data: { resolution: site.resolution, confidence: site.confidence, caller: caller.qualified },
    } as Location;
  }

  /** The symbol an item's or a lens's `data` names, in the current graph (lines may have moved since). */
  private find(graph: CodeGraph, data: SymbolData | undefined): SymbolNode | undefined {
    if (!data || typeof data.qualified !== "string") return undefined;
    const id = graph.byQualified.get(data.qualified);
    if (id !== undefined && graph.symbols[id]!.file === data.path) return graph.symbols[id];
    return definitionsOf(graph, data.path)
      .map((i) => graph.symbols[i]!)
      .find((s) => s.qualified === data.qualified);
  }
}

/** Symbols whose name starts with `prefix` (case-insensitive), shortest name first, as search hits. */
function namesStartingWith(graph: CodeGraph, prefix: string): SearchHit[] {
  const p = prefix.toLowerCase();
  const out: SearchHit[] = [];
  for (const [name, ids] of graph.byName) {
    if (!name.toLowerCase().startsWith(p)) continue;
    for (const id of ids) {
      const s = graph.symbols[id]!;
      if (s.kind !== "module")
        out.push({
          qualified: s.qualified,
          kind: s.kind,
          path: s.file,
          line: s.start,
          end: s.end,
          signature: graph.records.get(s.file)?.definitions[s.index]?.signature ?? "",
          score: 0,
          matched: ["name"],
        });
    }
  }
  out.sort((a, b) => a.qualified.length - b.qualified.length || (a.qualified < b.qualified ? -1 : 1));
  return out.slice(0, WORKSPACE_SYMBOL_LIMIT);
}

/** The most confident of a caller's sites, for the item's `data`. */
function best(sites: Site[]): Site {
  return sites.reduce((a, b) => (b.confidence > a.confidence ? b : a));
}
