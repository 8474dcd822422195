/**
 * Parameters a framework fills by name (pytest fixtures; LanguageSemantics.injected): a receiving
 * function's untyped parameter holds what the nearest provider of its name returns.
 */
import type { FileRecord } from "../extract/record.ts";
import type { InjectedParams } from "../../languages/types.ts";
import { stateOf, symbolOf, type FileState, type GraphContext } from "./context.ts";
import { dirname } from "../../shared/paths.ts";

/** Classes looked at for a test class's fixtures: it and its bases, at most. */
const MAX_CLASSES = 32;

/** Providers of a file by the definition they are nested in (-1: module level) and the name they provide. */
const providerTables = new WeakMap<FileRecord, Map<number, Map<string, number>>>();

/** The name a definition provides, when it is a provider (its own name unless its decorator names another). */
function providedName(rules: InjectedParams, d: FileRecord["definitions"][number]): string | undefined {
  for (const text of d.decorators ?? []) {
    const m = rules.provider.exec(text);
    if (m) return m.groups?.name ?? d.name;
  }
  return undefined;
}

function providersOf(rules: InjectedParams, record: FileRecord): Map<number, Map<string, number>> {
  let table = providerTables.get(record);
  if (table) return table;
  table = new Map();
  record.definitions.forEach((d, i) => {
    if (!d.decorators?.length) return;
    const name = providedName(rules, d);
    if (name === undefined) return;
    const byName = table!.get(d.parent) ?? table!.set(d.parent, new Map()).get(d.parent)!;
    // Pytest's later definition of a name replaces the earlier one.
    byName.set(name, i);
  });
  providerTables.set(record, table);
  return table;
}

/**
 * The provider of `name` for the parameters of definition `scope` in `st`: in the same class or one
 * of its bases (`bases`: a class symbol's direct bases, nearest first), then the same file, then the
 * shared file of its folder and of each folder above (nearest first). A provider never provides
 * itself: a fixture that takes a parameter of its own name gets the outer one.
 */
export function injectedProvider(
  ctx: GraphContext,
  st: FileState,
  scope: number,
  name: string,
  bases: (cls: number) => readonly number[],
): { st: FileState; index: number } | undefined {
  const rules = st.semantics.injected;
  const defs = st.record.definitions;
  const fn = defs[scope];
  if (!rules || !fn || (!rules.receiver.test(fn.name) && providedName(rules, fn) === undefined)) return undefined;
  const own = providersOf(rules, st.record);
  const notSelf = (f: FileState, i: number | undefined) =>
    i === undefined || (f === st && i === scope) ? undefined : i;
  if (fn.parent >= 0 && defs[fn.parent]!.kind === "class") {
    // The class, then its bases breadth first: a test class inherits its bases' fixtures.
    const queue = [symbolOf(st, fn.parent)];
    for (const seen = new Set(queue); queue.length && seen.size <= MAX_CLASSES; ) {
      const cls = queue.shift()!;
      const cst = stateOf(ctx, cls);
      const i = notSelf(cst, providersOf(rules, cst.record).get(ctx.symbols[cls]!.index)?.get(name));
      if (i !== undefined) return { st: cst, index: i };
      for (const b of bases(cls)) {
        if (seen.has(b)) continue;
        seen.add(b);
        queue.push(b);
      }
    }
  }
  const i = notSelf(st, own.get(-1)?.get(name));
  if (i !== undefined) return { st, index: i };
  const path = st.record.path;
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    const shared = dir ? `${dir}/${rules.sharedFile}` : rules.sharedFile;
    const fst = shared === path ? undefined : ctx.files.get(shared);
    const i = fst ? notSelf(fst, providersOf(rules, fst.record).get(-1)?.get(name)) : undefined;
    if (fst && i !== undefined) return { st: fst, index: i };
    if (!dir) return undefined;
  }
}
