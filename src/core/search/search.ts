/**
 * Search over the code: one document per definition (and one per file's module-level code), with
 * five fields — the name, the path and container names, the signature, the docstring, and the
 * body's own words (identifiers, string literals, comments). An inverted index of packed postings
 * (document id × 32 + the fields that hold the word) in typed arrays, scored with a BM25-style
 * weight per field and inverse document frequency, so a rare word in a body (an error message a
 * bug report quotes) counts for more than a common one in a name.
 *
 * flexsearch was used here before: it took 31 MB of heap for django's 10,253 symbols (a quarter
 * of an MCP server's whole heap) and cannot weigh words by rarity; this index takes a few MB and
 * follows edits file by file.
 */
import type { FileRecord } from "../extract/record.ts";
import type { CodeGraph } from "../graph/model.ts";
import { symbolRef, type SymbolRef } from "../query/lookup.ts";
import { EngineError } from "../../shared/errors.ts";
import { LIMITS } from "../limits.ts";
import { inTestScopeOnly, isTestFile } from "../graph/test-code.ts";
import { queryTerms, splitWords, termsOf } from "../extract/words.ts";
import { quoted } from "../../shared/quote.ts";

export { splitWords } from "../extract/words.ts";

/** Field bits of a posting. */
export const FIELD = { name: 1, path: 2, signature: 4, doc: 8, body: 16 } as const;
const FIELD_BITS = 32;

/** One search result. */
export interface SearchHit extends SymbolRef {
  end: number;
  signature: string;
  score: number;
  /** Which fields matched: name, path, signature, doc, body. */
  matched: string[];
}

/** Postings of one word: packed `doc * 32 + fields`, built in one array, appended to after edits. */
interface Posting {
  base: Int32Array;
  added: number[] | undefined;
  /** Live documents holding the word. */
  df: number;
}

/**
 * The search index over a graph. It follows edits: `updateSearchIndex` re-indexes only the files
 * whose records changed; their old documents become tombstones until a rebuild.
 */
export interface SearchIndex {
  graph: CodeGraph;
  words: Map<string, Posting>;
  /** Per document: its file, its definition index there (-1: the file's module-level code). */
  docPath: string[];
  docDef: number[];
  /** Words in the document's body field (length normalization). */
  docLen: number[];
  live: boolean[];
  liveCount: number;
  bodyTotal: number;
  /** Per file: the record indexed and its document ids. */
  files: Map<string, { record: FileRecord; ids: number[] }>;
  tombstones: number;
  /**
   * In-degree of each symbol in the call graph, a small tie-breaker of `search` (made on first use:
   * it reads every call, and a `locate` needs none of them).
   */
  indegree: Map<number, number> | undefined;
  /** Distinct name words, sorted, for prefix matches (made on first use after a change). */
  nameVocabulary: string[] | undefined;
}

/** Share of tombstones over live documents past which an update rebuilds from scratch. */
const REBUILD_TOMBSTONE_SHARE = 0.25;

/**
 * Words of the strings that repeat across a file's documents (its path, its container names), kept
 * for one file at a time: a CLI call builds the whole index, and on django splitting the same path
 * and prefixes once per definition was a fifth of that build.
 */
interface FieldMemo {
  record: FileRecord | undefined;
  pathWords: string[];
  prefixes: Map<string, string[]>;
  /** The words of each identifier met, for a whole build (see termsOf). */
  terms?: Map<string, readonly string[]> | undefined;
}

/** The words of each field of a definition's document. */
function fieldsOf(
  record: FileRecord,
  index: number,
  qualified: string,
  memo: FieldMemo = { record: undefined, pathWords: [], prefixes: new Map() },
): [number, string[]][] {
  if (memo.record !== record) {
    memo.record = record;
    memo.pathWords = splitWords(record.path);
    memo.prefixes.clear();
  }
  if (index < 0) {
    return [
      [FIELD.path, memo.pathWords],
      [FIELD.body, record.terms ? record.terms.split(" ") : []],
    ];
  }
  const d = record.definitions[index]!;
  const prefix = qualified.slice(0, Math.max(0, qualified.length - d.name.length));
  let prefixWords = memo.prefixes.get(prefix);
  if (!prefixWords) memo.prefixes.set(prefix, (prefixWords = [...memo.pathWords, ...termsOf(prefix)]));
  const { terms } = memo;
  return [
    [FIELD.name, termsOf(d.name, Infinity, terms)],
    [FIELD.path, prefixWords],
    [FIELD.signature, termsOf(d.signature.slice(0, 400), Infinity, terms)],
    [FIELD.doc, termsOf((d.doc ?? "").slice(0, 600), Infinity, terms)],
    [FIELD.body, d.terms ? d.terms.split(" ") : []],
  ];
}

