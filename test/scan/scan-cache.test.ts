/**
 * The scan cache (ScanCache in core/scan/scan.ts) on real folders and real git: a scan that reuses
 * the last walk's folder listings must find exactly what a fresh walk finds, whatever changed in
 * between: a new file, a deleted one, an edited .gitignore or info/exclude, a `git add`, a folder
 * whose mtime was set back after a change, and a walk made while folders were still changing.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEngine } from "../../src/core/engine/engine.ts";
import { scanRepository, type ScanCache, type ScanResult } from "../../src/core/scan/scan.ts";
import { createNodeFileSystem, createNodePlatform } from "../../src/platform/node/index.ts";

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) fs.rmSync(t, { recursive: true, force: true });
});
function tempDir(prefix = "codeslice-scancache-"): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  temps.push(dir);
  return dir;
}

const gitHome = tempDir("codeslice-githome-");
const gitEnv: NodeJS.ProcessEnv = Object.fromEntries(
  Object.entries({
    ...process.env,
    HOME: gitHome,
    XDG_CONFIG_HOME: gitHome,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
  }).filter(([k]) => !["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY"].includes(k)),
);
function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.email=test@example.com", "-c", "user.name=Test", ...args], {
    cwd,
    env: gitEnv,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
}
function write(root: string, rel: string, content = `# ${rel}\n`): void {
  const full = path.join(root, rel);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, content);
}

/** A small repository: nested folders, a .gitignore, an ignored folder, a link, tracked and untracked files. */
function makeRepo(): string {
  const root = tempDir();
  git(root, "init", "-q", "-b", "main", ".");
  write(root, ".gitignore", "*.log\nbuild/\n");
  write(root, "pkg/mod.py", "def f():\n    return 1\n");
  write(root, "pkg/sub/deep.py", "from pkg.mod import f\n");
  write(root, "pkg/sub/notes.txt");
  write(root, "pkg/app.log");
  write(root, "build/out.py");
  write(root, "docs/readme.md");
  fs.symlinkSync("mod.py", path.join(root, "pkg/alias.py"));
  git(root, "add", "-A");
  git(root, "commit", "-q", "-m", "init");
  write(root, "untracked.py", "x = 1\n");
  return root;
}

const scan = async (root: string, cache?: ScanCache) =>
  scanRepository(await createNodeFileSystem(root), cache ? { cache } : {});
/** What a scan found, without git's blob ids (a hint the reused scan does not take from the index; see reuseScan). */
const found = (r: ScanResult) => ({
  mode: r.mode,
  files: r.files.map((f) => ({ path: f.path, size: f.size, mtimeMs: f.mtimeMs })),
  skipped: r.skipped,
});
const mtimeOf = (p: string) => fs.statSync(p, { bigint: true }).mtimeNs;
/** Sets a folder's mtime back to exactly `ns` (its ctime moves on regardless: only the kernel sets ctime). */
function setMtime(p: string, ns: bigint): void {
  execFileSync("touch", ["-m", "-d", `@${ns / 1_000_000_000n}.${String(ns % 1_000_000_000n).padStart(9, "0")}`, p]);
}
/** Waits past the window within which a stamp is not trusted (RACY_STAMP_MS). */
const pastRacyWindow = () => new Promise((r) => setTimeout(r, 2100));

