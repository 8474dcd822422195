/**
 * The cache-folder contract for disk stores (Node, Deno): the folder is codeslice's own or it is
 * refused with the user's files untouched; inside its own folder the store heals what is in its
 * way; a deleted project never comes back. Setup uses node:fs, which Deno also provides.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Store } from "../../src/core/ports.ts";

/** A store over `dir` with the project `root` (the folder is checked on first use). */
export type MakeDiskStore = (dir: string, root?: string) => Store;

const bytes = (s: string) => new TextEncoder().encode(s);

/** Every entry under `dir` with its content ("<dir>" for folders), for before/after comparisons. */
export function treeOf(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const key = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        out[key] = "<dir>";
        walk(key);
      } else out[key] = fs.readFileSync(path.join(dir, key), "utf8");
    }
  };
  if (fs.existsSync(dir)) walk("");
  return out;
}

/** Registers the contract for one disk store. */
export function cacheFolderContract(name: string, make: MakeDiskStore): void {
  describe(`cache folder contract: ${name}`, () => {
    const temps: string[] = [];
    afterAll(() => {
      for (const t of temps) fs.rmSync(t, { recursive: true, force: true });
    });
    /** `<tmp>/work/project` with sources, a sibling project, and an unrelated folder of files. */
    const world = () => {
      const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-cache-")));
      temps.push(base);
      const files: Record<string, string> = {
        "work/project/app.py": "def main():\n    return 1\n",
        "work/project/src/lib.ts": "export const x = 1;\n",
        "work/project/docs/notes.txt": "notes\n",
        "work/sibling/keep.py": "KEEP = True\n",
        "elsewhere/photo.txt": "precious\n",
      };
      for (const [rel, text] of Object.entries(files)) {
        fs.mkdirSync(path.dirname(path.join(base, rel)), { recursive: true });
        fs.writeFileSync(path.join(base, rel), text);
      }
      return { base, root: path.join(base, "work/project") };
    };
    const attempt = async (store: Store) => {
      await store.set("v1/snapshot.json", bytes("{}"));
      await store.keys("");
    };

    it.each([
      ["the project root", (w: { base: string; root: string }) => w.root, "contains_root"],
      [
        "the root's parent (a sibling project inside)",
        (w: { base: string; root: string }) => path.dirname(w.root),
        "contains_root",
      ],
      ["a source folder of the project", (w: { base: string; root: string }) => path.join(w.root, "src"), "not_empty"],
      [
        "a new folder inside a source folder",
        (w: { base: string; root: string }) => path.join(w.root, "src", "cache"),
        "inside_sources",
      ],
      [
        "a non-empty folder outside the project",
        (w: { base: string; root: string }) => path.join(w.base, "elsewhere"),
        "not_empty",
      ],
      ["a file", (w: { base: string; root: string }) => path.join(w.base, "elsewhere", "photo.txt"), "not_a_folder"],
    ])("refuses %s and changes nothing on disk", async (_what, pick, reason) => {
      const w = world();
      const before = treeOf(w.base);
      const store = make(pick(w), w.root);
      await expect(attempt(store)).rejects.toMatchObject({ code: "cache_refused", data: { reason } });
      await expect(store.get("v1/snapshot.json")).rejects.toMatchObject({ code: "cache_refused" });
      await expect(store.delete("v1/snapshot.json")).rejects.toMatchObject({ code: "cache_refused" });
      expect(treeOf(w.base)).toEqual(before);
    });

    it("takes a new folder (parents included) or an empty one, and tags it", async () => {
      const w = world();
      for (const dir of [
        path.join(w.base, "new", "deep", "cache"),
        path.join(w.root, ".codeslice"),
        path.join(w.root, "docs-cache"),
      ]) {
        const store = make(dir, w.root);
        await attempt(store);
        expect(fs.readFileSync(path.join(dir, "CACHEDIR.TAG"), "utf8")).toMatch(/created by codeslice/);
        expect(await store.keys()).toEqual(["v1/snapshot.json"]);
      }
      const empty = path.join(w.base, "empty");
      fs.mkdirSync(empty);
      await attempt(make(empty, w.root));
      expect(fs.existsSync(path.join(empty, "CACHEDIR.TAG"))).toBe(true);
    });

    it("takes over a cache folder written before the tag existed", async () => {
      const w = world();
      const dir = path.join(w.root, ".codeslice");
      fs.mkdirSync(path.join(dir, "v15", "records"), { recursive: true });
      fs.writeFileSync(path.join(dir, ".gitignore"), "# codeslice cache: safe to delete\n*\n");
      fs.writeFileSync(path.join(dir, "v15", "snapshot.json"), "{}");
      const store = make(dir, w.root);
      expect(await store.keys()).toEqual(["v15/snapshot.json"]);
      await store.delete("v15/snapshot.json");
      await attempt(store);
      expect(fs.existsSync(path.join(dir, "CACHEDIR.TAG"))).toBe(true);
    });

    it("heals its own folder: a file where a folder should be, a folder where a value should be", async () => {
      const w = world();
      const dir = path.join(w.base, "cache");
      const store = make(dir, w.root);
      await store.set("v1/records/ab/r.json", bytes("one"));
      await store.flush?.(); // records are packed: landed once flushed
      fs.rmSync(path.join(dir, "v1"), { recursive: true });
      fs.writeFileSync(path.join(dir, "v1"), "garbage");
      expect(await store.get("v1/records/ab/r.json")).toBeUndefined();
      await store.set("v1/records/ab/r.json", bytes("two"));
      await store.flush?.();
      expect(new TextDecoder().decode(await store.get("v1/records/ab/r.json"))).toBe("two");
      // A folder where a pack should be: its values are gone, and the next write lands.
      const records = path.join(dir, "v1", "records");
      for (const name of fs.readdirSync(records)) {
        fs.rmSync(path.join(records, name));
        fs.mkdirSync(path.join(records, name, "inner"), { recursive: true });
      }
      expect(await make(dir, w.root).get("v1/records/ab/r.json")).toBeUndefined();
      // A folder where a plain value should be.
      await store.set("v1/plain/r.json", bytes("one"));
      fs.rmSync(path.join(dir, "v1", "plain", "r.json"));
      fs.mkdirSync(path.join(dir, "v1", "plain", "r.json", "inner"), { recursive: true });
      expect(await store.get("v1/plain/r.json")).toBeUndefined();
      await store.set("v1/plain/r.json", bytes("three"));
      expect(new TextDecoder().decode(await store.get("v1/plain/r.json"))).toBe("three");
      const fresh = make(dir, w.root);
      await fresh.set("v1/records/ab/r.json", bytes("four"));
      await fresh.flush?.();
      expect(new TextDecoder().decode(await make(dir, w.root).get("v1/records/ab/r.json"))).toBe("four");
      expect(await fresh.keys()).toEqual(["v1/plain/r.json", "v1/records/ab/r.json"]);
    });

    it("re-creates a deleted cache folder, tag included, but never a deleted project", async () => {
      const w = world();
      const dir = path.join(w.root, ".codeslice");
      const store = make(dir, w.root);
      await attempt(store);
      fs.rmSync(dir, { recursive: true });
      await store.set("v1/a", bytes("a"));
      expect(fs.existsSync(path.join(dir, "CACHEDIR.TAG"))).toBe(true);
      fs.rmSync(w.root, { recursive: true });
      await expect(store.set("v1/b", bytes("b"))).rejects.toMatchObject({ code: "cache_unavailable" });
      expect(fs.existsSync(w.root)).toBe(false);
    });

    it("the tag is not a key, and cannot be written as one", async () => {
      const w = world();
      const store = make(path.join(w.base, "cache"), w.root);
      await attempt(store);
      expect(await store.keys()).toEqual(["v1/snapshot.json"]);
      await expect(store.set("CACHEDIR.TAG", bytes("x"))).rejects.toMatchObject({ code: "invalid_argument" });
    });
  });
}
