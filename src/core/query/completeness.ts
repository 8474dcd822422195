/**
 * What a graph answer could not see, so an empty or short list is never read as "nothing calls
 * this": call sites that name the symbol but were linked to no definition, calls several
 * definitions could answer, files read only partly (syntax errors), languages whose calls or
 * imports the index does not extract, and methods a call through a base class may reach at run
 * time (dynamic dispatch), which static links do not follow.
 */
import { languageById } from "../../languages/index.ts";
import { resolveImport } from "../graph/imports.ts";
import { symbolRef, type SymbolRef } from "./lookup.ts";
import type { FileRecord } from "../extract/record.ts";
import type { CodeGraph, SymbolNode } from "../graph/model.ts";

/** A count with the files that hold the most of it. */
export interface CountByFile {
  count: number;
  files: { path: string; count: number }[];
}

/** The gaps an answer states. */
export interface Completeness {
  /**
   * Call sites that name the symbol (callers) or that the symbol makes (callees) and that are linked to no definition.
   */
  unlinked?: CountByFile & { names?: string[] };
  /** Calls that several definitions share the name of, this one among them (listed as possible callers). */
  ambiguous?: number;
  /** Imports in scope that resolve to no project file and to no known package. */
  unresolvedImports?: CountByFile;
  /** Files read only partly: what sits in their broken parts is not seen. */
  parseErrors?: CountByFile;
  /** Languages whose calls (or imports) the index does not extract, with their file counts. */
  notExtracted?: { language: string; files: number; what: "calls" | "imports" }[];
  /** Methods linked by overriding: a call to one may run the other. */
  dispatch?: { symbol: SymbolRef; relation: "overrides" | "overridden-by"; sites: number }[];
  /** One sentence per gap, for the text. */
  notes: string[];
}

const TOP_FILES = 5;

/** One file's call sites the graph linked to nothing: by the name they call, and by calling symbol. */
interface FileSites {
  path: string;
  /** Unlinked call sites by name: count. */
  byName: Map<string, number>;
  /** Unlinked call sites by the symbol that makes them: name → count. */
  byCaller: Map<number, Map<string, number>>;
}

/**
 * Each file's unlinked sites, per lineage of graphs (a graph and those patched from it share
 * `byQualified`) and per record. Within a lineage every file keeps its outward shape, so a file's
 * edges depend on its own record only: after an edit only the edited file is counted again.
 */
const fileSites = new WeakMap<Map<string, number>, WeakMap<FileRecord, FileSites>>();

/** The edges of each file of `graph` that has no counted sites yet, by file. */
function edgesOf(graph: CodeGraph, files: Set<string>): Map<string, Set<string>> {
  const linked = new Map<string, Set<string>>();
  const add = (file: string, line: number, name: string) => {
    if (!files.has(file)) return;
    const set = linked.get(file) ?? linked.set(file, new Set()).get(file)!;
    set.add(`${line}\0${name}`);
  };
  for (const e of graph.calls) {
    add(e.file, e.line, graph.symbols[e.callee]!.name);
    if (e.via === "super") add(e.file, e.line, "super");
  }
  for (const x of graph.external) {
    add(x.file, x.line, x.target);
    add(x.file, x.line, x.target.slice(x.target.lastIndexOf(".") + 1));
  }
  for (const a of graph.ambiguous) add(a.file, a.line, a.name);
  return linked;
}

/**
 * Every call site the graph linked to nothing (not a project definition, not a package, not an
 * ambiguous candidate list), per file: counted from the records and the edge lists, which keep no
 * list of their own, for the files not counted yet in this graph's lineage.
 */
function sitesOf(graph: CodeGraph): (path: string) => FileSites | undefined {
  let perRecord = fileSites.get(graph.byQualified);
  if (!perRecord) fileSites.set(graph.byQualified, (perRecord = new WeakMap()));
  const cache = perRecord;
  const missing = new Set<string>();
  for (const [path, record] of graph.records)
    if (cache.get(record)?.path !== path && graph.moduleSymbol.has(path)) missing.add(path);
  if (missing.size > 0) {
    const linked = edgesOf(graph, missing);
    for (const path of missing) {
      const record = graph.records.get(path)!;
      const moduleId = graph.moduleSymbol.get(path)!;
      const own = linked.get(path);
      const sites: FileSites = { path, byName: new Map(), byCaller: new Map() };
      for (const c of record.calls) {
        // A protocol call (`with x` → `__enter__`) is implicit: unlinked, it is no call site that names anything.
        if (c.protocol || own?.has(`${c.line}\0${c.name}`)) continue;
        sites.byName.set(c.name, (sites.byName.get(c.name) ?? 0) + 1);
        const caller = c.caller < 0 ? moduleId : moduleId + 1 + c.caller;
        const names = sites.byCaller.get(caller) ?? sites.byCaller.set(caller, new Map()).get(caller)!;
        names.set(c.name, (names.get(c.name) ?? 0) + 1);
      }
      cache.set(record, sites);
    }
  }
  return (path) => {
    const record = graph.records.get(path);
    const sites = record && cache.get(record);
    return sites?.path === path ? sites : undefined;
  };
}

