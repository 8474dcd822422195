/**
 * A bounded regex search over file texts: RE2 syntax through re2js, a pure-JS port of RE2 whose
 * matching is linear in the text (no backtracking: `(a+)+$` on 100,000 `a`s and a `b` takes ~60 ms,
 * not forever), a pattern's syntax error reported with its column, path filters as globs, and the
 * hits' lines. The engine (core/engine/grep.ts) lists and reads the files and names the symbols.
 */
import { RE2JS, RE2JSSyntaxException } from "re2js";
import { EngineError } from "../../shared/errors.ts";
import type { Encoding } from "../budget/tokenizer.ts";
import { normalizeRelative } from "../../shared/paths.ts";
import { quoted } from "../../shared/quote.ts";

/** A compiled pattern. */
export interface GrepPattern {
  source: string;
  /** The first match at or after `from` in `text`: its start and end offsets, or undefined. */
  find(text: string, from: number): { start: number; end: number } | undefined;
}

/** Where a syntax error of an RE2 pattern sits, 1-based; the pattern's length + 1 for an error at its end. */
function errorColumn(pattern: string, description: string, fragment: string | null): number {
  if (/missing closing \)/.test(description)) return unmatchedOpen(pattern) + 1;
  if (/unexpected \)/.test(description)) return unmatchedClose(pattern) + 1;
  if (/trailing backslash/.test(description)) return pattern.length;
  if (fragment) {
    const at = pattern.lastIndexOf(fragment);
    if (at >= 0) return at + 1;
  }
  return 1;
}

/** Offset of the last `(` never closed, outside escapes and character classes. */
function unmatchedOpen(pattern: string): number {
  const open: number[] = [];
  scanGroups(
    pattern,
    (i) => open.push(i),
    () => void open.pop(),
  );
  return open.at(-1) ?? 0;
}

/** Offset of the first `)` with no `(` before it. */
function unmatchedClose(pattern: string): number {
  let depth = 0;
  let first = -1;
  scanGroups(
    pattern,
    () => depth++,
    (i) => {
      if (depth === 0 && first < 0) first = i;
      depth = Math.max(0, depth - 1);
    },
  );
  return first >= 0 ? first : pattern.length - 1;
}

function scanGroups(pattern: string, open: (i: number) => void, close: (i: number) => void): void {
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") i++;
    else if (inClass) inClass = c !== "]";
    else if (c === "[") {
      inClass = true;
      if (pattern[i + 1] === "]") i++; // `[]a]`: a leading ] is a member
    } else if (c === "(") open(i);
    else if (c === ")") close(i);
  }
}

/**
 * Compiles `pattern` (RE2 syntax: no backreferences or lookaround, which is what keeps matching
 * linear). `^` and `$` match at line breaks. Throws `invalid_pattern` with the column of the error.
 */
