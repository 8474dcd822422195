/**
 * What a route is made of besides its handler: the request and response models (FastAPI's
 * `response_model=`, the handler's annotated parameters and return type), the dependencies that run
 * before it (`Depends(...)`/`Security(...)` in the decorator, in parameter defaults, and inside
 * `Annotated[...]` aliases such as `CurrentUser`; Express/Hono middleware between the path and the
 * handler, on the router it is registered on, and on the mount that attaches that router), and the
 * client calls that reach it (the route map's consumers, tests among them). Read from the index's
 * records and the lines they cite; the frameworks' spellings are the only knowledge here.
 */
import { splitTopLevel } from "../graph/strings.ts";
import type { CodeGraph } from "../graph/model.ts";
import { importTarget } from "../graph/imports.ts";
import { lookupDefinition } from "../graph/resolve.ts";
import { routeClients, type ClientCall } from "../query/route-calls.ts";
import type { Route } from "../query/routes.ts";

/** A model or dependency of a route, resolved to a definition when the project defines it. */
export interface RoutePart {
  name: string;
  /** The definition's symbol id, when the name resolves to one. */
  id?: number;
  /**
   * request: a parameter's type; response: `response_model=` or the return type; dependency: `Depends(x)`; middleware:
   * a function run before the handler.
   */
  role: "request" | "response" | "dependency" | "middleware";
}

/** A route's models, dependencies and consumers. */
export interface RouteParts {
  models: RoutePart[];
  dependencies: RoutePart[];
  /** Client calls reaching the route from production code (its consumers). */
  clients: ClientCall[];
  /** Client calls reaching it from tests. */
  tests: ClientCall[];
}

const CLASS_LIKE = new Set(["class", "interface", "struct", "type", "enum"]);
/** Names in annotations that are the language's own containers and scalars, never a model. */
const BUILTIN_TYPES = new Set([
  "list",
  "dict",
  "set",
  "tuple",
  "List",
  "Dict",
  "Set",
  "Tuple",
  "Optional",
  "Union",
  "Annotated",
  "Any",
  "None",
  "str",
  "int",
  "float",
  "bool",
  "bytes",
  "Sequence",
  "Iterable",
  "Mapping",
  "Literal",
  "Promise",
  "Array",
  "Record",
  "Partial",
  "string",
  "number",
  "boolean",
  "void",
  "unknown",
  "object",
  "null",
  "undefined",
]);
const DEPENDS = /\b(?:Depends|Security)\(\s*(?:dependency\s*=\s*)?([A-Za-z_][\w.]*)/g;
const IDENT = /^[A-Za-z_$][\w$]*$/;

/** Type names in an annotation (`list[ItemPublic] | None` → ItemPublic), builtins left out. */
export function typeNames(annotation: string): string[] {
  return [
    ...new Set(
      (annotation.match(/[A-Za-z_$][\w$.]*/g) ?? []).filter(
        (n) => !BUILTIN_TYPES.has(n) && !BUILTIN_TYPES.has(n.split(".").pop()!),
      ),
    ),
  ];
}

/** Splits an argument list on top-level commas (a trailing comma adds no empty argument). */
export function splitArgs(text: string): string[] {
  const parts = splitTopLevel(text, ",");
  return parts.at(-1) === "" ? parts.slice(0, -1) : parts;
}

/**
 * The text inside the parentheses that open at `open` (an index of `(`), or undefined when unbalanced; parentheses in
 * strings and comments do not count.
 */
export function insideParens(text: string, open: number): string | undefined {
  let depth = 0;
  let quote: string | undefined;
  for (let i = open; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      if (ch === "\\") i++;
      else if (ch === quote) quote = undefined;
    } else if (ch === '"' || ch === "'" || ch === "`") quote = ch;
    else if (ch === "/" && text[i + 1] === "/")
      i = text.indexOf("\n", i) < 0 ? text.length : text.indexOf("\n", i); // a comment's apostrophe opens no string
    else if (ch === "/" && text[i + 1] === "*")
      i = text.indexOf("*/", i + 2) < 0 ? text.length : text.indexOf("*/", i + 2) + 1;
    else if (ch === "(") depth++;
    else if (ch === ")" && --depth === 0) return text.slice(open + 1, i);
  }
  return undefined;
}