/**
 * The postings of a whole build, gathered by word number rather than in a Map per document: each
 * occurrence of a word costs one Map lookup instead of three (the document's field mask, then the
 * word's list). On django the search index is a fifth of the first call after an index, the one
 * that builds it (CPU profile, docs/benchmarks.md). Words are numbered in the order they first get
 * a posting, the order a Map per document gave them.
 */
interface Collector {
  ids: Map<string, number>;
  words: string[];
  /** The words of each identifier met (see termsOf). */
  terms: Map<string, readonly string[]>;
  lists: number[][];
  /** Per word: the fields of the current document that hold it, and that document. */
  bits: number[];
  doc: number[];
}

function newCollector(): Collector {
  return { ids: new Map(), words: [], terms: new Map(), lists: [], bits: [], doc: [] };
}

/** Adds one file's documents, appending to postings (`build` collects into plain arrays first). */
function addFile(index: SearchIndex, path: string, record: FileRecord, collect?: Collector): void {
  const moduleId = index.graph.moduleSymbol.get(path);
  if (moduleId === undefined) return;
  const ids: number[] = [];
  const memo: FieldMemo = { record: undefined, pathWords: [], prefixes: new Map(), terms: collect?.terms };
  const touched: number[] = [];
  for (let i = -1; i < record.definitions.length; i++) {
    const id = index.docPath.length;
    const qualified = index.graph.symbols[moduleId + 1 + i]!.qualified;
    const fields = fieldsOf(record, i, qualified, memo);
    const bodyLen = fields[fields.length - 1]![1].length; // the body is the last field
    let packed: [string, number][] | number[];
    if (collect) {
      touched.length = 0;
      for (const [bit, words] of fields) for (const w of words) touchWord(collect, w, bit, id, touched);
      packed = touched;
    } else {
      const mask = new Map<string, number>();
      for (const [bit, words] of fields) for (const w of words) mask.set(w, (mask.get(w) ?? 0) | bit);
      packed = [...mask];
    }
    if (i < 0 && packed.length === 0) continue;
    index.docPath.push(path);
    index.docDef.push(i);
    index.docLen.push(bodyLen);
    index.live.push(true);
    index.liveCount++;
    index.bodyTotal += bodyLen;
    if (collect) {
      for (const k of touched) collect.lists[k]!.push(id * FIELD_BITS + collect.bits[k]!);
    } else {
      for (const [w, bits] of packed as [string, number][]) {
        let p = index.words.get(w);
        if (!p) index.words.set(w, (p = { base: new Int32Array(0), added: undefined, df: 0 }));
        (p.added ??= []).push(id * FIELD_BITS + bits);
        p.df++;
      }
    }
    ids.push(id);
  }
  index.files.set(path, { record, ids });
  index.nameVocabulary = undefined;
}

/** Marks word `w` as held by field `bit` of document `doc`, numbering it when new. */
function touchWord(c: Collector, w: string, bit: number, doc: number, touched: number[]): void {
  let k = c.ids.get(w);
  if (k === undefined) {
    k = c.words.length;
    c.ids.set(w, k);
    c.words.push(w);
    c.lists.push([]);
    c.bits.push(0);
    c.doc.push(-1);
  }
  if (c.doc[k] !== doc) {
    c.doc[k] = doc;
    c.bits[k] = bit;
    touched.push(k);
  } else c.bits[k]! |= bit;
}

