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

/**
 * The body of a run with several failures: the first failure's lines whole, then one line per distinct difference
 * of the others (`3× a.test.ts:3, :8, b.test.ts:2: expected …HttpOnly…, got …Httponly…`; `same as the first` when
 * it is the first failure's).
 */
export function failureLines(failures: readonly FailureReport[]): string[] {
  const [first, ...rest] = failures;
  if (!first) return [];
  const out = ["the first failure:", ...first.lines.map((l) => `  ${l}`)];
  if (!rest.length) return out;
  // (a difference at the end of one value and inside another is the same difference: `…HttpOnly`, `…HttpOnly…`)
  const key = (f: FailureReport) => f.brief.replaceAll("…", "");
  const byBrief = new Map<string, FailureReport[]>();
  for (const f of rest) (byBrief.get(key(f)) ?? byBrief.set(key(f), []).get(key(f))!).push(f);
  const folded = rest.reduce((n, f) => n + f.lines.length, 0) - byBrief.size;
  out.push(
    `${rest.length} more, a line per difference` +
      (folded > 0 ? ` (${folded} line${folded === 1 ? "" : "s"} folded):` : ":"),
  );
  for (const [k, group] of byBrief) {
    const where = places(group.flatMap((f) => (f.at ? [f.at] : [])));
    // (the first failure's lines already show that difference)
    const what = k === key(first) ? "same as the first" : group[0]!.brief;
    out.push(`  ${group.length > 1 ? `${group.length}× ` : ""}${where ? `${where}: ` : ""}${what}`);
  }
  return out;
}
