/**
 * The FileSystem contract (STYLE habit 3): one suite, run against every implementation. A factory
 * builds the same fixture tree for each backend; the suite asserts on error codes and data only.
 *
 * Fixture conventions every factory must honour:
 * - entries are workspace-relative paths; folders are implied;
 * - `{ symlink: target }` is a symbolic link whose target is relative to the link's folder (or absolute);
 * - `../outside/secret.txt` (seen from the root) must exist when the backend has a world outside the
 *   root, so a link to it is refused for escaping, not for dangling.
 * A backend that has no symbolic links at all (File System Access handles) registers with
 * `{ symlinks: false }`: its tree is built without the links and the link checks are skipped.
 */
import { describe, expect, it } from "vitest";
import type { DirEntry, FileSystem } from "../../src/core/ports.ts";

/** One fixture entry: text, bytes or a symbolic link. */
export type FixtureEntry = string | Uint8Array | { symlink: string };

/** Builds a FileSystem over `files` (a fresh tree per call). */
export type MakeFileSystem = (files: Record<string, FixtureEntry>) => Promise<FileSystem>;

/** What a backend can represent. */
export interface FileSystemCapabilities {
  /** Symbolic links exist (default true). */
  symlinks?: boolean;
}

const isLink = (e: FixtureEntry) => typeof e === "object" && !(e instanceof Uint8Array);

const text = (s: string) => new TextEncoder().encode(s);
const ALL_BYTES = Uint8Array.from({ length: 256 }, (_, i) => i);

/** The tree every implementation is checked against. */
export const CONTRACT_TREE: Record<string, FixtureEntry> = {
  "a.txt": "alpha\n",
  "bytes.bin": ALL_BYTES,
  "empty.txt": "",
  "dir/b.txt": "beta",
  "dir/sub/c.txt": "gamma",
  "dir/link-up": { symlink: "../a.txt" },
  "dir/link-out-deep": { symlink: "../../outside/secret.txt" },
  "dir/link-abs": { symlink: "/etc/passwd" },
  "link-file": { symlink: "a.txt" },
  "link-chain": { symlink: "link-file" },
  "link-dir": { symlink: "dir" },
  "link-out": { symlink: "../outside/secret.txt" },
  "link-out-dir": { symlink: "../outside" },
  "loop-a": { symlink: "loop-b" },
  "loop-b": { symlink: "loop-a" },
  self: { symlink: "self" },
  dangling: { symlink: "nowhere.txt" },
};

/** Awaits `p`, expecting an EngineError with `code`; returns it for further checks. */
async function rejection(p: Promise<unknown>): Promise<{ code: string; data: Record<string, unknown> }> {
  try {
    await p;
  } catch (error) {
    const e = error as { name?: string; code?: string; data?: Record<string, unknown> };
    expect(e.name, `expected an EngineError, got ${String(error)}`).toBe("EngineError");
    return { code: e.code!, data: e.data ?? {} };
  }
  throw new Error("expected a rejection, got a value");
}

async function expectCode(p: Promise<unknown>, code: string, path?: string): Promise<void> {
  const e = await rejection(p);
  expect(e.code).toBe(code);
  if (path !== undefined) expect(e.data.path).toBe(path);
}

const byName = (entries: DirEntry[]) =>
  Object.fromEntries([...entries].sort((a, b) => a.name.localeCompare(b.name)).map((e) => [e.name, e.kind]));

