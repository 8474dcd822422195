/**
 * A task in words — a bug report, a commit message, a question — to the code that has to change.
 * The text is read into weighted evidence (task-text.ts); every definition (and each file's
 * module-level code) is scored with BM25 over its name, path, signature, docstring and body words
 * (identifiers, string literals, comments), rare words counting most and each word weighted by the
 * part of the task it came from. Then the rest of what the index knows weighs in: trace frames
 * mapped into the project by path suffix, paths the task names, identifiers that name a definition,
 * and the graph (candidates that call each other, share a class or a file lift each other). Tests,
 * docs, examples and benchmarks rank below source unless the task is about them. Files are ranked
 * from their symbols and from the task's words they hold between them. A floor says when nothing
 * matched well enough to answer.
 */
import { fromLanguages } from "../../languages/index.ts";
import type { CodeGraph } from "../graph/model.ts";
import { callsAmong } from "../graph/build.ts";
import { FIELD, docSymbol, scoreDocuments, splitWords, type FieldWeights, type SearchIndex } from "../search/search.ts";
import { findFile } from "../../shared/locations.ts";
import { sourceFiles, symbolsAt } from "../slice/locate.ts";
import { isTestFile } from "../graph/test-code.ts";
import { STOP_WORDS } from "../extract/words.ts";
import { readTaskText, type TaskEvidence } from "./task-text.ts";
import type { PhraseHit } from "./phrases.ts";

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

/** One ranked file for a task, with the evidence that put it there. */
export interface TaskFile {
  path: string;
  score: number;
  /** Evidence, strongest first: `frame 3 (innermost)`, `named in the task`, `words: a, b`. */
  why: string[];
  /** Its candidates, best first. */
  symbols: TaskCandidate[];
}

/** The ranking, best first, with what the floor decided. */
export interface TaskRanking {
  candidates: TaskCandidate[];
  files: TaskFile[];
  terms: string[];
  /** Words written like code in the task (they count more). */
  codeWords: string[];
  /** False when not even the best candidate matched well enough to be worth showing. */
  relevant: boolean;
  evidence: TaskEvidence;
  /** Trace frames that map into the project. */
  framesInProject: number;
}

const TEST_WORDS = fromLanguages(
  (langs) =>
    new Set([
      "test",
      "tests",
      "testing",
      "spec",
      "specs",
      "fixture",
      "fixtures",
      "mock",
      "mocks",
      ...langs.flatMap((l) => l.testFrameworks ?? []),
    ]),
);
/**
 * The test frameworks the project itself is (or extends): those whose name is a word of a folder of its non-test
 * code (`src/_pytest/`, `pytest_django/`, `packages/jest-circus/`). In pytest's own tracker every title says
 * "pytest", which made every report "about tests" and ranked its test files above the source to change. Made once
 * per graph.
 */
const TEST_FRAMEWORKS = fromLanguages((langs) => new Set(langs.flatMap((l) => l.testFrameworks ?? [])));
const ownFrameworks = new WeakMap<CodeGraph, ReadonlySet<string>>();
function frameworksOf(graph: CodeGraph): ReadonlySet<string> {
  let own = ownFrameworks.get(graph);
  if (own) return own;
  const frameworks = TEST_FRAMEWORKS();
  const found = new Set<string>();
  const seen = new Set<string>();
  for (const path of graph.records.keys()) {
    const folder = path.slice(0, path.lastIndexOf("/") + 1);
    if (!folder || seen.has(folder) || isTestFile(path) || ASIDE.test(path)) continue;
    seen.add(folder);
    for (const w of splitWords(folder)) if (frameworks.has(w)) found.add(w);
  }
  own = found;
  ownFrameworks.set(graph, own);
  return own;
}

/** What a test's score counts for when the task is not about tests: tests are witnesses of the code to change. */
const TEST_SHARE = 0.2;
/** Docs, examples, benchmarks and scripts: below the library's own code unless the task names them. */
const ASIDE =
  /(?:^|\/)(?:docs?|examples?|samples?|demos?|benchmarks?|bench|scripts?|tools?|e2e|playground|fixtures?)\//i;
