/**
 * Unified diffs as people paste them: `git diff` / `git format-patch` output (renames, copies,
 * modes, binary markers) and plain `diff -u` / `diff -ruN`. Parsing yields one patch per file;
 * applying checks every context and removed line against the file, forwards (the tree is the
 * diff's old side) or backwards (the diff is already applied), and says where it fails.
 */
import { EngineError } from "../../shared/errors.ts";

/** One hunk; `lines` keep their first character (' ', '-' or '+'). */
export interface PatchHunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: string[];
  /** `\ No newline at end of file` after the old side's last line / the new side's. */
  oldNoNewline?: boolean;
  newNoNewline?: boolean;
}

/** The changes to one file. */
export interface FilePatch {
  /** Path before (undefined: the file is added). */
  oldPath?: string;
  /** Path after (undefined: the file is deleted). */
  newPath?: string;
  status: "added" | "deleted" | "modified" | "renamed" | "copied";
  binary: boolean;
  hunks: PatchHunk[];
  /** Abbreviated blob ids from the `index a..b` line, when the diff has one. */
  oldBlob?: string;
  newBlob?: string;
}

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/** Unquotes a git path ("a/caf\303\251.py" with C escapes). */
function unquote(path: string): string {
  if (!path.startsWith('"')) return path;
  const body = path.slice(1, path.lastIndexOf('"'));
  const bytes: number[] = [];
  const enc = new TextEncoder();
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== "\\") {
      for (const b of enc.encode(c)) bytes.push(b);
      continue;
    }
    const n = body[++i]!;
    if (/[0-7]/.test(n)) {
      bytes.push(parseInt(body.slice(i, i + 3), 8));
      i += 2;
    } else
      bytes.push(
        ({ n: 10, t: 9, r: 13, '"': 34, "\\": 92, a: 7, b: 8, f: 12, v: 11 } as Record<string, number>)[n] ??
          n.charCodeAt(0),
      );
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

/** The path of a `---`/`+++` line: unquoted, timestamp dropped, `/dev/null` as undefined. */
function headerPath(rest: string): string | undefined {
  let p = rest.startsWith('"')
    ? unquote(rest)
    : rest.split("\t")[0]!.replace(/\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)? [+-]\d{4}$/, "");
  p = p.trimEnd();
  return p === "/dev/null" ? undefined : p;
}

/** `a/x` → `x` when every path of the diff carries git's a/ b/ prefixes. */
function stripPrefix(path: string | undefined, prefix: string): string | undefined {
  return path !== undefined && path.startsWith(prefix) ? path.slice(prefix.length) : path;
}

/** Splits `diff --git a/x b/y` into its two paths (quoted ones too; same-name paths with spaces by symmetry). */
function gitHeaderPaths(rest: string): [string, string] | undefined {
  if (rest.startsWith('"')) {
    let k = 1;
    while (k < rest.length && !(rest[k] === '"' && rest[k - 1] !== "\\")) k++;
    const second = rest.slice(k + 2);
    return [unquote(rest.slice(0, k + 1)), unquote(second)];
  }
  const half = (rest.length - 1) / 2;
  if (Number.isInteger(half) && rest[half] === " " && rest.slice(2, half) === rest.slice(half + 3))
    return [rest.slice(0, half), rest.slice(half + 1)];
  const m = /^(\S+) (\S+)$/.exec(rest) ?? /^(.*?) (b\/.*)$/.exec(rest);
  return m ? [m[1]!, m[2]!] : undefined;
}

function invalid(message: string, line?: number): EngineError {
  return new EngineError("invalid_diff", message, {
    hint: "Pass the output of `git diff` (or `diff -u`), whole: every hunk with its @@ header and all its lines.",
    data: line !== undefined ? { line } : {},
  });
}

/** A git extended header line (`old mode …`, `rename from …`, `index …`): its key and value. */
const EXTENDED_HEADER = new RegExp(
  String.raw`^(old mode|new mode|deleted file mode|new file mode|rename from|rename to|copy from|` +
    String.raw`copy to|similarity index|dissimilarity index|index) ?(.*)$`,
);