/** Turns a file's documents into tombstones. */
function dropFile(index: SearchIndex, path: string): void {
  const entry = index.files.get(path);
  if (!entry) return;
  for (const id of entry.ids) {
    if (!index.live[id]) continue;
    index.live[id] = false;
    index.liveCount--;
    index.bodyTotal -= index.docLen[id]!;
    index.tombstones++;
  }
  // Document frequencies drop with the words the old record gave its documents.
  const moduleId = index.graph.moduleSymbol.get(path);
  for (let i = -1; i < entry.record.definitions.length; i++) {
    const qualified = moduleId !== undefined ? (index.graph.symbols[moduleId + 1 + i]?.qualified ?? "") : "";
    const words = new Set<string>();
    for (const [, list] of fieldsOf(entry.record, i, qualified)) for (const w of list) words.add(w);
    for (const w of words) {
      const p = index.words.get(w);
      if (p) p.df = Math.max(0, p.df - 1);
    }
  }
  index.files.delete(path);
  index.nameVocabulary = undefined;
}

/** How many calls of the index's graph reach `id`. */
function indegreeOf(index: SearchIndex, id: number): number {
  let indegree = index.indegree;
  if (!indegree) {
    indegree = index.indegree = new Map();
    for (const e of index.graph.calls) indegree.set(e.callee, (indegree.get(e.callee) ?? 0) + 1);
  }
  return indegree.get(id) ?? 0;
}

function emptyIndex(graph: CodeGraph): SearchIndex {
  return {
    graph,
    words: new Map(),
    docPath: [],
    docDef: [],
    docLen: [],
    live: [],
    liveCount: 0,
    bodyTotal: 0,
    files: new Map(),
    tombstones: 0,
    indegree: undefined,
    nameVocabulary: undefined,
  };
}

/** Builds the index over every record of the graph. */
export function buildSearchIndex(graph: CodeGraph): SearchIndex {
  const index = emptyIndex(graph);
  const collect = newCollector();
  for (const [path, record] of graph.records) addFile(index, path, record, collect);
  for (let k = 0; k < collect.words.length; k++) {
    const list = collect.lists[k]!;
    if (list.length > 0)
      index.words.set(collect.words[k]!, { base: Int32Array.from(list), added: undefined, df: list.length });
  }
  return index;
}

/**
 * A freshly built index in columns, for the engine's cache (engine/derived.ts): the words in
 * index order, their postings end to end, and per document its file (an index into `files`), its
 * definition index and its body length. An index that was updated after edits is not saved
 * (undefined): its tombstones and appended postings belong to this process.
 */
export interface SavedSearchIndex {
  words: string[];
  /** `postings[offsets[i], offsets[i + 1])` are the postings of `words[i]`. */
  offsets: Int32Array;
  postings: Int32Array;
  /** The indexed files, in index order. */
  files: string[];
  docFile: Int32Array;
  docDef: Int32Array;
  docLen: Int32Array;
}

/** `index` in columns, or undefined when it was updated since its build (see SavedSearchIndex). */
export function saveSearchIndex(index: SearchIndex): SavedSearchIndex | undefined {
  if (index.tombstones > 0 || index.liveCount !== index.docPath.length) return undefined;
  const words: string[] = [];
  const offsets = new Int32Array(index.words.size + 1);
  let total = 0;
  for (const [w, p] of index.words) {
    if (p.added || p.df !== p.base.length) return undefined;
    offsets[words.length] = total;
    words.push(w);
    total += p.base.length;
  }
  offsets[words.length] = total;
  const postings = new Int32Array(total);
  let at = 0;
  for (const p of index.words.values()) {
    postings.set(p.base, at);
    at += p.base.length;
  }
  const files = [...index.files.keys()];
  const fileIndex = new Map(files.map((f, i) => [f, i]));
  const docFile = Int32Array.from(index.docPath, (f) => fileIndex.get(f) ?? -1);
  return {
    words,
    offsets,
    postings,
    files,
    docFile,
    docDef: Int32Array.from(index.docDef),
    docLen: Int32Array.from(index.docLen),
  };
}

/**
 * The index of `graph` from its saved columns (what `buildSearchIndex(graph)` built for a graph of
 * the same records), or undefined when they do not fit the graph: a saved index is checked, never
 * trusted, so a damaged one costs a rebuild, not a wrong answer or a crash.
 */
