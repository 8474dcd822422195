/** Graph queries: callers, callees, importers and signatures, as plain serializable answers. */
import { languageById } from "../../languages/index.ts";
import { DEFAULT_SEMANTICS, type DocStyle } from "../../languages/types.ts";
import type { BindingRecord, Definition } from "../extract/record.ts";
import { EngineError } from "../../shared/errors.ts";
import { LIMITS } from "../limits.ts";
import { findFile } from "../../shared/locations.ts";
import { normalizeRelative, readQuotedPath } from "../../shared/paths.ts";
import { findSymbol, symbolRef, type SymbolRef } from "./lookup.ts";
import { CONFIDENCE, type CallEdge, type CodeGraph, type Resolution, type SymbolNode } from "../graph/model.ts";
import {
  closestRoutes,
  ROUTE,
  routeClients,
  routesNamed,
  routeSymbols,
  severalRoutes,
  type ClientCall,
} from "./route-calls.ts";
import type { Route } from "./routes.ts";
import { quoted } from "../../shared/quote.ts";

/** Depth limits: beyond a few hops the answer is the whole repository. */
export const MAX_DEPTH = LIMITS.depth.max;

function checkDepth(depth: number | undefined): number {
  const d = depth ?? 1;
  if (!Number.isInteger(d) || d < 1 || d > MAX_DEPTH) {
    throw new EngineError("invalid_argument", `depth must be a whole number from 1 to ${MAX_DEPTH}, got ${depth}.`, {
      data: { depth },
    });
  }
  return d;
}

/** One related symbol, with the call site that links it and how sure the link is. */
export interface RelatedSymbol extends SymbolRef {
  /** Hops from the queried symbol (1 = direct). */
  depth: number;
  /** The call site: file and line of the call. */
  site: { path: string; line: number };
  via: "call" | "constructor" | "super";
  resolution: Resolution;
  confidence: number;
  /** For a `via-base` edge: the base method the call names, whose dispatch runs this override. */
  through?: string;
  /** For a call site in a test: the test's runnable id in its runner's syntax (set by paged answers). */
  test?: string;
}

/** Answer to callers/callees. */
export interface CallsAnswer {
  symbol: SymbolRef;
  direction: "callers" | "callees";
  depth: number;
  results: RelatedSymbol[];
  /** Calls into code outside the project (callees only), e.g. `os.path.join`. */
  external: { target: string; site: { path: string; line: number } }[];
  /**
   * Call sites that name this symbol but could not be resolved to it or to anything else with
   * evidence (several definitions share the name). Possible, not confirmed.
   */
  possible: { caller: SymbolRef; site: { path: string; line: number }; candidates: number }[];
}

/**
 * Callers (`direction: "callers"`) or callees of `target`, breadth-first up to `depth` hops. A
 * target written `METHOD /path` (with `routes`) is its route's handler; its callers are the handler's
 * callers plus the client calls that reach the route (resolution `route`), then their callers.
 */
