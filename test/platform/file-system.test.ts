/** Runs the FileSystem contract against every implementation, plus checks only a disk can make. */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MemoryFileSystem } from "../../src/platform/memory/index.ts";
import { createNodeFileSystem } from "../../src/platform/node/index.ts";
import { fileSystemContract, type FixtureEntry } from "./file-system.contract.ts";

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) fs.rmSync(t, { recursive: true, force: true });
});

/** Writes `files` under `<tmp>/root`, with `<tmp>/outside/secret.txt` next to it; returns the root. */
export function writeTree(files: Record<string, FixtureEntry>): string {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-fs-"));
  temps.push(base);
  const root = path.join(base, "root");
  fs.mkdirSync(root);
  fs.mkdirSync(path.join(base, "outside"));
  fs.writeFileSync(path.join(base, "outside", "secret.txt"), "secret");
  for (const [rel, entry] of Object.entries(files)) {
    const full = path.join(root, rel);
    fs.mkdirSync(path.dirname(full), { recursive: true });
    if (typeof entry === "object" && !(entry instanceof Uint8Array)) fs.symlinkSync(entry.symlink, full);
    else fs.writeFileSync(full, entry);
  }
  return root;
}

fileSystemContract("MemoryFileSystem", async (files) => new MemoryFileSystem(files));
fileSystemContract("NodeFileSystem", async (files) => createNodeFileSystem(writeTree(files)));

describe("NodeFileSystem only", () => {
  it("a named pipe is listed as other and reading it is refused at once (no hang)", async () => {
    const root = writeTree({ "ok.txt": "ok" });
    execFileSync("mkfifo", [path.join(root, "pipe.py")]);
    fs.symlinkSync("pipe.py", path.join(root, "pipe-link.py"));
    const nfs = await createNodeFileSystem(root);
    expect((await nfs.readDir("")).find((e) => e.name === "pipe.py")?.kind).toBe("other");
    expect((await nfs.stat("pipe.py")).kind).toBe("other");
    for (const p of ["pipe.py", "pipe-link.py"]) {
      const error = await nfs.readFile(p).then(
        () => undefined,
        (e: { code: string; data: Record<string, unknown> }) => e,
      );
      expect(error?.code).toBe("io_error");
      expect(error?.data.path).toBe(p);
    }
  }, 5_000);

  it("the root itself may be reached through a symbolic link", async () => {
    const root = writeTree({ "a.txt": "a" });
    const alias = path.join(path.dirname(root), "alias");
    fs.symlinkSync(root, alias);
    const nfs = await createNodeFileSystem(alias);
    expect(new TextDecoder().decode(await nfs.readFile("a.txt"))).toBe("a");
    expect(nfs.rootLabel).toBe(fs.realpathSync(root));
  });

  it("a missing root is root_not_found and a file root is root_not_directory, naming the path", async () => {
    const root = writeTree({ "a.txt": "a" });
    const missing = path.join(root, "nope");
    const file = path.join(root, "a.txt");
    await expect(createNodeFileSystem(missing)).rejects.toMatchObject({
      code: "root_not_found",
      data: { root: missing },
    });
    await expect(createNodeFileSystem(file)).rejects.toMatchObject({
      code: "root_not_directory",
      data: { root: file },
    });
  });
});

describe("NodeFileSystem rooted at /", () => {
  it("reads inside the root (the confinement check does not reject every path)", async () => {
    const root = fs.realpathSync(writeTree({ "dir/a.txt": "a" }));
    const rel = path
      .relative("/", path.join(root, "dir", "a.txt"))
      .split(path.sep)
      .join("/");
    const nfs = await createNodeFileSystem("/");
    // A fresh instance knows no link-free folder yet, so this read goes through realpath.
    expect(new TextDecoder().decode(await nfs.readFile(rel))).toBe("a");
    await expect(nfs.readFile(`../${rel}`)).rejects.toMatchObject({ code: "outside_root" });
  });
});
