/**
 * A group of repositories served together: one engine per repository, each with its own index
 * and cache, and the contracts between them — HTTP routes one serves and another calls, packages
 * one imports from another — found by matching each engine's plain-data side (`contracts()`), never
 * by merging indexes. Citations in a group name the repository: `repo:path:line`.
 */
import type { Engine } from "../engine/engine.ts";
import type { ContractCall, ContractRoute, Contracts } from "../slice/contracts.ts";
import { EngineError } from "../../shared/errors.ts";
import { citeName } from "../../shared/paths.ts";
import { fitPrefix } from "../budget/fit.ts";
import { loadTokenCounter } from "../budget/tokenizer.ts";
import { LIMITS } from "../limits.ts";
import { checkBudget } from "../slice/context.ts";
import { looseness as routeLooseness } from "../query/route-calls.ts";
import type { FieldRead, ShapeAnswer, ShapeOptions, ShapeRoute, ShapeSite } from "../slice/shape-check.ts";
import { quoted } from "../../shared/quote.ts";

/** One repository of a group. */
export interface GroupMember {
  /** The name citations and the `repo` argument use (`backend`). */
  name: string;
  engine: Engine;
  /** The folder, as the platform names it. */
  root: string;
  /**
   * The package names the repository publishes (package.json `name`, pyproject `[project] name`), for imports between
   * members.
   */
  packages?: string[];
}

/** A call site in one repository of the group. */
export interface GroupCall extends ContractCall {
  repo: string;
}

/** A route of the group's map with the calls that reach it from any member. */
export interface GroupRoute extends ContractRoute {
  repo: string;
  clients: GroupCall[];
  tests: GroupCall[];
}

/** An import of one member's package by another member. */
export interface GroupImport {
  /** The importing repository and the repository whose package it imports. */
  from: string;
  to: string;
  module: string;
  path: string;
  line: number;
}

/** The group's route map, fitted to a budget. */
export interface GroupRouteMap {
  routes: GroupRoute[];
  total: number;
  /** Imports of one member's package by another. */
  imports: GroupImport[];
  text: string;
}

/** A group of engines; names are unique, the first member answers when no repository is named. */
export interface EngineGroup {
  readonly members: readonly GroupMember[];
  /** The member of that name (the first when none is given); `unknown_repo` with the names otherwise. */
  member(name?: string): GroupMember;
  /** Every member's routes with the client calls from every member that reach each. */
  routeMap(options?: {
    prefix?: string;
    method?: string;
    budget?: number;
    signal?: AbortSignal;
  }): Promise<GroupRouteMap>;
  /**
   * Calls in other members that reach `routes` of member `repo` (a handler's routes), with the code that calls them.
   */
  crossCallers(
    repo: string,
    routes: readonly { method: string; path: string }[],
    options?: { signal?: AbortSignal },
  ): Promise<CrossCaller[]>;
  /**
   * shape_check in member `repo`, with the reads in the other members: their calls of the routes
   * returning the model (each member reads its own call sites) and their parameters typed by the
   * model's name, cited with the member's name.
   */
  shapeCheck(
    repo: string,
    target: string,
    options?: Omit<ShapeOptions, "elsewhere"> & { signal?: AbortSignal },
  ): Promise<ShapeAnswer>;
}

/** A call in another repository reaching a route, and the definitions there that call it. */
export interface CrossCaller {
  route: { method: string; path: string };
  call: GroupCall;
  /** Callers of the call's enclosing definition in its repository, nearest first (at most 8). */
  reachedFrom: { qualified: string; path: string; line: number; depth: number }[];
}

/** A repository name: letters, digits, `.`, `_`, `-`; no `:` (it would read as a citation's path). */
export const REPO_NAME = /^[A-Za-z0-9][\w.-]{0,63}$/;

/** Most repositories one group serves: each is an engine with its own index in memory. */
export const MAX_GROUP_REPOS = 32;

/**
 * Checks a group's repository names before anything is opened for them (a name becomes a folder
 * of the cache): at least one, at most {@link MAX_GROUP_REPOS}, each a {@link REPO_NAME}, none twice.
 * Throws `invalid_argument`.
 */
