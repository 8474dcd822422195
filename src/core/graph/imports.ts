/** Imports: each import statement resolved through its language's module resolver, and the file-level import edges. */
import type { ResolvedImport } from "../../languages/types.ts";
import type { ImportRecord } from "../extract/record.ts";
import { defOf, type FileState, type GraphContext } from "./context.ts";
import type { ImportEdge } from "./model.ts";

/**
 * Where an import leads, memoized per file: files with the same content share one record's import
 * objects (records are keyed by content), but a relative import resolves from each file's folder.
 */
export function resolveImport(ctx: GraphContext, st: FileState, imp: ImportRecord): ResolvedImport {
  const cache = ctx.memos.imports.get(st) ?? ctx.memos.imports.set(st, new Map()).get(st)!;
  let r = cache.get(imp);
  if (!r) {
    r =
      imp.kind === "package"
        ? { external: false }
        : st.resolver && imp.module !== ""
          ? st.resolver.resolve(
              st.resolverState,
              st.record.path,
              imp.module,
              imp.kind === "named" ? imp.name : undefined,
              enclosingModules(st, imp.scope),
            )
          : { external: imp.module !== "" };
    cache.set(imp, r);
  }
  return r;
}

/** The module definitions around a scope (inline modules, namespace blocks), outermost first. */
export function enclosingModules(st: FileState, scope: number): string[] {
  const out: string[] = [];
  const defs = st.record.definitions;
  for (let s = scope; s >= 0; s = defs[s]!.parent) if (defs[s]!.kind === "module") out.unshift(defs[s]!.name);
  return out;
}

/** A file's import edges, one per imported file (at the first import line). */
export function importEdgesOf(ctx: GraphContext, st: FileState): ImportEdge[] {
  const out: ImportEdge[] = [];
  const seen = new Set<string>();
  const from = st.record.path;
  const add = (to: string | undefined, line: number) => {
    if (!to || to === from || seen.has(to)) return;
    seen.add(to);
    out.push({ from, to, line });
  };
  for (const imp of st.record.imports) {
    if (imp.kind === "export" || imp.kind === "export-default") continue;
    if (imp.kind === "package" || imp.kind === "self-namespace") continue;
    if (
      (imp.kind === "star" || (imp.kind === "module" && imp.alias)) &&
      st.semantics.packages === "namespaces" &&
      !st.resolver
    ) {
      // A namespace the project declares (C# `using A.B;`): the files declaring its types; a type
      // (`using static A.B.C;`, `using X = A.B.C;`): its file.
      for (const f of namespaceFiles(ctx, st.record.language, imp.module)) add(f, imp.line);
      continue;
    }
    const r = resolveImport(ctx, st, imp);
    if (imp.kind === "named" && r.files && imp.name !== undefined) {
      add(namedFile(ctx, r, imp.name), imp.line);
      continue;
    }
    add(r.file, imp.line);
    add(r.submodule, imp.line);
    for (const f of r.files ?? []) add(f, imp.line);
  }
  return out;
}

/** The files declaring the types of a namespace package, or the file of a type named by its dotted path. */
function namespaceFiles(ctx: GraphContext, language: string, module: string): string[] {
  const types = ctx.packages.get(`${language}:${module}`);
  if (types) {
    // every part of a type split over files (a partial class): the same qualified name, same language
    const parts = [...types.values()].flatMap((id) =>
      (ctx.byName.get(ctx.symbols[id]!.name) ?? []).filter(
        (o) => ctx.symbols[o]!.language === language && defOf(ctx, o)?.qualified === defOf(ctx, id)?.qualified,
      ),
    );
    return [...new Set(parts.map((id) => ctx.symbols[id]!.file))].sort();
  }
  const dot = module.lastIndexOf(".");
  const type =
    dot > 0 ? ctx.packages.get(`${language}:${module.slice(0, dot)}`)?.get(module.slice(dot + 1)) : undefined;
  return type !== undefined ? [ctx.symbols[type]!.file] : [];
}

/**
 * The file a named import takes its name from when the resolver could only name the package's
 * files (Kotlin: a file need not be named after what it declares): the first that declares the
 * name at top level, else the resolver's first file.
 */
export function namedFile(ctx: GraphContext, r: ResolvedImport, name: string): string | undefined {
  return r.files?.find((f) => ctx.files.get(f)?.top.has(name)) ?? r.file;
}

/**
 * Where a module-level imported name comes from: the project file and the imported name
 * (undefined for a whole-module import: namespace, default, `import x`).
 */
export function importTarget(
  ctx: GraphContext,
  file: string,
  localName: string,
): { file: string; name?: string } | undefined {
  const st = ctx.files.get(file);
  const imp = st?.importBindings
    .get(localName)
    ?.filter((i) => i.scope < 0)
    .at(-1);
  if (!st || !imp) return undefined;
  const r = resolveImport(ctx, st, imp);
  if (r.submodule) return { file: r.submodule };
  if (!r.file) return undefined;
  return imp.kind === "named" && imp.name ? { file: namedFile(ctx, r, imp.name)!, name: imp.name } : { file: r.file };
}
