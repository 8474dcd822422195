/**
 * The inventory: which files of the root the engine looks at. In a git repository, tracked files
 * plus untracked files that git would not ignore (nested .gitignore, negations, .git/info/exclude);
 * elsewhere a walk with a conservative ignore list. Never follows a symbolic link out of the root.
 */
import { EngineError, isEngineError, throwIfAborted } from "../../shared/errors.ts";
import { LIMITS } from "../limits.ts";
import { joinPath } from "../../shared/paths.ts";
import type { FileSystem } from "../ports.ts";
import { DEFAULT_IGNORED_DIRS, skipByName, type SkippedFile } from "./defaults.ts";
import { GitignoreRules } from "./gitignore.ts";
import { readGitIndex, type IndexEntry } from "./git-index.ts";

/** One file in the inventory. */
export interface ScannedFile {
  path: string;
  size: number;
  mtimeMs: number;
  /** The git blob id, when the index records this exact file (same size and mtime). */
  blobId?: string;
}

/** Options for {@link scanRepository}. */
export interface ScanOptions {
  /** Files larger than this are skipped as `too_large` (default 1 MiB). */
  maxFileBytes?: number;
  /** Extra workspace-relative folders to leave out (a cache folder inside the root, say). */
  exclude?: string[];
  signal?: AbortSignal;
  onProgress?: (seen: number) => void;
}

/** The inventory and what was left out. */
export interface ScanResult {
  mode: "git" | "walk";
  files: ScannedFile[];
  skipped: SkippedFile[];
}

export const DEFAULT_MAX_FILE_BYTES = LIMITS.maxFileBytes;

/** Gitignore rules of one folder, matched relative to that folder. */
interface IgnoreLevel {
  dir: string;
  rules: GitignoreRules;
}

const decoder = new TextDecoder();

async function readText(fs: FileSystem, path: string): Promise<string | undefined> {
  try {
    return decoder.decode(await fs.readFile(path));
  } catch {
    return undefined;
  }
}

/**
 * `core.ignorecase` from a git config file. Git matches ignore patterns case-sensitively unless it
 * is set (as `git init` does on case-insensitive file systems); the `ignore` package's default is
 * the opposite, so the setting is read rather than assumed.
 */
