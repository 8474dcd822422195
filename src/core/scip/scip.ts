/**
 * The code graph as a SCIP index (github.com/sourcegraph/scip, scip.proto), the format Sourcegraph
 * and other code-intelligence services ingest: one Document per indexed file with an occurrence
 * for each definition (role Definition), call site and import (references, imports with role
 * Import), and a SymbolInformation per symbol with its kind, docs, signature and inheritance
 * (`is_implementation`; an overriding method also `is_reference`).
 *
 * Symbols follow SCIP's grammar, `codeslice . <project> . <descriptors>`: the file's path as
 * namespaces, then one descriptor per enclosing definition, e.g.
 * `` codeslice . shop . shop/`models.py`/Cart#total(). `` (a name outside `[A-Za-z0-9_+$-]` is
 * escaped in backticks). Every file also has a module symbol (its path alone), defined at 0:0,
 * which imports reference. Positions are 0-based lines and UTF-16 columns, as the records hold them.
 * A definition nested in a function, or nested past GLOBAL_DEPTH, is a SCIP local (`local <id>`).
 */
import { languageById } from "../../languages/index.ts";
import type { DefinitionKind, FileRecord } from "../extract/record.ts";
import type { CodeGraph, SymbolNode } from "../graph/model.ts";
import { ProtoWriter } from "./protobuf.ts";

/** Options of a SCIP export. */
export interface ScipOptions {
  /** The package name in every symbol (default: the root folder's name). */
  project?: string;
  /** Metadata.project_root, a URI (default: `file://` and the root's absolute path). */
  projectRoot?: string;
  /** Metadata.tool_info.version. */
  toolVersion?: string;
}

/** A SCIP index, as consecutive parts of one protobuf `Index` message, and what it holds. */
export interface ScipAnswer {
  /** Concatenated, the bytes of the index (metadata first, then one part per batch of documents). */
  parts: Uint8Array[];
  bytes: number;
  documents: number;
  /** Definition occurrences: every definition plus one module symbol per document. */
  definitions: number;
  /** Reference occurrences: call sites and imports. */
  references: number;
  /** SymbolInformation entries. */
  symbols: number;
  /** Relationships (inheritance and overriding). */
  relationships: number;
}

/** What building a SCIP index reads besides the graph. */
export interface ScipIO {
  /** The root as the file system names it (an absolute path on disk, a folder name in a browser). */
  root: string;
  /** The text of an indexed file, to place import references; undefined when unreadable. */
  readText(path: string): Promise<string | undefined>;
}

/** SCIP's SymbolRole bits. */
const ROLE = { definition: 0x1, import: 0x2 } as const;

/** SCIP's SymbolInformation.Kind per definition kind. */
const KIND: Record<DefinitionKind | "module", number> = {
  function: 17,
  method: 26,
  constructor: 9,
  getter: 18,
  setter: 45,
  class: 7,
  interface: 21,
  type: 55,
  enum: 11,
  struct: 49,
  trait: 53,
  module: 29,
  macro: 25,
  field: 15,
  constant: 8,
  property: 41,
};

/** SCIP's PositionEncoding.UTF16CodeUnitOffsetFromLineStart and TextEncoding.UTF8. */
const UTF16_POSITIONS = 2;
const UTF8_TEXT = 1;

/** A name as a SCIP identifier: simple when it can be, else in backticks (backticks doubled). */
export function scipName(name: string): string {
  if (/^[A-Za-z0-9_+$-]+$/.test(name)) return name;
  return `\`${(name || "_").replace(/`/g, "``")}\``;
}

/**
 * A descriptor's suffix per definition kind: a type `#`, a method `().`, a namespace `/`, a macro `!`, else a term `.`.
 */
function descriptor(kind: SymbolNode["kind"], name: string, disambiguator: number): string {
  const n = scipName(name);
  switch (kind) {
    case "class":
    case "interface":
    case "struct":
    case "trait":
    case "enum":
    case "type":
      return `${n}#`;
    case "function":
    case "method":
    case "constructor":
    case "getter":
    case "setter":
      return `${n}(${disambiguator ? `+${disambiguator}` : ""}).`;
    case "module":
      return `${n}/`;
    case "macro":
      return `${n}!`;
    default:
      return `${n}.`;
  }
}

