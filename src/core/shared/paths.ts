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
 * converts "\\" to "/". Returns undefined when the path is absolute or climbs above the root,
 * which is how every caller refuses paths that escape the workspace.
 */
export function normalizeRelative(path: string): string | undefined {
  const p = path.replace(/\\/g, "/");
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
