/**
 * `shape_check`: for a response model (a pydantic model, a dataclass, a TypeScript interface) or a
 * route, the fields each consumer reads, and, given a field rename or removal, the reads that
 * break, each with `path:line`. Consumers are the client calls the route map finds for the routes
 * that return the model (`routeClients`), the code whose parameters are typed by the model's name
 * and, in a repository group, the reads the other repositories find in their own code (`elsewhere`:
 * each engine reads its own files, `shapeReadsAt`).
 */
import { languageById } from "../../languages/index.ts";
import { DEFAULT_SEMANTICS, type LanguageSemantics } from "../../languages/types.ts";
import { fitPrefix } from "../budget/fit.ts";
import { loadTokenCounter, type Encoding } from "../budget/tokenizer.ts";
import { matchSymbols, findSymbol } from "../query/lookup.ts";
import type { CodeGraph } from "../graph/model.ts";
import { LIMITS } from "../limits.ts";
import { EngineError } from "../../shared/errors.ts";
import { cite } from "../../shared/paths.ts";
import { checkBudget, checkEncoding } from "./context.ts";
import { type ClientCall, closestRoutes, ROUTE, routeClients, routesNamed } from "../query/route-calls.ts";
import { responseModelIds, typeNames } from "./route-parts.ts";
import type { Route } from "../query/routes.ts";
import { MODEL_KINDS, modelReader, modelsIn, pathTo, type ModelField, type ModelNode } from "./shape-fields.ts";
import { LineScan, scopeOf, type FieldRead, type Held } from "./shape-reads.ts";
import { quoted } from "../../shared/quote.ts";

export type { FieldRead } from "./shape-reads.ts";

/** Options of shape_check. */
export interface ShapeOptions {
  /** Field renames, `old=new`. */
  rename?: string[];
  /** Fields removed. */
  remove?: string[];
  /** Tokens for the text (default 4,000). */
  budget?: number;
  encoding?: string;
  /**
   * In a repository group: the reads in the other repositories of the routes returning the model
   * (their client calls, each read by its own engine), each with its `repo`, and per route the
   * number of those calls outside tests.
   */
  elsewhere?: (
    routes: readonly ShapeRoute[],
    roots: readonly ModelNode[],
  ) => Promise<{ reads: FieldRead[]; clients: number[] }>;
}

/** A route returning the model, and the model tree its response is. */
export interface ShapeRoute {
  method: string;
  path: string;
  root: ModelNode;
}

/** A call site (in this project) whose response is a model tree. */
export interface ShapeSite {
  path: string;
  line: number;
  root: ModelNode;
}

/** A model of the answer with its fields. */
export interface ShapeModel {
  qualified: string;
  path: string;
  start: number;
  end: number;
  fields: { name: string; type: string; owner: string }[];
}

/** A read that a rename or removal breaks. */
export interface ShapeBreak extends FieldRead {
  /** `renamed to x` or `removed`. */
  change: string;
}

/** The answer to shape_check. */
export interface ShapeAnswer {
  target: string;
  resolvedAs: "model" | "route";
  /** The target model (or the route's response models), fields listed. */
  models: ShapeModel[];
  /** Routes returning the model (or the route), with where the model sits in the response. */
  routes: {
    method: string;
    path: string;
    file: string;
    line: number;
    as: string;
    clients: number;
    tests: number;
    elsewhere?: number;
  }[];
  /** Every field read found, breaks first. */
  reads: FieldRead[];
  breaks: ShapeBreak[];
  /** Reads listed in the text (the first ones of `breaks`, then of `reads`). */
  listed: number;
  text: string;
  usage: { tokens: number; budget: number; encoding: Encoding };
}

/** A language's semantics (blocks in braces or by indent). */
export const semanticsOf = (language: string): LanguageSemantics =>
  languageById(language)?.semantics ?? DEFAULT_SEMANTICS;

/** Functions a returned model is followed into (an API client's caller, and its caller). */
const RETURN_HOPS = 2;