/** Definition kinds whose nested definitions are locals: reachable only from inside the body. */
const SCOPES_LOCALS = new Set<SymbolNode["kind"]>(["function", "method", "constructor", "getter", "setter"]);

/**
 * Enclosing definitions a global symbol's descriptors may name; one nested deeper is a local. Each
 * global symbol repeats its ancestors' descriptors, so a chain of n nested definitions wrote
 * symbols of total length ~n²: 3,000 nested functions with long names made a 1.84 GB index.
 */
const GLOBAL_DEPTH = 16;

/** Whether a symbol string is a SCIP local (`local <id>`), meaningful only in its own document. */
export function isLocalSymbol(symbol: string): boolean {
  return symbol.startsWith("local ");
}

/**
 * The symbol string of every graph symbol, by id; overloads get `(+1)`, `(+2)`… in file order. A
 * definition nested in a function (or past GLOBAL_DEPTH) is a SCIP local, `local <id>`, as SCIP
 * asks of symbols no other document can name: the output stays linear in the input.
 */
function symbolStrings(graph: CodeGraph, project: string): string[] {
  const prefix = `codeslice . ${project === "" ? "." : project.replace(/ /g, "  ")} . `;
  const out: string[] = new Array(graph.symbols.length);
  const depth: number[] = new Array(graph.symbols.length);
  const taken = new Set<string>();
  for (const s of graph.symbols) {
    if (s.kind === "module") {
      out[s.id] =
        prefix +
        s.file
          .split("/")
          .map((seg) => `${scipName(seg)}/`)
          .join("");
      depth[s.id] = 0;
      continue;
    }
    const parentNode = graph.symbols[s.parent];
    const inParent = parentNode !== undefined && parentNode.kind !== "module" && out[s.parent] !== undefined;
    depth[s.id] = inParent ? depth[s.parent]! + 1 : 1;
    if (
      inParent &&
      (isLocalSymbol(out[s.parent]!) || SCOPES_LOCALS.has(parentNode.kind) || depth[s.id]! > GLOBAL_DEPTH)
    ) {
      out[s.id] = `local ${s.id}`;
      continue;
    }
    const parent = inParent ? out[s.parent]! : out[graph.moduleSymbol.get(s.file)!]!;
    let symbol = parent + descriptor(s.kind, s.name, 0);
    for (let k = 1; taken.has(symbol) && symbol.endsWith(").") && k < 1000; k++)
      symbol = parent + descriptor(s.kind, s.name, k);
    taken.add(symbol);
    out[s.id] = symbol;
  }
  return out;
}

/** One occurrence: a 0-based single-line range, the symbol, its roles. */
interface Occurrence {
  line: number;
  start: number;
  end: number;
  symbol: string;
  roles: number;
}

/** Relationships of each symbol: its bases, and for a method the methods it overrides in them. */
function relationshipsOf(graph: CodeGraph): Map<number, { base: number; override: boolean }[]> {
  const out = new Map<number, { base: number; override: boolean }[]>();
  const add = (from: number, base: number, override: boolean) =>
    (out.get(from) ?? out.set(from, []).get(from)!).push({ base, override });
  for (const e of graph.inherits) {
    add(e.child, e.base, false);
    const baseMethods = new Map<string, number>();
    for (const m of graph.children.get(e.base) ?? [])
      if (graph.symbols[m]!.kind === "method") baseMethods.set(graph.symbols[m]!.name, m);
    for (const m of graph.children.get(e.child) ?? []) {
      const s = graph.symbols[m]!;
      const overridden = s.kind === "method" ? baseMethods.get(s.name) : undefined;
      if (overridden !== undefined) add(m, overridden, true);
    }
  }
  return out;
}