const ASIDE_SHARE = 0.5;
/** Built, bundled, vendored and generated copies: almost never the code a task is about. */
const COPIES = new RegExp(
  String.raw`(?:^|\/)(?:dist|build|out|vendor|vendored|third_party|assets|static|compat|node_modules|` +
    String.raw`bower_components)\/|\.(?:min|umd|bundle|esm|cjs)\.[cm]?js$|\.d\.[cm]?ts$`,
  "i",
);
const COPIES_SHARE = 0.15;
/** Candidates scored from the documents' words, before the graph weighs in. */
const POOL = 80;
/** Most words looked up for one task: the heaviest by weight times rarity. */
const MAX_TERMS = 96;

/**
 * The weights of the evidence, as shares of the best word score: chosen on the tune half of the
 * issue-report benchmark (test/bench/issues), kept in one place so a benchmark can try others.
 */
export interface TaskTuning {
  /** A trace frame of the project (the innermost; outer ones count 0.6 of it). */
  frame: number;
  /** A message the task quotes, found in the code. */
  phrase: number;
  /** A path the task names. */
  path: number;
  /** An identifier that names a definition (`Owner.name` when the owner agrees, else `name`). */
  ownedName: number;
  name: number;
  /** What a file's second, third… candidates add to its best (the k-th adds share / (k - 1)). */
  fileShare: number;
  /** A file's score divided by (1 + log2 of its candidate count) to this power: hubs match everything. */
  hubDamping: number;
  /** What a member takes from its class's own score (a class the task names points into its methods). */
  parentShare: number;
  /** What a symbol's listed score takes from its file's (so the best file's functions come first). */
  symbolFileShare: number;
  /** How much each field of a definition counts for the task's words. */
  weights: FieldWeights;
  /**
   * BM25's body-length normalisation when ranking a file's functions (files keep `weights`'): a
   * long function that holds the task's words is as likely the one to change as a short one.
   */
  symbolBodyNorm?: number;
  /** What a second frame on the same definition adds (a recursion or nested calls in one function). */
  frameRepeat?: number;
  /**
   * Each distinct word of the task's title that a definition's own name holds multiplies its score by
   * 1 + this (the title sums up the report; a function named by it is likelier the one to change
   * than a neighbour that only shares its file's evidence). Unset for the files' ranking.
   */
  titleName?: number;
  /** `titleName` when ranking a file's functions (locate's second pass). */
  symbolTitleName?: number;
}

export const TASK_TUNING: Readonly<TaskTuning> = {
  frame: 1,
  phrase: 0.8,
  path: 0.5,
  ownedName: 0.35,
  name: 0.2,
  fileShare: 0.5,
  hubDamping: 0,
  parentShare: 0,
  symbolFileShare: 0,
  weights: { ...TASK_WEIGHTS, body: 1.5 },
  symbolBodyNorm: 0,
  frameRepeat: 0,
  symbolTitleName: 0.2,
};

/**
 * The graph reinforces: a candidate that calls or is called by another candidate, or shares its
 * class or file, gets a share of that candidate's score (at most its own again).
 */
function reinforce(graph: CodeGraph, pool: TaskCandidate[], tuning: Readonly<TaskTuning>): TaskCandidate[] {
  const rawOf = new Map(pool.map((c) => [c.id, c.score]));
  // (only calls between candidates add: a graph whose calls are not resolved yet resolves their files only)
  const among = callsAmong(graph, rawOf.keys());
  return pool.map((c) => {
    let bonus = 0;
    const s = graph.symbols[c.id]!;
    const add = (other: number, weight: number) => {
      const r = other !== c.id ? rawOf.get(other) : undefined;
      if (r !== undefined) bonus += weight * r;
    };
    for (const e of among.from.get(c.id) ?? []) add(e.callee, 0.2);
    for (const e of among.to.get(c.id) ?? []) add(e.caller, 0.2);
    if (s.kind !== "module") for (const sib of graph.children.get(s.parent) ?? []) add(sib, 0.08);
    add(graph.moduleSymbol.get(s.file)!, 0.15);
    for (const child of graph.children.get(c.id) ?? []) add(child, 0.1);
    if (s.kind !== "module" && graph.symbols[s.parent]?.kind !== "module") add(s.parent, tuning.parentShare);
    return { ...c, score: c.score + Math.min(bonus, c.score) };
  });
}

