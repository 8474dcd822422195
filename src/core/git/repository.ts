/**
 * A read-only view of the git repository at the project root: revisions (`HEAD`, branches, tags,
 * abbreviated ids, `~n` and `^n`), commits, trees and blobs, and the difference between two trees.
 * Every failure a user can cause is an EngineError that names it: no repository, no commits yet,
 * an unknown revision, history cut off by a shallow clone.
 *
 * Why not isomorphic-git: see test/bench/git-reader-bench.mjs. In short, it needs a `Buffer`
 * polyfill in browsers (the core may not name `Buffer`), and on the same reads this reader was as
 * fast or faster with nothing to import.
 */
import { EngineError, isEngineError } from "../../shared/errors.ts";
import type { FileSystem } from "../ports.ts";
import { createObjectStore, toHex, type GitObject, type ObjectStore } from "./objects.ts";
import { quoted } from "../../shared/quote.ts";

/** A commit's facts `changes` uses. */
export interface Commit {
  oid: string;
  tree: string;
  parents: string[];
  /** The first line of the message. */
  subject: string;
}

/** One entry of a tree. Modes as git writes them: "100644", "100755", "120000", "40000", "160000". */
export interface TreeEntry {
  name: string;
  mode: string;
  oid: string;
}

/** A file that differs between two trees (submodules and symbolic links are left out). */
export interface TreeChange {
  path: string;
  /** The blob at the base; absent for an added file. */
  oldOid?: string;
  /** The blob at the head; absent for a deleted file. */
  newOid?: string;
}

/** The repository, as `changes` reads it. */
export interface GitRepository {
  /** Where HEAD points: a branch (possibly without commits yet) or a detached commit. */
  head(): Promise<{ branch?: string; oid?: string }>;
  /** A revision to a commit id; throws `unknown_revision`, `empty_repository` or `shallow_history`. */
  resolve(rev: string): Promise<string>;
  readCommit(oid: string): Promise<Commit>;
  readTree(oid: string): Promise<TreeEntry[]>;
  /**
   * A blob's bytes; over `maxBytes` (default MAX_OBJECT_BYTES) an `io_error` with reason `too_large`, nothing inflated.
   */
  readBlob(oid: string, maxBytes?: number): Promise<Uint8Array>;
  /** Every file of a tree, by path. */
  flatten(treeOid: string): Promise<Map<string, string>>;
  /** The files that differ between two trees (`undefined`: the empty tree), skipping equal subtrees. */
  diffTrees(oldTree: string | undefined, newTree: string | undefined): Promise<TreeChange[]>;
  /** Commits whose parents a shallow clone left out. */
  shallow(): Promise<Set<string>>;
  readonly objects: ObjectStore;
}

const decoder = new TextDecoder();
const FULL_ID = /^[0-9a-f]{40}$/i;
const SHORT_ID = /^[0-9a-f]{4,39}$/i;
const FILE_MODES = new Set(["100644", "100755", "100664"]);

async function readText(fs: FileSystem, path: string): Promise<string | undefined> {
  try {
    return decoder.decode(await fs.readFile(path));
  } catch (error) {
    if (isEngineError(error, "not_found", "not_directory")) return undefined;
    throw error;
  }
}

/**
 * Opens the repository whose `.git` folder is at the root of `fs`. A `.git` *file* (a linked
 * worktree or a submodule checkout) points outside the root, where the engine does not read.
 */
