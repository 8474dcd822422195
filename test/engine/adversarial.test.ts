/**
 * Bad input through the real engine: every hostile file is skipped or read partially with a reason,
 * the index completes, a good file next to them is indexed, and nothing outside the cache folder is
 * written. Runs on disk (folder walk and git repository) and on the memory platform for what a
 * root user cannot provoke on disk (a permission error).
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEngine, type Engine, type IndexSummary } from "../../src/core/engine/engine.ts";
import { EngineError } from "../../src/shared/errors.ts";
import { MemoryFileSystem, MemoryStore } from "../../src/platform/memory/index.ts";
import { createNodePlatform } from "../../src/platform/node/index.ts";
import type { DirEntry } from "../../src/core/ports.ts";
import { wasm } from "../support/platform.ts";

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) fs.rmSync(t, { recursive: true, force: true });
});

const BIG_BYTES = 5 * 1024 * 1024;
const enc = new TextEncoder();

/** A UTF-16LE file with its byte-order mark. */
function utf16le(text: string): Uint8Array {
  const out = new Uint8Array(2 + text.length * 2);
  out[0] = 0xff;
  out[1] = 0xfe;
  for (let i = 0; i < text.length; i++) {
    out[2 + 2 * i] = text.charCodeAt(i) & 0xff;
    out[3 + 2 * i] = text.charCodeAt(i) >> 8;
  }
  return out;
}

const BROKEN_PY = [
  "def ok_one():",
  "    return 1",
  "",
  "def broken(:",
  "    pass",
  "",
  "class StillFound:",
  "    def method(self):",
  "        return 2",
  "",
].join("\n");

/** The hostile files (regular ones); links and the pipe are made per platform. */
const FILES: Record<string, string | Uint8Array> = {
  "good.py": "def good():\n    return 1\n",
  "bin.py": Uint8Array.from([...enc.encode("def x():\n    pass\n"), 0, 0, 1, 2, 0xff, 0]),
  "bad.py": Uint8Array.from([...enc.encode("def f():\n    return '"), 0xc3, 0x28, 0xa0, 0xa1, ...enc.encode("'\n")]),
  "utf16.py": utf16le("def g():\n    return 1\n"),
  "empty.py": "",
  "big.js": "var a=1;".repeat(BIG_BYTES / 8),
  "broken.py": BROKEN_PY,
};

/** What each hostile path must be reported as in `summary.skipped` (on disk). */
const EXPECTED_SKIPS: Record<string, string> = {
  "bin.py": "binary",
  "bad.py": "not_utf8",
  "utf16.py": "not_utf8",
  "big.js": "too_large",
  "loop-a.py": "symlink_loop",
  "loop-b.py": "symlink_loop",
  "self-loop.py": "symlink_loop",
  "outside.py": "symlink_outside_root",
  "outside-abs.py": "symlink_outside_root",
  "dangling.py": "symlink_broken",
  "pipe.py": "special_file",
};

interface TreeState {
  [path: string]: string;
}

/** Every entry under `dir` (lstat: links and pipes are not followed) with kind, size and mtime (files). */
function snapshotTree(dir: string, skip: string): TreeState {
  const out: TreeState = {};
  const walk = (d: string) => {
    for (const name of fs.readdirSync(d)) {
      const full = path.join(d, name);
      if (full === skip) continue;
      const st = fs.lstatSync(full, { bigint: true });
      const kind = st.isSymbolicLink()
        ? `link->${fs.readlinkSync(full)}`
        : st.isDirectory()
          ? "dir"
          : st.isFIFO()
            ? "fifo"
            : "file";
      // A folder's mtime moves when the cache folder is created in it; new entries show up on their own.
      out[path.relative(dir, full)] = kind === "dir" ? kind : `${kind} ${st.size} ${st.mtimeNs}`;
      if (st.isDirectory()) walk(full);
    }
  };
  walk(dir);
  return out;
}

