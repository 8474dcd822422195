/**
 * `#include` resolution for C and C++. A quoted include (`"util.h"`) is looked up beside the
 * including file first; then, quoted or angled (`<leveldb/db.h>`), under the include directories:
 * the `-I`/`-isystem`/`-iquote` folders of a `compile_commands.json` when the project has one
 * (the entries of the including file first, then every entry's), else the project's files whose
 * path ends with the included path, the one sharing the longest folder prefix with the includer
 * first (what `-I` flags pointing at the project's own folders give). Anything else — `<stdio.h>`,
 * `<vector>`, a library's headers — is outside the project.
 */
import { dirname } from "../../shared/paths.ts";
import type { ModuleResolver, ProjectFiles, ResolvedImport } from "../types.ts";

interface IncludeTables {
  files: ProjectFiles;
  /** Path tails (`db.h`, `leveldb/db.h`, `include/leveldb/db.h`) → the files ending so. */
  tails: Map<string, string[]>;
  /** From compile_commands.json: file → its include folders; and every folder any entry names. */
  dirsOf: Map<string, string[]>;
  allDirs: string[];
}

/** Path tails indexed per file; a deeper include path is found by its last segments. */
const MAX_TAIL = 6;

/** Joins and normalizes a relative path (`a/b/../c` → `a/c`); undefined when it leaves the root. */
function normalize(path: string): string | undefined {
  const out: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (!out.length) return undefined;
      out.pop();
    } else out.push(part);
  }
  return out.join("/");
}

/** The include folders of one compile command, relative to the project root. */
function includeDirs(entry: { directory?: string; arguments?: string[]; command?: string }, root: string): string[] {
  const args = entry.arguments ?? (entry.command ?? "").split(/\s+/);
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const m = /^(-I|-isystem|-iquote)(.*)$/.exec(a);
    if (!m) continue;
    let dir = m[2] || args[++i] || "";
    if (!dir.startsWith("/")) dir = `${entry.directory ?? root}/${dir}`;
    const rel = dir === root ? "" : dir.startsWith(`${root}/`) ? normalize(dir.slice(root.length + 1)) : undefined;
    if (rel !== undefined) out.push(rel);
  }
  return out;
}

function prepareIncludes(project: ProjectFiles): IncludeTables {
  const tails = new Map<string, string[]>();
  const dirsOf = new Map<string, string[]>();
  const all = new Set<string>();
  for (const path of project.paths()) {
    const parts = path.split("/");
    for (let i = Math.max(0, parts.length - MAX_TAIL); i < parts.length; i++) {
      const k = parts.slice(i).join("/");
      (tails.get(k) ?? tails.set(k, []).get(k)!).push(path);
    }
    if (!/(^|\/)compile_commands\.json$/.test(path)) continue;
    let entries: { directory?: string; file?: string; arguments?: string[]; command?: string }[];
    try {
      entries = JSON.parse(project.config(path) ?? "[]");
    } catch {
      continue; // an unreadable database: fall back to path tails
    }
    if (!Array.isArray(entries)) continue;
    const files = entries.map((e) => e.file ?? "").filter(Boolean);
    const root = commonRoot(files, project);
    if (root === undefined) continue;
    for (const e of entries) {
      const dirs = includeDirs(e, root);
      for (const d of dirs) all.add(d);
      const f = e.file?.startsWith("/") ? e.file.slice(root.length + 1) : normalize(`${dirname(path)}/${e.file ?? ""}`);
      if (f) dirsOf.set(f, dirs);
    }
  }
  return { files: project, tails, dirsOf, allDirs: [...all] };
}

/**
 * The absolute folder of the project root as the database names it: an absolute source path less the project path it
 * ends with.
 */
function commonRoot(files: string[], project: ProjectFiles): string | undefined {
  for (const abs of files) {
    if (!abs.startsWith("/")) continue;
    const parts = abs.split("/");
    for (let i = 1; i < parts.length; i++)
      if (project.has(parts.slice(i).join("/"))) return parts.slice(0, i).join("/");
  }
  return undefined;
}

function commonPrefix(a: string, b: string): number {
  const x = a.split("/"),
    y = b.split("/");
  let n = 0;
  while (n < x.length - 1 && n < y.length - 1 && x[n] === y[n]) n++;
  return n;
}

function resolveInclude(state: unknown, from: string, module: string): ResolvedImport {
  const t = state as IncludeTables;
  const angled = module.startsWith("<") && module.endsWith(">");
  const path = angled ? module.slice(1, -1).trim() : module;
  if (!angled) {
    const beside = normalize(`${dirname(from)}/${path}`);
    if (beside !== undefined && t.files.has(beside)) return { file: beside, external: false };
  }
  const dirs = t.dirsOf.get(from) ?? (t.allDirs.length ? t.allDirs : undefined);
  if (dirs) {
    for (const d of dirs) {
      const p = normalize(d ? `${d}/${path}` : path);
      if (p !== undefined && t.files.has(p)) return { file: p, external: false };
    }
    if (t.dirsOf.size) return { external: true };
  }
  const found = t.tails.get(normalize(path) ?? path);
  if (!found?.length) return { external: true };
  // The candidate nearest the includer; an angled include of a name the system has (<string.h>) only when the project
  // path says more than the name.
  if (angled && !path.includes("/") && found.every((f) => f.includes("/"))) return { external: true };
  const best = [...found].sort((a, b) => commonPrefix(b, from) - commonPrefix(a, from) || a.length - b.length)[0]!;
  return { file: best, external: false };
}

