/**
 * Several failures of one run as text: the failing ids with the file and suite they share written once, the first
 * failure's lines whole, and the others a line per difference (failures that differ the same way share a line that
 * says where each happened), with a count of the detail lines folded.
 */
import type { FailureReport } from "./run-output.ts";

/** Separators of a test id's parts: pytest's `::`, Vitest's and Jest's ` > `. */
const ID_PART = / > |::/g;

/** The part of an id before its last separator, the separator included, if it has one. */
function parentOf(id: string): string | undefined {
  let end = -1;
  for (const m of id.matchAll(ID_PART)) end = m.index + m[0].length;
  return end < 0 ? undefined : id.slice(0, end);
}

/**
 * The ids as lines, those that share a parent (file, class, `describe`) under it: `  tests/a.py::TestX::` then
 * `    test_y[1]`, `    test_y[2]`. Each id reads whole as its parent followed by its line.
 */
export function groupedIds(ids: readonly string[]): string[] {
  const groups = new Map<string, string[]>();
  for (const id of ids) {
    const key = parentOf(id) ?? id;
    (groups.get(key) ?? groups.set(key, []).get(key)!).push(id);
  }
  return [...groups].flatMap(([parent, members]) =>
    members.length < 2
      ? members.map((id) => `  ${id}`)
      : [`  ${parent.trimEnd()}`, ...members.map((id) => `    ${id.slice(parent.length)}`)],
  );
}

/** Places a line lists at most; the rest are counted. */
const MAX_PLACES = 8;

/** Where failures happened, each file named once and lines without their column: `a.test.ts:3, :8, b.test.ts:2`. */
function places(at: readonly string[]): string {
  const unique = [...new Set(at.map((p) => p.replace(/(:\d+):\d+$/, "$1")))];
  let file = "";
  const shown = unique.slice(0, MAX_PLACES).map((p) => {
    const m = /^(.+?)(:\d+)$/.exec(p);
    if (!m) return p;
    const same = m[1] === file;
    file = m[1]!;
    return same ? m[2]! : p;
  });
  const more = unique.length - shown.length;
  return `${shown.join(", ")}${more ? ` and ${more} more` : ""}`;
}

/** Values a merged line spells out at most; the rest are counted. */
const MAX_VALUES = 4;

/**
 * Several one-line forms as one: their common start and end once, what differs between them in braces
 * (`assert 'Malformed' in "Signature b'{Pcm2…|AGBf…}' does not match"`).
 */
function merged(briefs: readonly string[]): string {
  const unique = [...new Set(briefs)];
  if (unique.length === 1) return unique[0]!;
  const a = unique[0]!;
  let head = a.length;
  let tail = a.length;
  for (const b of unique.slice(1)) {
    let h = 0;
    while (h < head && h < b.length && a[h] === b[h]) h++;
    let t = 0;
    while (t < tail && t < a.length - h && t < b.length - h && a[a.length - 1 - t] === b[b.length - 1 - t]) t++;
    head = h;
    tail = t;
  }
  const word = /[\w$-]/;
  while (head > 0 && word.test(a[head - 1]!)) head--;
  while (tail > 0 && word.test(a[a.length - tail]!)) tail--;
  const middles = unique.map((b) => b.slice(head, b.length - tail));
  const more = middles.length - MAX_VALUES;
  const shown = [...middles.slice(0, MAX_VALUES), ...(more > 0 ? [`${more} more`] : [])];
  return `${a.slice(0, head)}{${shown.join("|")}}${a.slice(a.length - tail)}`;
}

/**
 * The body of a run with several failures: the first failure's lines whole, then the others folded: failures at the
 * same place are one line (their differing values in braces), and places whose failures read the same share a line
 * (`3× a.test.ts:3, :8, b.test.ts:2: expected …HttpOnly…, got …Httponly…`; `same as the first` when it is the first
 * failure's).
 */
export function failureLines(failures: readonly FailureReport[]): string[] {
  const [first, ...rest] = failures;
  if (!first) return [];
  const out = ["the first failure:", ...first.lines.map((l) => `  ${l}`)];
  if (!rest.length) return out;
  // (a difference at the end of one value and inside another is the same difference: `…HttpOnly`, `…HttpOnly…`)
  const key = (brief: string) => brief.replaceAll("…", "");
  const atPlace = new Map<string, FailureReport[]>();
  rest.forEach((f, i) => {
    const k = f.at ?? `#${i}`;
    (atPlace.get(k) ?? atPlace.set(k, []).get(k)!).push(f);
  });
  const lines = new Map<string, { text: string; count: number; at: string[] }>();
  for (const group of atPlace.values()) {
    const text = merged(group.map((f) => f.brief));
    const k = key(text);
    const line = lines.get(k) ?? lines.set(k, { text, count: 0, at: [] }).get(k)!;
    line.count += group.length;
    line.at.push(...group.flatMap((f) => (f.at ? [f.at] : [])));
  }
  const folded = rest.reduce((n, f) => n + f.lines.length, 0) - lines.size;
  out.push(
    `${rest.length} more, a line per difference` +
      (folded > 0 ? ` (${folded} line${folded === 1 ? "" : "s"} folded):` : ":"),
  );
  for (const [k, line] of lines) {
    const where = places(line.at);
    // (the first failure's lines already show that difference)
    const what = k === key(first.brief) ? "same as the first" : line.text;
    out.push(`  ${line.count > 1 ? `${line.count}× ` : ""}${where ? `${where}: ` : ""}${what}`);
  }
  return out;
}