/** shape_check over one graph. */
export async function shapeCheck(
  graph: CodeGraph,
  routes: Route[],
  target: string,
  readText: (path: string) => Promise<string>,
  options: ShapeOptions = {},
): Promise<ShapeAnswer> {
  const budget = checkBudget(options.budget ?? LIMITS.budget.list);
  const encoding = checkEncoding(options.encoding);
  const count = await loadTokenCounter(encoding);
  const cache = new Map<string, Promise<string[]>>();
  const lines = (p: string) =>
    cache.get(p) ??
    cache
      .set(
        p,
        readText(p).then(
          (t) => t.split("\n"),
          () => [],
        ),
      )
      .get(p)!;
  const read = modelReader(graph, lines);
  const t = target.trim();
  const route = ROUTE.exec(t);
  const { roots, models, returning } = route
    ? await routeRoots(graph, routes, t, route, read)
    : await modelRoots(graph, routes, t, read);
  const changes = parseChanges(options, models);

  const reads: FieldRead[] = [];
  const scanned = new Set<string>();
  const routeRows: ShapeAnswer["routes"] = [];
  for (const { route: r, root } of returning) {
    const clients = routeClients(graph, routes, r);
    const inTree = models.map((m) => pathTo(root, m.id)).find(Boolean) ?? root.name;
    routeRows.push({
      method: r.method,
      path: r.path,
      file: r.file,
      line: r.line,
      as: inTree,
      clients: clients.filter((c) => !c.test).length,
      tests: clients.filter((c) => c.test).length,
    });
    for (const c of clients) reads.push(...(await consumerReads(graph, c, root, lines, scanned)));
  }
  reads.push(...(await typedReads(graph, roots, lines, scanned)));
  if (options.elsewhere && returning.length + roots.length) {
    const other = await options.elsewhere(
      returning.map(({ route: r, root }) => ({ method: r.method, path: r.path, root })),
      roots,
    );
    other.clients.forEach((n, i) => (n && routeRows[i] ? (routeRows[i]!.elsewhere = n) : undefined));
    reads.push(...other.reads);
  }
  const wanted = new Set(models.map((m) => m.qualified));
  const relevant = route ? reads : reads.filter((r) => wanted.has(r.model));
  const unique = dedupe(relevant);
  const breaks: ShapeBreak[] = [];
  for (const r of unique) {
    const change = changes.get(r.field);
    if (change && (route || wanted.has(r.model))) breaks.push({ ...r, change });
  }
  return render({
    target: t,
    resolvedAs: route ? "route" : "model",
    models,
    routes: routeRows,
    reads: unique,
    breaks,
    changes,
    budget,
    encoding,
    count,
  });
}

/**
 * A model target: the class-like definitions of that name (the first one a route returns leads; the others are typed
 * twins).
 */
async function modelRoots(graph: CodeGraph, routes: Route[], target: string, read: (id: number) => Promise<ModelNode>) {
  const isModel = (id: number) => MODEL_KINDS.has(graph.symbols[id]!.kind);
  const matched = matchSymbols(graph, target).filter(isModel);
  // The same model declared on both sides (the backend's pydantic model, the frontend's interface): the one a route
  // returns leads.
  const ids = [
    ...new Set([
      ...matched,
      ...matched.flatMap((id) => (graph.byName.get(graph.symbols[id]!.name) ?? []).filter(isModel)),
    ]),
  ];
  if (!ids.length) {
    const s = findSymbol(graph, target);
    throw new EngineError(
      "invalid_argument",
      `${s.qualified} is a ${s.kind}, not a model: shape_check takes a response model (a class, a dataclass, an ` +
        `interface) or \`METHOD /path\`.`,
      {
        hint: "Pass the model a route returns (its response_model or return type), or the route itself.",
        data: { target, kind: s.kind },
      },
    );
  }
  const returning: { route: Route; root: ModelNode }[] = [];
  let lead: number | undefined;
  for (const r of routes) {
    if (r.test) continue;
    for (const rid of responseModelIds(graph, r)) {
      const root = await read(rid);
      const hit = ids.find((id) => modelsIn(root).some((m) => m.id === id));
      if (hit === undefined) continue;
      lead ??= hit;
      returning.push({ route: r, root });
    }
  }
  const main = await read(lead ?? matched[0]!);
  // Twins: the same model declared again (the frontend's interface of the backend's model) read through the main one's
  // fields.
  return { roots: [main], models: [main], returning };
}

