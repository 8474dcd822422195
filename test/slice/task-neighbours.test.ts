/**
 * A task in words (issue 21: the gold function in `context` at 8,000 tokens on bug reports): the
 * seeds' neighbours the task's words also point at come first in their hop, so a seed with many
 * callees shows the one the report is about before the others fill the budget.
 */
import { describe, expect, it } from "vitest";
import { createEngine } from "../../src/core/engine/engine.ts";
import { MemoryFileSystem, MemoryStore } from "../../src/platform/memory/index.ts";
import { planContext } from "../../src/core/slice/plan.ts";
import { parseFixture, wasm } from "../support/platform.ts";

const helpers = ["load_rows", "merge_rows", "sort_rows", "drop_empty", "pad_columns", "strip_cells", "page_rows"];

const FIXTURE = `
//- src/ledger/__init__.py
//- src/ledger/report.py
from ledger.util import ${helpers.join(", ")}, format_currency_total


def build_report(path):
    """The ledger report of a file: its rows, cleaned, and the currency total."""
    rows = load_rows(path)
${helpers
  .slice(1)
  .map((h) => `    rows = ${h}(rows)`)
  .join("\n")}
    return rows, format_currency_total(rows)
//- src/ledger/util.py
${helpers.map((h) => `def ${h}(rows):\n    out = []\n    for r in rows:\n        out.append(r)\n    return out\n`).join("\n\n")}

def format_currency_total(rows):
    """Sum of the amounts, with two decimals."""
    total = sum(r.amount for r in rows)
    return f"{total:.2f}"
`;

function engine() {
  return createEngine({
    fs: new MemoryFileSystem(parseFixture(FIXTURE), "/home/dev/ledger"),
    store: new MemoryStore(),
    wasm,
  });
}

describe("a task's neighbours", () => {
  it("the callee the task's words point at comes first among the seed's callees", async () => {
    const e = engine();
    await e.index();
    const graph = await e.codeGraph();
    const id = (q: string) => graph.symbols.find((s) => s.qualified === q)!.id;
    const seed = id("ledger.report.build_report");
    const callees = (relevance?: Map<number, number>) =>
      planContext(graph, [seed], relevance ? { relevance } : {})
        .filter((c) => c.role === "callee")
        .map((c) => c.label);
    // Without a task, the call graph's order: equally confident, so as the project defines them.
    expect(callees()).toEqual([...helpers, "format_currency_total"].map((h) => `ledger.util.${h}`));
    // A task that points at the last one (and weakly at another) puts them first, the stronger first.
    const relevance = new Map([
      [id("ledger.util.format_currency_total"), 0.3],
      [id("ledger.util.drop_empty"), 0.15],
    ]);
    expect(callees(relevance).slice(0, 3)).toEqual([
      "ledger.util.format_currency_total",
      "ledger.util.drop_empty",
      "ledger.util.load_rows",
    ]);
    e.close();
  });
});
