/**
 * Issue 22's failures of the git reader and the diff reader behind `changes`, as deterministic
 * reproductions (each marked "Was a bug"): a compression bomb inflated whole, a delta that lies
 * about its size, tree entries named `..`, submodule files reported as added, `--base origin`,
 * and a huge real diff that overflowed the stack.
 */
import { execFileSync, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEngine, type ChangesAnswer, type ChangesOptions, type EngineError } from "../../src/index.ts";
import { createNodePlatform } from "../../src/platform/node/index.ts";
import { commit, deltaVarint, initRepo, treeBytes, writeLoose, writePack, writeZeroBomb } from "./git-craft.ts";
import { removeTemps, tempDir } from "./fixture.ts";
import { ensureBuilt, repoRoot } from "./run.ts";

beforeAll(ensureBuilt);
afterAll(removeTemps);

const gitEnv = {
  ...process.env,
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@example.com",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@example.com",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  HOME: os.tmpdir(),
};
function git(root: string, ...args: string[]): string {
  return execFileSync("git", ["-C", root, ...args], { encoding: "utf8", env: gitEnv, stdio: ["pipe", "pipe", "pipe"] });
}
function write(root: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
}
function gitRepo(files: Record<string, string>): string {
  const root = tempDir();
  git(root, "init", "-q", "-b", "main");
  write(root, files);
  git(root, "add", "-A");
  git(root, "commit", "-q", "-m", "first");
  return root;
}

async function changes(root: string, options: ChangesOptions = {}): Promise<ChangesAnswer> {
  const engine = createEngine(await createNodePlatform({ root, cacheDir: path.join(tempDir(), "cache") }));
  try {
    return await engine.changes(options);
  } finally {
    engine.close();
  }
}
async function failure(root: string, options: ChangesOptions = {}): Promise<EngineError> {
  try {
    await changes(root, options);
  } catch (error) {
    return error as EngineError;
  }
  throw new Error("expected an error");
}

/** Runs `changes` in a child process (the built engine) and reports its answer and peak RSS. */
function childChanges(
  root: string,
  options: ChangesOptions,
): Promise<{ ok: boolean; answer?: ChangesAnswer; code?: string; message?: string; maxRssMiB: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        path.join(repoRoot, "test/fault/engine-child.mjs"),
        root,
        path.join(tempDir(), "cache"),
        "changes",
        JSON.stringify([options]),
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("error", reject);
    child.on("close", () => {
      try {
        resolve(JSON.parse(out));
      } catch {
        reject(new Error(`child failed: ${out}\n${err}`));
      }
    });
  });
}

const SOURCE = "def main():\n    return 1\n";

