/**
 * The slicer's plan: from seed symbols, the candidate chunks in priority order — seed, types it
 * names (and their bases, depth-limited), callees, callers, mount lines, witnesses (tests) — each
 * a whole symbol with its role, graph distance and edge confidence. No text yet: the engine loads
 * only the files the plan cites.
 */
import { overridesOf } from "../graph/calls.ts";
import { CONFIDENCE, type CodeGraph, type SymbolNode } from "../graph/model.ts";
import { isTestFile } from "../graph/test-code.ts";
import type { MountLine } from "../query/routes.ts";

/**
 * A chunk's role, in priority order: `frame` is an outer project frame of a stack trace (the seed
 * is its innermost), `match` another place a task in words points at (shown as an outline first),
 * `impl` an override or implementation of a seed method.
 */
export type Role = "seed" | "frame" | "match" | "type" | "callee" | "impl" | "caller" | "mount" | "witness";
export const ROLE_ORDER: readonly Role[] = [
  "seed",
  "frame",
  "match",
  "type",
  "callee",
  "impl",
  "caller",
  "mount",
  "witness",
];

/** A candidate chunk: a whole symbol (or a line range for mounts and inline handlers). */
export interface PlannedChunk {
  path: string;
  start: number;
  end: number;
  role: Role;
  /** Symbol id when the chunk is a definition. */
  symbol?: number;
  /** What the header names: the qualified name, or a description for line ranges. */
  label: string;
  kind: string;
  language: string;
  distance: number;
  confidence: number;
  /** Listed with its handle and cost, never shown: beyond the first few callers of a popular symbol. */
  listOnly?: boolean;
}

/** Limits that keep a plan small on huge graphs (the cut list reports what is left). */
export interface PlanLimits {
  typeDepth: number;
  callDepth: number;
  perRole: number;
  /**
   * Callers and witnesses past this many (per hop) are listed, not shown: twelve call sites of a
   * popular helper say less than the helper's own callees, and the agent can ask for any of them.
   */
  shownPerRole: number;
}

/** The distance late matches are planned at: after every neighbour of the first two hops. */
const LATE_DISTANCE = 3;

/**
 * A late match (see `lateMatches`): shown only with what a large budget has left, so it adds no
 * note and no cut-list entry that would take room from a smaller budget's answer.
 */
export const isLateMatch = (c: PlannedChunk): boolean => c.role === "match" && c.distance >= LATE_DISTANCE;

export const DEFAULT_LIMITS: PlanLimits = { typeDepth: 2, callDepth: 2, perRole: 40, shownPerRole: 10 };

function chunkOf(graph: CodeGraph, s: SymbolNode, role: Role, distance: number, confidence: number): PlannedChunk {
  if (s.kind === "module") {
    const record = graph.records.get(s.file)!;
    return {
      path: s.file,
      start: 1,
      end: record.lines,
      role,
      symbol: s.id,
      label: s.file,
      kind: "file",
      language: s.language,
      distance,
      confidence,
    };
  }
  return {
    path: s.file,
    start: s.start,
    end: s.end,
    role,
    symbol: s.id,
    label: s.qualified,
    kind: s.kind,
    language: s.language,
    distance,
    confidence,
  };
}

/** Kinds whose members are definitions of their own. */
export const CLASS_KINDS: ReadonlySet<string> = new Set(["class", "interface", "struct", "trait", "enum"]);

/** Symbols inside `id` (a class's methods, a function's nested functions), itself included. */
function withDescendants(graph: CodeGraph, id: number): number[] {
  const out = [id];
  for (let i = 0; i < out.length; i++) for (const c of graph.children.get(out[i]!) ?? []) out.push(c);
  return out;
}

/** A symbol a call walk from the seeds reached: its hop, the best confidence there, and the call lines. */
interface WalkHit {
  id: number;
  distance: number;
  confidence: number;
  test: boolean;
  lines: number[];
}

/**
 * Callees or callers of the seeds, breadth-first; within a hop, the ones a task points at first (`relevance`, higher
 * first), then the most confident.
 */