export function calls(
  graph: CodeGraph,
  target: string,
  direction: "callers" | "callees",
  depthArg?: number,
  routes?: Route[],
): CallsAnswer {
  const depth = checkDepth(depthArg);
  const route = routes ? routeTarget(graph, routes, target) : undefined;
  const root = route?.handler ?? findSymbol(graph, target);
  const adjacency = direction === "callers" ? graph.callsTo : graph.callsFrom;
  const seen = new Set<number>([root.id]);
  const results: RelatedSymbol[] = [];
  let frontier = [root.id];
  for (let d = 1; d <= depth && frontier.length; d++) {
    const next: number[] = [];
    if (d === 1 && route && direction === "callers") {
      for (const c of route.clients) {
        results.push({
          ...symbolRef(graph.symbols[c.callerId]!),
          depth: 1,
          site: { path: c.path, line: c.line },
          via: "call",
          resolution: "route",
          confidence: CONFIDENCE.route,
        });
        if (!seen.has(c.callerId)) {
          seen.add(c.callerId);
          next.push(c.callerId);
        }
      }
    }
    for (const id of frontier) {
      for (const ei of adjacency.get(id) ?? []) {
        const e = graph.calls[ei]!;
        const other = direction === "callers" ? e.caller : e.callee;
        // Direct answers list every call site; deeper hops list each symbol once.
        if (d > 1 && seen.has(other)) continue;
        results.push({
          ...symbolRef(graph.symbols[other]!),
          depth: d,
          site: { path: e.file, line: e.line },
          via: e.via,
          resolution: e.resolution,
          confidence: e.confidence,
          ...(e.resolution === "via-base" ? throughOf(graph, e) : {}),
        });
        if (!seen.has(other)) {
          seen.add(other);
          // A class-body call's caller is the class, but calling the class does not run its body.
          if (!(direction === "callers" && e.classBody)) next.push(other);
        }
      }
    }
    frontier = next;
  }
  results.sort(
    (a, b) =>
      a.depth - b.depth ||
      b.confidence - a.confidence ||
      (a.site.path < b.site.path ? -1 : a.site.path > b.site.path ? 1 : a.site.line - b.site.line),
  );
  const external =
    direction === "callees"
      ? graph.external
          .filter((x) => x.caller === root.id)
          .map((x) => ({ target: x.target, site: { path: x.file, line: x.line } }))
      : [];
  const possible =
    direction === "callers"
      ? graph.ambiguous
          .filter((a) => a.candidates.includes(root.id))
          .map((a) => ({
            caller: symbolRef(graph.symbols[a.caller]!),
            site: { path: a.file, line: a.line },
            candidates: a.candidates.length,
          }))
      : [];
  return { symbol: symbolRef(root), direction, depth, results, external, possible };
}

/**
 * The handler of a target written `METHOD /path` and the client calls reaching its routes; undefined for any other
 * target.
 */
function routeTarget(
  graph: CodeGraph,
  routes: Route[],
  target: string,
): { handler: SymbolNode; clients: ClientCall[] } | undefined {
  const m = ROUTE.exec(target.trim());
  if (!m) return undefined;
  const hits = closestRoutes(routesNamed(routes, m[1]!, m[2]!, target.trim()), m[2]!);
  const ids = routeSymbols(graph, hits);
  if (ids.length !== 1) throw severalRoutes(target.trim(), hits, "routes with different handlers");
  const clients: ClientCall[] = [];
  for (const r of hits)
    for (const c of routeClients(graph, routes, r))
      if (!clients.some((x) => x.path === c.path && x.line === c.line)) clients.push(c);
  return { handler: graph.symbols[ids[0]!]!, clients };
}

/**
 * The base method a dispatch edge goes through: the call's own (non-dispatch) edge at the same
 * site to a method of the same name, which the override overrides.
 */
function throughOf(graph: CodeGraph, e: CallEdge): { through?: string } {
  const name = graph.symbols[e.callee]!.name;
  for (const ei of graph.callsFrom.get(e.caller) ?? []) {
    const o = graph.calls[ei]!;
    if (o.line === e.line && o.file === e.file && o.resolution !== "via-base" && graph.symbols[o.callee]!.name === name)
      return { through: graph.symbols[o.callee]!.qualified };
  }
  return {};
}

/** Answer to importers. */
export interface ImportersAnswer {
  path: string;
  depth: number;
  results: { path: string; depth: number }[];
}

