/**
 * `changes`: gathers what differs — the working tree against HEAD (or another base), the index
 * against HEAD, two commits, or a pasted unified diff — reads both versions of every changed file
 * (git objects through the FileSystem port, the tree through the index inventory), parses the old
 * side with the same extractor as the index, and hands the comparison to the answer builder.
 */
import { languageForExtension } from "../../languages/index.ts";
import type { Platform } from "../ports.ts";
import type { FileRecord } from "../extract/record.ts";
import { createParserRuntime } from "../parse/runtime.ts";
import { classifyContent } from "../../shared/skip-rules.ts";
import type { CodeGraph } from "../graph/model.ts";
import type { Route } from "../query/routes.ts";
import {
  buildChangesAnswer,
  type ChangeSet,
  type ChangesAnswer,
  type ChangesBundleOptions,
  type ChangesSide,
  type ComparedFile,
  type FileStatus,
} from "../changes/answer.ts";
import { diffLines, splitLines } from "../changes/line-diff.ts";
import { compareDefinitions } from "../changes/symbols.ts";
import { narrowToScope, routeScope, type RouteScope } from "../changes/route-scope.ts";
import { applyHunks, fromLines, parseUnifiedDiff, toLines, type FilePatch } from "../changes/unified-diff.ts";
import { openGitRepository, type GitRepository } from "../git/repository.ts";
import { filesOfTree, indexedBlob, loadGitIndex, treeOfCommit, type GitCache, type GitIndex } from "../git/worktree.ts";
import { EngineError, isEngineError, throwIfAborted } from "../../shared/errors.ts";
import { gitBlobId } from "../../shared/hash.ts";
import { extname, normalizeRelative } from "../../shared/paths.ts";
import { parseFile } from "./parse-file.ts";
import type { Snapshot } from "./snapshot.ts";
import { defined } from "../../shared/defined.ts";
import { quoted } from "../../shared/quote.ts";

/** What to compare. With nothing set: the working tree against HEAD. */
export interface ChangesOptions extends ChangesBundleOptions {
  /** The index (staged changes) against HEAD. */
  staged?: boolean;
  /** The base commit (default HEAD; with `head` alone, the head's first parent). */
  base?: string;
  /** The head commit (default: the working tree). */
  head?: string;
  /** A unified diff (`git diff`, `diff -u`, a PR's patch) to read instead of git's history. */
  diff?: string;
  /**
   * A route, `METHOD /path`: only the changes to its handler and what it reaches
   * (changes/route-scope.ts), with a note saying how many changed definitions that left out.
   */
  target?: string;
}

/** What the engine hands over: the platform, the indexed tree's graph and inventory, its routes. */
export interface ChangesContext {
  platform: Platform;
  graph: CodeGraph;
  snapshot: Snapshot;
  routes: Route[];
  maxFileBytes: number;
  /** Reads an indexed file through the snapshot's inputs (a file changed since indexing is noticed). */
  readText: (path: string) => Promise<string>;
  /**
   * What the engine keeps across calls (flattened trees by tree id, commits' trees, the parsed
   * index): flattening HEAD's tree was most of a working-tree `changes` on django (≈1.4 of 3.3 CPU s).
   */
  git?: GitCache;
  signal?: AbortSignal;
}

/** Longest diff text accepted (a very large PR is a few megabytes). */
export const MAX_DIFF_CHARS = 50_000_000;
/** Changed source files parsed at most; past this the rest are listed, not compared. */
export const MAX_COMPARED_FILES = 2_000;

/** One changed file before parsing: its two versions as bytes or text, or why there are none. */
interface RawChange {
  path: string;
  oldPath?: string;
  status: FileStatus;
  oldOid?: string;
  newOid?: string;
  oldText?: string;
  newText?: string;
  reason?: string;
}

const encoder = new TextEncoder();

