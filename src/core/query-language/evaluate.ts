/**
 * The query evaluator: matches the MATCH patterns against the query view, filters with WHERE,
 * projects RETURN (grouping around aggregates), orders, skips and limits. Bounded: it checks a
 * deadline and a cap on intermediate rows as it goes, and stops with `query_over_budget` rather
 * than run on. Variable-length relationships follow reachability, not path enumeration: each node
 * reached once per start, at its fewest hops (what callers, callees and impact answer).
 */
import { EngineError } from "../../shared/errors.ts";
import {
  queryError,
  type Expr,
  type Literal,
  type NodePattern,
  type PathPattern,
  type QueryAst,
  type RelPattern,
} from "./parse.ts";
import {
  EDGE_PROPS,
  EDGE_TYPES,
  LABELS,
  NODE_PROPS,
  type EdgeType,
  type Label,
  type QEdge,
  type QueryGraph,
} from "./view.ts";

/** A value a variable or an expression holds. */
export type Value = Literal | Value[] | NodeVal | EdgeVal | HopsVal;
/** A node. */
export interface NodeVal {
  node: number;
}
/** One edge. */
export interface EdgeVal {
  edge: number;
}
/** A variable-length relationship: the hops of the shortest path found, and its edges. */
export interface HopsVal {
  hops: number;
  edges: number[];
}

/** Bounds of one evaluation. */
export interface QueryBounds {
  /** Milliseconds of work at most. */
  timeMs: number;
  /** Intermediate rows (bindings) at most. */
  maxBindings: number;
  /** Injected clock, for tests. */
  now?: () => number;
}

/** What evaluation returns before rendering: column names and rows, all rows (paging happens after). */
export interface QueryRows {
  columns: string[];
  rows: Value[][];
  /** Rows matched before SKIP/LIMIT. */
  total: number;
}

const AGGREGATES = new Set(["count", "collect", "min", "max", "sum", "avg"]);
const FUNCTIONS = new Set([
  ...AGGREGATES,
  "type",
  "labels",
  "length",
  "size",
  "tolower",
  "toupper",
  "coalesce",
  "startnode",
  "endnode",
]);

type Row = Map<string, Value>;
/** The row key holding the single-hop edges a path has used: as in Cypher, a path never uses one twice. */
const USED = "\u0000used";

interface Ctx {
  g: QueryGraph;
  text: string;
  bounds: QueryBounds;
  deadline: number;
  steps: number;
  bindings: number;
  /** Counts a unit of work; every 1,024 of them, throws `query_over_budget` past the deadline. */
  tick: () => void;
  /** Variable → what it was bound to in a pattern. */
  kinds: Map<string, { kind: "node"; label?: Label } | { kind: "edge"; types: EdgeType[] } | { kind: "hops" }>;
}

/** Evaluates a parsed query against the view. */
export function evaluate(g: QueryGraph, ast: QueryAst, text: string, bounds: QueryBounds): QueryRows {
  const now = bounds.now ?? (() => Date.now());
  const ctx: Ctx = {
    g,
    text,
    bounds,
    deadline: now() + bounds.timeMs,
    steps: 0,
    bindings: 0,
    kinds: new Map(),
    tick: () => {},
  };
  const tick = () => {
    if ((++ctx.steps & 1023) === 0 && now() > ctx.deadline) {
      throw new EngineError("query_over_budget", `The query ran past its ${bounds.timeMs} ms time limit.`, {
        hint: "Anchor a pattern on a name or path ({qualified: '…'}), lower the hop range, or add conditions.",
        data: { limit: "time", timeMs: bounds.timeMs },
      });
    }
  };
  ctx.tick = tick;
  checkPatterns(ctx, ast);
  checkExpressions(ctx, ast);
  const conjuncts = ast.where ? splitAnd(ast.where) : [];
  let rows: Row[] = [new Map()];
  const bound = new Set<string>();
  for (const p of ast.patterns) {
    const next: Row[] = [];
    for (const row of rows)
      matchPath(ctx, p, row, conjuncts, (r) => {
        tick();
        if (++ctx.bindings > bounds.maxBindings) overBindings(bounds);
        next.push(r);
      });
    for (const n of p.nodes) if (n.variable) bound.add(n.variable);
    for (const r of p.rels) if (r.variable) bound.add(r.variable);
    // Conditions whose variables are all bound filter now, before the next pattern multiplies rows.
    const ready = conjuncts.filter((c) => [...varsOf(c)].every((v) => bound.has(v)));
    rows = ready.length ? next.filter((r) => ready.every((c) => truthy(evalExpr(ctx, c, r)))) : next;
    for (const c of ready) conjuncts.splice(conjuncts.indexOf(c), 1);
  }
  return project(ctx, ast, rows, tick);
}