/** Parses a unified diff. Throws `invalid_diff` when it holds no file changes or a hunk is cut short. */
export function parseUnifiedDiff(text: string): FilePatch[] {
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  const patches: FilePatch[] = [];
  type Draft = Omit<FilePatch, "oldPath" | "newPath" | "oldBlob" | "newBlob"> & {
    git: boolean;
    oldPath?: string | undefined;
    newPath?: string | undefined;
    oldBlob?: string | undefined;
    newBlob?: string | undefined;
  };
  let current: Draft | undefined;
  const finish = () => {
    if (!current) return;
    const { git, oldPath, newPath, oldBlob, newBlob, ...rest } = current;
    if (git || oldPath !== undefined || newPath !== undefined) {
      patches.push({
        ...rest,
        ...(oldPath !== undefined ? { oldPath } : {}),
        ...(newPath !== undefined ? { newPath } : {}),
        ...(oldBlob ? { oldBlob } : {}),
        ...(newBlob ? { newBlob } : {}),
      });
    }
    current = undefined;
  };
  const meta = (l: string) => l.replace(/\r$/, "");
  for (let i = 0; i < lines.length; i++) {
    const line = meta(lines[i]!);
    if (line.startsWith("diff --git ")) {
      finish();
      const paths = gitHeaderPaths(line.slice(11));
      current = { git: true, status: "modified", binary: false, hunks: [] };
      if (paths) {
        current.oldPath = paths[0];
        current.newPath = paths[1];
      }
      continue;
    }
    if (current?.git && current.hunks.length === 0) {
      const ext = EXTENDED_HEADER.exec(line);
      if (ext) {
        const [, key, value] = ext;
        if (key === "deleted file mode") {
          current.status = "deleted";
        } else if (key === "new file mode") {
          current.status = "added";
        } else if (key === "rename from" || key === "copy from") {
          current.oldPath = `a/${unquote(value!)}`;
          current.status = key === "rename from" ? "renamed" : "copied";
        } else if (key === "rename to" || key === "copy to") {
          current.newPath = `b/${unquote(value!)}`;
        } else if (key === "index") {
          const m = /^([0-9a-f]+)\.\.([0-9a-f]+)/.exec(value!);
          if (m) {
            current.oldBlob = m[1];
            current.newBlob = m[2];
          }
        }
        continue;
      }
      if (/^Binary files .* differ$/.test(line) || line === "GIT binary patch") {
        current.binary = true;
        continue;
      }
    }
    if (line.startsWith("--- ") && i + 1 < lines.length && meta(lines[i + 1]!).startsWith("+++ ")) {
      if (!current?.git || current.hunks.length > 0) {
        finish();
        current = { git: false, status: "modified", binary: false, hunks: [] };
      }
      const from = headerPath(line.slice(4));
      const to = headerPath(meta(lines[i + 1]!).slice(4));
      current.oldPath = from;
      current.newPath = to;
      if (from === undefined) current.status = "added";
      else if (to === undefined) current.status = "deleted";
      i++;
      continue;
    }
    const h = HUNK.exec(line);
    if (h && current) {
      const hunk: PatchHunk = {
        oldStart: Number(h[1]),
        oldLines: h[2] === undefined ? 1 : Number(h[2]),
        newStart: Number(h[3]),
        newLines: h[4] === undefined ? 1 : Number(h[4]),
        lines: [],
      };
      let olds = 0;
      let news = 0;
      let last = " ";
      while (olds < hunk.oldLines || news < hunk.newLines || (i + 1 < lines.length && lines[i + 1]!.startsWith("\\"))) {
        if (++i >= lines.length)
          throw invalid(
            `The diff ends inside a hunk of ${current.newPath ?? current.oldPath}: ${hunk.oldLines - olds} old ` +
              `and ${hunk.newLines - news} new lines are missing.`,
            i,
          );
        let l = lines[i]!;
        if (l.startsWith("\\")) {
          if (last === "+") hunk.newNoNewline = true;
          else if (last === "-") hunk.oldNoNewline = true;
          else {
            hunk.oldNoNewline = true;
            hunk.newNoNewline = true;
          }
          continue;
        }
        // Editors and mail clients strip the lone space of an empty context line.
        if (l === "" || l === "\r") l = ` ${l}`;
        const c = l[0];
        if (c === " ") {
          olds++;
          news++;
        } else if (c === "-") olds++;
        else if (c === "+") news++;
        else
          throw invalid(
            `Line ${i + 1} of the diff is inside a hunk of ${current.newPath ?? current.oldPath} but starts ` +
              `with neither ' ', '-' nor '+'.`,
            i + 1,
          );
        last = c;
        hunk.lines.push(l);
      }
      if (olds !== hunk.oldLines || news !== hunk.newLines)
        throw invalid(`A hunk of ${current.newPath ?? current.oldPath} has more lines than its @@ header says.`, i + 1);
      current.hunks.push(hunk);
      continue;
    }
  }
  finish();
  if (patches.length === 0)
    throw invalid("The text holds no file changes (no `diff --git` or `---`/`+++` headers with hunks).");
  // git's a/ and b/ prefixes, when every path carries them (diff -u output has none).
  const all = patches.flatMap((p) => [p.oldPath, p.newPath]).filter((p): p is string => p !== undefined);
  const gitPrefixes =
    patches.every(
      (p) =>
        (p.oldPath === undefined || p.oldPath.startsWith("a/")) &&
        (p.newPath === undefined || p.newPath.startsWith("b/")),
    ) && all.length > 0;
  for (const p of patches) {
    if (gitPrefixes) {
      if (p.oldPath !== undefined) p.oldPath = stripPrefix(p.oldPath, "a/")!;
      if (p.newPath !== undefined) p.newPath = stripPrefix(p.newPath, "b/")!;
    }
    if (p.status === "added") delete p.oldPath;
    if (p.status === "deleted") delete p.newPath;
    if (p.status === "modified" && p.oldPath !== undefined && p.newPath !== undefined && p.oldPath !== p.newPath)
      p.status = "renamed";
  }
  return patches;
}

