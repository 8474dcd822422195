/**
 * A long class's outline grows with the budget: between the brief and the whole outline there are briefs of sizes in
 * between, so a budget shows as many of the class's members as its share allows (the ones that matter first, the
 * rest counted) instead of dropping to a fixed brief far below it, and the rest of the budget goes to the chunks
 * ranked after it. A member shown at a budget stays shown at every larger one, and no outline takes more than its
 * share: the seed's two fifths of the budget, a neighbour's a fifth.
 */
import { describe, expect, it } from "vitest";
import type { ContextAnswer } from "../../src/core/slice/context.ts";
import { memoryEngine } from "../support/platform.ts";

/** A class of `n` methods named `<prefix>_<i>`, a few lines each; the first `calls` call helper_<i>. */
function longClass(name: string, prefix: string, n: number, calls: number, imports: string): string {
  const methods = Array.from(
    { length: n },
    (_, i) =>
      `    def ${prefix}_${i}(self, key: str, limit: int = 10) -> list:\n` +
      `        """Looks up ${prefix} ${i} by key, at most limit rows."""\n` +
      `        rows = self.rows.get(key, [])\n` +
      (i < calls ? `        rows = helper_${i}(rows, Ledger(limit))\n` : "") +
      `        return rows[:limit]\n`,
  );
  return (
    `${imports}\n\nclass ${name}:\n    """The ${name.toLowerCase()}: rows by key, and the lookups over them."""\n\n` +
    `    def __init__(self, rows):\n        self.rows = rows\n\n${methods.join("\n")}`
  );
}

const HELPERS = 12;
const helpers = Array.from(
  { length: HELPERS },
  (_, i) =>
    `def helper_${i}(rows, ledger):\n    """Helper ${i}: keeps the rows the ledger allows."""\n` +
    Array.from({ length: 6 }, (_, k) => `    rows = [r for r in rows if ledger.entry_${k}(r, ${i})]`).join("\n") +
    "\n    return rows\n",
).join("\n\n");

const FILES = {
  "shop/helpers.py": helpers,
  "shop/ledger.py": longClass("Ledger", "entry", 70, 0, ""),
  "shop/catalog.py": longClass(
    "Catalog",
    "lookup",
    90,
    HELPERS,
    `from shop.helpers import ${Array.from({ length: HELPERS }, (_, i) => `helper_${i}`).join(", ")}\nfrom shop.ledger import Ledger`,
  ),
};

const BUDGETS = [1000, 1500, 2000, 3000, 4000, 6000, 8000];

/** The member names an outline of `owner` lists in the answer's text (none when it is not an outline). */
function outlineMembers(a: ContextAnswer, owner: string): Set<string> {
  const start = a.text.indexOf(`] ${owner} (outline)`);
  if (start < 0) return new Set();
  const end = a.text.indexOf("\n## ", start);
  const block = a.text.slice(start, end < 0 ? undefined : end);
  return new Set([...block.matchAll(/def (\w+)\(/g)].map((m) => m[1]!));
}

describe("a long class's outline between its brief and its whole outline", () => {
  it("shows more of the class as the budget grows, within its share, and keeps what it showed", async () => {
    const { engine } = memoryEngine(FILES);
    const answers: { budget: number; a: ContextAnswer }[] = [];
    for (const budget of BUDGETS) answers.push({ budget, a: await engine.context("shop.catalog.Catalog", { budget }) });
    const seed = (a: ContextAnswer) => a.chunks.find((c) => c.role === "seed")!;
    for (const { budget, a } of answers) {
      expect(a.usage.tokens, `@ ${budget}`).toBeLessThanOrEqual(budget);
      expect(seed(a).form, `@ ${budget}`).toBe("outline");
      // The seed's outline, its note included, takes no more than two fifths of the budget.
      expect(seed(a).tokens, `seed @ ${budget}`).toBeLessThanOrEqual(budget * 0.4);
      for (const c of a.chunks.filter((x) => x.role !== "seed" && x.form === "outline"))
        expect(c.tokens, `${c.symbol} @ ${budget}`).toBeLessThanOrEqual(budget / 5);
    }
    // More members at each larger budget, the ones shown before kept; the constructor comes first.
    for (let k = 1; k < answers.length; k++) {
      const before = outlineMembers(answers[k - 1]!.a, "shop.catalog.Catalog");
      const now = outlineMembers(answers[k]!.a, "shop.catalog.Catalog");
      expect(now.size, `members @ ${answers[k]!.budget}`).toBeGreaterThan(before.size);
      for (const m of before) expect(now.has(m), `${m} shown @ ${answers[k - 1]!.budget}`).toBe(true);
    }
    const first = outlineMembers(answers[0]!.a, "shop.catalog.Catalog");
    expect(first.has("__init__")).toBe(true);
    // A neighbour class's outline grows too, and what it showed stays.
    const ledger = answers.map(({ a }) => outlineMembers(a, "shop.ledger.Ledger"));
    const shownAt = ledger.findIndex((s) => s.size > 0);
    expect(shownAt).toBeGreaterThanOrEqual(0);
    expect(ledger.at(-1)!.size).toBeGreaterThan(ledger[shownAt]!.size);
    for (let k = shownAt + 1; k < ledger.length; k++)
      for (const m of ledger[k - 1]!) expect(ledger[k]!.has(m), `Ledger.${m} @ ${BUDGETS[k]}`).toBe(true);
    // The budget is used: four fifths of it at least wherever something was left out.
    for (const { budget, a } of answers)
      if (a.cut.length) expect(a.usage.tokens, `fill @ ${budget}`).toBeGreaterThanOrEqual(budget * 0.8);
  }, 60_000);
});
