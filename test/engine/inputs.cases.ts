/**
 * Answers follow edits made after indexing, with no refresh in between: every file an answer reads
 * (cited source, resolver configs, manifests) is checked against the hash the snapshot holds, and
 * one that changed is re-indexed alone before the answer is given. And `refresh()` as hosts use it:
 * the first index shared by concurrent callers, the settle pass, recovery after the root went away.
 *
 * Shared by Node (inputs.test.ts) and Chromium (test/browser/inputs.chromium.ts): core code only,
 * on the memory platform, whose `write` simulates an edit.
 */
import { describe, expect, it } from "vitest";
import { createEngine, type Engine } from "../../src/core/engine/engine.ts";
import type { Progress } from "../../src/core/engine/indexer.ts";
import { EngineError } from "../../src/shared/errors.ts";
import { MemoryFileSystem, MemoryStore, type MemoryEntry } from "../../src/platform/memory/index.ts";
import { parseFixture, wasm } from "../support/platform.ts";

/** The memory file system with what the tests need to see or to make happen. */
class TestFileSystem extends MemoryFileSystem {
  /** Paths read, in order, and folder listings made (a scan lists folders; a re-check does not). */
  reads: string[] = [];
  listings = 0;
  /** A file whose bytes differ on every read, as if saved again and again. */
  flapping: string | undefined;
  private saves = 0;
  /** When true the root is gone. */
  gone = false;
  private listeners: Set<(path: string) => void> | undefined;

  override async readFile(path: string): Promise<Uint8Array> {
    this.reads.push(path);
    const bytes = await super.readFile(path);
    return path === this.flapping
      ? new TextEncoder().encode(`# save ${this.saves++}\n${new TextDecoder().decode(bytes)}`)
      : bytes;
  }
  override async readDir(path: string) {
    this.listings++;
    if (this.gone) throw new EngineError("not_found", `No such folder: ${path}`, { data: { path } });
    return super.readDir(path);
  }
  override async stat(path: string) {
    if (this.gone) throw new EngineError("not_found", `No such file or folder: ${path}`, { data: { path } });
    return super.stat(path);
  }
  override write(path: string, content: MemoryEntry): void {
    super.write(path, content);
    this.listeners?.forEach((l) => l(path));
  }
  /** A folder watcher, for engines made with `watchable`: every write is an event. */
  watchable(): this & { watch(dirs: string[], onChange: (path: string) => void): { close(): void } } {
    const listeners = (this.listeners = new Set());
    return Object.assign(this, {
      watch: (_dirs: string[], onChange: (path: string) => void) => {
        listeners.add(onChange);
        return { close: () => void listeners.delete(onChange) };
      },
    });
  }
}

/** A store that counts the records written (one per file parsed). */
class CountingStore extends MemoryStore {
  recordWrites = 0;
  override async set(key: string, value: Uint8Array): Promise<void> {
    if (key.includes("/records/")) this.recordWrites++;
    return super.set(key, value);
  }
}

function setup(
  fixture: string,
  options: { watch?: boolean } = {},
): { engine: Engine; fs: TestFileSystem; store: CountingStore } {
  const fs = new TestFileSystem(parseFixture(fixture));
  const store = new CountingStore();
  const engine = createEngine(
    { fs: options.watch ? fs.watchable() : fs, store, wasm },
    options.watch ? { watch: true } : {},
  );
  return { engine, fs, store };
}

const text = (fs: MemoryFileSystem, path: string) => fs.readFile(path).then((b) => new TextDecoder().decode(b));

/** Two Python files, one calling into the other: the smallest project whose graph crosses a file. */
export const PROJECT = `
#- m.py
def a():
    return b()


def b():
    return 1
#- other.py
from m import a


def c():
    return a()
`;

