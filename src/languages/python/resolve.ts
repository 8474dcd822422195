/**
 * Python import resolution: absolute modules against the project's source roots (the folder
 * above each top-level package, so `src/` layouts work), relative imports by package level,
 * and package-then-submodule for `from pkg import name`.
 */
import type { ModuleResolver, ProjectFiles } from "../types.ts";

interface PythonTables {
  /** Dotted module → file, for every source root. */
  modules: Map<string, string>;
  /** File → its dotted module (relative to its own source root). */
  moduleOf: Map<string, string>;
  /** File → dotted package its relative imports start from. */
  packageOf: Map<string, string>;
}

function dirOf(path: string): string {
  const i = path.lastIndexOf("/");
  return i < 0 ? "" : path.slice(0, i);
}

/** Builds the module table: each file's module name is relative to the folder above its top package. */
export function preparePython(project: ProjectFiles): PythonTables {
  const files = [...project.paths()].filter((p) => /\.pyi?$/.test(p));
  const isPackage = (dir: string) => project.has(`${dir}/__init__.py`) || project.has(`${dir}/__init__.pyi`);
  const modules = new Map<string, string>();
  const moduleOf = new Map<string, string>();
  const packageOf = new Map<string, string>();
  for (const file of files) {
    // Climb while the folder is a package: the first non-package folder is this file's source root.
    let dir = dirOf(file);
    const parts: string[] = [];
    while (dir !== "" && isPackage(dir)) {
      parts.unshift(dir.slice(dir.lastIndexOf("/") + 1));
      dir = dirOf(dir);
    }
    const base = file.slice(file.lastIndexOf("/") + 1).replace(/\.pyi?$/, "");
    const isInit = base === "__init__";
    const dotted = [...parts, ...(isInit ? [] : [base])].join(".");
    moduleOf.set(file, dotted);
    packageOf.set(file, isInit ? dotted : parts.join("."));
    // A .py file wins over a .pyi stub of the same module.
    if (dotted !== "" && (!modules.has(dotted) || file.endsWith(".py"))) modules.set(dotted, file);
  }
  return { modules, moduleOf, packageOf };
}

/** Resolves a Python import: `module` is as written (`os.path`, `.`, `..pkg.mod`). */
export function resolvePython(state: unknown, fromPath: string, module: string, name: string | undefined) {
  const t = state as PythonTables;
  let base: string | undefined;
  const dots = /^\.*/.exec(module)![0].length;
  if (dots === 0) base = module;
  else {
    const pkg = t.packageOf.get(fromPath) ?? "";
    const parts = pkg === "" ? [] : pkg.split(".");
    const up = dots - 1;
    if (up <= parts.length) {
      const rest = module.slice(dots);
      base = [...parts.slice(0, parts.length - up), ...(rest ? [rest] : [])].join(".");
    }
  }
  if (base === undefined) return { external: false };
  const file = base === "" ? undefined : t.modules.get(base);
  const sub = name !== undefined ? t.modules.get(base === "" ? name : `${base}.${name}`) : undefined;
  return {
    ...(file ? { file } : {}),
    ...(sub ? { submodule: sub } : {}),
    // A relative import always names project code; an absolute one we cannot find is a package.
    external: !file && !sub && dots === 0,
  };
}

/** The dotted module of a file as Python would import it (relative to its source root). */
export function pythonModuleOf(state: unknown, path: string): string | undefined {
  return (state as PythonTables).moduleOf.get(path);
}

export const pythonResolver: ModuleResolver = { prepare: preparePython, resolve: resolvePython };