function overBindings(bounds: QueryBounds): never {
  throw new EngineError(
    "query_over_budget",
    `The query's patterns match more than ${bounds.maxBindings.toLocaleString("en-US")} combinations before RETURN.`,
    {
      hint:
        "Anchor a pattern on a name or path ({qualified: '…'}), use a label, lower the hop range, or add " +
        "WHERE conditions on the first pattern.",
      data: { limit: "bindings", maxBindings: bounds.maxBindings },
    },
  );
}

/** Labels, types and properties in patterns exist; a variable is a node or a relationship, not both. */
function checkPatterns(ctx: Ctx, ast: QueryAst): void {
  for (const p of ast.patterns) checkPath(ctx, p);
}

/** One pattern's labels, types and properties; its variables bound (`introduce`) or, in a predicate, already bound. */
function checkPath(ctx: Ctx, p: PathPattern, introduce = true): void {
  if (!introduce) {
    for (const v of [...p.nodes, ...p.rels]) {
      if (v.variable && !ctx.kinds.has(v.variable)) {
        throw queryError(
          ctx.text,
          ctx.text.indexOf(v.variable, v.at),
          "unknown_variable",
          `${v.variable} is not defined; a pattern in WHERE can only use variables from MATCH.`,
          "Leave the node anonymous, (), or bind it in MATCH.",
        );
      }
    }
  }
  for (const n of p.nodes) {
    if (n.label !== undefined && !LABELS.includes(n.label as Label)) {
      const near = LABELS.find((l) => l.toLowerCase() === n.label!.toLowerCase());
      throw queryError(
        ctx.text,
        n.at + 1 + (n.variable?.length ?? 0),
        "unknown_label",
        `there is no label ${n.label}.`,
        near ? `Labels are case-sensitive: write ${near}.` : `Labels: ${LABELS.join(", ")}.`,
        { labels: [...LABELS] },
      );
    }
    for (const prop of n.props)
      checkKey(ctx, prop.key, prop.at, n.label ? NODE_PROPS[n.label as Label] : allNodeProps(), n.label ?? "a node");
    if (n.variable) bindKind(ctx, n.variable, { kind: "node", ...(n.label ? { label: n.label as Label } : {}) }, n.at);
  }
  for (const r of p.rels) {
    for (const t of r.types) {
      if (!EDGE_TYPES.includes(t as EdgeType)) {
        const near = EDGE_TYPES.find((x) => x.toLowerCase() === t.toLowerCase());
        throw queryError(
          ctx.text,
          ctx.text.indexOf(t, r.at),
          "unknown_type",
          `there is no relationship type ${t}.`,
          near ? `Types are upper-case: write ${near}.` : `Types: ${EDGE_TYPES.join(", ")}.`,
          { types: [...EDGE_TYPES] },
        );
      }
    }
    const types = (r.types.length ? r.types : EDGE_TYPES) as EdgeType[];
    for (const prop of r.props)
      checkKey(ctx, prop.key, prop.at, [...new Set(types.flatMap((t) => EDGE_PROPS[t]))], types.join("|"));
    if (r.variable) bindKind(ctx, r.variable, r.hops ? { kind: "hops" } : { kind: "edge", types }, r.at);
  }
}

function allNodeProps(): string[] {
  return [...new Set(LABELS.flatMap((l) => NODE_PROPS[l]))];
}

function checkKey(ctx: Ctx, key: string, at: number, keys: readonly string[], owner: string): void {
  if (keys.includes(key)) return;
  const near = keys.find((k) => k.toLowerCase() === key.toLowerCase());
  throw queryError(
    ctx.text,
    at,
    "unknown_property",
    `${owner} has no property ${key}.`,
    near ? `Property names are case-sensitive: write ${near}.` : `Its properties: ${keys.join(", ")}.`,
    { properties: [...keys] },
  );
}

