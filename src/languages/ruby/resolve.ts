/**
 * Ruby require resolution, as Ruby finds a feature: `require_relative "x"` is `x.rb` beside the
 * requiring file; `require "a/b"` is `a/b.rb` under a folder of `$LOAD_PATH`, which for a project
 * is its `lib/` folders (gems put `lib/` there) and its `test/` and `spec/` folders (test runners
 * add them: `rake test`, `rspec`); `load "x"` is read from the project root. The import record does
 * not say which of the three it was, so a path is tried beside the file first, then on the load
 * path, then from the root. Anything else is the standard library or a gem.
 */
import { dirname } from "../../shared/paths.ts";
import type { ModuleResolver, ProjectFiles, ResolvedImport } from "../types.ts";

interface RubyTables {
  /** Load-path folders of the project (`lib`, `test`, `spec`, nested ones too), shortest first. */
  roots: string[];
  has: (path: string) => boolean;
}

const LOAD_PATH_DIRS = /(^|\/)(lib|test|spec)$/;

function prepareRuby(project: ProjectFiles): RubyTables {
  const roots = new Set<string>();
  for (const path of project.paths()) {
    if (!path.endsWith(".rb")) continue;
    for (let dir = dirname(path); dir; dir = dirname(dir)) if (LOAD_PATH_DIRS.test(dir)) roots.add(dir);
  }
  return { roots: [...roots].sort((a, b) => a.length - b.length || (a < b ? -1 : 1)), has: (p) => project.has(p) };
}

/** `a/./b/../c` → `a/c`; undefined when it climbs above the root. */
function normalize(path: string): string | undefined {
  const out: string[] = [];
  for (const seg of path.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") {
      if (!out.length) return undefined;
      out.pop();
    } else out.push(seg);
  }
  return out.join("/");
}

function resolveRuby(state: unknown, from: string, module: string): ResolvedImport {
  const { roots, has } = state as RubyTables;
  const feature = module.replace(/\.rb$/, "");
  const tryAt = (base: string) => {
    const p = normalize(base ? `${base}/${feature}` : feature);
    return p !== undefined && has(`${p}.rb`) ? `${p}.rb` : undefined;
  };
  const beside = tryAt(dirname(from));
  if (beside) return { file: beside, external: false };
  if (!feature.startsWith(".")) {
    for (const root of roots) {
      const f = tryAt(root);
      if (f) return { file: f, external: false };
    }
  }
  const fromRoot = tryAt("");
  return fromRoot ? { file: fromRoot, external: false } : { external: true };
}

/**
 * `Thor.CoreExt.HashWithIndifferentAccess` → `thor/core_ext/hash_with_indifferent_access`, as gems lay out their files.
 */
export function rubyFeaturePath(qualified: string): string {
  return qualified
    .split(".")
    .map((c) =>
      c
        .replace(/([a-z\d])([A-Z])/g, "$1_$2")
        .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
        .toLowerCase(),
    )
    .join("/");
}

/** True when `path` is where Ruby's naming convention puts the class or module `qualified`. */
export function rubyHomeFile(path: string, qualified: string): boolean {
  const feature = `${rubyFeaturePath(qualified)}.rb`;
  return path === feature || path.endsWith(`/${feature}`);
}

export const rubyResolver: ModuleResolver = {
  prepare: prepareRuby,
  resolve: resolveRuby,
};
