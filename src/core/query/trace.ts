/**
 * trace(from, to): the shortest paths from one symbol (or an HTTP route) to another through calls,
 * constructor and super calls, inheritance, overriding methods (dynamic dispatch, marked as such),
 * type annotations and, between files, imports — up to k paths, each hop cited, fitted to a
 * budget. Unconnected symbols get an answer that says what was searched, not a bare "no".
 */
import { EngineError } from "../../shared/errors.ts";
import { cite, citeName } from "../../shared/paths.ts";
import { LIMITS } from "../limits.ts";
import { matchRoutes, type Route } from "./routes.ts";
import { registeredAt, ROUTE } from "./route-calls.ts";
import { callsCompleteness, type Completeness } from "./completeness.ts";
import { findSymbol, symbolRef, type SymbolRef } from "./lookup.ts";
import type { CodeGraph, Resolution, SymbolNode } from "../graph/model.ts";
import { BUDGET_DIGITS_MARGIN, completenessLines, fmt, plural, withUsage, type ListArgs, type Usage } from "./pages.ts";

/** What one hop follows. */
export type HopKind =
  | "route"
  | "call"
  | "constructor"
  | "super"
  | "extends"
  | "implements"
  | "dispatch"
  | "type"
  | "import"
  | "member";

/** One hop: from a symbol to the next, where the link is written and how sure it is. */
export interface TraceHop {
  from: string;
  to: string;
  /** Where `to` is defined. */
  toAt: { path: string; line: number };
  kind: HopKind;
  /** Where the link is written (the call, the class header, the import). */
  site: { path: string; line: number };
  resolution?: Resolution;
  confidence: number;
  /** The site's line of source, when the budget holds it. */
  code?: string;
}

/** One path: its hops in order and how far it can be trusted (the product of the hops' confidences). */
export interface TracePath {
  hops: TraceHop[];
  confidence: number;
  /** `symbol` for a path through definitions; `file` for imports between the two files when no symbol path exists. */
  level: "symbol" | "file";
}

export interface TraceAnswer {
  from: {
    label: string;
    symbol?: SymbolRef;
    route?: { method: string; path: string; at: { path: string; line: number } };
  };
  to: SymbolRef;
  k: number;
  maxHops: number;
  paths: TracePath[];
  /** Paths found but left out by the budget. */
  cut: number;
  /** What the search covered: edge kinds followed and how many symbols each side reaches within maxHops. */
  searched: { edges: HopKind[]; reachableFrom: number; reachingTo: number; reverse?: number };
  completeness: Completeness;
  usage: Usage;
  text: string;
}

/** What trace needs from the engine: routes, and source lines for the hops. */
export interface TraceIO {
  routes(): Route[];
  readText(path: string): Promise<string | undefined>;
}

const FOLLOWED: HopKind[] = ["call", "constructor", "super", "extends", "implements", "dispatch", "type", "import"];
/** Partial paths a search may grow before it stops: bounds the work on dense graphs. */
const MAX_EXPANSIONS = 200_000;

interface Edge {
  from: number;
  to: number;
  kind: HopKind;
  file: string;
  line: number;
  confidence: number;
  resolution?: Resolution;
}

interface Indexes {
  basesOf: Map<number, { base: number; kind: "extends" | "implements" }[]>;
  typeUsers: Map<number, number[]>;
  importLine: Map<string, number>;
}

const indexes = new WeakMap<CodeGraph, Indexes>();
function indexesOf(graph: CodeGraph): Indexes {
  let ix = indexes.get(graph);
  if (!ix) {
    const basesOf = new Map<number, { base: number; kind: "extends" | "implements" }[]>();
    for (const e of graph.inherits)
      (basesOf.get(e.child) ?? basesOf.set(e.child, []).get(e.child)!).push({ base: e.base, kind: e.kind });
    const typeUsers = new Map<number, number[]>();
    for (const [user, types] of graph.typeUses)
      for (const t of types) (typeUsers.get(t) ?? typeUsers.set(t, []).get(t)!).push(user);
    const importLine = new Map<string, number>();
    for (const e of graph.imports) importLine.set(`${e.from}\0${e.to}`, e.line);
    ix = { basesOf, typeUsers, importLine };
    indexes.set(graph, ix);
  }
  return ix;
}

