/** The conservative ignore list and the file-kind rules the scan applies outside git's own rules. */
import { basename, extname } from "./paths.ts";

/**
 * Folders never entered unless git tracks files in them: VCS, dependencies, caches, build outputs.
 * Virtualenvs are not listed by name ("venv" is also a real package, CPython's Lib/venv): the scan
 * recognises them by their `pyvenv.cfg`.
 */
export const DEFAULT_IGNORED_DIRS = new Set([
  ".git",
  ".hg",
  ".svn",
  ".bzr",
  ".codeslice",
  "node_modules",
  "bower_components",
  "jspm_packages",
  "__pycache__",
  "site-packages",
  ".tox",
  ".nox",
  ".mypy_cache",
  ".pytest_cache",
  ".ruff_cache",
  ".hypothesis",
  ".eggs",
  "dist",
  "build",
  "out",
  "target",
  "coverage",
  ".next",
  ".nuxt",
  ".svelte-kit",
  ".turbo",
  ".parcel-cache",
  ".cache",
  ".gradle",
  ".idea",
  ".terraform",
]);

/** Lockfiles: large, generated, never what an agent wants to read. */
export const LOCKFILES = new Set([
  "package-lock.json",
  "npm-shrinkwrap.json",
  "yarn.lock",
  "pnpm-lock.yaml",
  "bun.lockb",
  "bun.lock",
  "Cargo.lock",
  "poetry.lock",
  "Pipfile.lock",
  "uv.lock",
  "pdm.lock",
  "composer.lock",
  "Gemfile.lock",
  "go.sum",
  "packages.lock.json",
  "mix.lock",
  "pubspec.lock",
  "flake.lock",
]);

/** Extensions of files that are binary by nature; skipped without reading. */
const BINARY_EXTENSIONS = new Set(
  (
    ".png .jpg .jpeg .gif .bmp .ico .icns .webp .avif .tif .tiff .psd .pdf .zip .gz .tgz .bz2 .xz .7z .rar .tar " +
    ".jar .war " +
    ".class .o .a .so .dylib .dll .exe .bin .obj .lib .pyc .pyo .pyd .whl .egg .wasm .mo .woff .woff2 .ttf .otf .eot " +
    (".mp3 .mp4 .m4a .wav .ogg .flac .avi .mov .mkv .webm .sqlite .sqlite3 .db .dat .pkl .npy .npz .parquet " +
      ".onnx .pt .ckpt")
  ).split(/\s+/),
);

/** Why a file is left out of the index. */
export type SkipReason =
  | "too_large"
  | "binary"
  | "not_utf8"
  | "minified"
  | "lockfile"
  | "symlink_outside_root"
  | "symlink_loop"
  | "symlink_broken"
  /** The language's grammar could not be loaded (damaged or mismatched wasm); the file waits for a fix. */
  | "grammar_unavailable"
  | "symlink_directory"
  | "special_file"
  | "unreadable"
  /**
   * Brackets nest deeper than any real code (see `MAX_NESTING`). The index no longer skips such a
   * file (it blanks the deep part); `changes` still reports a file of an older snapshot this way.
   */
  | "too_deeply_nested"
  /** tree-sitter trapped on the file even with its deep brackets blanked; the other files index. */
  | "parse_failed";

/** A file left out, with the reason and an optional detail. */
export interface SkippedFile {
  path: string;
  reason: SkipReason;
  detail?: string;
  /**
   * Stat at the scan, for files skipped by name or size: `changes` matches them against the git
   * index's stat, as git does, instead of reading and hashing them on every call.
   */
  size?: number;
  mtimeMs?: number;
}

/** The reason to skip `path` by name alone, if any. */
export function skipByName(path: string): SkipReason | undefined {
  const base = basename(path);
  if (LOCKFILES.has(base)) return "lockfile";
  if (BINARY_EXTENSIONS.has(extname(base))) return "binary";
  if (/\.min\.(js|mjs|cjs|css)$/i.test(base) || /\.(js|css)\.map$/i.test(base)) return "minified";
  return undefined;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Classifies file bytes: binary (NUL bytes, UTF-16 byte-order marks), not UTF-8, minified (very
 * long lines), or text. Returns the decoded text when it is usable. Brackets nested past
 * `MAX_NESTING` no longer skip a file: the parse blanks what lies deeper (`blankDeeperThan`) and
 * keeps the rest.
 */
export function classifyContent(bytes: Uint8Array): { text: string } | { reason: SkipReason; detail: string } {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    return { reason: "not_utf8", detail: "UTF-16 byte-order mark" };
  }
  const probe = Math.min(bytes.length, 8000);
  for (let i = 0; i < probe; i++) if (bytes[i] === 0) return { reason: "binary", detail: `NUL byte at offset ${i}` };
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { reason: "not_utf8", detail: "invalid UTF-8" };
  }
  if (text.length > 0 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.indexOf("\0") >= 0) return { reason: "binary", detail: "NUL byte" };
  // Minified bundles: long average lines. Real source rarely averages over 300 characters a line,
  // once the insides of its string literals are left out: a hand-written table in one long literal
  // (jsoup's EntitiesData.java, 31k characters on one line) is source; a bundle is long in code.
  // First a cheap bound: counting stops once there are lines enough for an average of 300 or less
  // over the whole text (code is never longer than the text), finding each break with `indexOf`.
  if (text.length > 20_000) {
    let lines = 1;
    for (let i = text.indexOf("\n"); i >= 0 && lines * 300 < text.length; i = text.indexOf("\n", i + 1)) lines++;
    if (text.length / lines > 300) {
      const counted = codeCharacters(text);
      if (counted.code / counted.lines > 300)
        return { reason: "minified", detail: `${counted.lines} line(s), ${text.length} characters` };
    }
  }
  return { text };
}

