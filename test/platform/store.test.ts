/** Runs the Store and WasmSource contracts against every implementation, plus NodeStore's disk habits. */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as zlib from "node:zlib";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { MemoryStore } from "../../src/platform/memory/index.ts";
import { NodeStore, NodeWasmSource } from "../../src/platform/node/index.ts";
import { cacheFolderContract } from "./cache-folder.contract.ts";
import { storeContract } from "./store.contract.ts";
import { packedCount, packsIn } from "../support/packs.ts";
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
    const plain = Array.from({ length: 20 }, (_, i) => `v1/plans/${String(i % 5).padStart(2, "0")}/p${i}.json`);
    const records = Array.from({ length: 50 }, (_, i) => `v1/records/${String(i % 5).padStart(2, "0")}/r${i}.json`);
    const keys = [...plain, ...records];
    await Promise.all(keys.map((k, i) => store.set(k, new TextEncoder().encode(`value ${i}`))));
    await Promise.all(keys.map((k) => store.set(k, new TextEncoder().encode(`again ${k}`))));
    await store.flush();
    const files = listAll(dir);
    expect(files.filter((f) => f.endsWith(".tmp") || /\/\.[^/]*$/.test(f))).toEqual([]);
    // Plain values are a file each; the records went into packs (a plain write lands the records
    // queued before it, so the interleaved writes made more than one).
    expect(files.filter((f) => !f.endsWith(".pack"))).toEqual([".gitignore", "CACHEDIR.TAG", ...plain].sort());
    expect(files.filter((f) => f.endsWith(".pack")).length).toBeGreaterThanOrEqual(1);
    expect(await store.keys()).toEqual([...keys].sort());
    const again = new NodeStore(dir);
    for (const k of keys) expect(new TextDecoder().decode(await again.get(k))).toBe(`again ${k}`);
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