/** The call references of one file: each call edge placed on the call site it came from. */
function callOccurrences(
  graph: CodeGraph,
  record: FileRecord,
  moduleId: number,
  symbols: string[],
  edges: CodeGraph["calls"],
): Occurrence[] {
  const byLine = new Map<number, number[]>();
  record.calls.forEach((c, i) => (byLine.get(c.line) ?? byLine.set(c.line, []).get(c.line)!).push(i));
  const used = new Set<number>();
  const out: Occurrence[] = [];
  for (const e of edges) {
    // A via-base edge is a run-time possibility, not what the call site names.
    if (e.resolution === "via-base") continue;
    const callerIndex = e.caller === moduleId ? -1 : graph.symbols[e.caller]!.index;
    const sites = (byLine.get(e.line) ?? []).filter((i) => record.calls[i]!.caller === callerIndex);
    const callee = graph.symbols[e.callee]!;
    const site =
      sites.find((i) => !used.has(i) && record.calls[i]!.name === callee.name) ??
      sites.find((i) => !used.has(i)) ??
      sites[0];
    if (site === undefined) continue;
    used.add(site);
    const call = record.calls[site]!;
    // A local is named only inside its own document.
    if (isLocalSymbol(symbols[e.callee]!) && callee.file !== record.path) continue;
    out.push({
      line: call.line - 1,
      start: call.col,
      end: call.col + call.name.length,
      symbol: symbols[e.callee]!,
      roles: 0,
    });
  }
  return out;
}

/** The import references of one file: the module as written on the import's line, else the line. */
function importOccurrences(
  graph: CodeGraph,
  record: FileRecord,
  symbols: string[],
  lines: string[] | undefined,
  edges: CodeGraph["imports"],
): Occurrence[] {
  const out: Occurrence[] = [];
  for (const e of edges) {
    const target = graph.moduleSymbol.get(e.to);
    if (target === undefined) continue;
    const text = lines?.[e.line - 1] ?? "";
    let start = -1;
    let length = 0;
    for (const imp of record.imports) {
      if (imp.line !== e.line || imp.module === "") continue;
      start = text.indexOf(imp.module);
      length = imp.module.length;
      if (start >= 0) break;
    }
    if (start < 0) {
      start = text.length - text.trimStart().length;
      length = text.trim().length;
    }
    out.push({ line: e.line - 1, start, end: start + length, symbol: symbols[target]!, roles: ROLE.import });
  }
  return out;
}

/**
 * The range of a definition's name on its line: the name as the record holds it when the text
 * has it there, else the token that starts at the column. A string-named method (`"with space"()`)
 * starts at its quote and spans the literal (its record's name has no quotes: the range read
 * `"with spac`); a name bounded for length spans the identifier as written.
 */
function nameRange(lines: string[] | undefined, line: number, col: number, name: string): [number, number] {
  const text = lines?.[line];
  if (text === undefined || text.startsWith(name, col)) return [col, col + name.length];
  const q = text[col];
  if (q === '"' || q === "'" || q === "`") {
    const close = text.indexOf(q, col + 1);
    if (close > col) return [col, close + 1];
  }
  let end = col;
  while (end < text.length && /[\p{L}\p{N}_$]/u.test(text[end]!)) end++;
  return [col, end > col ? end : Math.min(text.length, col + name.length)];
}

/** Whether an occurrence's numbers can be written (a record from an artifact may hold anything). */
function writable(o: Occurrence): boolean {
  return (
    Number.isSafeInteger(o.line) &&
    Number.isSafeInteger(o.start) &&
    Number.isSafeInteger(o.end) &&
    o.line >= 0 &&
    o.start >= 0 &&
    o.end >= o.start
  );
}

/** Each file's call and import edges, in graph order. */
function edgesByFile(graph: CodeGraph): {
  calls: Map<string, CodeGraph["calls"]>;
  imports: Map<string, CodeGraph["imports"]>;
} {
  const calls = new Map<string, CodeGraph["calls"]>();
  const imports = new Map<string, CodeGraph["imports"]>();
  for (const e of graph.calls) (calls.get(e.file) ?? calls.set(e.file, []).get(e.file)!).push(e);
  for (const e of graph.imports) (imports.get(e.from) ?? imports.set(e.from, []).get(e.from)!).push(e);
  return { calls, imports };
}

/** A file-system root as a `file://` URI (a browser's folder name becomes a path under /). */
function rootUri(root: string): string {
  const posix = root.replace(/\\/g, "/");
  const absolute = posix.startsWith("/") ? posix : `/${posix}`;
  return `file://${absolute.split("/").map(encodeURIComponent).join("/")}`;
}

/**
 * The SCIP index of `graph`. Files come in graph order and the parts are cut every few
 * documents, so a big tree never needs the whole index in one buffer.
 */