export function inputsCases(): void {
  describe("answers read the bytes they were indexed from", () => {
    it("context after lines were added above the target, with no refresh: the edited file is re-indexed alone and the lines are right", async () => {
      const { engine, fs, store } = setup(PROJECT);
      const before = await engine.context("b");
      expect(before.chunks[0]).toMatchObject({ path: "m.py", start: 5, end: 6, role: "seed" });
      fs.write("m.py", `import os\nimport sys\n\n${await text(fs, "m.py")}`);
      fs.reads = [];
      fs.listings = 0;
      const written = store.recordWrites;
      const after = await engine.context("b");
      expect(after.chunks[0]).toMatchObject({ path: "m.py", start: 8, end: 9, role: "seed" });
      expect(after.text).toContain("## m.py:8-9 [seed] m.b\n```python\ndef b():\n    return 1\n```");
      expect(after.chunks.find((c) => c.symbol === "m.a")).toMatchObject({ start: 4, end: 5 });
      // The edited file alone was parsed again, nothing was scanned, and only cited files were read.
      expect(store.recordWrites - written).toBe(1);
      expect(fs.listings).toBe(0);
      expect(new Set(fs.reads)).toEqual(new Set(after.chunks.map((c) => c.path)));
      // The index moved with it: a refresh finds nothing left to do.
      expect(await engine.refresh()).toMatchObject({ refreshed: false, parsed: 0 });
    });

    it("a file that changes on every read ends in stale_index with its path and both hashes", async () => {
      const { engine, fs } = setup(PROJECT);
      await engine.context("b");
      fs.flapping = "m.py";
      const error = await engine.context("b").then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(EngineError);
      expect(error).toMatchObject({ code: "stale_index", data: { path: "m.py" } });
      const { indexedHash, currentHash } = (error as EngineError).data as { indexedHash: string; currentHash: string };
      expect(indexedHash).toMatch(/^[0-9a-f]{40}$/);
      expect(currentHash).toMatch(/^[0-9a-f]{40}$/);
      expect(currentHash).not.toBe(indexedHash);
      expect((error as EngineError).message).toContain("m.py");
      // Once it stops changing, the same question is answered.
      fs.flapping = undefined;
      expect((await engine.context("b")).chunks[0]).toMatchObject({ path: "m.py", start: 5, end: 6 });
    });

    it("a cited file deleted since indexing leaves the index instead of being cited as empty lines", async () => {
      const { engine, fs } = setup(PROJECT);
      await engine.context("c");
      fs.remove("m.py");
      const answer = await engine.context("c");
      expect(answer.chunks.map((c) => c.path)).toEqual(["other.py"]);
      await expect(engine.signature("b")).rejects.toMatchObject({ code: "unknown_symbol" });
    });

    it("snippet after an edit: the current lines, and the index follows them", async () => {
      const { engine, fs } = setup(PROJECT);
      await engine.context("b");
      fs.write("m.py", `import os\nimport sys\n\n${await text(fs, "m.py")}`);
      const snip = await engine.snippet("m.py", 8, 9);
      expect(snip).toMatchObject({ path: "m.py", start: 8, end: 9, totalLines: 9, text: "def b():\n    return 1" });
      fs.reads = [];
      expect((await engine.context("b")).chunks[0]).toMatchObject({ start: 8, end: 9 });
      expect(fs.reads.sort()).toEqual(["m.py", "other.py"]); // each cited file read once: already the indexed bytes
      fs.remove("other.py");
      await expect(engine.snippet("other.py", 1, 2)).rejects.toMatchObject({
        code: "not_found",
        data: { path: "other.py" },
      });
    });

    it("a tsconfig paths edit is in the next answer, with or without a refresh", async () => {
      const config = (target: string) =>
        JSON.stringify({ compilerOptions: { baseUrl: ".", paths: { "@lib/*": [`src/${target}/*`] } } });
      const { engine, fs } = setup(`
        //- tsconfig.json
        ${config("one")}
        //- src/one/util.ts
        export function helper(): number {
          return 1;
        }
        //- src/two/util.ts
        export function helper(): number {
          return 2;
        }
        //- src/main.ts
        import { helper } from "@lib/util";

        export function main(): number {
          return helper();
        }
      `);
      const calleePaths = async () => (await engine.callees("main")).results.map((r) => r.path);
      expect(await calleePaths()).toEqual(["src/one/util.ts"]);
      // Edited after indexing, before the next graph is built: the graph is not built from bytes
      // the snapshot does not know.
      await engine.index();
      fs.write("src/main.ts", `${await text(fs, "src/main.ts")}\n`);
      await engine.index();
      fs.write("tsconfig.json", config("two"));
      expect(await calleePaths()).toEqual(["src/two/util.ts"]);
      expect(await engine.refresh()).toMatchObject({ refreshed: false });
      // Edited under a warm graph: the refresh a host makes before answering picks it up.
      fs.write("tsconfig.json", config("one"));
      expect(await engine.refresh()).toMatchObject({ refreshed: true, parsed: 0 });
      expect(await calleePaths()).toEqual(["src/one/util.ts"]);
    });

    it("a manifest edited or deleted after indexing is reflected in the map, with no refresh", async () => {
      const { engine, fs } = setup(`
        #- api/pyproject.toml
        [project]
        name = "alpha"
        #- api/app.py
        def handler():
            return 1
        #- worker/pyproject.toml
        [project]
        name = "jobs"
        #- worker/run.py
        def run():
            return 2
      `);
      const services = async () => (await engine.map()).services.map((s) => `${s.path}:${s.name ?? ""}`);
      expect(await services()).toEqual(["api:alpha", "worker:jobs"]);
      fs.write("api/pyproject.toml", '[project]\nname = "beta"\n');
      fs.remove("worker/pyproject.toml");
      expect(await services()).toEqual(["api:beta"]);
    });
  });
}

