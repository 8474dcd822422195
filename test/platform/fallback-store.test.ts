/** FallbackStore: a cache folder that refuses writes degrades to memory, says so once, and keeps working. */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { EngineError } from "../../src/shared/errors.ts";
import { FallbackStore, fallbackMessage, isWriteRefused } from "../../src/platform/fallback-store.ts";
import { MemoryStore } from "../../src/platform/memory/index.ts";
import { createNodePlatform } from "../../src/platform/node/index.ts";
import type { Store } from "../../src/core/ports.ts";
import { storeContract } from "./store.contract.ts";

const bytes = (s: string) => new TextEncoder().encode(s);

/** A store over a read-only medium: reads work, every write or delete throws `error`. */
class RefusingStore extends MemoryStore {
  constructor(private readonly error: () => unknown) {
    super();
  }
  seed(key: string, value: Uint8Array): Promise<void> {
    return super.set(key, value);
  }
  override async set(): Promise<void> {
    throw this.error();
  }
  override async delete(): Promise<void> {
    throw this.error();
  }
}

const readOnly = () => new EngineError("read_only", "Read-only file system: x", { data: { path: "x" } });

function fallback(inner: Store): { store: FallbackStore; notices: string[] } {
  const notices: string[] = [];
  return { store: new FallbackStore(inner, (error) => notices.push(fallbackMessage(inner.label, error))), notices };
}

storeContract("FallbackStore over a writable store", async () => fallback(new MemoryStore()).store);
storeContract("FallbackStore over a read-only store", async () => fallback(new RefusingStore(readOnly)).store);

describe("FallbackStore", () => {
  it("passes through while the inner store accepts writes, and says nothing", async () => {
    const inner = new MemoryStore();
    const { store, notices } = fallback(inner);
    await store.set("a", bytes("1"));
    expect(await inner.get("a")).toEqual(bytes("1"));
    expect(store.inMemory).toBe(false);
    expect(notices).toEqual([]);
  });

  it("after a refused write: memory first, the folder's old contents still readable, one notice", async () => {
    const inner = new RefusingStore(readOnly);
    await inner.seed("v1/old", bytes("old"));
    await inner.seed("v1/stale", bytes("stale"));
    const { store, notices } = fallback(inner);
    await Promise.all([store.set("v1/new", bytes("new")), store.set("v1/other", bytes("o"))]);
    await store.delete("v1/stale");
    expect(store.inMemory).toBe(true);
    expect(await store.get("v1/new")).toEqual(bytes("new"));
    expect(await store.get("v1/old")).toEqual(bytes("old"));
    expect(await store.get("v1/stale")).toBeUndefined();
    expect(await store.keys("v1/")).toEqual(["v1/new", "v1/old", "v1/other"]);
    expect(notices.length).toBe(1);
    expect(notices[0]).toContain("read-only file system");
    expect(notices[0]).toContain("in memory");
  });

  it("keep: a value the engine can rebuild lands when the store takes it, and is dropped without a word when not", async () => {
    const writable = fallback(new MemoryStore());
    expect(await writable.store.keep("v1/derived", bytes("d"))).toBe(true);
    expect(await writable.store.get("v1/derived")).toEqual(bytes("d"));
    const refusing = fallback(new RefusingStore(readOnly));
    expect(await refusing.store.keep("v1/derived", bytes("d"))).toBe(false);
    expect(refusing.store.inMemory).toBe(false);
    expect(refusing.notices).toEqual([]);
    expect(await refusing.store.get("v1/derived")).toBeUndefined();
    // A write the user's index needs still falls back and says so, once.
    await refusing.store.set("v1/record", bytes("r"));
    expect(refusing.notices).toHaveLength(1);
  });

  it("other failures are not hidden: an io_error propagates", async () => {
    const { store, notices } = fallback(new RefusingStore(() => new EngineError("io_error", "disk on fire")));
    await expect(store.set("a", bytes("1"))).rejects.toMatchObject({ code: "io_error" });
    expect(store.inMemory).toBe(false);
    expect(notices).toEqual([]);
  });

  it("recognises refusals by code, native errno (a full disk too), Deno error name, or in the cause chain", () => {
    expect(isWriteRefused(new EngineError("permission_denied", "x"))).toBe(true);
    expect(isWriteRefused(Object.assign(new Error("x"), { code: "EROFS" }))).toBe(true);
    expect(isWriteRefused(Object.assign(new Error("x"), { code: "EACCES" }))).toBe(true);
    const notCapable = Object.assign(
      new Error('Requires write access to "/x", run again with the --allow-write flag'),
      { name: "NotCapable" },
    );
    expect(isWriteRefused(notCapable)).toBe(true);
    expect(isWriteRefused(new EngineError("io_error", "Cannot read /x", { cause: notCapable }))).toBe(true);
    expect(isWriteRefused(new EngineError("io_error", "x"))).toBe(false);
    expect(isWriteRefused(Object.assign(new Error("x"), { code: "ENOSPC" }))).toBe(true);
    expect(isWriteRefused(Object.assign(new Error("x"), { code: "EDQUOT" }))).toBe(true);
    expect(isWriteRefused(Object.assign(new Error("x"), { code: "EIO" }))).toBe(false);
  });

  it("names the missing Deno flag in its notice", async () => {
    const notCapable = () =>
      new EngineError("io_error", "x", {
        cause: Object.assign(new Error('Requires write access to "/c", run again with the --allow-write flag'), {
          name: "NotCapable",
        }),
      });
    const { store, notices } = fallback(new RefusingStore(notCapable));
    await store.set("a", bytes("1"));
    expect(notices[0]).toContain("--allow-write");
  });
});

