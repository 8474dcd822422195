/** Runs the Store and WasmSource contracts against every implementation, plus NodeStore's disk habits. */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { MemoryStore } from "../../src/platform/memory/index.ts";
import { NodeStore, NodeWasmSource } from "../../src/platform/node/index.ts";
import { cacheFolderContract } from "./cache-folder.contract.ts";
import { storeContract } from "./store.contract.ts";
import { wasmSourceContract } from "./wasm-source.contract.ts";

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) fs.rmSync(t, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-store-"));
  temps.push(dir);
  return dir;
}

/** Every file under `dir`, relative, "/"-separated. */
function listAll(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((d) => d.isFile())
    .map((d) => path.relative(dir, path.join(d.parentPath, d.name)).split(path.sep).join("/"))
    .sort();
}

storeContract("MemoryStore", async () => new MemoryStore());
storeContract("NodeStore", async () => new NodeStore(path.join(tempDir(), ".codeslice")));
cacheFolderContract("NodeStore", (dir, root) => new NodeStore(dir, root === undefined ? {} : { root }));

describe("NodeStore on disk", () => {
  it("creates its folder lazily, with a cache tag and a .gitignore of * that keys() does not list", async () => {
    const dir = path.join(tempDir(), "nested", "cache");
    const store = new NodeStore(dir);
    expect(fs.existsSync(dir)).toBe(false);
    await store.get("x");
    await store.keys();
    expect(fs.existsSync(dir)).toBe(false);
    await store.set("v1/a.json", new Uint8Array([1]));
    const ignore = fs.readFileSync(path.join(dir, ".gitignore"), "utf8");
    expect(ignore.split("\n").map((l) => l.trim())).toContain("*");
    expect(fs.readFileSync(path.join(dir, "CACHEDIR.TAG"), "utf8")).toMatch(
      /^Signature: 8a477f597d28d172789f06886806bc55\n/,
    );
    expect(await store.keys()).toEqual(["v1/a.json"]);
    expect(store.label).toBe(dir);
  });

  it("puts the .gitignore back when the cache folder was deleted under a live store", async () => {
    const dir = path.join(tempDir(), "cache");
    const store = new NodeStore(dir);
    await store.set("v1/a.json", new Uint8Array([1]));
    fs.rmSync(dir, { recursive: true });
    await store.set("v1/b.json", new Uint8Array([2]));
    expect(
      fs
        .readFileSync(path.join(dir, ".gitignore"), "utf8")
        .split("\n")
        .map((l) => l.trim()),
    ).toContain("*");
    expect(await store.keys()).toEqual(["v1/b.json"]);
  });

  it("never re-creates a deleted parent: a removed project keeps its cache from coming back", async () => {
    const project = path.join(tempDir(), "project");
    fs.mkdirSync(project);
    const store = new NodeStore(path.join(project, ".codeslice"));
    await store.set("v1/a.json", new Uint8Array([1]));
    fs.rmSync(project, { recursive: true });
    await expect(store.set("v1/b.json", new Uint8Array([2]))).rejects.toThrow();
    expect(fs.existsSync(project)).toBe(false);
  });

  it("refuses a folder holding anything it did not write, and leaves it untouched", async () => {
    const dir = path.join(tempDir(), "cache");
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, ".gitignore"), "custom\n");
    await expect(new NodeStore(dir).set("k", new Uint8Array([1]))).rejects.toMatchObject({
      code: "cache_refused",
      data: { reason: "not_empty" },
    });
    expect(listAll(dir)).toEqual([".gitignore"]);
    expect(fs.readFileSync(path.join(dir, ".gitignore"), "utf8")).toBe("custom\n");
  });

  it("atomic writes leave no temp files behind, even under concurrency", async () => {
    const dir = path.join(tempDir(), "cache");
    const store = new NodeStore(dir);
    const keys = Array.from({ length: 50 }, (_, i) => `v1/records/${String(i % 5).padStart(2, "0")}/r${i}.json`);
    await Promise.all(keys.map((k, i) => store.set(k, new TextEncoder().encode(`record ${i}`))));
    await Promise.all(keys.map((k) => store.set(k, new TextEncoder().encode(`again ${k}`))));
    const files = listAll(dir);
    expect(files.filter((f) => f.endsWith(".tmp") || /\/\.[^/]*$/.test(f))).toEqual([]);
    expect(files).toEqual([".gitignore", "CACHEDIR.TAG", ...keys].sort());
    expect(await store.keys()).toEqual([...keys].sort());
  });

  it("writes each key to the file of that name under its folder (values are plain files)", async () => {
    const dir = path.join(tempDir(), "cache");
    const store = new NodeStore(dir);
    await store.set("v4/snapshot.json", new TextEncoder().encode("{}"));
    expect(fs.readFileSync(path.join(dir, "v4", "snapshot.json"), "utf8")).toBe("{}");
  });

  it("a new instance over the same folder sees what an earlier one wrote", async () => {
    const dir = path.join(tempDir(), "cache");
    await new NodeStore(dir).set("a/b", new Uint8Array([7, 8, 9]));
    const again = new NodeStore(dir);
    expect(await again.get("a/b")).toEqual(new Uint8Array([7, 8, 9]));
    expect(await again.keys()).toEqual(["a/b"]);
  });

  it("bad keys write nothing to disk", async () => {
    const base = tempDir();
    const dir = path.join(base, "cache");
    const store = new NodeStore(dir);
    for (const key of ["../escape", "/abs/olute", "a/../../escape"]) {
      await expect(store.set(key, new Uint8Array([1]))).rejects.toMatchObject({ code: "invalid_argument" });
    }
    expect(listAll(base)).toEqual([]);
  });
});

const wasmDir = new URL("../../wasm/", import.meta.url);

wasmSourceContract(
  "NodeWasmSource",
  async () => new NodeWasmSource(),
  async (missing) => {
    const dir = tempDir();
    for (const f of fs.readdirSync(wasmDir)) if (f !== missing) fs.copyFileSync(new URL(f, wasmDir), path.join(dir, f));
    return new NodeWasmSource(pathToFileURL(`${dir}/`));
  },
);