/** Methods with the same name in the classes above (`up`) or below a method's class. */
function sameNamed(graph: CodeGraph, id: number, up: boolean): number[] {
  const s = graph.symbols[id]!;
  const owner = graph.symbols[s.parent];
  if (!owner || owner.kind === "module" || s.kind === "module") return [];
  const ix = indexesOf(graph);
  const out: number[] = [];
  const seen = new Set([owner.id]);
  const queue = up ? (ix.basesOf.get(owner.id) ?? []).map((b) => b.base) : [...(graph.subclasses.get(owner.id) ?? [])];
  while (queue.length && seen.size < 500) {
    const cls = queue.shift()!;
    if (seen.has(cls)) continue;
    seen.add(cls);
    const m = (graph.children.get(cls) ?? []).find((c) => graph.symbols[c]!.name === s.name);
    if (m !== undefined) out.push(m);
    queue.push(...(up ? (ix.basesOf.get(cls) ?? []).map((b) => b.base) : (graph.subclasses.get(cls) ?? [])));
  }
  return out;
}

const edgeMemos = new WeakMap<CodeGraph, [Map<number, Edge[]>, Map<number, Edge[]>]>();

/** Edges out of `u` (or into it, `reverse`), one per neighbour: the most confident, earliest site. */
function edges(graph: CodeGraph, u: number, reverse: boolean): Edge[] {
  const memos = edgeMemos.get(graph) ?? edgeMemos.set(graph, [new Map(), new Map()]).get(graph)!;
  const memo = memos[reverse ? 1 : 0];
  let list = memo.get(u);
  if (!list) memo.set(u, (list = edgesOf(graph, u, reverse)));
  return list;
}

function edgesOf(graph: CodeGraph, u: number, reverse: boolean): Edge[] {
  const ix = indexesOf(graph);
  const s = graph.symbols[u]!;
  const out: Edge[] = [];
  for (const ei of (reverse ? graph.callsTo : graph.callsFrom).get(u) ?? []) {
    const e = graph.calls[ei]!;
    // A via-base edge is the graph's shortcut for dispatch; a path shows it as its two steps
    // (the call to the base method, then the dispatch hop to the override) below.
    if (e.resolution === "via-base") continue;
    out.push({
      from: e.caller,
      to: e.callee,
      kind: e.via === "call" ? "call" : e.via,
      file: e.file,
      line: e.line,
      confidence: e.confidence,
      resolution: e.resolution,
    });
  }
  if (reverse) {
    for (const child of graph.subclasses.get(u) ?? []) {
      const kind = (ix.basesOf.get(child) ?? []).find((b) => b.base === u)?.kind ?? "extends";
      const c = graph.symbols[child]!;
      out.push({ from: child, to: u, kind, file: c.file, line: c.nameLine, confidence: 0.9 });
    }
    for (const user of ix.typeUsers.get(u) ?? []) {
      const us = graph.symbols[user]!;
      out.push({
        from: user,
        to: u,
        kind: "type",
        file: us.file,
        line: us.kind === "module" ? 1 : us.nameLine,
        confidence: 0.85,
      });
    }
    for (const base of sameNamed(graph, u, true))
      out.push({ from: base, to: u, kind: "dispatch", file: s.file, line: s.nameLine, confidence: 0.5 });
    if (s.kind === "module") {
      for (const from of graph.importedBy.get(s.file) ?? []) {
        const id = graph.moduleSymbol.get(from)!;
        out.push({
          from: id,
          to: u,
          kind: "import",
          file: from,
          line: ix.importLine.get(`${from}\0${s.file}`) ?? 1,
          confidence: 0.95,
        });
      }
    }
  } else {
    for (const b of ix.basesOf.get(u) ?? [])
      out.push({ from: u, to: b.base, kind: b.kind, file: s.file, line: s.nameLine, confidence: 0.9 });
    for (const t of graph.typeUses.get(u) ?? [])
      out.push({
        from: u,
        to: t,
        kind: "type",
        file: s.file,
        line: s.kind === "module" ? 1 : s.nameLine,
        confidence: 0.85,
      });
    for (const sub of sameNamed(graph, u, false)) {
      const t = graph.symbols[sub]!;
      out.push({ from: u, to: sub, kind: "dispatch", file: t.file, line: t.nameLine, confidence: 0.5 });
    }
    if (s.kind === "module") {
      for (const to of graph.importsFrom.get(s.file) ?? []) {
        out.push({
          from: u,
          to: graph.moduleSymbol.get(to)!,
          kind: "import",
          file: s.file,
          line: ix.importLine.get(`${s.file}\0${to}`) ?? 1,
          confidence: 0.95,
        });
      }
    }
  }
  // One edge per neighbour: parallel call sites say the same thing for a path.
  const best = new Map<number, Edge>();
  for (const e of out) {
    const key = reverse ? e.from : e.to;
    const b = best.get(key);
    if (
      !b ||
      e.confidence > b.confidence ||
      (e.confidence === b.confidence && (e.file < b.file || (e.file === b.file && e.line < b.line)))
    )
      best.set(key, e);
  }
  return [...best.values()];
}

