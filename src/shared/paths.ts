/** POSIX path helpers for workspace-relative paths ("" is the root; no leading "./" or "/"). */

/** Joins workspace-relative segments with "/", ignoring empty ones. */
export function joinPath(...parts: string[]): string {
  return parts.filter((p) => p !== "").join("/");
}

/** The parent of a workspace-relative path ("" for a top-level entry). */
export function dirname(path: string): string {
  const i = path.lastIndexOf("/");
  return i < 0 ? "" : path.slice(0, i);
}

/** The last segment of a path. */
export function basename(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/** The extension including the dot, lower-cased ("" when none). */
export function extname(path: string): string {
  const base = basename(path);
  const i = base.lastIndexOf(".");
  return i <= 0 ? "" : base.slice(i).toLowerCase();
}

/**
 * Normalizes a user- or code-supplied relative path: resolves "." and "..", collapses slashes,
 * and with `separators: "any"` (the default, for paths people and agents type) converts "\\" to
 * "/". File systems on POSIX hosts pass "posix": there a backslash is part of a file's name
 * (`back\\slash.py`), not a separator, and cannot climb out of the root. Returns undefined when
 * the path is absolute or climbs above the root, which is how every caller refuses paths that
 * escape the workspace.
 */
export function normalizeRelative(path: string, separators: "any" | "posix" = "any"): string | undefined {
  const p = separators === "any" ? path.replace(/\\/g, "/") : path;
  if (p.startsWith("/") || /^[a-zA-Z]:\//.test(p)) return undefined;
  const out: string[] = [];
  for (const seg of p.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") {
      if (out.length === 0) return undefined;
      out.pop();
    } else out.push(seg);
  }
  return out.join("/");
}

/** Resolves `spec` relative to the directory `fromDir`; undefined if it escapes the root. */
export function resolveRelative(fromDir: string, spec: string): string | undefined {
  return normalizeRelative(fromDir === "" ? spec : `${fromDir}/${spec}`);
}

/**
 * A path as citations print it: unchanged, or JSON-quoted when it holds a character that would
 * break reading `path:start-end` back (a control character such as a newline, a backslash, which
 * agents read as a Windows separator, or a double quote). Targets accept the quoted form too.
 */
export function citePath(path: string): string {
  return /[\u0000-\u001f\u007f\\"]/.test(path) ? JSON.stringify(path) : path;
}

/**
 * A name as an answer prints it: JSON-quoted when it holds a control character (a newline would end the header line).
 */
export function citeName(name: string): string {
  return /[\u0000-\u001f\u007f]/.test(name) ? JSON.stringify(name) : name;
}

/** `path:start-end` (or `path:line`), with the path quoted when it needs to be (see citePath). */
export function cite(path: string, start: number, end?: number): string {
  return `${citePath(path)}:${start}${end !== undefined ? `-${end}` : ""}`;
}

/**
 * Reads a quoted path at the start of `text` (`"a\\nb.py":3-9`, `"x\\\\y.py"::f`): the path and
 * what follows it, or undefined when `text` does not start with a complete JSON string.
 */
export function readQuotedPath(text: string): { path: string; rest: string } | undefined {
  if (!text.startsWith('"')) return undefined;
  for (let i = 1; i < text.length; i++) {
    if (text[i] === "\\") {
      i++;
      continue;
    }
    if (text[i] === '"') {
      try {
        return { path: JSON.parse(text.slice(0, i + 1)) as string, rest: text.slice(i + 1) };
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}
