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
import { isTestFile } from "../graph/test-code.ts";
import type { Route } from "../query/routes.ts";

/** A call in the project that sends a request to a route. */
export interface ClientCall {
  path: string;
  line: number;
  /** The definition the call is in (its name in the file), or the file for module-level code. */
  caller: string;
  /** The graph symbol the call is in (the module's symbol for module-level code). */
  callerId: number;
  method: string;
  /** The URL as written, quotes removed (`/items/{item_id}`, `${API}/items`). */
  url: string;
  test: boolean;
}

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

const VERBS = new Set(["get", "post", "put", "patch", "delete", "head", "options"]);
/** Calls that send a request whose method is in their arguments, or GET. */
const SENDERS = new Set(["fetch", "request", "ajax", "$fetch", "ofetch", "urlopen"]);
const STRING = /^(?:\w+\s*=\s*)?[rbuf]{0,2}(['"`])(.*)\1$/is;
const METHOD_OPTION = /\bmethod\s*[:=]\s*['"`](\w+)['"`]/i;

/** The URL a call's argument holds, as a path template, or undefined when it is no URL. */
export function urlOf(arg: string): string | undefined {
  const m = STRING.exec(arg.trim());
  if (!m) return undefined;
  let url = m[2]!.replace(/\$\{[^}]*\}/g, (p) => `{${p.slice(2, -1)}}`);
  url = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, "");
  url = url.replace(/[?#].*$/, "");
  if (!/^(\/|\{[^}]*\}\/?)/.test(url)) return undefined;
  return url;
}

/** Path segments for matching; a placeholder is `*`. */
function segmentsOf(path: string): string[] {
  return path.split("/").filter(Boolean).map((s) => (/^(\{.*\}|<.*>|:\w+\??|\[.*\]|\*)$/.test(s) ? "*" : s.toLowerCase()));
}

/** True when a client URL template reaches a route's path; a leading placeholder stands for any prefix. */
export function urlReaches(route: string, url: string): boolean {
  return looseness(route, url) >= 0;
}

/**
 * How loosely a client URL template matches a route's path: the segments where one side is a
 * placeholder and the other is not (0: every segment agrees in kind), or -1 when it does not match.
 */
function looseness(route: string, url: string): number {
  const r = segmentsOf(route);
  let u = segmentsOf(url);
  const anyPrefix = /^\{[^}]*\}/.test(url);
  if (anyPrefix) u = u.slice(1);
  if (anyPrefix ? u.length > r.length : u.length !== r.length) return -1;
  const tail = r.slice(r.length - u.length);
  let loose = 0;
  for (let i = 0; i < tail.length; i++) {
    if (tail[i] === u[i]) continue;
    if (tail[i] !== "*" && u[i] !== "*") return -1;
    loose++;
  }
  return loose;
}

/** Of `routes` (all matching `path`), the ones it matches most closely: `/items/latest` is not also `/items/{id}`. */
export function closestRoutes<R extends { path: string }>(routes: readonly R[], path: string): R[] {
  const scored = routes.map((r) => ({ r, loose: looseness(r.path, path) })).filter((x) => x.loose >= 0);
  if (!scored.length) return [...routes];
  const best = Math.min(...scored.map((x) => x.loose));
  return scored.filter((x) => x.loose === best).map((x) => x.r);
}

/** Every call in the project that sends a request to a URL it spells out, with the method it uses. */
export function clientCalls(graph: CodeGraph, routes: readonly Route[]): ClientCall[] {
  // Registrations and mounts are calls too (`app.get("/x", h)`, `app.use("/api", r)`): not clients.
  const registered = new Set<string>();
  for (const r of routes) {
    for (let l = r.span.start; l <= r.span.end; l++) registered.add(`${r.file}\0${l}`);
    for (const m of r.mounts) for (let l = m.start; l <= m.end; l++) registered.add(`${m.path}\0${l}`);
  }
  const out: ClientCall[] = [];
  for (const [file, record] of graph.records) {
    const test = isTestFile(file);
    for (const call of record.calls) {
      if (!call.args?.length || registered.has(`${file}\0${call.line}`)) continue;
      const name = call.name.toLowerCase();
      let method: string | undefined;
      let urlArg = 0;
      if (VERBS.has(name) || name === "del") method = name === "del" ? "DELETE" : name.toUpperCase();
      else if (SENDERS.has(name)) {
        const verb = /^['"`](\w+)['"`]$/.exec(call.args[0]!.trim())?.[1];
        if (verb && VERBS.has(verb.toLowerCase())) {
          method = verb.toUpperCase();
          urlArg = 1;
        } else method = (call.args.map((a) => METHOD_OPTION.exec(a)?.[1]).find(Boolean) ?? "GET").toUpperCase();
      } else continue;
      const url = call.args[urlArg] !== undefined ? urlOf(call.args[urlArg]!) : undefined;
      if (url === undefined) continue;
      const mod = graph.moduleSymbol.get(file)!;
      const callerId = call.caller >= 0 ? mod + 1 + call.caller : mod;
      out.push({ path: file, line: call.line, caller: call.caller >= 0 ? inFileName(graph, file, callerId) : file, callerId, method, url, test });
    }
  }
  return out;
}

/** A definition's name inside its file (`Cart.total`), for a line that already cites the file. */
function inFileName(graph: CodeGraph, file: string, id: number): string {
  const q = graph.symbols[id]?.qualified;
  if (q === undefined) return file;
  const mod = graph.symbols[graph.moduleSymbol.get(file)!]!.qualified;
  return q.startsWith(`${mod}.`) ? q.slice(mod.length + 1) : q.includes("#") ? q.slice(q.indexOf("#") + 1) : q;
}

/**
 * Which calls reach which route. A call reaches the routes it matches most closely: `/items/latest`
 * is that route, not also `/items/{id}`; `/items/${id}` is `/items/{id}`, not also `/items/latest`.
 */
function reachedBy(routes: readonly Route[], calls: readonly ClientCall[]): Map<Route, ClientCall[]> {
  const reached = new Map<Route, ClientCall[]>();
  for (const c of calls) {
    const hits = routes.flatMap((r) => {
      const loose = r.method === c.method || r.method === "ANY" ? looseness(r.path, c.url) : -1;
      return loose >= 0 ? [{ r, loose }] : [];
    });
    if (!hits.length) continue;
    const closest = Math.min(...hits.map((h) => h.loose));
    for (const { r } of hits.filter((h) => h.loose === closest)) (reached.get(r) ?? reached.set(r, []).get(r)!).push(c);
  }
  return reached;
}

/**
 * `reachedBy` over the project's client calls, once per graph and routes: `tests` asks it for each
 * route handler, and reading every call of the project again each time cost a full pass per answer.
 */
const reachedMemo = new WeakMap<CodeGraph, { routes: readonly Route[]; reached: Map<Route, ClientCall[]> }>();
function reachedOf(graph: CodeGraph, routes: readonly Route[]): Map<Route, ClientCall[]> {
  const memo = reachedMemo.get(graph);
  if (memo && memo.routes === routes) return memo.reached;
  const reached = reachedBy(routes, clientCalls(graph, routes));
  reachedMemo.set(graph, { routes, reached });
  return reached;
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
      method: r.method, path: r.path, file: r.file, line: r.line,
      ...(r.handler !== undefined ? { handler: graph.symbols[r.handler]!.qualified } : {}),
      clients: all.filter((c) => !c.test), tests: all.filter((c) => c.test),
      ...(r.test ? { test: true } : {}),
    };
  });
  return entries.sort((a, b) => Number(a.test ?? false) - Number(b.test ?? false) || a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
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
export async function routeMapAnswer(graph: CodeGraph, routes: readonly Route[], options: RouteMapOptions = {}): Promise<RouteMapAnswer> {
  const budget = checkBudget(options.budget ?? LIMITS.budget.list);
  const encoding = checkEncoding(options.encoding);
  const count = await loadTokenCounter(encoding);
  const entries = routeMap(graph, routes, options);
  const sites = (list: ClientCall[]) =>
    `${list.slice(0, SITES_SHOWN).map((c) => `${c.path}:${c.line} (${citeName(c.caller)})`).join(" · ")}${list.length > SITES_SHOWN ? ` · … and ${list.length - SITES_SHOWN} more` : ""}`;
  const lineOf = (e: RouteEntry) => {
    const out = [`- ${e.method} ${e.path} → ${e.handler ? `${citeName(e.handler)} ` : ""}${e.file}:${e.line}${e.test ? " (registered in a test)" : ""}`];
    if (e.clients.length) out.push(`    called from: ${sites(e.clients)}`);
    if (e.tests.length) out.push(`    tests: ${sites(e.tests)}`);
    return out.join("\n");
  };
  const filter = [options.method?.toUpperCase(), options.prefix ? `under ${options.prefix}` : undefined].filter(Boolean).join(" ");
  const called = entries.filter((e) => e.clients.length).length;
  const tested = entries.filter((e) => e.tests.length).length;
  const head = `# Routes${filter ? ` (${filter})` : ""}: ${entries.length}; ${called} called from the project's own code, ${tested} called from tests`;
  const render = (k: number) => {
    const more = entries.length - k;
    const lines = [head, ...entries.slice(0, k).map(lineOf)];
    if (more > 0) lines.push(`… and ${more} more route${more > 1 ? "s" : ""}: narrow with a path prefix or a method, or raise the budget`);
    if (entries.length === 0) lines.push(routes.length ? "No route matches the filter." : "No HTTP route found: the index knows the route registrations of the frameworks listed in docs/languages.md.");
    return lines.join("\n");
  };
  const fitted = fitPrefix(entries.length, render, count, budget);
  if (!fitted.fits) {
    const needed = count(render(0));
    throw new EngineError("budget_too_small", `A budget of ${budget} tokens cannot hold the route map's header; it needs ${needed}.`, { hint: `Ask again with budget ≥ ${needed}.`, data: { budget, needed } });
  }
  return { routes: entries.slice(0, fitted.k), total: entries.length, text: fitted.answer, usage: { tokens: count(fitted.answer), budget, encoding } };
}

/** The calls from test files that reach a route whose handler is one of `handlers`, with the route each reaches. */
export function requestsTo(graph: CodeGraph, routes: readonly Route[], handlers: ReadonlySet<number>): { call: ClientCall; route: Route }[] {
  const mine = routes.filter((r) => r.handler !== undefined && handlers.has(r.handler));
  if (!mine.length) return [];
  const out: { call: ClientCall; route: Route }[] = [];
  for (const [route, calls] of reachedOf(graph, routes)) {
    if (mine.includes(route)) for (const call of calls) if (call.test) out.push({ call, route });
  }
  return out;
}