export function compilePattern(pattern: string, options: { ignoreCase?: boolean } = {}): GrepPattern {
  if (pattern === "")
    throw new EngineError("invalid_pattern", "The pattern is empty.", {
      hint: "Pass a regular expression (RE2 syntax), e.g. `def \\w+_handler` or `TODO|FIXME`.",
      data: { pattern, reason: "empty" },
    });
  let re: RE2JS;
  try {
    re = RE2JS.compile(pattern, RE2JS.MULTILINE | (options.ignoreCase ? RE2JS.CASE_INSENSITIVE : 0));
  } catch (error) {
    if (!(error instanceof RE2JSSyntaxException)) throw error;
    const reason = error.getDescription();
    const column = errorColumn(pattern, reason, error.getPattern());
    const lookaround =
      /^\(\?<?[=!]/.test(pattern.slice(column - 1)) ||
      (/invalid named capture|invalid or unsupported Perl syntax/.test(reason) && /\(\?<?[=!]/.test(pattern));
    throw new EngineError(
      "invalid_pattern",
      `The pattern is not a valid RE2 expression: ${reason} at column ${column}.`,
      {
        hint: lookaround
          ? "RE2 has no lookahead, lookbehind or backreferences (they are what can take exponential time): " +
            "match the text itself."
          : "Escape regex metacharacters with a backslash to match them literally (\\( \\[ \\. \\*).",
        data: { pattern, column, reason },
        cause: error,
      },
    );
  }
  // A literal or an alternation of literals cannot backtrack: the host's own RegExp matches it the
  // same way, ~20-50x faster than re2js (django, 13 MB: `TODO|FIXME|XXX` 20 ms against 1.1 s).
  if (LITERALS.test(pattern)) {
    const native = new RegExp(pattern, `gm${options.ignoreCase ? "i" : ""}`);
    return {
      source: pattern,
      find(text, from) {
        native.lastIndex = from;
        const m = native.exec(text);
        return m ? { start: m.index, end: m.index + m[0].length } : undefined;
      },
    };
  }
  return {
    source: pattern,
    find(text, from) {
      const m = re.matcher(text);
      if (!m.find(from)) return undefined;
      return { start: m.start(), end: m.end() };
    },
  };
}

/**
 * Literal text and `|` between literals, with punctuation escaped or plain: what RE2 and the host's
 * RegExp read the same way and neither can backtrack on (no group, class, quantifier or anchor).
 */
const LITERALS = new RegExp(
  String.raw`^(?:[\p{L}\p{N}_ \-,:;=<>!@%&~'"#/]|\\[.^$|` +
    String.raw`?*+()[\]{}\\/-])+(?:\|(?:[\p{L}\p{N}_ \-,:;=<>!@%&~'"#/]|\\[.^$|?*+()[\]{}\\/-])+)*$`,
  "u",
);

/** One path filter: a glob (`src/**\/*.ts`, `*.md`, `docs/`), or `!glob` to leave paths out. */
interface Glob {
  negated: boolean;
  re: RegExp;
}

/** The path filters: a path is kept when it matches some positive glob (or there is none) and no negated one. */
export interface PathFilter {
  test(path: string): boolean;
}

/**
 * Compiles path globs: `*` within a folder name, `**` across folders, `?`, `[abc]`, `{a,b}`; a
 * glob without a `/` matches a file name at any depth (as in .gitignore); a folder (`docs/`,
 * `src/api`) matches everything under it. Absolute globs are read relative to `root`; a glob that
 * leaves the root (`../x`, an absolute path elsewhere) is `outside_root`.
 */
export function compileGlobs(globs: readonly string[], root?: string): PathFilter {
  const compiled: Glob[] = globs.map((raw) => {
    const negated = raw.startsWith("!");
    let g = (negated ? raw.slice(1) : raw).trim().replace(/\\/g, "/");
    if (root && (g === root || g.startsWith(`${root.replace(/\/$/, "")}/`)))
      g = g.slice(root.replace(/\/$/, "").length + 1);
    if (g.startsWith("/") || /^[A-Za-z]:\//.test(g) || g.split("/").includes("..")) {
      throw new EngineError("outside_root", `The path filter ${quoted(raw)} is not inside the project.`, {
        hint: "Path filters are globs relative to the project root, e.g. `src/**/*.py` or `*.md`.",
        data: { target: raw },
      });
    }
    g = g.replace(/^\.\//, "");
    if (g === "" || g === ".") g = "**";
    return { negated, re: globToRegExp(g) };
  });
  const positive = compiled.filter((g) => !g.negated);
  const negative = compiled.filter((g) => g.negated);
  return {
    test: (path) =>
      (positive.length === 0 || positive.some((g) => g.re.test(path))) && !negative.some((g) => g.re.test(path)),
  };
}

function globToRegExp(glob: string): RegExp {
  const folder = glob.endsWith("/");
  const g = folder ? glob.slice(0, -1) : glob;
  let out = "";
  for (let i = 0; i < g.length; i++) {
    const c = g[i]!;
    if (c === "*") {
      if (g[i + 1] === "*") {
        const slash = g[i + 2] === "/";
        out += slash ? "(?:.*/)?" : ".*";
        i += slash ? 2 : 1;
      } else out += "[^/]*";
    } else if (c === "?") out += "[^/]";
    else if (c === "[") {
      const close = g.indexOf("]", i + 2);
      if (close < 0) out += "\\[";
      else {
        out += `[${g
          .slice(i + 1, close)
          .replace(/^!/, "^")
          .replace(/\\/g, "\\\\")}]`;
        i = close;
      }
    } else if (c === "{") {
      const close = g.indexOf("}", i);
      if (close < 0) out += "\\{";
      else {
        out += `(?:${g
          .slice(i + 1, close)
          .split(",")
          .map((p) => p.replace(/[.+^$()|[\]\\*?]/g, "\\$&"))
          .join("|")})`;
        i = close;
      }
    } else out += c.replace(/[.+^$()|\\]/g, "\\$&");
  }
  // A glob without a slash names a file (or folder) at any depth; any glob also matches what lies under it.
  const anywhere = !g.includes("/") ? "(?:.*/)?" : "";
  return new RegExp(`^${anywhere}${out}(?:/.*)?$`);
}

/** Whether `path` (as written by a caller) stays inside the root. */
export function insideRoot(path: string): boolean {
  return normalizeRelative(path) !== undefined;
}

/** One line that matched. */
export interface LineHit {
  /** 1-based line and column (UTF-16 units) of the first match on the line. */
  line: number;
  column: number;
  /** The line's text (at most MAX_LINE_CHARS characters, around the match). */
  text: string;
}

/** Characters of a hit's line kept around the match. */
export const MAX_LINE_CHARS = 240;

/**
 * Characters matched in one call: a long file is searched in line-aligned slices of about this size, the deadline
 * checked between them.
 */
const SLICE_CHARS = 64 * 1024;

/**
 * The lines of `text` that `pattern` matches (one hit per line, its first match), at most `max`,
 * stopping when `stop()` says so (checked between slices). A match that spans lines is reported on
 * the line it starts on; an empty match counts only where it is not at the end of the text.
 */
export function grepText(
  text: string,
  pattern: GrepPattern,
  max: number,
  stop: () => boolean,
): { hits: LineHit[]; stopped: boolean } {
  const hits: LineHit[] = [];
  let lineNo = 1;
  let lineStart = 0;
  for (let sliceStart = 0; sliceStart < text.length && hits.length < max; ) {
    if (stop()) return { hits, stopped: true };
    let sliceEnd = text.indexOf("\n", Math.min(text.length, sliceStart + SLICE_CHARS));
    sliceEnd = sliceEnd < 0 ? text.length : sliceEnd + 1;
    const slice = text.slice(sliceStart, sliceEnd);
    let from = 0;
    while (from <= slice.length && hits.length < max) {
      const m = pattern.find(slice, from);
      if (!m || (m.start === slice.length && m.start === m.end && slice.length > 0)) break;
      const at = sliceStart + m.start;
      // Advance the line count to the match.
      for (let i = text.indexOf("\n", lineStart); i >= 0 && i < at; i = text.indexOf("\n", lineStart)) {
        lineNo++;
        lineStart = i + 1;
      }
      const nl = text.indexOf("\n", at);
      const lineEnd = nl < 0 ? text.length : nl;
      hits.push({
        line: lineNo,
        column: at - lineStart + 1,
        text: clip(text.slice(lineStart, lineEnd).replace(/\r$/, ""), at - lineStart),
      });
      if (nl < 0) break;
      from = nl + 1 - sliceStart;
    }
    sliceStart = sliceEnd;
  }
  return { hits, stopped: false };
}

/** A long line cut to MAX_LINE_CHARS around `at` (an ellipsis marks each cut end). */
function clip(line: string, at: number): string {
  if (line.length <= MAX_LINE_CHARS) return line;
  const from = Math.max(0, Math.min(at - 60, line.length - MAX_LINE_CHARS));
  return (
    `${from > 0 ? "…" : ""}${line.slice(from, from + MAX_LINE_CHARS)}` +
    `${from + MAX_LINE_CHARS < line.length ? "…" : ""}`
  );
}

/** Options of `grep`. */
export interface GrepOptions {
  /** Globs the paths must match (`src/**\/*.py`, `*.md`, `docs/`; `!tests/` leaves paths out). */
  paths?: string[];
  ignoreCase?: boolean;
  /** Lines listed at most (default 200, at most 10,000); the answer says when more exist. */
  maxMatches?: number;
  /** Milliseconds of searching at most (default 5,000). */
  timeMs?: number;
  /** Tokens for the answer's text (default 4,000). */
  budget?: number;
  encoding?: Encoding;
}

/** One hit: a line that matched. */
export interface GrepHit extends LineHit {
  path: string;
  /** The innermost definition around the line (from the index), when there is one. */
  symbol?: string;
  kind?: string;
}

/** Why a grep stopped before it had searched every file. */
export type GrepStop = "matches" | "time" | "bytes";

/** The answer to `grep`. */
export interface GrepAnswer {
  pattern: string;
  hits: GrepHit[];
  /** Files searched, and files with a hit. */
  files: number;
  filesMatched: number;
  /** Files of the inventory the path filters kept; searched ones are `files`. */
  candidates: number;
  /** Set when the search stopped early: more matches may exist in the files not searched (or later in the last one). */
  stopped?: GrepStop;
  /** Files passed over: binary or not UTF-8 content, larger than the index's file limit. */
  skipped: { binary: number; tooLarge: number };
  /** Hits listed in `text` (the first ones); the budget may hold fewer than `hits`. */
  listed: number;
  usage: { tokens: number; budget: number; encoding: Encoding };
  text: string;
}
