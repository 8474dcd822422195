/**
 * A project's side of the contracts between repositories, as plain data: the HTTP routes it
 * serves, the client calls it sends (with the URL as written), and the package names it imports.
 * A group of engines (one per repository) matches one repository's calls against another's
 * routes; this module only lists each side, so no index is ever merged with another.
 */
import type { CodeGraph } from "../graph/model.ts";
import { clientCalls } from "../query/route-calls.ts";
import type { Route } from "../query/routes.ts";

/** A route one repository serves. */
export interface ContractRoute {
  method: string;
  /** The full path after prefixes and mounts (`/api/v1/items/{id}`). */
  path: string;
  file: string;
  line: number;
  /** The handler's qualified name, when the handler is a named definition. */
  handler?: string;
  test?: boolean;
}

/** A request one repository sends to a URL it spells out. */
export interface ContractCall {
  path: string;
  line: number;
  method: string;
  /** The URL template as written, quotes removed (`/api/v1/items/{id}`, `{API}/items`). */
  url: string;
  /** The enclosing definition's qualified name (the module's for module-level code). */
  qualified: string;
  /** Its name inside the file, for a line that already cites the file. */
  caller: string;
  test: boolean;
}

/** An import of a module the project does not hold (a package, perhaps another repository of the group). */
export interface ContractImport {
  module: string;
  path: string;
  line: number;
}

/** Every route, client call and outside import of one project. */
export interface Contracts {
  routes: ContractRoute[];
  calls: ContractCall[];
  imports: ContractImport[];
  /**
   * Path prefixes of the base URLs its HTTP clients are made with (`axios.create({ baseURL:
   * 'http://api/api/v1' })`, `httpx.Client(base_url="…/api/v1")`): a relative call may go under one.
   */
  bases: string[];
}

const BASE_ARG = /^(?:baseURL|baseUrl|base_url)\s*[:=]\s*[rbuf]{0,2}(['"`])(.*)\1$/is;

/**
 * Kept per graph and routes: a group's route map asks every member for its contracts on each
 * call, and reading every call of django again each time would cost a pass over its records.
 */
const memo = new WeakMap<CodeGraph, { routes: readonly Route[]; contracts: Contracts }>();

/** The project's contracts, read from its graph and routes (once per graph). */
export function contractsOf(graph: CodeGraph, routes: readonly Route[]): Contracts {
  const kept = memo.get(graph);
  if (kept && kept.routes === routes) return kept.contracts;
  const contracts = readContracts(graph, routes);
  memo.set(graph, { routes, contracts });
  return contracts;
}

function readContracts(graph: CodeGraph, routes: readonly Route[]): Contracts {
  const out: Contracts = {
    routes: routes.map((r) => ({
      method: r.method,
      path: r.path,
      file: r.file,
      line: r.line,
      ...(r.handler !== undefined ? { handler: graph.symbols[r.handler]!.qualified } : {}),
      ...(r.test ? { test: true } : {}),
    })),
    calls: clientCalls(graph, routes).map((c) => ({
      path: c.path,
      line: c.line,
      method: c.method,
      url: c.url,
      qualified: graph.symbols[c.callerId]?.qualified ?? c.path,
      caller: c.caller,
      test: c.test,
    })),
    imports: [],
    bases: [],
  };
  const bases = new Set<string>();
  for (const record of graph.records.values()) {
    for (const call of record.calls) {
      for (const arg of call.args ?? []) {
        const m = BASE_ARG.exec(arg.trim());
        const path = m?.[2]!
          .replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, "")
          .replace(/[?#].*$/, "")
          .replace(/\/+$/, "");
        if (path && path.startsWith("/") && !path.includes("${") && !path.includes("{")) bases.add(path);
      }
    }
  }
  out.bases = [...bases].sort();
  // Imports the project cannot resolve inside itself: relative ones are its own, the rest may name a sibling.
  const seen = new Set<string>();
  for (const [file, record] of graph.records) {
    for (const imp of record.imports) {
      if (
        !imp.module ||
        imp.module.startsWith(".") ||
        imp.kind === "package" ||
        imp.kind === "export" ||
        imp.kind === "export-default"
      )
        continue;
      const key = `${imp.module}\0${file}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.imports.push({ module: imp.module, path: file, line: imp.line });
    }
  }
  return out;
}
