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
 * every star look-up: a name outside it is answered "not found" without the walk. Where a target
 * can answer names it does not list (a package's other files, a submodule of a folder), no name is
 * ruled out.
 */
import type { FileState, GraphContext, StarExportTable } from "./model.ts";
import { resolveImport } from "./imports.ts";

/**
 * The names the files that star imports target can give, by the targets' language. A target's
 * star imports can lead into another language (a TS file re-exporting a JS one), so a language's
 * answer takes in every language its targets' star imports reach.
 */
export class StarExports implements StarExportTable {
  private byLanguage: Map<string, { names: Set<string>; open: boolean; reaches: Set<string> }> | undefined;

  /** False only when no file that `file`'s star-import closure can reach binds `name` itself. */
  mayExport(ctx: GraphContext, file: string, name: string): boolean {
    const table = (this.byLanguage ??= build(ctx));
    const language = ctx.files.get(file)?.record.language;
    const own = language === undefined ? undefined : table.get(language);
    if (!own) return true; // not a star-import target (a named import's file): no table for it
    for (const l of own.reaches) {
      const t = table.get(l);
      if (!t || t.open || t.names.has(name)) return true;
    }
    return false;
  }

  /** Forgets the table (the files changed, or the build is done). */
  clear(): void {
    this.byLanguage = undefined;
  }
}

function build(ctx: GraphContext): Map<string, { names: Set<string>; open: boolean; reaches: Set<string> }> {
  const table = new Map<string, { names: Set<string>; open: boolean; reaches: Set<string> }>();
  const entry = (language: string) =>
    table.get(language) ??
    table.set(language, { names: new Set(), open: false, reaches: new Set([language]) }).get(language)!;
  const targets = new Set<FileState>();
  for (const st of ctx.files.values()) {
    for (const star of st.starImports) {
      const file = resolveImport(ctx, st, star).file;
      const target = file === undefined ? undefined : ctx.files.get(file);
      if (!target) continue;
      targets.add(target);
      // a star import from a target leads on into the language it names
      entry(st.record.language).reaches.add(target.record.language);
    }
  }
  for (const st of targets) {
    const e = entry(st.record.language);
    if (e.open) continue;
    if (opensAnyName(st)) e.open = true;
    else ownNames(st, e.names);
  }
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
  return table;
}

/** A file that can answer names it does not list: another file of its package, a submodule. */
function opensAnyName(st: FileState): boolean {
  return st.packageKey !== undefined || st.resolver?.submodule !== undefined;
}

/** The names a file gives without going through its own star imports (see computeExport). */
function ownNames(st: FileState, out: Set<string>): void {
  for (const name of st.top.keys()) out.add(name);
  for (const name of st.importBindings.keys()) out.add(name);
  for (const imp of st.record.imports) {
    if (imp.kind === "export" || imp.kind === "reexport") {
      const name = imp.alias ?? imp.name;
      if (name) out.add(name);
    } else if (imp.kind === "export-default") out.add("default");
    else if (imp.kind === "reexport-namespace" && imp.alias) out.add(imp.alias);
  }
}
