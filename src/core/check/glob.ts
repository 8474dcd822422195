/** Glob patterns over project paths (`src/core/**`, `src/*.ts`, `{a,b}`), as the check config writes them. */

/**
 * A glob as a regular expression over a whole `/`-separated relative path: `**` spans folders,
 * `*` and `?` stay within one, `{a,b}` is either. A pattern with no glob character is an exact
 * path, and a pattern ending in `/` is the folder and everything under it.
 */
export function globToRegExp(glob: string): RegExp {
  const pattern = glob.endsWith("/") ? `${glob}**` : glob;
  let out = "";
  let braces = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "*" && pattern[i + 1] === "*") {
      const slash = pattern[i + 2] === "/";
      out += slash ? "(?:.*/)?" : ".*";
      i += slash ? 2 : 1;
    } else if (c === "*") out += "[^/]*";
    else if (c === "?") out += "[^/]";
    else if (c === "{") {
      braces++;
      out += "(?:";
    } else if (c === "}" && braces > 0) {
      braces--;
      out += ")";
    } else if (c === "," && braces > 0) out += "|";
    else out += c.replace(/[.+^$()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${out}$`);
}

/** A test for "any of these globs". */
export function globMatcher(globs: readonly string[]): (path: string) => boolean {
  const res = globs.map(globToRegExp);
  return (path) => res.some((re) => re.test(path));
}
