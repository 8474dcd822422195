/**
 * TypeScript/JavaScript module resolution: relative paths with and without extensions, index
 * files, `.js` specifiers naming `.ts` sources, tsconfig `paths`/`baseUrl` (with `extends`), and
 * workspace packages (package.json `name` with `exports`/`main`/`module`/`types`, else src/index).
 */
import { dirname as dirOf, resolveRelative as join } from "../../shared/paths.ts";
import type { ModuleResolver, ProjectFiles } from "../types.ts";

const EXTENSIONS = [".ts", ".tsx", ".d.ts", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"];
const JS_TO_TS: Record<string, string[]> = {
  ".js": [".ts", ".tsx", ".d.ts", ".js", ".jsx"],
  ".jsx": [".tsx", ".jsx"],
  ".mjs": [".mts", ".d.mts", ".mjs"],
  ".cjs": [".cts", ".d.cts", ".cjs"],
};

interface TsConfig {
  dir: string;
  baseUrl?: string;
  paths?: { pattern: string; targets: string[] }[];
}

interface TsTables {
  project: ProjectFiles;
  /** Folder → the tsconfig that governs it (nearest tsconfig.json upward). */
  configs: Map<string, TsConfig | undefined>;
  tsconfigDirs: Set<string>;
  /** Workspace package name → its folder and entry candidates. */
  packages: Map<string, { dir: string; entries: string[] }>;
}

/** Parses JSON with comments and trailing commas (tsconfig style). Undefined when unparsable. */
export function parseJsonc(text: string): unknown {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      const start = i;
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
      out += text.slice(start, i + 1);
    } else if (c === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
      out += "\n";
    } else if (c === "/" && text[i + 1] === "*") {
      i = text.indexOf("*/", i + 2);
      if (i < 0) break;
      i++;
    } else out += c;
  }
  try {
    return JSON.parse(out.replace(/,(\s*[}\]])/g, "$1"));
  } catch {
    return undefined;
  }
}

function loadTsConfig(project: ProjectFiles, path: string, seen: Set<string> = new Set()): TsConfig | undefined {
  if (seen.has(path)) return undefined; // an `extends` cycle
  seen.add(path);
  const json = parseJsonc(project.config(path) ?? "") as
    | { extends?: string | string[]; compilerOptions?: { baseUrl?: string; paths?: Record<string, string[]> } }
    | undefined;
  if (!json || typeof json !== "object") return undefined;
  const dir = dirOf(path);
  let inherited: TsConfig | undefined;
  for (const ext of ([] as string[]).concat(json.extends ?? [])) {
    if (!ext.startsWith(".")) continue; // a package's shared config: outside the project
    let target = join(dir, ext);
    if (target !== undefined && !target.endsWith(".json")) target += ".json";
    if (target !== undefined && project.config(target) !== undefined)
      inherited = loadTsConfig(project, target, seen) ?? inherited;
  }
  const co = json.compilerOptions ?? {};
  const config: TsConfig = { dir };
  const baseUrl = co.baseUrl !== undefined ? join(dir, co.baseUrl) : inherited?.baseUrl;
  if (baseUrl !== undefined) config.baseUrl = baseUrl;
  if (co.paths) {
    // paths are relative to baseUrl when set, else to the tsconfig that declares them
    const root = co.baseUrl !== undefined ? baseUrl! : dir;
    config.paths = Object.entries(co.paths).map(([pattern, targets]) => ({
      pattern,
      targets: targets.map((t) => join(root, t)).filter((t): t is string => t !== undefined),
    }));
  } else if (inherited?.paths) config.paths = inherited.paths;
  return config;
}

function prepare(project: ProjectFiles): TsTables {
  const tsconfigDirs = new Set<string>();
  const packages = new Map<string, { dir: string; entries: string[] }>();
  for (const p of project.paths()) {
    const base = p.slice(p.lastIndexOf("/") + 1);
    if (base === "tsconfig.json" || base === "jsconfig.json") tsconfigDirs.add(dirOf(p));
    if (base === "package.json" && !p.includes("node_modules/")) {
      const json = parseJsonc(project.config(p) ?? "") as
        | { name?: string; main?: string; module?: string; types?: string; exports?: unknown }
        | undefined;
      if (!json?.name) continue;
      const dir = dirOf(p);
      const entries: string[] = [];
      const exp = json.exports;
      const pick = (v: unknown): void => {
        if (typeof v === "string") entries.push(v);
        else if (v && typeof v === "object") {
          const o = v as Record<string, unknown>;
          if ("." in o) pick(o["."]);
          else for (const k of ["source", "types", "import", "default", "require", "node"]) if (k in o) pick(o[k]);
        }
      };
      pick(exp);
      for (const f of [json.types, json.module, json.main]) if (f) entries.push(f);
      entries.push("src/index", "index");
      packages.set(json.name, { dir, entries });
    }
  }
  return { project, configs: new Map(), tsconfigDirs, packages };
}

