/**
 * Symbol search: flexsearch finds candidates per field (identifier words split on camelCase and
 * snake_case, path words, signature and docstring words); a transparent score ranks them so a
 * name match beats a path match beats a docstring match.
 */
import { Charset, Index } from "flexsearch";
import type { FileRecord } from "../extract/record.ts";
import type { CodeGraph } from "../graph/model.ts";
import { symbolRef, type SymbolRef } from "../graph/lookup.ts";
import { EngineError } from "../shared/errors.ts";
import { isTestFile } from "../slice/plan.ts";

/** Splits an identifier or phrase into lower-case words: `parseHTTPResponse_v2` → parse, http, response, v2. */
export function splitWords(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);
}

/** Words too common in code and prose to discriminate. */
const STOP = new Set("a an the of to in on for and or is are be by with from as at it this that get set self cls".split(" "));

/** One search result. */
export interface SearchHit extends SymbolRef {
  end: number;
  signature: string;
  score: number;
  /** Which fields matched: name, path, signature, doc. */
  matched: string[];
}

/** One indexed definition, by file and position (stable while its file is unchanged). */
interface SearchDoc {
  path: string;
  index: number;
  words: { name: Set<string>; path: Set<string>; sig: Set<string>; doc: Set<string> };
}

/**
 * The search index over a graph. It follows edits incrementally: `updateSearchIndex` re-indexes
 * only the files whose records changed, so a one-file edit costs that file, not the tree.
 */
export interface SearchIndex {
  graph: CodeGraph;
  name: Index;
  /** Path, qualified-name, signature and docstring words in one index (one index costs half of two). */
  text: Index;
  /**
   * Live documents by flexsearch id. Ids are never reused: a changed file's old ids are dropped
   * here and left in flexsearch as tombstones (removing from flexsearch without its `fastupdate`
   * register scans the whole index; with it, the index takes ~80 % more memory), and searches skip
   * them. Too many tombstones trigger a fresh build.
   */
  docs: Map<number, SearchDoc>;
  /** Per file: the record indexed and its document ids. */
  files: Map<string, { record: FileRecord; ids: number[] }>;
  nextId: number;
  tombstones: number;
  /** In-degree of each symbol in the call graph, a small tie-breaker. */
  indegree: Map<number, number>;
}

/** Share of tombstones over live documents past which an update rebuilds from scratch. */
const REBUILD_TOMBSTONE_SHARE = 0.25;

function addFile(index: SearchIndex, path: string, record: FileRecord): void {
  const moduleId = index.graph.moduleSymbol.get(path)!;
  const ids: number[] = [];
  record.definitions.forEach((d, i) => {
    const s = index.graph.symbols[moduleId + 1 + i]!;
    const id = index.nextId++;
    const nameWords = splitWords(d.name);
    const pathWords = splitWords(`${path} ${s.qualified}`);
    const sigWords = splitWords(d.signature.slice(0, 300));
    const docWords = splitWords((d.doc ?? "").slice(0, 400));
    index.name.add(id, nameWords.join(" "));
    index.text.add(id, `${pathWords.join(" ")} ${sigWords.join(" ")} ${docWords.join(" ")}`);
    index.docs.set(id, { path, index: i, words: { name: new Set(nameWords), path: new Set(pathWords), sig: new Set(sigWords), doc: new Set(docWords) } });
    ids.push(id);
  });
  index.files.set(path, { record, ids });
}

function dropFile(index: SearchIndex, path: string): void {
  const entry = index.files.get(path);
  if (!entry) return;
  for (const id of entry.ids) index.docs.delete(id);
  index.tombstones += entry.ids.length;
  index.files.delete(path);
}

function indegreeOf(graph: CodeGraph): Map<number, number> {
  const indegree = new Map<number, number>();
  for (const e of graph.calls) indegree.set(e.callee, (indegree.get(e.callee) ?? 0) + 1);
  return indegree;
}

/** Builds the index. Only definitions are indexed (not module pseudo-symbols). */
export function buildSearchIndex(graph: CodeGraph): SearchIndex {
  // Prefix matching (auth → authenticate) only on names; measured on django's 10,253 symbols:
  // forward tokenization of names 103 ms, strict indexes of the rest 130 ms when merged.
  // Words arrive already split and lower-cased, so flexsearch's normalizing encoder (a third of
  // the build time) is replaced by its exact one.
  const index: SearchIndex = {
    graph,
    name: new Index({ tokenize: "forward", encoder: Charset.Exact }),
    text: new Index({ tokenize: "strict", encoder: Charset.Exact }),
    docs: new Map(), files: new Map(), nextId: 0, tombstones: 0, indegree: indegreeOf(graph),
  };
  for (const [path, record] of graph.records) addFile(index, path, record);
  return index;
}

