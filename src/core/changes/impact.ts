/**
 * What a change reaches in the code graph: who calls the changed definitions (their callers
 * first for changed signatures), code that still calls a name no longer defined, the HTTP routes
 * whose handlers lead to the change, and the tests that exercise it, by calls (within a few hops)
 * and by imports of the changed files.
 */
import { languageById } from "../../languages/index.ts";
import type { FileRecord } from "../extract/record.ts";
import type { CodeGraph } from "../graph/model.ts";
import type { ImpactRoute } from "../query/impact.ts";
import { isTestFile } from "../graph/test-code.ts";
import type { Route } from "../query/routes.ts";
import type { ChangeKind } from "./symbols.ts";

/** How far callers are followed to find tests and routes. */
export const TEST_DEPTH = 3;
/** Most entries of each impact list an answer carries. */
export const IMPACT_LIST_LIMIT = 200;

/** A symbol the change reaches. */
export interface ImpactItem {
  qualified: string;
  kind: string;
  path: string;
  line: number;
  end: number;
  /** Call hops from the nearest changed definition (1 = calls it directly). */
  depth: number;
  /** How it was reached: by calls, by importing a changed file, or by calling a removed name. */
  via: "call" | "import" | "name";
  /** The changed definitions it reaches (at most three, qualified). */
  reaches: string[];
  /** Where it makes the call (direct callers), or the import line. */
  site?: { path: string; line: number };
}

/** A route whose handler is, or leads to, changed code: an impact route with the changed definitions it reaches. */
export interface RouteImpact extends ImpactRoute {
  reaches: string[];
}

/** A changed definition as impact needs it. */
export interface ImpactSource {
  qualified: string;
  change: ChangeKind;
  /** Graph symbol on the head side, when the head is the indexed tree (or close enough). */
  id?: number;
  /** Names that code may still call though they are gone (removed, or renamed away). */
  goneName?: string;
  test: boolean;
  /** File and new-side line ranges, for inline route handlers. */
  path: string;
  start?: number;
  end?: number;
}

/** The impact lists. */
export interface Impact {
  callers: ImpactItem[];
  tests: ImpactItem[];
  routes: RouteImpact[];
  /** Direct callers of each source, by graph id, with the call lines. */
  direct: Map<number, { sources: Set<number>; lines: number[] }>;
  /** Symbols that still call a removed name: caller id → lines and the names. */
  stillCalling: Map<number, { lines: number[]; names: Set<string> }>;
}

/**
 * Qualified names as the graph gives them (`pkg.mod.Class.method`, `src/a.ts#Class.method`), also
 * for files the indexed tree no longer has (removed, or only on the base side): their module names
 * come from the language's resolver prepared over the indexed files plus `extraPaths`.
 */
export function createQualifier(
  graph: CodeGraph,
  extraPaths: string[],
): (record: Pick<FileRecord, "path" | "language">, inFile: string) => string {
  const missing = [...new Set(extraPaths.filter((p) => !graph.moduleSymbol.has(p)))];
  const states = new Map<unknown, unknown>();
  const project = graph.context.project;
  const extended = {
    has: (p: string) => project.has(p) || missing.includes(p),
    config: (p: string) => project.config(p),
    paths: () => [...project.paths(), ...missing],
  };
  return (record, inFile) => {
    const moduleId = graph.moduleSymbol.get(record.path);
    let mod: string | undefined;
    if (moduleId !== undefined) mod = graph.symbols[moduleId]!.qualified;
    else {
      const resolver = languageById(record.language)?.resolver;
      if (resolver?.moduleName) {
        if (!states.has(resolver)) states.set(resolver, resolver.prepare(extended));
        mod = resolver.moduleName(states.get(resolver), record.path);
      }
      mod ??= record.path;
    }
    if (mod === record.path) return `${record.path}#${inFile}`;
    return mod === "" ? inFile : `${mod}.${inFile}`;
  };
}

/** The n-th definition named `qualified` in a record (overloads share a name). */
function nthOf(record: FileRecord, index: number): { qualified: string; n: number } {
  const q = record.definitions[index]!.qualified;
  let n = 0;
  for (let i = 0; i < index; i++) if (record.definitions[i]!.qualified === q) n++;
  return { qualified: q, n };
}

