/**
 * Keeping answers under the response cap without cutting an entry in half: list answers keep
 * the longest prefix of whole entries that fits; text answers keep whole lines.
 */

/**
 * The largest `k` (0..n) for which `fits(k)` holds, assuming `fits` is monotone (true up to some
 * k, false after). Binary search: each probe renders and counts once, so a list of thousands of
 * entries costs a dozen renders, not thousands.
 */
export function largestFitting(n: number, fits: (k: number) => boolean): number {
  if (fits(n)) return n;
  let lo = 0;
  let hi = n; // fits(lo) is assumed (an empty list always fits), fits(hi) is false
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if (fits(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

/**
 * Keeps the longest run of whole lines of `text` whose token count fits `limit`; a single line
 * longer than the limit (a minified file) is cut by characters. Returns the kept text and how
 * many lines were dropped.
 */
export function capLines(text: string, limit: number, count: (t: string) => number): { text: string; keptLines: number; droppedLines: number } {
  const lines = text.split("\n");
  if (count(text) <= limit) return { text, keptLines: lines.length, droppedLines: 0 };
  const k = largestFitting(lines.length, (n) => count(lines.slice(0, n).join("\n")) <= limit);
  if (k > 0) return { text: lines.slice(0, k).join("\n"), keptLines: k, droppedLines: lines.length - k };
  // Not even the first line fits: keep as many of its characters as fit.
  const first = lines[0]!;
  const chars = largestFitting(first.length, (n) => count(first.slice(0, n)) <= limit);
  return { text: `${first.slice(0, chars)}…`, keptLines: 1, droppedLines: lines.length - 1 };
}