/** The symbol and everything inside it (a class's methods): reaching any of them reaches it. */
function withMembers(graph: CodeGraph, id: number): number[] {
  const out = [id];
  for (let i = 0; i < out.length; i++) for (const c of graph.children.get(out[i]!) ?? []) out.push(c);
  return out;
}

/**
 * What a hop costs against maxHops: a dispatch hop is the same call running an override (the
 * call to `Base.m` then `Sub.m`), so it is free; a path through a base's dispatch edge is as long
 * as the calls it makes (httpx's `Client.get` reaches `HTTPTransport.handle_request` in 6 calls).
 */
function hopCost(e: Edge): number {
  return e.kind === "dispatch" ? 0 : 1;
}

/** Hops from each symbol to the nearest target, up to `max` (a reverse 0-1 breadth-first search). */
function distancesTo(graph: CodeGraph, targets: number[], max: number): Map<number, number> {
  const dist = new Map<number, number>(targets.map((t) => [t, 0]));
  const deque: number[] = [...targets];
  for (let head = 0; head < deque.length; head++) {
    const v = deque[head]!;
    const dv = dist.get(v)!;
    for (const e of edges(graph, v, true)) {
      const d = dv + hopCost(e);
      if (d > max || (dist.get(e.from) ?? Infinity) <= d) continue;
      dist.set(e.from, d);
      // a free hop is expanded again at its (smaller) distance; the queue stays short on real graphs
      deque.push(e.from);
    }
  }
  return dist;
}

function reachableFrom(graph: CodeGraph, starts: number[], max: number): number {
  const seen = new Set(starts);
  let frontier = starts;
  for (let d = 1; d <= max && frontier.length; d++) {
    const next: number[] = [];
    for (const u of frontier)
      for (const e of edges(graph, u, false)) if (!seen.has(e.to)) seen.add(e.to), next.push(e.to);
    frontier = next;
  }
  return seen.size;
}

interface Start {
  node: number;
  /** The hops that lead to it (a route's registration; membership in the `from` class or a base it extends). */
  lead?: (Edge & { label?: string })[];
  /** Only call edges written on these lines leave it (an inline route handler inside module code). */
  lines?: { start: number; end: number };
}

/**
 * The k shortest simple paths (by hops, then confidence) from the starts to the targets: a
 * best-first search whose estimate, the exact distance to the targets, never overestimates, so
 * paths come out shortest first.
 */