function bindKind(
  ctx: Ctx,
  name: string,
  kind: Ctx["kinds"] extends Map<string, infer V> ? V : never,
  at: number,
): void {
  const known = ctx.kinds.get(name);
  if (!known) {
    ctx.kinds.set(name, kind);
    return;
  }
  if (known.kind !== kind.kind)
    throw queryError(
      ctx.text,
      at,
      "type_error",
      `${name} is already a ${known.kind === "node" ? "node" : "relationship"}.`,
      "Give it another name.",
    );
  if (kind.kind === "node" && known.kind === "node" && kind.label && known.label && kind.label !== known.label) {
    throw queryError(
      ctx.text,
      at,
      "type_error",
      `${name} is already a ${known.label}, not a ${kind.label}.`,
      "A node has one label: give the second one another variable.",
    );
  }
  if (kind.kind === "node" && known.kind === "node" && kind.label && !known.label) ctx.kinds.set(name, kind);
}

/** Variables, functions and properties named in WHERE, RETURN and ORDER BY exist. */
function checkExpressions(ctx: Ctx, ast: QueryAst): void {
  const aliases = new Set(ast.items.map((i) => i.name));
  const visit = (e: Expr, allowAlias: boolean, aggregateOk: boolean): void => {
    switch (e.t) {
      case "var":
        if (!ctx.kinds.has(e.name) && !(allowAlias && aliases.has(e.name))) {
          throw queryError(
            ctx.text,
            e.at,
            "unknown_variable",
            `${e.name} is not defined.`,
            ctx.kinds.size
              ? `Variables from MATCH: ${[...ctx.kinds.keys()].join(", ")}.`
              : "Name a node in MATCH, e.g. (a).",
          );
        }
        return;
      case "prop": {
        if (e.of.t === "var") {
          const k = ctx.kinds.get(e.of.name);
          if (k?.kind === "hops")
            throw queryError(
              ctx.text,
              e.at,
              "type_error",
              `${e.of.name} is a variable-length relationship (a list of hops); it has no property ${e.key}.`,
              `Use length(${e.of.name}) for its hops, or a single hop [:TYPE] to read an edge's properties.`,
            );
          if (k?.kind === "node")
            checkKey(ctx, e.key, e.at, k.label ? NODE_PROPS[k.label] : allNodeProps(), k.label ?? e.of.name);
          if (k?.kind === "edge")
            checkKey(ctx, e.key, e.at, [...new Set(k.types.flatMap((t) => EDGE_PROPS[t]))], k.types.join("|"));
        }
        visit(e.of, allowAlias, aggregateOk);
        return;
      }
      case "call":
        if (!FUNCTIONS.has(e.name))
          throw queryError(
            ctx.text,
            e.at,
            "unknown_function",
            `there is no function ${e.name}().`,
            `Functions: ${[...FUNCTIONS].join(", ")}.`,
          );
        if (AGGREGATES.has(e.name) && !aggregateOk)
          throw queryError(
            ctx.text,
            e.at,
            "unsupported",
            `${e.name}() is an aggregate; it may only be a whole RETURN item.`,
            `Write RETURN a.name, ${e.name}(…) AS n.`,
          );
        if (e.star && e.name !== "count")
          throw queryError(ctx.text, e.at, "syntax", `only count takes *.`, "Write count(*).");
        for (const a of e.args) visit(a, allowAlias, false);
        return;
      case "list":
        for (const a of e.items) visit(a, allowAlias, false);
        return;
      case "not":
      case "neg":
      case "null":
        visit(e.of, allowAlias, false);
        return;
      case "bin":
        visit(e.left, allowAlias, false);
        visit(e.right, allowAlias, false);
        return;
      case "lit":
        return;
      case "pattern":
        checkPath(ctx, e.path, false);
        return;
    }
  };
  if (ast.where) visit(ast.where, false, false);
  for (const i of ast.items) visit(i.expr, false, true);
  for (const o of ast.order) visit(o.expr, true, false);
}

function splitAnd(e: Expr): Expr[] {
  return e.t === "bin" && e.op === "and" ? [...splitAnd(e.left), ...splitAnd(e.right)] : [e];
}

