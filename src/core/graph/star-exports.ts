/**
 * Which names a star import can bring in at all. A name reached through a star import (C's
 * `#include`, Python's `from m import *`) is looked up file by file through the star imports'
 * targets, first hit wins, and each (file, name) is memoized. On a tree like the Linux kernel,
 * most called names are macros or functions defined in `.c` files that no header defines: every
 * such call walked the whole include closure, leaving one negative memo entry per header and name
 * (hundreds of millions), which no memo can hold and no build finishes in reasonable time.
 *
 * A file reached through star imports answers a name only if it, or a file further down its star
 * imports, binds that name itself: a top-level definition, an import binding, an explicit export
 * or re-export. Those are the files star imports target, so the union of their own names bounds
 * every star look-up: a name outside it is answered "not found" without the walk; and a name some
 * targets bind is looked up in a target only if that target reaches one of them (Reach), so the walk
 * follows the includes that lead to a binder and no others. Where a target can answer names it does
 * not list (a package's other files, a submodule of a folder), no name is ruled out.
 */
import type { FileState, GraphContext, StarExportTable } from "./model.ts";
import { resolveImport } from "./imports.ts";

/** Per language of the star-import targets: the names they bind, and which of them bind each. */
interface LanguageNames {
  /** Name → the targets (their node numbers, see Reach) that bind it themselves. */
  binders: Map<string, number[]>;
  /** Some target of this language can answer names it does not list: nothing is ruled out. */
  open: boolean;
  /** The languages this language's targets' star imports lead into, itself included. */
  reaches: Set<string>;
}

/**
 * The names the files that star imports target can give, by the targets' language, and which
 * targets can reach which through star imports. A target's star imports can lead into another
 * language (a TS file re-exporting a JS one), so a language's answer takes in every language its
 * targets' star imports reach. A name that some target binds is still looked up in `file` only
 * when `file` reaches one of its binders: on the whole Linux kernel nearly every called name is
 * bound by some header (`tools/` has its own `printk`, `kfree`, `WARN_ON`), so the names alone
 * ruled out little, and each look-up walked the include closure up to the header that binds it,
 * leaving a negative memo entry per header passed: past what a memo holds.
 */
export class StarExports implements StarExportTable {
  private byLanguage: Map<string, LanguageNames> | undefined;
  private reach: Reach | undefined;

  /** False only when no file that `file`'s star-import closure can reach binds `name` itself. */
  mayExport(ctx: GraphContext, file: string, name: string): boolean {
    if (!this.byLanguage) [this.byLanguage, this.reach] = build(ctx);
    const language = ctx.files.get(file)?.record.language;
    const own = language === undefined ? undefined : this.byLanguage.get(language);
    if (!own) return true; // not a star-import target (a named import's file): no table for it
    for (const l of own.reaches) {
      const t = this.byLanguage.get(l);
      if (!t || t.open) return true;
      const binders = t.binders.get(name);
      if (!binders) continue;
      if (!this.reach || this.reach.reachesAny(file, binders)) return true;
    }
    return false;
  }

  /** Forgets the table (the files changed, or the build is done). */
  clear(): void {
    this.byLanguage = undefined;
    this.reach = undefined;
  }
}

function build(ctx: GraphContext): [Map<string, LanguageNames>, Reach | undefined] {
  const table = new Map<string, LanguageNames>();
  const entry = (language: string) =>
    table.get(language) ??
    table.set(language, { binders: new Map(), open: false, reaches: new Set([language]) }).get(language)!;
  const targets = new Map<FileState, FileState[]>();
  const edges = (st: FileState) => {
    const out: FileState[] = [];
    for (const star of st.starImports) {
      const file = resolveImport(ctx, st, star).file;
      const target = file === undefined ? undefined : ctx.files.get(file);
      if (target) out.push(target);
    }
    return out;
  };
  for (const st of ctx.files.values()) {
    for (const target of edges(st)) {
      if (!targets.has(target)) targets.set(target, []);
      // a star import from a target leads on into the language it names
      entry(st.record.language).reaches.add(target.record.language);
    }
  }
  const nodes = [...targets.keys()];
  nodes.forEach((st, i) => {
    const e = entry(st.record.language);
    if (e.open) return;
    if (opensAnyName(st)) e.open = true;
    else for (const name of ownNames(st)) (e.binders.get(name) ?? e.binders.set(name, []).get(name)!).push(i);
  });
  // each language reaches what the languages it reaches reach (a handful of languages: a fixpoint)
  for (let changed = true; changed; ) {
    changed = false;
    for (const e of table.values()) {
      for (const l of [...e.reaches]) {
        for (const m of table.get(l)?.reaches ?? []) {
          if (!e.reaches.has(m)) {
            e.reaches.add(m);
            changed = true;
          }
        }
      }
    }
  }
  const number = new Map(nodes.map((st, i) => [st.record.path, i]));
  const out = nodes.map((st) => edges(st).map((t) => number.get(t.record.path)!));
  return [table, nodes.length <= REACH_MAX_NODES ? new Reach(number, out) : undefined];
}

