/**
 * A graph patched after an edit instead of rebuilt: when none of the changed files changed what
 * other files can see (their outward shape: summary.ts), only their own imports, calls and type
 * uses are resolved again (otherwise reresolve.ts resolves their dependents too) and spliced into the edge lists in
 * file order, so the result equals a
 * fresh build. The previous graph is never touched: the new one shares what did not change.
 */
import type { FileRecord } from "../extract/record.ts";
import { finishGraph } from "./build.ts";
import { callsOf, typeUsesOf } from "./calls.ts";
import { makeFileState, type GraphContext } from "./context.ts";
import { emptyMemos } from "./memos.ts";
import { importEdgesOf } from "./imports.ts";
import type { AmbiguousCall, CallEdge, CodeGraph, ExternalCall, ImportEdge } from "./model.ts";
import { reresolveGraph } from "./reresolve.ts";
import { sameOutwardShape } from "./summary.ts";
import { fileSymbols } from "./symbols.ts";

/** At most this many changed files are patched; more rebuild the graph. */
export const MAX_PATCH_FILES = 32;

/**
 * `old` with the changed files' records swapped in, or undefined when a full build is needed: a
 * changed language, a file that was not in the graph, or too many files. A changed shape
 * resolves again the files that can see it (reresolve.ts), when they can be told and are few.
 */
export function patchGraph(old: CodeGraph, changed: FileRecord[]): CodeGraph | undefined {
  if (changed.length === 0) return old;
  if (changed.length > MAX_PATCH_FILES) return undefined;
  const prev = old.context;
  for (const record of changed) {
    const st = prev.files.get(record.path);
    if (!st || st.record.language !== record.language) return undefined;
    if (!sameOutwardShape(st.record, record)) return reresolveGraph(old, changed);
  }
  const ctx: GraphContext = { ...prev, symbols: prev.symbols.slice(), files: new Map(prev.files), memos: emptyMemos() };
  const records = new Map(old.records);
  const typeUses = new Map(old.typeUses);
  const redo = new Set<string>();
  for (const record of changed) {
    const before = prev.files.get(record.path)!;
    const st = makeFileState(ctx, record, before.moduleId);
    for (const sym of fileSymbols(record, st)) ctx.symbols[sym.id] = sym;
    for (let id = before.moduleId; id <= before.moduleId + record.definitions.length; id++) typeUses.delete(id);
    ctx.files.set(record.path, st);
    records.set(record.path, record);
    redo.add(record.path);
  }
  // Rebuild the edge lists in file order, taking each unchanged file's run of edges as it was.
  const calls: CallEdge[] = [];
  const external: ExternalCall[] = [];
  const ambiguous: AmbiguousCall[] = [];
  const imports: ImportEdge[] = [];
  const edgeCounts = new Map(old.edgeCounts);
  let unresolvedCalls = old.unresolvedCalls;
  const at = { calls: 0, external: 0, ambiguous: 0, imports: 0 };
  for (const st of ctx.files.values()) {
    const path = st.record.path;
    const counts = old.edgeCounts.get(path)!;
    if (redo.has(path)) {
      const out = callsOf(ctx, st);
      const edges = importEdgesOf(ctx, st);
      for (const x of out.calls) calls.push(x);
      for (const x of out.external) external.push(x);
      for (const x of out.ambiguous) ambiguous.push(x);
      for (const x of edges) imports.push(x);
      unresolvedCalls += out.unresolved - counts.unresolved;
      edgeCounts.set(path, {
        calls: out.calls.length,
        external: out.external.length,
        ambiguous: out.ambiguous.length,
        unresolved: out.unresolved,
        imports: edges.length,
      });
      typeUsesOf(ctx, st, typeUses);
    } else {
      for (let i = 0; i < counts.calls; i++) calls.push(old.calls[at.calls + i]!);
      for (let i = 0; i < counts.external; i++) external.push(old.external[at.external + i]!);
      for (let i = 0; i < counts.ambiguous; i++) ambiguous.push(old.ambiguous[at.ambiguous + i]!);
      for (let i = 0; i < counts.imports; i++) imports.push(old.imports[at.imports + i]!);
    }
    at.calls += counts.calls;
    at.external += counts.external;
    at.ambiguous += counts.ambiguous;
    at.imports += counts.imports;
  }
  // Inheritance is part of the shape: the edges stay those of `old`.
  return finishGraph(
    ctx,
    { calls, external, ambiguous, unresolvedCalls, imports, inherits: old.inherits, typeUses, edgeCounts, records },
    callAdjacency(old, calls, redo),
  );
}

/**
 * The call adjacency of `calls` from `old`'s, when the redone files kept their number of call
 * edges (every other edge keeps its index): only the redone files' entries change, instead of
 * indexing every edge again (~10 ms on django). Undefined otherwise.
 */
function callAdjacency(
  old: CodeGraph,
  calls: CallEdge[],
  redo: Set<string>,
): Pick<CodeGraph, "callsFrom" | "callsTo"> | undefined {
  if (calls.length !== old.calls.length) return undefined;
  const ranges: [number, number][] = [];
  let at = 0;
  for (const [path, counts] of old.edgeCounts) {
    if (redo.has(path)) ranges.push([at, at + counts.calls]);
    at += counts.calls;
  }
  for (const [start, end] of ranges)
    for (let i = start; i < end; i++) if (calls[i]!.file !== old.calls[i]!.file) return undefined;
  const callsFrom = new Map(old.callsFrom);
  const callsTo = new Map(old.callsTo);
  // The lists this patch copied, with where they live.
  const touched = new Map<number[], { m: Map<number, number[]>; key: number }>();
  const edit = (m: Map<number, number[]>, key: number, index: number, add: boolean) => {
    let list = m.get(key) ?? [];
    if (!touched.has(list)) {
      list = list.slice();
      touched.set(list, { m, key });
      m.set(key, list);
    }
    if (add) list.push(index);
    else list.splice(list.indexOf(index), 1);
  };
  for (const [start, end] of ranges) {
    for (let i = start; i < end; i++) {
      edit(callsFrom, old.calls[i]!.caller, i, false);
      edit(callsTo, old.calls[i]!.callee, i, false);
    }
    for (let i = start; i < end; i++) {
      edit(callsFrom, calls[i]!.caller, i, true);
      edit(callsTo, calls[i]!.callee, i, true);
    }
  }
  for (const [list, { m, key }] of touched) {
    if (list.length === 0) m.delete(key);
    else list.sort((a, b) => a - b);
  }
  return { callsFrom, callsTo };
}