function varsOf(e: Expr, out = new Set<string>()): Set<string> {
  switch (e.t) {
    case "var":
      out.add(e.name);
      break;
    case "prop":
    case "not":
    case "neg":
    case "null":
      varsOf(e.of, out);
      break;
    case "bin":
      varsOf(e.left, out);
      varsOf(e.right, out);
      break;
    case "list":
      for (const i of e.items) varsOf(i, out);
      break;
    case "call":
      for (const a of e.args) varsOf(a, out);
      break;
    case "pattern":
      for (const v of [...e.path.nodes, ...e.path.rels]) if (v.variable) out.add(v.variable);
      break;
  }
  return out;
}

// ---- matching ---------------------------------------------------------------------------------

/** Equalities `v.key = literal` among the WHERE conjuncts, for anchoring node `v`. */
function equalities(conjuncts: Expr[], variable: string | undefined): { key: string; value: Literal }[] {
  if (!variable) return [];
  const out: { key: string; value: Literal }[] = [];
  for (const c of conjuncts) {
    if (c.t !== "bin" || c.op !== "=") continue;
    for (const [a, b] of [
      [c.left, c.right],
      [c.right, c.left],
    ] as const) {
      if (a.t === "prop" && a.of.t === "var" && a.of.name === variable && b.t === "lit")
        out.push({ key: a.key, value: b.value });
    }
  }
  return out;
}

/** Candidate nodes for a pattern node, with their count (for picking the anchor). */
function candidates(ctx: Ctx, n: NodePattern, row: Row, conjuncts: Expr[]): number[] {
  if (n.variable && row.has(n.variable)) {
    const v = row.get(n.variable) as NodeVal;
    return [v.node];
  }
  const labels = n.label ? [n.label as Label] : LABELS;
  const eq = [...n.props, ...equalities(conjuncts, n.variable)];
  let best: number[] | undefined;
  for (const label of labels) {
    let list: number[] | undefined;
    for (const { key, value } of eq) {
      const m = ctx.g.index.get(`${label}.${key}`);
      if (!m) continue;
      const hit = m.get(value) ?? [];
      if (!list || hit.length < list.length) list = hit;
    }
    list ??= ctx.g.byLabel.get(label)!;
    best = best ? best.concat(list) : list;
  }
  return best ?? [];
}

function nodeFits(ctx: Ctx, n: NodePattern, id: number, row: Row): boolean {
  const node = ctx.g.nodes[id]!;
  if (n.label && node.label !== n.label) return false;
  for (const p of n.props) if (!equal(node.props[p.key] ?? null, p.value)) return false;
  if (n.variable && row.has(n.variable)) return (row.get(n.variable) as NodeVal).node === id;
  return true;
}

function edgeFits(r: RelPattern, e: QEdge): boolean {
  for (const p of r.props) if (!equal(e.props[p.key] ?? null, p.value)) return false;
  return true;
}

/** Every binding of path `p` that extends `row`, passed to `emit`. */
function matchPath(ctx: Ctx, p: PathPattern, row: Row, conjuncts: Expr[], emit: (r: Row) => void): void {
  // Anchor at the node with the fewest candidates; walk right of it, then left.
  let anchor = 0;
  let pool: number[] | undefined;
  for (let k = 0; k < p.nodes.length; k++) {
    const c = candidates(ctx, p.nodes[k]!, row, conjuncts);
    if (!pool || c.length < pool.length) {
      pool = c;
      anchor = k;
    }
  }
  const a = p.nodes[anchor]!;
  for (const id of pool!) {
    if (!nodeFits(ctx, a, id, row)) continue;
    const start = new Map(row);
    if (a.variable) start.set(a.variable, { node: id });
    start.set(USED, []);
    extend(ctx, p, anchor, anchor, id, id, start, (r) => {
      r.delete(USED);
      emit(r);
    });
  }
}

