/**
 * Go import resolution: an import path names a package, a folder under a module of the project
 * (`module` lines of every go.mod, nested modules too). It leads to every non-test file of that
 * folder built on linux/amd64; anything else is the standard library or another module.
 */
import { dirname } from "../../shared/paths.ts";
import type { ModuleResolver, ProjectFiles, ResolvedImport } from "../types.ts";

interface GoTables {
  /** Module path → its folder ("" for the root), longest first. */
  modules: [string, string][];
  /** Folder → its non-test Go files of the default build. */
  packages: Map<string, string[]>;
}

/** File name suffixes of builds other than linux/amd64 (`_windows.go`, `_arm64.go`, `_darwin_arm64.go`). */
const OTHER_BUILD = new RegExp(
  String.raw`_(windows|darwin|freebsd|netbsd|openbsd|plan9|solaris|aix|android|ios|illumos|dragonfly|js|` +
    String.raw`wasip1|zos|hurd|nacl|386|arm|arm64|mips|mipsle|mips64|mips64le|ppc64|ppc64le|riscv64|s390x|` +
    String.raw`wasm|loong64)(_[a-z0-9]+)?\.go$`,
);

function prepareGo(project: ProjectFiles): GoTables {
  const modules: [string, string][] = [];
  const packages = new Map<string, string[]>();
  for (const path of project.paths()) {
    if (/(^|\/)go\.mod$/.test(path)) {
      const m = /^\s*module\s+"?([^\s"]+)"?/m.exec(project.config(path) ?? "");
      if (m) modules.push([m[1]!, dirname(path)]);
    } else if (path.endsWith(".go") && !path.endsWith("_test.go") && !OTHER_BUILD.test(path)) {
      const dir = dirname(path);
      (packages.get(dir) ?? packages.set(dir, []).get(dir)!).push(path);
    }
  }
  modules.sort((a, b) => b[0].length - a[0].length);
  return { modules, packages };
}

function resolveGo(state: unknown, _from: string, module: string): ResolvedImport {
  const { modules, packages } = state as GoTables;
  for (const [mod, dir] of modules) {
    if (module !== mod && !module.startsWith(`${mod}/`)) continue;
    const rest = module.slice(mod.length + 1);
    const folder = [dir, rest].filter(Boolean).join("/");
    const files = packages.get(folder);
    return files?.length ? { file: files[0]!, files, external: false } : { external: true };
  }
  return { external: true };
}

/**
 * The package name an import path binds without an alias: its last element, skipping a major
 * version (`chi/v5` → chi) and the usual decorations (`yaml.v3` → yaml, `go-isatty` → isatty).
 */
export function goPackageName(module: string): string {
  const parts = module.split("/");
  let last = parts.at(-1)!;
  if (/^v\d+$/.test(last) && parts.length > 1) last = parts.at(-2)!;
  return last
    .replace(/\.v\d+$/, "")
    .replace(/^go-|-go$|\.go$/g, "")
    .replace(/[^\w]/g, "_");
}

export const goResolver: ModuleResolver = {
  prepare: prepareGo,
  configs: /(^|\/)go\.mod$/,
  resolve: resolveGo,
  localName: goPackageName,
};
