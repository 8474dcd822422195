/**
 * The Deno platform against the shared contract suites (FileSystem, Store, WasmSource), plus what
 * only a real disk under Deno can show. Runs under `deno test` only (see run.test.ts); the contract
 * files import `vitest`, which test/deno/deno.json maps to the shim.
 */
import { afterAll, describe, expect, it } from "vitest";
import { createEngine } from "../../src/core/engine/engine.ts";
import { createDenoFileSystem, createDenoPlatform, DenoStore, DenoWasmSource } from "../../src/platform/deno/index.ts";
import { FallbackStore } from "../../src/platform/fallback-store.ts";
import { fileSystemContract, type FixtureEntry } from "../platform/file-system.contract.ts";
import { cacheFolderContract } from "../platform/cache-folder.contract.ts";
import { storeContract } from "../platform/store.contract.ts";
import { wasmSourceContract } from "../platform/wasm-source.contract.ts";

// deno-lint-ignore no-explicit-any
const Deno = (globalThis as any).Deno;

const temps: string[] = [];
afterAll(async () => {
  for (const t of temps) await Deno.remove(t, { recursive: true }).catch(() => {});
});

async function tempDir(prefix = "codeslice-deno-"): Promise<string> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix }));
  temps.push(dir);
  return dir;
}

const parentOf = (p: string) => p.slice(0, p.lastIndexOf("/"));

/** Writes `files` under `<tmp>/root`, with `<tmp>/outside/secret.txt` next to it; returns the root. */
async function writeTree(files: Record<string, FixtureEntry>): Promise<string> {
  const base = await tempDir("codeslice-deno-fs-");
  const root = `${base}/root`;
  await Deno.mkdir(root);
  await Deno.mkdir(`${base}/outside`);
  await Deno.writeTextFile(`${base}/outside/secret.txt`, "secret");
  for (const [rel, entry] of Object.entries(files)) {
    const full = `${root}/${rel}`;
    await Deno.mkdir(parentOf(full), { recursive: true });
    if (typeof entry === "object" && !(entry instanceof Uint8Array)) await Deno.symlink(entry.symlink, full);
    else await Deno.writeFile(full, typeof entry === "string" ? new TextEncoder().encode(entry) : entry);
  }
  return root;
}

/** Every file under `dir`, relative, sorted. */
async function listAll(dir: string, rel = ""): Promise<string[]> {
  const out: string[] = [];
  try {
    for await (const e of Deno.readDir(rel ? `${dir}/${rel}` : dir)) {
      const key = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory) out.push(...(await listAll(dir, key)));
      else out.push(key);
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return out.sort();
}

fileSystemContract("DenoFileSystem", async (files) => createDenoFileSystem(await writeTree(files)));
storeContract("DenoStore", async () => new DenoStore(`${await tempDir()}/.codeslice`));
cacheFolderContract("DenoStore", (dir, root) => new DenoStore(dir, Deno, root === undefined ? {} : { root }));

const wasmDir = new URL("../../wasm/", import.meta.url);
async function wasmCopyWithout(missing: string): Promise<string> {
  const dir = await tempDir();
  for await (const e of Deno.readDir(wasmDir))
    if (e.name !== missing) await Deno.copyFile(new URL(e.name, wasmDir), `${dir}/${e.name}`);
  return dir;
}

wasmSourceContract(
  "DenoWasmSource (file: URL)",
  async () => new DenoWasmSource(),
  async (missing) => new DenoWasmSource(new URL(`file://${await wasmCopyWithout(missing)}/`)),
);

/** Serves `dir` over http on 127.0.0.1 (a module loaded from a web server finds wasm/ this way). */
const servers: { shutdown(): Promise<void> }[] = [];
afterAll(async () => {
  for (const s of servers) await s.shutdown();
});
async function serve(dir: string): Promise<URL> {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request: Request) => {
    const name = decodeURIComponent(new URL(request.url).pathname.slice(1));
    if (name.includes("/") || name.startsWith(".")) return new Response("no", { status: 403 });
    try {
      return new Response(await Deno.readFile(`${dir}/${name}`));
    } catch {
      return new Response("not found", { status: 404 });
    }
  });
  servers.push(server);
  return new URL(`http://127.0.0.1:${server.addr.port}/`);
}