/** Extends the bound span [lo, hi] of `p` one relationship at a time, rightwards first. */
function extend(
  ctx: Ctx,
  p: PathPattern,
  lo: number,
  hi: number,
  loId: number,
  hiId: number,
  row: Row,
  emit: (r: Row) => void,
): void {
  if (hi < p.nodes.length - 1) {
    const rel = p.rels[hi]!;
    step(ctx, rel, p.nodes[hi + 1]!, hiId, false, row, (id, r) => extend(ctx, p, lo, hi + 1, loId, id, r, emit));
    return;
  }
  if (lo > 0) {
    const rel = p.rels[lo - 1]!;
    step(ctx, rel, p.nodes[lo - 1]!, loId, true, row, (id, r) => extend(ctx, p, lo - 1, hi, id, hiId, r, emit));
    return;
  }
  emit(row);
}

/**
 * From node `from` across `rel` to a node fitting `to`. `reversed`: walking the pattern right to
 * left, so the relationship's arrow is followed backwards.
 */
function step(
  ctx: Ctx,
  rel: RelPattern,
  to: NodePattern,
  from: number,
  reversed: boolean,
  row: Row,
  next: (id: number, r: Row) => void,
): void {
  const types = (rel.types.length ? rel.types : EDGE_TYPES) as EdgeType[];
  const dir = rel.direction === "both" ? "both" : (rel.direction === "out") !== reversed ? "out" : "in";
  if (rel.hops) {
    for (const [id, hops] of reach(ctx, rel, types, dir, from)) {
      if (!nodeFits(ctx, to, id, row)) continue;
      const r = new Map(row);
      if (to.variable) r.set(to.variable, { node: id });
      if (rel.variable) r.set(rel.variable, hops);
      next(id, r);
    }
    return;
  }
  for (const [ei, other] of adjacent(ctx.g, types, dir, from)) {
    const e = ctx.g.edges[ei]!;
    if (!edgeFits(rel, e) || !nodeFits(ctx, to, other, row)) continue;
    if (rel.variable && row.has(rel.variable) && (row.get(rel.variable) as EdgeVal).edge !== ei) continue;
    const used = row.get(USED) as number[];
    if (used.includes(ei)) continue;
    const r = new Map(row);
    r.set(USED, [...used, ei]);
    if (to.variable) r.set(to.variable, { node: other });
    if (rel.variable) r.set(rel.variable, { edge: ei });
    next(other, r);
  }
}

function* adjacent(
  g: QueryGraph,
  types: EdgeType[],
  dir: "out" | "in" | "both",
  from: number,
): Generator<[number, number]> {
  for (const t of types) {
    if (dir !== "in") for (const ei of g.out.get(t)!.get(from) ?? []) yield [ei, g.edges[ei]!.to];
    if (dir !== "out") for (const ei of g.in.get(t)!.get(from) ?? []) yield [ei, g.edges[ei]!.from];
  }
}

/**
 * Nodes reachable from `from` in `rel.hops.min`..`max` hops, each once at its fewest hops, with
 * the edges of one shortest path. A class-body call may only start a path: walking forward it is
 * never taken after the first hop, walking backward the walk stops at the class.
 */
function reach(
  ctx: Ctx,
  rel: RelPattern,
  types: EdgeType[],
  dir: "out" | "in" | "both",
  from: number,
): Map<number, HopsVal> {
  const { min, max } = rel.hops!;
  const out = new Map<number, HopsVal>();
  const seen = new Map<number, HopsVal>([[from, { hops: 0, edges: [] }]]);
  if (min === 0) out.set(from, { hops: 0, edges: [] });
  let frontier = [from];
  const stopped = new Set<number>();
  for (let d = 1; d <= max && frontier.length; d++) {
    const next: number[] = [];
    for (const id of frontier) {
      if (stopped.has(id)) continue;
      for (const [ei, other] of adjacent(ctx.g, types, dir, id)) {
        ctx.tick();
        const e = ctx.g.edges[ei]!;
        if (!edgeFits(rel, e)) continue;
        // A node that reaches itself in one hop (a recursive call) is its own neighbour, as in callers and callees.
        if (other === from && d === 1 && min <= 1 && !out.has(from)) out.set(from, { hops: 1, edges: [ei] });
        if (seen.has(other)) continue;
        const forward = e.from === id;
        if (e.classBody && forward && d > 1) continue;
        const path: HopsVal = { hops: d, edges: [...seen.get(id)!.edges, ei] };
        seen.set(other, path);
        if (e.classBody && !forward) stopped.add(other);
        if (d >= min) out.set(other, path);
        next.push(other);
      }
    }
    frontier = next;
    if (seen.size > ctx.bounds.maxBindings) overBindings(ctx.bounds);
  }
  return out;
}