/** Builds the hostile tree on disk: `<base>/root` plus `<base>/outside/secret.py`. */
function buildDiskTree(): { base: string; root: string } {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-adv-")));
  temps.push(base);
  const root = path.join(base, "root");
  fs.mkdirSync(root);
  fs.mkdirSync(path.join(base, "outside"));
  fs.writeFileSync(path.join(base, "outside", "secret.py"), "def secret():\n    pass\n");
  for (const [name, content] of Object.entries(FILES)) fs.writeFileSync(path.join(root, name), content);
  fs.symlinkSync("loop-b.py", path.join(root, "loop-a.py"));
  fs.symlinkSync("loop-a.py", path.join(root, "loop-b.py"));
  fs.symlinkSync("self-loop.py", path.join(root, "self-loop.py"));
  fs.symlinkSync("../outside/secret.py", path.join(root, "outside.py"));
  fs.symlinkSync(path.join(base, "outside", "secret.py"), path.join(root, "outside-abs.py"));
  fs.symlinkSync("nowhere.py", path.join(root, "dangling.py"));
  return { base, root };
}

function git(cwd: string, ...args: string[]): void {
  execFileSync("git", ["-c", "user.email=t@example.com", "-c", "user.name=T", ...args], {
    cwd,
    stdio: "ignore",
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" },
  });
}

const reasons = (s: IndexSummary) => Object.fromEntries(s.skipped.map((x) => [x.path, x.reason]));

async function definitionNames(engine: Engine): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const d of (await engine.graph()).definitions) (out[d.file] ??= []).push(d.name);
  return out;
}

for (const mode of ["walk", "git"] as const) {
  describe(`hostile files on disk (${mode})`, () => {
    let base: string;
    let root: string;
    let cacheDir: string;
    let before: TreeState;
    let summary: IndexSummary;
    let engine: Engine;

    beforeAll(async () => {
      ({ base, root } = buildDiskTree());
      if (mode === "git") {
        git(root, "init", "-q", ".");
        git(root, "add", "-A");
        git(root, "commit", "-q", "-m", "hostile");
      }
      // Made after the commit: git refuses to add a pipe.
      execFileSync("mkfifo", [path.join(root, "pipe.py")]);
      // The cache inside the root, under a name the default ignore list does not know.
      cacheDir = path.join(root, "index-cache");
      before = snapshotTree(base, cacheDir);
      const platform = await createNodePlatform({ root, cacheDir });
      engine = createEngine(platform, { exclude: ["index-cache"] });
      summary = await engine.index();
    }, 60_000);

    it("completes with the scan mode expected", () => {
      expect(summary.scanMode).toBe(mode);
    });

    it.each(Object.entries(EXPECTED_SKIPS))("%s is skipped as %s", (p, reason) => {
      expect(reasons(summary)[p]).toBe(reason);
    });

    it("nothing else is skipped, and the good, empty and broken files are indexed", async () => {
      expect(Object.keys(reasons(summary)).sort()).toEqual(Object.keys(EXPECTED_SKIPS).sort());
      const defs = await definitionNames(engine);
      expect(defs["good.py"]).toEqual(["good"]);
      expect(defs["empty.py"]).toBeUndefined();
      const records = await engine.records();
      const empty = records.find((r) => r.path === "empty.py");
      expect(empty?.definitions).toEqual([]);
      expect(records.map((r) => r.path).sort()).toEqual(["broken.py", "empty.py", "good.py"]);
      expect(summary.sourceFiles).toBe(3);
    });

    it("a syntax-error file is indexed partially: diagnostics reported, valid definitions kept", async () => {
      const entry = summary.syntaxErrors.find((e) => e.path === "broken.py");
      expect(entry?.count).toBeGreaterThan(0);
      const defs = await definitionNames(engine);
      expect(defs["broken.py"]).toEqual(expect.arrayContaining(["ok_one", "StillFound", "method"]));
      const record = (await engine.records()).find((r) => r.path === "broken.py")!;
      expect(record.diagnostics.length).toBe(entry!.count);
    });

    it("nothing outside the cache folder was written (tree, sizes and mtimes unchanged)", async () => {
      await engine.index();
      await engine.map({ budget: 500 });
      expect(snapshotTree(base, cacheDir)).toEqual(before);
      expect(fs.readdirSync(cacheDir).length).toBeGreaterThan(0);
    });

    it("a second index over the same tree reports the same skips and parses nothing", async () => {
      const again = await createEngine(await createNodePlatform({ root, cacheDir }), {
        exclude: ["index-cache"],
      }).index();
      expect(reasons(again)).toEqual(reasons(summary));
      expect(again.parsed).toBe(0);
    });

    it("with a larger size limit, the 5 MB one-line file is skipped as minified", async () => {
      const platform = await createNodePlatform({ root, cacheDir: path.join(base, "cache-big") });
      const big = await createEngine(platform, { maxFileBytes: 8 * 1024 * 1024 }).index();
      expect(reasons(big)["big.js"]).toBe("minified");
      expect(big.skipped.find((s) => s.path === "big.js")?.detail).toBeTruthy();
      fs.rmSync(path.join(base, "cache-big"), { recursive: true, force: true });
    });
  });
}

