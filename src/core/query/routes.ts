/**
 * HTTP routes: registrations are found by each language's route rules (`RouteRules` in its
 * spec: decorator patterns, call verbs, prefix keywords, mount calls — the frameworks' knowledge
 * lives beside the language, not here) applied to decorator texts and string-literal call
 * arguments; prefixes through the objects routes are registered on and the calls that mount those
 * objects elsewhere, followed through imports.
 */
import { languageById } from "../../languages/index.ts";
import type { RouteRules } from "../../languages/types.ts";
import type { CallRecord, FileRecord } from "../extract/record.ts";
import { importTarget } from "../graph/imports.ts";
import type { CodeGraph } from "../graph/model.ts";
import { lookupDefinition } from "../graph/resolve.ts";
import { stringValue } from "../graph/strings.ts";
import { isTestFile } from "../graph/test-code.ts";
import { defined } from "../../shared/defined.ts";

/** Where a prefix or mount was declared: cited as a `mount` chunk. */
export interface MountLine {
  path: string;
  start: number;
  end: number;
  prefix: string;
  /** The prefix expression as written, when it could not be read as a string (an environment value, a call). */
  unresolved?: string;
}

/** A route with its full path (prefixes applied) and the code that handles it. */
export interface Route {
  method: string;
  /** The full path after prefixes, as declared (`/api/users/{id}`). */
  path: string;
  /** Path as written at the registration. */
  own: string;
  file: string;
  line: number;
  /** The handler definition, when the handler is a named function or method. */
  handler?: number;
  /** The registration's own lines (an inline handler lives here). */
  span: { start: number; end: number };
  /** Prefix declarations and mount calls, outermost first. */
  mounts: MountLine[];
  /** Registered in a test file: an app a test builds, a witness rather than the project's own route. */
  test?: boolean;
  /**
   * Set on a route matched by the part of its path after a prefix that could not be resolved: that prefix's expression.
   */
  suffixOf?: string;
}

