/**
 * What the engine derives from an unchanged snapshot — the code graph's resolved edges and the
 * search index — kept in the cache, so that a new engine on the same index (every CLI call that no
 * warm server answers) loads them instead of resolving every call and indexing every word again:
 * on django those two were 1.5 of a `locate`'s 3.1 CPU-s (CPU profile, docs/benchmarks.md).
 *
 * One value under DERIVED_KEY, rewritten when the snapshot changes, so nothing piles up. It is
 * used only for the identity it was written for: the build of the code that derived it (the
 * front end's `buildId`: a rebuilt codeslice resolves calls afresh), SCHEMA_VERSION, every file's
 * path and record key (its extractor version and content hash) and the text of the configs
 * modules resolved with. It is sealed like every stored value, and what it holds is checked
 * against the graph before use: a damaged, cut or mismatched one reads as absent and is rebuilt.
 *
 * Layout, integers little-endian, then sealed (seal.ts):
 *
 *   u32 I, I bytes: the identity (hex SHA-256)
 *   u32 H, H bytes: UTF-8 JSON { format, edges (calls as `files` and a count; or, from a graph
 *     whose calls were not resolved, only `imports` and `inherits` with `early: true`),
 *     search: { words, files, lengths } or null when no index was kept }
 *   padding to a multiple of 4
 *   Int32 columns of the search index, end to end: offsets, postings, docFile, docDef, docLen (when kept)
 *   Int32 columns of the calls, end to end: caller, callee, file (into `edges.files`), line, kind
 *   (via × 64 + resolution × 4 + classBody + protocol × 2)
 */
import type { FileRecord } from "../extract/record.ts";
import { callsDeferred, type EarlyEdges, type GraphEdges, noCalls } from "../graph/build.ts";
import { CONFIDENCE, type AmbiguousCall, type CallEdge, type CodeGraph, type Resolution } from "../graph/model.ts";
import type { SavedSearchIndex } from "../search/search.ts";
import type { Snapshot } from "./snapshot.ts";
import { SCHEMA_VERSION } from "./snapshot.ts";
import { seal, unseal } from "./seal.ts";

/** Bump when the layout or the meaning of what is kept here changes. */
export const DERIVED_FORMAT = 4;

/** Store key of the derived value (one per cache: the next snapshot's replaces it). */
export const DERIVED_KEY = `v${SCHEMA_VERSION}/derived.bin`;

/**
 * What a load gets back. The search index is absent when the call that built the graph did not
 * need one (`callers`, `context` on a symbol): building it only to keep it was a sixth of such a
 * first call after an index on django; the first call that needs it builds it and keeps it then.
 */