export function checkRepoNames(names: readonly string[]): void {
  if (!names.length)
    throw new EngineError("invalid_argument", "A group needs at least one repository.", {
      hint: "List the repositories' folders.",
      data: { argument: "repo" },
    });
  if (names.length > MAX_GROUP_REPOS) {
    throw new EngineError(
      "invalid_argument",
      `A group serves at most ${MAX_GROUP_REPOS} repositories; ${names.length} were given.`,
      {
        hint: `Split the repositories into groups of at most ${MAX_GROUP_REPOS}.`,
        data: { argument: "repo", count: names.length, max: MAX_GROUP_REPOS },
      },
    );
  }
  const seen = new Set<string>();
  for (const name of names) {
    if (!REPO_NAME.test(name)) {
      throw new EngineError(
        "invalid_argument",
        `Repository name ${quoted(name)} is not usable: letters, digits, ".", "_" and "-", starting ` +
          `with a letter or digit, at most 64 characters.`,
        { hint: "Name the repository differently.", data: { argument: "repo", value: name } },
      );
    }
    if (seen.has(name))
      throw new EngineError(
        "invalid_argument",
        `Two repositories are named ${quoted(name)}; each needs its own name.`,
        { hint: "Give each repository a different name.", data: { argument: "repo", value: name } },
      );
    seen.add(name);
  }
}

/** Creates a group; throws `invalid_argument` for a bad or repeated name (see {@link checkRepoNames}). */
export function createEngineGroup(members: readonly GroupMember[]): EngineGroup {
  checkRepoNames(members.map((m) => m.name));
  const member = (name?: string): GroupMember => {
    if (name === undefined) return members[0]!;
    const m = members.find((x) => x.name === name);
    if (m) return m;
    const repos = members.map((x) => x.name);
    throw new EngineError(
      "unknown_repo",
      `No repository named ${quoted(name)} is served; the repositories are ${repos.join(", ")}.`,
      { hint: `Use one of: ${repos.join(", ")}.`, data: { repo: name, repos } },
    );
  };
  const contracts = async (signal?: AbortSignal) =>
    Promise.all(members.map(async (m) => ({ m, c: await m.engine.contracts(signal ? { signal } : {}) })));
  return {
    members,
    member,
    async routeMap(options = {}) {
      const all = await contracts(options.signal);
      const routes = groupRoutes(all, options);
      return { ...(await renderRouteMap(routes, groupImports(all), options)) };
    },
    async crossCallers(repo, routes, options = {}) {
      const all = await contracts(options.signal);
      const out: CrossCaller[] = [];
      for (const { m, c } of all) {
        if (m.name === repo) continue;
        for (const route of routes) {
          for (const call of c.calls) {
            if (call.test || !callReaches(route, call, c.bases)) continue;
            out.push({
              route: { method: route.method, path: route.path },
              call: { ...call, repo: m.name },
              reachedFrom: await reachedFrom(m.engine, call, options.signal),
            });
          }
        }
      }
      return out;
    },
    async shapeCheck(repo, target, options = {}) {
      const owner = member(repo);
      const signal = options.signal ? { signal: options.signal } : {};
      return owner.engine.shapeCheck(target, {
        ...options,
        elsewhere: async (routes, roots) => {
          const all = await contracts(options.signal);
          const served = all.find((x) => x.m === owner)!.c.routes;
          const clients = routes.map(() => 0);
          const reads: FieldRead[] = [];
          for (const { m, c } of all) {
            if (m === owner) continue;
            const sites = routeSites(routes, served, c, clients);
            for (const r of await m.engine.shapeReads(sites, roots, signal)) reads.push({ ...r, repo: m.name });
          }
          return { reads, clients };
        },
      });
    },
  };
}

/**
 * A member's calls of `routes` (each call to the routes of the serving member it matches most
 * closely, as the route map does), as sites holding the route's model; `clients` counts the calls
 * outside tests per route.
 */
function routeSites(
  routes: readonly ShapeRoute[],
  served: readonly ContractRoute[],
  c: Contracts,
  clients: number[],
): ShapeSite[] {
  const sites: ShapeSite[] = [];
  for (const call of c.calls) {
    const loose = (r: { method: string; path: string }) =>
      r.method === call.method || r.method === "ANY" ? looseness(r.path, call, c.bases) : -1;
    const best = Math.min(...served.map(loose).filter((l) => l >= 0));
    routes.forEach((r, i) => {
      if (loose(r) < 0 || loose(r) !== best) return;
      sites.push({ path: call.path, line: call.line, root: r.root });
      if (!call.test) clients[i]!++;
    });
  }
  return sites;
}