describe("scan cache", () => {
  const repos: Record<string, string> = {};
  const caches: Record<string, ScanCache> = {};
  const names = ["same", "added", "deleted", "gitignore", "exclude", "mtimeBack", "gitAdd", "edited"];

  beforeAll(async () => {
    for (const n of names) repos[n] = makeRepo();
    await pastRacyWindow();
    for (const n of names) {
      const r = await scan(repos[n]!);
      expect(r.cache, `${n}: a walk of folders older than the window leaves a cache`).toBeDefined();
      caches[n] = r.cache!;
    }
  }, 30_000);

  it("an unchanged tree is not listed again and gives what a fresh walk gives", async () => {
    const root = repos.same!;
    const reused = await scan(root, caches.same);
    expect(reused.cache).toBe(caches.same);
    const fresh = await scan(root);
    expect(found(reused)).toEqual(found(fresh));
    expect(reused.files.map((f) => f.path)).toEqual([
      ".gitignore",
      "docs/readme.md",
      "pkg/alias.py",
      "pkg/mod.py",
      "pkg/sub/deep.py",
      "pkg/sub/notes.txt",
      "untracked.py",
    ]);
  });

  it("an edit in place is seen: files are stat'ed on every scan, only folders are not listed", async () => {
    const root = repos.edited!;
    const dirMtime = mtimeOf(path.join(root, "pkg"));
    fs.appendFileSync(path.join(root, "pkg/mod.py"), "# more\n");
    expect(mtimeOf(path.join(root, "pkg"))).toBe(dirMtime);
    const reused = await scan(root, caches.edited);
    expect(reused.cache).toBe(caches.edited);
    expect(reused.files.find((f) => f.path === "pkg/mod.py")!.size).toBe(
      fs.statSync(path.join(root, "pkg/mod.py")).size,
    );
    expect(found(reused)).toEqual(found(await scan(root)));
  });

  it("a new file is seen", async () => {
    const root = repos.added!;
    write(root, "pkg/sub/new.py", "y = 2\n");
    const r = await scan(root, caches.added);
    expect(r.files.map((f) => f.path)).toContain("pkg/sub/new.py");
    expect(r.cache).not.toBe(caches.added);
    expect(found(r)).toEqual(found(await scan(root)));
  });

  it("a deleted file is gone", async () => {
    const root = repos.deleted!;
    fs.rmSync(path.join(root, "pkg/sub/deep.py"));
    const r = await scan(root, caches.deleted);
    expect(r.files.map((f) => f.path)).not.toContain("pkg/sub/deep.py");
    expect(found(r)).toEqual(found(await scan(root)));
  });

  it("a .gitignore edited in place (its folder's mtime unchanged) changes what is taken", async () => {
    const root = repos.gitignore!;
    const dirMtime = mtimeOf(root);
    fs.writeFileSync(path.join(root, ".gitignore"), "*.log\nbuild/\nuntracked.py\n!pkg/app.log\n");
    expect(mtimeOf(root)).toBe(dirMtime);
    const r = await scan(root, caches.gitignore);
    const paths = r.files.map((f) => f.path);
    expect(paths).not.toContain("untracked.py");
    expect(paths).toContain("pkg/app.log");
    expect(found(r)).toEqual(found(await scan(root)));
  });

  it(".git/info/exclude edited is seen", async () => {
    const root = repos.exclude!;
    fs.mkdirSync(path.join(root, ".git/info"), { recursive: true });
    fs.writeFileSync(path.join(root, ".git/info/exclude"), "untracked.py\n");
    const r = await scan(root, caches.exclude);
    expect(r.files.map((f) => f.path)).not.toContain("untracked.py");
    expect(found(r)).toEqual(found(await scan(root)));
  });

  it("a file added to a folder whose mtime is then set back (same-second edit, or touch -d) is seen by its ctime", async () => {
    const root = repos.mtimeBack!;
    const dir = path.join(root, "pkg/sub");
    const before = mtimeOf(dir);
    write(root, "pkg/sub/sneaky.py", "z = 3\n");
    setMtime(dir, before);
    expect(mtimeOf(dir)).toBe(before);
    const r = await scan(root, caches.mtimeBack);
    expect(r.files.map((f) => f.path)).toContain("pkg/sub/sneaky.py");
    expect(found(r)).toEqual(found(await scan(root)));
  });

  it("a file of an ignored folder added to git's index (git add -f) joins the inventory", async () => {
    const root = repos.gitAdd!;
    git(root, "add", "-f", "build/out.py");
    const r = await scan(root, caches.gitAdd);
    expect(r.files.map((f) => f.path)).toContain("build/out.py");
    expect(found(r)).toEqual(found(await scan(root)));
  });

  it("a walk made while a folder was still changing leaves no cache: a later change in the same tick would not move its stamp", async () => {
    const root = makeRepo(); // every folder just written
    expect((await scan(root)).cache).toBeUndefined();
  });
});

describe("NodeFileSystem.lstatMany", () => {
  it("stats inside the root only, under folders reached without links", async () => {
    const root = tempDir();
    const outside = tempDir();
    write(outside, "secret.py");
    write(root, "a/b.py", "b\n");
    fs.symlinkSync(outside, path.join(root, "out"));
    const nfs = await createNodeFileSystem(root);
    const [r, a, b, link, through, up, missing] = await nfs.lstatMany([
      "",
      "a",
      "a/b.py",
      "out",
      "out/secret.py",
      "../x",
      "a/none.py",
    ]);
    expect(r?.kind).toBe("directory");
    expect(a?.kind).toBe("directory");
    expect(b).toMatchObject({ kind: "file", size: 2 });
    expect(b?.ctimeMs).toBeTypeOf("number");
    expect(b?.ino).toBeTypeOf("number");
    expect(link?.kind).toBe("symlink");
    expect(through).toBeUndefined();
    expect(up).toBeUndefined();
    expect(missing).toBeUndefined();
  });
});

describe("the engine keeps the scan cache", () => {
  it("an unchanged index and a one-file edit reuse it, and the graph equals a fresh index's", async () => {
    const root = makeRepo();
    const cacheDir = tempDir("codeslice-scancache-store-");
    await pastRacyWindow();
    const index = async (dir: string) => createEngine(await createNodePlatform({ root, cacheDir: dir })).index();
    expect((await index(cacheDir)).parsed).toBeGreaterThan(0);
    const stored = path.join(cacheDir, fs.readdirSync(cacheDir).find((d) => /^v\d+$/.test(d))!, "scan.json");
    const written = fs.statSync(stored).mtimeMs;
    expect((await index(cacheDir)).parsed).toBe(0);
    fs.appendFileSync(path.join(root, "pkg/mod.py"), "def g():\n    return f()\n");
    expect((await index(cacheDir)).parsed).toBe(1);
    expect(fs.statSync(stored).mtimeMs).toBe(written); // reused, not written again
    const graph = async (dir: string) =>
      JSON.stringify(await createEngine(await createNodePlatform({ root, cacheDir: dir })).graph());
    expect(await graph(cacheDir)).toBe(await graph(tempDir("codeslice-scancache-fresh-")));
  }, 30_000);
});