/**
 * The index for `graph`, updated in place from `previous` (the index of an earlier graph of the
 * same project): files whose record object changed are re-indexed, removed files dropped. Records
 * of unchanged files are the same objects from graph to graph, so identity is the change test.
 */
export function updateSearchIndex(previous: SearchIndex | undefined, graph: CodeGraph): SearchIndex {
  if (!previous) return buildSearchIndex(graph);
  if (previous.graph === graph) return previous;
  const changed: [string, FileRecord][] = [];
  for (const [path, record] of graph.records) if (previous.files.get(path)?.record !== record) changed.push([path, record]);
  const removed = [...previous.files.keys()].filter((path) => !graph.records.has(path));
  const dropping = removed.length + changed.length;
  if (dropping > graph.records.size / 2) return buildSearchIndex(graph); // mostly new: start over
  for (const path of removed) dropFile(previous, path);
  for (const [path] of changed) dropFile(previous, path);
  if (previous.tombstones > REBUILD_TOMBSTONE_SHARE * Math.max(previous.docs.size, 1)) return buildSearchIndex(graph);
  previous.graph = graph;
  for (const [path, record] of changed) addFile(previous, path, record);
  previous.indegree = indegreeOf(graph);
  return previous;
}

const MAX_QUERY_WORDS = 32;

/** Searches symbols by words. Throws `invalid_argument` for a query with no searchable word. */
export function searchSymbols(index: SearchIndex, query: string, limit = 10): SearchHit[] {
  if (!Number.isInteger(limit) || limit < 1 || limit > 200) {
    throw new EngineError("invalid_argument", `limit must be a whole number from 1 to 200, got ${limit}.`, { data: { limit } });
  }
  const all = splitWords(query.slice(0, 2000));
  const terms = [...new Set(all.filter((w) => !STOP.has(w)))].slice(0, MAX_QUERY_WORDS);
  if (terms.length === 0) {
    throw new EngineError("invalid_argument", `The query ${JSON.stringify(query.slice(0, 80))} has no searchable words.`, {
      hint: "Use identifier fragments or words from names and docstrings, e.g. `parse config`.",
      data: { query: query.slice(0, 200) },
    });
  }
  const candidates = new Set<number>();
  for (const t of terms) {
    // Query words are split and lower-cased the same way as the indexed ones. Tombstones (ids of
    // documents since re-indexed) count against the limit, so ask for that many more.
    const limit = 400 + index.tombstones;
    for (const id of index.name.search(t, { limit }) as number[]) candidates.add(id);
    for (const id of index.text.search(t, { limit }) as number[]) candidates.add(id);
  }
  const phrase = terms.join("");
  const hits: SearchHit[] = [];
  for (const docId of candidates) {
    const doc = index.docs.get(docId);
    if (!doc) continue; // a tombstone
    const w = doc.words;
    const id = index.graph.moduleSymbol.get(doc.path)! + 1 + doc.index;
    const s = index.graph.symbols[id]!;
    let score = 0;
    const matched = new Set<string>();
    for (const t of terms) {
      // Whole-word name matches count most; a prefix of a name word (auth → authenticate) a bit less.
      if (w.name.has(t)) {
        score += 10;
        matched.add("name");
      } else if ([...w.name].some((n) => n.startsWith(t) && t.length >= 3)) {
        score += 6;
        matched.add("name");
      } else if (w.path.has(t)) {
        score += 4;
        matched.add("path");
      } else if (w.sig.has(t)) {
        score += 3;
        matched.add("signature");
      } else if (w.doc.has(t)) {
        score += 2;
        matched.add("doc");
      }
    }
    if (score === 0) continue;
    const nameJoined = [...w.name].join("");
    if (nameJoined === phrase) score += 8; // the query is the name
    score += Math.min(3, Math.log2(1 + (index.indegree.get(id) ?? 0)) / 2);
    if (isTestFile(s.file)) score -= 2;
    const d = index.graph.records.get(s.file)!.definitions[s.index]!;
    hits.push({ ...symbolRef(s), end: s.end, signature: d.signature.split("\n")[0]!.slice(0, 200), score: Math.round(score * 100) / 100, matched: [...matched] });
  }
  hits.sort((a, b) => b.score - a.score || a.qualified.length - b.qualified.length || (a.qualified < b.qualified ? -1 : 1));
  return hits.slice(0, limit);
}