export function loadSearchIndex(graph: CodeGraph, saved: SavedSearchIndex): SearchIndex | undefined {
  const { words, offsets, postings, files, docFile, docDef, docLen } = saved;
  const docs = docFile.length;
  if (offsets.length !== words.length + 1 || docDef.length !== docs || docLen.length !== docs) return undefined;
  if (offsets[0] !== 0 || offsets[words.length] !== postings.length) return undefined;
  const index = emptyIndex(graph);
  const ids: number[][] = files.map(() => []);
  for (let d = 0; d < docs; d++) {
    const f = docFile[d]!;
    const path = files[f];
    const record = path === undefined ? undefined : graph.records.get(path);
    if (!record || docDef[d]! < -1 || docDef[d]! >= record.definitions.length || docLen[d]! < 0) return undefined;
    index.docPath.push(path!);
    index.docDef.push(docDef[d]!);
    index.docLen.push(docLen[d]!);
    index.live.push(true);
    index.bodyTotal += docLen[d]!;
    ids[f]!.push(d);
  }
  index.liveCount = docs;
  for (let i = 0; i < files.length; i++) {
    const record = graph.records.get(files[i]!);
    if (!record || index.files.has(files[i]!)) return undefined;
    index.files.set(files[i]!, { record, ids: ids[i]! });
  }
  if (index.files.size !== graph.records.size) return undefined;
  for (const p of postings) if (p < 0 || p >= docs * FIELD_BITS) return undefined;
  for (let i = 0; i < words.length; i++) {
    const base = postings.subarray(offsets[i]!, offsets[i + 1]!);
    if (base.length === 0 || index.words.has(words[i]!)) return undefined;
    index.words.set(words[i]!, { base, added: undefined, df: base.length });
  }
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
  for (const [path, record] of graph.records)
    if (previous.files.get(path)?.record !== record) changed.push([path, record]);
  const removed = [...previous.files.keys()].filter((path) => !graph.records.has(path));
  // mostly new: start over
  if (removed.length + changed.length > graph.records.size / 2) return buildSearchIndex(graph);
  // Document frequencies of dropped files are computed against the symbols they had.
  for (const path of removed) dropFile(previous, path);
  for (const [path] of changed) dropFile(previous, path);
  if (previous.tombstones > REBUILD_TOMBSTONE_SHARE * Math.max(previous.liveCount, 1)) return buildSearchIndex(graph);
  previous.graph = graph;
  for (const [path, record] of changed) addFile(previous, path, record);
  previous.indegree = undefined;
  return previous;
}

/** Calls `visit(doc, fields)` for every live posting of `word`. */
function eachPosting(index: SearchIndex, word: string, visit: (doc: number, fields: number) => void): void {
  const p = index.words.get(word);
  if (!p) return;
  for (const packed of p.base) {
    const doc = Math.floor(packed / FIELD_BITS);
    if (index.live[doc]) visit(doc, packed % FIELD_BITS);
  }
  if (p.added)
    for (const packed of p.added) {
      const doc = Math.floor(packed / FIELD_BITS);
      if (index.live[doc]) visit(doc, packed % FIELD_BITS);
    }
}

/** Name words that start with `prefix` (at least 3 characters), at most 50. */
function namesStartingWith(index: SearchIndex, prefix: string): string[] {
  if (!index.nameVocabulary) {
    const names: string[] = [];
    for (const [w, p] of index.words) {
      if (p.df === 0) continue;
      let inName = false;
      eachPosting(index, w, (_doc, fields) => {
        if (fields & FIELD.name) inName = true;
      });
      if (inName) names.push(w);
    }
    index.nameVocabulary = names.sort();
  }
  const v = index.nameVocabulary;
  let lo = 0;
  let hi = v.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (v[mid]! < prefix) lo = mid + 1;
    else hi = mid;
  }
  const out: string[] = [];
  for (let i = lo; i < v.length && v[i]!.startsWith(prefix) && out.length < 50; i++)
    if (v[i] !== prefix) out.push(v[i]!);
  return out;
}

/** How much each field counts, for a symbol search (names first) or for a task in words (bodies count). */
export interface FieldWeights {
  name: number;
  namePrefix: number;
  path: number;
  signature: number;
  doc: number;
  body: number;
  /**
   * BM25's length normalisation of the body (b; default 0.75): lower lets long definitions keep more of their matches.
   */
  bodyNorm?: number;
}

