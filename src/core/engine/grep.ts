/**
 * `Engine.grep`: a regex over the files of the index inventory (source, docs, configuration: what
 * the scan keeps, read through the file system port, never outside the root or in ignored files),
 * bounded by matches, time, bytes read and a token budget, each hit with its line and the
 * definition that encloses it.
 */
import { EngineError, throwIfAborted } from "../../shared/errors.ts";
import { classifyContent } from "../../shared/skip-rules.ts";
import { gitBlobId } from "../../shared/hash.ts";
import { cite } from "../../shared/paths.ts";
import { fitBlocks } from "../budget/fit.ts";
import { ENCODINGS, loadTokenCounter } from "../budget/tokenizer.ts";
import { LIMITS } from "../limits.ts";
import { symbolsAt } from "../slice/locate.ts";
import {
  compileGlobs,
  compilePattern,
  grepText,
  type GrepAnswer,
  type GrepHit,
  type GrepOptions,
  type GrepStop,
} from "../grep/grep.ts";
import type { RunOptions } from "./api.ts";
import { graphOf } from "./graph-cache.ts";
import { reindex } from "./passes.ts";
import type { EngineState } from "./state.ts";
import { quoted } from "../../shared/quote.ts";

export type { GrepAnswer, GrepHit, GrepOptions, GrepStop } from "../grep/grep.ts";

/** Checks a bounded whole-number option. */
function bounded(
  name: string,
  value: number | undefined,
  limits: { min: number; max: number; default: number },
): number {
  const v = value ?? limits.default;
  if (!Number.isInteger(v) || v < limits.min || v > limits.max) {
    throw new EngineError(
      "invalid_argument",
      `${name} must be a whole number from ${limits.min} to ${limits.max}, got ${String(value)}.`,
      { data: { [name]: value, min: limits.min, max: limits.max } },
    );
  }
  return v;
}

/** The checked options of one grep. */
function grepArgs(pattern: string, opts: GrepOptions, root: string) {
  if (pattern.length > LIMITS.grep.patternChars) {
    throw new EngineError(
      "invalid_argument",
      `The pattern is ${pattern.length} characters; the limit is ${LIMITS.grep.patternChars}.`,
      { data: { length: pattern.length, max: LIMITS.grep.patternChars } },
    );
  }
  const encoding = opts.encoding ?? "o200k_base";
  if (!ENCODINGS.includes(encoding))
    throw new EngineError(
      "invalid_argument",
      `encoding must be one of ${ENCODINGS.join(", ")}, got ${quoted(encoding)}.`,
      { data: { encoding } },
    );
  return {
    re: compilePattern(pattern, opts.ignoreCase ? { ignoreCase: true } : {}),
    filter: compileGlobs(opts.paths ?? [], root),
    maxMatches: bounded("maxMatches", opts.maxMatches, LIMITS.grep.matches),
    timeMs: bounded("timeMs", opts.timeMs, LIMITS.grep.timeMs),
    budget: bounded("budget", opts.budget, {
      min: LIMITS.budget.min,
      max: LIMITS.budget.max,
      default: LIMITS.budget.list,
    }),
    encoding,
  };
}