/** The response models of a route's handler (`response_model=`, the return annotation) that the project defines. */
export function responseModelIds(graph: CodeGraph, route: Route): number[] {
  const handler = route.handler !== undefined ? graph.symbols[route.handler] : undefined;
  const def = handler && handler.index >= 0 ? graph.records.get(handler.file)?.definitions[handler.index] : undefined;
  if (!handler || !def) return [];
  const names = [
    ...(def.decorators ?? []).flatMap((d) =>
      [...d.matchAll(/\bresponse_model\s*=\s*([^,)\n]+(?:\[[^\]]*\])?)/g)].flatMap((m) => typeNames(m[1]!)),
    ),
    ...typeNames(def.returns ?? ""),
  ];
  const ids: number[] = [];
  for (const n of names) {
    const id = lookupDefinition(graph.context, handler.file, -1, n);
    if (id !== undefined && CLASS_LIKE.has(graph.symbols[id]!.kind) && !ids.includes(id)) ids.push(id);
  }
  return ids;
}

/** The route's models, dependencies and consumers. */
export async function routeParts(
  graph: CodeGraph,
  routes: readonly Route[],
  route: Route,
  readText: (path: string) => Promise<string>,
): Promise<RouteParts> {
  const lines = new Map<string, string[]>();
  const linesOf = async (path: string) => {
    if (!lines.has(path))
      lines.set(
        path,
        await readText(path).then(
          (t) => t.split("\n"),
          () => [],
        ),
      );
    return lines.get(path)!;
  };
  const models: RoutePart[] = [];
  const dependencies: RoutePart[] = [];
  const add = (list: RoutePart[], file: string, name: string, role: RoutePart["role"], kinds?: ReadonlySet<string>) => {
    const id = lookupDefinition(graph.context, file, -1, name);
    const s = id !== undefined ? graph.symbols[id] : undefined;
    if (kinds && (!s || !kinds.has(s.kind))) return false;
    if (!list.some((p) => p.name === name && p.role === role)) list.push({ name, role, ...(s ? { id: s.id } : {}) });
    return true;
  };
  const handler = route.handler !== undefined ? graph.symbols[route.handler] : undefined;
  const def = handler && handler.index >= 0 ? graph.records.get(handler.file)?.definitions[handler.index] : undefined;
  if (handler && def) {
    const file = handler.file;
    const decorators = (def.decorators ?? []).join("\n");
    for (const m of decorators.matchAll(/\bresponse_model\s*=\s*([^,)\n]+(?:\[[^\]]*\])?)/g))
      for (const n of typeNames(m[1]!)) add(models, file, n, "response", CLASS_LIKE);
    for (const n of typeNames(def.returns ?? "")) add(models, file, n, "response", CLASS_LIKE);
    const texts = [decorators, def.signature];
    for (const p of def.params ?? []) {
      for (const n of typeNames(p.type ?? "")) {
        if (add(models, file, n, "request", CLASS_LIKE)) continue;
        // `current_user: CurrentUser` where `CurrentUser = Annotated[User, Depends(get_current_user)]`.
        const alias = await aliasText(graph, file, n, linesOf);
        if (alias) for (const m of alias.text.matchAll(DEPENDS)) add(dependencies, alias.file, m[1]!, "dependency");
      }
    }
    for (const t of texts) for (const m of t.matchAll(DEPENDS)) add(dependencies, file, m[1]!, "dependency");
  }
  if (!def || route.span.start !== def.start)
    await middleware(graph, route, linesOf, (file, name) => add(dependencies, file, name, "middleware"));
  const reached = routeClients(graph, routes, route);
  return { models, dependencies, clients: reached.filter((c) => !c.test), tests: reached.filter((c) => c.test) };
}

/** The text of a module-level assignment of `name` in `file` or in the module it is imported from. */
async function aliasText(
  graph: CodeGraph,
  file: string,
  name: string,
  linesOf: (p: string) => Promise<string[]>,
): Promise<{ file: string; text: string } | undefined> {
  const find = async (f: string, n: string) => {
    const b = graph.records.get(f)?.bindings.find((x) => x.kind === "assign" && x.scope < 0 && x.name === n);
    return b ? { file: f, text: (await linesOf(f))[b.line - 1] ?? "" } : undefined;
  };
  const local = await find(file, name);
  if (local) return local;
  const t = importTarget(graph.context, file, name);
  return t ? find(t.file, t.name ?? name) : undefined;
}

