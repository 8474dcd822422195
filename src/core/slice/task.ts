/**
 * A task in words — a bug report, a commit message, a question — to the code that has to change.
 * Every definition (and each file's module-level code) is scored with BM25 over its name, path,
 * signature, docstring and body words (identifiers, string literals, comments), rare words
 * counting most; words written like code (`make_response`, `Session.send`, `parseHTTP()`) count
 * double. Then the graph reinforces what belongs together: candidates that call each other, share
 * a class or a file lift each other; tests rank below the code they test unless the task is about
 * tests. A floor says when nothing matched well enough to answer.
 */
import type { CodeGraph } from "../graph/model.ts";
import { FIELD, docSymbol, scoreDocuments, type FieldWeights, type SearchIndex } from "../search/search.ts";
import { queryTerms, splitWords, STOP_WORDS } from "../search/words.ts";
import { isTestFile } from "./plan.ts";

/** Field weights for a task in words: the body counts, names still most. */
export const TASK_WEIGHTS: FieldWeights = { name: 3, namePrefix: 1.5, path: 1.5, signature: 1.5, doc: 1.5, body: 1 };

/** One ranked place for a task. */
export interface TaskCandidate {
  /** Symbol id (a module symbol for a file's module-level code). */
  id: number;
  score: number;
  /** Query words it holds. */
  words: number;
  fields: number;
}

/** The ranking, best first, with what the floor decided. */
export interface TaskRanking {
  candidates: TaskCandidate[];
  terms: string[];
  /** Words written like code in the task (they count double). */
  codeWords: string[];
  /** False when not even the best candidate matched well enough to be worth showing. */
  relevant: boolean;
}

const CODE_LIKE = /(?:[A-Za-z_$][\w$]*\.)+[A-Za-z_$][\w$]*|[A-Za-z_$][\w$]*\(\)|\b[a-z]+[A-Z][\w$]*|\b[A-Z][a-z0-9]+[A-Z][\w$]*|\b\w+_\w+/g;
const TEST_WORDS = new Set(["test", "tests", "testing", "spec", "specs", "fixture", "fixtures", "pytest", "unittest", "jest", "vitest", "mock", "mocks"]);

/** What a test's score counts for when the task is not about tests: tests are witnesses of the code to change. */
const TEST_SHARE = 0.2;

/** Candidates scored from the documents' words, before the graph weighs in. */
const POOL = 60;

/** Ranks the project's definitions for a task. */
export function rankTask(index: SearchIndex, graph: CodeGraph, text: string): TaskRanking {
  const terms = queryTerms(text, 64);
  const codeWords = new Set<string>();
  for (const m of text.matchAll(CODE_LIKE)) {
    const parts = splitWords(m[0]).filter((w) => w.length > 1 && !STOP_WORDS.has(w));
    for (const p of parts) codeWords.add(p);
    if (parts.length > 1) codeWords.add(parts.join(""));
  }
  const weights = new Map([...codeWords].map((w) => [w, 2]));
  const scored = scoreDocuments(index, terms, TASK_WEIGHTS, true, weights);
  // About tests when the task is mostly about them (a test named like code, or test words making a
  // quarter of its words), not when a change description mentions adding one.
  const words = splitWords(text).filter((w) => w.length > 1 && !STOP_WORDS.has(w));
  const aboutTests = [...codeWords].some((w) => w.startsWith("test")) || words.filter((w) => TEST_WORDS.has(w)).length * 4 >= Math.max(words.length, 1);

  // Raw scores per symbol (a definition's doc and its file's module doc are separate symbols).
  let raw: TaskCandidate[] = [];
  for (const s of scored.values()) {
    const id = docSymbol(index, s.doc);
    let score = s.score;
    // Tests are witnesses: below the code they exercise, unless the task asks about tests.
    if (!aboutTests && isTestFile(graph.symbols[id]!.file)) score *= TEST_SHARE;
    raw.push({ id, score, words: s.words, fields: s.fields });
  }
  raw.sort((a, b) => b.score - a.score || a.id - b.id);
  raw = raw.slice(0, POOL * 4);
  const pool = raw.slice(0, POOL);
  const best = pool[0]?.score ?? 0;

  // The graph reinforces: a candidate that calls or is called by another candidate, or shares its
  // class or file, gets a share of that candidate's score (at most its own again).
  const rawOf = new Map(pool.map((c) => [c.id, c.score]));
  const reinforced = pool.map((c) => {
    let bonus = 0;
    const s = graph.symbols[c.id]!;
    const add = (other: number, weight: number) => {
      const r = other !== c.id ? rawOf.get(other) : undefined;
      if (r !== undefined) bonus += weight * r;
    };
    for (const ei of graph.callsFrom.get(c.id) ?? []) add(graph.calls[ei]!.callee, 0.2);
    for (const ei of graph.callsTo.get(c.id) ?? []) add(graph.calls[ei]!.caller, 0.2);
    if (s.kind !== "module") for (const sib of graph.children.get(s.parent) ?? []) add(sib, 0.08);
    add(graph.moduleSymbol.get(s.file)!, 0.15);
    for (const child of graph.children.get(c.id) ?? []) add(child, 0.1);
    return { ...c, score: c.score + Math.min(bonus, c.score) };
  });
  const candidates = [...reinforced, ...raw.slice(POOL)].sort((a, b) => b.score - a.score || a.id - b.id);

  // The floor: the best candidate must hold two of the task's words (or one written like code, or
  // the only word asked for) in a field that is more than a passing mention.
  const top = candidates[0];
  const strongField = FIELD.name | FIELD.signature | FIELD.doc | FIELD.path;
  const relevant = top !== undefined && best > 0 && (top.words >= Math.min(2, terms.length) || [...codeWords].length > 0 || (top.fields & strongField) !== 0);
  return { candidates, terms, codeWords: [...codeWords], relevant };
}
