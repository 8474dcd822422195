/**
 * The route map: every HTTP route with its handler, and the client calls in the project that reach
 * it — `fetch("/api/items")`, `axios.put(…)`, `client.get(f"/items/{id}")`, `request(app).get(…)`,
 * `app.request("/x")` — read from the string-literal arguments the index keeps for each call. A
 * client call in a test file is one of the route's tests. URL templates match by segment: a
 * placeholder (`{id}`, `${id}`, `:id`) matches any one segment, and a leading placeholder (a base URL
 * or a settings prefix: `f"{settings.API_V1_STR}/items/"`) matches any prefix.
 */
import { fitPrefix } from "../budget/fit.ts";
import { loadTokenCounter, type Encoding } from "../budget/tokenizer.ts";
import type { CodeGraph } from "../graph/model.ts";
import { LIMITS } from "../limits.ts";
import { EngineError } from "../../shared/errors.ts";
import { citeName } from "../../shared/paths.ts";
import { checkBudget, checkEncoding } from "./context.ts";
import type { Route } from "../query/routes.ts";
import { reachedOf, segmentsOf, type ClientCall } from "../query/route-calls.ts";

/** One route of the map. */
export interface RouteEntry {
  method: string;
  path: string;
  file: string;
  line: number;
  /** The handler, as the graph names it, when the handler is a named definition. */
  handler?: string;
  /** Client calls that reach it from production code, then from tests. */
  clients: ClientCall[];
  tests: ClientCall[];
  /** Registered in a test file (an app a test builds). */
  test?: boolean;
}

/** Filters of the route map. */
export interface RouteFilter {
  /** Only routes whose path starts with this (`/api/v1/items`). */
  prefix?: string;
  /** Only routes of this method (`GET`). */
  method?: string;
}

/** The routes (filtered), each with the client calls that reach it, production routes first. */
export function routeMap(graph: CodeGraph, routes: readonly Route[], filter: RouteFilter = {}): RouteEntry[] {
  const method = filter.method?.toUpperCase();
  const prefix = filter.prefix ? segmentsOf(filter.prefix) : undefined;
  const chosen = routes.filter((r) => {
    if (method && r.method !== method && r.method !== "ANY") return false;
    if (!prefix) return true;
    const s = segmentsOf(r.path);
    return prefix.every((p, i) => s[i] !== undefined && (p === s[i] || p === "*"));
  });
  const reached = reachedOf(graph, routes);
  const entries = chosen.map((r): RouteEntry => {
    const all = reached.get(r) ?? [];
    return {
      method: r.method,
      path: r.path,
      file: r.file,
      line: r.line,
      ...(r.handler !== undefined ? { handler: graph.symbols[r.handler]!.qualified } : {}),
      clients: all.filter((c) => !c.test),
      tests: all.filter((c) => c.test),
      ...(r.test ? { test: true } : {}),
    };
  });
  return entries.sort(
    (a, b) =>
      Number(a.test ?? false) - Number(b.test ?? false) ||
      a.path.localeCompare(b.path) ||
      a.method.localeCompare(b.method),
  );
}

/** Options of a route map answer. */
export interface RouteMapOptions extends RouteFilter {
  /** Tokens for the text (default 4,000): routes past what fits are counted, not listed. */
  budget?: number;
  encoding?: string;
}

/** The route map, fitted to a budget. */
export interface RouteMapAnswer {
  /** The routes listed, in order. */
  routes: RouteEntry[];
  /** Routes matching the filter, listed or not. */
  total: number;
  text: string;
  usage: { tokens: number; budget: number; encoding: Encoding };
}

/** Call sites listed per route and kind before "… and N more". */
const SITES_SHOWN = 3;

/** The route map as an answer: a line per route with its handler, client calls and tests, within the budget. */
export async function routeMapAnswer(
  graph: CodeGraph,
  routes: readonly Route[],
  options: RouteMapOptions = {},
): Promise<RouteMapAnswer> {
  const budget = checkBudget(options.budget ?? LIMITS.budget.list);
  const encoding = checkEncoding(options.encoding);
  const count = await loadTokenCounter(encoding);
  const entries = routeMap(graph, routes, options);
  const sites = (list: ClientCall[]) =>
    `${list
      .slice(0, SITES_SHOWN)
      .map((c) => `${c.path}:${c.line} (${citeName(c.caller)})`)
      .join(" · ")}${list.length > SITES_SHOWN ? ` · … and ${list.length - SITES_SHOWN} more` : ""}`;
  const lineOf = (e: RouteEntry) => {
    const out = [
      `- ${e.method} ${e.path} → ` +
        `${e.handler ? `${citeName(e.handler)} ` : ""}${e.file}:${e.line}${e.test ? " (registered in a test)" : ""}`,
    ];
    if (e.clients.length) out.push(`    called from: ${sites(e.clients)}`);
    if (e.tests.length) out.push(`    tests: ${sites(e.tests)}`);
    return out.join("\n");
  };
  const filter = [options.method?.toUpperCase(), options.prefix ? `under ${options.prefix}` : undefined]
    .filter(Boolean)
    .join(" ");
  const called = entries.filter((e) => e.clients.length).length;
  const tested = entries.filter((e) => e.tests.length).length;
  const head =
    `# Routes${filter ? ` (${filter})` : ""}: ${entries.length}; ${called} called from the project's ` +
    `own code, ${tested} called from tests`;
  const render = (k: number) => {
    const more = entries.length - k;
    const lines = [head, ...entries.slice(0, k).map(lineOf)];
    if (more > 0)
      lines.push(
        `… and ${more} more route${more > 1 ? "s" : ""}: narrow with a path prefix or a method, or raise the budget`,
      );
    if (entries.length === 0)
      lines.push(
        routes.length
          ? "No route matches the filter."
          : "No HTTP route found: the index knows the route registrations of the frameworks listed in " +
              "docs/languages.md.",
      );
    return lines.join("\n");
  };
  const fitted = fitPrefix(entries.length, render, count, budget);
  if (!fitted.fits) {
    const needed = count(render(0));
    throw new EngineError(
      "budget_too_small",
      `A budget of ${budget} tokens cannot hold the route map's header; it needs ${needed}.`,
      { hint: `Ask again with budget ≥ ${needed}.`, data: { budget, needed } },
    );
  }
  return {
    routes: entries.slice(0, fitted.k),
    total: entries.length,
    text: fitted.answer,
    usage: { tokens: count(fitted.answer), budget, encoding },
  };
}