export async function buildScip(graph: CodeGraph, io: ScipIO, options: ScipOptions = {}): Promise<ScipAnswer> {
  const project = options.project ?? (io.root.replace(/\\/g, "/").replace(/\/+$/, "").split("/").pop() || "");
  const symbols = symbolStrings(graph, project);
  const relationships = relationshipsOf(graph);
  const edges = edgesByFile(graph);
  const w = new ProtoWriter();
  const parts: Uint8Array[] = [];
  const answer: ScipAnswer = {
    parts,
    bytes: 0,
    documents: 0,
    definitions: 0,
    references: 0,
    symbols: 0,
    relationships: 0,
  };
  w.message(1, () => {
    w.message(2, () => {
      w.string(1, "codeslice");
      w.string(2, options.toolVersion ?? "");
    });
    w.string(3, options.projectRoot ?? rootUri(io.root));
    w.int(4, UTF8_TEXT);
  });
  for (const [path, moduleId] of graph.moduleSymbol) {
    const record = graph.records.get(path);
    if (!record) continue;
    const lines = (await io.readText(record.path))?.split("\n");
    const occurrences: Occurrence[] = [
      { line: 0, start: 0, end: 0, symbol: symbols[moduleId]!, roles: ROLE.definition },
    ];
    const defined: SymbolNode[] = [graph.symbols[moduleId]!];
    for (let id = moduleId + 1; id <= moduleId + record.definitions.length; id++) {
      const s = graph.symbols[id]!;
      const def = record.definitions[s.index]!;
      const [start, end] = nameRange(lines, def.nameLine - 1, def.nameCol, def.name);
      const o = { line: def.nameLine - 1, start, end, symbol: symbols[id]!, roles: ROLE.definition };
      if (writable(o)) occurrences.push(o);
      defined.push(s);
    }
    answer.definitions += occurrences.length;
    const references = [
      ...callOccurrences(graph, record, moduleId, symbols, edges.calls.get(path) ?? []),
      ...importOccurrences(graph, record, symbols, lines, edges.imports.get(path) ?? []),
    ].filter(writable);
    answer.references += references.length;
    for (const r of references) occurrences.push(r);
    occurrences.sort((a, b) => a.line - b.line || a.start - b.start || a.end - b.end);
    writeDocument(w, graph, record, occurrences, defined, symbols, relationships, answer);
    answer.documents++;
    if (w.length > 1 << 20) parts.push(w.take());
  }
  if (w.length > 0) parts.push(w.take());
  answer.bytes = parts.reduce((n, p) => n + p.length, 0);
  return answer;
}

/** One Document (Index field 2): path, language, occurrences, and the symbols it defines. */
function writeDocument(
  w: ProtoWriter,
  graph: CodeGraph,
  record: FileRecord,
  occurrences: Occurrence[],
  defined: SymbolNode[],
  symbols: string[],
  relationships: Map<number, { base: number; override: boolean }[]>,
  answer: ScipAnswer,
): void {
  const spec = languageById(record.language);
  const language = spec?.scipName ?? spec?.name ?? record.language;
  const written = new Set<string>();
  w.message(2, () => {
    w.string(1, record.path);
    for (const o of occurrences) {
      w.message(2, () => {
        w.packed(1, [o.line, o.start, o.end]);
        w.string(2, o.symbol);
        w.int(3, o.roles);
      });
    }
    for (const s of defined) {
      const symbol = symbols[s.id]!;
      if (written.has(symbol)) continue; // a redefinition shares its symbol: described once
      written.add(symbol);
      const def = s.kind === "module" ? undefined : record.definitions[s.index];
      // A local of another document cannot be named here.
      const rels = (relationships.get(s.id) ?? []).filter(
        (r) => !isLocalSymbol(symbols[r.base]!) || graph.symbols[r.base]!.file === record.path,
      );
      w.message(3, () => {
        w.string(1, symbol);
        if (def?.doc) w.string(3, def.doc);
        for (const r of rels) {
          w.message(4, () => {
            w.string(1, symbols[r.base]!);
            w.bool(2, r.override);
            w.bool(3, true);
          });
        }
        w.int(5, KIND[s.kind] ?? 0);
        w.string(6, s.kind === "module" ? s.file.slice(s.file.lastIndexOf("/") + 1) : s.name);
        if (def?.signature) {
          w.message(7, () => {
            w.string(4, language);
            w.string(5, def.signature);
          });
        }
      });
      answer.symbols++;
      answer.relationships += rels.length;
    }
    w.string(4, language);
    w.int(6, UTF16_POSITIONS);
  });
}