wasmSourceContract(
  "DenoWasmSource (http: URL)",
  async () => new DenoWasmSource(await serve(new URL(wasmDir).pathname)),
  async (missing) => new DenoWasmSource(await serve(await wasmCopyWithout(missing))),
);

describe("DenoFileSystem only", () => {
  it("a named pipe is listed as other and reading it is refused at once (no hang)", async () => {
    const root = await writeTree({ "ok.txt": "ok" });
    const mkfifo = await new Deno.Command("mkfifo", { args: [`${root}/pipe.py`] }).output();
    expect(mkfifo.success).toBe(true);
    await Deno.symlink("pipe.py", `${root}/pipe-link.py`);
    const fs = await createDenoFileSystem(root);
    expect((await fs.readDir("")).find((e) => e.name === "pipe.py")?.kind).toBe("other");
    expect((await fs.stat("pipe.py")).kind).toBe("other");
    for (const p of ["pipe.py", "pipe-link.py"])
      await expect(fs.readFile(p)).rejects.toMatchObject({ code: "io_error", data: { path: p } });
  }, 5_000);

  it("the root itself may be reached through a symbolic link", async () => {
    const root = await writeTree({ "a.txt": "a" });
    const alias = `${parentOf(root)}/alias`;
    await Deno.symlink(root, alias);
    const fs = await createDenoFileSystem(alias);
    expect(new TextDecoder().decode(await fs.readFile("a.txt"))).toBe("a");
    expect(fs.rootLabel).toBe(root);
  });

  it("a relative root is resolved against the current folder", async () => {
    const root = await writeTree({ "a.txt": "a" });
    const up = Deno.cwd()
      .split("/")
      .filter(Boolean)
      .map(() => "..")
      .join("/");
    const fs = await createDenoFileSystem(up + root);
    expect(fs.rootLabel).toBe(root);
  });

  it("a missing root is root_not_found and a file root is root_not_directory, naming the path", async () => {
    const root = await writeTree({ "a.txt": "a" });
    await expect(createDenoFileSystem(`${root}/nope`)).rejects.toMatchObject({
      code: "root_not_found",
      data: { root: `${root}/nope` },
    });
    await expect(createDenoFileSystem(`${root}/a.txt`)).rejects.toMatchObject({
      code: "root_not_directory",
      data: { root: `${root}/a.txt` },
    });
  });

  it("watch reports an added file by its workspace path, and stops when closed", async () => {
    const root = await writeTree({ "src/a.py": "x = 1\n" });
    const fs = await createDenoFileSystem(root);
    const seen: string[] = [];
    const handle = fs.watch(["", "src"], (p) => seen.push(p));
    await new Promise((r) => setTimeout(r, 50));
    await Deno.writeTextFile(`${root}/src/b.py`, "y = 2\n");
    for (let i = 0; i < 100 && !seen.includes("src/b.py"); i++) await new Promise((r) => setTimeout(r, 20));
    handle.close();
    expect(seen).toContain("src/b.py");
  });
});