// A real read-only place: /sys refuses mkdir even for root (EPERM) on Linux.
const sysRefuses =
  process.platform === "linux" &&
  (() => {
    try {
      fs.mkdirSync("/sys/codeslice-probe");
      fs.rmdirSync("/sys/codeslice-probe");
      return false;
    } catch {
      return true;
    }
  })();

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) fs.rmSync(t, { recursive: true, force: true });
});

describe.skipIf(!sysRefuses)("a cache folder on a file system that refuses writes", () => {
  it("createNodePlatform: the store falls back to memory and the logger hears once", async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-ro-"));
    temps.push(root);
    const logs: string[] = [];
    const platform = await createNodePlatform({
      root,
      cacheDir: "/sys/codeslice-cache",
      logger: { log: (level, m) => logs.push(`${level} ${m}`) },
    });
    await platform.store.set("v1/a", bytes("a"));
    await platform.store.set("v1/b", bytes("b"));
    expect(await platform.store.get("v1/a")).toEqual(bytes("a"));
    expect(logs.length).toBe(1);
    expect(logs[0]).toMatch(/^warn cannot write the index cache \/sys\/codeslice-cache/);
  });

  it("records queued before a refused pack write: the store falls back at flush and they stay readable", async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-ro-"));
    temps.push(root);
    const logs: string[] = [];
    const platform = await createNodePlatform({
      root,
      cacheDir: "/sys/codeslice-cache",
      logger: { log: (level, m) => logs.push(`${level} ${m}`) },
    });
    await platform.store.set("v1/records/ab/r.json", bytes("r"));
    await platform.store.flush!();
    expect(await platform.store.get("v1/records/ab/r.json")).toEqual(bytes("r"));
    expect(await platform.store.keys("v1/")).toEqual(["v1/records/ab/r.json"]);
    expect(logs.length).toBe(1);
    expect(logs[0]).toMatch(/^warn cannot write the index cache \/sys\/codeslice-cache/);
  });

  it("the CLI indexes and answers, with one line on stderr", () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-ro-"));
    temps.push(root);
    fs.writeFileSync(path.join(root, "app.py"), "def helper():\n    return 1\n\n\ndef main():\n    return helper()\n");
    const cli = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));
    if (!fs.existsSync(cli))
      spawnSync(process.execPath, [fileURLToPath(new URL("../../scripts/build.mjs", import.meta.url))], {
        stdio: "inherit",
      });
    const r = spawnSync(
      process.execPath,
      [cli, "context", "main", "--json", "--quiet", "--root", root, "--cache-dir", "/sys/codeslice-cache"],
      { encoding: "utf8" },
    );
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).chunks.length).toBeGreaterThan(0);
    const lines = r.stderr.trim().split("\n");
    expect(lines.length, r.stderr).toBe(1);
    expect(lines[0]).toMatch(/^codeslice: cannot write the index cache .*in memory/);
  });
});
