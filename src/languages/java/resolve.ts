/**
 * Java import resolution: `import a.b.C` is the file `…/a/b/C.java` under any source root,
 * `import a.b.C.Inner` and `import static a.b.C.m` reach into C (`within`), `import a.b.*` is every
 * file of the package folder. Classes of `java.*` and of libraries are outside the project.
 */
import type { ModuleResolver, ProjectFiles, ResolvedImport } from "../types.ts";

interface JavaTables {
  /** `a/b/C.java` (any tail of a path) → the files that end with it. */
  classes: Map<string, string[]>;
  /** `a/b` (any tail of a folder) → the Java files of the folders that end with it. */
  folders: Map<string, string[]>;
}

/** Tails indexed per path: deeper packages than this are found by their last segments. */
const MAX_TAIL = 10;

function prepareJava(project: ProjectFiles): JavaTables {
  const classes = new Map<string, string[]>();
  const folders = new Map<string, string[]>();
  const add = (m: Map<string, string[]>, k: string, v: string) => (m.get(k) ?? m.set(k, []).get(k)!).push(v);
  for (const path of project.paths()) {
    if (!path.endsWith(".java")) continue;
    const parts = path.split("/");
    for (let i = Math.max(0, parts.length - MAX_TAIL); i < parts.length; i++) {
      add(classes, parts.slice(i).join("/"), path);
      if (i < parts.length - 1) add(folders, parts.slice(i, -1).join("/"), path);
    }
  }
  return { classes, folders };
}

function resolveJava(state: unknown, _from: string, module: string, name: string | undefined): ResolvedImport {
  const { classes, folders } = state as JavaTables;
  const parts = module.split(".");
  if (name !== undefined) {
    // `import a.b.C`: module a.b, name C.
    const file = classes.get(`${parts.join("/")}/${name}.java`)?.[0];
    if (file) return { file, external: false };
  } else {
    // `import a.b.*`: a package folder.
    const files = folders.get(parts.join("/"));
    if (files?.length) return { file: files[0]!, files, external: false };
  }
  // `import a.b.C.Inner`, `import static a.b.C.m`, `import static a.b.C.*`: the longest prefix that is a class file.
  for (let i = parts.length; i >= 1; i--) {
    const file = classes.get(`${parts.slice(0, i).join("/")}.java`)?.[0];
    if (file) return { file, within: parts.slice(i - 1), external: false };
  }
  return { external: true };
}

export const javaResolver: ModuleResolver = {
  prepare: prepareJava,
  resolve: resolveJava,
};