// ---- expressions ------------------------------------------------------------------------------

function isNode(v: Value): v is NodeVal {
  return typeof v === "object" && v !== null && !Array.isArray(v) && "node" in v;
}
function isEdge(v: Value): v is EdgeVal {
  return typeof v === "object" && v !== null && !Array.isArray(v) && "edge" in v;
}
function isHops(v: Value): v is HopsVal {
  return typeof v === "object" && v !== null && !Array.isArray(v) && "hops" in v;
}

/** Equality of two values (nodes and edges by identity). */
export function equal(a: Value, b: Value): boolean {
  if (a === null || b === null) return false;
  if (isNode(a) && isNode(b)) return a.node === b.node;
  if (isEdge(a) && isEdge(b)) return a.edge === b.edge;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => equal(x, b[i]!));
  return a === b;
}

function truthy(v: Value): boolean {
  return v === true;
}

function typeError(ctx: Ctx, e: Expr, message: string, hint: string): never {
  throw queryError(ctx.text, e.at, "type_error", message, hint);
}

function evalExpr(ctx: Ctx, e: Expr, row: Row): Value {
  switch (e.t) {
    case "lit":
      return e.value;
    case "list":
      return e.items.map((i) => evalExpr(ctx, i, row));
    case "var":
      return row.get(e.name) ?? null;
    case "prop": {
      const of = evalExpr(ctx, e.of, row);
      if (of === null) return null;
      if (isNode(of)) return ctx.g.nodes[of.node]!.props[e.key] ?? null;
      if (isEdge(of)) return ctx.g.edges[of.edge]!.props[e.key] ?? null;
      return typeError(
        ctx,
        e,
        `.${e.key} reads a node's or a relationship's property, not a ${Array.isArray(of) ? "list" : typeof of}.`,
        "Apply it to a variable from MATCH.",
      );
    }
    case "not": {
      const v = evalExpr(ctx, e.of, row);
      return v === null ? null : !truthy(v);
    }
    case "neg": {
      const v = evalExpr(ctx, e.of, row);
      if (v === null) return null;
      if (typeof v !== "number") typeError(ctx, e, "only a number can be negated.", "Check the expression.");
      return -v;
    }
    case "null": {
      const v = evalExpr(ctx, e.of, row);
      return e.negated ? v !== null : v === null;
    }
    case "bin":
      return evalBinary(ctx, e, row);
    case "call":
      return evalCall(ctx, e, row);
    case "pattern":
      return patternHolds(ctx, e.path, row);
  }
}

/** Thrown to stop a pattern predicate's match at its first binding. */
const FOUND = Symbol("found");

/** Whether `path` matches with the row's variables (anonymous parts free). */
function patternHolds(ctx: Ctx, path: PathPattern, row: Row): boolean {
  try {
    matchPath(ctx, path, row, [], () => {
      throw FOUND;
    });
  } catch (signal) {
    if (signal === FOUND) return true;
    throw signal;
  }
  return false;
}

const regexCache = new Map<string, RegExp>();

