/**
 * `changes` on a route (`changes "PUT /items/{id}"`, issue 24 item 2): the change set narrowed to
 * the route's handler and what it reaches — the definitions its calls lead to (through a
 * constructor call, the class's initializer too) and the classes its own signature names (the
 * request and response models). A reviewer asking what changed in one endpoint gets those
 * definitions' changes, not the whole diff's.
 */
import type { CodeGraph } from "../graph/model.ts";
import { closestRoutes, ROUTE, routesNamed, routeSymbols } from "../query/route-calls.ts";
import type { Route } from "../query/routes.ts";
import { EngineError } from "../../shared/errors.ts";
import type { ComparedFile } from "./answer.ts";
import { graphSymbolOf } from "./impact.ts";
import { quoted } from "../../shared/quote.ts";

/** Call hops followed from the handler: the most any walk of the engine follows (LIMITS.depth.max). */
const MAX_HOPS = 10;
/** Methods a constructor call runs, by language convention. */
const INITIALIZERS = new Set(["__init__", "__post_init__", "__new__", "constructor", "initialize"]);

/** The definitions a route's code runs, and how the answer names them. */
export interface RouteScope {
  /** `PUT /items/{id}` as the routes matched it (several when one target names several). */
  label: string;
  /** The handlers' qualified names. */
  handlers: string[];
  /** Graph ids of the handlers and of every definition they reach. */
  ids: Set<number>;
}

/**
 * The scope of a `METHOD /path` target: the matching routes' handlers (an inline handler is the
 * definition around its registration) and what they reach. Throws `unknown_symbol` for a route
 * the project does not register (with the near ones) and `invalid_argument` for a target that is
 * not `METHOD /path`.
 */
export function routeScope(graph: CodeGraph, routes: Route[], target: string): RouteScope {
  const t = target.trim();
  const m = ROUTE.exec(t);
  if (!m)
    throw new EngineError(
      "invalid_argument",
      `changes narrows to a route written METHOD /path; ${quoted(t.slice(0, 200))} is not one.`,
      {
        hint: 'Pass a route such as "PUT /items/{id}" (one of the routes the project registers), or no target.',
        data: { target: t },
      },
    );
  const hits = closestRoutes(routesNamed(routes, m[1]!, m[2]!, t), m[2]!);
  const handlers = routeSymbols(graph, hits);
  const ids = new Set<number>(handlers);
  // The classes the handler's own signature names: its request and response models.
  for (const h of handlers) for (const type of graph.typeUses.get(h) ?? []) ids.add(type);
  let frontier = [...ids];
  for (let hop = 0; hop < MAX_HOPS && frontier.length; hop++) {
    const next: number[] = [];
    const reach = (id: number) => {
      if (ids.has(id)) return;
      ids.add(id);
      next.push(id);
    };
    for (const id of frontier) {
      for (const ei of graph.callsFrom.get(id) ?? []) {
        const callee = graph.calls[ei]!.callee;
        reach(callee);
        // Constructing a class runs its initializer.
        if (graph.symbols[callee]!.kind === "class")
          for (const c of graph.children.get(callee) ?? []) if (INITIALIZERS.has(graph.symbols[c]!.name)) reach(c);
      }
    }
    frontier = next;
  }
  const label = [...new Set(hits.map((r) => `${r.method} ${r.path}`))].join(", ");
  return { label, handlers: handlers.map((id) => graph.symbols[id]!.qualified), ids };
}

/**
 * The files of a change set narrowed to a route's scope: each file's changed definitions that are
 * in it (matched to the indexed tree as the impact matches them), without the module-level lines
 * (no route runs them when it is called); files left with none are dropped. Returns the files,
 * how many changed definitions were kept and left out, and in how many files module-level lines were.
 */
export function narrowToScope(
  graph: CodeGraph,
  files: ComparedFile[],
  scope: RouteScope,
): { files: ComparedFile[]; kept: number; dropped: number; moduleFiles: number } {
  let kept = 0;
  let dropped = 0;
  let moduleFiles = 0;
  const out: ComparedFile[] = [];
  for (const f of files) {
    const definitions = (f.comparison?.definitions ?? []).filter((c) => {
      const id =
        c.newIndex !== undefined && f.newRecord ? graphSymbolOf(graph, f.newRecord, c.newIndex)?.id : undefined;
      return id !== undefined && scope.ids.has(id);
    });
    const all = f.comparison?.definitions.length ?? 0;
    if (f.comparison?.moduleLines.old.length || f.comparison?.moduleLines.new.length) moduleFiles++;
    kept += definitions.length;
    dropped += all - definitions.length;
    if (!definitions.length) continue;
    out.push({ ...f, comparison: { definitions, moduleLines: { old: [], new: [] } } });
  }
  return { files: out, kept, dropped, moduleFiles };
}
