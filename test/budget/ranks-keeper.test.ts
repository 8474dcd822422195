// The tokenizer's tables kept in the index cache (core/engine/ranks-keeper.ts): they read back as
// the package's own tables, make an encoder that counts as the package does, and anything damaged,
// cut, of another build or of another encoding reads as absent. Through the CLI: a call whose
// tables came from the cache answers byte for byte as the call that imported them, and a damaged
// value is replaced.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { GptEncoding } from "gpt-tokenizer/GptEncoding";
import o200k from "gpt-tokenizer/bpeRanks/o200k_base";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { afterAll, describe, expect, it } from "vitest";
import { decodeRanks, encodeRanks, ranksKey } from "../../src/core/engine/ranks-keeper.ts";
import { seal, unseal } from "../../src/core/engine/seal.ts";
import { spawnSync } from "node:child_process";
import { cliPath, ensureBuilt } from "../fault/run.ts";

const ranks = o200k as unknown as readonly unknown[];
const texts = [
  "def send(self, request, **kwargs) -> Response:",
  "Übergrößenträger 🚀 naïve café — “quotes” 日本語のテキスト",
  "  \t\n\n  x = {'a': [1, 2, 3]}  # comment\r\n",
  `${"long_identifier_".repeat(50)} ${"0123456789".repeat(30)}`,
  "",
];

describe("the kept tokenizer tables", () => {
  it("read back as the package's own, binary tokens included", () => {
    const back = decodeRanks(encodeRanks("b1", "o200k_base", ranks), "b1", "o200k_base")!;
    expect(back.length).toBe(ranks.length);
    expect(back).toEqual(ranks);
    expect(back.filter((r) => typeof r !== "string").length).toBeGreaterThan(1000);
  });

  it("make an encoder that counts as the package's", () => {
    const back = decodeRanks(encodeRanks("b1", "o200k_base", ranks), "b1", "o200k_base")!;
    const api = GptEncoding.getEncodingApi("o200k_base", () => back as never);
    for (const t of texts) expect(api.countTokens(t), t.slice(0, 30)).toBe(countTokens(t));
  });

  it("keep holes as holes", () => {
    const holey: unknown[] = ["a", "b", [255], "c"];
    delete holey[1];
    const back = decodeRanks(encodeRanks("b", "o200k_base", holey), "b", "o200k_base")!;
    expect(back).toHaveLength(4);
    expect(1 in back).toBe(false);
    expect([back[0], back[2], back[3]]).toEqual(["a", [255], "c"]);
  });

  it("read as absent when damaged, cut, of another build or encoding, or lying about their size", () => {
    const good = encodeRanks("b1", "o200k_base", ranks.slice(0, 5000));
    expect(decodeRanks(good, "b1", "o200k_base")).toHaveLength(5000);
    expect(decodeRanks(good, "b2", "o200k_base")).toBeUndefined();
    expect(decodeRanks(good, "b1", "cl100k_base")).toBeUndefined();
    const flipped = good.slice();
    flipped[2000]! ^= 4;
    expect(decodeRanks(flipped, "b1", "o200k_base")).toBeUndefined();
    expect(decodeRanks(good.subarray(0, 3000), "b1", "o200k_base")).toBeUndefined();
    const inner = unseal(good)!;
    const text = new TextDecoder().decode(inner);
    // a header that claims more ranks than there are lengths and text for: resealed, so only the shape check sees it
    const lying = seal(new TextEncoder().encode(text.replace('"count":5000', '"count":5001')));
    expect(decodeRanks(lying, "b1", "o200k_base")).toBeUndefined();
    const cutText = seal(inner.subarray(0, inner.length - 1));
    expect(decodeRanks(cutText, "b1", "o200k_base")).toBeUndefined();
  });
});

describe("through the CLI", () => {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-ranks-"));
  afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

  it("a call on kept tables answers as the call that imported them; a damaged value is replaced", () => {
    ensureBuilt();
    const root = path.join(base, "project");
    fs.mkdirSync(path.join(root, "shop"), { recursive: true });
    fs.writeFileSync(
      path.join(root, "shop", "cart.py"),
      'class Cart:\n    def total(self):\n        """Sums the prices."""\n        return sum(self.prices)\n\n' +
        "def checkout(cart):\n    return cart.total()\n",
    );
    const cache = path.join(base, "cache");
    // In-process calls (no warm server): each one loads the tokenizer afresh.
    const env = { ...process.env, CODESLICE_NO_SERVER: "1" };
    const args = ["locate", "checkout sums the cart total wrongly", "--root", root, "--cache-dir", cache, "--json"];
    const run = () => spawnSync(process.execPath, [cliPath, ...args], { env, encoding: "utf8" });
    const first = run();
    expect(first.status, first.stderr).toBe(0);
    const kept = fs
      .readdirSync(cache, { recursive: true })
      .map(String)
      .find((f) => f.endsWith(".bin") && f.includes("tokenizer"));
    expect(kept, fs.readdirSync(cache, { recursive: true }).join(", ")).toBe(ranksKey("o200k_base"));
    const file = path.join(cache, kept!);
    const written = fs.readFileSync(file);
    const second = run();
    expect(second.stdout).toBe(first.stdout);
    expect(fs.readFileSync(file).equals(written)).toBe(true);
    const damaged = Buffer.from(written);
    damaged[written.length >> 1]! ^= 1;
    fs.writeFileSync(file, damaged);
    const third = run();
    expect(third.stdout).toBe(first.stdout);
    expect(fs.readFileSync(file).equals(written)).toBe(true);
  }, 120_000);
});