const STRING = /^[rbuf]?(['"`])(.*)\1$/;

/** A language's route rules, compiled once. */
interface CompiledRules {
  rules: RouteRules;
  prefixKw: RegExp | undefined;
  mountCalls: Set<string>;
  callVerbs: Set<string>;
}

const compiled = new Map<string, CompiledRules | undefined>();

function rulesFor(language: string): CompiledRules | undefined {
  if (compiled.has(language)) return compiled.get(language);
  const rules = languageById(language)?.routes;
  const c = rules && {
    rules,
    prefixKw: rules.prefixKeywords?.length
      ? new RegExp(`^(?:${rules.prefixKeywords.join("|")})\\s*[=:]\\s*([\\s\\S]+)$`)
      : undefined,
    mountCalls: new Set(rules.mountCalls ?? []),
    callVerbs: new Set(rules.callVerbs ?? []),
  };
  compiled.set(language, c);
  return c;
}

function literal(arg: string | undefined): string | undefined {
  if (arg === undefined) return undefined;
  return STRING.exec(arg.trim())?.[2];
}

/** An argument that is certainly a string (a literal, an f-string or template, a concatenation with one). */
const STRINGY = /^[rbuf]{0,2}['"`]|['"`]\s*\+|\+\s*[rbuf]{0,2}['"`]/i;

/** A prefix expression's string, or the expression itself as unresolved. */
function prefixOf(graph: CodeGraph, file: string, expr: string): { prefix: string; unresolved?: string } {
  const value = stringValue(graph, file, expr);
  return value !== undefined ? { prefix: value } : { prefix: "", unresolved: expr.trim() };
}

/** Joins path pieces with single slashes. */
export function joinPaths(...parts: string[]): string {
  const joined = parts
    .filter((p) => p !== "")
    .join("/")
    .replace(/\/{2,}/g, "/");
  const withSlash = joined.startsWith("/") ? joined : `/${joined}`;
  return withSlash.length > 1 ? withSlash.replace(/\/$/, "") : withSlash;
}

function methodsOf(kind: string, rest: string): string[] {
  const k = kind.toLowerCase();
  if (k !== "route" && k !== "api_route") return [k === "websocket" ? "GET" : k.toUpperCase()];
  const m = /methods\s*=\s*[[(]([^\])]*)[\])]/.exec(rest);
  if (!m) return ["GET"];
  return [...m[1]!.matchAll(/['"](\w+)['"]/g)].map((x) => x[1]!.toUpperCase());
}

/** Routes registered by decorators on a file's definitions (`@app.get("/x")`, a controller's `@Get()`). */
function decoratorRoutes(
  record: FileRecord,
  file: string,
  moduleId: number,
  c: NonNullable<ReturnType<typeof rulesFor>>,
  test: boolean,
): Route[] {
  const routes: Route[] = [];
  record.definitions.forEach((d, i) => {
    for (const dec of d.decorators ?? []) {
      const member = d.kind === "class" ? undefined : c.rules.memberDecorators?.map((re) => re.exec(dec)).find(Boolean);
      if (member) {
        // A method of a controller class: the class's decorator carries the prefix.
        const verb = member.groups!.verb!.toUpperCase();
        const methods =
          verb === "REQUEST"
            ? [...dec.matchAll(/RequestMethod\.(\w+)/g)].map((x) => x[1]!.toUpperCase())
            : [verb === "ALL" ? "ANY" : verb];
        const classDecorators = d.parent >= 0 ? (record.definitions[d.parent]!.decorators ?? []) : [];
        const prefix =
          classDecorators
            .flatMap((x) => c.rules.classPrefix?.map((re) => re.exec(x)?.groups?.path) ?? [])
            .find((p) => p !== undefined) ?? "";
        const own = joinPaths(prefix, member.groups!.path ?? "");
        for (const method of methods.length ? methods : ["ANY"]) {
          routes.push({
            method,
            path: own,
            own,
            file,
            line: d.nameLine,
            handler: moduleId + 1 + i,
            span: { start: d.start, end: d.end },
            mounts: [],
            ...(test ? { test } : {}),
          });
        }
        continue;
      }
      const m = c.rules.decorators?.map((re) => re.exec(dec)).find(Boolean);
      if (!m) continue;
      const owner = m.groups!.owner;
      for (const method of methodsOf(m.groups!.verb!, m.groups!.rest ?? "")) {
        routes.push({
          method: method === "ALL" ? "ANY" : method,
          path: m.groups!.path ?? "",
          own: m.groups!.path ?? "",
          file,
          line: d.nameLine,
          handler: moduleId + 1 + i,
          span: { start: d.start, end: d.end },
          mounts: [],
          ...(owner ? { owner } : {}),
          ...(test ? { test } : {}),
        });
      }
    }
  });
  return routes;
}

/** Finds every route in the project with its mount chain. */
export function findRoutes(graph: CodeGraph): Route[] {
  const routes: (Route & { owner?: string })[] = [];
  // Own prefixes of router objects: (file, variable) → prefix line.
  const ownPrefix = new Map<string, MountLine>();
  // Mount calls: the router expression, the mounting file and the prefix.
  const mountCalls: { file: string; scope: number; call: CallRecord; target: string; line: MountLine }[] = [];

  for (const [file, record] of graph.records) {
    const c = rulesFor(record.language);
    if (!c) continue;
    // Lines that hold decorators: a decorator call is a registration of the def below, not an inline route.
    const decoratorLines = new Set<number>();
    for (const d of record.definitions)
      for (let l = d.start; l < d.nameLine && d.decorators; l++) decoratorLines.add(l);
    const bindingsByLine = new Map<number, string>();
    for (const b of record.bindings)
      if (b.kind === "assign" && b.scope < 0 && b.value) bindingsByLine.set(b.line, b.name);
    const test = isTestFile(file);
    for (const call of record.calls) {
      if (!call.args) continue;
      const owner = bindingsByLine.get(call.line);
      const kwExpr = c.prefixKw
        ? call.args.map((a) => c.prefixKw!.exec(a)?.[1]).find((p) => p !== undefined)
        : undefined;
      const kw = kwExpr !== undefined ? prefixOf(graph, file, kwExpr) : undefined;
      const at = { path: file, start: call.line, end: call.end ?? call.line };
      if (owner && kw !== undefined && !c.mountCalls.has(call.name))
        ownPrefix.set(`${file}\0${owner}`, { ...at, ...kw });
      if (c.mountCalls.has(call.name) && call.receiver) {
        const first = call.args[0];
        const firstValue = first !== undefined && call.args.length >= 2 ? stringValue(graph, file, first) : undefined;
        if (firstValue !== undefined && (firstValue.startsWith("/") || firstValue === "")) {
          mountCalls.push({
            file,
            scope: call.caller,
            call,
            target: call.args[1]!,
            line: { ...at, prefix: firstValue },
          });
        } else if (first !== undefined && call.args.length >= 2 && STRINGY.test(first.trim())) {
          // A string the project builds from something it does not spell out (an environment value).
          mountCalls.push({
            file,
            scope: call.caller,
            call,
            target: call.args[1]!,
            line: { ...at, prefix: "", unresolved: first.trim() },
          });
        } else if (first && literal(first) === undefined && /^[A-Za-z_$][\w$.]*$/.test(first.trim())) {
          // include_router(users.router, prefix=…) / app.use(router): a router mounted under its keyword prefix, or
          // none.
          mountCalls.push({
            file,
            scope: call.caller,
            call,
            target: first,
            line: { ...at, ...(kw ?? { prefix: "" }) },
          });
        }
      }
      // Call-style registration: router.get("/x", handler) / app.post("/x", (req, res) => …). A call
      // with the path alone is a request (a test client's client.get("/x")), not a registration.
      const name = call.name.toLowerCase();
      if (
        c.callVerbs.has(name) &&
        call.receiver &&
        call.args.length >= 2 &&
        /^[A-Za-z_$][\w$.]*$/.test(call.receiver) &&
        !decoratorLines.has(call.line)
      ) {
        const own = stringValue(graph, file, call.args[0]!);
        if (own === undefined || !(own.startsWith("/") || own === "" || own === "*")) continue;
        const last = call.args.at(-1)!;
        // A handler is code: a name or a function; an options object or a string is not.
        if (/^[{'"`\d]/.test(last.trim())) continue;
        const handler = /^[A-Za-z_$][\w$.]*$/.test(last)
          ? lookupDefinition(graph.context, file, call.caller, last)
          : undefined;
        routes.push({
          method: name === "all" || name === "any" ? "ANY" : name.toUpperCase(),
          path: own,
          own,
          file,
          line: call.line,
          ...defined({ handler }),
          span: { start: call.line, end: call.end ?? call.line },
          mounts: [],
          owner: call.receiver,
          ...(test ? { test } : {}),
        });
      }
    }
    routes.push(...decoratorRoutes(record, file, graph.moduleSymbol.get(file)!, c, test));
  }

  /** Does mount-call target expression `expr` (in `file`) denote router variable `name` of `routerFile`? */
  const denotes = (file: string, expr: string, routerFile: string, name: string): boolean => {
    const parts = expr.split(".");
    if (parts.length === 1) {
      if (file === routerFile && expr === name) return true;
      const t = importTarget(graph.context, file, expr);
      return !!t && t.file === routerFile && (t.name === undefined || t.name === name);
    }
    if (parts.length === 2 && parts[1] === name) {
      const t = importTarget(graph.context, file, parts[0]!);
      return !!t && t.file === routerFile && t.name === undefined;
    }
    return false;
  };

  /** Mount lines (outermost first) for a router variable, following mounts of mounts. */
  const chainOf = (routerFile: string, name: string, depth: number): MountLine[][] => {
    if (depth > 5) return [[]];
    const own = ownPrefix.get(`${routerFile}\0${name}`);
    const chains: MountLine[][] = [];
    for (const m of mountCalls) {
      if (!denotes(m.file, m.target, routerFile, name)) continue;
      const line = m.line;
      const parent =
        m.call.receiver && /^[A-Za-z_$][\w$]*$/.test(m.call.receiver)
          ? chainOf(m.file, m.call.receiver, depth + 1)
          : [[]];
      for (const p of parent) chains.push([...p, line]);
    }
    if (chains.length === 0) chains.push([]);
    return chains.map((c) => (own ? [...c, own] : c));
  };

  const out: Route[] = [];
  for (const { owner, ...r } of routes) {
    const chains = owner ? chainOf(r.file, owner.split(".")[0]!, 0) : [[]];
    for (const mounts of chains) out.push({ ...r, path: joinPaths(...mounts.map((m) => m.prefix), r.own), mounts });
  }
  return out;
}

