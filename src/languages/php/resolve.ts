/**
 * PHP import resolution, as Composer's autoloader finds classes: `use A\B\C` is the file a PSR-4
 * (or PSR-0) root of a `composer.json` maps `A\B\C` to (`"A\\": "src/"` → `src/B/C.php`, autoload
 * and autoload-dev), else a file whose path ends with the name's segments (`B/C.php`: classmap
 * folders and projects without Composer). `require`/`include` with a literal path is that file,
 * relative to the including file's folder, else to the project root. Anything else (a PHP
 * extension, a Composer dependency) is outside the project.
 */
import type { ModuleResolver, ProjectFiles, ResolvedImport } from "../types.ts";

interface PhpTables {
  /**
   * [namespace prefix with a trailing `\`, folder (no trailing slash, "" for the root), psr-0?], longest prefix first.
   */
  roots: [string, string, boolean][];
  /** `B/C.php` (any tail of a path) → the files that end with it. */
  tails: Map<string, string[]>;
  files: Set<string>;
  /** Composer's `files` autoload entries (function files), by the namespace their folder maps to under PSR-4. */
  functionFiles: Map<string, string[]>;
}

const MAX_TAIL = 8;
const dirOf = (p: string) => (p.includes("/") ? p.slice(0, p.lastIndexOf("/")) : "");
const join = (...parts: string[]) => normalize(parts.filter(Boolean).join("/"));

/** `a/./b/../c` → `a/c`; undefined when it climbs above the root. */
function normalize(path: string): string {
  const out: string[] = [];
  for (const seg of path.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") out.pop();
    else out.push(seg);
  }
  return out.join("/");
}

function preparePhp(project: ProjectFiles): PhpTables {
  const roots: PhpTables["roots"] = [];
  const tails = new Map<string, string[]>();
  const files = new Set<string>();
  const autoloaded: string[] = [];
  for (const path of project.paths()) {
    if (/(^|\/)composer\.json$/.test(path)) {
      let json: unknown;
      try {
        json = JSON.parse(project.config(path) ?? "");
      } catch {
        continue; // a broken composer.json maps nothing
      }
      const base = dirOf(path);
      for (const section of ["autoload", "autoload-dev"]) {
        const auto = (json as Record<string, Record<string, Record<string, string | string[]>>> | null)?.[section];
        const listed = (auto as Record<string, unknown> | undefined)?.files;
        if (Array.isArray(listed)) for (const f of listed) if (typeof f === "string") autoloaded.push(join(base, f));
        for (const [kind, psr0] of [
          ["psr-4", false],
          ["psr-0", true],
        ] as const) {
          const map = auto?.[kind];
          if (!map || typeof map !== "object") continue;
          for (const [prefix, dirs] of Object.entries(map)) {
            for (const d of Array.isArray(dirs) ? dirs : [dirs])
              if (typeof d === "string") roots.push([prefix.replace(/^\\+/, ""), join(base, d), psr0]);
          }
        }
      }
    }
    if (!path.endsWith(".php")) continue;
    files.add(path);
    const parts = path.split("/");
    for (let i = Math.max(0, parts.length - MAX_TAIL); i < parts.length; i++) {
      const k = parts.slice(i).join("/");
      (tails.get(k) ?? tails.set(k, []).get(k)!).push(path);
    }
  }
  roots.sort((a, b) => b[0].length - a[0].length);
  // `"files": ["src/functions.php"]` under `"A\\": "src/"` declares functions of namespace A (by convention).
  const functionFiles = new Map<string, string[]>();
  for (const f of autoloaded) {
    const root = roots.find(([, dir, psr0]) => !psr0 && (dir === "" || f.startsWith(`${dir}/`)));
    if (!root) continue;
    const sub = dirOf(root[1] === "" ? f : f.slice(root[1].length + 1));
    const ns = [root[0].replace(/\\+$/, ""), sub.replace(/\//g, "\\")].filter(Boolean).join("\\");
    (functionFiles.get(ns) ?? functionFiles.set(ns, []).get(ns)!).push(f);
  }
  return { roots, tails, files, functionFiles };
}

function resolvePhp(state: unknown, from: string, module: string, name: string | undefined): ResolvedImport {
  const t = state as PhpTables;
  if (/\.(php|phtml|inc)$/i.test(module) || module.includes("/")) {
    // require/include 'x.php': beside the including file, else from the root; `__DIR__ . '/x.php'`
    // (captured as `/x.php`) is beside it.
    for (const file of [join(dirOf(from), module), join(module)])
      if (t.files.has(file)) return { file, external: false };
    return { external: !module.startsWith(".") };
  }
  const full = [module, name].filter(Boolean).join("\\").replace(/^\\+/, "");
  for (const [prefix, dir, psr0] of t.roots) {
    if (prefix && !full.startsWith(prefix)) continue;
    const rest = psr0 ? full : full.slice(prefix.length);
    const file = join(dir, `${rest.replace(/\\/g, "/")}.php`);
    if (t.files.has(file)) return { file, external: false };
  }
  // `use function A\f`: the function file Composer loads for namespace A, when there is one.
  const fns = name !== undefined ? t.functionFiles.get(module.replace(/^\\+/, "")) : undefined;
  if (fns?.length === 1 && t.files.has(fns[0]!)) return { file: fns[0]!, external: false };
  const segs = full.split("\\");
  // (two segments at least: a bare `TestCase.php` is too weak a sign for `PHPUnit\Framework\TestCase`)
  for (let n = Math.min(segs.length, MAX_TAIL); n >= Math.min(2, segs.length); n--) {
    const hits = t.tails.get(`${segs.slice(-n).join("/")}.php`);
    if (hits?.length === 1 || (hits && n === segs.length)) return { file: hits[0]!, external: false };
    if (hits && hits.length > 1) break; // several files end so: no guess
  }
  return { external: true };
}

export const phpResolver: ModuleResolver = {
  prepare: preparePhp,
  configs: /(^|\/)composer\.json$/,
  resolve: resolvePhp,
};