export function gitIgnoreCase(config: string | undefined): boolean {
  let section = "";
  let value = false;
  for (const raw of (config ?? "").split(/\r?\n/)) {
    const line = raw.replace(/(^|\s)[#;].*$/, "").trim();
    const header = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"[^"]*")?\s*\]/.exec(line);
    if (header) {
      section = header[1]!.toLowerCase();
      continue;
    }
    const kv = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$/.exec(line);
    if (section === "core" && kv && kv[1]!.toLowerCase() === "ignorecase") {
      value = kv[2] === undefined || /^(true|yes|on|1)$/i.test(kv[2].trim());
    }
  }
  return value;
}

/** Git's verdict for `path` given the rule levels from the root down; deeper levels win. */
function gitIgnored(levels: IgnoreLevel[], path: string, isDir: boolean): boolean {
  for (let i = levels.length - 1; i >= 0; i--) {
    const { dir, rules } = levels[i]!;
    const rel = dir === "" ? path : path.slice(dir.length + 1);
    const r = rules.test(rel, isDir);
    if (r.ignored) return true;
    if (r.unignored) return false;
  }
  return false;
}

/**
 * Whether a file's mtime equals the one the git index recorded. Compared to the millisecond; an
 * index entry with no sub-second part (git built without nanosecond stamps) is compared by second.
 */
function sameMtime(indexMs: number, fileMs: number): boolean {
  return indexMs % 1000 === 0 ? Math.floor(indexMs / 1000) === Math.floor(fileMs / 1000) : indexMs === Math.floor(fileMs);
}

/**
 * Tracked files inside folders the walk did not enter (ignored or default-ignored) still count:
 * each one not yet in `files`, skipped, excluded or a submodule is stat'ed and added.
 */
async function addUnwalkedTracked(
  fs: FileSystem, tracked: Map<string, IndexEntry>, files: Map<string, ScannedFile>, skipped: SkippedFile[], exclude: Set<string>,
  addFile: (path: string, size: number, mtimeMs: number) => void,
): Promise<void> {
  const skippedPaths = new Set(skipped.map((s) => s.path));
  for (const [path, entry] of tracked) {
    if (files.has(path) || (entry.mode & 0o170000) === 0o160000) continue;
    if (skippedPaths.has(path)) continue;
    if ([...exclude].some((x) => path === x || path.startsWith(`${x}/`))) continue;
    try {
      const st = await fs.stat(path);
      if (st.kind === "file") addFile(path, st.size, st.mtimeMs);
    } catch {
      // deleted in the working tree, or a link out of the root: not part of what the user sees
    }
  }
}

/** Scans the root. Errors on individual entries become skipped files; only a bad root throws. */
export async function scanRepository(fs: FileSystem, options: ScanOptions = {}): Promise<ScanResult> {
  const maxBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const exclude = new Set(options.exclude ?? []);
  const files = new Map<string, ScannedFile>();
  const skipped: SkippedFile[] = [];

  let rootEntries;
  try {
    rootEntries = await fs.readDir("");
  } catch (error) {
    if (isEngineError(error, "not_found")) throw new EngineError("root_not_found", `The project root does not exist: ${fs.rootLabel}`, { data: { root: fs.rootLabel }, cause: error });
    throw error;
  }
  const gitEntry = rootEntries.find((e) => e.name === ".git");
  // A `.git` file is a linked worktree (or a submodule checkout): its git dir lies outside the root,
  // where the FileSystem may not read, so the index and info/exclude are out of reach, but the
  // .gitignore files are not. Tracked files inside ignored folders are then missed.
  const gitFile = gitEntry?.kind === "file" && /^gitdir:/.test((await readText(fs, ".git")) ?? "");
  let tracked: Map<string, IndexEntry> | undefined;
  // Entries stamped in the same tick as the index file itself are "racily clean" (git's term): the
  // file may have changed after git hashed it without its stat showing it, so their ids are not trusted.
  let indexMtimeMs = -Infinity;
  if (gitEntry?.kind === "directory") {
    try {
      tracked = await readGitIndex(fs, ".git");
    } catch (error) {
      // A damaged index: carry on as a plain walk with the ignore rules, and say so.
      tracked = new Map();
      skipped.push({ path: ".git/index", reason: "unreadable", detail: (error as Error).message });
    }
    if (tracked.size > 0) indexMtimeMs = await fs.stat(".git/index").then((s) => s.mtimeMs, () => -Infinity);
  }
  if (gitFile) tracked = new Map();
  const mode = tracked ? "git" : "walk";

  const rootLevels: IgnoreLevel[] = [];
  const ignorecase = mode === "git" && !gitFile && gitIgnoreCase(await readText(fs, ".git/config"));
  if (mode === "git") {
    const exclude = gitFile ? undefined : await readText(fs, ".git/info/exclude");
    if (exclude) rootLevels.push({ dir: "", rules: new GitignoreRules(ignorecase).add(exclude) });
  }

  let seen = 0;
  const addFile = (path: string, size: number, mtimeMs: number) => {
    if (size > maxBytes) {
      skipped.push({ path, reason: "too_large", detail: `${size} bytes, limit ${maxBytes}`, size, mtimeMs });
      return;
    }
    const byName = skipByName(path);
    if (byName) {
      skipped.push({ path, reason: byName, size, mtimeMs });
      return;
    }
    const entry = tracked?.get(path);
    const file: ScannedFile = { path, size, mtimeMs };
    if (entry && entry.size === size && sameMtime(entry.mtimeMs, mtimeMs) && entry.mtimeMs < indexMtimeMs) file.blobId = entry.oid;
    files.set(path, file);
  };

  const walk = async (dir: string, levels: IgnoreLevel[]): Promise<void> => {
    throwIfAborted(options.signal);
    let entries;
    try {
      entries = dir === "" ? rootEntries : await fs.readDir(dir);
    } catch (error) {
      skipped.push({ path: dir, reason: "unreadable", detail: (error as Error).message });
      return;
    }
    // A virtualenv, whatever its name (the root itself is what the user asked for, so it is walked).
    if (dir !== "" && entries.some((e) => e.name === "pyvenv.cfg" && e.kind === "file")) return;
    if (mode === "git") {
      const gi = entries.find((e) => e.name === ".gitignore" && e.kind === "file");
      const text = gi ? await readText(fs, joinPath(dir, ".gitignore")) : undefined;
      if (text) levels = [...levels, { dir, rules: new GitignoreRules(ignorecase).add(text) }];
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    // One synchronous pass over the folder: what the listing already tells (a folder, an ignored
    // entry, a file whose size and mtime came with the listing, as Node's do) is settled here, and
    // only the rest (links, backends without stat in their listing) waits for a `stat`, all of
    // them at once. Per entry this is a loop step, not an async call and a promise: django's
    // 6,900 entries cost ~3x less.
    const subdirs: string[] = [];
    const stats: Promise<void>[] = [];
    for (const e of entries) {
      const path = dir === "" ? e.name : `${dir}/${e.name}`;
      // `.git` is never content: a folder (a repository) or a file (a worktree or submodule pointer).
      if (exclude.has(path) || e.name === ".git") continue;
      if (e.kind === "directory") {
        if (!DEFAULT_IGNORED_DIRS.has(e.name) && !(mode === "git" && gitIgnored(levels, path, true))) subdirs.push(path);
        continue;
      }
      // Git matches a link by its own name, never by its target; ignored entries are not even stat'ed.
      if (mode === "git" && !tracked!.has(path) && gitIgnored(levels, path, false)) continue;
      if (e.kind !== "file" && e.kind !== "symlink") {
        // A named pipe, socket or device: never read (opening a pipe would wait for a writer).
        skipped.push({ path, reason: "special_file" });
        continue;
      }
      if (e.kind === "file" && e.size !== undefined && e.mtimeMs !== undefined) {
        addFile(path, e.size, e.mtimeMs);
        if (++seen % 500 === 0) options.onProgress?.(seen);
        continue;
      }
      stats.push(statEntry(path, e.kind));
    }
    if (stats.length > 0) await Promise.all(stats);
    // Sibling folders are walked concurrently: the cost is file-system round trips, not CPU.
    if (subdirs.length > 0) await Promise.all(subdirs.map((path) => walk(path, levels)));
  };
  /** A file or link the listing gave no stat for: stat'ed (links followed, inside the root only). */
  const statEntry = async (path: string, kind: "file" | "symlink"): Promise<void> => {
    let st;
    try {
      st = await fs.stat(path);
    } catch (error) {
      if (isEngineError(error, "outside_root")) skipped.push({ path, reason: "symlink_outside_root" });
      else if (isEngineError(error, "symlink_loop")) skipped.push({ path, reason: "symlink_loop" });
      else if (kind === "symlink" && isEngineError(error, "not_found")) skipped.push({ path, reason: "symlink_broken" });
      else skipped.push({ path, reason: "unreadable", detail: (error as Error).message });
      return;
    }
    if (kind === "symlink" && st.kind === "directory") {
      skipped.push({ path, reason: "symlink_directory", detail: "symbolic links to folders are not followed" });
      return;
    }
    if (st.kind !== "file") {
      skipped.push({ path, reason: "special_file" });
      return;
    }
    addFile(path, st.size, st.mtimeMs);
    if (++seen % 500 === 0) options.onProgress?.(seen);
  };
  await walk("", rootLevels);

  if (tracked) await addUnwalkedTracked(fs, tracked, files, skipped, exclude, addFile);

  const list = [...files.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  skipped.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { mode, files: list, skipped };
}