describe("issue 22: the git reader trusts nothing in .git", () => {
  // Was a bug (item 3): the object was inflated whole before its size was checked: 1.67 GB RSS for a 512 MiB zero blob to say "larger than 1024 KiB".
  it("a compression bomb is refused by its declared size, not inflated", async () => {
    const root = tempDir();
    const gitdir = initRepo(root);
    const bomb = await writeZeroBomb(gitdir, 256 * 1024 * 1024);
    const small = writeLoose(gitdir, "blob", SOURCE);
    commit(
      gitdir,
      writeLoose(
        gitdir,
        "tree",
        treeBytes([
          { mode: "100644", name: "big.py", oid: bomb },
          { mode: "100644", name: "main.py", oid: small },
        ]),
      ),
    );
    write(root, { "big.py": SOURCE, "main.py": SOURCE });
    const r = await childChanges(root, { base: "HEAD" });
    expect(r.ok, r.message).toBe(true);
    expect(r.answer!.files.find((f) => f.path === "big.py")).toMatchObject({
      status: "skipped",
      reason: "larger than 1024 KiB",
    });
    console.log(`256 MiB zero-blob bomb: changes peaked at ${r.maxRssMiB} MiB RSS`);
    expect(r.maxRssMiB).toBeLessThan(200);
  }, 60_000);

  // Was a bug (item 16): a delta whose header declares 2^40 bytes answered "internal error: Invalid typed array length".
  it("a delta that declares a huge result is a damaged object (io_error), not an internal error", async () => {
    const root = tempDir();
    const gitdir = initRepo(root);
    const base = writeLoose(gitdir, "blob", SOURCE);
    const delta = Uint8Array.from([...deltaVarint(SOURCE.length), ...deltaVarint(2 ** 40), 0x90, 0x10]);
    const [lying] = writePack(gitdir, [{ refDelta: base, delta, oid: "f".repeat(40) }]);
    const one = commit(gitdir, writeLoose(gitdir, "tree", treeBytes([{ mode: "100644", name: "main.py", oid: base }])));
    commit(gitdir, writeLoose(gitdir, "tree", treeBytes([{ mode: "100644", name: "main.py", oid: lying! }])), [one]);
    write(root, { "main.py": SOURCE });
    const e = await failure(root, { head: "HEAD" });
    expect(e.code, e.message).toBe("io_error");
    expect(e.data).toMatchObject({ reason: "damaged_object" });
  });

  // Was a bug (item 12): tree entries named "..", "../x" or "/x" were cited as paths (`A ../outside.ts`); git fsck rejects them.
  it.each([
    ["..", "tree"],
    ["../x.py", "blob"],
    ["/x.py", "blob"],
    [".git", "tree"],
    ["a/b.py", "blob"],
    ["", "blob"],
  ])("a tree entry named %j is refused as git fsck refuses it", async (name, kind) => {
    const root = tempDir();
    const gitdir = initRepo(root);
    const blob = writeLoose(gitdir, "blob", SOURCE);
    const inner = writeLoose(gitdir, "tree", treeBytes([{ mode: "100644", name: "outside.py", oid: blob }]));
    const one = commit(gitdir, writeLoose(gitdir, "tree", treeBytes([{ mode: "100644", name: "main.py", oid: blob }])));
    const bad = { mode: kind === "tree" ? "40000" : "100644", name, oid: kind === "tree" ? inner : blob };
    commit(gitdir, writeLoose(gitdir, "tree", treeBytes([bad, { mode: "100644", name: "main.py", oid: blob }])), [one]);
    write(root, { "main.py": SOURCE });
    let answer: ChangesAnswer | undefined;
    let error: EngineError | undefined;
    try {
      answer = await changes(root, { head: "HEAD" });
    } catch (e) {
      error = e as EngineError;
    }
    expect(answer?.files.map((f) => f.path)).toBeUndefined();
    expect(error?.code, error?.message).toBe("io_error");
    expect(error?.data).toMatchObject({ reason: "bad_tree_entry" });
  });

  // Was a bug (found by the fuzz suite): a tree stored under its own id as a subtree, and trees that hold the next one twice (2^24 files from 24 small objects, as real git can store them), walked for ever.
  it.each(["a tree that holds itself", "a tree bomb of 2^24 files"])(
    "%s is refused, not walked for ever",
    async (shape) => {
      const root = tempDir();
      const gitdir = initRepo(root);
      const blob = writeLoose(gitdir, "blob", SOURCE);
      const one = commit(
        gitdir,
        writeLoose(gitdir, "tree", treeBytes([{ mode: "100644", name: "main.py", oid: blob }])),
      );
      let top: string;
      if (shape.startsWith("a tree that")) {
        const self = "5e".repeat(20);
        writeLoose(
          gitdir,
          "tree",
          treeBytes([
            { mode: "100644", name: "main.py", oid: blob },
            { mode: "40000", name: "sub", oid: self },
          ]),
          self,
        );
        top = self;
      } else {
        top = writeLoose(gitdir, "tree", treeBytes([{ mode: "100644", name: "f.py", oid: blob }]));
        for (let k = 0; k < 24; k++)
          top = writeLoose(
            gitdir,
            "tree",
            treeBytes([
              { mode: "40000", name: "a", oid: top },
              { mode: "40000", name: "b", oid: top },
            ]),
          );
        top = writeLoose(
          gitdir,
          "tree",
          treeBytes([
            { mode: "100644", name: "main.py", oid: blob },
            { mode: "40000", name: "x", oid: top },
          ]),
        );
      }
      commit(gitdir, top, [one]);
      write(root, { "main.py": SOURCE });
      const e = await failure(root, { head: "HEAD" });
      expect(e.code, e.message).toBe("io_error");
      expect(e.data).toMatchObject({ reason: "bad_tree_entry" });
    },
    20_000,
  );

  // Was a bug (item 9): the files of a submodule's checkout were reported as added on a clean `git status`.
  it("a submodule's files are not reported as added on a clean tree", async () => {
    const sub = gitRepo({ "lib.py": SOURCE });
    const root = gitRepo({ "main.py": SOURCE });
    git(root, "-c", "protocol.file.allow=always", "submodule", "add", "-q", sub, "vendor/lib");
    git(root, "commit", "-q", "-m", "submodule");
    expect(git(root, "status", "--porcelain")).toBe("");
    const a = await changes(root);
    expect(a.files.map((f) => `${f.status} ${f.path}`)).toEqual([]);
  });

  // Was a bug (item 11): `--base origin` failed ("Not a regular file: .git/refs/remotes/origin") where `git rev-parse origin` works.
  it("--base origin resolves as git rev-parse does (refs/remotes/origin/HEAD)", async () => {
    const upstream = gitRepo({ "main.py": SOURCE });
    const root = tempDir();
    execFileSync("git", ["clone", "-q", upstream, root], { env: gitEnv });
    write(root, { "main.py": `${SOURCE}\n\ndef extra():\n    return 2\n` });
    expect(git(root, "rev-parse", "origin").trim()).toBe(git(root, "rev-parse", "HEAD").trim());
    const a = await changes(root, { base: "origin" });
    expect(a.base.oid).toBe(git(root, "rev-parse", "HEAD").trim());
    expect(a.symbols.map((s) => `${s.change} ${s.qualified}`)).toEqual(["added main.extra"]);
  });
});

describe("issue 22: diffs of any size", () => {
  // Was a bug (item 5): the real diff of a one-line edit to a 140,000-line file crashed `changes --diff` (a spread of a huge array into push).
  it("changes --diff reads a one-line edit to a 500,000-line file", async () => {
    const lines = Array.from({ length: 500_000 }, (_, i) => `${i % 10}`);
    const root = gitRepo({ "big.py": `${lines.join("\n")}\n`, "main.py": SOURCE });
    lines[250_000] = "-1";
    write(root, { "big.py": `${lines.join("\n")}\n` });
    const diff = git(root, "diff", "HEAD");
    const a = await changes(root, { diff });
    expect(a.files.map((f) => `${f.status} ${f.path}`)).toEqual(["modified big.py"]);
  }, 60_000);
});