/** A route target: its routes' response models. */
async function routeRoots(
  graph: CodeGraph,
  routes: Route[],
  target: string,
  m: RegExpExecArray,
  read: (id: number) => Promise<ModelNode>,
) {
  const hits = closestRoutes(routesNamed(routes, m[1]!, m[2]!, target), m[2]!);
  const returning: { route: Route; root: ModelNode }[] = [];
  for (const r of hits) for (const id of responseModelIds(graph, r)) returning.push({ route: r, root: await read(id) });
  if (!returning.length) {
    throw new EngineError(
      "not_found",
      `${target} declares no response model the project defines (no response_model=, no return annotation ` +
        `naming a class).`,
      {
        hint: "Pass the model itself, or annotate the handler's return type.",
        data: { path: target },
      },
    );
  }
  const roots = [...new Map(returning.map((x) => [x.root.id, x.root])).values()];
  return { roots, models: [...new Map(roots.flatMap(modelsIn).map((n) => [n.id, n])).values()], returning };
}

/** `old=new` renames and removals, each checked against the models' fields. */
function parseChanges(options: ShapeOptions, models: ModelNode[]): Map<string, string> {
  const fields = new Set(models.flatMap((m) => [...m.fields.keys()]));
  const out = new Map<string, string>();
  const check = (f: string, arg: string) => {
    if (!fields.has(f)) {
      throw new EngineError(
        "invalid_argument",
        `${quoted(f)} (in ${arg}) is not a field of ${models.map((m) => m.name).join(", ")}.`,
        {
          hint: `Fields: ${[...fields].slice(0, 20).join(", ")}.`,
          data: { field: f, fields: [...fields] },
        },
      );
    }
  };
  for (const r of options.rename ?? []) {
    const m = /^\s*([A-Za-z_$][\w$]*)\s*=\s*([A-Za-z_$][\w$]*)\s*$/.exec(r);
    if (!m)
      throw new EngineError("invalid_argument", `rename takes old=new (two field names), got ${quoted(r)}.`, {
        hint: "Write it as old=new, e.g. title=name.",
        data: { rename: r },
      });
    check(m[1]!, `rename ${r}`);
    out.set(m[1]!, `renamed to ${m[2]}`);
  }
  for (const f of options.remove ?? []) {
    check(f.trim(), `remove ${f}`);
    out.set(f.trim(), "removed");
  }
  return out;
}

/** The reads of one client call's consumer, and of the functions its returned value is handed to. */
async function consumerReads(
  graph: CodeGraph,
  c: Pick<ClientCall, "path" | "line" | "callerId">,
  root: ModelNode,
  lines: (p: string) => Promise<string[]>,
  scanned: Set<string>,
): Promise<FieldRead[]> {
  const text = await lines(c.path);
  const direct = /\$fetch|\bofetch\b|useFetch/.test(text[c.line - 1] ?? "");
  const out: FieldRead[] = [];
  let next: { id: number; line: number; held: Held }[] = [
    { id: c.callerId, line: c.line, held: { node: root, http: !direct } },
  ];
  for (let hop = 0; hop <= RETURN_HOPS && next.length; hop++) {
    const after: typeof next = [];
    for (const { id, line, held } of next) {
      const key = `${id}\0${line}\0${held.node.id}`;
      if (scanned.has(key)) continue;
      scanned.add(key);
      const s = graph.symbols[id]!;
      const scope = scopeOf(graph, id, line);
      const scan = new LineScan(s.file, scope.name, "response", semanticsOf(s.language).blocks === "braces");
      scan.run(await lines(s.file), scope.start, scope.end, new Map(), { line, held });
      out.push(...scan.reads);
      if (!scan.returned || s.kind === "module") continue;
      for (const ei of graph.callsTo.get(id) ?? []) {
        const e = graph.calls[ei]!;
        after.push({ id: e.caller, line: e.line, held: scan.returned });
      }
    }
    next = after;
  }
  return out;
}