/** `Engine.grep` (see GrepOptions): files in inventory order, each read once, binary ones passed over. */
export async function answerGrep(s: EngineState, pattern: string, opts: GrepOptions & RunOptions): Promise<GrepAnswer> {
  const args = grepArgs(pattern, opts, s.platform.fs.rootLabel);
  if (!s.passes.index) await reindex(s, opts);
  const snapshot = s.passes.index!.snapshot;
  const candidates = snapshot.files.filter((f) => args.filter.test(f.path));
  const started = Date.now();
  const overTime = () => Date.now() - started > args.timeMs;
  const hits: GrepHit[] = [];
  const answer = {
    files: 0,
    filesMatched: 0,
    skipped: { binary: 0, tooLarge: 0 },
    stopped: undefined as GrepStop | undefined,
  };
  const hashes = new Map<string, string>();
  let bytesRead = 0;
  for (const f of candidates) {
    throwIfAborted(opts.signal);
    if (overTime()) answer.stopped = "time";
    else if (bytesRead >= LIMITS.grep.bytes) answer.stopped = "bytes";
    else if (hits.length > args.maxMatches) answer.stopped = "matches";
    if (answer.stopped) break;
    if (f.size > (s.options.maxFileBytes ?? LIMITS.maxFileBytes)) {
      answer.skipped.tooLarge++;
      continue;
    }
    const read = await readForGrep(s, f);
    if (read === undefined) continue; // gone since the index: nothing to match
    bytesRead += read.bytes;
    if (read.text === undefined) {
      answer.skipped.binary++;
      continue;
    }
    answer.files++;
    // One more than the limit: the extra hit only says that more exist.
    const found = grepText(read.text, args.re, args.maxMatches + 1 - hits.length, overTime);
    if (found.hits.length) {
      answer.filesMatched++;
      if (f.hash !== undefined && f.language !== undefined)
        hashes.set(f.path, f.hash === (await hashOf(s, f.path, read)) ? f.hash : "");
    }
    for (const h of found.hits) hits.push({ path: f.path, ...h });
    if (found.stopped) answer.stopped = "time";
  }
  if (hits.length > args.maxMatches) {
    hits.length = args.maxMatches;
    answer.stopped = "matches";
  }
  await nameSymbols(s, hits, hashes, opts);
  const { stopped, ...counts } = answer;
  return render(pattern, hits, { ...counts, candidates: candidates.length, ...(stopped ? { stopped } : {}) }, args);
}

/** A file as grep reads it: its text (undefined for binary content), its size, and its hash once computed. */
interface GrepRead {
  text: string | undefined;
  bytes: number;
  hash?: string;
  /** The bytes, kept only until the hash is taken. */
  raw?: Uint8Array;
}

/**
 * Texts of the files grep read, by path, while their size and mtime are the snapshot's: a second
 * grep reads nothing (django's 2,300 files: ~300 ms of reading and decoding, against ~20 ms of
 * matching a literal), up to GREP_CACHE_CHARS characters in all; past that, files are read anew.
 */
const grepCache = new WeakMap<
  EngineState,
  { entries: Map<string, GrepRead & { size: number; mtimeMs: number }>; chars: number }
>();
const GREP_CACHE_CHARS = 64 * 1024 * 1024;

/** A snapshot file's text for grep: from the cache when its stat is the snapshot's, else read and classified. */
async function readForGrep(
  s: EngineState,
  f: { path: string; size: number; mtimeMs: number },
): Promise<GrepRead | undefined> {
  let cache = grepCache.get(s);
  if (!cache) grepCache.set(s, (cache = { entries: new Map(), chars: 0 }));
  const known = cache.entries.get(f.path);
  if (known && known.size === f.size && known.mtimeMs === f.mtimeMs) return known;
  let raw: Uint8Array;
  try {
    raw = await s.platform.fs.readFile(f.path);
  } catch {
    return undefined;
  }
  const content = classifyContent(raw);
  const read: GrepRead & { size: number; mtimeMs: number } = {
    text: "text" in content ? content.text : undefined,
    bytes: raw.length,
    size: f.size,
    mtimeMs: f.mtimeMs,
  };
  // Kept only when the bytes read are the size the snapshot recorded (not a file caught mid-write).
  if (raw.length === f.size) {
    if (known) cache.chars -= known.text?.length ?? 0;
    const chars = read.text?.length ?? 0;
    if (cache.chars + chars <= GREP_CACHE_CHARS) {
      cache.entries.set(f.path, read);
      cache.chars += chars;
      return { ...read, raw };
    }
    cache.entries.delete(f.path);
  }
  return read;
}

