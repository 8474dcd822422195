/**
 * The client calls in the project that reach a route — `fetch("/api/items")`, `axios.put(…)`,
 * `client.get(f"/items/{id}")`, `request(app).get(…)`, `app.request("/x")` — read from the
 * string-literal arguments the index keeps for each call, and the routes a `METHOD /path` target
 * names. Queries over the graph and its routes: the route map (slice/route-map.ts), impact,
 * callers, tests, changes and shape_check all answer from them. URL templates match by segment: a
 * placeholder (`{id}`, `${id}`, `:id`) matches any one segment, and a leading placeholder (a base
 * URL or a settings prefix: `f"{settings.API_V1_STR}/items/"`) matches any prefix.
 */
import type { CodeGraph } from "../graph/model.ts";
import { isTestFile } from "../graph/test-code.ts";
import { EngineError } from "../../shared/errors.ts";
import { matchRoutes, type Route } from "./routes.ts";
import { quoted } from "../../shared/quote.ts";

/**
 * A route target: `METHOD /path`, optionally with where it is registered, for a path several apps register:
 * `GET / (apps/web/server.ts)`, `GET / (apps/web/server.ts:12)`, or a folder: `GET / (apps/web/)`.
 */
export const ROUTE = /^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|ANY)\s+(\/\S*)(?:\s+\(([^()\s]+?)(?::(\d+))?\))?$/i;

/** How a route is written as a target that names it alone: `GET /users (src/app.ts:12)`. */
export function routeLabel(r: Pick<Route, "method" | "path" | "file" | "line">): string {
  return `${r.method} ${r.path} (${r.file}:${r.line})`;
}

/**
 * The error for a route target that matches several routes: each listed as a target that names it alone.
 * `what` says what differs ("routes", "routes with different handlers").
 */
export function severalRoutes(target: string, hits: readonly Route[], what = "routes"): EngineError {
  const shown = hits.slice(0, 8).map(routeLabel);
  const more = hits.length > shown.length ? `, and ${hits.length - shown.length} more` : "";
  return new EngineError("invalid_argument", `${target} matches ${hits.length} ${what}: ${shown.join(", ")}${more}.`, {
    hint: `Name one with where it is registered, as listed: ${quoted(shown[0])}.`,
    data: { target },
  });
}

/**
 * The routes `METHOD /path` names (kept to those registered in the file, folder or line the target adds in
 * parentheses); throws `unknown_symbol` with the near ones when there is none.
 */
export function routesNamed(routes: Route[], methodArg: string, path: string, target: string): Route[] {
  const method = methodArg.toUpperCase();
  const hits = matchRoutes(routes, method, path);
  if (hits.length) return registeredAt(hits, target);
  const samePath = routes.filter((r) => matchRoutes([r], "ANY", path).length > 0).map((r) => `${r.method} ${r.path}`);
  throw new EngineError("unknown_symbol", `No route ${method} ${path} found (${routes.length} routes known).`, {
    hint: samePath.length
      ? `Same path, other methods: ${[...new Set(samePath)].slice(0, 5).join(", ")}.`
      : routes.length
        ? `Known routes include ${routes
            .slice(0, 5)
            .map((r) => `${r.method} ${r.path}`)
            .join(", ")}.`
        : "No route registrations were found in this project.",
    data: { target, known: routes.length },
  });
}

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

