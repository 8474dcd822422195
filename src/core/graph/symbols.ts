/**
 * The symbol table: per file a module symbol followed by its definitions (ids are consecutive, so
 * a file's definition i is `moduleId + 1 + i`), qualified by the language's module naming, and
 * the indexes by name, by qualified name and by parent.
 */
import type { FileRecord } from "../extract/record.ts";
import type { FileState } from "./context.ts";
import type { SymbolNode } from "./model.ts";

/**
 * A file's symbols from `moduleId` on. A language whose resolver names modules (`pkg.mod`)
 * qualifies its definitions `pkg.mod.Class.method`; the others `path#Class.method`.
 */
export function fileSymbols(
  record: FileRecord,
  st: Pick<FileState, "moduleId" | "resolver" | "resolverState">,
): SymbolNode[] {
  const moduleId = st.moduleId;
  const dotted = st.resolver?.moduleName?.(st.resolverState, record.path);
  const mod = dotted ?? record.path;
  const syms: SymbolNode[] = [
    {
      id: moduleId,
      file: record.path,
      language: record.language,
      index: -1,
      name: mod,
      qualified: mod,
      kind: "module",
      parent: -1,
      start: 1,
      end: record.lines,
      nameLine: 1,
    },
  ];
  record.definitions.forEach((d, i) => {
    const qualified =
      dotted !== undefined
        ? dotted === ""
          ? d.qualified
          : `${dotted}.${d.qualified}`
        : `${record.path}#${d.qualified}`;
    syms.push({
      id: moduleId + 1 + i,
      file: record.path,
      language: record.language,
      index: i,
      name: d.name,
      qualified,
      kind: d.kind,
      parent: d.parent < 0 ? moduleId : moduleId + 1 + d.parent,
      start: d.start,
      end: d.end,
      nameLine: d.nameLine,
    });
  });
  return syms;
}

/** Symbols by name and qualified name, and each symbol's children. */
export function indexSymbols(symbols: SymbolNode[]): {
  byName: Map<string, number[]>;
  byQualified: Map<string, number>;
  children: Map<number, number[]>;
} {
  const byName = new Map<string, number[]>();
  const byQualified = new Map<string, number>();
  const children = new Map<number, number[]>();
  for (const s of symbols) {
    if (s.kind === "module") continue;
    (byName.get(s.name) ?? byName.set(s.name, []).get(s.name)!).push(s.id);
    byQualified.set(s.qualified, s.id);
    (children.get(s.parent) ?? children.set(s.parent, []).get(s.parent)!).push(s.id);
  }
  for (const s of symbols) if (s.kind === "module" && !byQualified.has(s.qualified)) byQualified.set(s.qualified, s.id);
  return { byName, byQualified, children };
}
