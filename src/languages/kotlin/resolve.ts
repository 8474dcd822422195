/**
 * Kotlin import resolution. A Kotlin file need not be named after what it declares, and its folder
 * need only end with its package's path (the common root may be left out), so an import resolves to
 * its package's folder: `import a.b.C` (module `a.b.C`, name `C`) is `…/a/b/C.kt` when that file
 * exists, else every Kotlin file of the package folder `…/a/b` (the graph takes the one that
 * declares `C`); `import a.b.C.D` reaches into the class C (`within`), `import a.b.*` is the whole
 * folder. Packages outside the project (`kotlin.*`, `java.*`, libraries) are external.
 */
import type { ModuleResolver, ProjectFiles, ResolvedImport } from "../types.ts";

interface KotlinTables {
  /** `a/b/C.kt` (any tail of a path) → the files that end with it. */
  files: Map<string, string[]>;
  /** `a/b` (any tail of a folder) → the Kotlin files of the folders that end with it. */
  folders: Map<string, string[]>;
}

/** Tails indexed per path: deeper packages than this are found by their last segments. */
const MAX_TAIL = 10;
const KOTLIN = /\.kts?$/;

function prepareKotlin(project: ProjectFiles): KotlinTables {
  const files = new Map<string, string[]>();
  const folders = new Map<string, string[]>();
  const add = (m: Map<string, string[]>, k: string, v: string) => (m.get(k) ?? m.set(k, []).get(k)!).push(v);
  for (const path of project.paths()) {
    if (!KOTLIN.test(path)) continue;
    const parts = path.split("/");
    for (let i = Math.max(0, parts.length - MAX_TAIL); i < parts.length; i++) {
      add(files, parts.slice(i).join("/").replace(KOTLIN, ""), path);
      if (i < parts.length - 1) add(folders, parts.slice(i, -1).join("/"), path);
    }
  }
  return { files, folders };
}

function resolveKotlin(state: unknown, _from: string, module: string, name: string | undefined): ResolvedImport {
  const { files, folders } = state as KotlinTables;
  // The query captures the whole path of a named import as its module: `a.b.C` with name `C`.
  const parts = (name !== undefined && module.endsWith(`.${name}`) ? module.slice(0, -name.length - 1) : module).split(
    ".",
  );
  if (name === undefined) {
    const all = folders.get(parts.join("/"));
    return all?.length ? { file: all[0]!, files: all, external: false } : { external: true };
  }
  const own = files.get([...parts, name].join("/"))?.[0];
  if (own) return { file: own, external: false };
  const pkg = folders.get(parts.join("/"));
  if (pkg?.length) return { file: pkg[0]!, files: pkg, external: false };
  // `import a.b.C.D`: the longest prefix that is a file, the rest a path into it.
  const path = [...parts, name];
  for (let i = path.length - 1; i >= 1; i--) {
    const file = files.get(path.slice(0, i).join("/"))?.[0];
    if (file) return { file, within: path.slice(i - 1, -1), external: false };
  }
  return { external: true };
}

export const kotlinResolver: ModuleResolver = {
  prepare: prepareKotlin,
  resolve: resolveKotlin,
};