/**
 * The reads of model trees at call sites of this project (another repository's calls of a route
 * returning the model) and through parameters typed by the models' names, for a repository group.
 */
export async function shapeReadsAt(
  graph: CodeGraph,
  sites: readonly ShapeSite[],
  typed: readonly ModelNode[],
  readText: (path: string) => Promise<string>,
): Promise<FieldRead[]> {
  const cache = new Map<string, Promise<string[]>>();
  const lines = (p: string) =>
    cache.get(p) ??
    cache
      .set(
        p,
        readText(p).then(
          (t) => t.split("\n"),
          () => [],
        ),
      )
      .get(p)!;
  const scanned = new Set<string>();
  const out: FieldRead[] = [];
  for (const site of sites) {
    const call = graph.records.get(site.path)?.calls.find((c) => c.line === site.line);
    const mod = graph.moduleSymbol.get(site.path);
    if (!call || mod === undefined) continue;
    const callerId = call.caller >= 0 ? mod + 1 + call.caller : mod;
    out.push(
      ...(await consumerReads(graph, { path: site.path, line: site.line, callerId }, site.root, lines, scanned)),
    );
  }
  out.push(...(await typedReads(graph, typed, lines, scanned)));
  return out;
}

/** Reads through parameters typed by a model's name (`item: ItemPublic`), in any file. */
async function typedReads(
  graph: CodeGraph,
  roots: readonly ModelNode[],
  lines: (p: string) => Promise<string[]>,
  scanned: Set<string>,
): Promise<FieldRead[]> {
  const byName = new Map<string, ModelNode>();
  for (const r of roots) for (const m of modelsIn(r)) byName.set(m.name, m);
  const holder = holderOf(graph, byName, lines);
  const out: FieldRead[] = [];
  for (const [file, record] of graph.records) {
    const mod = graph.moduleSymbol.get(file)!;
    for (const [i, d] of record.definitions.entries()) {
      const vars = new Map<string, Held>();
      for (const p of d.params ?? []) {
        const names = typeNames(p.type ?? "");
        let node = names.map((n) => byName.get(n)).find(Boolean);
        for (const n of names) node ??= await holder(n); // one at a time: model trees are read so
        if (!node) continue;
        if (/^[A-Za-z_$][\w$]*$/.test(p.name)) vars.set(p.name, { node, http: false });
        else if (node.id === HOLDER) destructured(p.name, node, vars);
      }
      if (!vars.size) continue;
      const id = mod + 1 + i;
      const key = `typed\0${id}`;
      if (scanned.has(key)) continue;
      scanned.add(key);
      const s = graph.symbols[id]!;
      const scan = new LineScan(file, s.qualified, "typed", semanticsOf(record.language).blocks === "braces");
      scan.run(await lines(file), d.bodyStart || d.nameLine, d.end, vars);
      out.push(...scan.reads);
    }
  }
  return out;
}

/** The id of a holder: a type whose fields are typed by the models (a component's props), its own fields no reads. */
const HOLDER = -1;

/**
 * A type of this project whose fields are typed by the models' names (`interface EditItemProps {
 * item: ItemPublic }`): a node holding those fields, so that `({ item }: EditItemProps)` and
 * `props.item` hold the model. Undefined for a type that names none of them.
 */
