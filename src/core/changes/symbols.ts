/**
 * Which definitions of a file changed between two versions, from the records the same extractor
 * made of each side. Definitions are matched by their in-file qualified name (the n-th of a name
 * with the n-th), and compared by their *own* text: their lines without nested definitions'
 * lines, blank lines and trailing spaces. So an edit inside a method changes the method, not
 * its class; a function that only moved, or whose diff git happened to align across a
 * neighbour, is not reported; and a change to the header (decorators, parameters, return type,
 * bases) is told apart from one in the body.
 */
import type { Definition, DefinitionKind, FileRecord } from "../extract/record.ts";
import type { Hunk } from "./line-diff.ts";

/** What happened to a definition. */
export type ChangeKind = "signature" | "body" | "added" | "removed" | "renamed";

/** One changed definition of one file. */
export interface DefinitionChange {
  change: ChangeKind;
  /** In-file qualified name on the new side (the old side's for a removed definition). */
  name: string;
  kind: DefinitionKind;
  /** Index in the new record's definitions (absent when removed). */
  newIndex?: number;
  /** Index in the old record's definitions (absent when added). */
  oldIndex?: number;
  /** The header before and after (decorators included), for signature changes and renames. */
  signature?: { old: string; new: string };
  /** The name before a rename. */
  renamedFrom?: string;
  /** The in-file name of an added or removed definition this one is nested in: it came or went with it. */
  within?: string;
}

/** A file's comparison: the changed definitions and the module-level lines that changed. */
export interface FileComparison {
  definitions: DefinitionChange[];
  /** Changed lines outside every definition, as ranges, per side (imports, constants, top-level code). */
  moduleLines: { old: [number, number][]; new: [number, number][] };
}

interface Side {
  record: FileRecord | undefined;
  lines: readonly string[];
}

/** `qualified#n`: the n-th definition of that name in the file (overloads, property setters). */
function keysOf(record: FileRecord | undefined): string[] {
  const seen = new Map<string, number>();
  return (record?.definitions ?? []).map((d) => {
    const n = seen.get(d.qualified) ?? 0;
    seen.set(d.qualified, n + 1);
    return `${d.qualified}#${n}`;
  });
}

function childrenOf(record: FileRecord | undefined): Map<number, number[]> {
  const out = new Map<number, number[]>();
  record?.definitions.forEach((d, i) => {
    if (d.parent >= 0) (out.get(d.parent) ?? out.set(d.parent, []).get(d.parent)!).push(i);
  });
  return out;
}

/** A definition's own lines: nested definitions cut out, trailing spaces and blank lines dropped. */
function ownText(side: Side, index: number, children: Map<number, number[]>): string {
  const d = side.record!.definitions[index]!;
  const holes = (children.get(index) ?? [])
    .map((c) => side.record!.definitions[c]!)
    .map((c) => [c.start, c.end] as const);
  const out: string[] = [];
  for (let line = d.start; line <= d.end; line++) {
    if (holes.some(([a, b]) => line >= a && line <= b)) continue;
    const text = (side.lines[line - 1] ?? "").trimEnd();
    if (text !== "") out.push(text);
  }
  return out.join("\n");
}

/** The header as a reader compares it: decorators and signature, whitespace collapsed. */
export function headerOf(d: Definition): string {
  return [...(d.decorators ?? []), d.signature].map((s) => s.replace(/\s+/g, " ").trim()).join("\n");
}

/** Changed line ranges of one side that fall outside every definition of that side. */
function moduleRanges(record: FileRecord | undefined, ranges: [number, number][]): [number, number][] {
  const defs = record?.definitions ?? [];
  const out: [number, number][] = [];
  for (const [a, b] of ranges) {
    let runStart = -1;
    for (let line = a; line <= b + 1; line++) {
      const outside = line <= b && !defs.some((d) => line >= d.start && line <= d.end);
      if (outside && runStart < 0) runStart = line;
      if (!outside && runStart >= 0) {
        out.push([runStart, line - 1]);
        runStart = -1;
      }
    }
  }
  return out;
}

