/**
 * Rust module resolution. A crate is a root file (`src/lib.rs`, `src/main.rs`, `src/bin/x.rs`,
 * `tests/x.rs`, `examples/x.rs`, `benches/x.rs`, `build.rs`, or the `path` of a `[[bin]]`/`[lib]` target
 * elsewhere: ripgrep's `crates/core/main.rs`) under a folder with a Cargo.toml; a
 * module is a file below its root's folder (`src/a/b.rs` or `src/a/b/mod.rs` is `a::b`), or an
 * inline `mod x { … }` (reached through `within`). A `use` path starts at `crate`, `self`,
 * `super` (from the module the `use` sits in, inline modules counted), the package's own crate name
 * (tests and examples use the library by it), or a name in scope: a child module; anything else is
 * another crate (std, a dependency).
 */
import { dirname } from "../../shared/paths.ts";
import type { ModuleResolver, ProjectFiles, ResolvedImport } from "../types.ts";

interface Crate {
  /** The folder whose files are the crate's modules (`src`, `tests`…). */
  dir: string;
  /** The library's folder, for paths that start with the package's crate name. */
  libDir: string | undefined;
  /** The package's crate name (`regex_syntax`). */
  name: string | undefined;
}

interface RustTables {
  files: Set<string>;
  /** Folder of a Cargo.toml → its crate name and library folder. */
  packages: Map<string, { name: string | undefined; libDir: string | undefined }>;
  /** Crate names of the project's packages → their library folder. */
  libs: Map<string, string>;
  /** Crates from outside: the standard ones and every dependency a Cargo.toml names. */
  outside: Set<string>;
  /**
   * Crate roots a Cargo.toml places outside the usual folders (`[[bin]] path = "crates/core/main.rs"`, ripgrep's):
   * the root file's folder → the folder of its Cargo.toml.
   */
  rootDirs: Map<string, string>;
}

const STANDARD = ["std", "core", "alloc", "proc_macro", "test"];

const ROOT_DIRS = ["src", "tests", "examples", "benches"];

function prepareRust(project: ProjectFiles): RustTables {
  const files = new Set<string>();
  const packages = new Map<string, { name: string | undefined; libDir: string | undefined }>();
  const libs = new Map<string, string>();
  const outside = new Set<string>(STANDARD);
  const rootDirs = new Map<string, string>();
  for (const path of project.paths()) {
    if (path.endsWith(".rs")) files.add(path);
    else if (/(^|\/)Cargo\.toml$/.test(path)) {
      const text = project.config(path) ?? "";
      const pkg = /^\[package\][^[]*?^name\s*=\s*"([^"]+)"/ms.exec(text)?.[1];
      const lib = /^\[lib\][^[]*?^name\s*=\s*"([^"]+)"/ms.exec(text)?.[1];
      const dir = dirname(path);
      const src = dir ? `${dir}/src` : "src";
      const name = (lib ?? pkg)?.replace(/-/g, "_");
      packages.set(dir, { name, libDir: src });
      // `[[bin]]` / `[lib]` targets with a `path` of their own: their folder holds the crate's modules.
      for (const m of text.matchAll(/^\[\[?(?:bin|lib)\]\]?([^[]*)/gm)) {
        const root = /^\s*path\s*=\s*"([^"]+\.rs)"/m.exec(m[1]!)?.[1]?.replace(/^\.\//, "");
        if (root && root.includes("/")) rootDirs.set(dirname(dir ? `${dir}/${root}` : root), dir);
      }
      if (name) libs.set(name, src);
      // [dependencies], [dev-dependencies], [target.'…'.dependencies]: `name = …` lines and `[dependencies.name]`.
      for (const m of text.matchAll(/^\[(?:target\.[^\]]*\.)?(?:dev-|build-)?dependencies\]([^[]*)/gm)) {
        for (const d of m[1]!.matchAll(/^([\w-]+)\s*=/gm)) outside.add(d[1]!.replace(/-/g, "_"));
      }
      for (const m of text.matchAll(/^\[(?:target\.[^\]]*\.)?(?:dev-|build-)?dependencies\.([\w-]+)\]/gm))
        outside.add(m[1]!.replace(/-/g, "_"));
    }
  }
  for (const name of libs.keys()) outside.delete(name);
  return { files, packages, libs, outside, rootDirs };
}