function walkCalls(
  graph: CodeGraph,
  seedScopes: number[],
  direction: "callee" | "caller",
  limits: PlanLimits,
  relevance?: ReadonlyMap<number, number>,
): WalkHit[] {
  const adjacency = direction === "callee" ? graph.callsFrom : graph.callsTo;
  const found: WalkHit[] = [];
  const seen = new Set<number>(seedScopes);
  let frontier = seedScopes;
  for (let d = 1; d <= limits.callDepth && frontier.length && found.length < limits.perRole * 2; d++) {
    const hop = new Map<number, number>();
    const lines = new Map<number, number[]>();
    const stops = new Set<number>();
    for (const id of frontier) {
      for (const ei of adjacency.get(id) ?? []) {
        const e = graph.calls[ei]!;
        const other = direction === "callee" ? e.callee : e.caller;
        if (seen.has(other)) continue;
        hop.set(other, Math.max(hop.get(other) ?? 0, e.confidence));
        (lines.get(other) ?? lines.set(other, []).get(other)!).push(e.line);
        // A class body runs when the class is defined: its callers are not callers of this code.
        if (direction === "caller" && e.classBody) stops.add(other);
      }
    }
    const rel = (id: number) => relevance?.get(id) ?? 0;
    const ordered = [...hop].sort((a, b) => rel(b[0]) - rel(a[0]) || b[1] - a[1] || a[0] - b[0]);
    for (const [id, confidence] of ordered) {
      seen.add(id);
      found.push({
        id,
        distance: d,
        confidence,
        test: isTestFile(graph.symbols[id]!.file),
        lines: lines.get(id) ?? [],
      });
    }
    frontier = ordered.map(([id]) => id).filter((id) => !stops.has(id));
  }
  return found;
}

