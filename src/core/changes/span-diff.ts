/**
 * A definition's diff as a reader wants it: every line of the definition, prefixed ' ', '-' or
 * '+' (the whole symbol, old lines where they went), or only its changed lines with a little
 * context when the whole does not fit.
 */
import type { Hunk } from "./line-diff.ts";

/** One line of an aligned diff: old and new line numbers (0 when the line is not on that side). */
interface Aligned {
  mark: " " | "-" | "+";
  oldLine: number;
  newLine: number;
}

/** Walks the two files in step, calling `emit` per aligned line from `fromOld`/`fromNew` on until it returns false. */
function align(hunks: readonly Hunk[], oldCount: number, newCount: number, emit: (a: Aligned) => boolean | void): void {
  let i = 1;
  let j = 1;
  for (const h of hunks) {
    const equalUntil = h.oldLines > 0 ? h.oldStart - 1 : h.oldStart;
    for (; i <= equalUntil; i++, j++) if (emit({ mark: " ", oldLine: i, newLine: j }) === false) return;
    for (let k = 0; k < h.oldLines; k++, i++) if (emit({ mark: "-", oldLine: i, newLine: 0 }) === false) return;
    for (let k = 0; k < h.newLines; k++, j++) if (emit({ mark: "+", oldLine: 0, newLine: j }) === false) return;
  }
  for (; i <= oldCount && j <= newCount; i++, j++) if (emit({ mark: " ", oldLine: i, newLine: j }) === false) return;
}

/** Line spans on each side (1-based, inclusive); either may be absent. */
export interface Spans {
  old?: [number, number];
  new?: [number, number];
}

const inSpan = (line: number, span: [number, number] | undefined) =>
  span !== undefined && line >= span[0] && line <= span[1];

/** The aligned lines of a definition: context from the new side, removed lines from the old side's span. */
function spanLines(
  oldLines: readonly string[],
  newLines: readonly string[],
  hunks: readonly Hunk[],
  spans: Spans,
): { mark: string; text: string; newLine: number }[] {
  const out: { mark: string; text: string; newLine: number }[] = [];
  const last = Math.max(spans.new?.[1] ?? 0, 0);
  const lastOld = Math.max(spans.old?.[1] ?? 0, 0);
  align(hunks, oldLines.length, newLines.length, (a) => {
    if (a.newLine > last && a.oldLine > lastOld) return false;
    const keep =
      a.mark === "-"
        ? inSpan(a.oldLine, spans.old)
        : a.mark === "+"
          ? inSpan(a.newLine, spans.new)
          : inSpan(a.newLine, spans.new) || (spans.new === undefined && inSpan(a.oldLine, spans.old));
    if (keep)
      out.push({
        mark: a.mark,
        text: a.mark === "-" ? oldLines[a.oldLine - 1]! : newLines[a.newLine - 1]!,
        newLine: a.newLine,
      });
    return true;
  });
  return out;
}

/** The whole definition with ' ', '-', '+' marks. */
export function fullSpanDiff(
  oldLines: readonly string[],
  newLines: readonly string[],
  hunks: readonly Hunk[],
  spans: Spans,
): string {
  return spanLines(oldLines, newLines, hunks, spans)
    .map((l) => `${l.mark}${l.text}`)
    .join("\n");
}

/**
 * Only the changed lines of a definition, with `context` lines around each run and "⋯" where
 * lines were left out; the definition's first line always leads, so the reader knows whose lines
 * these are, and the unchanged lines `outlineLines` names (new side: the headers of the nested
 * definitions) stay, so the rest reads as an outline; lines past `maxLine` characters end in "…".
 * Undefined when nothing in the span changed.
 */
export function compactSpanDiff(
  oldLines: readonly string[],
  newLines: readonly string[],
  hunks: readonly Hunk[],
  spans: Spans,
  context = 2,
  outlineLines: ReadonlySet<number> = new Set(),
  maxLine = Infinity,
): string | undefined {
  const lines = spanLines(oldLines, newLines, hunks, spans);
  const changed = lines.map((l) => l.mark !== " ");
  if (!changed.some(Boolean)) return undefined;
  const keep = lines.map(
    (l, i) =>
      i === 0 ||
      (l.mark === " " && outlineLines.has(l.newLine)) ||
      changed.slice(Math.max(0, i - context), i + context + 1).some(Boolean),
  );
  const out: string[] = [];
  let gap = false;
  lines.forEach((l, i) => {
    if (!keep[i]) {
      gap = true;
      return;
    }
    if (gap) out.push("⋯");
    gap = false;
    // A glance form may cut long lines (a paragraph of a comment rewritten): what changed, not all of it.
    out.push(l.text.length > maxLine ? `${l.mark}${l.text.slice(0, maxLine)}…` : `${l.mark}${l.text}`);
  });
  if (gap) out.push("⋯");
  return out.join("\n");
}
