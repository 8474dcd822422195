/**
 * A graph patched after an edit that changed what other files can see (a new, removed or renamed
 * definition, a signature, an import): the symbol table is made again (a file's symbols move when
 * an earlier file gained or lost definitions), the files that can see the change (dependents.ts)
 * are resolved again, and every other file's edges are carried over with their symbol ids moved
 * to the new table. The result equals a fresh build; undefined when the affected files cannot be
 * told or are too many (the caller builds afresh). The previous graph is never touched.
 */
import type { FileRecord } from "../extract/record.ts";
import { contextOf, finishGraph, subclassIndex } from "./build.ts";
import { callableIds, callsOf, typeUsesOf } from "./calls.ts";
import type { GraphContext } from "./context.ts";
import { affectedFiles, namesTravelByWords } from "./dependents.ts";
import { importEdgesOf } from "./imports.ts";
import {
  AMBIGUOUS_CANDIDATES,
  type AmbiguousCall,
  type CallEdge,
  type CodeGraph,
  type ExternalCall,
  type ImportEdge,
  type InheritEdge,
} from "./model.ts";
import { basesOf } from "./resolve.ts";

/** At most this share of a project's files (and at least MIN_REDO) is resolved again; more rebuild. */
const REDO_SHARE = 0.15;
const MIN_REDO = 24;

/** The context of the new records: the old one's file order and resolver tables, a new symbol table. */
function newContext(old: CodeGraph, changedBy: Map<string, FileRecord>): GraphContext | undefined {
  // In a project whose names travel by words (dependents.ts) the package tables are empty, and
  // stay so unless a new record declares a member outside its type's body: then build afresh.
  for (const r of changedBy.values()) {
    if (
      r.definitions.some(
        (d) => d.qualified !== (d.parent < 0 ? d.name : `${r.definitions[d.parent]!.qualified}.${d.name}`),
      )
    )
      return undefined;
  }
  const prev = old.context;
  const records = [...prev.files.values()].map((st) => changedBy.get(st.record.path) ?? st.record);
  return contextOf(records, prev, prev);
}

/**
 * Old symbol id → new symbol id (-1: gone). An unchanged file's symbols move with its module
 * symbol; a changed file's definitions are matched by kind and qualified name, in order.
 */
function idMap(old: CodeGraph, ctx: GraphContext, changedBy: Map<string, FileRecord>): Int32Array {
  const map = new Int32Array(old.symbols.length).fill(-1);
  for (const [path, st] of old.context.files) {
    const to = ctx.moduleSymbol.get(path)!;
    const record = changedBy.get(path);
    if (!record) {
      for (let i = 0; i <= st.record.definitions.length; i++) map[st.moduleId + i] = to + i;
      continue;
    }
    map[st.moduleId] = to;
    const slots = new Map<string, number[]>();
    record.definitions.forEach((d, i) =>
      (
        slots.get(`${d.kind}\0${d.qualified}`) ??
        slots.set(`${d.kind}\0${d.qualified}`, []).get(`${d.kind}\0${d.qualified}`)!
      ).push(to + 1 + i),
    );
    st.record.definitions.forEach((d, i) => {
      const next = slots.get(`${d.kind}\0${d.qualified}`)?.shift();
      if (next !== undefined) map[st.moduleId + 1 + i] = next;
    });
  }
  return map;
}

/** Inheritance edges in symbol order: resolved again for the affected files' classes, moved for the others. */
function inheritEdgesAfter(
  old: CodeGraph,
  ctx: GraphContext,
  map: Int32Array,
  affected: Set<string>,
): InheritEdge[] | undefined {
  const kept = new Map<number, InheritEdge[]>();
  for (const e of old.inherits) {
    if (affected.has(old.symbols[e.child]!.file)) continue;
    const child = map[e.child]!;
    const base = map[e.base]!;
    if (child < 0 || base < 0) return undefined;
    (kept.get(child) ?? kept.set(child, []).get(child)!).push(
      child === e.child && base === e.base ? e : { ...e, child, base },
    );
  }
  const out: InheritEdge[] = [];
  for (const s of ctx.symbols) {
    if (s.kind !== "class" && s.kind !== "interface" && s.kind !== "struct" && s.kind !== "enum") continue;
    if (!affected.has(s.file)) for (const e of kept.get(s.id) ?? []) out.push(e);
    else for (const b of basesOf(ctx, s.id)) out.push({ child: s.id, base: b.id, kind: b.kind });
  }
  return out;
}

/**
 * `old` with `changed` records swapped in, resolving again only the files that can see the
 * change; undefined when a full build is needed (see the module note).
 */
