/**
 * Opening a group of repositories on Node: from `--root` given more than once (`--root api=../backend`
 * names one; otherwise the folder's name does) or from a group file (`codeslice.group.json`:
 * `{ "repos": [ { "name": "api", "root": "backend", "index": "api.csidx" } ] }`, paths relative to
 * the file and never outside its folder). One engine per repository, each with its own cache folder.
 */
import * as nodePath from "node:path";
import { existsSync, readFileSync, realpathSync, statSync } from "node:fs";
import {
  checkRepoNames,
  createEngine,
  createEngineGroup,
  EngineError,
  REPO_NAME,
  type Engine,
  type EngineGroup,
  type Logger,
  type Platform,
} from "../index.ts";
import { quoted } from "../shared/quote.ts";

/** One repository of a group as given: its name, its folder, and an index artifact to load first. */
export interface GroupEntry {
  name: string;
  root: string;
  /**
   * A portable index artifact (`codeslice index --export`) loaded into the repository's cache before its first index.
   */
  index?: string;
}

/** The file name a group file has by convention. */
export const GROUP_FILE = "codeslice.group.json";

/** Entries from `--root` values: `DIR` (named after the folder) or `NAME=DIR`. */
export function entriesFromRoots(roots: readonly string[], cwd: string): GroupEntry[] {
  const entries = roots.map((value) => {
    const eq = value.indexOf("=");
    const named = eq > 0 && REPO_NAME.test(value.slice(0, eq));
    const root = nodePath.resolve(cwd, named ? value.slice(eq + 1) : value);
    return { name: named ? value.slice(0, eq) : nodePath.basename(root), root };
  });
  const names = entries.map((e) => e.name);
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice !== undefined) {
    throw new EngineError(
      "invalid_argument",
      `Two --root folders are named ${quoted(twice)}; name them: --root NAME=DIR.`,
      { hint: "Give each folder its own name.", data: { argument: "root", value: twice } },
    );
  }
  return entries;
}

/** Largest group file read: a list of folders is a few hundred bytes. */
export const MAX_GROUP_FILE_BYTES = 1 << 20;

/** Reads a group file; refuses a root or index outside the file's folder, and a missing root. */
export function readGroupFile(file: string): GroupEntry[] {
  let raw: unknown;
  try {
    const size = statSync(file).size;
    if (size > MAX_GROUP_FILE_BYTES)
      throw new Error(`it is ${size} bytes; a group file holds at most ${MAX_GROUP_FILE_BYTES}`);
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new EngineError(
      "invalid_argument",
      `The group file ${file} could not be read as JSON: ${(error as Error).message}.`,
      {
        hint: `Write it as { "repos": [ { "name": "api", "root": "backend" } ] }.`,
        data: { argument: "group", value: file },
      },
    );
  }
  const repos = (raw as { repos?: unknown })?.repos;
  if (!Array.isArray(repos) || !repos.length) {
    throw new EngineError("invalid_argument", `The group file ${file} lists no repositories.`, {
      hint: `Write it as { "repos": [ { "name": "api", "root": "backend" } ] }.`,
      data: { argument: "group", value: file },
    });
  }
  const base = realpathSync(nodePath.dirname(nodePath.resolve(file)));
  return repos.map((r: unknown, i) => {
    const { name, root, index } = (r ?? {}) as Record<string, unknown>;
    if (typeof name !== "string" || typeof root !== "string" || (index !== undefined && typeof index !== "string")) {
      throw new EngineError(
        "invalid_argument",
        `Entry ${i + 1} of ${file} needs a "name" and a "root" (strings), and "index" when given is a string.`,
        { hint: `Write each entry as { "name": "api", "root": "backend" }.`, data: { argument: "group", value: file } },
      );
    }
    return {
      name,
      root: inside(base, root, file),
      ...(index !== undefined ? { index: inside(base, index, file) } : {}),
    };
  });
}

