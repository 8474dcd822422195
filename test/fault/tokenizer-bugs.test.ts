/**
 * Long words in source files: a data literal, a run of "=" or of spaces. Counting their tokens was
 * quadratic in the word's length; it is linear now (core/budget/tokenizer.ts, linearCounter).
 */
import { describe, expect, it } from "vitest";
import { memoryEngine } from "../support/platform.ts";

/** 400 small functions (so the file is not taken for minified) and one string literal of `n` x's. */
function withLongWord(n: number): string {
  const body = Array.from({ length: 400 }, (_, i) => `def f${i}(x):\n    return x + ${i}\n\n\n`).join("");
  return `${body}BANNER = "${"x".repeat(n)}"\n`;
}

async function contextMs(n: number): Promise<number> {
  const { engine } = memoryEngine({ "a.py": withLongWord(n) });
  await engine.index();
  const started = performance.now();
  await engine.context("a.py", { budget: 8000 });
  return performance.now() - started;
}

describe("a file with a long word", () => {
  // Was a bug (fixed): token counting is quadratic in the length of a word the tokenizer's pre-split cannot break (gpt-tokenizer's BPE on "xxxx…", "====…", long space runs; base64 too, less so): `codeslice context a.py` on a 113 KB file with one 100,000-character string literal takes 14.5 CPU-s (a 300,000-character one would take minutes; the MCP server counts each answer twice).
  it("context of the file costs about linear time in the literal's length", async () => {
    await contextMs(1_000); // wasm and tokenizer loaded
    const short = await contextMs(10_000);
    const long = await contextMs(40_000);
    // Linear: ×4; quadratic: ×16 (measured 269 ms → 2,868 ms).
    expect(long, `10,000 chars: ${short.toFixed(0)} ms, 40,000 chars: ${long.toFixed(0)} ms`).toBeLessThan(
      8 * short + 300,
    );
  }, 120_000);
});
