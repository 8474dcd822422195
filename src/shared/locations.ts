/**
 * Locations as people and agents write them: `path`, `path:line`, `path:start-end`,
 * `path:line:col`, a quoted path (`"new\nline.py":3`), absolute paths inside the root, `./` and
 * Windows separators, a path from another checkout. Pure functions over a set of project files.
 */
import { EngineError } from "./errors.ts";
import { normalizeRelative, readQuotedPath } from "./paths.ts";
import { quoted as inQuotes } from "./quote.ts";

/** A file position a target names: lines are 1-based and inclusive. */
export interface Location {
  path: string;
  start?: number;
  end?: number;
  /** `path::name`: a symbol inside that file. */
  symbol?: string;
  /** True when the path was written quoted (it is exact: no separator conversion, no suffix match). */
  quoted: boolean;
}

const LINES = /^:(\d+)(?:(?:-|:\d+-)(\d+)(?::\d+)?|:\d+)?$/;

/**
 * Splits a target into a path and its line range or symbol, or undefined when it is not written as
 * a location (no `:line`, `::name` or quoted path). `a.ts:10:5` is line 10 (column 5 is dropped);
 * `a.ts:10-20` and `a.ts:10:1-20:4` are ranges.
 */
export function parseLocation(target: string): Location | undefined {
  const quoted = readQuotedPath(target);
  if (quoted) {
    if (quoted.rest === "") return { path: quoted.path, quoted: true };
    if (quoted.rest.startsWith("::") && quoted.rest.length > 2)
      return { path: quoted.path, symbol: quoted.rest.slice(2), quoted: true };
    const m = LINES.exec(quoted.rest);
    return m ? { path: quoted.path, ...range(m), quoted: true } : undefined;
  }
  const sep = target.indexOf("::");
  if (sep > 0 && sep + 2 < target.length)
    return { path: target.slice(0, sep), symbol: target.slice(sep + 2), quoted: false };
  // The last `:digits` group(s) at the end, after a path that is not only a drive letter.
  const m = /^(.+?)(:\d+(?:(?:-|:\d+-)\d+(?::\d+)?|:\d+)?)$/.exec(target);
  if (!m || /^[A-Za-z]$/.test(m[1]!)) return undefined;
  const lines = LINES.exec(m[2]!)!;
  return { path: m[1]!, ...range(lines), quoted: false };
}

function range(m: RegExpExecArray): { start: number; end: number } {
  const start = Number(m[1]);
  const end = m[2] !== undefined ? Number(m[2]) : start;
  return { start, end: Math.max(start, end) };
}

/** A set of project files to resolve a path against: the graph's source files, or the whole inventory. */
export interface FileSet {
  has(path: string): boolean;
  paths(): Iterable<string>;
}

/**
 * The indexed file `written` refers to: the exact path; then, unless quoted, with `./` and
 * Windows separators normalized, an absolute path under `root` made relative, and finally the
 * longest path suffix that exactly one indexed file ends with (a path from another checkout or a
 * stack trace from another machine). A path that differs from one file's only in its Unicode
 * normalization (NFC typed for an NFD name, as macOS writes them) is that file. Undefined when
 * nothing fits; `outside_root` for a path that climbs out or is absolute elsewhere.
 */
export function findFile(
  files: FileSet,
  written: string,
  root: string | undefined,
  options: { quoted?: boolean; bySuffix?: boolean } = {},
): { path: string; note?: string } | undefined {
  const quoted = options.quoted ?? false;
  if (files.has(written)) return { path: written };
  if (quoted) return undefined;
  let text = written.trim();
  if (text.startsWith("file://")) {
    try {
      text = decodeURIComponent(new URL(text).pathname);
    } catch {
      // not a URL after all
    }
  }
  const windows = /^([A-Za-z]:[\\/]|\\\\)/.test(text);
  const absolute = windows || text.startsWith("/");
  // A POSIX path keeps its backslashes: there they are part of a file's name.
  const slashed = (p: string) => (windows ? p.replace(/\\/g, "/") : p);
  if (absolute) {
    const r = root === undefined ? undefined : slashed(root).replace(/\/+$/, "");
    const t = slashed(text);
    if (
      r &&
      (t === r || t.startsWith(`${r}/`) || (/^[A-Za-z]:/.test(r) && t.toLowerCase().startsWith(`${r.toLowerCase()}/`)))
    )
      text = t.slice(r.length + 1);
  }
  const rel =
    absolute && slashed(text).startsWith("/")
      ? undefined
      : normalizeRelative(text, windows || !absolute ? "any" : "posix");
  if (rel === undefined && !absolute) {
    const exact = normalizeRelative(text, "posix");
    if (exact !== undefined && files.has(exact)) return { path: exact };
  }
  if (rel !== undefined && rel !== "" && files.has(rel)) return { path: rel };
  if (rel === undefined && !absolute) {
    throw new EngineError("outside_root", `${inQuotes(written)} is outside the project.`, {
      hint: "Give a path inside the project root.",
      data: { target: written },
    });
  }
  if (rel !== undefined && rel !== "") {
    const same = byNormalForm(files, rel);
    if (same)
      return {
        path: same,
        note: `${written} matched ${inQuotes(same)}, the same name in another Unicode normalization`,
      };
  }
  if (options.bySuffix === false) return undefined;
  // Longest suffix match: `/home/ci/build/src/pkg/mod.py` → `src/pkg/mod.py` (or `pkg/mod.py`).
  const parts = slashed(text)
    .split("/")
    .filter((p) => p !== "" && p !== ".");
  for (let i = 0; i < parts.length; i++) {
    const suffix = parts.slice(i).join("/");
    const hits: string[] = [];
    for (const p of files.paths()) if (p === suffix || p.endsWith(`/${suffix}`)) hits.push(p);
    if (hits.length === 1)
      return {
        path: hits[0]!,
        note:
          `${written} matched ${hits[0]} by its last ${parts.length - i} path ` +
          `segment${parts.length - i > 1 ? "s" : ""}`,
      };
    if (hits.length > 1) {
      throw new EngineError(
        "ambiguous_symbol",
        `${inQuotes(written)} matches ${hits.length} files: ` +
          `${hits.slice(0, 8).join(", ")}${hits.length > 8 ? ", …" : ""}.`,
        {
          hint: "Give more of the path.",
          data: {
            target: written,
            candidates: hits.slice(0, 8).map((p) => ({ qualified: p, kind: "file", path: p, line: 1 })),
            total: hits.length,
          },
        },
      );
    }
  }
  return undefined;
}

/** The one file whose path equals `path` once both are NFC-normalized, if exactly one does. */
function byNormalForm(files: FileSet, path: string): string | undefined {
  const want = path.normalize("NFC");
  // Only a name with characters normalization can change (all ASCII cannot) is worth the walk.
  if (want === path && path.normalize("NFD") === path) return undefined;
  let hit: string | undefined;
  for (const p of files.paths()) {
    if (p.normalize("NFC") !== want) continue;
    if (hit !== undefined) return undefined;
    hit = p;
  }
  return hit;
}
