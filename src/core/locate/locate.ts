/**
 * `locate(task)`: where in the project a task points — ranked files and, under each, ranked
 * functions and classes, each with a score and the evidence that put it there (trace frames,
 * paths and names the task gives, the task's words a file holds). The answer an agent reads
 * before it opens anything: ten files in a few hundred tokens.
 */
import { fitBlocks } from "../budget/fit.ts";
import { loadTokenCounter, type Encoding } from "../budget/tokenizer.ts";
import type { CodeGraph } from "../graph/model.ts";
import { termsInFiles, type SearchIndex } from "../search/search.ts";
import { EngineError } from "../../shared/errors.ts";
import { LIMITS } from "../limits.ts";
import { cite, citeName } from "../../shared/paths.ts";
import { pointedText } from "../slice/text-seeds.ts";
import type { TextIndex } from "../text/text-index.ts";
import { CLASS_KINDS } from "../slice/plan.ts";
import { rankTask, TASK_TUNING, type TaskCandidate, type TaskTuning } from "./rank-task.ts";
import { findPhrases, type PhraseHit } from "./phrases.ts";
import { readTaskText, type TaskEvidence } from "./task-text.ts";
import { quoted } from "../../shared/quote.ts";

/** Options of `locate`. */
export interface LocateOptions {
  /** Files to return (default 10, at most 50). */
  limit?: number;
  /** Functions and classes listed under each file (default 3, at most 10). */
  symbols?: number;
  /** Tokens for the text (default 600): files list fewer symbols, then are counted, not shown, to fit. */
  budget?: number;
  encoding?: Encoding;
}

/** One function or class under a located file. */
export interface LocatedSymbol {
  qualified: string;
  kind: string;
  /** The line of its name (after any decorators). */
  line: number;
  /** Its whole span, decorators and docstring included. */
  start: number;
  end: number;
  score: number;
}

/** One located file. */
export interface LocatedFile {
  path: string;
  score: number;
  /** The evidence that put it here, strongest first. */
  why: string[];
  symbols: LocatedSymbol[];
}

/** A section of a doc or a key of a configuration file the task points at. */
export interface LocatedText {
  /** The chunk's handle (`docs/deploy.md#Traefik`, `compose.yml:services.db`), which context takes. */
  handle: string;
  path: string;
  start: number;
  end: number;
  score: number;
}

/** The answer to locate. */
export interface LocateAnswer {
  /** The task's first line, at most 200 characters. */
  task: string;
  files: LocatedFile[];
  /**
   * Docs and configuration the task points at (see slice/text-seeds.ts `pointedText`): listed before
   * the files when the task asks about them (`lead`), after them otherwise; empty for most tasks.
   */
  sections: LocatedText[];
  sectionsLead: boolean;
  /** The words looked up, heaviest first (at most 30 listed). */
  terms: string[];
  /** What the task held: characters per part, trace frames found and how many are in the project. */
  read: { chars: number; parts: Record<string, number>; frames: number; framesInProject: number; errors: string[] };
  /** Files left out of the text by the budget. */
  omitted: number;
  usage: { tokens: number; budget: number; encoding: Encoding };
  text: string;
}

export const LOCATE_LIMITS = {
  files: { min: 1, max: 50, default: 10 },
  symbols: { min: 0, max: 10, default: 5 },
  budget: 600,
  textSymbols: 3,
} as const;

const round = (n: number) => Math.round(n * 100) / 100;

