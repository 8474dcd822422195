/**
 * A task text read into evidence: a bug report, a commit message, a question, read whole. The text
 * is split into its parts (title, prose, fenced and indented code, tracebacks, error lines, quoted
 * paths, identifiers, version and environment lines) and every word gets a weight by how specific
 * the part it came from is: an identifier in a code block or between backticks, an exception's
 * name and message, a path, a trace frame count for more than a word of prose; version dumps,
 * URLs, issue-template headings and pasted shell prompts count for nothing.
 */
import { LANGUAGES } from "../../languages/index.ts";
import { parseTrace, type TraceFrame } from "../slice/trace.ts";
import { splitWords, STOP_WORDS } from "../extract/words.ts";

/** The kinds of parts a task text is split into. */
export type TaskPartKind = "title" | "prose" | "code" | "trace" | "error" | "environment";

/** Evidence read from a task text: weighted words, identifiers, frames, errors and paths. */
export interface TaskEvidence {
  /** Search words and their weights (a multiplier on the word's rarity), heaviest first. */
  terms: Map<string, number>;
  /** Words that came from code (identifiers in code, backticks, frames, error names). */
  codeWords: Set<string>;
  /** Identifiers as written in code-like places (`Session.send`, `merge_environment_settings`). */
  identifiers: string[];
  /** Every trace frame, outermost first per trace. */
  frames: TraceFrame[];
  /** Error lines (`ValueError: bad value`), first seen first. */
  errors: string[];
  /** Paths the text names (`src/pkg/mod.py`, `mod.py`, a repository URL's file). */
  paths: string[];
  /** Characters per part kind, for the answer's notes. */
  parts: Partial<Record<TaskPartKind, number>>;
  /** True when the text is nothing but a stack trace (and its error line). */
  traceOnly: boolean;
}

/** How much a word counts by where it came from. */
const PART_WEIGHT: Record<TaskPartKind, number> = {
  title: 1.6,
  prose: 1,
  code: 0.9,
  trace: 1.2,
  error: 2.5,
  environment: 0,
};
/** Inline code (`backticks`) and identifiers written like code in prose. */
const INLINE_CODE_WEIGHT = 2;
/** An exception's own name (`ProxyError`): the code that raises or defines it. */
const ERROR_NAME_WEIGHT = 2.5;
/** What each part of a compound identifier counts for, against the whole. */
const PART_SHARE = 0.5;
/** Function names of trace frames. */
const FRAME_FN_WEIGHT = 2;
/** Words of issue templates and bug-report prose that say nothing about the code. */
const TEMPLATE_WORDS = new Set(
  (
    "bug report expected actual behavior behaviour reproduce reproduction steps step description describe issue " +
    "problem " +
    "summary context additional information environment version versions os platform please thanks thank hi hello " +
    "checklist checked searched existing duplicate minimal example " +
    "code output result results happen happens happened " +
    "following below above seems seem like get got getting using use used want work works working instead however " +
    "traceback recent call last file line error exception raise raised"
  ).split(" "),
);
const TEMPLATE_WEIGHT = 0.35;

/** Regex-escaped alternatives. */
const alternatives = (words: Iterable<string>) =>
  [...new Set(words)].map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|");