/**
 * Past this many star-import targets, no reachability table is made (one bit per pair: 200 MB at
 * 40,000) and a bound name is looked up through every target. The Linux kernel has ~24k headers.
 */
const REACH_MAX_NODES = 40_000;

/**
 * Which star-import targets reach which, through star imports: one bit per pair of strongly
 * connected components (headers that include each other are one), each component's row the union
 * of the rows of the components it imports, made in the order Tarjan's algorithm finds them
 * (every component after all it reaches). Exact, in time linear in edges × components / 32.
 */
class Reach {
  private readonly component: Int32Array;
  private readonly rows: Uint32Array;
  private readonly words: number;

  constructor(
    private readonly number: Map<string, number>,
    edges: number[][],
  ) {
    const n = edges.length;
    this.component = tarjan(edges);
    let count = 0;
    for (const c of this.component) count = Math.max(count, c + 1);
    this.words = (count + 31) >>> 5;
    this.rows = new Uint32Array(count * this.words);
    // members of each component, to union their edges' rows once the component is complete
    const members: number[][] = Array.from({ length: count }, () => []);
    for (let v = 0; v < n; v++) members[this.component[v]!]!.push(v);
    for (let c = 0; c < count; c++) {
      const row = c * this.words;
      this.rows[row + (c >>> 5)]! |= 1 << (c & 31);
      for (const v of members[c]!)
        for (const w of edges[v]!) {
          const d = this.component[w]!;
          if (d === c) continue;
          const from = d * this.words;
          for (let k = 0; k < this.words; k++) this.rows[row + k]! |= this.rows[from + k]!;
        }
    }
  }

  /** True when `file` (a star-import target) is one of `binders` or imports one of them, transitively. */
  reachesAny(file: string, binders: readonly number[]): boolean {
    const v = this.number.get(file);
    if (v === undefined) return true;
    const row = this.component[v]! * this.words;
    for (const b of binders) {
      const c = this.component[b]!;
      if (this.rows[row + (c >>> 5)]! & (1 << (c & 31))) return true;
    }
    return false;
  }
}

/**
 * Strongly connected components (iterative Tarjan), numbered in the order they complete: a
 * component is numbered after every component it reaches.
 */
function tarjan(edges: number[][]): Int32Array {
  const n = edges.length;
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const component = new Int32Array(n).fill(-1);
  const stack: number[] = [];
  const onStack = new Uint8Array(n);
  let next = 0;
  let count = 0;
  const work: [number, number][] = [];
  for (let root = 0; root < n; root++) {
    if (index[root] !== -1) continue;
    work.push([root, 0]);
    while (work.length) {
      const top = work[work.length - 1]!;
      const v = top[0];
      if (top[1] === 0 && index[v] === -1) {
        index[v] = low[v] = next++;
        stack.push(v);
        onStack[v] = 1;
      }
      const out = edges[v]!;
      if (top[1] < out.length) {
        const w = out[top[1]++]!;
        if (index[w] === -1) work.push([w, 0]);
        else if (onStack[w]) low[v] = Math.min(low[v]!, index[w]!);
        continue;
      }
      work.pop();
      if (work.length) {
        const u = work[work.length - 1]![0];
        low[u] = Math.min(low[u]!, low[v]!);
      }
      if (low[v] === index[v]) {
        for (let w = -1; w !== v; ) {
          w = stack.pop()!;
          onStack[w] = 0;
          component[w] = count;
        }
        count++;
      }
    }
  }
  return component;
}

/** A file that can answer names it does not list: another file of its package, a submodule. */
function opensAnyName(st: FileState): boolean {
  return st.packageKey !== undefined || st.resolver?.submodule !== undefined;
}

/** The names a file gives without going through its own star imports (see computeExport). */
function ownNames(st: FileState): Set<string> {
  const out = new Set<string>();
  for (const name of st.top.keys()) out.add(name);
  for (const name of st.importBindings.keys()) out.add(name);
  // (a module-level variable is found through a star export too: `export const initTRPC = new TRPCBuilder()`)
  for (const b of st.record.bindings) if (b.scope < 0 && b.kind === "assign") out.add(b.name);
  for (const imp of st.record.imports) {
    if (imp.kind === "export" || imp.kind === "reexport") {
      const name = imp.alias ?? imp.name;
      if (name) out.add(name);
    } else if (imp.kind === "export-default") out.add("default");
    else if (imp.kind === "reexport-namespace" && imp.alias) out.add(imp.alias);
  }
  return out;
}
