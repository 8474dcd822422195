/** Multi-file fixtures written as one string: no imports, so Node-side helpers (vitest browser commands) load it as it is. */

/**
 * Splits a multi-file fixture written as one string with `//- path` (or `#- path`) marker lines
 * into `{ path: content }`.
 */
export function parseFixture(text: string): Record<string, string> {
  text = dedent(text);
  const files: Record<string, string> = {};
  let current: string | undefined;
  let lines: string[] = [];
  const flush = () => {
    if (current !== undefined) files[current] = lines.join("\n").replace(/^\n+/, "");
  };
  for (const line of text.split("\n")) {
    const m = /^\s*(?:\/\/|#)- (\S+)\s*$/.exec(line);
    if (m) {
      flush();
      current = m[1]!;
      lines = [];
    } else if (current !== undefined) lines.push(line);
  }
  flush();
  return files;
}

/** Removes the indentation common to all non-blank lines (fixtures live in indented template strings). */
export function dedent(text: string): string {
  const lines = text.split("\n");
  const indents = lines.filter((l) => l.trim() !== "").map((l) => /^[ \t]*/.exec(l)![0].length);
  const cut = indents.length ? Math.min(...indents) : 0;
  return lines.map((l) => l.slice(cut)).join("\n");
}