/** Runtimes, compilers and package managers of the supported languages, as version lines name them. */
const TOOLCHAIN = alternatives(LANGUAGES.flatMap((l) => [...(l.toolchain ?? []), l.id, l.name.toLowerCase()]));
/** `Python 3.11.4`, `pkg==4.2`, `OS: macOS 14`, `Node v20.1.0`, `- some-lib version: 2.5.3`. */
const ENVIRONMENT_LINE = new RegExp(
  String.raw`^\s*(?:[-*]\s*)?(?:(?:[\w .-]*\b(?:version|versions|os|platform|system|environment|kernel|` +
    String.raw`release|distribution|arch|architecture|runtime|${TOOLCHAIN})\b[\w ()-]*)\s*[:=]|` +
    String.raw`[\w.-]+\s*(?:==|>=|<=|~=|@)\s*v?\d[\w.+-]*\s*$|[\w.-]+\s+v?\d+\.\d+[\w.+-]*\s*$|` +
    String.raw`(?:${TOOLCHAIN})\s+v?\d)`,
  "i",
);
/** A URL; a repository file link keeps its path (`…/blob/<ref>/src/x.py#L12` → `src/x.py`). */
const URL = /\bhttps?:\/\/[^\s)>\]"'`]+/g;
const BLOB_PATH = /\/(?:blob|tree|raw)\/[^/\s]+\/([^\s#?]+)/;
/** A relative or absolute path with a source extension of a supported language. */
const PATH = new RegExp(
  `(?:^|[\\s"'\`(\\[<])((?:[\\w.@-]+/)*[\\w.@-]+(?:${alternatives(LANGUAGES.flatMap((l) => l.extensions))}))\\b`,
  "g",
);
/** Identifier-shaped code in prose: dotted, called, camelCase, snake_case, PascalCase with a second capital. */
const CODE_LIKE = new RegExp(
  String.raw`(?:[A-Za-z_$][\w$]*\.)+[A-Za-z_$][\w$]*(?:\(\))?|[A-Za-z_$][\w$]*\(\)|\b[a-z]+[A-Z][\w$]*|` +
    String.raw`\b[A-Z][a-z0-9]+[A-Z][\w$]*|\b_*[A-Za-z][A-Za-z0-9]*_\w+`,
  "g",
);
const IDENTIFIER = /[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*/g;
/** A string literal on one line of code (quotes of the three kinds, escapes inside). */
const STRING_LITERAL = /(["'`])(?:\\.|(?!\1).)*?\1/g;
/** `ValueError: …`, `TypeError`, `E   KeyError: 'a'` — the error's name and its message. */
const ERROR_LINE = new RegExp(
  String.raw`(?:^|[\s:(])((?:[A-Za-z_][\w]*\.)*([A-Z]\w*(?:Error|Exception|Warning|Exit|Interrupt|Failure|` +
    String.raw`Fault)))\b(?::\s*(.*))?$`,
);
/** `pkg.errors.CurrencyMismatch: message` after a traceback's frames. */
const TRACE_END = /^((?:[A-Za-z_]\w*\.)*([A-Z]\w+))(?::\s*(.*))?$/;
const FENCE = /^\s*(`{3,}|~{3,})/;
/** Longest text read; past it the rest is ignored (and said). */
export const MAX_TASK_CHARS = 100_000;

/** Reads a task text into weighted evidence. */
export function readTaskText(input: string): TaskEvidence {
  const text = input
    .slice(0, MAX_TASK_CHARS)
    .replace(/\r\n?/g, "\n")
    .replace(/<!--[\s\S]*?-->/g, " ");
  const ev: TaskEvidence = {
    terms: new Map(),
    codeWords: new Set(),
    identifiers: [],
    frames: [],
    errors: [],
    paths: [],
    parts: {},
    traceOnly: false,
  };
  const counts = new Map<string, { weight: number; n: number; code: boolean }>();
  const identifiers = new Set<string>();
  const paths = new Set<string>();
  const addWords = (words: string[], weight: number, code: boolean) => {
    for (const w of words) {
      if (w.length < 2 || STOP_WORDS.has(w) || /^\d+$/.test(w)) continue;
      const wt = TEMPLATE_WORDS.has(w) && !code ? weight * TEMPLATE_WEIGHT : weight;
      const c = counts.get(w);
      if (c) {
        c.weight = Math.max(c.weight, wt);
        c.n++;
        c.code ||= code;
      } else counts.set(w, { weight: wt, n: 1, code });
    }
  };
  const addIdentifier = (id: string, weight: number, named = true) => {
    const clean = id.replace(/\(\)$/, "");
    // A compound name counts whole (`makeResponse` → makeresponse, as the index spells it); its
    // parts count for less, or one name would weigh as three words.
    for (const piece of clean.split(".")) {
      const sub = splitWords(piece);
      if (sub.length > 1) {
        addWords([sub.join("")], weight, true);
        addWords(sub, weight * PART_SHARE, true);
      } else addWords(sub, weight, true);
    }
    if (named && /[A-Za-z]/.test(clean) && clean.length >= 3) identifiers.add(clean);
  };
  const addPart = (kind: TaskPartKind, chars: number) => (ev.parts[kind] = (ev.parts[kind] ?? 0) + chars);

  // URLs go (a repository file link leaves its path behind).
  const withoutUrls = text.replace(URL, (url) => {
    const m = BLOB_PATH.exec(url);
    if (m) paths.add(decodeURIComponentSafe(m[1]!));
    return " ";
  });

  const trace = parseTrace(withoutUrls);
  const lines = withoutUrls.split("\n");
  let fence: string | undefined;
  let title = true;
  let previousBlank = true;
  let proseWords = 0;
  let afterTrace = false;
  for (const raw of lines) {
    const line = raw.replace(/\s+$/, "");
    const f = FENCE.exec(line);
    if (f) {
      if (fence === undefined) fence = f[1]![0]!.repeat(f[1]!.length);
      else if (line.trim().startsWith(fence)) fence = undefined;
      previousBlank = false;
      continue;
    }
    if (line.trim() === "") {
      previousBlank = true;
      continue;
    }
    const inCode =
      fence !== undefined ||
      (previousBlank === false && /^( {4}|\t)/.test(line) && !/^\s*[-*\d]/.test(line)) ||
      /^\s*(>>>|\.\.\.|\$|#|In \[\d+\]:)\s/.test(line);
    previousBlank = false;
    let kind = classify(line, inCode);
    // The line that ends a Python traceback names the exception, whatever its name ends with.
    if (afterTrace && kind !== "trace" && !/^\s/.test(line) && TRACE_END.test(line)) kind = "error";
    if (kind === "trace") afterTrace = true;
    else if (!/^\s/.test(line)) afterTrace = false;
    if (kind === "prose") proseWords += (line.replace(PATH, " ").match(/[A-Za-z]{3,}/g) ?? []).length;
    for (const m of line.matchAll(PATH)) if (!/^\d/.test(m[1]!)) paths.add(m[1]!.replace(/^\.\//, ""));
    if (title && kind === "prose") {
      // The title: the first line, when it is short (an issue's title, a commit's subject).
      title = false;
      if (line.length <= 200) {
        addPart("title", line.length);
        addProse(line, PART_WEIGHT.title);
        continue;
      }
    }
    title = false;
    addPart(kind, line.length);
    if (kind === "environment") continue;
    if (kind === "error") {
      const m = ERROR_LINE.exec(line.trim()) ?? TRACE_END.exec(line.trim())!;
      const whole = line.trim().replace(/^E\s+/, "");
      if (ev.errors.length < 20 && !ev.errors.includes(whole)) ev.errors.push(whole.slice(0, 500));
      addIdentifier(m[1]!, ERROR_NAME_WEIGHT);
      if (m[3]) addProse(m[3], PART_WEIGHT.error);
      continue;
    }
    if (kind === "trace") {
      // A frame line: its function name; the path is matched against the project separately.
      const fn = /, in ([\w.<>]+)\s*$/.exec(line)?.[1] ?? /^\s*at (?:async |new )?([\w$.]+)[ (]/.exec(line)?.[1];
      if (fn && !fn.startsWith("<")) addIdentifier(fn, FRAME_FN_WEIGHT);
      continue;
    }
    if (kind === "code") {
      // Every identifier-shaped token, string literals' words included: the project may hold them too.
      // The words inside a string literal count, but are not names a definition could answer to.
      const strings = [...line.matchAll(STRING_LITERAL)].map((m) => ({ from: m.index, to: m.index + m[0].length }));
      for (const m of line.matchAll(IDENTIFIER))
        addIdentifier(m[0], PART_WEIGHT.code, !strings.some((s) => m.index > s.from && m.index < s.to));
      continue;
    }
    addProse(line, PART_WEIGHT.prose);
  }

  function addProse(line: string, weight: number) {
    // Inline code first: it is the most specific thing prose carries.
    const rest = line.replace(/`([^`]+)`/g, (_, code: string) => {
      for (const m of code.matchAll(IDENTIFIER)) addIdentifier(m[0], INLINE_CODE_WEIGHT);
      return " ";
    });
    const prose = rest.replace(CODE_LIKE, (id) => {
      addIdentifier(id, Math.max(weight, INLINE_CODE_WEIGHT * 0.8));
      return " ";
    });
    addWords(splitWords(prose), weight, false);
  }

  if (trace) ev.frames = trace.frames;
  if (trace?.error && !ev.errors.includes(trace.error)) ev.errors.unshift(trace.error);
  // A trace alone: its frames, their code lines, the error and a test runner's headings, with
  // hardly a sentence of prose around them.
  ev.traceOnly = trace !== undefined && proseWords <= Math.max(12, trace.frames.length * 3);
  for (const [w, c] of counts) {
    // Repetition counts, slowly: a word the reporter writes five times matters more than once.
    ev.terms.set(w, c.weight * (1 + 0.3 * Math.log2(c.n)));
    if (c.code) ev.codeWords.add(w);
  }
  ev.terms = new Map([...ev.terms].sort((a, b) => b[1] - a[1]));
  ev.identifiers = [...identifiers];
  ev.paths = [...paths];
  return ev;
}

/** What a line is: a frame or trace line, an error line, environment, code or prose. */
function classify(line: string, inCode: boolean): TaskPartKind {
  const t = line.trim();
  if (
    /^File "[^"]+", line \d+/.test(t) ||
    /^at (?:async |new )?\S+ \(?\S+:\d+:\d+\)?$/.test(t) ||
    /^at \S+:\d+:\d+$/.test(t) ||
    /^Traceback \(most recent call last\)/.test(t) ||
    /^❯ /.test(t) ||
    /^[^\s:][^:]*\.pyi?:\d+:(?: in \S+)?$/.test(t)
  )
    return "trace";
  if (
    ERROR_LINE.test(t) &&
    t.length <= 600 &&
    /^(?:E\s+)?(?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception|Warning|Exit|Interrupt|Failure|Fault)\b/.test(
      t.replace(/^(?:error|uncaught|fatal)[:\s]+/i, ""),
    )
  )
    return "error";
  // Version lines carry a version (or are a short `OS: macOS` label), never a sentence.
  if (ENVIRONMENT_LINE.test(t) && t.length <= 160 && (/\d/.test(t) || t.length <= 40)) return "environment";
  return inCode ? "code" : "prose";
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