/** Ranks the project's definitions and files for a task. `root` maps absolute frame paths. */
export function rankTask(
  index: SearchIndex,
  graph: CodeGraph,
  text: string,
  root?: string,
  phrases: readonly PhraseHit[] = [],
  evidence?: TaskEvidence,
  tuning: Readonly<TaskTuning> = TASK_TUNING,
): TaskRanking {
  const ev = evidence ?? readTaskText(text);
  const n = Math.max(index.liveCount, 1);
  const idf = (t: string) => {
    const df = index.words.get(t)?.df ?? 0;
    return df === 0 ? 0 : Math.log(1 + (n - df + 0.5) / (df + 0.5));
  };
  // A short task keeps words no document holds: a name's prefix may still match (`check` → checkout).
  const short = ev.terms.size <= 12;
  const terms = [...ev.terms]
    .map(([t, w]) => ({ t, w, s: w * idf(t) }))
    .filter((x) => x.s > 0 || (short && x.t.length >= 3))
    .sort((a, b) => b.s - a.s)
    .slice(0, MAX_TERMS);
  const weights = new Map(terms.map((x) => [x.t, x.w]));
  const termList = terms.map((x) => x.t);
  const scored = scoreDocuments(index, termList, tuning.weights, short, weights);
  // About tests when the task is mostly about them (a test named like code, or test words making a
  // quarter of its words), not when a report mentions running one.
  const words = [...ev.terms.keys()];
  // (A reporter's pasted test case is not enough: the title must say it, or test words dominate.)
  const title = text.trimStart().split("\n")[0]!;
  const own = frameworksOf(graph);
  const testWord = (w: string) => TEST_WORDS().has(w) && !own.has(w);
  const aboutTests = splitWords(title).some(testWord) || words.filter(testWord).length * 4 >= Math.max(words.length, 1);
  // Docs and examples count fully when the task names one of their files, or its title is about them.
  const asideNamed =
    ev.paths.some((p) => ASIDE.test(p)) || /\b(?:docs|documentation|examples?|benchmarks?)\b/i.test(title);

  const raw = new Map<number, TaskCandidate>();
  for (const s of scored.values()) {
    const id = docSymbol(index, s.doc);
    raw.set(id, { id, score: s.score, words: s.words, fields: s.fields });
  }
  const why = new Map<string, string[]>();
  const note = (path: string, text: string) => {
    const list = why.get(path) ?? [];
    if (!list.includes(text)) list.push(text);
    why.set(path, list);
  };
  const bump = (id: number, amount: number) => {
    const c = raw.get(id);
    if (c) c.score += amount;
    else raw.set(id, { id, score: amount, words: 0, fields: 0 });
  };
  // A loop, not a spread: a big project's candidates overflow the argument stack.
  let best = 1;
  for (const c of raw.values()) if (c.score > best) best = c.score;

  // Trace frames, then the definitions the task's identifiers name (see the helpers below).
  const frames = frameEvidence(graph, ev, root);
  // One definition's frames (a recursion, calls from closures the index does not split) are one
  // place: its strongest frame counts whole, the others `frameRepeat` of theirs.
  const strongest = new Map<number, number>();
  for (const f of frames) strongest.set(f.symbol, Math.max(strongest.get(f.symbol) ?? 0, f.strength));
  for (const f of frames) {
    const whole = strongest.get(f.symbol) === f.strength;
    if (whole) strongest.set(f.symbol, Number.POSITIVE_INFINITY);
    bump(f.symbol, best * tuning.frame * f.strength * (whole ? 1 : (tuning.frameRepeat ?? 1)));
    note(f.path, f.note);
  }
  const framesInProject = frames.length;
  const files = sourceFiles(graph);

  // Messages the task quotes, where the project spells them: the code that raises or formats them.
  const phraseSeen = new Set<number>();
  for (const h of phrases) {
    if (phraseSeen.has(h.symbol)) continue;
    phraseSeen.add(h.symbol);
    bump(h.symbol, best * tuning.phrase);
    note(h.path, `says "${h.phrase.length > 40 ? `${h.phrase.slice(0, 40)}…` : h.phrase}" (:${h.line})`);
  }

  // Paths the task names: the file itself is evidence.
  for (const p of ev.paths.slice(0, 40)) {
    let found: { path: string; note?: string } | undefined;
    try {
      found = findFile(files, p, root);
    } catch {
      found = undefined;
    }
    if (!found) continue;
    bump(graph.moduleSymbol.get(found.path)!, best * tuning.path);
    note(found.path, "named in the task");
  }

  for (const n of nameEvidence(graph, ev)) {
    bump(n.symbol, (best * (n.owned ? tuning.ownedName : tuning.name)) / n.of);
    note(graph.symbols[n.symbol]!.file, n.note);
  }

  // Tests, docs and examples below the code they exercise, unless the task is about them.
  for (const c of raw.values()) {
    const file = graph.symbols[c.id]!.file;
    if (COPIES.test(file) && !ev.paths.some((p) => file.endsWith(p))) c.score *= COPIES_SHARE;
    else if (!aboutTests && isTestFile(file)) c.score *= TEST_SHARE;
    else if (!asideNamed && ASIDE.test(file)) c.score *= ASIDE_SHARE;
  }
  let list = [...raw.values()].sort((a, b) => b.score - a.score || a.id - b.id);
  const pool = list.slice(0, POOL);
  best = pool[0]?.score ?? 0;

  const reinforced = reinforce(graph, pool, tuning);
  list = [...reinforced, ...list.slice(POOL)].sort((a, b) => b.score - a.score || a.id - b.id);
  const candidates = list.slice(0, POOL * 4);
  if (tuning.titleName) liftTitleNames(graph, candidates, title, tuning.titleName);

  const rankedFiles = rankFiles(graph, candidates, why, tuning);

  // The floor: the best candidate must hold two of the task's words (or one written like code, or
  // the only word asked for) in a field that is more than a passing mention, or a frame, a quoted
  // message or a path of the task must be in the project.
  const top = candidates[0];
  const strongField = FIELD.name | FIELD.signature | FIELD.doc | FIELD.path;
  // Or two of the task's own words (not template words) are in the project, though no one place
  // holds both: `no_match` is for a task nothing in the project answers to.
  const known = terms.filter((x) => x.w >= 1 && idf(x.t) > 0).length;
  const relevant =
    top !== undefined &&
    top.score > 0 &&
    (framesInProject > 0 ||
      phrases.length > 0 ||
      known >= 2 ||
      top.words >= Math.min(2, termList.length) ||
      ev.codeWords.size > 0 ||
      (top.fields & strongField) !== 0);
  return {
    candidates,
    files: rankedFiles,
    terms: termList,
    codeWords: [...ev.codeWords],
    relevant,
    evidence: ev,
    framesInProject,
  };
}