/** Reads `changes` for the engine. */
export async function runChanges(ctx: ChangesContext, options: ChangesOptions): Promise<ChangesAnswer> {
  checkOptions(options);
  // A route that does not exist is refused before any file is read.
  const scope = options.target !== undefined ? routeScope(ctx.graph, ctx.routes, options.target) : undefined;
  const set: Omit<ChangeSet, "files"> & { raw: RawChange[] } =
    options.diff !== undefined ? await fromDiff(ctx, options.diff) : await fromGit(ctx, options);
  let files = await compareAll(ctx, set.raw, set.notes);
  if (scope) {
    const narrowed = narrowToScope(ctx.graph, files, scope);
    files = narrowed.files;
    set.notes.unshift(scopeNote(scope, narrowed));
  }
  const { raw: _raw, ...rest } = set;
  return buildChangesAnswer(ctx.graph, { ...rest, files }, options, {
    readText: ctx.readText,
    routes: () => ctx.routes,
  });
}

/** What a route target left in and out, said first among the notes. */
function scopeNote(scope: RouteScope, n: { kept: number; dropped: number; moduleFiles: number }): string {
  const { kept, dropped, moduleFiles } = n;
  const reach = `${scope.handlers.join(", ")} and the ${scope.ids.size - scope.handlers.length} definitions it reaches`;
  const parts = [
    ...(dropped ? [`${dropped} other changed definition${dropped === 1 ? "" : "s"}`] : []),
    ...(moduleFiles ? [`module-level lines in ${moduleFiles} file${moduleFiles === 1 ? "" : "s"}`] : []),
  ];
  const left = parts.length ? `; ${parts.join(" and ")} left out` : "";
  return kept
    ? `only the changes ${scope.label} runs: ${reach} (${kept} changed${left})`
    : `none of the changes is in what ${scope.label} runs: ${reach}${left}`;
}

function checkOptions(o: ChangesOptions): void {
  const bad = (message: string, hint: string) =>
    new EngineError("invalid_argument", message, {
      hint,
      data: { staged: o.staged ?? false, base: o.base, head: o.head, diff: o.diff !== undefined },
    });
  if (o.diff !== undefined && (o.staged || o.base !== undefined || o.head !== undefined)) {
    throw bad(
      "A pasted diff is compared with the files on disk; it cannot be combined with staged, base or head.",
      "Pass either the diff, or the revisions to compare.",
    );
  }
  if (o.staged && (o.base !== undefined || o.head !== undefined))
    throw bad(
      "staged compares the index with HEAD; it cannot be combined with base or head.",
      "Use base and head for two commits, staged alone for staged changes.",
    );
  if (o.diff !== undefined && o.diff.length > MAX_DIFF_CHARS) {
    throw new EngineError(
      "invalid_argument",
      `The diff is ${o.diff.length.toLocaleString("en-US")} characters; the limit is ` +
        `${MAX_DIFF_CHARS.toLocaleString("en-US")}.`,
      { hint: "Pass the diff of fewer files (git diff -- <paths>).", data: { length: o.diff.length } },
    );
  }
  for (const [name, rev] of [
    ["base", o.base],
    ["head", o.head],
  ] as const) {
    if (rev !== undefined && rev.trim() === "")
      throw bad(`${name} is empty.`, "Pass a commit id, a branch, a tag, or HEAD~N.");
  }
}

/**
 * The inventory of the indexed tree: files by path, and files the scan skipped (they exist), with
 * the stat the scan saw where it kept one (files skipped for their content keep it aside).
 */
function inventoryOf(snapshot: Snapshot) {
  const files = new Map(snapshot.files.map((f) => [f.path, f]));
  const skipped = new Map(snapshot.skipped.map((s) => [s.path, s]));
  const stats = new Map<string, { size?: number; mtimeMs?: number }>(snapshot.skipped.map((s) => [s.path, s]));
  for (const c of snapshot.contentSkips ?? []) stats.set(c.path, c);
  return { files, skipped, stats };
}