/** The crate a file belongs to and its module path inside it (`src/a/b.rs` → [a, b]). */
function moduleOf(t: RustTables, path: string): { crate: Crate; mods: string[] } | undefined {
  const parts = path.replace(/\.rs$/, "").split("/");
  // The nearest folder with a Cargo.toml above a root folder (src, tests, …).
  for (let i = parts.length - 2; i >= 0; i--) {
    if (!ROOT_DIRS.includes(parts[i]!)) continue;
    const pkgDir = parts.slice(0, i).join("/");
    const pkg = t.packages.get(pkgDir);
    if (!pkg) continue;
    let mods = parts.slice(i + 1);
    const dir = parts.slice(0, i + 1).join("/");
    if (mods.at(-1) === "mod") mods = mods.slice(0, -1);
    // The crate roots: src/lib.rs, src/main.rs, src/bin/x.rs, tests/x.rs…
    if (mods.length === 1 && (parts[i] !== "src" || mods[0] === "lib" || mods[0] === "main")) mods = [];
    else if (parts[i] === "src" && mods[0] === "bin" && mods.length === 2) mods = [];
    return { crate: { dir, libDir: pkg.libDir, name: pkg.name }, mods };
  }
  // Below a root a Cargo.toml names by path: the nearest such folder.
  for (let i = parts.length - 1; i > 0; i--) {
    const dir = parts.slice(0, i).join("/");
    const pkgDir = t.rootDirs.get(dir);
    const pkg = pkgDir === undefined ? undefined : t.packages.get(pkgDir);
    if (!pkg) continue;
    let mods = parts.slice(i);
    if (mods.at(-1) === "mod") mods = mods.slice(0, -1);
    if (mods.length === 1 && (mods[0] === "main" || mods[0] === "lib")) mods = [];
    return { crate: { dir, libDir: pkg.libDir, name: pkg.name }, mods };
  }
  return undefined;
}

/** The file of module `mods` under `dir`, if it is a file of the project. */
function moduleFile(t: RustTables, dir: string, mods: string[]): string | undefined {
  if (mods.length === 0) {
    for (const root of ["lib.rs", "main.rs"]) if (t.files.has(`${dir}/${root}`)) return `${dir}/${root}`;
    return undefined;
  }
  const base = `${dir}/${mods.join("/")}`;
  if (t.files.has(`${base}.rs`)) return `${base}.rs`;
  if (t.files.has(`${base}/mod.rs`)) return `${base}/mod.rs`;
  return undefined;
}

function resolveRust(
  state: unknown,
  from: string,
  module: string,
  name: string | undefined,
  enclosing: readonly string[] = [],
): ResolvedImport {
  const t = state as RustTables;
  const here = moduleOf(t, from);
  const segs = module
    .split("::")
    .map((s) => s.trim())
    .filter(Boolean);
  if (!here || segs.length === 0) return { external: true };
  if (name !== undefined && name !== "self") segs.push(name);
  // The root the path starts from, as a folder and a module path (with inline modules after the file's).
  let dir = here.crate.dir;
  let mods: string[];
  let inline: string[] = [];
  const first = segs[0]!;
  if (first === "crate") {
    mods = [];
    // A file of tests/ belongs to each test crate; its `crate` is the file's own root, which we cannot
    // tell apart: take the folder's root module when there is one.
    segs.shift();
  } else if (first === "self" || first === "super") {
    mods = [...here.mods];
    inline = [...enclosing];
    segs.shift();
    if (first === "super") {
      if (inline.length) inline.pop();
      else mods.pop();
    }
    while (segs[0] === "super") {
      segs.shift();
      if (inline.length) inline.pop();
      else mods.pop();
    }
  } else if (moduleFile(t, here.crate.dir, [...here.mods, first]) && enclosing.length === 0) {
    // A child module in scope (`mod a;` then `use a::X`).
    mods = [...here.mods];
  } else if (t.libs.has(first)) {
    // Another crate of the project (a workspace member), or this package's library.
    dir = t.libs.get(first)!;
    mods = [];
    segs.shift();
  } else if (t.outside.has(first)) {
    return { external: true };
  } else {
    // A name in scope that is no module file: an inline module (or an item) of this file.
    return leaf(t, from, segs, name);
  }
  if (inline.length) {
    // Inside an inline module of this file: the rest reaches into it.
    const file = moduleFile(t, dir, mods) ?? from;
    return leaf(t, file, [...inline, ...segs], name);
  }
  // Descend through module files as far as they go; the rest is inside the last file.
  while (segs.length) {
    const next = moduleFile(t, dir, [...mods, segs[0]!]);
    if (!next) break;
    mods.push(segs.shift()!);
  }
  // A root of its own (tests/x.rs, examples/x.rs): `crate` is the file itself.
  const file =
    moduleFile(t, dir, mods) ??
    (mods.length === 0 && dir === here.crate.dir && here.mods.length === 0 ? from : undefined);
  if (!file) return { external: false };
  return leaf(t, file, segs, name);
}

/**
 * What a resolved path names inside `file`: the file itself (a module), or `rest` inside it. With
 * an imported `name` the resolver reports the module it sits in (`file`) and `within` the inline
 * modules or type on the way; a name that is itself a module file is a `submodule`.
 */
function leaf(_t: RustTables, file: string, rest: string[], name: string | undefined): ResolvedImport {
  if (name === undefined || name === "self") {
    // `use a::b` (kind module), `use a::b::{self}`, `use a::*`: the module b, or a type/inline module in it.
    if (rest.length === 0) return { file, external: false };
    return { file, within: rest, external: false };
  }
  // `use a::b::X`: X was pushed onto the path; it is in the module before it.
  if (rest.length === 0) return { file, submodule: file, external: false };
  if (rest.length === 1) return { file, external: false };
  return { file, within: rest.slice(0, -1), external: false };
}

export const rustResolver: ModuleResolver = {
  prepare: prepareRust,
  configs: /(^|\/)Cargo\.toml$/,
  resolve: resolveRust,
  localName: (module) => module.split("::").at(-1)!.trim(),
};