function kShortest(
  graph: CodeGraph,
  starts: Start[],
  targets: Set<number>,
  dist: Map<number, number>,
  k: number,
  maxHops: number,
): Edge[][] {
  interface Partial {
    node: number;
    edges: Edge[];
    nodes: Set<number>;
    cost: number;
    conf: number;
    lines?: { start: number; end: number };
  }
  const queue: Partial[] = [];
  const push = (p: Partial) => {
    // A small binary heap on (hops + distance to the targets, then confidence).
    queue.push(p);
    let i = queue.length - 1;
    const key = (x: Partial) => x.cost + (dist.get(x.node) ?? Infinity);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const a = queue[i]!;
      const b = queue[parent]!;
      if (key(a) < key(b) || (key(a) === key(b) && a.conf > b.conf)) {
        queue[i] = b;
        queue[parent] = a;
        i = parent;
      } else break;
    }
  };
  const pop = (): Partial | undefined => {
    const top = queue[0];
    const last = queue.pop();
    if (queue.length && last) {
      queue[0] = last;
      const key = (x: Partial) => x.cost + (dist.get(x.node) ?? Infinity);
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        for (const c of [l, r]) {
          if (c >= queue.length) continue;
          const a = queue[c]!;
          const b = queue[m]!;
          if (key(a) < key(b) || (key(a) === key(b) && a.conf > b.conf)) m = c;
        }
        if (m === i) break;
        [queue[i], queue[m]] = [queue[m]!, queue[i]!];
        i = m;
      }
    }
    return top;
  };
  for (const s of starts) {
    if (!dist.has(s.node)) continue;
    const lead = s.lead ?? [];
    push({
      node: s.node,
      edges: lead,
      nodes: new Set([s.node]),
      cost: 0,
      conf: lead.reduce((c, e) => c * e.confidence, 1),
      ...(s.lines ? { lines: s.lines } : {}),
    });
  }
  const found: Edge[][] = [];
  const seenPaths = new Set<string>();
  for (let expansions = 0; queue.length && found.length < k && expansions < MAX_EXPANSIONS; expansions++) {
    const p = pop()!;
    if (targets.has(p.node) && (p.edges.length > 0 || p.cost > 0)) {
      const key = p.edges.map((e) => `${e.from}>${e.to}`).join(",");
      if (!seenPaths.has(key)) {
        seenPaths.add(key);
        found.push(p.edges);
      }
      continue;
    }
    if (p.cost > maxHops) continue;
    for (const e of edges(graph, p.node, false)) {
      if (p.nodes.has(e.to)) continue;
      if (
        p.lines &&
        (e.file !== graph.symbols[p.node]!.file ||
          e.line < p.lines.start ||
          e.line > p.lines.end ||
          !["call", "constructor", "super"].includes(e.kind))
      )
        continue;
      const d = dist.get(e.to);
      const cost = p.cost + hopCost(e);
      if (d === undefined || cost + d > maxHops) continue;
      const nodes = new Set(p.nodes);
      nodes.add(e.to);
      push({ node: e.to, edges: [...p.edges, e], nodes, cost, conf: p.conf * e.confidence });
    }
  }
  return found;
}

/** File-level paths through imports between the files of the two ends (when no symbol path exists). */
function importPath(graph: CodeGraph, fromFile: string, toFile: string, maxHops: number): Edge[] | undefined {
  const start = graph.moduleSymbol.get(fromFile);
  const end = graph.moduleSymbol.get(toFile);
  if (start === undefined || end === undefined || start === end) return undefined;
  const prev = new Map<number, Edge>();
  const seen = new Set([start]);
  let frontier = [start];
  for (let d = 1; d <= maxHops && frontier.length; d++) {
    const next: number[] = [];
    for (const u of frontier) {
      for (const e of edges(graph, u, false)) {
        if (e.kind !== "import" || seen.has(e.to)) continue;
        seen.add(e.to);
        prev.set(e.to, e);
        if (e.to === end) {
          const path: Edge[] = [];
          for (let at = end; at !== start; at = prev.get(at)!.from) path.unshift(prev.get(at)!);
          return path;
        }
        next.push(e.to);
      }
    }
    frontier = next;
  }
  return undefined;
}

/** Validates k and the hop limit. */
export function traceLimits(k: number | undefined, maxHops: number | undefined): { k: number; maxHops: number } {
  const kk = k ?? LIMITS.trace.paths.default;
  const hh = maxHops ?? LIMITS.trace.hops.default;
  if (!Number.isInteger(kk) || kk < 1 || kk > LIMITS.trace.paths.max) {
    throw new EngineError(
      "invalid_argument",
      `k must be a whole number of paths from 1 to ${LIMITS.trace.paths.max}, got ${String(k)}.`,
      { data: { k } },
    );
  }
  if (!Number.isInteger(hh) || hh < 1 || hh > LIMITS.trace.hops.max) {
    throw new EngineError(
      "invalid_argument",
      `maxHops must be a whole number from 1 to ${LIMITS.trace.hops.max}, got ${String(maxHops)}.`,
      { data: { maxHops } },
    );
  }
  return { k: kk, maxHops: hh };
}