/**
 * Middleware of a call-style registration (`router.get("/x", auth, handler)`): the arguments
 * between the path and the handler, what `router.use(fn)` adds to the router before it, and the
 * functions a mount runs before the router (`app.use("/api", auth, router)`).
 */
async function middleware(
  graph: CodeGraph,
  route: Route,
  linesOf: (p: string) => Promise<string[]>,
  add: (file: string, name: string) => void,
): Promise<void> {
  const text = (await linesOf(route.file)).slice(route.span.start - 1, route.span.end).join("\n");
  const call = /([A-Za-z_$][\w$]*)\s*\.\s*(?:get|post|put|patch|delete|head|options|all|any|route)\s*\(/i.exec(text);
  if (!call) return;
  const args = splitArgs(insideParens(text, call.index + call[0].length - 1) ?? "");
  for (const a of args.slice(1, -1)) if (IDENT.test(a)) add(route.file, a);
  const uses = async (file: string, owner: string, before: number) => {
    const all = await linesOf(file);
    const re = new RegExp(`\\b${owner.replace(/\$/g, "\\$")}\\s*\\.\\s*use\\s*\\(`);
    for (let i = 0; i < Math.min(before - 1, all.length); i++) {
      const m = re.exec(all[i]!);
      if (!m) continue;
      const useArgs = splitArgs(insideParens(all.slice(i, i + 5).join("\n"), m.index + m[0].length - 1) ?? "");
      // `router.use(auth)` runs for every route of the router; `app.use("/other", x)` only under its path.
      const [first, ...rest] = useArgs;
      if (first !== undefined && /^['"`]/.test(first)) continue;
      for (const a of [first, ...rest]) if (a && IDENT.test(a) && !isRouter(graph, file, a)) add(file, a);
    }
  };
  await uses(route.file, call[1]!, route.line);
  for (const m of route.mounts) {
    const mountText = (await linesOf(m.path)).slice(m.start - 1, m.end).join("\n");
    const mc = /([A-Za-z_$][\w$]*)\s*\.\s*(?:use|route|mount)\s*\(/.exec(mountText);
    if (!mc) continue;
    const margs = splitArgs(insideParens(mountText, mc.index + mc[0].length - 1) ?? "");
    for (const a of margs.slice(1, -1)) if (IDENT.test(a)) add(m.path, a);
    await uses(m.path, mc[1]!, m.start);
  }
}

/**
 * A router or app object (`use` mounts it rather than runs it): a name the file registers paths on (`router.get("/x",
 * …)`).
 */
function isRouter(graph: CodeGraph, file: string, name: string): boolean {
  return !!graph.records
    .get(file)
    ?.calls.some((c) => c.receiver === name && c.args?.length && /^['"`]\//.test(c.args[0]!.trim()));
}

/** A one-line summary of a route's parts for a note: models, dependencies, consumers and tests. */
export function partsNote(parts: RouteParts, cite: (c: ClientCall) => string): string[] {
  const notes: string[] = [];
  const names = (ps: RoutePart[]) => ps.map((p) => p.name).join(", ");
  const req = parts.models.filter((m) => m.role === "request");
  const res = parts.models.filter((m) => m.role === "response");
  if (req.length || res.length)
    notes.push(
      "models: " +
        [req.length ? `request ${names(req)}` : "", res.length ? `response ${names(res)}` : ""]
          .filter(Boolean)
          .join("; "),
    );
  if (parts.dependencies.length)
    notes.push(`runs first: ${parts.dependencies.map((d) => `${d.name} (${d.role})`).join(", ")}`);
  if (parts.clients.length)
    notes.push(
      `called from ` +
        (`${parts.clients.slice(0, 3).map(cite).join(", ")}` +
          `${parts.clients.length > 3 ? `, … ${parts.clients.length - 3} more` : ""}`),
    );
  if (parts.tests.length)
    notes.push(
      `tested by ` +
        (`${parts.tests.slice(0, 3).map(cite).join(", ")}` +
          `${parts.tests.length > 3 ? `, … ${parts.tests.length - 3} more` : ""}`),
    );
  return notes;
}