/**
 * Definitions named by the title's words, lifted in place (then re-sorted): `1 + share` per distinct
 * title word the name holds. Only the functions' pass uses it; files keep their ranking.
 */
function liftTitleNames(graph: CodeGraph, candidates: TaskCandidate[], title: string, share: number): void {
  const words = new Set(splitWords(title).filter((w) => w.length > 1 && !STOP_WORDS.has(w)));
  if (words.size === 0) return;
  for (const c of candidates) {
    const s = graph.symbols[c.id]!;
    if (s.kind === "module") continue;
    const held = new Set(splitWords(s.name).filter((w) => words.has(w))).size;
    if (held > 0) c.score *= 1 + share * held;
  }
  candidates.sort((a, b) => b.score - a.score || a.id - b.id);
}

/**
 * The project's own trace frames (by the longest path suffix, the line inside the file), as the
 * symbol at each frame's line with a strength: the innermost counts most, and a frame whose
 * function is the symbol at its line is surest; a basename alone (`utils.py`) counts only then.
 */
function frameEvidence(
  graph: CodeGraph,
  ev: TaskEvidence,
  root: string | undefined,
): { symbol: number; path: string; strength: number; note: string }[] {
  const files = sourceFiles(graph);
  const hits: { path: string; line: number; fn?: string; segments: number }[] = [];
  for (const f of ev.frames.slice(-60)) {
    let found: { path: string; note?: string } | undefined;
    try {
      found = findFile(files, f.path, root);
    } catch {
      found = undefined; // outside the root, or a suffix several files share
    }
    if (!found || (graph.records.get(found.path)?.lines ?? 0) < f.line) continue;
    const segments = found.note ? Number(/last (\d+) path segment/.exec(found.note)?.[1] ?? 1) : 9;
    hits.push({ path: found.path, line: f.line, ...(f.fn ? { fn: f.fn } : {}), segments });
  }
  const out: { symbol: number; path: string; strength: number; note: string }[] = [];
  hits.forEach((f, i) => {
    const inner = i === hits.length - 1;
    const sym = symbolsAt(graph, f.path, f.line, f.line)[0]?.id;
    const fnMatches = sym !== undefined && f.fn !== undefined && graph.symbols[sym]!.name === f.fn.split(".").at(-1);
    if (f.segments < 2 && !fnMatches) return;
    out.push({
      symbol: sym ?? graph.moduleSymbol.get(f.path)!,
      path: f.path,
      strength: (inner ? 1 : 0.6) * (fnMatches ? 1 : 0.7),
      note: inner ? `innermost frame :${f.line}` : `frame :${f.line}`,
    });
  });
  return out;
}

