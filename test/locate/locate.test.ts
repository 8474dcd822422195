/**
 * `locate` on bug reports: a traceback from an installed copy maps into the project, a traceback
 * from the reporter's own script still finds the code through its words and error, a long report
 * is read whole, names and paths the task gives count, tests and docs rank below source, and the
 * top ten fit in 600 tokens.
 */
import { describe, expect, it } from "vitest";
import { createEngine } from "../../src/core/engine/engine.ts";
import { EngineError } from "../../src/shared/errors.ts";
import { loadTokenCounter } from "../../src/core/budget/tokenizer.ts";
import { MemoryFileSystem, MemoryStore } from "../../src/platform/memory/index.ts";
import { parseFixture, wasm } from "../support/platform.ts";

const FIXTURE = `
//- src/ledger/__init__.py
from ledger.money import Money
//- src/ledger/errors.py
class LedgerError(Exception):
    """Base of the ledger's errors."""


class CurrencyMismatch(LedgerError, ValueError):
    """Two amounts in different currencies were combined."""
//- src/ledger/money.py
from ledger.errors import CurrencyMismatch


class Money:
    def __init__(self, amount, currency):
        self.amount = amount
        self.currency = currency

    def __add__(self, other):
        if other.currency != self.currency:
            raise CurrencyMismatch("cannot add amounts in different currencies")
        return Money(self.amount + other.amount, self.currency)

    def split(self, parts):
        share = self.amount // parts
        return [Money(share, self.currency) for _ in range(parts)]
//- src/ledger/parse.py
from ledger.money import Money


def parse_amount(text, default_currency="EUR"):
    """Reads '12.50 EUR' into Money."""
    number, _, currency = text.partition(" ")
    try:
        value = float(number)
    except ValueError:
        raise ValueError(f"unparseable amount: {text!r}")
    return Money(value, currency or default_currency)
//- src/ledger/report.py
def render_report(entries, width=80):
    lines = []
    for entry in entries:
        lines.append(str(entry).ljust(width))
    return "\\n".join(lines)


def column_widths(rows):
    return [max(len(c) for c in col) for col in zip(*rows)]
//- tests/test_money.py
from ledger.money import Money
from ledger.parse import parse_amount


def test_add_currency_mismatch_amount_parse():
    Money(1, "EUR") + Money(1, "EUR")
    parse_amount("1 EUR")
//- docs/examples/amounts.py
from ledger.parse import parse_amount

# parse amounts, unparseable amount text, currency amounts parse parse
print(parse_amount("12.50 EUR"))
`;

function engine() {
  return createEngine({ fs: new MemoryFileSystem(parseFixture(FIXTURE), "/repo"), store: new MemoryStore(), wasm });
}

const files = async (task: string) => (await engine().locate(task)).files.map((f) => f.path);

describe("locate", () => {
  it("maps a traceback from an installed copy into the project by path suffix", async () => {
    const task = `Adding amounts fails\n\n\`\`\`\nTraceback (most recent call last):\n  File "/home/me/run.py", line 3, in <module>\n    total = a + b\n  File "/opt/venv/lib/python3.11/site-packages/ledger/money.py", line 11, in __add__\n    raise CurrencyMismatch("x")\nledger.errors.CurrencyMismatch: cannot add amounts in different currencies\n\`\`\``;
    const a = await engine().locate(task);
    expect(a.files[0]!.path).toBe("src/ledger/money.py");
    expect(a.files[0]!.why.join(" ")).toContain("innermost frame :11");
    expect(a.files[0]!.symbols[0]!.qualified).toBe("ledger.money.Money.__add__");
    expect(a.read.framesInProject).toBe(1);
  });

  it("finds the code through a trace that is all in the reporter's script", async () => {
    const task = `Traceback (most recent call last):\n  File "/home/me/report_tool.py", line 40, in main\n    amount = load(row)\n  File "/home/me/report_tool.py", line 12, in load\nValueError: unparseable amount: '12,50 EUR'`;
    // Before, context answered no_match ("None of the trace's 2 frames is in this project").
    const a = await engine().locate(task);
    expect(a.files[0]!.path).toBe("src/ledger/parse.py");
    // The message's literal run, found where the code formats it.
    expect(a.files[0]!.why.join(" ")).toContain('says "unparseable amount"');
    expect(a.files[0]!.symbols[0]!.qualified).toBe("ledger.parse.parse_amount");
    const c = await engine().context(task, { budget: 2000 });
    expect(c.chunks[0]!.path).toBe("src/ledger/parse.py");
  });

  it("reads a long report whole: past 10,000 characters and the key line at the end", async () => {
    const noise = "The nightly job prints many lines of its own progress here. ".repeat(400);
    const task = `Report is cut\n\n${noise}\n\nIn the end \`column_widths\` fails on rows of different lengths.`;
    expect(task.length).toBeGreaterThan(20_000);
    expect((await files(task))[0]).toBe("src/ledger/report.py");
  });

  it("puts tests and docs below the source they exercise", async () => {
    const list = await files("parse amount fails for an unparseable amount with a currency");
    expect(list[0]).toBe("src/ledger/parse.py");
    expect(list.indexOf("tests/test_money.py")).toBeGreaterThan(0);
    expect(list.indexOf("docs/examples/amounts.py")).toBeGreaterThan(0);
  });

  it("answers ten files within 600 tokens, with evidence and symbols", async () => {
    const a = await engine().locate("money currency amount parse report render split widths ledger error");
    const count = await loadTokenCounter("o200k_base");
    expect(count(a.text)).toBeLessThanOrEqual(600);
    expect(a.usage.tokens).toBe(count(a.text));
    for (const f of a.files) expect(f.why.length + f.symbols.length).toBeGreaterThan(0);
  });

  it("says no_match only when nothing matches anything", async () => {
    const err = await engine().locate("zeppelin quokka marmalade").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EngineError);
    expect((err as EngineError).code).toBe("no_match");
  });
});