describe("NodeStore's packed records (v<N>/records/)", () => {
  const enc = new TextEncoder();
  const dec = new TextDecoder();
  const recordKey = (i: number) => `v3/records/${(i % 7).toString(16).padStart(2, "0")}/x-${i}.json`;
  const value = (i: number) => enc.encode(`record ${i} ${"x".repeat(i % 50)}`);

  it("writes records 64 to a pack file, not one file each, and a new store reads them back", async () => {
    const dir = path.join(tempDir(), "cache");
    const store = new NodeStore(dir);
    // As the indexer does: up to 64 writes in flight, then a wait.
    for (let i = 0; i < 130; i += 64)
      await Promise.all(
        Array.from({ length: Math.min(64, 130 - i) }, (_, k) => store.set(recordKey(i + k), value(i + k))),
      );
    // Two full batches landed as their 64th value was set; the rest waits for flush (or a pause).
    expect(packsIn(path.join(dir, "v3", "records")).map((p) => p.ops.length)).toEqual([64, 64]);
    expect(dec.decode(await store.get(recordKey(129)))).toBe(dec.decode(value(129)));
    await store.flush();
    expect(packsIn(path.join(dir, "v3", "records")).map((p) => p.ops.length)).toEqual([64, 64, 2]);
    expect(listAll(path.join(dir, "v3", "records")).every((f) => f.endsWith(".pack"))).toBe(true);
    const again = new NodeStore(dir);
    for (let i = 0; i < 130; i++) expect(await again.get(recordKey(i))).toEqual(value(i));
    expect(await again.keys("v3/records/")).toEqual(Array.from({ length: 130 }, (_, i) => recordKey(i)).sort());
  });

  it("queued values share reused buffers and still land and read back whole, batch after batch", async () => {
    const dir = path.join(tempDir(), "cache");
    const store = new NodeStore(dir);
    // Sizes past a batch's bytes (256 kB) and past a buffer (512 kB), each key set twice (the
    // second time in a later batch), and the caller's arrays overwritten once set resolved: every
    // batch reuses the buffer of one that landed, so a value still read from it shows another's bytes.
    const sized = (i: number) => {
      const v = new Uint8Array(i % 37 === 5 ? 700_000 : i % 11 === 3 ? 300_000 : 3_000 + i);
      for (let k = 0; k < v.length; k++) v[k] = (i * 31 + k) & 0xff;
      return v;
    };
    // (toEqual walks a typed array element by element: minutes for these sizes)
    const same = (got: Uint8Array | undefined, want: Uint8Array) => !!got && Buffer.from(got).equals(want);
    for (let round = 0; round < 2; round++)
      for (let i = 0; i < 200; i += 50) {
        const given = Array.from({ length: 50 }, (_, k) => sized(i + k + round));
        await Promise.all(given.map((v, k) => store.set(recordKey(i + k), v)));
        for (const v of given) v.fill(0xee);
        // A queued value reads back as set while later ones go into its buffer.
        expect(same(await store.get(recordKey(i + 49)), sized(i + 49 + round))).toBe(true);
      }
    await store.flush();
    const again = new NodeStore(dir);
    for (let i = 0; i < 200; i++) {
      expect(same(await store.get(recordKey(i)), sized(i + 1)), `key ${i}`).toBe(true);
      expect(same(await again.get(recordKey(i)), sized(i + 1)), `key ${i}, read back`).toBe(true);
    }
  });

  it("a value of its own (the snapshot) never lands before the records set before it", async () => {
    const dir = path.join(tempDir(), "cache");
    const store = new NodeStore(dir);
    for (let i = 0; i < 10; i++) await store.set(recordKey(i), value(i));
    expect(packedCount(path.join(dir, "v3", "records"))).toBe(0); // queued, not landed
    await store.set("v3/snapshot.json", enc.encode("{}"));
    expect(packedCount(path.join(dir, "v3", "records"))).toBe(10);
  });

  it("a batch left queued lands by itself once writes pause", async () => {
    const dir = path.join(tempDir(), "cache");
    const store = new NodeStore(dir);
    await store.set(recordKey(1), value(1));
    for (let waited = 0; waited < 5000 && packedCount(path.join(dir, "v3", "records")) === 0; waited += 20)
      await new Promise((r) => setTimeout(r, 20));
    expect(packedCount(path.join(dir, "v3", "records"))).toBe(1);
  });

  it("drops the layout before packs (a file per record) instead of reading it", async () => {
    const dir = path.join(tempDir(), "cache");
    await new NodeStore(dir).set("v3/snapshot.json", enc.encode("{}"));
    const old = path.join(dir, "v3", "records", "00", "x-7.json");
    fs.mkdirSync(path.dirname(old), { recursive: true });
    fs.writeFileSync(old, value(7));
    const store = new NodeStore(dir);
    expect(await store.get(recordKey(7))).toBeUndefined();
    expect(fs.existsSync(path.join(dir, "v3", "records", "00"))).toBe(false);
    expect(await store.keys()).toEqual(["v3/snapshot.json"]);
  });

  it("deletes and overwrites are compacted away, and the live values stay readable", async () => {
    const dir = path.join(tempDir(), "cache");
    const store = new NodeStore(dir);
    for (let i = 0; i < 50; i++) await store.set(recordKey(i), value(i));
    await store.flush();
    for (let round = 0; round < 40; round++) {
      await store.delete(recordKey(round));
      await store.set(recordKey(0), enc.encode(`round ${round}`));
      await store.flush();
    }
    const packs = packsIn(path.join(dir, "v3", "records"));
    expect(packs.length).toBeLessThan(10);
    const again = new NodeStore(dir);
    expect(dec.decode(await again.get(recordKey(0)))).toBe("round 39");
    for (let i = 1; i < 50; i++) expect(await again.get(recordKey(i))).toEqual(i < 40 ? undefined : value(i));
    expect(await again.keys("v3/records/")).toHaveLength(11);
  });

  it("sees records another store (another process) wrote into the same folder since it looked", async () => {
    const dir = path.join(tempDir(), "cache");
    const a = new NodeStore(dir);
    const b = new NodeStore(dir);
    await a.set(recordKey(1), value(1));
    await a.flush();
    expect(await b.get(recordKey(1))).toEqual(value(1));
    await new Promise((r) => setTimeout(r, 20)); // the folder's mtime moves on the next pack
    await a.set(recordKey(2), value(2));
    await a.flush();
    expect(await b.get(recordKey(2))).toEqual(value(2));
    expect(await b.keys("v3/")).toEqual([recordKey(1), recordKey(2)].sort());
  });

  /**
   * A pack as docs/architecture.md and store-pack.ts lay it out, made by hand here (the CRC from
   * node:zlib, not the store's): an index folder written by an earlier build reads back, and a
   * pack written now is those bytes to the letter.
   */
  const u32 = (n: number) => [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, n >>> 24];
  function handMadePack(seq: number, ops: { key: string; value?: Uint8Array }[]): Uint8Array {
    const table = ops.flatMap((op) => [
      op.value ? 1 : 2,
      op.key.length & 0xff,
      op.key.length >> 8,
      ...enc.encode(op.key),
      ...u32(op.value?.length ?? 0),
    ]);
    const data = ops.flatMap((op) => [...(op.value ?? [])]);
    const head = [0x89, 0x43, 0x53, 0x50, 0x41, 0x43, 0x4b, 0x0a, ...u32(1), ...u32(seq), ...u32(ops.length)];
    head.push(...u32(table.length), ...u32(data.length));
    const crc = zlib.crc32(Uint8Array.from(table), zlib.crc32(Uint8Array.from(head)));
    return Uint8Array.from([...head, ...u32(crc), ...table, ...data]);
  }

  it("writes a pack byte for byte in the documented format (magic, format 1, sequence, table, CRC, values)", async () => {
    const dir = path.join(tempDir(), "cache");
    const store = new NodeStore(dir);
    await store.set("v3/records/aa/one", Uint8Array.of(1, 2, 3));
    await store.set("v3/records/bb/two", enc.encode("hello"));
    await store.flush();
    const names = fs.readdirSync(path.join(dir, "v3", "records"));
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(/^cs-0000000001-[a-z0-9]+\.pack$/);
    const written = new Uint8Array(fs.readFileSync(path.join(dir, "v3", "records", names[0]!)));
    const want = handMadePack(1, [
      { key: "v3/records/aa/one", value: Uint8Array.of(1, 2, 3) },
      { key: "v3/records/bb/two", value: enc.encode("hello") },
    ]);
    expect(Buffer.from(written).toString("hex")).toBe(Buffer.from(want).toString("hex"));
  });

  it("reads a folder of packs made to the documented format: later packs over earlier ones, deletes hide", async () => {
    const dir = path.join(tempDir(), "cache");
    await new NodeStore(dir).set("v3/snapshot.json", enc.encode("{}"));
    const records = path.join(dir, "v3", "records");
    fs.mkdirSync(records);
    const put = (seq: number, ops: { key: string; value?: Uint8Array }[]) =>
      fs.writeFileSync(path.join(records, `cs-${String(seq).padStart(10, "0")}-abc.pack`), handMadePack(seq, ops));
    put(6, [
      { key: "v3/records/aa/one", value: enc.encode("old") },
      { key: "v3/records/bb/two", value: enc.encode("two") },
    ]);
    put(7, [{ key: "v3/records/aa/one", value: enc.encode("new") }, { key: "v3/records/bb/two" }]);
    const store = new NodeStore(dir);
    expect(dec.decode(await store.get("v3/records/aa/one"))).toBe("new");
    expect(await store.get("v3/records/bb/two")).toBeUndefined();
    expect(await store.keys("v3/records/")).toEqual(["v3/records/aa/one"]);
    // The next pack follows the highest sequence found.
    await store.set("v3/records/cc/three", enc.encode("3"));
    await store.flush();
    expect(fs.readdirSync(records).filter((n) => n.startsWith("cs-0000000008-"))).toHaveLength(1);
  });

  it("a packed key too long for a pack's table (16-bit lengths) is refused, as in OPFS; the batch beside it lands", async () => {
    // The disk store once queued it, wrote a pack whose table could not be read back, and failed
    // every flush after with a TypeError: the check lived only in the OPFS store's copy.
    const dir = path.join(tempDir(), "cache");
    const store = new NodeStore(dir);
    await store.set(recordKey(1), value(1));
    await expect(store.set(`v3/records/${"a".repeat(70_000)}`, value(2))).rejects.toMatchObject({
      code: "invalid_argument",
    });
    await store.flush();
    expect(await new NodeStore(dir).keys("v3/records/")).toEqual([recordKey(1)]);
  });

  it("a damaged pack reads as absent and is removed; the other packs stay", async () => {
    const dir = path.join(tempDir(), "cache");
    const store = new NodeStore(dir);
    for (let i = 0; i < 70; i++) await store.set(recordKey(i), value(i));
    await store.flush();
    const [first, second] = packsIn(path.join(dir, "v3", "records"));
    const bytes = fs.readFileSync(first!.file);
    bytes[40] = bytes[40]! ^ 0xff; // inside the table: its CRC fails
    fs.writeFileSync(first!.file, bytes);
    const again = new NodeStore(dir);
    for (let i = 0; i < 70; i++) expect(await again.get(recordKey(i))).toEqual(i < 64 ? undefined : value(i));
    expect(fs.existsSync(first!.file)).toBe(false);
    expect(fs.existsSync(second!.file)).toBe(true);
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