/**
 * Definitions the task's identifiers name (`Owner.name` matched by its owner when it can be, a
 * bare name when few definitions share it): the definition, above the places that only use it.
 */
function nameEvidence(
  graph: CodeGraph,
  ev: TaskEvidence,
): { symbol: number; owned: boolean; of: number; note: string }[] {
  const out: { symbol: number; owned: boolean; of: number; note: string }[] = [];
  for (const id of ev.identifiers.slice(0, 200)) {
    const parts = id.split(".");
    const name = parts.at(-1)!;
    const defs = graph.byName.get(name);
    if (!defs || defs.length === 0 || defs.length > 6 || name.length < 4) continue;
    const owner = parts.length > 1 ? parts.at(-2)! : undefined;
    const matched = owner
      ? defs.filter(
          (d) =>
            graph.symbols[graph.symbols[d]!.parent]?.name === owner ||
            graph.symbols[d]!.qualified.includes(`${owner}.`),
        )
      : defs;
    const owned = owner !== undefined && matched.length > 0;
    const chosen = matched.length ? matched : defs;
    for (const d of chosen)
      out.push({ symbol: d, owned, of: chosen.length, note: `defines \`${owned ? `${owner}.` : ""}${name}\`` });
  }
  return out;
}

/**
 * Files from their candidates: the best symbol, plus a decaying share of the next ones (a file
 * where several definitions match is likelier than one with a single lucky match).
 */
function rankFiles(
  graph: CodeGraph,
  candidates: TaskCandidate[],
  why: Map<string, string[]>,
  tuning: Readonly<TaskTuning>,
): TaskFile[] {
  const byFile = new Map<string, TaskCandidate[]>();
  for (const c of candidates) {
    const file = graph.symbols[c.id]!.file;
    const list = byFile.get(file);
    if (list) list.push(c);
    else byFile.set(file, [c]);
  }
  const out: TaskFile[] = [];
  for (const [path, list] of byFile) {
    let score = 0;
    list.slice(0, 5).forEach((c, i) => (score += c.score * (i === 0 ? 1 : tuning.fileShare / i)));
    if (tuning.hubDamping > 0) score /= (1 + Math.log2(list.length)) ** tuning.hubDamping;
    out.push({ path, score, why: [...(why.get(path) ?? [])], symbols: list });
  }
  out.sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : 1));
  return out;
}
