/**
 * The one fitter on blocks made up here: the budget invariant (the reported count is a recount of
 * the text, and text + envelope never pass the budget), priorities, outlines, covered blocks, the
 * cut list, prefix lists, and `budget_too_small` with a budget that then suffices.
 */
import { describe, expect, it } from "vitest";
import { clipText, fitBlocks, fitPrefix, type Block, type FitSpec } from "../../src/core/budget/fit.ts";
import { loadTokenCounter } from "../../src/core/budget/tokenizer.ts";
import { isEngineError } from "../../src/shared/errors.ts";

const count = await loadTokenCounter("o200k_base");

/** A block of `lines` lines named `name`, with a one-line outline and a cut entry. */
function block(name: string, lines: number, extra: Partial<Block> = {}): Block {
  const body = Array.from({ length: lines }, (_, i) => `    ${name}_${i} = compute(${i}, "${name}")`).join("\n");
  return {
    full: `## ${name}\n\`\`\`py\ndef ${name}():\n${body}\n\`\`\``,
    outline: `## ${name} (outline)\n\`\`\`py\ndef ${name}(): ...\n\`\`\``,
    listed: (tokens) => `- ${name} (${tokens} tokens)`,
    ...extra,
  };
}

/** A context-like answer: header, blocks, cut list and a usage line that reports its own count. */
function spec(blocks: Block[], budget: number, more: Partial<FitSpec> = {}): FitSpec {
  return {
    header: "# answer\nSeed: a",
    blocks,
    budget,
    count,
    cutList: { title: (n) => `## Cut: ${n} left out`, more: (n) => `- … and ${n} more` },
    footer: (s) => `-- ${s.tokens}/${s.budget} tokens`,
    ...more,
  };
}

const BLOCKS = [
  block("a", 12, { required: true }),
  block("b", 30),
  block("c", 3),
  block("d", 60, { outlineOnly: true }),
  block("e", 8),
  block("f", 2, { listOnly: true }),
  block("g", 20),
];

