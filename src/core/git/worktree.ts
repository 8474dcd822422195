/**
 * The working tree against a commit, the way `git status` finds it: the git index records each
 * tracked file's stat and blob id, so a file whose stat still matches its entry has that blob
 * without being read; only files whose stat differs, untracked files and "racily clean" entries
 * (stamped no earlier than the index file itself) are read and hashed. The stat comes from the
 * engine's last scan (kept current by its watcher), not from one system call per file.
 *
 * The base side needs no tree either when the index's cache-tree says the index *is* that tree
 * (after a commit or a checkout, until something is staged); otherwise the base's tree is
 * flattened once and kept by its id, which names immutable content.
 */
import { parseGitIndexFile, type IndexEntry } from "../scan/git-index.ts";
import type { FileSystem } from "../ports.ts";
import type { GitRepository } from "./repository.ts";

/** What an engine keeps across `changes` calls: all of it keyed by content, so never stale. */
export interface GitCache {
  /** Flattened trees (path → blob id) by tree id. */
  trees: Map<string, Map<string, string>>;
  /** Commit id → its tree id. */
  commits: Map<string, string>;
  /** The last index read, reused while its trailing checksum is the same. */
  index?: GitIndex;
}

/** The git index as `changes` reads it. */
export interface GitIndex {
  /** The trailing SHA-1 of the index file: any change to the index changes it. */
  checksum: string;
  entries: Map<string, IndexEntry>;
  /** Regular files (path → blob id): what a commit of the index would hold. */
  files: Map<string, string>;
  /** The cache-tree's root: the tree id of `files`, when git left it valid. */
  tree?: string;
  /** The index file's mtime: entries stamped at or after it are racily clean (not trusted). */
  mtimeMs: number;
}

/** Trees kept flattened (HEAD's, and a base or two). */
const KEPT_TREES = 4;
const KEPT_COMMITS = 64;

/** A new, empty cache; an engine keeps one for its life. */
export function createGitCache(): GitCache {
  return { trees: new Map(), commits: new Map() };
}

const HEX: string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));
const isRegular = (e: IndexEntry) => (e.mode & 0o170000) === 0o100000;

/** Reads `.git/index` (parsing it again only when its checksum changed); an absent index is empty. */
export async function loadGitIndex(fs: FileSystem, cache: GitCache | undefined, gitdir = ".git"): Promise<GitIndex> {
  let bytes: Uint8Array;
  let mtimeMs = -Infinity;
  try {
    bytes = await fs.readFile(`${gitdir}/index`);
    mtimeMs = (await fs.stat(`${gitdir}/index`)).mtimeMs;
  } catch {
    return { checksum: "", entries: new Map(), files: new Map(), mtimeMs };
  }
  let checksum = "";
  for (let i = Math.max(0, bytes.length - 20); i < bytes.length; i++) checksum += HEX[bytes[i]!];
  const kept = cache?.index;
  if (kept && kept.checksum === checksum)
    return kept.mtimeMs === mtimeMs ? kept : (cache!.index = { ...kept, mtimeMs });
  const { entries, tree } = parseGitIndexFile(bytes);
  const files = new Map<string, string>();
  for (const [path, e] of entries) if (isRegular(e)) files.set(path, e.oid);
  const index: GitIndex = { checksum, entries, files, mtimeMs, ...(tree ? { tree } : {}) };
  if (cache) cache.index = index;
  return index;
}

/** The tree of a commit, remembered by commit id. */
export async function treeOfCommit(repo: GitRepository, cache: GitCache | undefined, oid: string): Promise<string> {
  const kept = cache?.commits.get(oid);
  if (kept) return kept;
  const tree = (await repo.readCommit(oid)).tree;
  if (cache) {
    if (cache.commits.size >= KEPT_COMMITS) cache.commits.delete(cache.commits.keys().next().value!);
    cache.commits.set(oid, tree);
  }
  return tree;
}

/**
 * Every file of a tree (path → blob id). The index's own file list when the cache-tree says the
 * index is that tree; else the tree flattened, kept by its id.
 */
export async function filesOfTree(
  repo: GitRepository,
  cache: GitCache | undefined,
  tree: string,
  index?: GitIndex,
): Promise<Map<string, string>> {
  if (index?.tree === tree) return index.files;
  const kept = cache?.trees.get(tree);
  if (kept) return kept;
  const flat = await repo.flatten(tree);
  if (cache) {
    if (cache.trees.size >= KEPT_TREES) cache.trees.delete(cache.trees.keys().next().value!);
    cache.trees.set(tree, flat);
  }
  return flat;
}

/**
 * Whether a file's mtime equals the one the index recorded: to the millisecond, or to the second
 * for an index written without sub-second stamps.
 */
function sameMtime(indexMs: number, fileMs: number): boolean {
  return indexMs % 1000 === 0
    ? Math.floor(indexMs / 1000) === Math.floor(fileMs / 1000)
    : indexMs === Math.floor(fileMs);
}

/**
 * The blob id the index vouches for, for a working-tree file with this stat: its entry's id when
 * size and mtime match and the entry is not racily clean; undefined when the file must be read.
 */
export function indexedBlob(
  index: GitIndex,
  path: string,
  stat: { size?: number; mtimeMs?: number } | undefined,
): string | undefined {
  if (stat?.size === undefined || stat.mtimeMs === undefined) return undefined;
  const e = index.entries.get(path);
  if (!e || !isRegular(e) || e.size !== stat.size || !sameMtime(e.mtimeMs, stat.mtimeMs) || e.mtimeMs >= index.mtimeMs)
    return undefined;
  return e.oid;
}