function holderOf(
  graph: CodeGraph,
  byName: ReadonlyMap<string, ModelNode>,
  lines: (p: string) => Promise<string[]>,
): (name: string) => Promise<ModelNode | undefined> {
  const read = modelReader(graph, lines);
  const memo = new Map<string, Promise<ModelNode | undefined>>();
  const named = new RegExp(
    `(?<![\\w$])(?:${[...byName.keys()].map((n) => n.replace(/[$]/g, "\\$")).join("|")})(?![\\w$])`,
  );
  const build = async (name: string): Promise<ModelNode | undefined> => {
    if (!byName.size || !graph.byName.has(name)) return undefined;
    const id = graph.byName.get(name)!.find((x) => MODEL_KINDS.has(graph.symbols[x]!.kind));
    if (id === undefined) return undefined;
    // Only a type whose lines name a model is read as a tree (every class a parameter names would cost a tree each).
    const s = graph.symbols[id]!;
    if (!named.test((await lines(s.file)).slice(s.start - 1, s.end).join("\n"))) return undefined;
    const own = await read(id);
    const fields = new Map<string, ModelField>();
    for (const f of own.fields.values()) {
      const child = typeNames(f.type)
        .map((n) => byName.get(n))
        .find(Boolean);
      if (child) fields.set(f.name, { ...f, child });
    }
    return fields.size ? { ...own, id: HOLDER, fields } : undefined;
  };
  return (name) => memo.get(name) ?? memo.set(name, build(name)).get(name)!;
}

/** `{ item, onSuccess }` (or `{ item: it }`) from a holder: the names that hold a model. */
function destructured(pattern: string, node: ModelNode, vars: Map<string, Held>): void {
  const inner = /^\s*\{([^}]*)\}\s*$/.exec(pattern)?.[1];
  for (const part of inner?.split(",") ?? []) {
    const m = /^\s*([A-Za-z_$][\w$]*)\s*(?::\s*([A-Za-z_$][\w$]*))?\s*(?:=.*)?$/.exec(part);
    const child = m ? node.fields.get(m[1]!)?.child : undefined;
    if (child) vars.set(m![2] ?? m![1]!, { node: child, http: false });
  }
}

function dedupe(reads: FieldRead[]): FieldRead[] {
  const seen = new Set<string>();
  return reads
    .filter((r) => {
      const k = `${r.repo ?? ""}\0${r.path}\0${r.line}\0${r.model}\0${r.field}`;
      return seen.has(k) ? false : (seen.add(k), true);
    })
    .sort((a, b) => {
      // This repository's reads first, then each other repository's.
      const ra = a.repo ?? "",
        rb = b.repo ?? "";
      if (ra !== rb) return ra < rb ? -1 : 1;
      return a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line;
    });
}

interface RenderInput {
  target: string;
  resolvedAs: ShapeAnswer["resolvedAs"];
  models: ModelNode[];
  routes: ShapeAnswer["routes"];
  reads: FieldRead[];
  breaks: ShapeBreak[];
  changes: Map<string, string>;
  budget: number;
  encoding: Encoding;
  count: (text: string) => number;
}

/**
 * The answer's text: the model and its fields, the routes returning it, the breaks, then the reads; within the budget.
 */