/** Ranks files and symbols for a task text. Throws `no_match` when nothing in it matches anything. */
export async function buildLocate(
  graph: CodeGraph,
  index: SearchIndex,
  task: string,
  options: LocateOptions,
  io: { root?: string; readText: (path: string) => Promise<string>; textIndex?: TextIndex },
  tuning?: Readonly<TaskTuning>,
): Promise<LocateAnswer> {
  const limit = checkRange("limit", options.limit, LOCATE_LIMITS.files);
  const perFile = checkRange("symbols", options.symbols, LOCATE_LIMITS.symbols);
  const budget = checkRange("budget", options.budget, {
    min: LIMITS.budget.min,
    max: LIMITS.budget.max,
    default: LOCATE_LIMITS.budget,
  });
  const text = task.trim();
  if (text === "")
    throw new EngineError("invalid_argument", "The task is empty.", {
      hint: "Pass the task as given: a bug report, an error message, a few words.",
    });
  if (text.length > LIMITS.targetChars) {
    throw new EngineError(
      "invalid_argument",
      `The task is ${text.length} characters; the limit is ${LIMITS.targetChars}.`,
      { data: { length: text.length, max: LIMITS.targetChars } },
    );
  }
  const evidence = readTaskText(text);
  const phrases = await findPhrases(index, graph, text, evidence, io.readText);
  const ranking = rankTask(index, graph, text, io.root, phrases, evidence, tuning);
  const bySymbols = symbolRanking(index, graph, text, io.root, phrases, evidence, tuning ?? TASK_TUNING);
  const pointed = io.textIndex ? pointedText(io.textIndex, index, text) : { hits: [], lead: false };
  const sections: LocatedText[] = pointed.hits.map((h) => ({
    handle: h.handle,
    path: h.chunk.path,
    start: h.chunk.start,
    end: h.chunk.end,
    score: h.score,
  }));
  const codeMatches = ranking.relevant && ranking.files.length > 0;
  if (!codeMatches && sections.length === 0) {
    throw new EngineError(
      "no_match",
      `Nothing in the project matches ${quoted(text.length > 80 ? `${text.slice(0, 80)}…` : text)}.`,
      {
        hint:
          "Give words from the code itself: names, error messages, paths; or a stack trace of a run of this " +
          "project.",
        data: { terms: ranking.terms.slice(0, 20) },
      },
    );
  }
  const top = codeMatches ? ranking.files.slice(0, limit) : [];
  const words = termsInFiles(
    index,
    top.map((f) => f.path),
    ranking.terms.slice(0, 40),
  );
  const files: LocatedFile[] = top.map((f) => {
    const held = words.get(f.path) ?? [];
    return {
      path: f.path,
      score: round(f.score),
      why: [
        ...f.why.slice(0, 3),
        ...(held.length
          ? [`words: ${held.slice(0, 8).join(", ")}${held.length > 8 ? ` +${held.length - 8}` : ""}`]
          : []),
      ],
      symbols: symbolsOf(
        graph,
        bySymbols?.get(f.path) ?? f.symbols,
        perFile,
        (tuning ?? TASK_TUNING).symbolFileShare * f.score,
      ),
    };
  });
  const ev = ranking.evidence;
  const read = {
    chars: text.length,
    parts: { ...ev.parts } as Record<string, number>,
    frames: ev.frames.length,
    framesInProject: ranking.framesInProject,
    errors: ev.errors.slice(0, 3),
  };
  const encoding = options.encoding ?? "o200k_base";
  const count = await loadTokenCounter(encoding);
  const header = headerOf(ranking.terms, read);
  // Each file in full (three symbols) or, when the budget runs short, as its outline (one); the
  // docs and configuration the task points at as one block, before the files when it asks about them.
  const fileBlocks = files.map((f, i) => ({ full: renderFile(f, i, TEXT_SYMBOLS), outline: renderFile(f, i, 1) }));
  const lead = pointed.lead || !codeMatches;
  const textBlock = sections.length
    ? [
        {
          full:
            `Docs and configuration: ` +
            `${sections.map((t) => `${citeName(t.handle)} (${cite(t.path, t.start, t.end)})`).join(" · ")}`,
        },
      ]
    : [];
  const fit = fitBlocks({
    header,
    blocks: lead ? [...textBlock, ...fileBlocks] : [...fileBlocks, ...textBlock],
    budget,
    count,
    separator: "\n",
    footer: (s) =>
      s.omitted > 0
        ? `${s.omitted} more file${s.omitted > 1 ? "s" : ""} not shown (budget); ask with a larger --budget.`
        : "",
    smallest: "the header and the first file",
  });
  // `omitted` counts files: a text block left out is not one.
  const textShown = textBlock.length > 0 && fit.text.includes("Docs and configuration: ");
  return {
    task: text.split("\n")[0]!.slice(0, 200),
    files,
    sections: textShown ? sections : [],
    sectionsLead: lead && sections.length > 0,
    terms: ranking.terms.slice(0, 30),
    read,
    omitted: fit.omitted - (textBlock.length > 0 && !textShown ? 1 : 0),
    usage: { tokens: fit.tokens, budget, encoding },
    text: fit.text,
  };
}