function callReaches(route: { method: string; path: string }, call: ContractCall, bases: readonly string[]): boolean {
  return (route.method === call.method || route.method === "ANY") && looseness(route.path, call, bases) >= 0;
}

/**
 * How loosely a call's URL matches a route's path (-1: not at all), also under each base URL its
 * repository's clients are made with: `api.delete("/items/7")` on `axios.create({ baseURL: "/api/v1" })`
 * is `/api/v1/items/7`. A URL that starts with a placeholder already matches any prefix.
 */
function looseness(route: string, call: ContractCall, bases: readonly string[]): number {
  const direct = routeLooseness(route, call.url);
  if (!call.url.startsWith("/") || !bases.length) return direct;
  const under = bases.map((b) => routeLooseness(route, `${b}${call.url}`)).filter((l) => l >= 0);
  return under.length ? Math.min(...under, ...(direct >= 0 ? [direct] : [])) : direct;
}

/** Every member's routes, filtered, each with the closest-matching calls of every member. */
function groupRoutes(
  all: readonly { m: GroupMember; c: Contracts }[],
  filter: { prefix?: string; method?: string },
): GroupRoute[] {
  const method = filter.method?.toUpperCase();
  const routes: GroupRoute[] = all.flatMap(({ m, c }) =>
    c.routes.map((r) => ({ ...r, repo: m.name, clients: [], tests: [] })),
  );
  // A call reaches the routes it matches most closely, across the whole group (`/items/latest` is not also
  // `/items/{id}`).
  for (const { m, c } of all) {
    for (const call of c.calls) {
      const hits = routes.flatMap((r) => {
        const loose = r.method === call.method || r.method === "ANY" ? looseness(r.path, call, c.bases) : -1;
        return loose >= 0 ? [{ r, loose }] : [];
      });
      if (!hits.length) continue;
      const best = Math.min(...hits.map((h) => h.loose));
      for (const h of hits) if (h.loose === best) (call.test ? h.r.tests : h.r.clients).push({ ...call, repo: m.name });
    }
  }
  const prefix = filter.prefix?.replace(/\/+$/, "");
  return routes
    .filter(
      (r) =>
        (!method || r.method === method || r.method === "ANY") &&
        (!prefix || r.path === prefix || r.path.startsWith(`${prefix}/`)),
    )
    .sort(
      (a, b) =>
        Number(a.test ?? false) - Number(b.test ?? false) ||
        a.path.localeCompare(b.path) ||
        a.method.localeCompare(b.method) ||
        a.repo.localeCompare(b.repo),
    );
}

/** Imports in one member of a package another member publishes (`@acme/api-client`, `acme_api.models`). */
function groupImports(all: readonly { m: GroupMember; c: Contracts }[]): GroupImport[] {
  const out: GroupImport[] = [];
  for (const { m: to } of all) {
    for (const pkg of to.packages ?? []) {
      for (const { m: from, c } of all) {
        if (from === to) continue;
        for (const imp of c.imports) {
          if (imp.module === pkg || imp.module.startsWith(`${pkg}/`) || imp.module.startsWith(`${pkg}.`))
            out.push({ from: from.name, to: to.name, module: imp.module, path: imp.path, line: imp.line });
        }
      }
    }
  }
  return out;
}

/** Call sites listed per route and kind before "… and N more". */
const SITES_SHOWN = 3;