/** Files that import `path` (directly, then transitively up to `depth`). */
export function importers(graph: CodeGraph, pathArg: string, depthArg?: number, root?: string): ImportersAnswer {
  const depth = checkDepth(depthArg);
  const written = readQuotedPath(pathArg.trim())?.path ?? pathArg.trim();
  const found = findFile(
    { has: (p) => graph.moduleSymbol.has(p), paths: () => graph.moduleSymbol.keys() },
    written,
    root,
    { bySuffix: false },
  );
  const path = found?.path ?? normalizeRelative(written);
  if (path === undefined || path === "") {
    throw new EngineError("outside_root", `${quoted(pathArg)} is not a path inside the project.`, {
      hint: "Pass a path relative to the project root, e.g. src/app.ts, or an absolute path inside it.",
      data: { path: pathArg },
    });
  }
  if (!graph.moduleSymbol.has(path)) {
    const base = path.slice(path.lastIndexOf("/") + 1);
    const similar = [...graph.moduleSymbol.keys()].filter((p) => p.endsWith(`/${base}`) || p === base).slice(0, 5);
    throw new EngineError("not_found", `${path} is not an indexed source file.`, {
      hint: similar.length ? `Did you mean ${similar.join(", ")}?` : "Check the path (relative to the project root).",
      data: { path, suggestions: similar },
    });
  }
  const seen = new Set([path]);
  const results: { path: string; depth: number }[] = [];
  let frontier = [path];
  for (let d = 1; d <= depth && frontier.length; d++) {
    const next: string[] = [];
    for (const f of frontier) {
      for (const from of graph.importedBy.get(f) ?? []) {
        if (seen.has(from)) continue;
        seen.add(from);
        results.push({ path: from, depth: d });
        next.push(from);
      }
    }
    frontier = next;
  }
  results.sort((a, b) => a.depth - b.depth || (a.path < b.path ? -1 : 1));
  return { path, depth, results };
}

/** Answer to signature: the header and docstring without the body; a class with members stubbed. */
export interface SignatureAnswer {
  symbol: SymbolRef & { end: number };
  text: string;
  members: (SymbolRef & { signature: string })[];
}

function definitionOf(graph: CodeGraph, s: SymbolNode): Definition {
  return graph.records.get(s.file)!.definitions[s.index]!;
}

/** A doc as the language writes it: a docstring in the body, or a block comment above. */
function docBlock(doc: string | undefined, style: DocStyle | undefined, indent: string): string[] {
  if (!doc) return [];
  if (style === "body-string") {
    const lines = doc.split("\n");
    return lines.length === 1
      ? [`${indent}"""${doc}"""`]
      : [`${indent}"""${lines[0]}`, ...lines.slice(1).map((l) => (l ? indent + l : l)), `${indent}"""`];
  }
  return [`${indent}/**`, ...doc.split("\n").map((l) => `${indent} * ${l}`.trimEnd()), `${indent} */`];
}

/**
 * A shorter outline of a container (see {@link outline}): the members it shows, the fields it
 * lists at most, and its docstring cut to the first line; what is left out is counted on one line.
 */
export interface OutlineSelection {
  members: ReadonlySet<number>;
  fields: number;
}

/**
 * Renders a definition as its outline: decorators, header, docstring, and (for classes) member
 * headers. With `select`, only the members it names, its first fields and the docstring's first
 * line, and a line counting the rest ("… 37 more members").
 */