/** The trace answer's text: the paths kept (with their code lines where left), what was searched and cut. */
function traceText(
  t: {
    from: TraceAnswer["from"];
    to: SymbolNode;
    paths: TracePath[];
    kept: TracePath[];
    shown: number;
    k: number;
    maxHops: number;
    searched: TraceAnswer["searched"];
    completeness: Completeness;
  },
  usage: string,
): string {
  const { from, to, paths, kept, shown, k, maxHops, searched, completeness } = t;
  const lines = [`# Trace: ${citeName(from.label)} → ${to.qualified} (${to.kind}, ${cite(to.file, to.start)})`];
  if (!paths.length) {
    lines.push(`No path within ${maxHops} hops.`);
  } else if (!paths.some((p) => p.level === "symbol")) {
    lines.push(
      `No symbol path within ${maxHops} hops (calls, inheritance, overriding, types); their files are ` +
        `linked by imports:`,
    );
  } else {
    lines.push(
      `${plural(paths.length, "path")} (shortest first, up to ${k}, within ${maxHops} ` +
        `hops)${paths.length > shown ? `; ${fmt(shown)} shown` : ""}.`,
    );
  }
  kept.forEach((p, i) => {
    const free = p.hops.filter((h) => h.kind === "dispatch").length;
    lines.push(
      "",
      `## Path ${i + 1}: ` +
        (`${plural(p.hops.length, "hop")}${free ? ` (${free} dispatch, not counted against ${maxHops})` : ""}` +
          (`, confidence ${p.confidence.toFixed(2)}` +
            `${p.level === "file" ? " (file level: imports only, no symbol path found)" : ""}`)),
    );
    for (const h of p.hops) {
      lines.push(
        `- ${cite(h.site.path, h.site.line)} ${h.from} —${h.kind}→ ${h.to} ` +
          (`(${cite(h.toAt.path, h.toAt.line)})` +
            `${h.resolution ? ` [${h.resolution}, ${h.confidence.toFixed(2)}]` : ""}`),
      );
      if (h.code) lines.push(`    ${h.code}`);
    }
  });
  if (paths.length > shown)
    lines.push(
      "",
      `${plural(paths.length - shown, "more path")} found but left out by the budget; ask again with a ` +
        `larger budget.`,
    );
  lines.push(
    "",
    `Searched: ${FOLLOWED.join(", ")} edges, up to ${maxHops} hops; ` +
      (`${plural(searched.reachableFrom, "symbol")} reachable from the start, ` +
        `${plural(searched.reachingTo, "symbol")} reaching the end.`),
  );
  if (searched.reverse !== undefined)
    lines.push(
      `The other way round, ${to.qualified} reaches ${from.label} in ${plural(searched.reverse, "hop")}: ` +
        `trace from ${to.qualified} to ${from.label}.`,
    );
  else if (!paths.some((p) => p.level === "symbol"))
    lines.push(
      `Nor does ${to.qualified} reach it within ${maxHops} hops.` +
        (maxHops < LIMITS.trace.hops.max ? ` To search further, ask with maxHops up to ${LIMITS.trace.hops.max}.` : ""),
    );
  lines.push("", ...completenessLines(completeness, paths.length === 0, "every call at both ends is linked"));
  lines.push("", usage);
  return lines.join("\n");
}

/**
 * Where a trace starts: a symbol with its members and the members it inherits, or the handlers of the
 * routes `fromArg` ("METHOD /path") matches, each with the lead hops that reach it.
 */