/** Unlinked call sites naming `name`, by file. */
function unlinkedByName(graph: CodeGraph, name: string): Map<string, number> | undefined {
  const sites = sitesOf(graph);
  const files = new Map<string, number>();
  for (const path of graph.records.keys()) {
    const count = sites(path)?.byName.get(name);
    if (count) files.set(path, count);
  }
  return files.size ? files : undefined;
}

function countByFile(
  files: Map<string, number> | undefined,
  keep?: (path: string) => boolean,
): CountByFile | undefined {
  if (!files) return undefined;
  const list = [...files].filter(([p]) => !keep || keep(p)).map(([path, count]) => ({ path, count }));
  const count = list.reduce((n, f) => n + f.count, 0);
  if (count === 0) return undefined;
  list.sort((a, b) => b.count - a.count || (a.path < b.path ? -1 : 1));
  return { count, files: list.slice(0, TOP_FILES) };
}

const n = (x: number) => x.toLocaleString("en-US");
const filesText = (c: CountByFile) =>
  c.files.map((f) => `${f.path} ${n(f.count)}`).join(", ") +
  (c.files.length < c.count && c.files.length === TOP_FILES ? ", …" : "");

/** Languages whose files the symbol's language links with (the same module resolver, or itself). */
function kin(graph: CodeGraph, language: string): (other: string) => boolean {
  const resolver = languageById(language)?.resolver;
  return (other) => other === language || (resolver !== undefined && languageById(other)?.resolver === resolver);
}

/** Files of the kin languages with syntax errors. */
function parseErrors(graph: CodeGraph, language: string): CountByFile | undefined {
  const same = kin(graph, language);
  const files = new Map<string, number>();
  for (const r of graph.records.values())
    if (r.diagnostics.length && same(r.language)) files.set(r.path, r.diagnostics.length);
  const c = countByFile(files);
  return c && { count: files.size, files: c.files };
}

/** The symbol's language when the index extracts no calls for it: nothing that calls it is seen. */
function callsNotExtracted(graph: CodeGraph, language: string): Completeness["notExtracted"] {
  const spec = languageById(language);
  if (!spec || spec.fullDepth) return undefined;
  let files = 0;
  for (const r of graph.records.values()) if (r.language === language) files++;
  return [{ language: spec.name, files, what: "calls" }];
}

/** Methods of the same name up the class chain (what `s` overrides) or down it (what overrides `s`). */
function overrides(graph: CodeGraph, s: SymbolNode): { id: number; relation: "overrides" | "overridden-by" }[] {
  const owner = graph.symbols[s.parent];
  if (!owner || owner.kind === "module" || s.kind === "module") return [];
  const out: { id: number; relation: "overrides" | "overridden-by" }[] = [];
  const memberNamed = (cls: number) => (graph.children.get(cls) ?? []).find((c) => graph.symbols[c]!.name === s.name);
  const walk = (start: number, next: (id: number) => number[], relation: "overrides" | "overridden-by") => {
    const seen = new Set([start]);
    const queue = [...next(start)];
    while (queue.length && out.length < 20) {
      const cls = queue.shift()!;
      if (seen.has(cls)) continue;
      seen.add(cls);
      const m = memberNamed(cls);
      if (m !== undefined) out.push({ id: m, relation });
      queue.push(...next(cls));
    }
  };
  walk(owner.id, (id) => graph.inherits.filter((e) => e.child === id).map((e) => e.base), "overrides");
  walk(owner.id, (id) => graph.subclasses.get(id) ?? [], "overridden-by");
  return out;
}

function dispatchOf(graph: CodeGraph, s: SymbolNode): Completeness["dispatch"] {
  const list = overrides(graph, s).map(({ id, relation }) => ({
    symbol: symbolRef(graph.symbols[id]!),
    relation,
    sites: (graph.callsTo.get(id) ?? []).length,
  }));
  return list.length ? list : undefined;
}

