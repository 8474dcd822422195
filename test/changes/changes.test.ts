/**
 * `changes` on real git repositories made in temp folders by the test (git's own CLI writes the
 * objects: loose, then packed with deltas by `git gc`): the working tree against HEAD, the index,
 * two refs, and pasted diffs already applied or still to apply; and every failure a user can
 * cause as an EngineError with its code. Assertions are on codes and data, not wording.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createEngine, type ChangesAnswer, type ChangesOptions, type EngineError } from "../../src/index.ts";
import { createNodePlatform } from "../../src/platform/node/index.ts";

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) fs.rmSync(t, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-changes-")));
  temps.push(dir);
  return dir;
}

const gitEnv = {
  ...process.env,
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@example.com",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@example.com",
  GIT_CONFIG_NOSYSTEM: "1",
  HOME: os.tmpdir(),
};
function git(root: string, ...args: string[]): string {
  return execFileSync("git", ["-C", root, ...args], { encoding: "utf8", env: gitEnv, stdio: ["pipe", "pipe", "pipe"] });
}

function write(root: string, files: Record<string, string | null>): void {
  for (const [rel, text] of Object.entries(files)) {
    const full = path.join(root, rel);
    if (text === null) fs.rmSync(full, { force: true });
    else {
      fs.mkdirSync(path.dirname(full), { recursive: true });
      fs.writeFileSync(full, text);
    }
  }
}

/** A repository with one commit per entry of `commits` (files to write; null deletes). */
function repo(...commits: Record<string, string | null>[]): string {
  const root = tempDir();
  git(root, "init", "-q", "-b", "main");
  commits.forEach((files, i) => {
    write(root, files);
    git(root, "add", "-A");
    git(root, "commit", "-q", "-m", `commit ${i}`);
  });
  return root;
}

async function changes(root: string, options: ChangesOptions = {}): Promise<ChangesAnswer> {
  const platform = await createNodePlatform({ root, cacheDir: path.join(tempDir(), "cache") });
  return createEngine(platform).changes(options);
}

async function failure(root: string, options: ChangesOptions = {}): Promise<EngineError> {
  try {
    await changes(root, options);
  } catch (error) {
    return error as EngineError;
  }
  throw new Error("expected an error");
}

/** `change name` for each changed definition, sorted: what a test compares. */
const summary = (a: ChangesAnswer) => a.symbols.map((s) => `${s.change} ${s.qualified}`).sort();

const CORE_V1 = `import os


def helper(x):
    return x + 1


def compute(a, b):
    """Adds."""
    return helper(a) + b


class Service:
    def run(self, n):
        return compute(n, 2)

    def old(self):
        return 1
`;

const CORE_V2 = `import os
import sys


def helper(x):
    return x + 2


def compute(a, b, c=0):
    """Adds."""
    return helper(a) + b + c


class Service:
    def run(self, n):
        return compute(n, 2)

    def fresh(self):
        return 2
`;

const API = `from pkg.core import compute, Service


def endpoint(q):
    return compute(q, 3)


def other():
    return Service().old()
`;

const TESTS = `from pkg.core import compute
from pkg.api import endpoint


def test_compute():
    assert compute(1, 2) == 4


def test_endpoint():
    assert endpoint(1) == 5
`;

const TS_V1 = `export interface Options { retries: number }

export function fetchAll(urls: string[], options: Options): string[] {
  return urls.map((u) => get(u, options));
}

export function get(url: string, options: Options): string {
  return url + options.retries;
}
`;

const TS_V2 = `export interface Options { retries: number; timeout: number }

export function fetchAll(urls: string[], options: Options): string[] {
  return urls.map((u) => fetchOne(u, options));
}

export function fetchOne(url: string, options: Options): string {
  return url + options.retries;
}
`;

const BASE = {
  "pkg/__init__.py": "",
  "pkg/core.py": CORE_V1,
  "pkg/api.py": API,
  "tests/test_core.py": TESTS,
  "web/client.ts": TS_V1,
};

