/**
 * Line diffs: Myers' O(ND) algorithm (what `git diff` uses by default) on the lines between the
 * common prefix and suffix, falling back to unique-line anchors (patience diff) when the edit
 * distance is large, so a rewritten file costs milliseconds, not the D² memory Myers would need.
 */

/** A run of changed lines, 1-based as in a unified diff header (`@@ -oldStart,oldLines +newStart,newLines @@`). */
export interface Hunk {
  /** First old line (for a pure insertion: the line after which the new lines go, 0 at the top). */
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
}

/** Past this edit distance Myers' trace grows too large: anchors split the problem instead. */
const MAX_EDIT_DISTANCE = 2000;

/** Splits text into lines the way a diff sees them: a final newline ends the last line, it does not start another. */
export function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/**
 * Pairs (i, j) of equal lines, increasing in both, forming a longest common subsequence (approximately, past
 * MAX_EDIT_DISTANCE).
 */
function matchRange(
  a: Int32Array,
  b: Int32Array,
  aLo: number,
  aHi: number,
  bLo: number,
  bHi: number,
  out: [number, number][],
): void {
  while (aLo < aHi && bLo < bHi && a[aLo] === b[bLo]) out.push([aLo++, bLo++]);
  const tail: [number, number][] = [];
  while (aLo < aHi && bLo < bHi && a[aHi - 1] === b[bHi - 1]) tail.push([--aHi, --bHi]);
  if (aLo < aHi && bLo < bHi && !myers(a, b, aLo, aHi, bLo, bHi, out)) patience(a, b, aLo, aHi, bLo, bHi, out);
  for (let k = tail.length - 1; k >= 0; k--) out.push(tail[k]!);
}

/** Myers' greedy algorithm with a trace; false (and nothing written) when the distance exceeds the cap. */
function myers(
  a: Int32Array,
  b: Int32Array,
  aLo: number,
  aHi: number,
  bLo: number,
  bHi: number,
  out: [number, number][],
): boolean {
  const n = aHi - aLo;
  const m = bHi - bLo;
  const max = Math.min(n + m, MAX_EDIT_DISTANCE);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[aLo + x] === b[bLo + y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        // Walk the trace back from (n, m), collecting the diagonal (equal) steps.
        const pairs: [number, number][] = [];
        let cx = n;
        let cy = m;
        for (let dd = d; dd > 0; dd--) {
          const prev = trace[dd]!; // v before step dd, centred: index (k' + dd + 1)
          const kk = cx - cy;
          const at = (kq: number) => prev[kq + dd + 1]!;
          const down = kk === -dd || (kk !== dd && at(kk - 1) < at(kk + 1));
          const pk = down ? kk + 1 : kk - 1;
          const px = at(pk);
          const py = px - pk;
          const sx = down ? px : px + 1;
          const sy = sx - kk;
          while (cx > sx && cy > sy) pairs.push([aLo + --cx, bLo + --cy]);
          cx = px;
          cy = py;
        }
        while (cx > 0 && cy > 0) pairs.push([aLo + --cx, bLo + --cy]);
        for (let i = pairs.length - 1; i >= 0; i--) out.push(pairs[i]!);
        return true;
      }
    }
  }
  return false;
}

/** Lines unique on both sides, in increasing order on both (longest such chain), then each gap recursively. */
function patience(
  a: Int32Array,
  b: Int32Array,
  aLo: number,
  aHi: number,
  bLo: number,
  bHi: number,
  out: [number, number][],
): void {
  const count = new Map<number, { a: number; b: number; ai: number; bi: number }>();
  for (let i = aLo; i < aHi; i++) {
    const c = count.get(a[i]!) ?? { a: 0, b: 0, ai: i, bi: -1 };
    c.a++;
    count.set(a[i]!, c);
  }
  for (let j = bLo; j < bHi; j++) {
    const c = count.get(b[j]!);
    if (c) {
      c.b++;
      c.bi = j;
    }
  }
  const unique = [...count.values()].filter((c) => c.a === 1 && c.b === 1).sort((x, y) => x.ai - y.ai);
  if (unique.length === 0) return; // nothing anchors: the whole range is one replacement
  // Longest increasing subsequence on b positions (patience sorting).
  const piles: number[] = [];
  const back = new Int32Array(unique.length).fill(-1);
  const top: number[] = [];
  unique.forEach((u, i) => {
    let lo = 0;
    let hi = piles.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (piles[mid]! < u.bi) lo = mid + 1;
      else hi = mid;
    }
    piles[lo] = u.bi;
    top[lo] = i;
    back[i] = lo > 0 ? top[lo - 1]! : -1;
  });
  const chain: number[] = [];
  for (let i = top[piles.length - 1]!; i >= 0; i = back[i]!) chain.push(i);
  chain.reverse();
  let pa = aLo;
  let pb = bLo;
  for (const i of chain) {
    const u = unique[i]!;
    matchRange(a, b, pa, u.ai, pb, u.bi, out);
    out.push([u.ai, u.bi]);
    pa = u.ai + 1;
    pb = u.bi + 1;
  }
  matchRange(a, b, pa, aHi, pb, bHi, out);
}

/** The hunks that turn `oldLines` into `newLines`. */
export function diffLines(oldLines: readonly string[], newLines: readonly string[]): Hunk[] {
  const ids = new Map<string, number>();
  const intern = (lines: readonly string[]) =>
    Int32Array.from(lines, (l) => ids.get(l) ?? ids.set(l, ids.size).get(l)!);
  const a = intern(oldLines);
  const b = intern(newLines);
  const pairs: [number, number][] = [];
  matchRange(a, b, 0, a.length, 0, b.length, pairs);
  const hunks: Hunk[] = [];
  let i = 0;
  let j = 0;
  const flush = (ni: number, nj: number) => {
    if (ni > i || nj > j)
      hunks.push({ oldStart: ni > i ? i + 1 : i, oldLines: ni - i, newStart: nj > j ? j + 1 : j, newLines: nj - j });
  };
  for (const [pi, pj] of pairs) {
    flush(pi, pj);
    i = pi + 1;
    j = pj + 1;
  }
  flush(a.length, b.length);
  return hunks;
}
