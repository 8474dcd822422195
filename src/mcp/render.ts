/** Small text helpers shared by the tools: code fences, citations, counts, texts fitted by whole lines. */
import { clipText, fenceTag, fitBlocks } from "../index.ts";

/**
 * A backtick fence longer than any run of backticks in `body` (at least three), so nothing in the
 * body can close it: a body holding ```` closed a four-tick fence and read as text after it.
 */
export function fenceFor(body: string): string {
  let longest = 0;
  for (const m of body.matchAll(/`{3,}/g)) longest = Math.max(longest, m[0].length);
  return "`".repeat(Math.max(3, longest + 1));
}

/** A fenced code block, with the language guessed from `path`; a longer fence when the body holds one. */
export function fence(path: string, body: string): string {
  const { open, close } = fenceLines(path, body);
  return `${open}\n${body}\n${close}`;
}

/** "1 file" / "3 files". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** `path:line` for a citation (the path quoted when it holds a newline, a backslash or a quote). */
export { cite as at } from "../index.ts";

/** The opening and closing lines of {@link fence}, for texts fitted line by line. */
export function fenceLines(path: string, body: string): { open: string; close: string } {
  const tick = fenceFor(body);
  return { open: `${tick}${fenceTag(path)}`, close: tick };
}

/**
 * Whole lines of a text under a limit, with the one fitter: the longest run of lines that fits
 * with its header and footer (which may cite how many were kept) and the envelope; a first line
 * longer than the whole limit (minified code) is clipped by characters instead.
 */
export function fitLines(o: {
  lines: readonly string[];
  header: (kept: number) => string;
  footer: (kept: number, clipped: boolean) => string;
  budget: number;
  envelope: number;
  count: (text: string) => number;
}): { text: string; kept: number; clipped: boolean } {
  const fit = (lines: readonly string[], clipped: boolean) =>
    fitBlocks({
      header: (s) => o.header(s.shown),
      blocks: lines.map((full) => ({ full })),
      budget: o.budget,
      count: o.count,
      separator: "\n",
      prefix: true,
      envelope: o.envelope,
      footer: (s) => o.footer(s.shown, clipped),
    });
  const whole = fit(o.lines, false);
  const kept = whole.forms.filter((f) => f === "full").length;
  if (kept > 0 || o.lines.length === 0) return { text: whole.text, kept, clipped: false };
  // Not even the first line fits: as many of its characters as the room left holds.
  const room = o.budget - whole.tokens - whole.envelope - 2;
  const clipped = fit([clipText(o.lines[0]!, Math.max(1, room), o.count)], true);
  return { text: clipped.text, kept: clipped.forms[0] === "full" ? 1 : 0, clipped: true };
}