export interface Derived {
  /** All resolved edges, or those made before the calls when no answer needed them all (build.ts `deferCalls`). */
  edges: GraphEdges | EarlyEdges;
  search: SavedSearchIndex | undefined;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const COLUMNS = ["offsets", "postings", "docFile", "docDef", "docLen"] as const;
/**
 * Calls go in columns, not JSON: they are most of the edges (2 of django's 3.7 MB of JSON), and
 * their objects are made again in the order and shape calls.ts gives them.
 */
const CALL_COLUMNS = 5;
const VIAS: readonly CallEdge["via"][] = ["call", "constructor", "super"];
const RESOLUTIONS = Object.keys(CONFIDENCE) as Resolution[];
/** The columns are written in the host's byte order: only a little-endian host keeps them. */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * The identity of what a graph over `snapshot` with `configs` derives, built by `buildId`: a hex
 * SHA-256 over all of it.
 */
export async function derivedIdentity(
  buildId: string,
  snapshot: Snapshot,
  configs: Map<string, string>,
): Promise<string> {
  const parts = [`codeslice derived ${DERIVED_FORMAT} schema ${SCHEMA_VERSION}`, buildId];
  for (const f of snapshot.files) parts.push(`${f.path}\u0000${f.record ?? ""}`);
  for (const [path, text] of configs) parts.push(`config ${path}\u0000${text.length}\u0000${text}`);
  const digest = await crypto.subtle.digest("SHA-256", encoder.encode(parts.join("\u0001")));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The graph's resolved edges, as `graphFromEdges` takes them (without calls when they were never resolved). */
export function edgesOf(graph: CodeGraph): GraphEdges | EarlyEdges {
  if (callsDeferred(graph)) return { imports: graph.imports, inherits: graph.inherits };
  const { calls, external, ambiguous, unresolvedCalls, imports, inherits, typeUses, edgeCounts } = graph;
  return { calls, external, ambiguous, unresolvedCalls, imports, inherits, typeUses, edgeCounts };
}

/** The sealed bytes of `derived` for `identity`, or undefined on a host that cannot keep them. */
export function encodeDerived(identity: string, derived: Derived): Uint8Array | undefined {
  if (!LITTLE_ENDIAN) return undefined;
  const { edges: all, search } = derived;
  const early = !("calls" in all);
  const edges: GraphEdges = early ? { ...noCalls(), ...all } : all;
  // Calls of one name share one candidate array (model.ts): kept shared through a table.
  const tables = new Map<readonly number[], number>();
  const ambiguous = edges.ambiguous.map((e) => {
    let at = tables.get(e.candidates);
    if (at === undefined) tables.set(e.candidates, (at = tables.size));
    return { ...e, candidates: at };
  });
  const calls = callColumns(edges.calls);
  if (!calls) return undefined;
  const header = encoder.encode(
    JSON.stringify({
      format: DERIVED_FORMAT,
      edges: early
        ? { imports: edges.imports, inherits: edges.inherits, early: true }
        : {
            ...edges,
            calls: edges.calls.length,
            files: calls.files,
            ambiguous,
            candidates: [...tables.keys()],
            typeUses: [...edges.typeUses],
            edgeCounts: [...edges.edgeCounts],
          },
      search: search
        ? { words: search.words, files: search.files, lengths: COLUMNS.map((c) => search[c].length) }
        : null,
    }),
  );
  const id = encoder.encode(identity);
  const start = align4(8 + id.length + header.length);
  const searchLength = search ? COLUMNS.reduce((n, c) => n + search[c].length, 0) : 0;
  const total = start + 4 * searchLength + calls.columns.byteLength;
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, id.length, true);
  out.set(id, 4);
  view.setUint32(4 + id.length, header.length, true);
  out.set(header, 8 + id.length);
  let at = start;
  for (const c of search ? COLUMNS : []) {
    const column = search![c];
    out.set(new Uint8Array(column.buffer, column.byteOffset, column.byteLength), at);
    at += column.byteLength;
  }
  out.set(new Uint8Array(calls.columns.buffer), at);
  return seal(out);
}

/**
 * What `bytes` hold when they were written for `identity` and read back whole, else undefined.
 * The identity is compared before the seal is checked, so a value of another snapshot costs no
 * more than its read.
 */
export function decodeDerived(bytes: Uint8Array | undefined, identity: string): Derived | undefined {
  if (!LITTLE_ENDIAN || !bytes || bytes.length < 8) return undefined;
  const id = encoder.encode(identity);
  const raw = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (raw.getUint32(0, true) !== id.length || 8 + id.length > bytes.length) return undefined;
  for (let i = 0; i < id.length; i++) if (bytes[4 + i] !== id[i]) return undefined;
  const inner = unseal(bytes);
  if (!inner) return undefined;
  try {
    const view = new DataView(inner.buffer, inner.byteOffset, inner.byteLength);
    const headerLength = view.getUint32(4 + id.length, true);
    const head = JSON.parse(decoder.decode(inner.subarray(8 + id.length, 8 + id.length + headerLength))) as Head;
    if (head.format !== DERIVED_FORMAT) return undefined;
    const { search } = head;
    if (search !== null && (!Array.isArray(search.lengths) || search.lengths.length !== COLUMNS.length))
      return undefined;
    let at = align4(8 + id.length + headerLength);
    const columns: Int32Array[] = [];
    for (const length of search?.lengths ?? []) {
      if (!Number.isInteger(length) || length < 0 || at + 4 * length > inner.length) return undefined;
      // A copy: a store may hand out a view at any offset, and Int32Array wants four-byte alignment.
      columns.push(new Int32Array(inner.slice(at, at + 4 * length).buffer));
      at += 4 * length;
    }
    if (head.edges.early === true) {
      const { imports, inherits } = head.edges;
      if (at !== inner.length || !Array.isArray(imports) || !Array.isArray(inherits)) return undefined;
      return { edges: { imports, inherits }, search: searchOf(search, columns) };
    }
    const callCount = head.edges.calls;
    if (!Number.isInteger(callCount) || callCount < 0 || at + 4 * CALL_COLUMNS * callCount !== inner.length)
      return undefined;
    const callData = new Int32Array(inner.slice(at).buffer);
    const edges = edgesFromHead(head.edges, callData);
    if (!edges) return undefined;
    return { edges, search: searchOf(search, columns) };
  } catch {
    return undefined;
  }
}

/** The search index of a header and its columns: undefined when none was kept; throws when it does not read. */
function searchOf(search: Head["search"], columns: Int32Array[]): SavedSearchIndex | undefined {
  if (search === null) return undefined;
  if (!Array.isArray(search.words) || !Array.isArray(search.files)) throw new Error("no search index");
  const [offsets, postings, docFile, docDef, docLen] = columns as [
    Int32Array,
    Int32Array,
    Int32Array,
    Int32Array,
    Int32Array,
  ];
  return { words: search.words, files: search.files, offsets, postings, docFile, docDef, docLen };
}

/** The JSON part as written. */
interface Head {
  format: number;
  edges: Omit<GraphEdges, "typeUses" | "edgeCounts" | "ambiguous" | "calls"> & {
    calls: number;
    files: string[];
    ambiguous: (Omit<AmbiguousCall, "candidates"> & { candidates: number })[];
    candidates: number[][];
    typeUses: [number, number[]][];
    edgeCounts: [string, GraphEdges["edgeCounts"] extends Map<string, infer C> ? C : never][];
    /** Set when only the edges made before the calls were kept (the rest of the fields absent). */
    early?: true;
  };
  search: { words: string[]; files: string[]; lengths: number[] } | null;
}

/** The edges of a header, with their tables made again; undefined when a part is missing. */
function edgesFromHead(e: Head["edges"], callData: Int32Array): GraphEdges | undefined {
  const calls = callsFrom(callData, e.calls, e.files);
  const lists = [calls, e.external, e.ambiguous, e.imports, e.inherits, e.candidates, e.typeUses, e.edgeCounts];
  if (!lists.every(Array.isArray) || !Number.isInteger(e.unresolvedCalls)) return undefined;
  const ambiguous: AmbiguousCall[] = [];
  for (const a of e.ambiguous) {
    const candidates = e.candidates[a.candidates];
    if (!candidates) return undefined;
    (a as unknown as AmbiguousCall).candidates = candidates;
    ambiguous.push(a as unknown as AmbiguousCall);
  }
  return {
    calls: calls!,
    external: e.external,
    ambiguous,
    unresolvedCalls: e.unresolvedCalls,
    imports: e.imports,
    inherits: e.inherits,
    typeUses: new Map(e.typeUses),
    edgeCounts: new Map(e.edgeCounts),
  };
}

/**
 * True when `edges` fit a graph of `symbols` symbols over `records`: every id in range, and the
 * per-file counts add up to the lists, in the records' order (what a patch splices by).
 */
export function edgesFit(edges: GraphEdges | EarlyEdges, symbols: number, records: FileRecord[]): boolean {
  const ok = (id: unknown) => Number.isInteger(id) && (id as number) >= 0 && (id as number) < symbols;
  if (!("calls" in edges)) {
    const paths = new Set(records.map((r) => r.path));
    return edges.inherits.every((e) => ok(e.child) && ok(e.base)) && edges.imports.every((e) => paths.has(e.from));
  }
  if (!edges.calls.every((c) => ok(c.caller) && ok(c.callee))) return false;
  if (!edges.external.every((c) => ok(c.caller)) || !edges.ambiguous.every((c) => ok(c.caller))) return false;
  if (!edges.inherits.every((e) => ok(e.child) && ok(e.base))) return false;
  for (const [id, uses] of edges.typeUses) if (!ok(id) || !Array.isArray(uses) || !uses.every(ok)) return false;
  if (edges.edgeCounts.size !== records.length) return false;
  const sums = { calls: 0, external: 0, ambiguous: 0, unresolved: 0, imports: 0 };
  for (const r of records) {
    const c = edges.edgeCounts.get(r.path);
    if (!c) return false;
    for (const k of Object.keys(sums) as (keyof typeof sums)[]) sums[k] += c[k];
  }
  return (
    sums.calls === edges.calls.length &&
    sums.external === edges.external.length &&
    sums.ambiguous === edges.ambiguous.length &&
    sums.unresolved === edges.unresolvedCalls &&
    sums.imports === edges.imports.length
  );
}

/** The calls in columns (see CALL_COLUMNS), or undefined for a call whose shape calls.ts does not give. */
function callColumns(calls: CallEdge[]): { files: string[]; columns: Int32Array } | undefined {
  const files: string[] = [];
  const fileIndex = new Map<string, number>();
  const n = calls.length;
  const columns = new Int32Array(CALL_COLUMNS * n);
  for (let i = 0; i < n; i++) {
    const c = calls[i]!;
    const via = VIAS.indexOf(c.via);
    const resolution = RESOLUTIONS.indexOf(c.resolution);
    if (via < 0 || resolution < 0 || c.confidence !== CONFIDENCE[c.resolution]) return undefined;
    const keys = Object.keys(c).length - (c.classBody ? 1 : 0) - (c.protocol ? 1 : 0);
    if (keys !== 7 || ("classBody" in c && c.classBody !== true) || ("protocol" in c && c.protocol !== true))
      return undefined;
    let file = fileIndex.get(c.file);
    if (file === undefined) fileIndex.set(c.file, (file = files.push(c.file) - 1));
    columns[i] = c.caller;
    columns[n + i] = c.callee;
    columns[2 * n + i] = file;
    columns[3 * n + i] = c.line;
    columns[4 * n + i] = via * 64 + resolution * 4 + (c.classBody ? 1 : 0) + (c.protocol ? 2 : 0);
  }
  return { files, columns };
}

/** The call objects of `columns`, as calls.ts makes them; undefined when a column holds what no call can. */
function callsFrom(columns: Int32Array, n: number, files: unknown): CallEdge[] | undefined {
  if (!Array.isArray(files) || columns.length !== CALL_COLUMNS * n) return undefined;
  const calls: CallEdge[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const file = files[columns[2 * n + i]!] as unknown;
    const kind = columns[4 * n + i]!;
    const via = VIAS[kind >> 6];
    const resolution = RESOLUTIONS[(kind >> 2) & 15];
    if (typeof file !== "string" || via === undefined || resolution === undefined || kind < 0) return undefined;
    const edge: CallEdge = {
      caller: columns[i]!,
      callee: columns[n + i]!,
      file,
      line: columns[3 * n + i]!,
      via,
      resolution,
      confidence: CONFIDENCE[resolution],
    };
    if (kind & 1) edge.classBody = true;
    if (kind & 2) edge.protocol = true;
    calls[i] = edge;
  }
  return calls;
}

function align4(n: number): number {
  return (n + 3) & ~3;
}