/** Registers the FileSystem contract for one implementation. */
export function fileSystemContract(
  name: string,
  makeTree: MakeFileSystem,
  capabilities: FileSystemCapabilities = {},
): void {
  const links = capabilities.symlinks !== false;
  const make: MakeFileSystem = links
    ? makeTree
    : (files) => makeTree(Object.fromEntries(Object.entries(files).filter(([, e]) => !isLink(e))));
  /** `listing` without the links when the backend has none. */
  const listed = (listing: Record<string, string>) =>
    links ? listing : Object.fromEntries(Object.entries(listing).filter(([, k]) => k !== "symlink"));
  const itLinks = links ? it : it.skip;
  describe(`FileSystem contract: ${name}`, () => {
    describe("reading files and folders", () => {
      it("readFile returns the exact bytes", async () => {
        const fs = await make(CONTRACT_TREE);
        expect(await fs.readFile("a.txt")).toEqual(text("alpha\n"));
        expect(await fs.readFile("bytes.bin")).toEqual(ALL_BYTES);
        expect(await fs.readFile("empty.txt")).toEqual(new Uint8Array(0));
        expect(await fs.readFile("dir/sub/c.txt")).toEqual(text("gamma"));
      });

      it("paths are normalized before use: ./, inner .., doubled slashes", async () => {
        const fs = await make(CONTRACT_TREE);
        expect(await fs.readFile("./a.txt")).toEqual(text("alpha\n"));
        expect(await fs.readFile("dir/../a.txt")).toEqual(text("alpha\n"));
        expect(await fs.readFile("dir//sub/./c.txt")).toEqual(text("gamma"));
        expect(byName(await fs.readDir("."))).toEqual(byName(await fs.readDir("")));
      });

      it("stat reports kind, size and a numeric mtime", async () => {
        const fs = await make(CONTRACT_TREE);
        const a = await fs.stat("a.txt");
        expect(a.kind).toBe("file");
        expect(a.size).toBe(6);
        expect(Number.isFinite(a.mtimeMs) && a.mtimeMs >= 0).toBe(true);
        expect((await fs.stat("bytes.bin")).size).toBe(256);
        expect((await fs.stat("empty.txt")).size).toBe(0);
        expect((await fs.stat("dir")).kind).toBe("directory");
        expect((await fs.stat("dir/sub")).kind).toBe("directory");
        expect((await fs.stat("")).kind).toBe("directory");
      });

      it("readDir lists names with kinds; links are reported as symlink, never followed", async () => {
        const fs = await make(CONTRACT_TREE);
        expect(byName(await fs.readDir(""))).toEqual(
          listed({
            "a.txt": "file",
            "bytes.bin": "file",
            dangling: "symlink",
            dir: "directory",
            "empty.txt": "file",
            "link-chain": "symlink",
            "link-dir": "symlink",
            "link-file": "symlink",
            "link-out": "symlink",
            "link-out-dir": "symlink",
            "loop-a": "symlink",
            "loop-b": "symlink",
            self: "symlink",
          }),
        );
        expect(byName(await fs.readDir("dir"))).toEqual(
          listed({
            "b.txt": "file",
            "link-abs": "symlink",
            "link-out-deep": "symlink",
            "link-up": "symlink",
            sub: "directory",
          }),
        );
        expect(byName(await fs.readDir("dir/sub"))).toEqual({ "c.txt": "file" });
      });

      it("an empty root lists nothing", async () => {
        const fs = await make({});
        expect(await fs.readDir("")).toEqual([]);
        expect((await fs.stat("")).kind).toBe("directory");
      });
    });

    describe("errors", () => {
      it("not_found for a missing file or folder, with the path in data", async () => {
        const fs = await make(CONTRACT_TREE);
        await expectCode(fs.readFile("missing.txt"), "not_found", "missing.txt");
        await expectCode(fs.stat("missing.txt"), "not_found", "missing.txt");
        await expectCode(fs.readDir("missing"), "not_found", "missing");
        await expectCode(fs.readFile("dir/missing.txt"), "not_found", "dir/missing.txt");
        await expectCode(fs.readFile("nope/deeper/x.txt"), "not_found", "nope/deeper/x.txt");
      });

      it("not_directory when a file is used as a folder", async () => {
        const fs = await make(CONTRACT_TREE);
        await expectCode(fs.readDir("a.txt"), "not_directory", "a.txt");
        await expectCode(fs.readDir("dir/b.txt"), "not_directory", "dir/b.txt");
        await expectCode(fs.readFile("a.txt/x"), "not_directory", "a.txt/x");
        await expectCode(fs.stat("dir/b.txt/x"), "not_directory", "dir/b.txt/x");
      });

      it("readFile on a folder is refused (io_error)", async () => {
        const fs = await make(CONTRACT_TREE);
        await expectCode(fs.readFile("dir"), "io_error", "dir");
      });
    });

    describe("confinement to the root", () => {
      const escapes = ["..", "../x", "../../etc/passwd", "dir/../../a.txt", "/etc/passwd", "/", "C:/Windows"];

      // On POSIX a backslash is part of a file's name (`back\\slash.py` is a real file), so `..\\x`
      // names a file in the root, absent here; on Windows it climbs and is refused. Never outside.
      it("`..\\x` never reads outside the root", async () => {
        const fs = await make(CONTRACT_TREE);
        for (const op of [() => fs.readFile("..\\x"), () => fs.stat("..\\x"), () => fs.readDir("..\\x")]) {
          const code = await op().then(
            () => "read",
            (e: { code?: string }) => e.code,
          );
          expect(["outside_root", "not_found"]).toContain(code);
        }
      });

      it.each(escapes)("refuses %j with outside_root (readFile, stat, readDir)", async (path) => {
        const fs = await make(CONTRACT_TREE);
        await expectCode(fs.readFile(path), "outside_root");
        await expectCode(fs.stat(path), "outside_root");
        await expectCode(fs.readDir(path), "outside_root");
      });

      itLinks("follows links that stay inside the root", async () => {
        const fs = await make(CONTRACT_TREE);
        expect(await fs.readFile("link-file")).toEqual(text("alpha\n"));
        expect(await fs.readFile("link-chain")).toEqual(text("alpha\n"));
        expect(await fs.readFile("dir/link-up")).toEqual(text("alpha\n"));
        expect(await fs.readFile("link-dir/b.txt")).toEqual(text("beta"));
        expect(await fs.readFile("link-dir/sub/c.txt")).toEqual(text("gamma"));
        expect((await fs.stat("link-file")).kind).toBe("file");
        expect((await fs.stat("link-file")).size).toBe(6);
        expect((await fs.stat("link-dir")).kind).toBe("directory");
        expect(Object.keys(byName(await fs.readDir("link-dir"))).sort()).toEqual([
          "b.txt",
          "link-abs",
          "link-out-deep",
          "link-up",
          "sub",
        ]);
      });

      // Run twice: on a fresh instance and after a full listing, since a backend may cache what it
      // learnt about folders while listing them.
      for (const warm of [false, true]) {
        itLinks(
          `refuses links that lead outside the root (outside_root)${warm ? " after a full listing" : ""}`,
          async () => {
            const fs = await make(CONTRACT_TREE);
            if (warm) {
              await fs.readDir("");
              await fs.readDir("dir");
              await fs.readDir("dir/sub");
              await fs.stat("dir");
              await fs.stat("link-dir");
            }
            for (const path of ["link-out", "dir/link-out-deep", "dir/link-abs", "link-dir/link-out-deep"]) {
              await expectCode(fs.readFile(path), "outside_root", path);
              await expectCode(fs.stat(path), "outside_root", path);
            }
            await expectCode(fs.readDir("link-out-dir"), "outside_root", "link-out-dir");
            await expectCode(fs.stat("link-out-dir"), "outside_root", "link-out-dir");
            await expectCode(fs.readFile("link-out-dir/secret.txt"), "outside_root", "link-out-dir/secret.txt");
          },
        );
      }

      itLinks("a link loop is symlink_loop, not a hang", async () => {
        const fs = await make(CONTRACT_TREE);
        for (const path of ["loop-a", "loop-b", "self"]) {
          await expectCode(fs.readFile(path), "symlink_loop", path);
          await expectCode(fs.stat(path), "symlink_loop", path);
        }
        await expectCode(fs.readDir("self"), "symlink_loop", "self");
        await expectCode(fs.readFile("loop-a/x"), "symlink_loop", "loop-a/x");
      });

      itLinks("a dangling link inside the root is not_found", async () => {
        const fs = await make(CONTRACT_TREE);
        await expectCode(fs.readFile("dangling"), "not_found", "dangling");
        await expectCode(fs.stat("dangling"), "not_found", "dangling");
      });
    });
  });
}