describe("hostile files on the memory platform", () => {
  /** A memory file system where some paths fail like a permission error would on disk. */
  class LockedMemoryFileSystem extends MemoryFileSystem {
    constructor(
      files: ConstructorParameters<typeof MemoryFileSystem>[0],
      private readonly locked: Set<string>,
    ) {
      super(files);
    }
    override async readFile(p: string): Promise<Uint8Array> {
      if (this.locked.has(p))
        throw new EngineError("permission_denied", `Permission denied: ${p}`, { data: { path: p } });
      return super.readFile(p);
    }
    override async readDir(p: string): Promise<DirEntry[]> {
      if (this.locked.has(p))
        throw new EngineError("permission_denied", `Permission denied: ${p}`, { data: { path: p } });
      return super.readDir(p);
    }
  }

  it("an unreadable file and an unreadable folder are skipped as unreadable; the rest is indexed", async () => {
    const fsys = new LockedMemoryFileSystem(
      {
        ...FILES,
        "secret.py": "def hidden():\n    pass\n",
        "locked/inside.py": "def inside():\n    pass\n",
        "loop-a.py": { symlink: "loop-b.py" },
        "loop-b.py": { symlink: "loop-a.py" },
        "outside.py": { symlink: "../outside/secret.py" },
        "dangling.py": { symlink: "nowhere.py" },
      },
      new Set(["secret.py", "locked"]),
    );
    const store = new MemoryStore();
    const summary = await createEngine({ fs: fsys, store, wasm }).index();
    const r = reasons(summary);
    expect(r["secret.py"]).toBe("unreadable");
    expect(r["locked"]).toBe("unreadable");
    expect(r).toMatchObject({
      "bin.py": "binary",
      "bad.py": "not_utf8",
      "utf16.py": "not_utf8",
      "big.js": "too_large",
      "loop-a.py": "symlink_loop",
      "loop-b.py": "symlink_loop",
      "outside.py": "symlink_outside_root",
      "dangling.py": "symlink_broken",
    });
    expect(summary.byLanguage).toBeDefined();
    const engine = createEngine({ fs: fsys, store, wasm });
    const files = (await engine.records()).map((x) => x.path).sort();
    expect(files).toEqual(["broken.py", "empty.py", "good.py"]);
  });
});

describe("a bad root is a clear error naming the path", () => {
  it("missing root: root_not_found with data.root", async () => {
    const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-adv-")));
    temps.push(base);
    const missing = path.join(base, "does-not-exist");
    await expect(createNodePlatform({ root: missing })).rejects.toMatchObject({
      name: "EngineError",
      code: "root_not_found",
      data: { root: missing },
    });
    expect(fs.existsSync(missing)).toBe(false);
  });

  it("a file as root: root_not_directory with data.root", async () => {
    const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-adv-")));
    temps.push(base);
    const file = path.join(base, "file.py");
    fs.writeFileSync(file, "x = 1\n");
    await expect(createNodePlatform({ root: file })).rejects.toMatchObject({
      name: "EngineError",
      code: "root_not_directory",
      data: { root: file },
    });
    // And no cache folder appeared next to it.
    expect(fs.readdirSync(base)).toEqual(["file.py"]);
  });
});