/** Plans the chunks around `seeds`, optionally with route mount lines and inline route handlers. */
export function planContext(
  graph: CodeGraph,
  seeds: number[],
  extra: {
    mounts?: MountLine[];
    inline?: PlannedChunk[];
    scopes?: number[];
    matches?: number[];
    /** Places a task points at past `matches`: after every neighbour, as outlines. */
    lateMatches?: number[];
    frames?: number[];
    /** A route's models, dependencies and tests (route-parts.ts). */
    parts?: { types: number[]; deps: number[]; tests: number[] };
    /** How strongly a task points at a symbol: neighbours it points at come first in their hop. */
    relevance?: ReadonlyMap<number, number>;
  } = {},
  limits: PlanLimits = DEFAULT_LIMITS,
): PlannedChunk[] {
  const chunks: PlannedChunk[] = [];
  const taken = new Set<number>();
  const take = (id: number, role: Role, distance: number, confidence: number) => {
    if (taken.has(id)) return;
    taken.add(id);
    chunks.push(chunkOf(graph, graph.symbols[id]!, role, distance, confidence));
  };

  // Seeds (a file seed is its module symbol: the file's code).
  for (const id of seeds) take(id, "seed", 0, 1);
  for (const c of extra.inline ?? []) chunks.push(c);
  // The outer frames of a stack trace, innermost first.
  for (const id of extra.frames ?? []) take(id, "frame", 1, 1);
  // Other places a task in words points at, in rank order.
  (extra.matches ?? []).forEach((id, i) => take(id, "match", 1, 0.9 - i / 100));
  // A route's request and response models, what runs before its handler, and a test that sends it a request.
  for (const id of extra.parts?.types ?? []) take(id, "type", 1, 1);
  for (const id of extra.parts?.deps ?? []) take(id, "callee", 1, 1);
  for (const id of extra.parts?.tests.slice(0, 2) ?? []) take(id, "witness", 1, 1);
  // `scopes`: symbols an inline seed shows (lines across several definitions): their neighbours
  // count as the seed's, but they get no chunk of their own.
  for (const id of extra.scopes ?? []) taken.add(id);
  const seedScopes = [...seeds, ...(extra.scopes ?? [])].flatMap((id) =>
    graph.symbols[id]!.kind === "module" ? [id, ...withDescendants(graph, id).slice(1)] : withDescendants(graph, id),
  );
  const inSeed = new Set(seedScopes);

  // Types by use: the bases the seeds extend and the types whose members (or constructors) they
  // call come first; types they only name in annotations come after the callers, as outlines.
  // Then those types' own bases and field types.
  const usedTypes = new Set<number>();
  for (const sc of seedScopes) {
    for (const ei of graph.callsFrom.get(sc) ?? []) {
      const callee = graph.symbols[graph.calls[ei]!.callee]!;
      if (callee.kind === "class" || callee.kind === "interface" || callee.kind === "struct") usedTypes.add(callee.id);
      else if (callee.parent >= 0 && CLASS_KINDS.has(graph.symbols[callee.parent]!.kind)) usedTypes.add(callee.parent);
    }
  }
  const typeQueue: { id: number; depth: number }[] = [];
  for (const e of graph.inherits) if (inSeed.has(e.child)) typeQueue.push({ id: e.base, depth: 1 });
  const annotated: number[] = [];
  for (const sc of seedScopes)
    for (const t of graph.typeUses.get(sc) ?? [])
      usedTypes.has(t) ? typeQueue.push({ id: t, depth: 1 }) : annotated.push(t);
  // Annotation-only types: a hop further (an outline, after the first hop of every role).
  for (const t of annotated) typeQueue.push({ id: t, depth: 2 });
  const types: { id: number; depth: number }[] = [];
  const seenTypes = new Set<number>();
  for (let i = 0; i < typeQueue.length && types.length < limits.perRole; i++) {
    const { id, depth } = typeQueue[i]!;
    if (seenTypes.has(id) || inSeed.has(id)) continue;
    seenTypes.add(id);
    types.push({ id, depth });
    if (depth >= limits.typeDepth) continue;
    for (const e of graph.inherits) if (e.child === id) typeQueue.push({ id: e.base, depth: depth + 1 });
    for (const sc of withDescendants(graph, id))
      for (const t of graph.typeUses.get(sc) ?? []) typeQueue.push({ id: t, depth: depth + 1 });
  }
  for (const t of types) take(t.id, "type", t.depth, 0.9);

  // Callees and callers, breadth-first; within a hop, what the task points at first, then the most confident.
  const walk = (direction: "callee" | "caller") => walkCalls(graph, seedScopes, direction, limits, extra.relevance);
  const callees = walk("callee")
    .filter((c) => !c.test)
    .slice(0, limits.perRole);
  for (const c of callees) take(c.id, "callee", c.distance, c.confidence);
  // A seed method's overrides and implementations: the code a call to it may actually run.
  for (const id of seeds)
    for (const o of overridesOf(graph.context, id).slice(0, limits.perRole)) take(o, "impl", 1, CONFIDENCE["via-base"]);
  const callers = walk("caller");
  /** A caller that is module-level code is cited by its call lines (± 2), not as the whole file. */
  const takeCaller = (c: (typeof callers)[number], role: Role) => {
    const s = graph.symbols[c.id]!;
    if (s.kind !== "module") return take(c.id, role, c.distance, c.confidence);
    if (taken.has(c.id)) return;
    taken.add(c.id);
    const last = graph.records.get(s.file)!.lines;
    for (const line of [...new Set(c.lines)].sort((a, b) => a - b).slice(0, 3)) {
      chunks.push({
        path: s.file,
        start: Math.max(1, line - 2),
        end: Math.min(last, line + 2),
        role,
        label: s.qualified,
        kind: "module-code",
        language: s.language,
        distance: c.distance,
        confidence: c.confidence,
      });
    }
  };
  const listOnlyFrom = chunks.length;
  const markListOnly = (from: number) => {
    const seenPerHop = new Map<number, number>();
    for (const c of chunks.slice(from)) {
      const n = (seenPerHop.get(c.distance) ?? 0) + 1;
      seenPerHop.set(c.distance, n);
      if (n > limits.shownPerRole) c.listOnly = true;
    }
  };
  for (const c of callers.filter((c) => !c.test).slice(0, limits.perRole)) takeCaller(c, "caller");
  markListOnly(listOnlyFrom);

  // Mount lines for routes: where the router is prefixed and registered.
  for (const m of extra.mounts ?? []) {
    const language = graph.symbols[graph.moduleSymbol.get(m.path) ?? 0]?.language ?? "";
    chunks.push({
      path: m.path,
      start: m.start,
      end: m.end,
      role: "mount",
      label: `prefix ${m.prefix}`,
      kind: "mount",
      language,
      distance: 1,
      confidence: 0.9,
    });
  }

  // Witnesses: tests that call the seed (directly or through one hop).
  const witnessesFrom = chunks.length;
  for (const c of callers.filter((c) => c.test).slice(0, limits.perRole)) takeCaller(c, "witness");
  markListOnly(witnessesFrom);
  // The task's further places last: what a large budget has left after the neighbours (outlines only).
  (extra.lateMatches ?? []).forEach((id, i) => take(id, "match", LATE_DISTANCE, 0.6 - i / 1000));
  return chunks
    .map((c, i) => ({ c, i }))
    .sort((a, b) => priority(a.c) - priority(b.c) || a.i - b.i)
    .map((x) => x.c);
}

/**
 * Order of the answer: the seed, then every role's first hop in role order (types, callees,
 * callers, mounts, witnesses), then deeper hops nearest first. "Callees one hop, then more while
 * budget lasts" means a direct caller outranks a callee's callee.
 */
function priority(c: PlannedChunk): number {
  const role = ROLE_ORDER.indexOf(c.role);
  return c.distance <= 1 ? role : 10 * c.distance + role;
}
