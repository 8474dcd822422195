/**
 * The text index: the chunks of a project's text files (chunk.ts) with a small BM25 over three
 * fields (the heading or key path, the file path, the chunk's own lines), the lookup of a chunk
 * by its handle (`docs/deploy.md#Traefik`, `compose.yml:services.db`, a GitHub anchor), and which
 * chunks set each environment variable. Built in memory from the files' text; chunking is a line
 * scan, so rebuilding it costs far less than reading the files (template repo: ~1 ms per file).
 */
import { termsOf, queryTerms, splitWords } from "../extract/words.ts";
import { chunkHandle, slug, type TextChunk } from "./chunk.ts";
import { basename } from "../../shared/paths.ts";

/**
 * Words with their singular added (`tests` → tests, test): docs and file names say `test-backend`
 * where a question says "tests". Only in the text index; code search keeps its words as spelled.
 */
function stems(words: string[]): string[] {
  const out = new Set(words);
  for (const w of words) if (w.length > 3 && w.endsWith("s") && !w.endsWith("ss")) out.add(w.slice(0, -1));
  return [...out];
}

/** A query's words with plurals made singular (the index holds both forms, so each word counts once). */
function singular(words: string[]): string[] {
  return [...new Set(words.map((w) => (w.length > 3 && w.endsWith("s") && !w.endsWith("ss") ? w.slice(0, -1) : w)))];
}

/** The words searchText looks up for `query`. */
export function textTerms(query: string): string[] {
  return singular(queryTerms(query.slice(0, 2000), 32));
}

/** Chunks in the index and chunks holding `word`. */
export function textFrequency(index: TextIndex, word: string): { n: number; df: number } {
  return { n: index.chunks.length, df: index.words.get(word)?.length ?? 0 };
}

/** Release notes and changelogs name every feature once: they rank below the docs that describe one. */
const HISTORY = /(^|\/)(release[-_ ]?notes|changelog|changes|history|news)(\.[a-z]+)?$/i;
const HISTORY_WEIGHT = 0.5;

/** Field bits of a text posting. */
const F = { name: 1, path: 2, body: 4 } as const;

/** The text index of one snapshot. */
export interface TextIndex {
  chunks: TextChunk[];
  /** word → packed `chunk * 8 + fields`. */
  words: Map<string, number[]>;
  docLen: number[];
  avgLen: number;
  byPath: Map<string, number[]>;
  /** Environment variable → the chunks that set it (innermost chunks only). */
  setters: Map<string, number[]>;
}

/** One text search result. */
export interface TextHit {
  chunk: TextChunk;
  handle: string;
  score: number;
  matched: string[];
}

/** The lines of `c` not inside a chunk nested in it (a section's own text, without its subsections). */
function ownLines(c: TextChunk, inFile: TextChunk[], lines: string[]): string[] {
  const nested = inFile.filter(
    (o) => o !== c && o.start >= c.start && o.end <= c.end && (o.start > c.start || o.end < c.end),
  );
  const out: string[] = [];
  for (let l = c.start; l <= c.end; l++)
    if (!nested.some((o) => o.start <= l && o.end >= l)) out.push(lines[l - 1] ?? "");
  return out;
}

/**
 * A text file's chunks with the words of each (name, path, own lines): what the index is built from, kept per file
 * content.
 */
export interface TextFileDocs {
  chunks: TextChunk[];
  words: { name: string[]; path: string[]; body: string[] }[];
}

/** The words of each chunk of a file, from its lines. */
export function textFileDocs(chunks: TextChunk[], lines: string[]): TextFileDocs {
  return {
    chunks,
    words: chunks.map((c) => ({
      // A whole file (one chunk, no heading or key) is named by its file name.
      name: stems(termsOf(c.name === "" ? basename(c.path).replace(/[.-]/g, " ") : c.name)),
      path: stems(splitWords(c.path).filter((w) => w.length > 1)),
      body: stems(termsOf(ownLines(c, chunks, lines).join("\n"), 4000)),
    })),
  };
}

/** Builds the index over the chunks of each file. */
export function buildTextIndex(files: Iterable<TextFileDocs>): TextIndex {
  const index: TextIndex = {
    chunks: [],
    words: new Map(),
    docLen: [],
    avgLen: 1,
    byPath: new Map(),
    setters: new Map(),
  };
  let total = 0;
  for (const { chunks, words } of files) {
    chunks.forEach((c, k) => {
      const id = index.chunks.length;
      index.chunks.push(c);
      const ids = index.byPath.get(c.path) ?? [];
      ids.push(id);
      index.byPath.set(c.path, ids);
      const mask = new Map<string, number>();
      const add = (list: string[], bit: number) => {
        for (const w of list) mask.set(w, (mask.get(w) ?? 0) | bit);
      };
      const w = words[k]!;
      add(w.name, F.name);
      add(w.path, F.path);
      add(w.body, F.body);
      index.docLen.push(w.body.length);
      total += w.body.length;
      for (const [word, bits] of mask) {
        const list = index.words.get(word);
        if (list) list.push(id * 8 + bits);
        else index.words.set(word, [id * 8 + bits]);
      }
      // An env var is set by the innermost chunk that holds it (services.db, not services).
      for (const name of c.sets) {
        if (chunks.some((o) => o !== c && o.start >= c.start && o.end <= c.end && o.sets.includes(name))) continue;
        const list = index.setters.get(name) ?? [];
        list.push(id);
        index.setters.set(name, list);
      }
    });
  }
  index.avgLen = total / Math.max(1, index.chunks.length) || 1;
  return index;
}