const VERBS = new Set(["get", "post", "put", "patch", "delete", "head", "options"]);
/** Calls that send a request whose method is in their arguments, or GET. */
const SENDERS = new Set(["fetch", "request", "ajax", "$fetch", "ofetch", "urlopen"]);
const STRING = /^(?:\w+\s*[=:]\s*)?[rbuf]{0,2}(['"`])(.*)\1$/is;
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
export function segmentsOf(path: string): string[] {
  return path
    .split("/")
    .filter(Boolean)
    .map((s) => (/^(\{.*\}|<.*>|:\w+\??|\[.*\]|\*)$/.test(s) ? "*" : s.toLowerCase()));
}

/** True when a client URL template reaches a route's path; a leading placeholder stands for any prefix. */
export function urlReaches(route: string, url: string): boolean {
  return looseness(route, url) >= 0;
}

/**
 * How loosely a client URL template matches a route's path: the segments where one side is a
 * placeholder and the other is not (0: every segment agrees in kind), or -1 when it does not match.
 */
export function looseness(route: string, url: string): number {
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
      out.push({
        path: file,
        line: call.line,
        caller: call.caller >= 0 ? inFileName(graph, file, callerId) : file,
        callerId,
        method,
        url,
        test,
      });
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
    for (const r of nearest(
      hits.filter((h) => h.loose === closest).map((h) => h.r),
      c.path,
    ))
      (reached.get(r) ?? reached.set(r, []).get(r)!).push(c);
  }
  return reached;
}

/**
 * Of routes a call matches equally well, those registered nearest the call: in the deepest folder they share
 * with the calling file (a test in `apps/web/test/` reaches `apps/web`'s `GET /`, not `apps/admin`'s). Routes that
 * share no folder with the caller but the root are all kept: nothing says which app it calls.
 */
function nearest(routes: Route[], caller: string): Route[] {
  if (routes.length < 2) return routes;
  const depth = routes.map((r) => sharedFolders(r.file, caller));
  const best = Math.max(...depth);
  return best === 0 ? routes : routes.filter((_, i) => depth[i] === best);
}

/** How many leading folders two root-relative paths share. */
function sharedFolders(a: string, b: string): number {
  const x = a.split("/");
  const y = b.split("/");
  let n = 0;
  while (n < x.length - 1 && n < y.length - 1 && x[n] === y[n]) n++;
  return n;
}

/**
 * `reachedBy` over the project's client calls, once per graph and routes: `tests` asks it for each
 * route handler, and reading every call of the project again each time cost a full pass per answer.
 */
const reachedMemo = new WeakMap<CodeGraph, { routes: readonly Route[]; reached: Map<Route, ClientCall[]> }>();
export function reachedOf(graph: CodeGraph, routes: readonly Route[]): Map<Route, ClientCall[]> {
  const memo = reachedMemo.get(graph);
  if (memo && memo.routes === routes) return memo.reached;
  const reached = reachedBy(routes, clientCalls(graph, routes));
  reachedMemo.set(graph, { routes, reached });
  return reached;
}

/**
 * The client calls that reach `route` (production code and tests): the route's consumers, as the
 * route map lists them. `route` may be a copy of one of `routes` (a route matched by suffix).
 * This is where consumers from other repositories of a group join a route's own.
 */
export function routeClients(graph: CodeGraph, routes: readonly Route[], route: Route): ClientCall[] {
  const reached = reachedOf(graph, routes);
  const same = reached.has(route)
    ? route
    : routes.find(
        (r) => r.file === route.file && r.line === route.line && r.method === route.method && r.path === route.path,
      );
  return same ? (reached.get(same) ?? []) : [];
}

/** The calls from test files that reach a route whose handler is one of `handlers`, with the route each reaches. */
export function requestsTo(
  graph: CodeGraph,
  routes: readonly Route[],
  handlers: ReadonlySet<number>,
): { call: ClientCall; route: Route }[] {
  const mine = routes.filter((r) => r.handler !== undefined && handlers.has(r.handler));
  if (!mine.length) return [];
  const out: { call: ClientCall; route: Route }[] = [];
  for (const [route, calls] of reachedOf(graph, routes)) {
    if (mine.includes(route)) for (const call of calls) if (call.test) out.push({ call, route });
  }
  return out;
}

/**
 * The handlers of routes; an inline handler is the innermost definition around its registration, else its module code.
 */
export function routeSymbols(graph: CodeGraph, hits: readonly Route[]): number[] {
  const ids: number[] = [];
  for (const r of hits) {
    if (r.handler !== undefined) ids.push(r.handler);
    else {
      const mod = graph.moduleSymbol.get(r.file)!;
      const n = graph.records.get(r.file)?.definitions.length ?? 0;
      let best = mod;
      for (let id = mod + 1; id <= mod + n; id++) {
        const s = graph.symbols[id]!;
        if (s.start <= r.span.start && s.end >= r.span.end && (best === mod || s.start >= graph.symbols[best]!.start))
          best = id;
      }
      ids.push(best);
    }
  }
  return [...new Set(ids)];
}

/**
 * The routes among `hits` registered where the target's parentheses say (a file, a folder ending in `/`, or a
 * file and a line within the registration); all of them when it says nothing.
 */
export function registeredAt(hits: Route[], target: string): Route[] {
  const m = ROUTE.exec(target.trim());
  const place = m?.[3];
  if (!m || place === undefined) return hits;
  const line = m[4] === undefined ? undefined : Number(m[4]);
  const inPlace = (r: Route) =>
    (r.file === place || (place.endsWith("/") && r.file.startsWith(place))) &&
    (line === undefined || r.line === line || (line >= r.span.start && line <= r.span.end));
  const kept = hits.filter(inPlace);
  if (kept.length) return kept;
  throw new EngineError(
    "unknown_symbol",
    `No route ${m[1]!.toUpperCase()} ${m[2]} is registered at ${place}${line === undefined ? "" : `:${line}`}.`,
    {
      hint: `It is registered at: ${hits.slice(0, 8).map(routeLabel).join(", ")}.`,
      data: { target },
    },
  );
}