export async function openGitRepository(fs: FileSystem): Promise<GitRepository> {
  let kind: string | undefined;
  try {
    kind = (await fs.stat(".git")).kind;
  } catch (error) {
    if (!isEngineError(error, "not_found", "not_directory", "outside_root")) throw error;
  }
  if (kind === "file") {
    throw new EngineError(
      "not_a_repository",
      `${fs.rootLabel} is a linked git worktree or a submodule: its git folder lies outside the project root, ` +
        `where codeslice does not read.`,
      {
        hint: "Pass the diff itself instead (the output of `git diff HEAD`), or open the main checkout.",
        data: { root: fs.rootLabel },
      },
    );
  }
  if (kind !== "directory" || (await readText(fs, ".git/HEAD")) === undefined) {
    throw new EngineError(
      "not_a_repository",
      `${fs.rootLabel} is not the root of a git repository (no .git folder there).`,
      {
        hint:
          "Open the repository's top folder as the project, or pass a unified diff (the output of `git " +
          "diff`) instead.",
        data: { root: fs.rootLabel },
      },
    );
  }
  return createRepository(fs, ".git");
}

function parseCommit(oid: string, bytes: Uint8Array): Commit {
  const text = decoder.decode(bytes);
  const end = text.indexOf("\n\n");
  const headers = (end < 0 ? text : text.slice(0, end)).split("\n");
  let tree = "";
  const parents: string[] = [];
  for (const h of headers) {
    if (h.startsWith("tree ")) tree = h.slice(5).trim();
    else if (h.startsWith("parent ")) parents.push(h.slice(7).trim());
  }
  if (!FULL_ID.test(tree))
    throw new EngineError("io_error", `Commit ${oid} has no tree.`, {
      hint: "Run `git fsck` in the repository.",
      data: { oid },
    });
  const subject = end < 0 ? "" : (text.slice(end + 2).split("\n")[0] ?? "").trim();
  return { oid, tree, parents, subject };
}

/**
 * Why git fsck would reject a tree entry's name, or undefined when it is a name a checkout can
 * write: not empty, no "/", not "." or "..", not ".git" in any case or any spelling NTFS or HFS+
 * reads as it (trailing dots and spaces, "git~1"). A path made of such names could leave the root.
 */