/**
 * The line count of `text` and its characters outside the insides of string literals (`"…"` and
 * `'…'` that close on the line they open, backslash escapes honoured). No language's lexer: a quote
 * in a comment or a character literal only moves which characters count, and an unclosed quote
 * counts the rest of its line as code, so a file is never called source for a quote it lacks.
 */
function codeCharacters(text: string): { lines: number; code: number } {
  let lines = 1;
  let inString = 0;
  let stringChars = 0;
  let pending = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      lines++;
      inString = 0;
      pending = 0;
    } else if (inString !== 0) {
      if (c === inString) {
        stringChars += pending;
        inString = 0;
        pending = 0;
      } else {
        pending++;
        if (c === 92 && i + 1 < text.length && text.charCodeAt(i + 1) !== 10) {
          pending++;
          i++;
        }
      }
    } else if (c === 34 || c === 39) inString = c;
  }
  return { lines, code: text.length - stringChars };
}

/**
 * Brackets nested deeper than this are blanked before the parse (`blankDeeperThan`): tree-sitter's
 * parse and error recovery recurse on a stack in wasm memory that has no guard, and an overflow
 * corrupts the wasm instance. 3,000 nested functions parse safely and stay indexed
 * (test/fault/hostile-shapes), so the limit sits above them. Some shapes crash lower (`{a:` after
 * a typed call from ~2,100): the parse then renews the instance and retries at `SAFE_NESTING`.
 */
export const MAX_NESTING = 4000;

/** The bracket depth a retry after a wasm trap blanks past: every hostile shape measured parses at 1,000. */
export const SAFE_NESTING = 1000;

/** The bracket depth (`(`, `[`, `{` against their closers) past `limit`, or undefined when it stays within. */
export function bracketDepthOver(text: string, limit: number): number | undefined {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 40 || c === 91 || c === 123) {
      if (++depth > max) max = depth;
    } else if ((c === 41 || c === 93 || c === 125) && depth > 0) depth--;
  }
  return max > limit ? max : undefined;
}

/**
 * `text` with everything inside brackets nested deeper than `limit` replaced by spaces (line
 * breaks kept), so lines, columns and UTF-16 offsets stay where they were: the definitions before
 * and after an over-deep expression are still parsed. A blanked bracket where an expression starts
 * becomes `0`, so the innermost kept pair reads `(0 )`, `[0 ]`, `{a: 0 }`: an empty `()` after an
 * arrow is a syntax error whose recovery lost the rest of a TypeScript file (hostile bench, 10k
 * lambdas).
 * Returns `text` itself when nothing nests that deep.
 */
export function blankDeeperThan(text: string, limit: number): string {
  if (bracketDepthOver(text, limit) === undefined) return text;
  const out: string[] = [];
  let depth = 0;
  let from = 0;
  let blankFrom = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 40 || c === 91 || c === 123) {
      if (++depth === limit + 1) blankFrom = i;
    } else if ((c === 41 || c === 93 || c === 125) && depth > 0) {
      if (depth-- === limit + 1) {
        out.push(text.slice(from, blankFrom), blank(text, blankFrom, i + 1));
        from = i + 1;
        blankFrom = -1;
      }
    }
  }
  if (blankFrom >= 0) out.push(text.slice(from, blankFrom), blank(text, blankFrom, text.length));
  else out.push(text.slice(from));
  return out.join("");
}

/**
 * Spaces for `text[start, end)` (which starts with a bracket), its line breaks kept; the bracket
 * becomes `0` where an expression starts (after `(`, `[`, `{`, `,`, `:`, `=`, `>`, `?`), and a
 * space after a name or `)` (`if (x)`, `f(x)`, `) {`), where a `0` would break valid code.
 */
function blank(text: string, start: number, end: number): string {
  let before = start - 1;
  while (before >= 0 && /\s/.test(text[before]!)) before--;
  const head = before >= 0 && "([{,:=>?".includes(text[before]!) ? "0" : " ";
  return `${head}${text.slice(start + 1, end).replace(/[^\r\n]/g, " ")}`;
}