/** Compares the definitions of one file's two versions (either may be absent: added or deleted). */
export function compareDefinitions(oldSide: Side, newSide: Side, hunks: readonly Hunk[]): FileComparison {
  const oldKeys = keysOf(oldSide.record);
  const newKeys = keysOf(newSide.record);
  const oldChildren = childrenOf(oldSide.record);
  const newChildren = childrenOf(newSide.record);
  const oldByKey = new Map(oldKeys.map((k, i) => [k, i]));
  const newByKey = new Map(newKeys.map((k, i) => [k, i]));
  const ownOld = (i: number) => ownText(oldSide, i, oldChildren);
  const ownNew = (i: number) => ownText(newSide, i, newChildren);

  const changes: DefinitionChange[] = [];
  const added: number[] = [];
  const removed: number[] = [];
  newKeys.forEach((key, ni) => {
    const oi = oldByKey.get(key);
    if (oi === undefined) return void added.push(ni);
    if (ownOld(oi) === ownNew(ni)) return;
    const before = oldSide.record!.definitions[oi]!;
    const after = newSide.record!.definitions[ni]!;
    const oldHeader = headerOf(before);
    const newHeader = headerOf(after);
    changes.push({
      change: oldHeader === newHeader ? "body" : "signature",
      name: after.qualified,
      kind: after.kind,
      newIndex: ni,
      oldIndex: oi,
      ...(oldHeader !== newHeader ? { signature: { old: oldHeader, new: newHeader } } : {}),
    });
  });
  oldKeys.forEach((key, oi) => {
    if (!newByKey.has(key)) removed.push(oi);
  });

  // Renames: a removed and an added definition of the same kind whose own text differs only by
  // the name. Members of a renamed class are matched under the new name.
  const renamed = new Map<string, string>(); // old qualified → new qualified
  for (const oi of [...removed]) {
    const before = oldSide.record!.definitions[oi]!;
    const prefixOld = [...renamed].find(([o]) => before.qualified.startsWith(`${o}.`));
    for (const ni of added) {
      const after = newSide.record!.definitions[ni]!;
      if (after.kind !== before.kind) continue;
      // A member of a renamed container keeps its own name; anything else must keep its container.
      const expected = prefixOld ? `${prefixOld[1]}${before.qualified.slice(prefixOld[0].length)}` : undefined;
      const sameParent =
        before.qualified.slice(0, before.qualified.length - before.name.length) ===
        after.qualified.slice(0, after.qualified.length - after.name.length);
      if (expected !== undefined ? after.qualified !== expected : !sameParent || after.name === before.name) continue;
      const oldText = ownOld(oi);
      const newText = ownNew(ni);
      const textSame =
        before.name === after.name ? oldText === newText : oldText.split(before.name).join(after.name) === newText;
      if (expected === undefined && !textSame) continue;
      removed.splice(removed.indexOf(oi), 1);
      added.splice(added.indexOf(ni), 1);
      if (expected === undefined) {
        renamed.set(before.qualified, after.qualified);
        changes.push({
          change: "renamed",
          name: after.qualified,
          kind: after.kind,
          newIndex: ni,
          oldIndex: oi,
          renamedFrom: before.qualified,
          signature: { old: headerOf(before), new: headerOf(after) },
        });
      } else if (!textSame) {
        const oldHeader = headerOf(before);
        const newHeader = headerOf(after);
        changes.push({
          change: oldHeader === newHeader ? "body" : "signature",
          name: after.qualified,
          kind: after.kind,
          newIndex: ni,
          oldIndex: oi,
          ...(oldHeader !== newHeader ? { signature: { old: oldHeader, new: newHeader } } : {}),
        });
      }
      break;
    }
  }

  const enclosingIn = (record: FileRecord, index: number, set: Set<number>): string | undefined => {
    for (let p = record.definitions[index]!.parent; p >= 0; p = record.definitions[p]!.parent)
      if (set.has(p)) return record.definitions[p]!.qualified;
    return undefined;
  };
  const addedSet = new Set(added);
  const removedSet = new Set(removed);
  for (const ni of added) {
    const d = newSide.record!.definitions[ni]!;
    const within = enclosingIn(newSide.record!, ni, addedSet);
    changes.push({ change: "added", name: d.qualified, kind: d.kind, newIndex: ni, ...(within ? { within } : {}) });
  }
  for (const oi of removed) {
    const d = oldSide.record!.definitions[oi]!;
    const within = enclosingIn(oldSide.record!, oi, removedSet);
    changes.push({ change: "removed", name: d.qualified, kind: d.kind, oldIndex: oi, ...(within ? { within } : {}) });
  }
  // File order on the side that has the definition (new side first).
  const lineOf = (c: DefinitionChange) =>
    c.newIndex !== undefined
      ? newSide.record!.definitions[c.newIndex]!.start
      : oldSide.record!.definitions[c.oldIndex!]!.start;
  changes.sort((a, b) => lineOf(a) - lineOf(b) || (a.change === "removed" ? 1 : 0) - (b.change === "removed" ? 1 : 0));

  const oldRanges = hunks
    .filter((h) => h.oldLines > 0)
    .map((h) => [h.oldStart, h.oldStart + h.oldLines - 1] as [number, number]);
  const newRanges = hunks
    .filter((h) => h.newLines > 0)
    .map((h) => [h.newStart, h.newStart + h.newLines - 1] as [number, number]);
  return {
    definitions: changes,
    moduleLines: { old: moduleRanges(oldSide.record, oldRanges), new: moduleRanges(newSide.record, newRanges) },
  };
}