function evalBinary(ctx: Ctx, e: Expr & { t: "bin" }, row: Row): Value {
  if (e.op === "and" || e.op === "or" || e.op === "xor") {
    const l = evalExpr(ctx, e.left, row);
    if (e.op === "and" && l === false) return false;
    if (e.op === "or" && l === true) return true;
    const r = evalExpr(ctx, e.right, row);
    if (e.op === "and") return r === false ? false : l === null || r === null ? null : true;
    if (e.op === "or") return r === true ? true : l === null || r === null ? null : false;
    return l === null || r === null ? null : truthy(l) !== truthy(r);
  }
  const l = evalExpr(ctx, e.left, row);
  const r = evalExpr(ctx, e.right, row);
  if (e.op === "in") {
    if (r === null) return null;
    if (!Array.isArray(r)) typeError(ctx, e, "IN takes a list on its right.", "Write x IN ['a', 'b'].");
    return l === null ? null : r.some((x) => equal(l, x));
  }
  if (l === null || r === null) return null;
  switch (e.op) {
    case "=":
      return equal(l, r);
    case "<>":
      return !equal(l, r);
    case "+":
    case "-": {
      if (typeof l === "number" && typeof r === "number") return e.op === "+" ? l + r : l - r;
      if (e.op === "+" && typeof l === "string" && typeof r === "string") return l + r;
      return typeError(
        ctx,
        e,
        `${e.op} takes two numbers${e.op === "+" ? " or two strings" : ""}.`,
        "Check the operands' types.",
      );
    }
    case "<":
    case "<=":
    case ">":
    case ">=": {
      if (typeof l !== typeof r || (typeof l !== "number" && typeof l !== "string")) return null;
      const c = l < r ? -1 : l > r ? 1 : 0;
      return e.op === "<" ? c < 0 : e.op === "<=" ? c <= 0 : e.op === ">" ? c > 0 : c >= 0;
    }
    default: {
      if (typeof l !== "string" || typeof r !== "string") return null;
      if (e.op === "contains") return l.includes(r);
      if (e.op === "starts with") return l.startsWith(r);
      if (e.op === "ends with") return l.endsWith(r);
      let re = regexCache.get(r);
      if (!re) {
        try {
          re = new RegExp(`^(?:${r})$`, "u");
        } catch (err) {
          throw queryError(
            ctx.text,
            e.right.at,
            "syntax",
            `this regular expression does not compile: ${(err as Error).message}.`,
            "Check the pattern (ECMAScript regular expression syntax, matched against the whole value).",
          );
        }
        regexCache.set(r, re);
      }
      return re.test(l);
    }
  }
}

function evalCall(ctx: Ctx, e: Expr & { t: "call" }, row: Row): Value {
  const args = e.args.map((a) => evalExpr(ctx, a, row));
  const arity = (n: number) => {
    if (args.length !== n)
      typeError(ctx, e, `${e.name}() takes ${n} argument${n === 1 ? "" : "s"}, got ${args.length}.`, "Check the call.");
  };
  const v = args[0] ?? null;
  switch (e.name) {
    case "type":
      arity(1);
      if (v === null) return null;
      if (!isEdge(v)) typeError(ctx, e, "type() takes a single-hop relationship.", "Write type(r) for -[r]->.");
      return ctx.g.edges[v.edge]!.type;
    case "labels":
      arity(1);
      if (v === null) return null;
      if (!isNode(v)) typeError(ctx, e, "labels() takes a node.", "Write labels(a).");
      return [ctx.g.nodes[v.node]!.label];
    case "length":
      arity(1);
      if (v === null) return null;
      if (isHops(v)) return v.hops;
      if (isEdge(v)) return 1;
      if (typeof v === "string" || Array.isArray(v)) return v.length;
      return typeError(
        ctx,
        e,
        "length() takes a relationship, a string or a list.",
        "Write length(r) for the hops of -[r*1..3]->.",
      );
    case "size":
      arity(1);
      if (v === null) return null;
      if (typeof v === "string" || Array.isArray(v)) return v.length;
      return typeError(ctx, e, "size() takes a string or a list.", "Check the argument.");
    case "tolower":
    case "toupper":
      arity(1);
      if (v === null) return null;
      if (typeof v !== "string") typeError(ctx, e, `${e.name}() takes a string.`, "Check the argument.");
      return e.name === "tolower" ? v.toLowerCase() : v.toUpperCase();
    case "coalesce":
      return args.find((a) => a !== null) ?? null;
    case "startnode":
    case "endnode":
      arity(1);
      if (v === null) return null;
      if (!isEdge(v))
        typeError(ctx, e, `${e.name}() takes a single-hop relationship.`, "Write startNode(r) for -[r]->.");
      return { node: e.name === "startnode" ? ctx.g.edges[v.edge]!.from : ctx.g.edges[v.edge]!.to };
  }
  return typeError(
    ctx,
    e,
    `${e.name}() is an aggregate; it may only be a whole RETURN item.`,
    `Write RETURN ${e.name}(…) AS n.`,
  );
}

// ---- projection -------------------------------------------------------------------------------

function keyOf(v: Value): string {
  if (v === null) return "n";
  if (isNode(v)) return `N${v.node}`;
  if (isEdge(v)) return `E${v.edge}`;
  if (isHops(v)) return `H${v.hops}:${v.edges.join(",")}`;
  if (Array.isArray(v)) return `[${v.map(keyOf).join(",")}]`;
  return `${typeof v}:${String(v)}`;
}