describe("DenoStore on disk", () => {
  it("creates its folder lazily, with a .gitignore of * that keys() does not list", async () => {
    const dir = `${await tempDir()}/nested/cache`;
    const store = new DenoStore(dir);
    await store.get("x");
    await store.keys();
    expect(await listAll(dir)).toEqual([]);
    await store.set("v1/a.json", new TextEncoder().encode("{}"));
    expect(await Deno.readTextFile(`${dir}/.gitignore`)).toContain("*");
    expect(await store.keys()).toEqual(["v1/a.json"]);
  });

  it("re-creates the folder and its .gitignore when the cache folder is deleted while the store lives", async () => {
    const dir = `${await tempDir()}/cache`;
    const store = new DenoStore(dir);
    await store.set("v1/a.json", new Uint8Array([1]));
    await Deno.remove(dir, { recursive: true });
    await store.set("v1/b.json", new Uint8Array([2]));
    expect(await listAll(dir)).toEqual([".gitignore", "CACHEDIR.TAG", "v1/b.json"]);
  });

  it("never re-creates a deleted parent: a removed project keeps its cache from coming back", async () => {
    const project = `${await tempDir()}/project`;
    await Deno.mkdir(project);
    const store = new DenoStore(`${project}/.codeslice`);
    await store.set("v1/a.json", new Uint8Array([1]));
    await Deno.remove(project, { recursive: true });
    await expect(store.set("v1/b.json", new Uint8Array([2]))).rejects.toThrow();
    expect(
      await Deno.stat(project).then(
        () => true,
        () => false,
      ),
    ).toBe(false);
  });

  it("atomic writes leave no temp files behind, even under concurrency", async () => {
    const dir = `${await tempDir()}/cache`;
    const store = new DenoStore(dir);
    const keys = Array.from({ length: 50 }, (_, i) => `v1/records/${String(i % 5).padStart(2, "0")}/r${i}.json`);
    await Promise.all(keys.map((k, i) => store.set(k, new TextEncoder().encode(`record ${i}`))));
    await Promise.all(keys.map((k) => store.set(k, new TextEncoder().encode(`again ${k}`))));
    await store.flush();
    // Records are packed, 64 to a file: these 50 are one pack.
    const files = await listAll(dir);
    expect(files.filter((f) => !f.endsWith(".pack"))).toEqual([".gitignore", "CACHEDIR.TAG"]);
    expect(files.filter((f) => /^v1\/records\/cs-\d{10}-[a-z0-9]+\.pack$/.test(f))).toHaveLength(1);
    const again = new DenoStore(dir);
    for (const k of keys) expect(new TextDecoder().decode(await again.get(k))).toBe(`again ${k}`);
  });

  it("a relative folder is resolved against the current folder (the label is absolute)", () => {
    const store = new DenoStore("some/cache");
    expect(store.label).toBe(`${Deno.cwd()}/some/cache`);
  });
});

describe("createDenoPlatform", () => {
  it("defaults the cache to <root>/.codeslice and wraps it so a refused write falls back to memory", async () => {
    const root = await writeTree({ "a.py": "def f():\n    return 1\n" });
    const platform = await createDenoPlatform({ root });
    expect(platform.store.label).toBe(`${root}/.codeslice`);
    expect(platform.store).toBeInstanceOf(FallbackStore);
  });

  it("an engine with watch: true answers from memory until Deno.watchFs reports an edit, then re-parses that file", async () => {
    const root = await writeTree({ "app/a.py": "def f():\n    return 1\n", "app/b.py": "def g():\n    return 2\n" });
    const engine = createEngine(await createDenoPlatform({ root }), { watch: true, exclude: [".codeslice"] });
    try {
      await engine.index();
      expect(await engine.refresh()).toMatchObject({ refreshed: false, mode: "watch" });
      await Deno.writeTextFile(`${root}/app/a.py`, "def f():\n    return 3\n\n\ndef h():\n    return f()\n");
      // The event arrives on a later turn of the event loop (about a millisecond here).
      let result = await engine.refresh();
      for (let i = 0; i < 50 && !result.refreshed; i++) {
        await new Promise((r) => setTimeout(r, 20));
        result = await engine.refresh();
      }
      expect(result).toMatchObject({ refreshed: true, parsed: 1, mode: "watch" });
      expect((await engine.signature("h")).symbol.path).toBe("app/a.py");
    } finally {
      engine.close();
    }
  });

  it("a cache folder that cannot be created (EPERM under /sys) runs from memory and says so once", async () => {
    const root = await writeTree({ "a.py": "def f():\n    return 1\n" });
    const notes: string[] = [];
    const platform = await createDenoPlatform({
      root,
      cacheDir: "/sys/codeslice-cache",
      logger: { log: (level, message) => notes.push(`${level}: ${message}`) },
    });
    await platform.store.set("v1/a", new Uint8Array([1]));
    await platform.store.set("v1/b", new Uint8Array([2]));
    expect(await platform.store.get("v1/a")).toEqual(new Uint8Array([1]));
    expect(await platform.store.keys("v1/")).toEqual(["v1/a", "v1/b"]);
    expect(notes.length).toBe(1);
    expect(notes[0]).toMatch(/^warn: cannot write the index cache \/sys\/codeslice-cache/);
  });
});