/**
 * The graph symbol of definition `index` of `record` (a version of `path`): exact when the graph
 * indexed the same content, else the definition of the same name in the indexed version.
 */
export function graphSymbolOf(
  graph: CodeGraph,
  record: FileRecord,
  index: number,
): { id: number; exact: boolean } | undefined {
  const indexed = graph.records.get(record.path);
  const moduleId = graph.moduleSymbol.get(record.path);
  if (!indexed || moduleId === undefined) return undefined;
  if (indexed.hash === record.hash && index < indexed.definitions.length)
    return { id: moduleId + 1 + index, exact: true };
  const { qualified, n } = nthOf(record, index);
  let seen = 0;
  for (let i = 0; i < indexed.definitions.length; i++) {
    if (indexed.definitions[i]!.qualified !== qualified) continue;
    if (seen++ === n) return { id: moduleId + 1 + i, exact: false };
  }
  return undefined;
}

/** Call sites of names that no definition answers any more (removed, or renamed away), by calling symbol. */
function callsOfGoneNames(
  graph: CodeGraph,
  sources: ImpactSource[],
): { stillCalling: Map<number, { lines: number[]; names: Set<string> }>; gone: Map<string, string> } {
  const stillCalling = new Map<number, { lines: number[]; names: Set<string> }>();
  const gone = new Map<string, string>();
  for (const s of sources) if (s.goneName && !graph.byName.has(s.goneName)) gone.set(s.goneName, s.qualified);
  if (gone.size) {
    for (const [path, record] of graph.records) {
      const moduleId = graph.moduleSymbol.get(path)!;
      for (const c of record.calls) {
        if (!gone.has(c.name)) continue;
        const caller = c.caller < 0 ? moduleId : moduleId + 1 + c.caller;
        const entry =
          stillCalling.get(caller) ?? stillCalling.set(caller, { lines: [], names: new Set() }).get(caller)!;
        entry.lines.push(c.line);
        entry.names.add(c.name);
      }
    }
  }
  return { stillCalling, gone };
}