function configFor(t: TsTables, fromPath: string): TsConfig | undefined {
  const dir = dirOf(fromPath);
  if (t.configs.has(dir)) return t.configs.get(dir);
  let found: TsConfig | undefined;
  for (let d: string | undefined = dir; d !== undefined; d = d === "" ? undefined : dirOf(d)) {
    if (t.tsconfigDirs.has(d)) {
      const file =
        t.project.config(d === "" ? "tsconfig.json" : `${d}/tsconfig.json`) !== undefined
          ? d === ""
            ? "tsconfig.json"
            : `${d}/tsconfig.json`
          : d === ""
            ? "jsconfig.json"
            : `${d}/jsconfig.json`;
      found = loadTsConfig(t.project, file);
      break;
    }
  }
  t.configs.set(dir, found);
  return found;
}

/** The file a path-like specifier names: exact, with an extension, `.js`→`.ts`, or an index file. */
export function resolveFile(project: ProjectFiles, target: string): string | undefined {
  const dot = target.lastIndexOf(".");
  const ext = dot > target.lastIndexOf("/") ? target.slice(dot) : "";
  if (JS_TO_TS[ext]) {
    const stem = target.slice(0, -ext.length);
    for (const e of JS_TO_TS[ext]!) if (project.has(stem + e)) return stem + e;
  }
  if (ext && project.has(target) && EXTENSIONS.some((e) => target.endsWith(e))) return target;
  for (const e of EXTENSIONS) if (project.has(target + e)) return target + e;
  for (const e of EXTENSIONS) if (project.has(`${target}/index${e}`)) return `${target}/index${e}`;
  return undefined;
}

function resolveTs(state: unknown, fromPath: string, module: string) {
  const t = state as TsTables;
  const project = t.project;
  if (module.startsWith("./") || module.startsWith("../") || module === "." || module === "..") {
    const target = join(dirOf(fromPath), module);
    const file = target === undefined ? undefined : resolveFile(project, target);
    return file ? { file, external: false } : { external: false };
  }
  if (module.startsWith("/")) return { external: false };
  const config = configFor(t, fromPath);
  for (const { pattern, targets } of config?.paths ?? []) {
    const star = pattern.indexOf("*");
    let matched: string | undefined;
    if (star < 0) matched = pattern === module ? "" : undefined;
    else if (
      module.startsWith(pattern.slice(0, star)) &&
      module.endsWith(pattern.slice(star + 1)) &&
      module.length >= pattern.length - 1
    ) {
      matched = module.slice(star, module.length - (pattern.length - star - 1));
    }
    if (matched === undefined) continue;
    for (const target of targets) {
      const file = resolveFile(project, target.replace("*", matched));
      if (file) return { file, external: false };
    }
  }
  if (config?.baseUrl !== undefined) {
    const file = resolveFile(project, config.baseUrl === "" ? module : `${config.baseUrl}/${module}`);
    if (file) return { file, external: false };
  }
  // Workspace packages: `name` or `name/sub/path` (scoped names have one more segment).
  const parts = module.split("/");
  const nameLen = module.startsWith("@") ? 2 : 1;
  const pkg = t.packages.get(parts.slice(0, nameLen).join("/"));
  if (pkg) {
    const sub = parts.slice(nameLen).join("/");
    const candidates = sub
      ? [sub, `src/${sub}`]
      : pkg.entries.flatMap((e) => [e, e.replace(/^\.?\/?(dist|lib|build|out)\//, "src/").replace(/\.d\.ts$/, ".ts")]);
    for (const c of candidates) {
      const target = join(pkg.dir, c);
      const file = target === undefined ? undefined : resolveFile(project, target);
      if (file) return { file, external: false };
    }
  }
  return { external: true };
}

export const typescriptResolver: ModuleResolver = {
  prepare,
  configs: /(^|\/)(tsconfig[^/]*\.json|jsconfig\.json|package\.json)$/,
  resolve: (state, fromPath, module) => resolveTs(state, fromPath, module),
};