export const includeResolver: ModuleResolver = {
  prepare: prepareIncludes,
  configs: /(^|\/)compile_commands\.json$/,
  resolve: resolveInclude,
};

/** Words that may start a declaration (C and C++ keywords and qualifiers): never taken for a macro. */
const DECL_WORDS = new Set(
  (
    "auto break case char class const constexpr consteval constinit continue default delete do double else enum " +
    "explicit " +
    ("export extern float for friend goto if inline int long mutable namespace new noexcept operator private " +
      "protected public register ") +
    ("restrict return short signed sizeof static static_assert struct switch template thread_local throw typedef " +
      "typename union unsigned ") +
    ("using virtual void volatile while co_return co_await co_yield _Noreturn _Thread_local _Alignas " +
      "_Static_assert __inline __inline__ ") +
    "__extension__ bool"
  ).split(" "),
);

/** An annotation macro after a declarator (`int n_ GUARDED_BY(mu_);`). */
const MACRO_AFTER_DECLARATOR = new RegExp(
  String.raw`^([ \t]*)(?!(?:if|while|for|switch|else|return|do|` +
    String.raw`case)\b)(\S.*?[\w)])([ \t]+)([A-Z][A-Z0-9_]*\([^()\n]*\))(?=[ \t]*[;{])`,
  "gm",
);

/** An export macro before a declaration's type (`API int f(…)`). */
const MACRO_BEFORE_TYPE = new RegExp(
  String.raw`^([ \t]*)([A-Za-z_]\w*)(?=[ \t]+(?:(?:const|volatile|unsigned|signed|struct|union|enum|` +
    String.raw`long|short)[ \t]+)*([A-Za-z_]\w*)[ \t*&]+[A-Za-z_]\w*[ \t]*\()`,
  "gm",
);

/**
 * The text tree-sitter parses, with the macros the preprocessor would expand away where the grammar
 * cannot read them blanked out (same length, same lines and columns):
 * - an upper-case macro between `class`/`struct`/`union` and the name (`class TINYXML2_LIB XMLNode {`,
 *   `struct LEVELDB_EXPORT Options {`): an export or attribute macro;
 * - a word before a declaration that already has its type and name (`LUA_API int lua_gettop (`,
 *   `l_sinline Node *mainposition (`): a storage or visibility macro, since in C a type and a
 *   name are all a declaration takes before its parameters;
 * - an upper-case word between the type and the name (`int CJSON_CDECL main (`): a calling convention;
 * - an upper-case macro call between a declarator and its `;` or body (`int n_ GUARDED_BY(mu_);`):
 *   a thread-safety or attribute annotation.
 */
export function blankExportMacros(text: string): string {
  const blank = (w: string) => " ".repeat(w.length);
  return (
    text
      .replace(
        /\b(class|struct|union)(\s+)([A-Z][A-Z0-9_]*)(?=\s+[A-Za-z_]\w*\s*(?:[:{]|final\b))/g,
        (_m, kw: string, ws: string, macro: string) => `${kw}${ws}${blank(macro)}`,
      )
      .replace(MACRO_BEFORE_TYPE, (m, ws: string, word: string, type: string) =>
        DECL_WORDS.has(word) || type === "const" || type === "volatile" ? m : `${ws}${blank(word)}`,
      )
      // a calling-convention macro between the type and the name (`int CJSON_CDECL main(void)`)
      .replace(
        /^([ \t]*([A-Za-z_]\w*)[ \t*]+)([A-Z][A-Z0-9_]+)(?=[ \t]+[A-Za-z_]\w*[ \t]*\()/gm,
        (m, head: string, first: string, macro: string) =>
          /^(return|case|goto|else|do|throw|delete|new|sizeof)$/.test(first) ? m : `${head}${blank(macro)}`,
      )
      // an annotation macro after a declarator (`int n_ GUARDED_BY(mu_);`, `void F() EXCLUSIVE_LOCKS_REQUIRED(mu);`)
      .replace(MACRO_AFTER_DECLARATOR, (m, ws: string, decl: string, gap: string, macro: string) => {
        const last = /(\w+)$/.exec(decl)?.[1];
        if (/\b(if|while|for|switch)\s*\(/.test(decl)) return m;
        // after a parameter list (or its const/override/noexcept) any such macro is an annotation; after
        // a plain name only one with arguments (`GUARDED_BY(mu)`), else it is the function `T OK();`
        const afterParams = decl.endsWith(")") || /^(const|override|noexcept|final)$/.test(last ?? "");
        const field =
          last !== undefined && !DECL_WORDS.has(last) && /\w[\s*&]+\w+$/.test(decl) && !/\(\s*\)$/.test(macro);
        return afterParams || field ? `${ws}${decl}${gap}${blank(macro)}` : m;
      })
  );
}