export function outline(graph: CodeGraph, s: SymbolNode, depth = 0, select?: OutlineSelection): string {
  const d = definitionOf(graph, s);
  const spec = languageById(s.language);
  const indented = (spec?.semantics ?? DEFAULT_SEMANTICS).blocks === "indent";
  const indent = "    ".repeat(depth);
  const lines: string[] = [];
  for (const dec of d.decorators ?? []) lines.push(indent + dec);
  const header = d.signature
    .split("\n")
    .map((l, i) => (i === 0 ? indent + l.trim() : l))
    .join("\n");
  const all = (graph.children.get(s.id) ?? []).map((id) => graph.symbols[id]!).filter((m) => m.kind !== "module");
  const members = select ? all.filter((m) => select.members.has(m.id)) : all;
  const container =
    s.kind === "class" ||
    s.kind === "interface" ||
    s.kind === "struct" ||
    s.kind === "trait" ||
    s.kind === "enum" ||
    s.kind === "module";
  const allFields =
    container && s.kind !== "module" && depth < 2 ? fieldLines(graph, s, indented, `${indent}    `) : [];
  const fields = select ? allFields.slice(0, select.fields) : allFields;
  const hidden = container && depth < 2 ? all.length - members.length + allFields.length - fields.length : 0;
  const comment = indented ? "#" : "//";
  const more = hidden > 0 ? [`${indent}    ${comment} … ${hidden} more member${hidden > 1 ? "s" : ""}`] : [];
  const doc = depth > 0 || select ? d.doc?.split("\n")[0] : d.doc;
  if (indented) {
    lines.push(header.endsWith(":") ? header : `${header}:`);
    lines.push(...docBlock(doc, spec?.docStyle, `${indent}    `));
    lines.push(...fields);
    if (container && members.length && depth < 2) for (const m of members) lines.push(outline(graph, m, depth + 1));
    else if (!fields.length && !more.length) lines.push(`${indent}    ...`);
    lines.push(...more);
  } else {
    lines.splice(lines.length - (d.decorators?.length ?? 0), 0, ...docBlock(doc, spec?.docStyle, indent));
    if (container && (members.length || fields.length || more.length) && depth < 2) {
      lines.push(`${header} {`);
      lines.push(...fields);
      for (const m of members) lines.push(outline(graph, m, depth + 1));
      lines.push(...more);
      lines.push(`${indent}}`);
    } else if (d.bodyStart) lines.push(`${header} { … }`);
    else lines.push(header);
  }
  return lines.join("\n");
}

/** Fields an outline lists at most per class: the shape, not an inventory. */
const MAX_FIELDS = 24;

/**
 * A class's attributes and fields as outline lines: its own class-level assignments and field
 * declarations, then the fields its methods set on the instance (`self.x = …`, `this.x = …`),
 * each once, with the type and the string default when the code states them.
 */
function fieldLines(graph: CodeGraph, s: SymbolNode, indented: boolean, indent: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  const add = (name: string, type: string | undefined, literal: string | undefined) => {
    if (seen.has(name) || out.length >= MAX_FIELDS || !/^[A-Za-z_$#][\w$]*$/.test(name)) return;
    seen.add(name);
    const typed = type ? `: ${type.length > 80 ? `${type.slice(0, 80)}…` : type}` : "";
    const value = literal !== undefined && literal.length <= 80 ? ` = ${literal}` : indented && !typed ? " = ..." : "";
    const end = indented ? "" : s.kind === "enum" ? "," : (languageById(s.language)?.fieldTerminator ?? ";");
    out.push(`${indent}${name}${typed}${value}${end}`);
  };
  for (const b of fieldBindings(graph, s)) add(b.name, b.type, b.literal);
  return out;
}

/**
 * A class-like symbol's attributes and fields as the code binds them, in outline order: its own
 * class-level assignments and field declarations, then the fields its methods set on the instance
 * (`self.x = …`, `this.x = …`). A name may come more than once.
 */
export function fieldBindings(graph: CodeGraph, s: SymbolNode): BindingRecord[] {
  const record = graph.records.get(s.file);
  if (!record) return [];
  const sem = languageById(s.language)?.semantics ?? DEFAULT_SEMANTICS;
  const methods = new Set((graph.children.get(s.id) ?? []).map((id) => graph.symbols[id]!.index));
  const own = record.bindings.filter(
    (b) => b.scope === s.index && (b.kind === "assign" || (b.kind === "field" && b.receiver === undefined)),
  );
  const set = record.bindings.filter(
    (b) =>
      b.kind === "field" &&
      methods.has(b.scope) &&
      (b.receiver === undefined || sem.instanceNames.includes(b.receiver)),
  );
  return [...own, ...set];
}

/** The signature answer for `target`. */
export function signature(graph: CodeGraph, target: string): SignatureAnswer {
  const s = findSymbol(graph, target);
  const members = (graph.children.get(s.id) ?? [])
    .map((id) => graph.symbols[id]!)
    .map((m) => ({ ...symbolRef(m), signature: definitionOf(graph, m).signature.split("\n")[0]!.trim() }));
  return { symbol: { ...symbolRef(s), end: s.end }, text: outline(graph, s), members };
}