/** Field weights, on the scale of the code search's (name 10, path 4, body 1). */
const WEIGHTS = { name: 8, path: 3, body: 1.5 };

/** Scores chunks for `query` (BM25-style per field, as the code search does); best first. */
export function searchText(
  index: TextIndex,
  query: string,
  limit = 10,
  terms = textTerms(query),
  idfOf?: (term: string) => number,
): TextHit[] {
  const n = Math.max(1, index.chunks.length);
  const k1 = 1.2;
  const b = 0.75;
  const scores = new Map<number, { score: number; fields: number; words: number }>();
  for (const t of terms) {
    const list = index.words.get(t);
    if (!list) continue;
    const idf = idfOf?.(t) ?? Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5));
    for (const packed of list) {
      const doc = Math.floor(packed / 8);
      const fields = packed % 8;
      let w = 0;
      if (fields & F.name) w = WEIGHTS.name;
      if (fields & F.path) w = Math.max(w, WEIGHTS.path);
      if (fields & F.body) w = Math.max(w, WEIGHTS.body / (1 - b + (b * index.docLen[doc]!) / index.avgLen));
      const s = (idf * (w * (k1 + 1))) / (w + k1);
      const e = scores.get(doc);
      if (e) {
        e.score += s;
        e.fields |= fields;
        e.words++;
      } else scores.set(doc, { score: s, fields, words: 1 });
    }
  }
  const hits: TextHit[] = [];
  for (const [doc, e] of scores) {
    const chunk = index.chunks[doc]!;
    // Holding more of the query's words counts beyond their sum: a section about the whole question.
    const score =
      e.score * (1 + (0.5 * e.words) / Math.max(1, terms.length)) * (HISTORY.test(chunk.path) ? HISTORY_WEIGHT : 1);
    hits.push({
      chunk,
      handle: chunkHandle(chunk),
      score: Math.round(score * 100) / 100,
      matched: [
        [F.name, "name"],
        [F.path, "path"],
        [F.body, "body"],
      ]
        .filter(([bit]) => e.fields & (bit as number))
        .map(([, name]) => name as string),
    });
  }
  hits.sort(
    (a, b) =>
      b.score - a.score ||
      a.chunk.end - a.chunk.start - (b.chunk.end - b.chunk.start) ||
      (a.handle < b.handle ? -1 : 1),
  );
  return hits.slice(0, limit);
}

/**
 * The chunk a handle names: `path#Heading` (the heading's text, any case, or its GitHub anchor),
 * `path:key.path` (a YAML, TOML or JSON key, a SQL statement, an env variable), or a text file's
 * path alone (its first chunk, or the whole file when it is one chunk). Undefined when `path` is
 * not a text file of the index; `{ path, suggestions }` when it is but names no such chunk.
 */
export function findChunk(
  index: TextIndex,
  target: string,
): { chunk: TextChunk; whole: boolean } | { path: string; suggestions: string[] } | undefined {
  const hash = target.indexOf("#");
  const candidates: [string, string | undefined][] = [];
  if (hash > 0) candidates.push([target.slice(0, hash), target.slice(hash + 1)]);
  // `path:key`: the path is the longest prefix before a colon that is a text file.
  for (let i = target.indexOf(":"); i > 0; i = target.indexOf(":", i + 1))
    candidates.push([target.slice(0, i), target.slice(i + 1)]);
  candidates.push([target, undefined]);
  for (const [path, name] of candidates) {
    const ids = index.byPath.get(path.replace(/^\.\//, ""));
    if (!ids) continue;
    const chunks = ids.map((id) => index.chunks[id]!);
    if (name === undefined || name === "") return { chunk: spanOf(chunks), whole: true };
    const wanted = name.trim().toLowerCase();
    const found =
      chunks.find((c) => c.name.toLowerCase() === wanted) ??
      chunks.find((c) => slug(c.name) === slug(name)) ??
      chunks.find((c) => c.name.toLowerCase().endsWith(`.${wanted}`));
    if (found) return { chunk: found, whole: false };
    const close = chunks
      .filter((c) => c.name !== "" && (c.name.toLowerCase().includes(wanted) || wanted.includes(c.name.toLowerCase())))
      .map(chunkHandle);
    return {
      path,
      suggestions: (close.length ? close : chunks.filter((c) => c.name !== "").map(chunkHandle)).slice(0, 8),
    };
  }
  return undefined;
}

/** One chunk spanning a whole file's chunks (a file asked for by its path). */
function spanOf(chunks: TextChunk[]): TextChunk {
  const first = chunks[0]!;
  if (chunks.length === 1) return first;
  return {
    path: first.path,
    kind: first.kind,
    name: "",
    start: Math.min(...chunks.map((c) => c.start)),
    end: Math.max(...chunks.map((c) => c.end)),
    depth: 0,
    sets: [...new Set(chunks.flatMap((c) => c.sets))],
  };
}