function render(x: RenderInput): ShapeAnswer {
  const head: string[] = [];
  const main = x.models[0]!;
  head.push(
    "# Shape of " +
      (x.resolvedAs === "route"
        ? `${x.target} (response ${main.name})`
        : `${main.qualified} (${cite(main.path, main.start, main.end)})`),
  );
  for (const m of x.resolvedAs === "route" ? x.models : [main]) {
    const own = [...m.fields.values()].filter((f) => f.owner === m.name).map((f) => f.name);
    const inherited = [...m.fields.values()].filter((f) => f.owner !== m.name);
    const owners = [...new Set(inherited.map((f) => f.owner))];
    head.push(
      `Fields of ${m.name}: ${own.join(", ") || "none of its own"}${owners
        .map(
          (o) =>
            `; from ${o}: ${inherited
              .filter((f) => f.owner === o)
              .map((f) => f.name)
              .join(", ")}`,
        )
        .join("")}`,
    );
  }
  head.push(
    x.routes.length
      ? "Returned by: " +
          x.routes
            .map(
              (r) =>
                `${r.method} ${r.path} (${cite(r.file, r.line)}${r.as !== main.name ? `, as ${r.as}` : ""}; ` +
                `${r.clients} client call${r.clients === 1 ? "" : "s"}, ${r.tests} from tests` +
                `${r.elsewhere ? `, ${r.elsewhere} from other repositories` : ""})`,
            )
            .join("; ")
      : "Returned by: no route the project registers names it as its response model (response_model=, return " +
          "annotation).",
  );
  const consumers = new Set(x.reads.map((r) => `${r.repo ?? ""}\0${r.path}\0${r.consumer}`)).size;
  head.push(
    `Reads: ${x.reads.length} field read${x.reads.length === 1 ? "" : "s"} in ${consumers} ` +
      (`consumer${consumers === 1 ? "" : "s"}` +
        `${x.reads.length ? "" : " (client calls whose response is followed, and parameters typed by the model)"}.`),
  );
  const changeText = [...x.changes].map(([f, c]) => `${f} ${c}`).join(", ");
  const rows: string[] = [];
  const inFile = (r: FieldRead) =>
    r.consumer.startsWith(`${r.path}#`) ? r.consumer.slice(r.path.length + 1) : r.consumer;
  const line = (r: FieldRead) =>
    `- ${r.repo ? `${r.repo}:` : ""}${cite(r.path, r.line)} ${r.expression} → ` +
    `${r.model.split(/[.#]/).pop()}.${r.field} in ${inFile(r)}${r.from === "typed" ? " (typed parameter)" : ""}`;
  if (x.changes.size)
    rows.push(
      `## Breaks (${changeText}): ${x.breaks.length} read${x.breaks.length === 1 ? "" : "s"}`,
      ...x.breaks.map((b) => `${line(b)} — ${b.field} ${b.change}`),
    );
  const rest = x.reads.filter(
    (r) =>
      !x.breaks.includes(r as ShapeBreak) &&
      !x.breaks.some(
        (b) =>
          b.repo === r.repo && b.path === r.path && b.line === r.line && b.field === r.field && b.model === r.model,
      ),
  );
  if (rest.length) rows.push(`## ${x.changes.size ? "Other reads" : "Reads"}`, ...rest.map(line));
  const ordered = [...x.breaks, ...rest];
  const text = (k: number) => {
    const shown = rows.slice(0, k);
    const more = rows.length - k;
    return [
      ...head,
      ...shown,
      ...(more > 0 ? [`… and ${more} more line${more > 1 ? "s" : ""}: raise the budget`] : []),
    ].join("\n");
  };
  const fitted = fitPrefix(rows.length, text, x.count, x.budget);
  if (!fitted.fits) {
    const needed = x.count(text(0));
    throw new EngineError(
      "budget_too_small",
      `A budget of ${x.budget} tokens cannot hold the shape's header; it needs ${needed}.`,
      { hint: `Ask again with budget ≥ ${needed}.`, data: { budget: x.budget, needed } },
    );
  }
  const listed = rows.slice(0, fitted.k).filter((r) => r.startsWith("- ")).length;
  return {
    target: x.target,
    resolvedAs: x.resolvedAs,
    models: x.models.map((m) => ({
      qualified: m.qualified,
      path: m.path,
      start: m.start,
      end: m.end,
      fields: [...m.fields.values()].map((f) => ({ name: f.name, type: f.type, owner: f.owner })),
    })),
    routes: x.routes,
    reads: ordered,
    breaks: x.breaks,
    listed,
    text: fitted.answer,
    usage: { tokens: x.count(fitted.answer), budget: x.budget, encoding: x.encoding },
  };
}