/** Follows callers from the changed definitions; lists callers, tests and routes reached. */
export function computeImpact(
  graph: CodeGraph,
  sources: ImpactSource[],
  routes: Route[],
  changedFiles: string[],
): Impact {
  const sourceIds = new Set(sources.flatMap((s) => (s.id !== undefined ? [s.id] : [])));
  const nameOf = new Map(sources.flatMap((s) => (s.id !== undefined ? [[s.id, s.qualified] as const] : [])));
  const ref = (id: number) => graph.symbols[id]!;
  // Breadth-first over callers from every changed definition at once; each reached symbol keeps
  // its smallest depth and the first few sources that reach it.
  const reached = new Map<number, { depth: number; reaches: Set<number>; site?: { path: string; line: number } }>();
  const direct = new Map<number, { sources: Set<number>; lines: number[] }>();
  let frontier = [...sourceIds].map((id) => ({ id, from: new Set([id]) }));
  for (let depth = 1; depth <= TEST_DEPTH && frontier.length; depth++) {
    const next = new Map<number, Set<number>>();
    for (const { id, from } of frontier) {
      for (const ei of graph.callsTo.get(id) ?? []) {
        const e = graph.calls[ei]!;
        const caller = e.caller;
        if (depth === 1) {
          const d = direct.get(caller) ?? direct.set(caller, { sources: new Set(), lines: [] }).get(caller)!;
          d.sources.add(id);
          d.lines.push(e.line);
        }
        if (sourceIds.has(caller)) continue;
        const seen = reached.get(caller);
        if (seen) {
          if (seen.depth === depth) for (const f of from) if (seen.reaches.size < 3) seen.reaches.add(f);
          continue;
        }
        reached.set(caller, {
          depth,
          reaches: new Set([...from].slice(0, 3)),
          ...(depth === 1 ? { site: { path: e.file, line: e.line } } : {}),
        });
        const set = next.get(caller) ?? next.set(caller, new Set()).get(caller)!;
        for (const f of from) if (set.size < 3) set.add(f);
      }
    }
    frontier = [...next].map(([id, from]) => ({ id, from }));
  }

  // Calls of a name that no definition answers any more (removed, or renamed away).
  const { stillCalling, gone } = callsOfGoneNames(graph, sources);

  const item = (
    id: number,
    depth: number,
    via: ImpactItem["via"],
    reaches: string[],
    site?: { path: string; line: number },
  ): ImpactItem => {
    const s = ref(id);
    return {
      qualified: s.qualified,
      kind: s.kind,
      path: s.file,
      line: s.kind === "module" ? 1 : s.start,
      end: s.end,
      depth,
      via,
      reaches,
      ...(site ? { site } : {}),
    };
  };
  const byDepth = (a: ImpactItem, b: ImpactItem) =>
    a.depth - b.depth || (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line);
  const callers: ImpactItem[] = [];
  const tests: ImpactItem[] = [];
  for (const [id, r] of reached) {
    const it = item(
      id,
      r.depth,
      "call",
      [...r.reaches].map((x) => nameOf.get(x)!),
      r.site,
    );
    if (isTestFile(ref(id).file)) tests.push(it);
    else if (r.depth <= 2) callers.push(it);
  }
  for (const [id, r] of stillCalling) {
    if (reached.has(id)) continue;
    const it = item(
      id,
      1,
      "name",
      [...r.names].map((n) => gone.get(n)!),
      { path: ref(id).file, line: r.lines[0]! },
    );
    (isTestFile(ref(id).file) ? tests : callers).push(it);
  }
  // Tests that import a changed file (one or two hops of imports) but call nothing changed that
  // the graph could resolve: fixtures, parametrized cases, calls through dynamic receivers.
  const testedFiles = new Set(changedFiles.filter((f) => !isTestFile(f) && graph.moduleSymbol.has(f)));
  const importers = new Map<string, { depth: number; from: string; imports: string }>();
  let files = [...testedFiles].map((f) => ({ f, from: f }));
  for (let depth = 1; depth <= 2 && files.length; depth++) {
    const next: { f: string; from: string }[] = [];
    for (const { f, from } of files) {
      for (const imp of graph.importedBy.get(f) ?? []) {
        if (importers.has(imp) || testedFiles.has(imp)) continue;
        importers.set(imp, { depth, from, imports: f });
        next.push({ f: imp, from });
      }
    }
    files = next;
  }
  const testFilesByCall = new Set(tests.map((t) => t.path));
  for (const [path, { depth, from, imports }] of importers) {
    if (!isTestFile(path) || testFilesByCall.has(path)) continue;
    const moduleId = graph.moduleSymbol.get(path)!;
    const line = graph.imports.find((e) => e.from === path && e.to === imports)?.line ?? 1;
    tests.push({ ...item(moduleId, depth, "import", [from]), site: { path, line } });
  }
  tests.sort((a, b) => (a.via === "import" ? 1 : 0) - (b.via === "import" ? 1 : 0) || byDepth(a, b));
  callers.sort(byDepth);

  // Routes whose handler is changed or calls into the change within TEST_DEPTH hops; inline
  // handlers whose lines changed.
  const routeHits: RouteImpact[] = [];
  for (const r of routes) {
    let depth: number | undefined;
    let reaches: string[] = [];
    if (r.handler !== undefined && sourceIds.has(r.handler)) {
      depth = 0;
      reaches = [nameOf.get(r.handler)!];
    } else if (r.handler !== undefined && reached.has(r.handler)) {
      const x = reached.get(r.handler)!;
      depth = x.depth;
      reaches = [...x.reaches].map((i) => nameOf.get(i)!);
    } else if (r.handler === undefined) {
      const hit = sources.find(
        (s) =>
          s.path === r.file && s.start !== undefined && s.start <= r.span.end && (s.end ?? s.start) >= r.span.start,
      );
      if (hit) {
        depth = 0;
        reaches = [hit.qualified];
      }
    }
    if (depth === undefined) continue;
    routeHits.push({
      method: r.method,
      path: r.path,
      file: r.file,
      line: r.line,
      ...(r.handler !== undefined ? { handler: ref(r.handler).qualified } : {}),
      depth,
      reaches,
    });
  }
  routeHits.sort((a, b) => a.depth - b.depth || (a.path < b.path ? -1 : 1));
  return { callers, tests, routes: routeHits, direct, stillCalling };
}