export function refreshCases(): void {
  describe("refresh(), as every host runs it", () => {
    it("the first index is shared by concurrent callers, each with progress; exactly one reports it as initial", async () => {
      const { engine } = setup(PROJECT);
      const seen: Progress[][] = [[], [], []];
      const results = await Promise.all(
        seen.map((progress) => engine.refresh({ onProgress: (p) => progress.push(p) })),
      );
      expect(results.filter((r) => r.mode === "initial")).toHaveLength(1);
      expect(results.find((r) => r.mode === "initial")).toMatchObject({
        refreshed: true,
        parsed: 2,
        sourceFiles: 2,
        files: 2,
      });
      for (const progress of seen) {
        expect(progress.some((p) => p.phase === "parse")).toBe(true);
        expect(progress.at(-1)?.phase).toBe("graph"); // the graph is built as part of the first index
      }
      // Later calls re-scan (no watcher), report nothing new and no progress.
      const later: Progress[] = [];
      expect(await engine.refresh({ onProgress: (p) => later.push(p) })).toMatchObject({
        refreshed: false,
        parsed: 0,
        mode: "scan",
        sourceFiles: 2,
      });
      expect(later).toEqual([]);
    });

    it("with a watcher: edits made during the first index are caught by the settle pass, then the watcher vouches", async () => {
      const { engine, fs } = setup(PROJECT, { watch: true });
      try {
        let edited = false;
        const first = await engine.refresh({
          onProgress: (p) => {
            if (edited || p.phase !== "parse") return;
            edited = true; // before any watcher exists: only a re-scan can see it
            fs.write("other.py", "def late():\n    return 3\n");
          },
        });
        expect(first).toMatchObject({ mode: "initial", parsed: 2 });
        await new Promise((resolve) => setTimeout(resolve, 200)); // the settle pass runs meanwhile
        const listings = fs.listings;
        expect(await engine.refresh()).toMatchObject({ refreshed: true, parsed: 1, mode: "watch" });
        expect(fs.listings).toBe(listings); // reported by the settle pass, not re-scanned again
        expect((await engine.signature("late")).symbol.path).toBe("other.py");
        expect(await engine.refresh()).toMatchObject({ refreshed: false, mode: "watch" });
        fs.write("m.py", "def b():\n    return 5\n");
        expect(await engine.refresh()).toMatchObject({ refreshed: true, parsed: 1, mode: "watch" });
        expect(fs.listings).toBe(listings); // the watcher named a file of the index: re-checked alone
        fs.write("new.py", "def c():\n    return 6\n");
        expect(await engine.refresh()).toMatchObject({ refreshed: true, parsed: 1, mode: "watch" });
        expect(fs.listings).toBeGreaterThan(listings); // a new name: re-scanned
        expect((await engine.signature("c")).symbol.path).toBe("new.py");
      } finally {
        engine.close();
      }
    });

    it("a root that went away is root_not_found on every call; once back, the next call re-scans and watching resumes", async () => {
      const { engine, fs } = setup(PROJECT, { watch: true });
      try {
        await engine.refresh();
        await engine.refresh();
        fs.gone = true;
        for (let i = 0; i < 2; i++)
          await expect(engine.refresh()).rejects.toMatchObject({ code: "root_not_found", data: { root: "memory" } });
        fs.gone = false;
        fs.write("m.py", "def b():\n    return 7\n");
        expect(await engine.refresh()).toMatchObject({ refreshed: true, parsed: 1, mode: "scan" });
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(await engine.refresh()).toMatchObject({ refreshed: false, mode: "watch" });
      } finally {
        engine.close();
      }
    });

    it("rescan: true re-scans even when the watcher says nothing changed", async () => {
      const { engine, fs } = setup(PROJECT, { watch: true });
      try {
        await engine.refresh();
        await new Promise((resolve) => setTimeout(resolve, 100));
        const listings = fs.listings;
        expect(await engine.refresh()).toMatchObject({ mode: "watch" });
        expect(fs.listings).toBe(listings);
        expect(await engine.refresh({ rescan: true })).toMatchObject({ refreshed: false, mode: "scan" });
        expect(fs.listings).toBeGreaterThan(listings);
      } finally {
        engine.close();
      }
    });
  });
}