/**
 * The candidates of each file ranked again with the tuning's own body-length normalisation for
 * functions (undefined when it has none): files are ranked as before, their functions by it.
 */
function symbolRanking(
  index: SearchIndex,
  graph: CodeGraph,
  text: string,
  root: string | undefined,
  phrases: readonly PhraseHit[],
  evidence: TaskEvidence,
  tuning: Readonly<TaskTuning>,
): Map<string, TaskCandidate[]> | undefined {
  if (tuning.symbolBodyNorm === undefined) return undefined;
  const again = rankTask(index, graph, text, root, phrases, evidence, {
    ...tuning,
    weights: { ...tuning.weights, bodyNorm: tuning.symbolBodyNorm },
    titleName: tuning.symbolTitleName ?? 0,
  });
  return new Map(again.files.map((f) => [f.path, f.symbols]));
}

/**
 * A file's functions and classes to list: functions and methods first (what a change edits); a
 * class only when none of its own members scored, since its best member says more than its header.
 */
function symbolsOf(
  graph: CodeGraph,
  candidates: readonly TaskCandidate[],
  max: number,
  fromFile: number,
): LocatedSymbol[] {
  const scored = candidates.filter((c) => graph.symbols[c.id]!.kind !== "module");
  const parents = new Set(scored.map((c) => graph.symbols[c.id]!.parent));
  const out: LocatedSymbol[] = [];
  for (const c of scored) {
    if (out.length >= max) break;
    const s = graph.symbols[c.id]!;
    if (CLASS_KINDS.has(s.kind) && parents.has(s.id)) continue;
    out.push({
      qualified: s.qualified,
      kind: s.kind,
      line: s.nameLine,
      start: s.start,
      end: s.end,
      score: round(c.score + fromFile),
    });
  }
  return out;
}

function headerOf(terms: string[], read: LocateAnswer["read"]): string {
  const frames = read.frames
    ? `; ${read.framesInProject} of ${read.frames} trace frame${read.frames > 1 ? "s" : ""} in the project`
    : "";
  const shown = terms.slice(0, 6).join(", ");
  return `Where the task points, best first (words: ${shown}${terms.length > 6 ? ", …" : ""}${frames}):`;
}

/** Symbols per file the text shows (the data has them all). */
const TEXT_SYMBOLS = LOCATE_LIMITS.textSymbols;

function renderFile(f: LocatedFile, i: number, symbols: number): string {
  // The text is for reading at a glance: two pieces of evidence and four words; the data has all.
  const evidence = f.why.filter((w) => !w.startsWith("words: ")).slice(0, 2);
  const words = f.why
    .find((w) => w.startsWith("words: "))
    ?.slice(7)
    .split(", ")
    .slice(0, 3)
    .join(", ")
    .replace(/ \+\d+$/, "");
  const why = [...evidence, ...(words ? [words] : [])].join("; ");
  const head = `${i + 1}. ${f.path} (${f.score.toFixed(1)})${why ? ` ${why}` : ""}`;
  if (f.symbols.length === 0) return head;
  return `${head}\n   ${f.symbols
    .slice(0, symbols)
    .map((s) => `${citeName(shortName(s.qualified))}:${s.line}`)
    .join(" · ")}`;
}

/** The last two parts of a qualified name (`pkg.mod.Class.method` → `Class.method`): enough to ask for it. */
function shortName(qualified: string): string {
  const hash = qualified.indexOf("#");
  const dotted = hash >= 0 ? qualified.slice(hash + 1) : qualified;
  return dotted.split(".").slice(-2).join(".");
}

function checkRange(
  name: string,
  value: number | undefined,
  range: { min: number; max: number; default: number },
): number {
  const v = value ?? range.default;
  if (!Number.isInteger(v) || v < range.min || v > range.max) {
    throw new EngineError(
      "invalid_argument",
      `${name} must be a whole number from ${range.min} to ${range.max}, got ${String(value)}.`,
      { data: { [name]: value, min: range.min, max: range.max } },
    );
  }
  return v;
}
