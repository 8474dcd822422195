/**
 * Python import resolution: absolute modules against the project's source roots (the folder
 * above each top-level package, so `src/` layouts work), relative imports by package level,
 * and package-then-submodule for `from pkg import name`.
 */
import { dirname as dirOf } from "../../shared/paths.ts";
import type { ModuleResolver, ProjectFiles } from "../types.ts";

interface PythonTables {
  /** Dotted module → file, for every source root. */
  modules: Map<string, string>;
  /** File → its dotted module (relative to its own source root). */
  moduleOf: Map<string, string>;
  /** File → dotted package its relative imports start from. */
  packageOf: Map<string, string>;
}

/** Builds the module table: each file's module name is relative to the folder above its top package. */
export function preparePython(project: ProjectFiles): PythonTables {
  const files = [...project.paths()].filter((p) => /\.pyi?$/.test(p));
  const isPackage = (dir: string) => project.has(`${dir}/__init__.py`) || project.has(`${dir}/__init__.pyi`);
  const modules = new Map<string, string>();
  const moduleOf = new Map<string, string>();
  const packageOf = new Map<string, string>();
  const fallback = new Map<string, string>();
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
    const own = [...parts, ...(isInit ? [] : [base])];
    // Outside any package (scripts, tests, PEP 420 namespace folders) the path itself names the
    // module, minus a leading src/: two utils.py in different folders must not share a name.
    const pathParts = file
      .replace(/\.pyi?$/, "")
      .split("/")
      .filter((p, i, all) => !(i === all.length - 1 && p === "__init__"));
    if (pathParts[0] === "src" && pathParts.length > 1) pathParts.shift();
    const dotted = parts.length > 0 || isInit ? own.join(".") : pathParts.join(".");
    moduleOf.set(file, dotted);
    packageOf.set(file, isInit ? dotted : parts.length > 0 ? parts.join(".") : pathParts.slice(0, -1).join("."));
    // A .py file wins over a .pyi stub of the same module.
    if (dotted !== "" && (!modules.has(dotted) || file.endsWith(".py"))) modules.set(dotted, file);
    // Also reachable by the full path from the root (namespace packages) and, for files outside
    // packages, by the short name (a script importing its sibling).
    for (const alt of [pathParts.join("."), own.join(".")])
      if (alt !== "" && alt !== dotted && !fallback.has(alt)) fallback.set(alt, file);
  }
  for (const [name, file] of fallback) if (!modules.has(name)) modules.set(name, file);
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

/** `from pkg import mod` where pkg is a package (`pkg/__init__.py`) and `pkg/mod` a module file. */
export function pythonSubmodule(state: unknown, file: string, name: string): string | undefined {
  const mod = pythonModuleOf(state, file);
  if (mod === undefined || !file.endsWith("__init__.py")) return undefined;
  return resolvePython(state, file, mod, name).submodule;
}

export const pythonResolver: ModuleResolver = {
  prepare: preparePython,
  resolve: resolvePython,
  moduleName: pythonModuleOf,
  submodule: pythonSubmodule,
};