/** What callers of `s` (`direction: callers`) or the calls `s` makes (`callees`) could not show. */
export function callsCompleteness(
  graph: CodeGraph,
  s: SymbolNode,
  direction: "callers" | "callees",
  possible: number,
): Completeness {
  const notes: string[] = [];
  const c: Completeness = { notes };
  const spec = languageById(s.language);
  const notExtracted = callsNotExtracted(graph, s.language);
  if (notExtracted) {
    c.notExtracted = notExtracted;
    notes.push(
      `the index does not extract calls in ${notExtracted[0]!.language} (${n(notExtracted[0]!.files)} files): ` +
        (`${direction === "callers" ? "no caller written in it is seen" : "no call it makes is seen"}; search ` +
          `for the name, or ask tests for tests that mention it`),
    );
  }
  if (direction === "callers") {
    const same = kin(graph, s.language);
    const unlinked = countByFile(unlinkedByName(graph, s.name), (p) => same(graph.records.get(p)?.language ?? ""));
    if (unlinked) {
      c.unlinked = unlinked;
      const builtin = spec?.builtinMethods?.has(s.name)
        ? ` (also a method name of built-in types, which most of them likely call)`
        : "";
      notes.push(
        `${n(unlinked.count)} call site${unlinked.count === 1 ? " names" : "s name"} \`${s.name}\` but ` +
          (`${unlinked.count === 1 ? "is" : "are"} linked to no definition (receiver type unknown, or a function ` +
            `value)${builtin}: ${unlinked.count === 1 ? "it" : "they"} may call it; in ${filesText(unlinked)}`),
      );
    }
    if (possible) {
      c.ambiguous = possible;
      notes.push(
        `${n(possible)} call site${possible === 1 ? "" : "s"} could be this or another definition of ` +
          `\`${s.name}\` (the possible callers)`,
      );
    }
  } else {
    const names = sitesOf(graph)(s.file)?.byCaller.get(s.id);
    if (names?.size) {
      const count = [...names.values()].reduce((a, b) => a + b, 0);
      const top = [...names]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 8)
        .map(([name]) => name);
      c.unlinked = { count, files: [{ path: s.file, count }], names: top };
      notes.push(
        `${n(count)} call${count === 1 ? " it makes is" : "s it makes are"} linked to no definition (a package ` +
          (`without types, an untyped receiver, a function value): ` +
            `${top.map((t) => `\`${t}\``).join(", ")}${names.size > top.length ? ", …" : ""}`),
      );
    }
  }
  const errors = parseErrors(graph, s.language);
  if (errors) {
    c.parseErrors = errors;
    notes.push(
      `${n(errors.count)} file${errors.count === 1 ? " has" : "s have"} syntax errors, read only in part: ` +
        `${filesText(errors)}`,
    );
  }
  const dispatch = dispatchOf(graph, s);
  if (dispatch) {
    c.dispatch = dispatch;
    for (const d of dispatch.slice(0, 3)) {
      if (direction === "callers") {
        // Calls on an instance of a known class already reach this override (`via-base`, listed, marked dispatch).
        const followed = (graph.callsTo.get(s.id) ?? []).filter(
          (ei) => graph.calls[ei]!.resolution === "via-base",
        ).length;
        notes.push(
          d.relation === "overrides"
            ? `it overrides ${d.symbol.qualified}: its ${n(d.sites)} resolved call ` +
                `site${d.sites === 1 ? "" : "s"} may run this method at run time (dynamic dispatch` +
                (followed
                  ? `; ${n(followed)} on an instance of a known class ${followed === 1 ? "is" : "are"} listed, ` +
                    "marked dispatch)"
                  : ", not followed)")
            : `${d.symbol.qualified} overrides it: calls listed here may run that method instead (dynamic ` +
                `dispatch, not followed)`,
        );
      } else if (d.relation === "overridden-by") {
        notes.push(
          `${d.symbol.qualified} overrides it; on such objects, calls run that method's callees instead ` +
            `(dynamic dispatch, not followed)`,
        );
      }
    }
  }
  return c;
}

/** What importers of `path` could not show: imports left unresolved, languages without resolution, broken files. */
export function importsCompleteness(graph: CodeGraph, path: string): Completeness {
  const notes: string[] = [];
  const c: Completeness = { notes };
  const language = graph.records.get(path)?.language ?? "";
  const spec = languageById(language);
  if (spec && !spec.resolver) {
    let files = 0;
    for (const r of graph.records.values()) if (r.language === language) files++;
    c.notExtracted = [{ language: spec.name, files, what: "imports" }];
    notes.push(
      `the index does not resolve ${spec.name} imports to files (${n(files)} files): no importer written in it is seen`,
    );
  } else {
    const same = kin(graph, language);
    const files = new Map<string, number>();
    for (const st of graph.context.files.values()) {
      if (!same(st.record.language)) continue;
      for (const imp of st.record.imports) {
        if (imp.kind === "export" || imp.kind === "export-default" || imp.module === "") continue;
        const r = resolveImport(graph.context, st, imp);
        if (!r.file && !r.submodule && !r.external) files.set(st.record.path, (files.get(st.record.path) ?? 0) + 1);
      }
    }
    const unresolved = countByFile(files);
    if (unresolved) {
      c.unresolvedImports = unresolved;
      notes.push(
        `${n(unresolved.count)} import${unresolved.count === 1 ? "" : "s"} resolve to no project file and no ` +
          (`package (a path alias or generated file the index cannot follow): they may import it; in ` +
            `${filesText(unresolved)}`),
      );
    }
  }
  const errors = parseErrors(graph, language);
  if (errors) {
    c.parseErrors = errors;
    notes.push(
      `${n(errors.count)} file${errors.count === 1 ? " has" : "s have"} syntax errors, read only in part: ` +
        `${filesText(errors)}`,
    );
  }
  return c;
}
