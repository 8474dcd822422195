/**
 * Did-you-mean for the front ends: the known words closest to a mistyped command, flag or tool
 * argument.
 */
import { quoted } from "./quote.ts";

/**
 * The optimal-string-alignment form of the Damerau–Levenshtein distance between `a` and `b`:
 * insertions, deletions, substitutions and transpositions of two neighbouring characters each
 * cost 1 (`budjet` → `budget` is 1, `contxt` → `context` is 1, `cotnext` → `context` is 1).
 */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array<number>(rows * cols);
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[(i - 1) * cols + j]! + 1, d[i * cols + j - 1]! + 1, d[(i - 1) * cols + j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, d[(i - 2) * cols + j - 2]! + 1);
      d[i * cols + j] = best;
    }
  }
  return d[rows * cols - 1]!;
}

/** The most edits a suggestion may be away from what was typed. */
const MAX_DISTANCE = 2;

/**
 * The known words `typed` most likely meant, best first: those within edit distance 2 (closest
 * first), else the one word `typed` is a clear prefix of (at least 3 characters, and no other
 * word starts with it). Ties keep the order of `known`. Empty when nothing is close: a guess
 * that is far off misleads more than no guess.
 */
export function suggest(typed: string, known: readonly string[]): string[] {
  const word = typed.toLowerCase();
  // One letter (`-x`) is one edit from every other letter: no guess says anything.
  if (word.length < 2) return [];
  // A short word is within 2 edits of almost anything short: "ab" is 2 from "map".
  const limit = Math.min(MAX_DISTANCE, Math.max(1, Math.floor(word.length / 2)));
  const near = known
    .map((k, i) => ({ k, i, d: editDistance(word, k.toLowerCase()) }))
    .filter((x) => x.d > 0 && x.d <= limit)
    .sort((x, y) => x.d - y.d || x.i - y.i)
    .map((x) => x.k);
  if (near.length) return near;
  const prefixed = known.filter((k) => k.toLowerCase().startsWith(word));
  return word.length >= 3 && prefixed.length === 1 ? prefixed : [];
}

/** ` Did you mean "a"?` / ` Did you mean "a" or "b"?`, or "" when there is nothing to suggest. */
export function didYouMean(suggestions: readonly string[], quote: (s: string) => string = quoted): string {
  if (!suggestions.length) return "";
  const shown = suggestions.slice(0, 3).map(quote);
  return ` Did you mean ${shown.length > 1 ? `${shown.slice(0, -1).join(", ")} or ${shown.at(-1)}` : shown[0]}?`;
}