describe("fitBlocks", () => {
  it("never passes the budget, with or without an envelope, and reports the exact count", () => {
    for (const envelope of [0, 37]) {
      const withEnvelope = BLOCKS.map((b) => ({ ...b, envelope: envelope ? { full: 9, outline: 5, listed: 4 } : {} }));
      for (let budget = 20; budget <= 2200; budget += 23) {
        try {
          const fit = fitBlocks(spec(withEnvelope, budget, { envelope }));
          expect(fit.tokens, `@${budget}`).toBe(count(fit.text));
          expect(fit.tokens + fit.envelope, `@${budget}`).toBeLessThanOrEqual(budget);
          expect(fit.text, `@${budget}`).toContain(`-- ${fit.tokens}/${budget} tokens`);
          expect(fit.forms[0], `@${budget}: the required block is there`).not.toBe("cut");
          expect(fit.forms[5], "list-only").toBe("cut");
          expect(fit.forms[3], "outline-only").not.toBe("full");
          // The envelope is the fixed part plus what the chosen forms and listed entries add.
          const expected =
            envelope +
            fit.forms.reduce((a, f) => a + (envelope ? (f === "full" ? 9 : f === "outline" ? 5 : 0) : 0), 0) +
            (envelope ? 4 * fit.listed : 0);
          expect(fit.envelope, `@${budget}`).toBe(expected);
        } catch (error) {
          if (!isEngineError(error, "budget_too_small")) throw error;
          expect(error.data.needed).toBeGreaterThan(budget);
          // The budget it names is enough.
          const again = fitBlocks(spec(withEnvelope, error.data.needed, { envelope }));
          expect(again.tokens + again.envelope).toBeLessThanOrEqual(error.data.needed);
        }
      }
    }
  });

  it("takes blocks by priority, renders them in their own order, and spends the slack", () => {
    const blocks = [
      block("low", 5, { priority: 9 }),
      block("high", 5, { priority: 1 }),
      block("mid", 5, { priority: 5 }),
    ];
    const one = count(blocks[1]!.full);
    const fit = fitBlocks({ header: "# h", blocks, budget: count("# h") + one + 6, count, separator: "\n" });
    expect(fit.forms).toEqual(["cut", "full", "cut"]);
    const all = fitBlocks({ header: "# h", blocks, budget: 10_000, count, separator: "\n" });
    expect(all.text.indexOf("## low")).toBeLessThan(all.text.indexOf("## high"));
    expect(all.omitted).toBe(0);
  });

  it("falls back to outlines, lists the rest with their cost, and leaves out what a shown block covers", () => {
    const blocks = [block("outer", 10, { required: true }), block("inner", 3, { within: [0] }), block("next", 40)];
    const wide = fitBlocks(spec(blocks, 5000));
    expect(wide.forms).toEqual(["full", "covered", "full"]);
    const narrow = fitBlocks(spec(blocks, 260));
    expect(narrow.forms[2]).not.toBe("full");
    if (narrow.forms[2] === "cut") expect(narrow.text).toContain(`- next (${narrow.fullTokens(2)} tokens)`);
    const tight = fitBlocks(spec(blocks, count(blocks[0]!.outline!) + 40));
    expect(tight.forms[0]).toBe("outline");
    expect(tight.forms[1]).toBe("cut"); // its container is only an outline now
  });

  it("keeps a prefix of a list: nothing after an entry that did not fit, and the footer counts the rest", () => {
    const entries: Block[] = Array.from({ length: 300 }, (_, i) => ({
      full: `- entry ${i} ${"word ".repeat(i % 7)}`,
      envelope: { full: 6 },
    }));
    for (const budget of [30, 200, 900, 5000]) {
      const fit = fitBlocks({
        header: "300 results:",
        blocks: entries,
        budget,
        count,
        separator: "\n",
        prefix: true,
        envelope: 11,
        footer: (s) => (s.omitted ? `${s.omitted} more not shown` : ""),
      });
      const shown = fit.forms.filter((f) => f === "full").length;
      expect(fit.forms.slice(0, shown).every((f) => f === "full")).toBe(true);
      expect(fit.omitted).toBe(300 - shown);
      expect(fit.tokens + fit.envelope).toBeLessThanOrEqual(budget);
      expect(fit.envelope).toBe(11 + 6 * shown);
      if (fit.omitted) expect(fit.text).toContain(`${fit.omitted} more not shown`);
    }
  });

  it("says what the smallest answer needs when even that does not fit", () => {
    let caught: unknown;
    try {
      fitBlocks({ ...spec([block("a", 50, { required: true, outline: undefined })], 30), smallest: "the target" });
    } catch (error) {
      caught = error;
    }
    expect(isEngineError(caught, "budget_too_small")).toBe(true);
    if (!isEngineError(caught, "budget_too_small")) return;
    expect(caught.data).toMatchObject({ budget: 30 });
    expect(caught.data.seedTokens).toBeGreaterThan(30);
    expect(caught.message).toContain("the target");
    expect(caught.hint).not.toMatch(/codeslice |--[a-z]/);
  });

  it("fitPrefix keeps the most entries whose whole answer fits, rendering only what the search asks for", () => {
    // An answer of k entries: a 10-token header plus 7 tokens per entry.
    const rendered: number[] = [];
    const render = (k: number) => {
      rendered.push(k);
      return { k, cost: 10 + 7 * k };
    };
    const cost = (a: { cost: number }) => a.cost;
    expect(fitPrefix(20, render, cost, 200)).toEqual({ k: 20, answer: { k: 20, cost: 150 }, fits: true });
    expect(rendered).toEqual([20]);
    rendered.length = 0;
    // 10 + 7k <= 60 holds up to k = 7.
    expect(fitPrefix(20, render, cost, 60)).toEqual({ k: 7, answer: { k: 7, cost: 59 }, fits: true });
    expect(rendered.length).toBeLessThanOrEqual(7);
    expect(fitPrefix(20, render, cost, 16)).toEqual({ k: 0, answer: { k: 0, cost: 10 }, fits: true });
    expect(fitPrefix(20, render, cost, 9)).toEqual({ k: 0, answer: { k: 0, cost: 10 }, fits: false });
    expect(fitPrefix(0, render, cost, 9)).toEqual({ k: 0, answer: { k: 0, cost: 10 }, fits: false });
  });

  it("a full form marked fullAfterTrailing enters after the trailing blocks: a huge seed's body no longer keeps what a smaller budget has room for", () => {
    const GROWTH = { outline: 0.2, full: 1 / 3, required: 2 / 3, longFull: 400 };
    // Trailing blocks of about 700 tokens each, with no shorter form.
    const trailing = ["t1", "t2", "t3", "t4", "t5", "t6"].map((n) => {
      const { outline: _, ...whole } = block(n, 60, { trailing: true });
      return whole;
    });
    const blocks = (deferred: boolean) => [
      block("seed", 400, { required: true, ...(deferred ? { fullAfterTrailing: true } : {}) }),
      block("b", 8),
      block("c", 8),
      ...trailing,
    ];
    const budgets = [600, 900, 1200, 2000, 4000, 8000, 12_000, 16_000, 24_000, 32_000];
    const fits = (deferred: boolean) =>
      budgets.map((budget) => fitBlocks(spec(blocks(deferred), budget, { monotone: GROWTH })));
    const shown = (f: ReturnType<typeof fitBlocks>) => f.forms.map((form) => form !== "cut" && form !== "covered");
    for (const deferred of [false, true]) {
      const all = fits(deferred);
      // Budgets only add either way: what a budget shows, every larger one shows, and a full form stays full.
      for (let k = 1; k < all.length; k++)
        all[k - 1]!.forms.forEach((form, i) => {
          if (form !== "cut") expect(shown(all[k]!)[i], `${deferred} ${budgets[k]} block ${i}`).toBe(true);
          if (form === "full") expect(all[k]!.forms[i]).toBe("full");
          expect(all[k]!.tokens).toBeLessThanOrEqual(budgets[k]!);
        });
    }
    const before = fits(false);
    const after = fits(true);
    const seedFull = (all: ReturnType<typeof fitBlocks>[]) => all.findIndex((f) => f.forms[0] === "full");
    const allTrailing = (all: ReturnType<typeof fitBlocks>[]) => all.findIndex((f) => shown(f).every(Boolean));
    // Without the mark the seed's body (about 7,000 tokens) enters first and the trailing blocks wait for the room
    // left beside it; with it, every trailing block is in before the seed shows whole.
    expect(seedFull(before)).toBeGreaterThan(-1);
    expect(allTrailing(before)).toBeGreaterThanOrEqual(seedFull(before));
    expect(allTrailing(after)).toBeGreaterThan(-1);
    expect(allTrailing(after)).toBeLessThan(seedFull(after) === -1 ? Infinity : seedFull(after));
  });

  it("clips a line longer than any budget by characters", () => {
    const line = "x1y2z3 ".repeat(5000);
    const clipped = clipText(line, 100, count);
    expect(count(clipped)).toBeLessThanOrEqual(100);
    expect(count(clipped)).toBeGreaterThan(80);
    expect(clipped.endsWith("…")).toBe(true);
  });
});