/** Weights for `search`: the name decides, then the path, the signature, the docstring, the body. */
export const SYMBOL_WEIGHTS: FieldWeights = { name: 10, namePrefix: 6, path: 4, signature: 3, doc: 2, body: 1 };

/** A scored document. */
export interface ScoredDoc {
  doc: number;
  score: number;
  /** Field bits that matched any query word. */
  fields: number;
  /** Query words it holds. */
  words: number;
}

/**
 * Scores every live document holding a query word: per word, the inverse document frequency
 * (times the word's own weight, when given) times the best field weight it appears in (BM25's
 * saturation over the field weights; the body normalized by its length), summed over words.
 */
export function scoreDocuments(
  index: SearchIndex,
  terms: string[],
  weights: FieldWeights,
  prefixes = true,
  termWeights?: ReadonlyMap<string, number>,
): Map<number, ScoredDoc> {
  const scores = new Map<number, ScoredDoc>();
  const n = Math.max(index.liveCount, 1);
  const avgBody = index.bodyTotal / n || 1;
  const k1 = 1.2;
  const b = weights.bodyNorm ?? 0.75;
  const add = (doc: number, fields: number, idf: number, prefix: boolean) => {
    let w = 0;
    if (fields & FIELD.name) w = Math.max(w, prefix ? weights.namePrefix : weights.name);
    if (!prefix) {
      if (fields & FIELD.path) w = Math.max(w, weights.path);
      if (fields & FIELD.signature) w = Math.max(w, weights.signature);
      if (fields & FIELD.doc) w = Math.max(w, weights.doc);
      if (fields & FIELD.body) w = Math.max(w, weights.body / (1 - b + (b * index.docLen[doc]!) / avgBody));
    }
    if (w === 0) return;
    const s = (idf * (w * (k1 + 1))) / (w + k1);
    const entry = scores.get(doc);
    if (entry) {
      entry.score += s;
      entry.fields |= fields;
      entry.words++;
    } else scores.set(doc, { doc, score: s, fields, words: 1 });
  };
  for (const t of terms) {
    const df = index.words.get(t)?.df ?? 0;
    const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5)) * (termWeights?.get(t) ?? 1);
    const seen = new Set<number>();
    eachPosting(index, t, (doc, fields) => {
      seen.add(doc);
      add(doc, fields, idf, false);
    });
    if (prefixes && t.length >= 3) {
      for (const w of namesStartingWith(index, t)) {
        const pdf = index.words.get(w)?.df ?? 0;
        const pidf = Math.log(1 + (n - pdf + 0.5) / (pdf + 0.5));
        eachPosting(index, w, (doc, fields) => {
          if (seen.has(doc) || !(fields & FIELD.name)) return;
          seen.add(doc);
          add(doc, FIELD.name, Math.min(idf, pidf), true);
        });
      }
    }
  }
  return scores;
}

/** The symbol of a document (`moduleId + 1 + def`; the module symbol for a module document). */
export function docSymbol(index: SearchIndex, doc: number): number {
  return index.graph.moduleSymbol.get(index.docPath[doc]!)! + 1 + index.docDef[doc]!;
}

const MAX_QUERY_WORDS = 32;
const FIELD_NAMES: [number, string][] = [
  [FIELD.name, "name"],
  [FIELD.path, "path"],
  [FIELD.signature, "signature"],
  [FIELD.doc, "doc"],
  [FIELD.body, "body"],
];

/**
 * Searches definitions by words. Throws `invalid_argument` for a query with no searchable word. `termWeights` scale
 * each word's inverse document frequency (`search` passes the ratio that puts it on a collection shared with the
 * text chunks, so the two rankings compare).
 */
