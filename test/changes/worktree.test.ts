/**
 * `changes` on the working tree reads as `git status` does: a file whose stat matches its git index
 * entry is not read, a "racily clean" entry (stamped no earlier than the index file) is, and the
 * index's cache-tree stands for HEAD's tree while it is valid. Real repositories made by git's CLI,
 * the real Node file system (wrapped only to count the files read).
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createEngine } from "../../src/index.ts";
import { createNodePlatform } from "../../src/platform/node/index.ts";
import { parseGitIndexFile } from "../../src/core/scan/git-index.ts";

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) fs.rmSync(t, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-worktree-")));
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
const git = (root: string, ...args: string[]) =>
  execFileSync("git", ["-C", root, ...args], { encoding: "utf8", env: gitEnv, stdio: ["pipe", "pipe", "pipe"] });

function repo(files: Record<string, string | Uint8Array>): string {
  const root = tempDir();
  git(root, "init", "-q", "-b", "main");
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), content);
  }
  git(root, "add", "-A");
  git(root, "commit", "-q", "-m", "one");
  return root;
}

/** An engine over `root` and the working-tree files it read (outside .git). */
async function engineOf(root: string) {
  const platform = await createNodePlatform({ root, cacheDir: path.join(tempDir(), "cache") });
  const reads: string[] = [];
  const readFile = platform.fs.readFile.bind(platform.fs);
  platform.fs.readFile = (p: string) => {
    if (!p.startsWith(".git/")) reads.push(p);
    return readFile(p);
  };
  return { engine: createEngine(platform), reads };
}

const PNG = (last: number) => new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, last]);
const FILES = { "app.py": "def f():\n    return 1\n", "logo.png": PNG(1), "notes.txt": "hello\n" };

describe("changes: the working tree through the git index", () => {
  it("reads no unchanged file: the index vouches for files whose stat matches", async () => {
    const root = repo(FILES);
    const { engine, reads } = await engineOf(root);
    await engine.index();
    reads.length = 0;
    const a = await engine.changes();
    expect(a.files).toEqual([]);
    expect(reads).toEqual([]);
    // A changed binary file (skipped by name, never indexed) is still found, by its stat.
    fs.writeFileSync(path.join(root, "logo.png"), PNG(2));
    fs.utimesSync(path.join(root, "logo.png"), new Date(Date.now() + 5_000), new Date(Date.now() + 5_000));
    await engine.refresh(); // as hosts do before each answer
    const b = await engine.changes();
    expect(b.files.map((f) => `${f.status} ${f.path}`)).toEqual(["binary logo.png"]);
  });

  it("reads a racily clean file: same size and mtime as its entry, stamped no earlier than the index", async () => {
    const root = tempDir();
    git(root, "init", "-q", "-b", "main");
    const logo = path.join(root, "logo.png");
    fs.writeFileSync(path.join(root, "app.py"), FILES["app.py"]);
    fs.writeFileSync(logo, PNG(1));
    // Stamped after the index is written: git cannot tell a later same-size edit from its stat.
    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(logo, later, later);
    git(root, "add", "-A");
    git(root, "commit", "-q", "-m", "one");
    fs.writeFileSync(logo, PNG(2));
    fs.utimesSync(logo, later, later);
    const { engine } = await engineOf(root);
    const a = await engine.changes();
    expect(a.files.map((f) => `${f.status} ${f.path}`)).toEqual(["binary logo.png"]);
  });

  it("the index's cache-tree names HEAD's tree after a commit, and nothing once a change is staged", async () => {
    const root = repo(FILES);
    const read = () => parseGitIndexFile(new Uint8Array(fs.readFileSync(path.join(root, ".git/index"))));
    expect(read().tree).toBe(git(root, "rev-parse", "HEAD^{tree}").trim());
    expect([...read().entries.keys()].sort()).toEqual(["app.py", "logo.png", "notes.txt"]);
    fs.writeFileSync(path.join(root, "notes.txt"), "changed\n");
    git(root, "add", "notes.txt");
    expect(read().tree).toBeUndefined();
  });

  it("answers the same through the cache-tree as through HEAD's tree: staged and unstaged edits, deletions, new files", async () => {
    const root = repo(FILES);
    const { engine } = await engineOf(root);
    fs.writeFileSync(path.join(root, "app.py"), "def f():\n    return 2\n");
    git(root, "add", "app.py"); // staged: the cache-tree is no longer HEAD's
    fs.rmSync(path.join(root, "notes.txt"));
    fs.writeFileSync(path.join(root, "new.py"), "def g():\n    return 3\n");
    await engine.refresh();
    const a = await engine.changes();
    expect(a.files.map((f) => `${f.status} ${f.path}`)).toEqual([
      "modified app.py",
      "added new.py",
      "removed notes.txt",
    ]);
    expect(a.symbols.map((s) => `${s.change} ${s.qualified}`).sort()).toEqual(["added new.g", "body app.f"]);
    git(root, "commit", "-q", "-m", "two"); // the cache-tree is valid again, for the new HEAD
    await engine.refresh();
    const b = await engine.changes();
    expect(b.files.map((f) => `${f.status} ${f.path}`)).toEqual(["added new.py", "removed notes.txt"]);
  });
});