/** Bytes to text for comparison, or the reason there is none (binary, too large…). */
function textOf(bytes: Uint8Array, maxBytes: number): { text: string } | { status: FileStatus; reason: string } {
  if (bytes.length > maxBytes) return { status: "skipped", reason: `larger than ${Math.round(maxBytes / 1024)} KiB` };
  const c = classifyContent(bytes);
  if ("text" in c) return { text: c.text };
  if (c.reason === "minified" || c.reason === "too_deeply_nested") return { status: "skipped", reason: c.reason };
  return { status: "binary", reason: c.reason === "binary" ? "binary" : c.detail };
}

// ------------------------------------------------------------------ git

function sideLabel(rev: string, oid: string, extra?: string): string {
  return `${rev} (${oid.slice(0, 7)}${extra ? `, ${extra}` : ""})`;
}

async function fromGit(
  ctx: ChangesContext,
  o: ChangesOptions,
): Promise<Omit<ChangeSet, "files"> & { raw: RawChange[] }> {
  const { fs } = ctx.platform;
  const repo = await openGitRepository(fs);
  const notes: string[] = [];
  const head = await repo.head();
  const headExtra = head.branch ? head.branch : "detached HEAD";
  const inventory = inventoryOf(ctx.snapshot);
  let index: GitIndex | undefined;
  const gitIndex = async () => (index ??= await loadGitIndex(fs, ctx.git));

  /**
   * The blob id of a file of the indexed tree, without reading it when the scan hashed it or the
   * git index vouches for its stat (as `git status` does); else read and hashed.
   */
  const worktreeOid = async (path: string): Promise<string | undefined> => {
    const f = inventory.files.get(path);
    if (f?.hash) return f.hash;
    if (!f && !inventory.skipped.has(path)) return undefined;
    const vouched = indexedBlob(await gitIndex(), path, f ?? inventory.stats.get(path));
    if (vouched) return vouched;
    try {
      const bytes = await fs.readFile(path);
      return bytes.length > 16 * ctx.maxFileBytes ? `size:${bytes.length}` : await gitBlobId(bytes);
    } catch {
      return undefined;
    }
  };
  const treeOf = (oid: string) => treeOfCommit(repo, ctx.git, oid);
  const flatten = async (tree: string) => filesOfTree(repo, ctx.git, tree, await gitIndex());
  const headLabel = (rev: string, oid: string) =>
    rev === "HEAD" || rev === "@" ? sideLabel("HEAD", oid, headExtra) : sideLabel(rev, oid);

  let pairs: { path: string; oldOid?: string; newOid?: string }[];
  let base: ChangesSide;
  let headSide: ChangesSide;
  let headOnDisk = true;
  let newFromDisk = false;
  if (o.staged) {
    let baseTree: string | undefined;
    try {
      const oid = await repo.resolve("HEAD");
      baseTree = await treeOf(oid);
      base = { label: headLabel("HEAD", oid), rev: "HEAD", oid };
    } catch (error) {
      if (!isEngineError(error, "empty_repository")) throw error;
      base = { label: "the empty tree (no commits yet)" };
      notes.push("the repository has no commits yet: every staged file counts as added");
    }
    headSide = { label: "the index (staged)" };
    const staged = (await gitIndex()).files;
    const before = baseTree ? await flatten(baseTree) : new Map<string, string>();
    pairs = diffMaps(before, staged);
    for (const p of pairs) if (p.newOid && (await worktreeOid(p.path)) !== p.newOid) headOnDisk = false;
  } else if (o.head !== undefined) {
    const headOid = await repo.resolve(o.head);
    const commit = await repo.readCommit(headOid);
    headSide = { label: headLabel(o.head, headOid), rev: o.head, oid: headOid };
    let baseTree: string | undefined;
    if (o.base !== undefined) {
      const baseOid = await repo.resolve(o.base);
      baseTree = await treeOf(baseOid);
      base = { label: headLabel(o.base, baseOid), rev: o.base, oid: baseOid };
    } else if (commit.parents.length > 0) {
      const baseOid = await repo.resolve(`${headOid}^`);
      baseTree = await treeOf(baseOid);
      base = { label: sideLabel(`${o.head}^`, baseOid), rev: `${o.head}^`, oid: baseOid };
      if (commit.parents.length > 1) notes.push(`${o.head} is a merge: compared with its first parent`);
    } else {
      base = { label: "the empty tree (root commit)" };
    }
    pairs = await repo.diffTrees(baseTree, commit.tree);
    for (const p of pairs) if ((await worktreeOid(p.path)) !== p.newOid) headOnDisk = false;
  } else {
    const rev = o.base ?? "HEAD";
    let baseOid: string;
    try {
      baseOid = await repo.resolve(rev);
    } catch (error) {
      if (isEngineError(error, "empty_repository")) {
        throw new EngineError("empty_repository", `${error.message}`, {
          hint: "Make a first commit, or ask for the staged changes: every staged file then counts as added.",
          data: error.data,
        });
      }
      throw error;
    }
    base = { label: headLabel(rev, baseOid), rev, oid: baseOid };
    headSide = { label: "the working tree" };
    newFromDisk = true;
    const before = await flatten(await treeOf(baseOid));
    const idx = await gitIndex();
    pairs = [];
    const unread: string[] = [];
    // A submodule is one gitlink entry in the index; its checkout's files belong to its own
    // repository, as `git status` has it, so they are neither added nor compared here.
    const gitlinks = new Set<string>();
    for (const [path, e] of idx.entries) if ((e.mode & 0o170000) === 0o160000) gitlinks.add(path);
    const inSubmodule = (path: string) => {
      if (gitlinks.size === 0) return false;
      for (let i = path.indexOf("/"); i > 0; i = path.indexOf("/", i + 1))
        if (gitlinks.has(path.slice(0, i))) return true;
      return false;
    };
    const visit = (path: string) => {
      if (inSubmodule(path)) return;
      const oldOid = before.get(path);
      const f = inventory.files.get(path);
      // Without reading: the scan's hash of an indexed file, else the index's id when the stat matches.
      const known =
        f?.hash ??
        (f || inventory.skipped.has(path) ? indexedBlob(idx, path, f ?? inventory.stats.get(path)) : undefined);
      if (known === undefined) unread.push(path);
      else if (known !== oldOid) pairs.push({ path, ...(oldOid ? { oldOid } : {}), newOid: known });
    };
    for (const path of before.keys()) visit(path);
    for (const path of inventory.files.keys()) if (!before.has(path)) visit(path);
    for (const path of inventory.skipped.keys()) if (!before.has(path) && !inventory.files.has(path)) visit(path);
    for (const path of unread) {
      throwIfAborted(ctx.signal);
      const oldOid = before.get(path);
      const newOid = await worktreeOid(path);
      if (oldOid !== newOid) pairs.push({ path, ...(oldOid ? { oldOid } : {}), ...(newOid ? { newOid } : {}) });
    }
    pairs.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  const raw: RawChange[] = [];
  for (const p of pairs) {
    throwIfAborted(ctx.signal);
    raw.push(await readPair(ctx, repo, p, newFromDisk, inventory));
  }
  detectRenames(raw);
  return {
    mode: o.staged ? "staged" : o.head !== undefined ? "refs" : "worktree",
    base,
    head: headSide,
    headOnDisk,
    notes,
    raw,
  };
}

/** Paths whose blob differs between two path → blob maps. */
function diffMaps(
  before: Map<string, string>,
  after: Map<string, string>,
): { path: string; oldOid?: string; newOid?: string }[] {
  const out: { path: string; oldOid?: string; newOid?: string }[] = [];
  for (const path of [...new Set([...before.keys(), ...after.keys()])].sort()) {
    const a = before.get(path);
    const b = after.get(path);
    if (a !== b) out.push({ path, ...(a ? { oldOid: a } : {}), ...(b ? { newOid: b } : {}) });
  }
  return out;
}

/** Both versions of one changed path: blobs from git, the new side from disk in working-tree mode. */
async function readPair(
  ctx: ChangesContext,
  repo: GitRepository,
  p: { path: string; oldOid?: string; newOid?: string },
  newFromDisk: boolean,
  inventory: ReturnType<typeof inventoryOf>,
): Promise<RawChange> {
  const status: FileStatus = !p.oldOid ? "added" : !p.newOid ? "removed" : "modified";
  const change: RawChange = {
    path: p.path,
    status,
    ...(p.oldOid ? { oldOid: p.oldOid } : {}),
    ...(p.newOid ? { newOid: p.newOid } : {}),
  };
  const skippedBy = inventory.skipped.get(p.path);
  const sides: ["old" | "new", Uint8Array | "too_large" | undefined][] = [];
  // A blob over the size limit is refused by the size its object declares, never inflated.
  const blob = (oid: string) =>
    repo.readBlob(oid, ctx.maxFileBytes).catch((error) => {
      if (isEngineError(error, "io_error") && error.data.reason === "too_large") return "too_large" as const;
      throw error;
    });
  if (p.oldOid) sides.push(["old", await blob(p.oldOid)]);
  if (p.newOid) {
    if (newFromDisk) {
      if (skippedBy && skippedBy.reason !== "binary" && skippedBy.reason !== "not_utf8")
        return { ...change, status: "skipped", reason: skippedBy.reason.replace(/_/g, " ") };
      sides.push(["new", await ctx.platform.fs.readFile(p.path).catch(() => undefined)]);
    } else sides.push(["new", await blob(p.newOid)]);
  }
  for (const [side, bytes] of sides) {
    if (!bytes) return { ...change, status: "skipped", reason: "unreadable" };
    if (bytes === "too_large")
      return { ...change, status: "skipped", reason: `larger than ${Math.round(ctx.maxFileBytes / 1024)} KiB` };
    const t = textOf(bytes, ctx.maxFileBytes);
    if ("reason" in t) return { ...change, status: t.status, reason: t.reason };
    if (side === "old") change.oldText = t.text;
    else change.newText = t.text;
  }
  return change;
}

/**
 * Renames, as git finds them: an added and a removed file with the same blob, else with at least
 * half their lines in common (same extension). Definitions then compare across the rename.
 */
function detectRenames(raw: RawChange[]): void {
  const removed = raw.filter((r) => r.status === "removed");
  const added = raw.filter((r) => r.status === "added");
  if (!removed.length || !added.length) return;
  const pair = (from: RawChange, to: RawChange) => {
    to.status = "renamed";
    to.oldPath = from.path;
    if (from.oldOid) to.oldOid = from.oldOid;
    if (from.oldText !== undefined) to.oldText = from.oldText;
    raw.splice(raw.indexOf(from), 1);
    removed.splice(removed.indexOf(from), 1);
    added.splice(added.indexOf(to), 1);
  };
  for (const from of [...removed]) {
    const to = added.find((a) => a.newOid !== undefined && a.newOid === from.oldOid);
    if (to) pair(from, to);
  }
  if (removed.length * added.length > 10_000) return;
  const multiset = (text: string) => {
    const m = new Map<string, number>();
    for (const l of splitLines(text)) if (l.trim()) m.set(l, (m.get(l) ?? 0) + 1);
    return m;
  };
  const candidates: { from: RawChange; to: RawChange; score: number }[] = [];
  for (const from of removed) {
    if (from.oldText === undefined) continue;
    const a = multiset(from.oldText);
    const aSize = [...a.values()].reduce((x, y) => x + y, 0);
    for (const to of added) {
      if (to.newText === undefined || extname(to.path) !== extname(from.path)) continue;
      const b = multiset(to.newText);
      let common = 0;
      let bSize = 0;
      for (const [l, n] of b) {
        bSize += n;
        common += Math.min(n, a.get(l) ?? 0);
      }
      const score = aSize + bSize ? (2 * common) / (aSize + bSize) : 0;
      if (score >= 0.5) candidates.push({ from, to, score });
    }
  }
  candidates.sort((x, y) => y.score - x.score);
  for (const c of candidates) if (removed.includes(c.from) && added.includes(c.to)) pair(c.from, c.to);
}

// ------------------------------------------------------------------ pasted diffs

/** One file of a pasted diff applied to the tree, forwards or (`reverse`) as already made. */
type Attempt = { ok: true; change: RawChange; verified: number } | { ok: false; why: string };

/** Applies one file's patch to the tree's text (`current`), forwards or backwards; why not, when it fails. */
async function attemptPatch(
  p: FilePatch,
  reverse: boolean,
  current: (path: string) => Promise<string | { reason: string } | undefined>,
): Promise<Attempt> {
  const oldPath = p.oldPath !== undefined ? normalizeRelative(p.oldPath) : undefined;
  const newPath = p.newPath !== undefined ? normalizeRelative(p.newPath) : undefined;
  if ((p.oldPath !== undefined && !oldPath) || (p.newPath !== undefined && !newPath))
    return { ok: false, why: "its path is outside the project" };
  const path = (newPath ?? oldPath)!;
  const base: RawChange = {
    path,
    ...(p.status === "renamed" && oldPath !== undefined && oldPath !== newPath ? { oldPath } : {}),
    status:
      p.status === "added" || p.status === "copied"
        ? "added"
        : p.status === "deleted"
          ? "removed"
          : p.status === "renamed" && oldPath !== newPath
            ? "renamed"
            : "modified",
  };
  const there = reverse
    ? newPath !== undefined
      ? await current(newPath)
      : undefined
    : oldPath !== undefined && p.status !== "added"
      ? await current(oldPath)
      : undefined;
  const otherEnd = reverse
    ? p.status === "renamed" && oldPath !== newPath && oldPath
      ? await current(oldPath)
      : p.status === "deleted" && oldPath
        ? await current(oldPath)
        : undefined
    : (p.status === "added" || (p.status === "renamed" && oldPath !== newPath) || p.status === "copied") && newPath
      ? await current(newPath)
      : undefined;
  if (typeof there === "object")
    return { ok: false, why: `${reverse ? newPath : oldPath} is not indexed (${there.reason})` };
  const needsFile = reverse ? p.status !== "deleted" : p.status !== "added";
  if (needsFile && there === undefined)
    return { ok: false, why: `${reverse ? newPath : oldPath} is not in the project` };
  if (otherEnd !== undefined) return { ok: false, why: `${reverse ? oldPath : newPath} already exists` };
  if (p.binary) return { ok: true, change: { ...base, status: "binary", reason: "binary" }, verified: 0 };
  const start = toLines(needsFile ? (there as string) : "");
  const applied = applyHunks(start, p.hunks, reverse);
  if (!applied.ok)
    return {
      ok: false,
      why:
        `hunk ${applied.failure.hunk + 1} expects ${quoted(applied.failure.expected.slice(0, 80))} ` +
        `near line ${applied.failure.expectedAt} of ${reverse ? newPath : oldPath}`,
    };
  const result = fromLines(applied.result);
  if (!reverse && p.status === "deleted" && result !== "")
    return { ok: false, why: `${oldPath} holds more than the diff deletes` };
  if (reverse && p.status === "added" && result !== "")
    return { ok: false, why: `${newPath} holds more than the diff adds` };
  const before = reverse ? result : needsFile ? (there as string) : undefined;
  const after = reverse ? (there as string | undefined) : result;
  const change: RawChange = { ...base };
  if (p.status !== "added" && p.status !== "copied" && before !== undefined) change.oldText = before;
  if (p.status !== "deleted" && after !== undefined) change.newText = after;
  if (p.status === "added" || p.status === "copied") delete change.oldText;
  return { ok: true, change, verified: applied.verified };
}

async function fromDiff(ctx: ChangesContext, text: string): Promise<Omit<ChangeSet, "files"> & { raw: RawChange[] }> {
  const notes: string[] = [];
  // A file the diff names outside the project (`../x`, `/etc/passwd`), or names on neither side
  // (/dev/null both ways), is left out, said in a note: nothing outside the root is read or cited.
  const inside = (p: string | undefined) => p === undefined || (normalizeRelative(p) ?? "") !== "";
  const all = parseUnifiedDiff(text);
  const patches = all.filter(
    (p) => (p.oldPath !== undefined || p.newPath !== undefined) && inside(p.oldPath) && inside(p.newPath),
  );
  if (patches.length < all.length) {
    const out = all.length - patches.length;
    notes.push(
      `${out} file${out > 1 ? "s" : ""} of the diff name${out > 1 ? "" : "s"} no path inside the project; left out`,
    );
  }
  if (patches.length === 0) {
    throw new EngineError(
      "invalid_diff",
      "The diff names no file inside the project: every file it changes is outside the root, or /dev/null on " +
        "both sides.",
      {
        hint: "Pass a diff made in this project (paths relative to its root).",
        data: {},
      },
    );
  }
  const inventory = inventoryOf(ctx.snapshot);
  const contents = new Map<string, string | { reason: string } | undefined>();
  /** A path's current text; undefined when the tree has no such file; a reason when it has one the index skipped. */
  const current = async (path: string): Promise<string | { reason: string } | undefined> => {
    if (contents.has(path)) return contents.get(path);
    let value: string | { reason: string } | undefined;
    const skipped = inventory.skipped.get(path);
    if (skipped) value = { reason: skipped.reason.replace(/_/g, " ") };
    else if (inventory.files.has(path)) {
      const bytes = await ctx.platform.fs.readFile(path).catch(() => undefined);
      const t = bytes ? textOf(bytes, 16 * ctx.maxFileBytes) : { reason: "unreadable" };
      value = "text" in t ? t.text : { reason: t.reason };
    }
    contents.set(path, value);
    return value;
  };

  const attempt = (p: FilePatch, reverse: boolean) => attemptPatch(p, reverse, current);

  const forward: Attempt[] = [];
  const backward: Attempt[] = [];
  for (const p of patches) {
    throwIfAborted(ctx.signal);
    forward.push(await attempt(p, false));
    backward.push(await attempt(p, true));
  }
  const okCount = (xs: Attempt[]) => xs.filter((x) => x.ok).length;
  const verified = (xs: Attempt[]) => xs.reduce((n, x) => n + (x.ok ? x.verified : 0), 0);
  if (okCount(forward) === 0 && okCount(backward) === 0) {
    const failures = patches.slice(0, 5).map((p, i) => ({
      path: p.newPath ?? p.oldPath,
      forward: (forward[i] as { why: string }).why,
      reverse: (backward[i] as { why: string }).why,
    }));
    throw new EngineError(
      "diff_not_applicable",
      `The diff does not match the files on disk, neither as changes still to apply nor as changes already ` +
        `made: ${failures[0]!.path}: ${failures[0]!.forward}; already applied? ${failures[0]!.reverse}.`,
      {
        hint:
          "Pass a diff made against this tree (git diff, or the PR's patch on its base branch), or check " +
          "out the branch it was made on.",
        data: { files: patches.length, failures },
      },
    );
  }
  // The direction more files agree with; on a tie, the one that checked more lines (a diff
  // without context lines "applies" forwards anywhere), then the already-applied reading.
  const reverse =
    okCount(backward) > okCount(forward) ||
    (okCount(backward) === okCount(forward) && verified(backward) >= verified(forward));
  const chosen = reverse ? backward : forward;
  const raw: RawChange[] = chosen.map((a, i) => {
    if (a.ok) return a.change;
    const p = patches[i]!;
    return {
      path: (p.newPath ?? p.oldPath)!,
      ...(p.status === "renamed" && p.oldPath ? { oldPath: p.oldPath } : {}),
      status: "skipped",
      reason: `the diff does not apply here: ${a.why}`,
    };
  });
  const failed = chosen.filter((a) => !a.ok).length;
  if (failed)
    notes.push(
      `${failed} of ${patches.length} files of the diff do not match the files on disk; they are listed, not compared`,
    );
  if (!reverse)
    notes.push(
      "the diff is not applied in the files on disk: the changed code is cited as it would be after applying it",
    );
  return {
    mode: "diff",
    base: { label: reverse ? "the files before the diff" : "the files on disk" },
    head: { label: reverse ? "the files on disk (diff applied)" : "the files with the diff applied" },
    headOnDisk: reverse,
    notes,
    raw,
  };
}

// ------------------------------------------------------------------ parse and compare

/**
 * The record of one side's text, through the index's own parse: deep brackets blanked, a wasm trap
 * renewing the instance (issue 22). A file the parser cannot take compares as no source file.
 */
async function parseText(platform: Platform, path: string, text: string): Promise<FileRecord | undefined> {
  const spec = languageForExtension(extname(path));
  if (!spec) return undefined;
  const runtime = await createParserRuntime(platform.wasm);
  try {
    return await parseFile(runtime, spec, text, path, await gitBlobId(encoder.encode(text)));
  } catch (error) {
    if (isEngineError(error, "parse_failed")) return undefined;
    throw error;
  }
}

async function compareAll(ctx: ChangesContext, raw: RawChange[], notes: string[]): Promise<ComparedFile[]> {
  const out: ComparedFile[] = [];
  let compared = 0;
  let overLimit = 0;
  for (const r of raw) {
    throwIfAborted(ctx.signal);
    const spec =
      languageForExtension(extname(r.path)) ?? (r.oldPath ? languageForExtension(extname(r.oldPath)) : undefined);
    const file: ComparedFile = {
      path: r.path,
      ...(r.oldPath ? { oldPath: r.oldPath } : {}),
      status: r.status,
      ...(r.reason ? { reason: r.reason } : {}),
      ...(spec ? { language: spec.id } : {}),
      ...defined({ oldText: r.oldText, newText: r.newText }),
      hunks: [],
    };
    out.push(file);
    if (r.status === "binary" || r.status === "skipped") continue;
    if (r.oldText === r.newText && r.oldPath === undefined) continue;
    file.hunks = diffLines(splitLines(r.oldText ?? ""), splitLines(r.newText ?? ""));
    if (!spec) continue;
    if (compared >= MAX_COMPARED_FILES) {
      overLimit++;
      file.status = "skipped";
      file.reason = `over the limit of ${MAX_COMPARED_FILES} compared files`;
      continue;
    }
    compared++;
    try {
      const oldRecord =
        r.oldText !== undefined ? await parseText(ctx.platform, r.oldPath ?? r.path, r.oldText) : undefined;
      let newRecord: FileRecord | undefined;
      if (r.newText !== undefined) {
        const indexed = ctx.graph.records.get(r.path);
        const hash = await gitBlobId(encoder.encode(r.newText));
        newRecord = indexed?.hash === hash ? indexed : await parseText(ctx.platform, r.path, r.newText);
      }
      if (oldRecord) file.oldRecord = oldRecord;
      if (newRecord) file.newRecord = newRecord;
      file.comparison = compareDefinitions(
        { record: oldRecord, lines: splitLines(r.oldText ?? "") },
        { record: newRecord, lines: splitLines(r.newText ?? "") },
        file.hunks,
      );
    } catch (error) {
      if (!isEngineError(error, "wasm_missing", "wasm_mismatch", "grammar_incompatible")) throw error;
      file.reason = `not compared: ${error.message}`;
    }
  }
  if (overLimit)
    notes.push(
      `${overLimit} more changed source files were not compared (limit ${MAX_COMPARED_FILES}); the answer ` +
        `covers the first ${MAX_COMPARED_FILES}`,
    );
  return out;
}