function traceStarts(
  graph: CodeGraph,
  fromArg: string,
  io: TraceIO,
): { starts: Start[]; from: TraceAnswer["from"]; fromSymbol?: SymbolNode; route: boolean } {
  const starts: Start[] = [];
  let from: TraceAnswer["from"];
  let fromSymbol: SymbolNode | undefined;
  const route = ROUTE.exec(fromArg.trim());
  if (route) {
    const method = route[1]!.toUpperCase();
    const matched = registeredAt(matchRoutes(io.routes(), method, route[2]!), fromArg);
    if (!matched.length) {
      throw new EngineError(
        "unknown_symbol",
        `No route matches ${method} ${route[2]} (${io.routes().length} routes known).`,
        {
          hint: "Check the method and path (the map lists the routes), or trace from the handler's name.",
          data: { target: fromArg, known: io.routes().length },
        },
      );
    }
    const r = matched[0]!;
    const label = `${r.method} ${r.path}`;
    from = { label, route: { method: r.method, path: r.path, at: { path: r.file, line: r.line } } };
    for (const m of matched) {
      if (m.handler !== undefined)
        starts.push({
          node: m.handler,
          lead: [
            {
              from: -1,
              to: m.handler,
              kind: "route",
              file: m.file,
              line: m.line,
              confidence: 0.9,
              label: `${m.method} ${m.path}`,
            },
          ],
        });
      else {
        const moduleId = graph.moduleSymbol.get(m.file)!;
        starts.push({
          node: moduleId,
          lines: m.span,
          lead: [
            {
              from: -1,
              to: moduleId,
              kind: "route",
              file: m.file,
              line: m.line,
              confidence: 0.9,
              label: `${m.method} ${m.path}`,
            },
          ],
        });
      }
    }
  } else {
    fromSymbol = findSymbol(graph, fromArg);
    from = { label: fromSymbol.qualified, symbol: symbolRef(fromSymbol) };
    starts.push({ node: fromSymbol.id });
    // A class starts from its members too, and from those it inherits: `trace Class target` means
    // any method its objects have.
    const member = (owner: number, m: number): Edge => {
      const s = graph.symbols[m]!;
      return { from: owner, to: m, kind: "member", file: s.file, line: s.nameLine, confidence: 1 };
    };
    for (const m of withMembers(graph, fromSymbol.id).slice(1))
      starts.push({ node: m, lead: [member(fromSymbol.id, m)] });
    const ix = indexesOf(graph);
    const seenBases = new Set([fromSymbol.id]);
    const queue: { cls: number; lead: Edge[] }[] = [{ cls: fromSymbol.id, lead: [] }];
    while (queue.length && seenBases.size < 50) {
      const { cls, lead } = queue.shift()!;
      const c = graph.symbols[cls]!;
      for (const b of ix.basesOf.get(cls) ?? []) {
        if (seenBases.has(b.base)) continue;
        seenBases.add(b.base);
        const hop: Edge = { from: cls, to: b.base, kind: b.kind, file: c.file, line: c.nameLine, confidence: 0.9 };
        for (const m of graph.children.get(b.base) ?? [])
          starts.push({ node: m, lead: [...lead, hop, member(b.base, m)] });
        queue.push({ cls: b.base, lead: [...lead, hop] });
      }
    }
  }
  return { starts, from, ...(fromSymbol ? { fromSymbol } : {}), route: route !== null };
}