describe("changes: the working tree against HEAD", () => {
  it("finds added, removed, body- and signature-changed definitions, renames, and their impact", async () => {
    const root = repo(BASE);
    write(root, { "pkg/core.py": CORE_V2, "web/client.ts": TS_V2 });
    const a = await changes(root);
    expect(a.mode).toBe("worktree");
    expect(a.base.rev).toBe("HEAD");
    expect(a.headOnDisk).toBe(true);
    expect(summary(a)).toEqual([
      "added pkg.core.Service.fresh",
      "body pkg.core.helper",
      "body web/client.ts#Options",
      "body web/client.ts#fetchAll",
      "removed pkg.core.Service.old",
      "renamed web/client.ts#fetchOne",
      "signature pkg.core.compute",
    ]);
    const compute = a.symbols.find((s) => s.qualified === "pkg.core.compute")!;
    expect(compute.signature).toEqual({ old: "def compute(a, b):", new: "def compute(a, b, c=0):" });
    expect(compute).toMatchObject({
      path: "pkg/core.py",
      start: 9,
      end: 11,
      old: { path: "pkg/core.py", start: 8, end: 10, name: "compute" },
    });
    expect(a.symbols.find((s) => s.change === "renamed")!.renamedFrom).toBe("web/client.ts#get");
    expect(a.files.find((f) => f.path === "pkg/core.py")!.moduleLines.new).toEqual([[2, 2]]);
    // Impact: callers of the changed signature, code still calling the removed method, tests.
    expect(a.impact.callers.map((c) => c.qualified)).toEqual(
      expect.arrayContaining(["pkg.api.endpoint", "pkg.core.Service.run", "pkg.api.other"]),
    );
    expect(a.impact.callers.find((c) => c.qualified === "pkg.api.other")!.via).toBe("name");
    expect(a.impact.tests.map((t) => `${t.qualified} ${t.depth}`)).toEqual([
      "tests.test_core.test_compute 1",
      "tests.test_core.test_endpoint 2",
    ]);
    // The bundle: changed code first (signatures, then removals), then callers, then tests.
    const roles = a.chunks.map((c) => c.role);
    expect(roles[0]).toBe("changed");
    expect(a.chunks[0]!.change).toBe("signature");
    expect(roles.indexOf("caller")).toBeGreaterThan(roles.lastIndexOf("added"));
    expect(roles.indexOf("test")).toBeGreaterThan(roles.indexOf("caller"));
    expect(a.text).toMatch(/^## pkg\/core\.py:9-11 \[changed\] pkg\.core\.compute \(signature changed\)$/m);
    expect(a.text).toContain("-def compute(a, b):\n+def compute(a, b, c=0):");
    expect(a.text).toMatch(/^## pkg\/core\.py:17-18 \[removed\] pkg\.core\.Service\.old/m);
    expect(a.usage.tokens).toBeLessThanOrEqual(a.usage.budget);
  });

  it("fits a small budget: the first change stays, the rest is cut with handles", async () => {
    const root = repo(BASE);
    write(root, { "pkg/core.py": CORE_V2, "web/client.ts": TS_V2 });
    const a = await changes(root, { budget: 450 });
    expect(a.usage.tokens).toBeLessThanOrEqual(450);
    expect(a.chunks[0]?.symbol).toBe("pkg.core.compute");
    expect(a.cut.length).toBeGreaterThan(0);
    expect(a.text).toContain("## Cut:");
    // The summary keeps naming every changed definition, whatever was cut.
    expect(a.symbols).toHaveLength(7);
  });

  it("counts new untracked files as added and deleted files as removed; a clean tree has no changes", async () => {
    const root = repo(BASE);
    expect((await changes(root)).files).toEqual([]);
    expect((await changes(root)).text).toContain("No changes.");
    write(root, { "pkg/extra.py": "def extra():\n    return 1\n", "pkg/api.py": null });
    const a = await changes(root);
    expect(a.files.map((f) => `${f.status} ${f.path}`).sort()).toEqual(["added pkg/extra.py", "removed pkg/api.py"]);
    expect(summary(a)).toEqual(["added pkg.extra.extra", "removed pkg.api.endpoint", "removed pkg.api.other"]);
  });

  it("follows a renamed file: its definitions compare across the move", async () => {
    const root = repo(BASE);
    git(root, "mv", "pkg/api.py", "pkg/views.py");
    write(root, { "pkg/views.py": API.replace("compute(q, 3)", "compute(q, 4)") });
    const a = await changes(root);
    expect(a.files.map((f) => `${f.status} ${f.oldPath} ${f.path}`)).toEqual(["renamed pkg/api.py pkg/views.py"]);
    expect(summary(a)).toEqual(["body pkg.views.endpoint"]);
  });

  it("lists binary files without comparing them", async () => {
    const root = repo({ ...BASE, "logo.png": "\x89PNG\0\0\x01" });
    write(root, { "logo.png": "\x89PNG\0\0\x02", "pkg/core.py": CORE_V2 });
    const a = await changes(root);
    expect(a.files.find((f) => f.path === "logo.png")).toMatchObject({ status: "binary", reason: "binary" });
    expect(a.symbols.length).toBeGreaterThan(0);
  });

  it("works on a detached HEAD and names it", async () => {
    const root = repo(BASE, { "pkg/core.py": CORE_V2 });
    git(root, "checkout", "-q", "--detach", "HEAD~1");
    write(root, { "pkg/api.py": API.replace("compute(q, 3)", "compute(q, 5)") });
    const a = await changes(root);
    expect(a.base.label).toMatch(/detached/);
    expect(summary(a)).toEqual(["body pkg.api.endpoint"]);
  });
});

describe("changes: the index and two refs", () => {
  it("--staged compares the index with HEAD, and says when the disk differs from the index", async () => {
    const root = repo(BASE);
    write(root, { "pkg/core.py": CORE_V2 });
    git(root, "add", "pkg/core.py");
    write(root, { "pkg/api.py": API.replace("compute(q, 3)", "compute(q, 5)") }); // not staged
    const a = await changes(root, { staged: true });
    expect(a.mode).toBe("staged");
    expect(a.files.map((f) => f.path)).toEqual(["pkg/core.py"]);
    expect(a.headOnDisk).toBe(true);
    write(root, { "pkg/core.py": CORE_V2.replace("x + 2", "x + 3") });
    expect((await changes(root, { staged: true })).headOnDisk).toBe(false);
  });

  it("--base/--head compare two commits, loose or packed with deltas; --head alone compares with its parent", async () => {
    const root = repo(BASE, { "pkg/core.py": CORE_V2 }, { "web/client.ts": TS_V2 });
    const both = await changes(root, { base: "HEAD~2", head: "HEAD~1" });
    expect(both.mode).toBe("refs");
    expect(summary(both)).toEqual([
      "added pkg.core.Service.fresh",
      "body pkg.core.helper",
      "removed pkg.core.Service.old",
      "signature pkg.core.compute",
    ]);
    // HEAD~1's version of pkg/core.py is the one on disk; HEAD~2's is not: then callers and
    // tests still come from the files on disk, and the answer says so.
    expect(both.headOnDisk).toBe(true);
    const backwards = await changes(root, { base: "HEAD~1", head: "HEAD~2" });
    expect(backwards.headOnDisk).toBe(false);
    expect(backwards.text).toMatch(/is not what the files on disk hold/);
    const alone = await changes(root, { head: "HEAD" });
    expect(summary(alone)).toEqual([
      "body web/client.ts#Options",
      "body web/client.ts#fetchAll",
      "renamed web/client.ts#fetchOne",
    ]);
    expect(alone.headOnDisk).toBe(true);
    const tag = git(root, "rev-parse", "HEAD~2").trim();
    git(root, "tag", "-a", "v1", "-m", "v1", tag);
    git(root, "gc", "-q", "--aggressive");
    expect(fs.readdirSync(path.join(root, ".git/objects/pack")).some((f) => f.endsWith(".pack"))).toBe(true);
    const packed = await changes(root, { base: "v1", head: tag.slice(0, 8) });
    expect(packed.files).toEqual([]);
    expect(summary(await changes(root, { base: "v1", head: "main~1" }))).toEqual(summary(both));
  });

  it("a root commit compares with the empty tree", async () => {
    const root = repo(BASE);
    const a = await changes(root, { head: "HEAD" });
    expect(a.base.label).toMatch(/empty tree/);
    expect(a.files.every((f) => f.status === "added")).toBe(true);
  });
});

describe("changes: pasted diffs", () => {
  it("reads a diff already applied (git diff | codeslice changes --diff -) and one still to apply", async () => {
    const root = repo(BASE);
    write(root, { "pkg/core.py": CORE_V2, "web/client.ts": TS_V2 });
    const diff = git(root, "diff", "HEAD");
    const applied = await changes(root, { diff });
    expect(applied.mode).toBe("diff");
    expect(applied.headOnDisk).toBe(true);
    const fromGit = await changes(root);
    expect(summary(applied)).toEqual(summary(fromGit));
    git(root, "checkout", "-q", "--", ".");
    const pending = await changes(root, { diff });
    expect(pending.headOnDisk).toBe(false);
    expect(summary(pending)).toEqual(summary(fromGit));
    // The changed code is cited as it will be once applied.
    expect(pending.symbols.find((s) => s.qualified === "pkg.core.compute")).toMatchObject({ start: 9, end: 11 });
    expect(pending.notes.join(" ")).toMatch(/not applied/);
  });

  it("reads renames, additions and deletions from a git diff, and plain diff -u output", async () => {
    const root = repo(BASE);
    git(root, "mv", "pkg/api.py", "pkg/views.py");
    write(root, {
      "pkg/views.py": API.replace("compute(q, 3)", "compute(q, 4)"),
      "pkg/new.py": "def new():\n    return 1\n",
      "tests/test_core.py": null,
    });
    git(root, "add", "-A");
    const diff = git(root, "diff", "--cached", "-M", "HEAD");
    expect(diff).toContain("rename from pkg/api.py");
    const a = await changes(root, { diff });
    expect(a.files.map((f) => `${f.status} ${f.path}`).sort()).toEqual([
      "added pkg/new.py",
      "removed tests/test_core.py",
      "renamed pkg/views.py",
    ]);
    expect(summary(a)).toEqual([
      "added pkg.new.new",
      "body pkg.views.endpoint",
      "removed tests.test_core.test_compute",
      "removed tests.test_core.test_endpoint",
    ]);
    const plain = `--- pkg/core.py\t2024-01-01 00:00:00.000000000 +0000\n+++ pkg/core.py\t2024-01-02 00:00:00.000000000 +0000\n@@ -5 +5 @@\n-    return x + 1\n+    return x + 9\n`;
    git(root, "reset", "-q", "--hard");
    expect(summary(await changes(root, { diff: plain }))).toEqual(["body pkg.core.helper"]);
  });

  it("refuses a diff that does not apply either way, and text that is no diff", async () => {
    const root = repo(BASE);
    const foreign = "--- a/pkg/core.py\n+++ b/pkg/core.py\n@@ -1,2 +1,2 @@\n-import json\n+import yaml\n \n";
    const e = await failure(root, { diff: foreign });
    expect(e.code).toBe("diff_not_applicable");
    expect((e.data.failures as unknown[]).length).toBe(1);
    expect((await failure(root, { diff: "just some words\n" })).code).toBe("invalid_diff");
    const cut =
      "diff --git a/pkg/core.py b/pkg/core.py\n--- a/pkg/core.py\n+++ b/pkg/core.py\n@@ -1,3 +1,3 @@\n-import os\n";
    expect((await failure(root, { diff: cut })).code).toBe("invalid_diff");
  });

  it("answers for the files that apply and lists the others, when only part of a diff matches", async () => {
    const root = repo(BASE);
    const diff =
      "--- a/pkg/core.py\n+++ b/pkg/core.py\n@@ -5 +5 @@\n-    return x + 1\n+    return x + 7\n--- a/pkg/api.py\n+++ b/pkg/api.py\n@@ -1 +1 @@\n-import nothing\n+import something\n";
    const a = await changes(root, { diff });
    expect(summary(a)).toEqual(["body pkg.core.helper"]);
    expect(a.files.find((f) => f.path === "pkg/api.py")).toMatchObject({ status: "skipped" });
    expect(a.notes.join(" ")).toMatch(/1 of 2 files/);
  });
});

describe("changes: failures a user can cause", () => {
  it("not a repository; an unknown revision; conflicting options", async () => {
    const plain = tempDir();
    write(plain, { "a.py": "def f():\n    return 1\n" });
    expect((await failure(plain)).code).toBe("not_a_repository");
    const root = repo(BASE);
    const e = await failure(root, { base: "no-such-branch" });
    expect(e.code).toBe("unknown_revision");
    expect(e.data.rev).toBe("no-such-branch");
    expect((await failure(root, { base: "HEAD~5" })).code).toBe("unknown_revision");
    expect((await failure(root, { staged: true, base: "HEAD" })).code).toBe("invalid_argument");
    expect((await failure(root, { diff: "x", head: "HEAD" })).code).toBe("invalid_argument");
    expect((await failure(root, { base: "HEAD..main" })).code).toBe("invalid_argument");
  });

  it("a repository with no commits: an error for HEAD, every file added for --staged", async () => {
    const root = tempDir();
    git(root, "init", "-q", "-b", "main");
    write(root, { "a.py": "def f():\n    return 1\n" });
    expect((await failure(root)).code).toBe("empty_repository");
    git(root, "add", "a.py");
    const a = await changes(root, { staged: true });
    expect(summary(a)).toEqual(["added a.f"]);
    expect(a.base.label).toMatch(/no commits/);
  });

  it("a shallow clone without the base commit", async () => {
    const source = repo(BASE, { "pkg/core.py": CORE_V2 }, { "web/client.ts": TS_V2 });
    const clone = path.join(tempDir(), "clone");
    execFileSync("git", ["clone", "-q", "--depth", "1", `file://${source}`, clone], { env: gitEnv });
    expect((await failure(clone, { base: "HEAD~1" })).code).toBe("shallow_history");
    expect((await failure(clone, { head: "HEAD" })).code).toBe("shallow_history");
    // What the clone has still answers.
    write(clone, { "pkg/core.py": CORE_V1 });
    expect(summary(await changes(clone))).toContain("signature pkg.core.compute");
  });

  it("a linked worktree: its git folder is outside the root", async () => {
    const root = repo(BASE);
    const linked = path.join(tempDir(), "linked");
    git(root, "worktree", "add", "-q", linked);
    const e = await failure(linked);
    expect(e.code).toBe("not_a_repository");
    expect(e.hint).toMatch(/diff/);
  });
});
