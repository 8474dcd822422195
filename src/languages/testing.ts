/** Helpers the languages' test conventions share: shell quoting, regex escaping, string literals. */

/** A word as a POSIX shell reads it: bare when it is safe, else in single quotes. */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** `text` matched literally inside a regular expression (JavaScript, Go RE2 and libtest alike). */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/**
 * The value of a string literal as written (`"a"`, `'a'`, a template without substitutions), or
 * undefined when it is not one: a computed title names no test.
 */
export function stringLiteral(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const m = /^(["'`])([\s\S]*)\1$/.exec(text.trim());
  if (!m) return undefined;
  if (m[1] === "`" && m[2]!.includes("${")) return undefined;
  return m[2]!.replace(/\\(["'`\\])/g, "$1");
}

/** The folder of a path ("" at the root). */
export function folderOf(path: string): string {
  const i = path.lastIndexOf("/");
  return i < 0 ? "" : path.slice(0, i);
}

/** Items grouped by a key, in first-seen order. */
export function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) (out.get(key(item)) ?? out.set(key(item), []).get(key(item))!).push(item);
  return out;
}