/** Traces `fromArg` (a symbol or `METHOD /path`) to `toArg` (a symbol). */
export async function trace(
  graph: CodeGraph,
  fromArg: string,
  toArg: string,
  opts: { k: number; maxHops: number },
  args: ListArgs,
  io: TraceIO,
): Promise<TraceAnswer> {
  const { k, maxHops } = opts;
  const to = findSymbol(graph, toArg);
  const { starts, from, fromSymbol, route } = traceStarts(graph, fromArg, io);
  const targets = new Set(withMembers(graph, to.id));
  const dist = distancesTo(graph, [...targets], maxHops);
  // A member lead costs no hop of its own: the search counts hops from the start's node.
  const raw = kShortest(graph, starts, targets, dist, k, maxHops);
  const label = (id: number) => (id < 0 ? from.label : graph.symbols[id]!.qualified);
  const toHop = (e: Edge & { label?: string }): TraceHop => {
    const t = graph.symbols[e.to]!;
    return {
      from: e.from < 0 ? (e.label ?? from.label) : label(e.from),
      to: t.qualified,
      toAt: { path: t.file, line: t.kind === "module" ? 1 : t.start },
      kind: e.kind,
      site: { path: e.file, line: e.line },
      ...(e.resolution ? { resolution: e.resolution } : {}),
      confidence: e.confidence,
    };
  };
  const paths: TracePath[] = raw.map((edgesOf) => {
    const hops = edgesOf.map(toHop);
    // Ending inside the target class: one last hop says which member was reached.
    const last = edgesOf.at(-1);
    if (last && last.to !== to.id) {
      const m = graph.symbols[last.to]!;
      hops.push({
        from: m.qualified,
        to: to.qualified,
        toAt: { path: to.file, line: to.start },
        kind: "member",
        site: { path: m.file, line: m.nameLine },
        confidence: 1,
      });
    }
    return { hops, confidence: hops.reduce((c, h) => c * h.confidence, 1), level: "symbol" as const };
  });
  const fromFile = fromSymbol?.file ?? (route ? starts[0] && graph.symbols[starts[0].node]!.file : undefined);
  if (!paths.length && fromFile) {
    const viaImports = importPath(graph, fromFile, to.file, maxHops);
    if (viaImports)
      paths.push({
        hops: viaImports.map(toHop),
        confidence: viaImports.reduce((c, e) => c * e.confidence, 1),
        level: "file",
      });
  }
  const startNodes = starts.map((s) => s.node);
  const searched: TraceAnswer["searched"] = {
    edges: FOLLOWED,
    reachableFrom: reachableFrom(graph, startNodes, maxHops) - startNodes.length,
    reachingTo: dist.size - targets.size,
  };
  if (!paths.some((p) => p.level === "symbol") && fromSymbol) {
    // The other way round: an agent that asked for the wrong direction learns it at once.
    const back = distancesTo(graph, withMembers(graph, fromSymbol.id), maxHops);
    const hops = [...targets].map((t) => back.get(t)).filter((d): d is number => d !== undefined);
    if (hops.length) searched.reverse = Math.min(...hops);
  }

  // Completeness: what the ends could not show (the start's unlinked calls, the end's unlinked callers).
  const notes: string[] = [];
  const completeness: Completeness = { notes };
  if (fromSymbol) {
    const c = callsCompleteness(graph, fromSymbol, "callees", 0);
    Object.assign(completeness, { ...c, notes });
    notes.push(...c.notes.map((n) => `from ${fromSymbol!.name}: ${n}`));
  }
  const toC = callsCompleteness(
    graph,
    to,
    "callers",
    graph.ambiguous.filter((a) => a.candidates.includes(to.id)).length,
  );
  for (const n of toC.notes) if (!notes.some((m) => m.endsWith(n))) notes.push(`to ${to.name}: ${n}`);
  if (toC.unlinked) completeness.unlinked = toC.unlinked;
  if (paths.some((p) => p.hops.some((h) => h.kind === "dispatch")))
    notes.push("hops marked dispatch follow an overriding method: they happen only when the object is of that class");

  // Source lines for the hops, then the budget: every path with its lines, then without, then fewer paths.
  const texts = new Map<string, string[] | undefined>();
  for (const p of paths)
    for (const h of p.hops)
      if (!texts.has(h.site.path)) texts.set(h.site.path, (await io.readText(h.site.path))?.split("\n"));
  for (const p of paths)
    for (const h of p.hops) {
      const line = texts.get(h.site.path)?.[h.site.line - 1]?.trim();
      if (line) h.code = line.length > 160 ? `${line.slice(0, 160)}…` : line;
    }
  const make = (shown: number, withCode: number): TraceAnswer => {
    const kept: TracePath[] = paths
      .slice(0, shown)
      .map((p, i) => (i < withCode ? p : { ...p, hops: p.hops.map(({ code: _code, ...h }): TraceHop => h) }));
    const render = (usage: string) =>
      traceText({ from, to, paths, kept, shown, k, maxHops, searched, completeness }, usage);
    const { text, tokens } = withUsage(render, args);
    return {
      from,
      to: symbolRef(to),
      k,
      maxHops,
      paths: kept,
      cut: paths.length - shown,
      searched,
      completeness,
      usage: { tokens, budget: args.budget, encoding: args.encoding },
      text,
    };
  };
  const fits = (a: TraceAnswer) =>
    a.usage.tokens <= args.budget &&
    (!args.json || args.count(JSON.stringify({ ...a, text: undefined })) <= args.budget);
  for (let shown = paths.length; shown >= 0; shown--) {
    for (let withCode = shown; withCode >= 0; withCode--) {
      const a = make(shown, withCode);
      if (fits(a)) return a;
    }
  }
  const smallest = make(0, 0);
  // With `json` the budget covers the JSON too; the margin covers the budget's own digits, which the answer repeats.
  const needed =
    Math.max(smallest.usage.tokens, args.json ? args.count(JSON.stringify({ ...smallest, text: undefined })) : 0) +
    BUDGET_DIGITS_MARGIN;
  throw new EngineError(
    "budget_too_small",
    `A budget of ${args.budget} tokens cannot hold even the trace's header and notes; it needs ${needed}.`,
    {
      hint: `Ask again with budget ≥ ${needed}.`,
      data: { budget: args.budget, needed },
    },
  );
}
