/** The zip reader against well-formed, hostile and broken archives, in Chromium (DecompressionStream). */
import { describe, expect, it } from "vitest";
import { packTree, unpackTree } from "../../src/platform/browser/uploads.ts";
import { unzip } from "../../src/platform/browser/zip.ts";
import { makeZip } from "./support/zip-writer.ts";

const text = (b: Uint8Array | undefined) => new TextDecoder().decode(b);

describe("unzip", () => {
  it("reads stored and deflated entries, and takes a shared top folder as the root", async () => {
    const big = "def f():\n    return 1\n".repeat(200);
    const zip = await makeZip([
      { name: "proj-main/app/a.py", data: big },
      { name: "proj-main/README.md", data: "hi", deflate: false },
      { name: "proj-main/empty.txt", data: "" },
    ]);
    const r = await unzip(zip, { name: "proj.zip" });
    expect(r.stripped).toBe("proj-main");
    expect(Object.keys(r.files).sort()).toEqual(["README.md", "app/a.py", "empty.txt"]);
    expect(text(r.files["app/a.py"])).toBe(big);
    expect(text(r.files["README.md"])).toBe("hi");
    expect(r.totalBytes).toBe(big.length + 2);
  });

  it("not a zip: a clear not_a_zip error naming the file", async () => {
    await expect(
      unzip(new TextEncoder().encode("just some text, certainly not an archive"), { name: "notes.zip" }),
    ).rejects.toMatchObject({ code: "invalid_argument", data: { reason: "not_a_zip", name: "notes.zip" } });
    await expect(unzip(new Uint8Array(0), { name: "empty.zip" })).rejects.toMatchObject({
      data: { reason: "not_a_zip" },
    });
    await expect(unzip(new Uint8Array(0), { name: "empty.zip" })).rejects.toThrow(/empty\.zip is not a zip archive/);
  });

  it("a truncated archive is damaged_zip", async () => {
    const zip = await makeZip([{ name: "a.py", data: "x = 1\n".repeat(100) }]);
    const cut = zip.slice(0, 20);
    const tail = zip.slice(zip.length - 22);
    const broken = new Uint8Array(cut.length + tail.length);
    broken.set(cut);
    broken.set(tail, cut.length);
    await expect(unzip(broken, { name: "cut.zip" })).rejects.toMatchObject({ data: { reason: "damaged_zip" } });
  });

  it("a zip bomb with honest headers is refused before inflating (too_large)", async () => {
    const zip = await makeZip([{ name: "zeros.bin.txt", data: new Uint8Array(64 * 1024 * 1024) }]);
    expect(zip.length).toBeLessThan(200_000);
    await expect(unzip(zip, { name: "bomb.zip", maxTotalBytes: 32 * 1024 * 1024 })).rejects.toMatchObject({
      data: { reason: "too_large", name: "bomb.zip" },
    });
    await expect(unzip(zip, { name: "bomb.zip", maxTotalBytes: 1024 * 1024 })).rejects.toThrow(
      /bomb\.zip unpacks to more than 1\.0 MiB/,
    );
  });

  it("a zip bomb that lies about its size stops inflating at the declared size", async () => {
    const zip = await makeZip([{ name: "liar.py", data: new Uint8Array(8 * 1024 * 1024), declaredSize: 1000 }]);
    await expect(unzip(zip, { name: "liar.zip" })).rejects.toMatchObject({ data: { reason: "damaged_zip" } });
    await expect(unzip(zip, { name: "liar.zip" })).rejects.toThrow(/zip bomb/);
  });

  it("too many files: too_many_files with the count and the limit", async () => {
    const entries = Array.from({ length: 50 }, (_, i) => ({ name: `f${i}.py`, data: "", deflate: false }));
    const zip = await makeZip(entries);
    await expect(unzip(zip, { name: "many.zip", maxFiles: 10 })).rejects.toMatchObject({
      data: { reason: "too_many_files", files: 50 },
    });
  });

  it("entries that escape the root, links, large and binary files are skipped and listed", async () => {
    const zip = await makeZip([
      { name: "ok.py", data: "x = 1\n" },
      { name: "../evil.py", data: "import os\n" },
      { name: "/abs.py", data: "x\n" },
      { name: "link.py", data: "ok.py", unixMode: 0o120777 },
      { name: "big.py", data: "#".repeat(2000) },
      { name: "logo.png", data: new Uint8Array([137, 80, 78, 71]) },
    ]);
    const r = await unzip(zip, { name: "mixed.zip", maxFileBytes: 1000 });
    expect(Object.keys(r.files)).toEqual(["ok.py"]);
    const reasons = Object.fromEntries(r.skipped.map((s) => [s.path, s.reason]));
    expect(reasons).toEqual({
      "../evil.py": "unsafe_path",
      "/abs.py": "unsafe_path",
      "link.py": "symlink",
      "big.py": "too_large",
      "logo.png": "binary",
    });
  });

  it("stops when aborted", async () => {
    const zip = await makeZip(Array.from({ length: 20 }, (_, i) => ({ name: `f${i}.py`, data: "x = 1\n".repeat(50) })));
    const controller = new AbortController();
    controller.abort();
    await expect(unzip(zip, { signal: controller.signal })).rejects.toMatchObject({ code: "cancelled" });
  });
});

describe("packTree", () => {
  it("round-trips a tree, bytes and order intact (integer-like names included)", () => {
    const files = {
      "b.py": new Uint8Array([1, 2, 3]),
      "a/x.ts": new TextEncoder().encode("é\n"),
      empty: new Uint8Array(0),
      "10": new Uint8Array([9]),
    };
    const back = unpackTree(packTree(files));
    expect(Object.keys(back)).toEqual(Object.keys(files));
    for (const [k, v] of Object.entries(files)) expect(back[k]).toEqual(v);
    expect(() => unpackTree(new TextEncoder().encode("nope"))).toThrow(/not a codeslice tree pack/);
  });
});