function aggregate(ctx: Ctx, e: Expr & { t: "call" }, group: Row[]): Value {
  if (e.star) return group.length;
  let values = group.map((r) => evalExpr(ctx, e.args[0]!, r)).filter((v) => v !== null);
  if (e.distinct) {
    const seen = new Set<string>();
    values = values.filter((v) => !seen.has(keyOf(v)) && !!seen.add(keyOf(v)));
  }
  switch (e.name) {
    case "count":
      return values.length;
    case "collect":
      return values;
    case "sum":
    case "avg": {
      const nums = values.filter((v): v is number => typeof v === "number");
      const sum = nums.reduce((a, b) => a + b, 0);
      return e.name === "sum" ? sum : nums.length ? sum / nums.length : null;
    }
    default: {
      const sorted = [...values].sort(compare);
      return (e.name === "min" ? sorted[0] : sorted[sorted.length - 1]) ?? null;
    }
  }
}

/** Ordering: nulls last, numbers before strings, then by value; nodes by id. */
export function compare(a: Value, b: Value): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (typeof a === "string" && typeof b === "string") return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === "boolean" && typeof b === "boolean") return Number(a) - Number(b);
  const ka = keyOf(a);
  const kb = keyOf(b);
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

function project(ctx: Ctx, ast: QueryAst, rows: Row[], tick: () => void): QueryRows {
  const isAgg = (e: Expr) => e.t === "call" && AGGREGATES.has(e.name);
  const grouped = ast.items.some((i) => isAgg(i.expr));
  let out: { values: Value[]; scope: Row }[] = [];
  if (grouped) {
    const groups = new Map<string, Row[]>();
    for (const r of rows) {
      tick();
      const key = ast.items
        .filter((i) => !isAgg(i.expr))
        .map((i) => keyOf(evalExpr(ctx, i.expr, r)))
        .join("\u0000");
      (groups.get(key) ?? groups.set(key, []).get(key)!).push(r);
    }
    if (groups.size === 0 && ast.items.every((i) => isAgg(i.expr))) groups.set("", []);
    for (const group of groups.values()) {
      const values = ast.items.map((i) =>
        isAgg(i.expr) ? aggregate(ctx, i.expr as Expr & { t: "call" }, group) : evalExpr(ctx, i.expr, group[0]!),
      );
      out.push({ values, scope: group[0] ?? new Map() });
    }
  } else {
    for (const r of rows) {
      tick();
      out.push({ values: ast.items.map((i) => evalExpr(ctx, i.expr, r)), scope: r });
    }
  }
  if (ast.distinct) {
    const seen = new Set<string>();
    out = out.filter((o) => {
      const k = o.values.map(keyOf).join("\u0000");
      return !seen.has(k) && !!seen.add(k);
    });
  }
  if (ast.order.length) {
    const names = ast.items.map((i) => i.name);
    const keyed = out.map((o) => {
      const scope = new Map(o.scope);
      names.forEach((n, i) => scope.set(n, o.values[i]!));
      return {
        o,
        keys: ast.order.map((s) => {
          const col = names.indexOf(s.expr.t === "var" ? s.expr.name : "");
          const byText = ast.items.findIndex((i) => sameExpr(i.expr, s.expr));
          return col >= 0 ? o.values[col]! : byText >= 0 ? o.values[byText]! : evalExpr(ctx, s.expr, scope);
        }),
      };
    });
    keyed.sort((x, y) => {
      for (let i = 0; i < ast.order.length; i++) {
        const c = compare(x.keys[i]!, y.keys[i]!);
        if (c) return ast.order[i]!.descending ? -c : c;
      }
      return 0;
    });
    out = keyed.map((k) => k.o);
  }
  return { columns: ast.items.map((i) => i.name), rows: out.map((o) => o.values), total: out.length };
}

function sameExpr(a: Expr, b: Expr): boolean {
  return (
    JSON.stringify(a, (k, v) => (k === "at" ? undefined : v)) ===
    JSON.stringify(b, (k, v) => (k === "at" ? undefined : v))
  );
}
