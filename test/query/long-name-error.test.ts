/**
 * A name nothing defines, thousands of characters long (a pasted blob, a runaway script), is named in the error cut
 * to its first 200 characters and its length: `callers AAAA…` (5,000 characters) on jsoup echoed all 5,000 back.
 */
import { describe, expect, it } from "vitest";
import { errorOf, memoryEngine } from "../support/platform.ts";

const FILES = { "app/util.py": "def helper():\n    return 1\n" };

describe("an unknown name that is very long", () => {
  it("is quoted cut in the error, with its length", async () => {
    const { engine } = memoryEngine(FILES);
    const name = `Helper${"A".repeat(5000)}`;
    for (const ask of [() => engine.callers(name), () => engine.context(name)]) {
      const e = await errorOf(ask());
      expect(e.code).toBe("unknown_symbol");
      expect(e.message.length).toBeLessThan(400);
      expect(e.message).toContain("(5006 characters)");
    }
  });
});