export function reresolveGraph(old: CodeGraph, changed: FileRecord[]): CodeGraph | undefined {
  const changedBy = new Map(changed.map((r) => [r.path, r]));
  for (const r of changed) if (old.context.files.get(r.path)?.record.language !== r.language) return undefined;
  if (!namesTravelByWords(old.context)) return undefined;
  const ctx = newContext(old, changedBy);
  if (!ctx) return undefined;
  const affected = affectedFiles(old, ctx, changed, Math.max(MIN_REDO, Math.floor(ctx.files.size * REDO_SHARE)));
  if (!affected) return undefined;
  const map = idMap(old, ctx, changedBy);
  const inherits = inheritEdgesAfter(old, ctx, map, affected);
  if (!inherits) return undefined;
  ctx.subclasses = subclassIndex(inherits);
  const typeUses = new Map<number, number[]>();
  for (const [from, list] of old.typeUses) {
    if (affected.has(old.symbols[from]!.file)) continue;
    const to = list.map((id) => map[id]!);
    if (map[from]! < 0 || to.some((id) => id < 0)) return undefined;
    typeUses.set(map[from]!, to);
  }
  // The names of an unaffected file's ambiguous calls kept their definitions (a name whose
  // definitions changed is a changed word): only their ids moved. Moved in id order, they are the
  // fresh list, unless a capped list's definitions changed order (then listed afresh).
  const moved = new Map<readonly number[], readonly number[]>();
  const movedCandidates = (e: AmbiguousCall): readonly number[] => {
    let out = moved.get(e.candidates);
    if (!out) {
      const ids = e.candidates.map((id) => map[id]!);
      const ordered = ids.every((id, i) => i === 0 || id > ids[i - 1]!);
      out =
        ordered && !ids.includes(-1)
          ? ids
          : e.candidates.length < AMBIGUOUS_CANDIDATES && !ids.includes(-1)
            ? ids.sort((a, b) => a - b)
            : callableIds(ctx, e.name).shown;
      moved.set(e.candidates, out);
    }
    return out;
  };
  const calls: CallEdge[] = [];
  const external: ExternalCall[] = [];
  const ambiguous: AmbiguousCall[] = [];
  const imports: ImportEdge[] = [];
  const edgeCounts = new Map(old.edgeCounts);
  let unresolvedCalls = 0;
  const at = { calls: 0, external: 0, ambiguous: 0, imports: 0 };
  for (const st of ctx.files.values()) {
    const path = st.record.path;
    const counts = old.edgeCounts.get(path)!;
    if (affected.has(path)) {
      const edges = importEdgesOf(ctx, st);
      const out = callsOf(ctx, st);
      for (const x of out.calls) calls.push(x);
      for (const x of out.external) external.push(x);
      for (const x of out.ambiguous) ambiguous.push(x);
      for (const x of edges) imports.push(x);
      unresolvedCalls += out.unresolved;
      edgeCounts.set(path, {
        calls: out.calls.length,
        external: out.external.length,
        ambiguous: out.ambiguous.length,
        unresolved: out.unresolved,
        imports: edges.length,
      });
      typeUsesOf(ctx, st, typeUses);
    } else {
      unresolvedCalls += counts.unresolved;
      for (let i = at.calls; i < at.calls + counts.calls; i++) {
        const e = old.calls[i]!;
        const caller = map[e.caller]!;
        const callee = map[e.callee]!;
        if (caller < 0 || callee < 0) return undefined;
        if (caller === e.caller && callee === e.callee) calls.push(e);
        else {
          const moved: CallEdge = {
            caller,
            callee,
            file: e.file,
            line: e.line,
            via: e.via,
            resolution: e.resolution,
            confidence: e.confidence,
          };
          if (e.classBody) moved.classBody = true;
          if (e.protocol) moved.protocol = true;
          calls.push(moved);
        }
      }
      for (let i = at.external; i < at.external + counts.external; i++) {
        const e = old.external[i]!;
        const caller = map[e.caller]!;
        if (caller < 0) return undefined;
        external.push(caller === e.caller ? e : { caller, target: e.target, file: e.file, line: e.line });
      }
      for (let i = at.ambiguous; i < at.ambiguous + counts.ambiguous; i++) {
        const e = old.ambiguous[i]!;
        const caller = map[e.caller]!;
        if (caller < 0) return undefined;
        ambiguous.push({ caller, name: e.name, candidates: movedCandidates(e), file: e.file, line: e.line });
      }
      for (let i = at.imports; i < at.imports + counts.imports; i++) imports.push(old.imports[i]!);
    }
    at.calls += counts.calls;
    at.external += counts.external;
    at.ambiguous += counts.ambiguous;
    at.imports += counts.imports;
  }
  const records = new Map(old.records);
  for (const r of changed) records.set(r.path, r);
  return finishGraph(ctx, {
    calls,
    external,
    ambiguous,
    unresolvedCalls,
    imports,
    inherits,
    typeUses,
    edgeCounts,
    records,
  });
}