/** A file's content as lines, and whether it ends with a newline. */
export interface Lines {
  lines: string[];
  finalNewline: boolean;
}

export function toLines(text: string): Lines {
  if (text === "") return { lines: [], finalNewline: true };
  const lines = text.split("\n");
  const finalNewline = lines[lines.length - 1] === "";
  if (finalNewline) lines.pop();
  return { lines, finalNewline };
}

export function fromLines(l: Lines): string {
  return l.lines.length === 0 ? "" : l.lines.join("\n") + (l.finalNewline ? "\n" : "");
}

/** Where applying failed: the hunk (0-based) and the line the diff expected there. */
export interface ApplyFailure {
  hunk: number;
  expectedAt: number;
  expected: string;
}

/** How far from its stated line a hunk may be found (other edits above it move it). */
const MAX_OFFSET = 1000;

const same = (a: string, b: string) => a === b || a.replace(/\r$/, "") === b.replace(/\r$/, "");

/**
 * Applies `hunks` to `content` (backwards when `reverse`: the '+' lines must be there and become
 * the '-' lines). Returns the result and how many lines were verified, or where it fails.
 */
export function applyHunks(
  content: Lines,
  hunks: PatchHunk[],
  reverse: boolean,
): { ok: true; result: Lines; verified: number } | { ok: false; failure: ApplyFailure } {
  const out: string[] = [];
  let pos = 0; // next unconsumed line of content
  let drift = 0;
  let verified = 0;
  let finalNewline = content.finalNewline;
  for (let h = 0; h < hunks.length; h++) {
    const hunk = hunks[h]!;
    const from = reverse ? "+" : "-";
    const want = hunk.lines.filter((l) => l[0] === " " || l[0] === from).map((l) => l.slice(1));
    const give = hunk.lines.filter((l) => l[0] === " " || l[0] === (reverse ? "-" : "+")).map((l) => l.slice(1));
    const start = reverse ? hunk.newStart : hunk.oldStart;
    const count = reverse ? hunk.newLines : hunk.oldLines;
    // A hunk with no old lines inserts after line `start`; otherwise its first old line is `start`.
    const expected = (count === 0 ? start : start - 1) + drift;
    const matchesAt = (at: number) =>
      at >= pos && at + want.length <= content.lines.length && want.every((w, k) => same(content.lines[at + k]!, w));
    let at = -1;
    for (let d = 0; d <= MAX_OFFSET && at < 0; d++) {
      if (matchesAt(expected + d)) at = expected + d;
      else if (d > 0 && matchesAt(expected - d)) at = expected - d;
      if (expected + d > content.lines.length && expected - d < pos) break;
    }
    if (at < 0) {
      const firstBad = want.findIndex((w, k) => !same(content.lines[expected + k] ?? "", w));
      return {
        ok: false,
        failure: {
          hunk: h,
          expectedAt: expected + Math.max(0, firstBad) + 1,
          expected: want[Math.max(0, firstBad)] ?? "",
        },
      };
    }
    drift = at - (count === 0 ? start : start - 1);
    verified += want.length;
    // Loops, not push(...lines): a spread of a 140,000-line file overflows the stack.
    for (let i = pos; i < at; i++) out.push(content.lines[i]!);
    for (const line of give) out.push(line);
    pos = at + want.length;
    if (pos >= content.lines.length) {
      const noNewline = reverse ? hunk.oldNoNewline : hunk.newNoNewline;
      finalNewline = !noNewline;
    }
  }
  for (let i = pos; i < content.lines.length; i++) out.push(content.lines[i]!);
  return { ok: true, result: { lines: out, finalNewline }, verified };
}
