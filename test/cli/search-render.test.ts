/**
 * `codeslice search` quotes the query back at most 80 characters long (tryit6, on fzf: a 5,000-character query that
 * matched nothing was printed back whole), with the hits of a real engine.
 */
import { describe, expect, it } from "vitest";
import { renderSearch } from "../../src/cli/render.ts";
import { memoryEngine } from "../support/platform.ts";

describe("search on the terminal", () => {
  it("quotes a long query cut at 80 characters, a short one whole", async () => {
    const { engine } = memoryEngine({ "shop/cart.py": "def add_item(cart, item):\n    return cart\n" });
    const long = `add item ${"zzz ".repeat(1250)}`;
    const none = renderSearch(long, []);
    expect(none.length).toBeLessThan(120);
    expect(none).toContain("…");
    const hits = await engine.search("add item");
    expect(hits.length).toBeGreaterThan(0);
    expect(renderSearch("add item", hits)).toMatch(/for "add item":/);
    expect(renderSearch(long, hits).split("\n")[0]!.length).toBeLessThan(120);
  });
});