/** `path` resolved against the group file's folder; refused when it leaves that folder (symbolic links followed). */
function inside(base: string, path: string, file: string): string {
  const resolved = nodePath.resolve(base, path);
  const real = existsSync(resolved) ? realpathSync(resolved) : resolved;
  const rel = nodePath.relative(base, real);
  if (rel.startsWith("..") || nodePath.isAbsolute(rel)) {
    throw new EngineError(
      "outside_root",
      `${quoted(path)} in ${file} leads outside the group file's folder ${base}: a group file lists ` +
        `only folders inside its own.`,
      {
        hint: "Move the group file to a folder that holds every repository, or pass the folders with --root.",
        data: { path: real, target: path },
      },
    );
  }
  return resolved;
}

/** The package names a repository publishes: package.json `name`, pyproject.toml `[project] name`. */
function publishedPackages(root: string): string[] {
  const out: string[] = [];
  try {
    const name = JSON.parse(readFileSync(nodePath.join(root, "package.json"), "utf8"))?.name;
    if (typeof name === "string" && name) out.push(name);
  } catch {
    /* no package.json */
  }
  try {
    const m = /^\[project\][^[]*?^name\s*=\s*["']([^"']+)["']/ms.exec(
      readFileSync(nodePath.join(root, "pyproject.toml"), "utf8"),
    );
    if (m) out.push(m[1]!, m[1]!.replace(/-/g, "_"));
  } catch {
    /* no pyproject.toml */
  }
  return [...new Set(out)];
}

/** An opened group: the group, and a way to close every engine. */
export interface OpenedGroup {
  group: EngineGroup;
  close(): void;
}

/**
 * One engine per entry, each over its own platform (its own cache: `<root>/.codeslice`, or
 * `<cacheDir>/<name>`); a missing folder or a file where a folder should be is refused before any is opened.
 */
export async function openGroup(
  entries: readonly GroupEntry[],
  createPlatform: (options: { root: string; cacheDir?: string; logger?: Logger }) => Promise<Platform>,
  options: { cacheDir?: string; logger?: Logger; watch?: boolean } = {},
): Promise<OpenedGroup> {
  // Names become cache folders: checked before any platform is made for them.
  checkRepoNames(entries.map((e) => e.name));
  for (const e of entries) {
    if (!existsSync(e.root))
      throw new EngineError(
        "root_not_found",
        `The folder of repository ${quoted(e.name)}, ${e.root}, does not exist.`,
        { hint: "Fix the path, or leave that repository out of the group.", data: { root: e.root } },
      );
    if (!statSync(e.root).isDirectory())
      throw new EngineError(
        "root_not_directory",
        `The root of repository ${quoted(e.name)}, ${e.root}, is not a folder.`,
        { hint: "Pass the repository's folder.", data: { root: e.root } },
      );
  }
  const engines: Engine[] = [];
  try {
    const members = [];
    for (const e of entries) {
      const platform = await createPlatform({
        root: e.root,
        ...(options.cacheDir ? { cacheDir: nodePath.join(options.cacheDir, e.name) } : {}),
        ...(options.logger ? { logger: options.logger } : {}),
      });
      const rel = nodePath.relative(platform.fs.rootLabel, platform.store.label);
      const exclude =
        rel && !rel.startsWith("..") && !nodePath.isAbsolute(rel) ? [rel.split(nodePath.sep).join("/")] : [];
      const engine = createEngine(platform, { watch: options.watch ?? false, exclude });
      engines.push(engine);
      if (e.index) await engine.importIndex(new Uint8Array(readFileSync(e.index)));
      members.push({ name: e.name, engine, root: platform.fs.rootLabel, packages: publishedPackages(e.root) });
    }
    const group = createEngineGroup(members);
    return { group, close: () => engines.forEach((x) => x.close()) };
  } catch (error) {
    for (const x of engines) x.close();
    throw error;
  }
}