/** The content hash of a file grep read (kept with its cached text; the bytes read again when they were not kept). */
async function hashOf(s: EngineState, path: string, read: GrepRead): Promise<string | undefined> {
  if (read.hash !== undefined) return read.hash;
  let raw = read.raw;
  if (!raw) {
    try {
      raw = await s.platform.fs.readFile(path);
    } catch {
      return undefined;
    }
  }
  const hash = await gitBlobId(raw);
  read.hash = hash;
  const cached = grepCache.get(s)?.entries.get(path);
  if (cached && cached.bytes === raw.length) cached.hash = hash;
  return hash;
}

/**
 * Names the definition around each hit, in files whose bytes are the indexed ones (an edited file's lines may have
 * moved).
 */
async function nameSymbols(
  s: EngineState,
  hits: GrepHit[],
  hashes: Map<string, string>,
  opts: RunOptions,
): Promise<void> {
  if (!hits.some((h) => hashes.get(h.path))) return;
  let graph;
  try {
    graph = (await graphOf(s, opts)).graph;
  } catch {
    return; // no code graph (no source files): hits without symbols
  }
  for (const h of hits) {
    if (!hashes.get(h.path)) continue;
    const sym = symbolsAt(graph, h.path, h.line, h.line)[0];
    if (sym && sym.start <= h.line && sym.end >= h.line) {
      h.symbol = sym.qualified;
      h.kind = sym.kind;
    }
  }
}

/** The answer's text, fitted to the budget: whole hits in order, then a line on what was left. */
async function render(
  pattern: string,
  hits: GrepHit[],
  answer: Omit<GrepAnswer, "pattern" | "hits" | "listed" | "usage" | "text">,
  args: ReturnType<typeof grepArgs>,
): Promise<GrepAnswer> {
  const count = await loadTokenCounter(args.encoding);
  const more =
    answer.stopped === "matches"
      ? `stopped at ${args.maxMatches} matching lines; more exist`
      : answer.stopped === "time"
        ? `stopped after ${args.timeMs} ms`
        : answer.stopped === "bytes"
          ? `stopped after reading ${LIMITS.grep.bytes / (1024 * 1024)} MiB`
          : "";
  const skipped = [
    answer.skipped.binary ? `${answer.skipped.binary} binary` : "",
    answer.skipped.tooLarge ? `${answer.skipped.tooLarge} too large` : "",
  ]
    .filter(Boolean)
    .join(", ");
  const notSearched = answer.candidates - answer.files - answer.skipped.binary - answer.skipped.tooLarge;
  const stoppedNote = more
    ? `; ${more}${answer.stopped !== "matches" ? ` (${notSearched} files not searched)` : ""}`
    : "";
  const header =
    `# codeslice grep ${quoted(pattern)}: ` +
    `${hits.length}${answer.stopped === "matches" ? "+" : ""} matching line${hits.length === 1 ? "" : "s"} in ` +
    `${answer.filesMatched} of ${answer.files} files ` +
    `searched${skipped ? ` (${skipped} passed over)` : ""}${stoppedNote}`;
  const fit = fitBlocks({
    header,
    blocks: hits.map((h) => ({
      full: `${cite(h.path, h.line)}:${h.column}${h.symbol ? ` [${h.kind} ${h.symbol}]` : ""}\n  ${h.text.trim()}`,
    })),
    budget: args.budget,
    count,
    separator: "\n",
    prefix: true,
    footer: (st) =>
      st.omitted > 0
        ? `${st.omitted} more matching line${st.omitted === 1 ? "" : "s"} not shown (budget); narrow the paths ` +
          `or the pattern, or raise the budget.`
        : answer.stopped
          ? "Narrow the paths or the pattern to search the rest."
          : "",
    smallest: "the grep's header",
  });
  return {
    pattern,
    hits,
    ...answer,
    listed: hits.length - fit.omitted,
    usage: { tokens: fit.tokens, budget: args.budget, encoding: args.encoding },
    text: fit.text,
  };
}