export function searchSymbols(
  index: SearchIndex,
  query: string,
  limit = 10,
  termWeights?: ReadonlyMap<string, number>,
): SearchHit[] {
  const { min, max } = LIMITS.searchResults;
  if (!Number.isInteger(limit) || limit < min || limit > max) {
    throw new EngineError("invalid_argument", `limit must be a whole number from ${min} to ${max}, got ${limit}.`, {
      data: { limit, min, max },
    });
  }
  const terms = queryTerms(query.slice(0, 2000), MAX_QUERY_WORDS);
  if (terms.length === 0) {
    throw new EngineError("invalid_argument", `The query ${quoted(query.slice(0, 80))} has no searchable words.`, {
      hint: "Use identifier fragments or words from names and docstrings, e.g. `parse config`.",
      data: { query: query.slice(0, 200) },
    });
  }
  const phrase = splitWords(query).join("");
  const hits: SearchHit[] = [];
  for (const scored of scoreDocuments(index, terms, SYMBOL_WEIGHTS, true, termWeights).values()) {
    if (index.docDef[scored.doc]! < 0) continue; // module-level code is not a symbol
    const id = docSymbol(index, scored.doc);
    const s = index.graph.symbols[id]!;
    let score = scored.score;
    // The query is the name, or its end with the containers before it (`pytester path` for `Pytester.path`).
    if (splitWords(s.name).join("") === phrase || qualifiedEndsWith(s.qualified, phrase)) score *= 1.5;
    score += Math.min(1, Math.log2(1 + indegreeOf(index, id)) / 6);
    const record = index.graph.records.get(s.file)!;
    if (isTestFile(s.file) || inTestScopeOnly(record, s.index)) score *= 0.8;
    const d = record.definitions[s.index]!;
    hits.push({
      ...symbolRef(s),
      end: s.end,
      signature: d.signature.split("\n")[0]!.slice(0, 200),
      score: Math.round(score * 100) / 100,
      matched: FIELD_NAMES.filter(([bit]) => scored.fields & bit).map(([, name]) => name),
    });
  }
  hits.sort(
    (a, b) => b.score - a.score || a.qualified.length - b.qualified.length || (a.qualified < b.qualified ? -1 : 1),
  );
  return hits.slice(0, limit);
}

/** Whether the last segments of `qualified` (two or more, its name among them) spell `phrase` in words. */
function qualifiedEndsWith(qualified: string, phrase: string): boolean {
  const parts = qualified.split(/[.#:/]+/);
  let tail = "";
  for (let i = parts.length - 1; i >= 0 && tail.length < phrase.length; i--) {
    tail = splitWords(parts[i]!).join("") + tail;
    if (tail === phrase) return i < parts.length - 1;
  }
  return false;
}

/** The inverse document frequency of a word held by `df` of `n` documents, as the searches weigh it. */
export function inverseFrequency(n: number, df: number): number {
  return Math.log(1 + (Math.max(n, 1) - df + 0.5) / (df + 0.5));
}

/** Documents (live) in the index and documents holding `word`: a word's frequency, for a shared weighting. */
export function documentFrequency(index: SearchIndex, word: string): { n: number; df: number } {
  return { n: index.liveCount, df: index.words.get(word)?.df ?? 0 };
}

/**
 * Which of `terms` each of `paths`' documents hold, per path, in the order of `terms`: the evidence
 * line of a ranked file. One pass over each word's postings.
 */
export function termsInFiles(
  index: SearchIndex,
  paths: readonly string[],
  terms: readonly string[],
): Map<string, string[]> {
  const fileOfDoc = new Map<number, string>();
  for (const p of paths) for (const id of index.files.get(p)?.ids ?? []) fileOfDoc.set(id, p);
  const out = new Map<string, string[]>(paths.map((p) => [p, []]));
  for (const t of terms) {
    const hit = new Set<string>();
    eachPosting(index, t, (doc) => {
      const p = fileOfDoc.get(doc);
      if (p !== undefined) hit.add(p);
    });
    for (const p of hit) out.get(p)!.push(t);
  }
  return out;
}

/** The files in which every one of `words` appears in some document (at most `limit`, fewest first). */
export function filesHoldingAll(index: SearchIndex, words: readonly string[], limit = 50): string[] {
  let files: Set<string> | undefined;
  const byRarity = [...words].sort((a, b) => (index.words.get(a)?.df ?? 0) - (index.words.get(b)?.df ?? 0));
  for (const w of byRarity) {
    const here = new Set<string>();
    eachPosting(index, w, (doc) => {
      const p = index.docPath[doc]!;
      if (!files || files.has(p)) here.add(p);
    });
    files = here;
    if (files.size === 0) return [];
  }
  return files ? [...files].slice(0, limit) : [];
}