async function renderRouteMap(
  routes: GroupRoute[],
  imports: GroupImport[],
  options: { prefix?: string; method?: string; budget?: number },
): Promise<GroupRouteMap> {
  const budget = checkBudget(options.budget ?? LIMITS.budget.list);
  const count = await loadTokenCounter("o200k_base");
  const site = (c: GroupCall) => `${c.repo}:${c.path}:${c.line} (${citeName(c.caller)})`;
  const sites = (list: GroupCall[]) =>
    `${list.slice(0, SITES_SHOWN).map(site).join(" · ")}` +
    `${list.length > SITES_SHOWN ? ` · … and ${list.length - SITES_SHOWN} more` : ""}`;
  const lineOf = (r: GroupRoute) => {
    const out = [
      `- ${r.method} ${r.path} → ` +
        (`${r.handler ? `${citeName(r.handler)} ` : ""}${r.repo}:${r.file}:${r.line}` +
          `${r.test ? " (registered in a test)" : ""}`),
    ];
    const foreign = r.clients.filter((c) => c.repo !== r.repo);
    const own = r.clients.filter((c) => c.repo === r.repo);
    if (foreign.length) out.push(`    called from other repositories: ${sites(foreign)}`);
    if (own.length) out.push(`    called from: ${sites(own)}`);
    if (r.tests.length) out.push(`    tests: ${sites(r.tests)}`);
    return out.join("\n");
  };
  const filter = [options.method?.toUpperCase(), options.prefix ? `under ${options.prefix}` : undefined]
    .filter(Boolean)
    .join(" ");
  const cross = routes.filter((r) => r.clients.some((c) => c.repo !== r.repo)).length;
  const repos = [...new Set(routes.map((r) => r.repo))];
  const head =
    `# Routes${filter ? ` (${filter})` : ""} in the group: ` +
    `${routes.length}${repos.length ? ` (served by ${repos.join(", ")})` : ""}; ` +
    `${cross} called from another repository`;
  const importLines = imports.length
    ? [
        `Packages imported across the group: ${imports
          .slice(0, 5)
          .map((i) => `${i.from}:${i.path}:${i.line} imports ${i.module} (${i.to})`)
          .join(" · ")}${imports.length > 5 ? ` · … and ${imports.length - 5} more` : ""}`,
      ]
    : [];
  const render = (k: number) => {
    const lines = [head, ...importLines, ...routes.slice(0, k).map(lineOf)];
    const more = routes.length - k;
    if (more > 0)
      lines.push(
        `… and ${more} more route${more > 1 ? "s" : ""}: narrow with a path prefix or a method, or raise the budget`,
      );
    if (routes.length === 0)
      lines.push(
        "No route matches: no repository of the group registers an HTTP route the index knows " +
          "(docs/languages.md lists the frameworks).",
      );
    return lines.join("\n");
  };
  const fitted = fitPrefix(routes.length, render, count, budget);
  if (!fitted.fits) {
    const needed = count(render(0));
    throw new EngineError(
      "budget_too_small",
      `A budget of ${budget} tokens cannot hold the route map's header; it needs ${needed}.`,
      { hint: `Ask again with budget ≥ ${needed}.`, data: { budget, needed } },
    );
  }
  return { routes: routes.slice(0, fitted.k), total: routes.length, imports, text: fitted.answer };
}

/** The definitions that reach a call site's enclosing definition, nearest first. */
async function reachedFrom(
  engine: Engine,
  call: ContractCall,
  signal?: AbortSignal,
): Promise<CrossCaller["reachedFrom"]> {
  if (call.qualified === call.path) return [];
  try {
    const a = await engine.impact(call.qualified, { depth: 3, limit: 8, ...(signal ? { signal } : {}) });
    return a.entries
      .filter((e) => e.direction === "up")
      .map((e) => ({ qualified: e.qualified, path: e.path, line: e.line, depth: e.depth }));
  } catch {
    // A name the other index cannot resolve alone (an overload, a name it holds twice): the call site still counts.
    return [];
  }
}

/** Text for an impact or changes answer: the calls in other repositories that reach its routes. */
export function crossCallersText(cross: readonly CrossCaller[], limit = 12): string {
  if (!cross.length) return "";
  const lines = [`## Callers in other repositories (through HTTP routes): ${cross.length}`];
  for (const x of cross.slice(0, limit)) {
    lines.push(
      `- ${x.route.method} ${x.route.path} ← ${x.call.repo}:${x.call.path}:${x.call.line} (${citeName(x.call.caller)})`,
    );
    if (x.reachedFrom.length)
      lines.push(
        `    reached from: ${x.reachedFrom
          .slice(0, 4)
          .map((r) => `${x.call.repo}:${r.path}:${r.line} (${citeName(r.qualified)})`)
          .join(" · ")}${x.reachedFrom.length > 4 ? ` · … and ${x.reachedFrom.length - 4} more` : ""}`,
      );
  }
  if (cross.length > limit) lines.push(`… and ${cross.length - limit} more`);
  return lines.join("\n");
}