export function badEntryName(name: string): string | undefined {
  if (name === "") return "has an empty name";
  if (name.includes("/") || name.includes("\\")) return "contains a path separator";
  if (name === "." || name === "..") return `is named ${name}`;
  const folded = name
    .toLowerCase()
    .replace(/[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/g, "")
    .replace(/[. ]+$/, "");
  if (folded === ".git" || folded === "git~1") return "is named .git";
  return undefined;
}

/** A tree's entries; `oid` names it in the error for an entry git fsck rejects, or for cut bytes. */
export function parseTree(bytes: Uint8Array, oid = "tree"): TreeEntry[] {
  const out: TreeEntry[] = [];
  let pos = 0;
  while (pos < bytes.length) {
    const space = bytes.indexOf(0x20, pos);
    const nul = space < 0 ? -1 : bytes.indexOf(0, space);
    if (space < 0 || nul < 0 || nul + 21 > bytes.length) throw badTree(oid, "its last entry is cut");
    const name = decoder.decode(bytes.subarray(space + 1, nul));
    const why = badEntryName(name);
    if (why) throw badTree(oid, `an entry ${why} (${quoted(name.slice(0, 100))})`, name);
    out.push({ mode: decoder.decode(bytes.subarray(pos, space)), name, oid: toHex(bytes, nul + 1, nul + 21) });
    pos = nul + 21;
  }
  return out;
}

function badTree(oid: string, why: string, name?: string): EngineError {
  return new EngineError(
    "io_error",
    `Git tree ${oid.slice(0, 12)} is damaged or hostile: ${why}; git fsck rejects it, and codeslice reads ` +
      `nothing through it.`,
    {
      hint: "Run `git fsck` in the repository; compare other commits.",
      data: { oid, reason: "bad_tree_entry", ...(name !== undefined ? { path: name.slice(0, 200) } : {}) },
    },
  );
}

const isTree = (mode: string) => mode === "40000" || mode === "040000";

/** A full ref name to the id it holds (absent for an unborn branch), and the ref it ends at. */
type RefValue = { oid?: string; target: string };

/**
 * The refs of `gitdir`: loose and packed ones, symbolic refs followed (`readRef`), and the error
 * for a revision that names none of them, with the branches and tags closest to it (`unknown`).
 */
function createRefReader(fs: FileSystem, gitdir: string) {
  let packedRefs: Promise<Map<string, string>> | undefined;
  const packed = () =>
    (packedRefs ??= (async () => {
      const refs = new Map<string, string>();
      for (const line of ((await readText(fs, `${gitdir}/packed-refs`)) ?? "").split("\n")) {
        const m = /^([0-9a-f]{40}) (\S+)$/.exec(line.trim());
        if (m) refs.set(m[2]!, m[1]!);
      }
      return refs;
    })());

  /** A full ref name to the id it holds, following symbolic refs; undefined when it does not exist. */
  const readRef = async (name: string, depth = 0): Promise<RefValue | undefined> => {
    if (depth > 10 || name.includes("..") || name.startsWith("/")) return undefined;
    // A folder of that name (refs/remotes/origin holds origin's branches) is no ref: git tries the next spelling.
    const loose = await readText(fs, `${gitdir}/${name}`).catch((error) => {
      if (isEngineError(error, "outside_root") || (isEngineError(error, "io_error") && error.data.kind === "directory"))
        return undefined;
      throw error;
    });
    if (loose !== undefined) {
      const value = loose.trim();
      if (value.startsWith("ref:")) {
        const target = value.slice(4).trim();
        const r = await readRef(target, depth + 1);
        return r ?? { target };
      }
      return FULL_ID.test(value) ? { oid: value.toLowerCase(), target: name } : undefined;
    }
    const oid = (await packed()).get(name);
    return oid ? { oid, target: name } : undefined;
  };

  /**
   * The `unknown_revision` error for `rev` (with `why`, or "no such name"), suggesting the branches and tags closest to
   * it.
   */
  const unknown = async (rev: string, why?: string) => {
    const names = [...(await packed()).keys()];
    for (const dir of ["refs/heads", "refs/tags"]) {
      try {
        for (const e of await fs.readDir(`${gitdir}/${dir}`)) if (e.kind === "file") names.push(`${dir}/${e.name}`);
      } catch {
        // no such folder
      }
    }
    const short = [...new Set(names.map((n) => n.replace(/^refs\/(heads|tags|remotes)\//, "")))].sort();
    const base = rev.replace(/[~^].*$/, "").toLowerCase();
    const near = short.filter((n) => n.toLowerCase().includes(base) || base.includes(n.toLowerCase())).slice(0, 5);
    return new EngineError(
      "unknown_revision",
      `${why ?? `No branch, tag or commit ${quoted(rev)} in this repository.`}`,
      {
        hint: near.length
          ? `Known names close to it: ${near.join(", ")}.`
          : short.length
            ? `Branches and tags include ${short.slice(0, 5).join(", ")}.`
            : "Use a commit id, a branch, a tag, or HEAD~1.",
        data: { rev, suggestions: near },
      },
    );
  };
  return { readRef, unknown };
}

/**
 * Commits, trees and blobs of the store, each checked to be the kind asked for; a missing object
 * is `shallow_history` in a shallow clone, else damage. `peel` follows annotated tags.
 */
function createObjectReader(objects: ObjectStore, shallow: () => Promise<Set<string>>) {
  const readObject = async (oid: string, want: GitObject["type"], maxBytes?: number): Promise<Uint8Array> => {
    const obj = await objects.read(oid, maxBytes);
    if (!obj) {
      if ((await shallow()).size > 0) {
        throw new EngineError("shallow_history", `Object ${oid.slice(0, 12)} is not in this shallow clone.`, {
          hint: "Fetch more history (deepen the clone, or unshallow it) and ask again.",
          data: { oid },
        });
      }
      throw new EngineError("io_error", `The repository has no object ${oid} (a ${want} it refers to).`, {
        hint: "Run `git fsck` in the repository.",
        data: { oid },
      });
    }
    if (obj.type !== want)
      throw new EngineError("io_error", `Object ${oid.slice(0, 12)} is a ${obj.type}, not a ${want}.`, {
        data: { oid, type: obj.type },
      });
    return obj.bytes;
  };

  /** Follows annotated tags to what they point at. */
  const peel = async (oid: string): Promise<GitObject & { oid: string }> => {
    for (let i = 0; i < 20; i++) {
      const obj = await objects.read(oid);
      if (!obj) {
        if ((await shallow()).size > 0)
          throw new EngineError("shallow_history", `Object ${oid.slice(0, 12)} is not in this shallow clone.`, {
            hint: "Fetch more history (deepen the clone, or unshallow it) and ask again.",
            data: { oid },
          });
        throw new EngineError("unknown_revision", `No object ${oid.slice(0, 12)} in this repository.`, {
          data: { oid },
        });
      }
      if (obj.type !== "tag") return { ...obj, oid };
      const m = /^object ([0-9a-f]{40})/m.exec(decoder.decode(obj.bytes));
      if (!m) break;
      oid = m[1]!;
    }
    throw new EngineError("io_error", `Tag ${oid.slice(0, 12)} points nowhere.`, { data: { oid } });
  };

  const readCommit = async (oid: string): Promise<Commit> => parseCommit(oid, await readObject(oid, "commit"));
  const readTree = async (oid: string): Promise<TreeEntry[]> => parseTree(await readObject(oid, "tree"), oid);
  return { readObject, peel, readCommit, readTree };
}

/** The error for a revision that steps past a shallow clone's boundary commit. */
function shallowError(rev: string, boundary: string): EngineError {
  return new EngineError(
    "shallow_history",
    `${rev} reaches past the history of this shallow clone (commit ${boundary.slice(0, 12)} is a shallow boundary).`,
    {
      hint: "Fetch more history (deepen the clone, or unshallow it) and ask again.",
      data: { rev, boundary },
    },
  );
}

/**
 * Revisions to commit ids: HEAD (`@`, or nothing), full and abbreviated ids, ref names as git
 * tries them, then `~N`, `^N` and `^{…}` steps, each result peeled to a commit.
 */
function createResolver(
  objects: ObjectStore,
  refs: ReturnType<typeof createRefReader>,
  reader: ReturnType<typeof createObjectReader>,
  shallow: () => Promise<Set<string>>,
) {
  const { readRef, unknown } = refs;
  const { peel, readCommit } = reader;
  /** The base of a revision (before `~`/`^`): HEAD, a ref name or an id. */
  const resolveName = async (rev: string, name: string): Promise<string> => {
    if (name === "" || name === "@" || name === "HEAD") {
      const head = await readRef("HEAD");
      if (!head?.oid) {
        const branch = head?.target.replace(/^refs\/heads\//, "");
        throw new EngineError(
          "empty_repository",
          `The repository has no commits yet${branch ? ` (branch ${branch} is unborn)` : ""}: there is no HEAD ` +
            `to compare with.`,
          {
            hint: "Make a first commit, or pass a diff instead.",
            data: { rev, ...(branch ? { branch } : {}) },
          },
        );
      }
      return head.oid;
    }
    if (FULL_ID.test(name) && (await objects.read(name.toLowerCase()))) return name.toLowerCase();
    const candidates = name.startsWith("refs/")
      ? [name]
      : [
          name,
          `refs/${name}`,
          `refs/tags/${name}`,
          `refs/heads/${name}`,
          `refs/remotes/${name}`,
          `refs/remotes/${name}/HEAD`,
        ];
    for (const c of candidates) {
      // Only all-caps names (HEAD, ORIG_HEAD, FETCH_HEAD…) are read straight from the git folder.
      if (c === name && !/^[A-Z_]+$/.test(c) && !c.startsWith("refs/")) continue;
      const r = await readRef(c);
      if (r?.oid) return r.oid;
    }
    if (SHORT_ID.test(name)) {
      const ids = await objects.expand(name.toLowerCase(), 10);
      if (ids.length === 1) return ids[0]!;
      if (ids.length > 1) {
        throw new EngineError("unknown_revision", `The abbreviated id ${name} matches ${ids.length} objects.`, {
          hint: "Give more digits of the commit id.",
          data: { rev, candidates: ids.map((i) => i.slice(0, 12)) },
        });
      }
    }
    throw await unknown(rev);
  };

  return async (revArg: string): Promise<string> => {
    const rev = revArg.trim();
    const m = /^([^~^]*)((?:[~^][0-9]*|\^\{[a-z]*\})*)$/.exec(rev);
    if (!m || rev === "" || /\s|\.\.|@\{|:/.test(rev)) {
      throw new EngineError("invalid_argument", `${quoted(revArg)} is not a revision codeslice reads.`, {
        hint:
          "Use a commit id, a branch, a tag, HEAD, or one of those followed by ~N or ^N (ranges and reflog " +
          "entries are not read).",
        data: { rev: revArg },
      });
    }
    let oid = (await peel(await resolveName(rev, m[1]!))).oid;
    for (const op of m[2]!.match(/~[0-9]*|\^\{[a-z]*\}|\^[0-9]*/g) ?? []) {
      if (op.startsWith("^{")) continue; // peeling: every result is peeled to a commit below
      const n = op.length > 1 ? Number(op.slice(1)) : 1;
      const steps = op[0] === "~" ? n : 1;
      const which = op[0] === "^" ? n : 1;
      if (op[0] === "^" && n === 0) continue;
      for (let s = 0; s < steps; s++) {
        // A shallow boundary's commit names its parents, but the clone does not hold them.
        if ((await shallow()).has(oid)) throw shallowError(rev, oid);
        const commit = await readCommit(oid);
        const parent = commit.parents[which - 1];
        if (!parent) {
          throw await unknown(
            rev,
            `${rev} does not exist: commit ${oid.slice(0, 12)} has ` +
              (commit.parents.length === 0
                ? "no parent (it is the first commit)."
                : `${commit.parents.length} parent${commit.parents.length > 1 ? "s" : ""}.`),
          );
        }
        oid = parent;
      }
    }
    const obj = await peel(oid);
    if (obj.type !== "commit")
      throw new EngineError("unknown_revision", `${rev} names a ${obj.type}, not a commit.`, {
        data: { rev, type: obj.type },
      });
    return obj.oid;
  };
}

/**
 * Trees nested deeper than this, or walks that meet more entries, are refused: a tree that holds
 * itself (an object stored under another object's id) never ends, and a few trees that each hold
 * the next one twice list 2^depth files from a few hundred bytes. Far above real repositories
 * (Chromium's tree is under 500,000 files).
 */
export const MAX_TREE_DEPTH = 4096;
export const MAX_TREE_ENTRIES = 1_000_000;

/** Counts a walk's entries and depth, and refuses a cycle, a depth or a count past the bounds. */
function walkGuard() {
  let entries = 0;
  const refuse = (oid: string, why: string) =>
    new EngineError("io_error", `Git tree ${oid.slice(0, 12)} cannot be walked: ${why}.`, {
      hint: "Run `git fsck` in the repository.",
      data: { oid, reason: "bad_tree_entry" },
    });
  return (oid: string, ancestors: readonly string[], count: number) => {
    if (ancestors.includes(oid)) throw refuse(oid, "it holds itself");
    if (ancestors.length >= MAX_TREE_DEPTH) throw refuse(oid, `trees go more than ${MAX_TREE_DEPTH} levels deep`);
    entries += count;
    if (entries > MAX_TREE_ENTRIES)
      throw refuse(oid, `the walk meets more than ${MAX_TREE_ENTRIES.toLocaleString("en-US")} entries`);
  };
}

/**
 * Every file of a tree, by path (`flatten`), and the files that differ between two trees, skipping equal subtrees
 * (`diffTrees`).
 */
function createTreeWalker(readTree: (oid: string) => Promise<TreeEntry[]>) {
  const flatten = async (
    treeOid: string,
    prefix = "",
    out = new Map<string, string>(),
    guard = walkGuard(),
    ancestors: string[] = [],
  ): Promise<Map<string, string>> => {
    const entries = await readTree(treeOid);
    guard(treeOid, ancestors, entries.length);
    ancestors.push(treeOid);
    for (const e of entries) {
      const path = prefix + e.name;
      if (isTree(e.mode)) await flatten(e.oid, `${path}/`, out, guard, ancestors);
      else if (FILE_MODES.has(e.mode)) out.set(path, e.oid);
    }
    ancestors.pop();
    return out;
  };

  const diffTrees = async (
    a: string | undefined,
    b: string | undefined,
    prefix = "",
    out: TreeChange[] = [],
    guard = walkGuard(),
    ancestors: string[] = [],
  ): Promise<TreeChange[]> => {
    if (a === b) return out;
    const leftEntries = a ? await readTree(a) : [];
    const rightEntries = b ? await readTree(b) : [];
    // Each side's ancestry is its own: one id names the pair on the way down.
    const pair = `${a ?? ""}:${b ?? ""}`;
    guard(pair, ancestors, leftEntries.length + rightEntries.length);
    ancestors.push(pair);
    const left = new Map(leftEntries.map((e) => [e.name, e]));
    const right = new Map(rightEntries.map((e) => [e.name, e]));
    const names = [...new Set([...left.keys(), ...right.keys()])].sort();
    for (const name of names) {
      const l = left.get(name);
      const r = right.get(name);
      if (l && r && l.oid === r.oid && l.mode === r.mode) continue;
      const path = prefix + name;
      const lTree = l && isTree(l.mode) ? l.oid : undefined;
      const rTree = r && isTree(r.mode) ? r.oid : undefined;
      if (lTree || rTree) await diffTrees(lTree, rTree, `${path}/`, out, guard, ancestors);
      const lFile = l && FILE_MODES.has(l.mode) ? l.oid : undefined;
      const rFile = r && FILE_MODES.has(r.mode) ? r.oid : undefined;
      if ((lFile || rFile) && lFile !== rFile)
        out.push({ path, ...(lFile ? { oldOid: lFile } : {}), ...(rFile ? { newOid: rFile } : {}) });
    }
    ancestors.pop();
    return out;
  };
  return { flatten, diffTrees };
}

/** The repository whose git directory is `gitdir`: refs, objects, revisions and tree diffs over one object store. */
function createRepository(fs: FileSystem, gitdir: string): GitRepository {
  const objects = createObjectStore(fs, gitdir);
  let shallowSet: Promise<Set<string>> | undefined;
  const shallow = () =>
    (shallowSet ??= (async () =>
      new Set(
        ((await readText(fs, `${gitdir}/shallow`)) ?? "")
          .split("\n")
          .map((l) => l.trim())
          .filter((l) => FULL_ID.test(l)),
      ))());
  const refs = createRefReader(fs, gitdir);
  const reader = createObjectReader(objects, shallow);
  const resolve = createResolver(objects, refs, reader, shallow);
  const { flatten, diffTrees } = createTreeWalker(reader.readTree);

  return {
    objects,
    async head() {
      const h = await refs.readRef("HEAD");
      const branch = h && h.target !== "HEAD" ? h.target.replace(/^refs\/heads\//, "") : undefined;
      return { ...(branch ? { branch } : {}), ...(h?.oid ? { oid: h.oid } : {}) };
    },
    resolve,
    readCommit: reader.readCommit,
    readTree: reader.readTree,
    readBlob: (oid, maxBytes) => reader.readObject(oid, "blob", maxBytes),
    flatten: (oid) => flatten(oid),
    diffTrees: (a, b) => diffTrees(a, b),
    shallow,
  };
}