/** Normalizes a path for matching: parameters in any style (`{id}`, `<int:id>`, `:id`) become `*`. */
function segments(path: string): string[] {
  return joinPaths(path)
    .split("/")
    .filter(Boolean)
    .map((s) => (/^(\{.*\}|<.*>|:\w+\??|\[.*\]|\*)$/.test(s) ? "*" : s.toLowerCase()));
}

/** True when a requested path (concrete or templated) matches a route path. */
export function pathMatches(route: string, requested: string): boolean {
  const a = segments(route);
  const b = segments(requested);
  if (a.length !== b.length) return false;
  return a.every((s, i) => s === "*" || b[i] === "*" || s === b[i]);
}

/**
 * Routes matching `METHOD /path` (method ANY on either side matches every method): the project's
 * own routes before those a test registers. When none matches whole, a route whose prefix could not
 * be resolved matches by the part of its path after that prefix, marked with `suffixOf`.
 */
export function matchRoutes(routes: Route[], method: string, path: string): Route[] {
  const m = method.toUpperCase();
  const methodOk = (r: Route) => m === "ANY" || r.method === "ANY" || r.method === m;
  const exact = routes.filter((r) => methodOk(r) && pathMatches(r.path, path));
  const own = exact.filter((r) => !r.test);
  if (exact.length) return own.length ? own : exact;
  const wanted = segments(path);
  const bySuffix: Route[] = [];
  for (const r of routes) {
    if (!methodOk(r)) continue;
    const last = r.mounts.findLastIndex((x) => x.unresolved !== undefined);
    if (last < 0) continue;
    const tail = segments(joinPaths(...r.mounts.slice(last + 1).map((x) => x.prefix), r.own));
    if (tail.length >= wanted.length) continue;
    const rest = wanted.slice(wanted.length - tail.length);
    if (tail.every((s, i) => s === "*" || rest[i] === "*" || s === rest[i]))
      bySuffix.push({ ...r, suffixOf: r.mounts[last]!.unresolved! });
  }
  const ownSuffix = bySuffix.filter((r) => !r.test);
  return ownSuffix.length ? ownSuffix : bySuffix;
}
