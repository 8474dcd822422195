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
import { quotedPhrases } from "../../src/core/locate/phrases.ts";
import { readTaskText } from "../../src/core/locate/task-text.ts";

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
    const err = await engine()
      .locate("zeppelin quokka marmalade")
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EngineError);
    expect((err as EngineError).code).toBe("no_match");
  });
});

// A long function that holds the task's words, beside short ones that each hold one or two of them.
const EXPORT_FIXTURE = `
//- src/export/csv.py
class CsvExporter:
    def open_sink(self, path):
        return open(path, "w")

    def write_header(self, sink, columns):
        """Writes the header row to the sink."""
        sink.write(",".join(columns) + "\\n")

    def close_sink(self, sink):
        sink.flush()
        sink.close()

    def export(self, rows, path, columns):
        sink = self.open_sink(path)
        offset_0 = offset_1 = offset_2 = 0
        width_1 = len(columns) * 1 + offset_1
        width_2 = len(columns) * 2 + offset_2
        width_3 = len(columns) * 3 + offset_0
        width_4 = len(columns) * 4 + offset_1
        width_5 = len(columns) * 5 + offset_2
        width_6 = len(columns) * 6 + offset_0
        width_7 = len(columns) * 7 + offset_1
        width_8 = len(columns) * 8 + offset_2
        width_9 = len(columns) * 9 + offset_0
        width_10 = len(columns) * 10 + offset_1
        width_11 = len(columns) * 11 + offset_2
        width_12 = len(columns) * 12 + offset_0
        width_13 = len(columns) * 13 + offset_1
        width_14 = len(columns) * 14 + offset_2
        width_15 = len(columns) * 15 + offset_0
        width_16 = len(columns) * 16 + offset_1
        width_17 = len(columns) * 17 + offset_2
        width_18 = len(columns) * 18 + offset_0
        width_19 = len(columns) * 19 + offset_1
        width_20 = len(columns) * 20 + offset_2
        width_21 = len(columns) * 21 + offset_0
        width_22 = len(columns) * 22 + offset_1
        width_23 = len(columns) * 23 + offset_2
        width_24 = len(columns) * 24 + offset_0
        width_25 = len(columns) * 25 + offset_1
        width_26 = len(columns) * 26 + offset_2
        width_27 = len(columns) * 27 + offset_0
        width_28 = len(columns) * 28 + offset_1
        width_29 = len(columns) * 29 + offset_2
        width_30 = len(columns) * 30 + offset_0
        width_31 = len(columns) * 31 + offset_1
        width_32 = len(columns) * 32 + offset_2
        width_33 = len(columns) * 33 + offset_0
        width_34 = len(columns) * 34 + offset_1
        width_35 = len(columns) * 35 + offset_2
        width_36 = len(columns) * 36 + offset_0
        width_37 = len(columns) * 37 + offset_1
        width_38 = len(columns) * 38 + offset_2
        width_39 = len(columns) * 39 + offset_0
        width_40 = len(columns) * 40 + offset_1
        width_41 = len(columns) * 41 + offset_2
        width_42 = len(columns) * 42 + offset_0
        width_43 = len(columns) * 43 + offset_1
        width_44 = len(columns) * 44 + offset_2
        width_45 = len(columns) * 45 + offset_0
        width_46 = len(columns) * 46 + offset_1
        width_47 = len(columns) * 47 + offset_2
        width_48 = len(columns) * 48 + offset_0
        width_49 = len(columns) * 49 + offset_1
        width_50 = len(columns) * 50 + offset_2
        width_51 = len(columns) * 51 + offset_0
        width_52 = len(columns) * 52 + offset_1
        width_53 = len(columns) * 53 + offset_2
        width_54 = len(columns) * 54 + offset_0
        width_55 = len(columns) * 55 + offset_1
        width_56 = len(columns) * 56 + offset_2
        width_57 = len(columns) * 57 + offset_0
        width_58 = len(columns) * 58 + offset_1
        width_59 = len(columns) * 59 + offset_2
        self.write_header(sink, columns)
        written = 0
        for row in rows:
            values = []
            for column in columns:
                value = row.get(column)
                if value is None:
                    value = ""
                values.append(str(value))
            line = ",".join(values)
            if row.get("skipped"):
                continue
            sink.write(line + "\\n")
            written += 1
        if written == 0:
            self.write_header(sink, columns)
        self.close_sink(sink)
        return written
//- src/export/units.py
def unit_inch(value):
    return value * 2

def unit_foot(value):
    return value * 3

def unit_yard(value):
    return value * 4

def unit_mile(value):
    return value * 5

def unit_gram(value):
    return value * 6

def unit_pound(value):
    return value * 7

def unit_litre(value):
    return value * 8

def unit_gallon(value):
    return value * 9

def unit_metre(value):
    return value * 10

def unit_acre(value):
    return value * 11

def unit_ounce(value):
    return value * 12

def unit_ton(value):
    return value * 13
`;

describe("locate's functions", () => {
  it("ranks a long function holding the task's words above short ones holding one each", async () => {
    // Before, the body's length normalisation put write_header first (four lines, three of the
    // words); export, the function to change, holds all of them in seventy lines.
    const e = createEngine({
      fs: new MemoryFileSystem(parseFixture(EXPORT_FIXTURE), "/repo"),
      store: new MemoryStore(),
      wasm,
    });
    const a = await e.locate(
      "CSV header written twice when every row is skipped\n\nWhen all rows are skipped the sink gets the header again.",
    );
    expect(a.files[0]!.path).toBe("src/export/csv.py");
    expect(a.files[0]!.symbols[0]!.qualified).toBe("export.csv.CsvExporter.export");
  });
});

// A recursion: the outer function's frames repeat, the innermost frame is elsewhere.
const TREE_FIXTURE = `
//- src/tree/walk.py
def walk(node, visit):
    for child in node.children:
        walk(child, visit)
    visit(node)
//- src/tree/emit.py
def emit(node):
    return node.label.upper()
`;

describe("locate's evidence", () => {
  it("counts a definition's frames once: a recursion does not outweigh the innermost frame", async () => {
    // Before, each of walk's four frames added its share, and walk.py ranked above emit.py.
    const e = createEngine({
      fs: new MemoryFileSystem(parseFixture(TREE_FIXTURE), "/repo"),
      store: new MemoryStore(),
      wasm,
    });
    const frame = (file: string, line: number, fn: string) =>
      `  File "/srv/venv/lib/python3.12/site-packages/tree/${file}", line ${line}, in ${fn}`;
    const task = [
      "Rendering crashes on a node without a label",
      "",
      "Traceback (most recent call last):",
      frame("walk.py", 3, "walk"),
      frame("walk.py", 3, "walk"),
      frame("walk.py", 3, "walk"),
      frame("walk.py", 4, "walk"),
      frame("emit.py", 2, "emit"),
      "AttributeError: 'NoneType' object has no attribute 'upper'",
    ].join("\n");
    const a = await e.locate(task);
    expect(a.files.map((f) => f.path)).toEqual(["src/tree/emit.py", "src/tree/walk.py"]);
    expect(a.files[0]!.why[0]).toBe("innermost frame :2");
  });

  it("looks up quoted messages, not quoted names", () => {
    // Before, `applyPatches` (two words to splitWords) was looked up as a message too, and every
    // file spelling it was "says".
    const task =
      'applyPatches throws\n\nCalling `applyPatches` on a draft fails with "cannot apply patches to a revoked proxy".';
    const phrases = quotedPhrases(task, readTaskText(task));
    expect(phrases).toContain("cannot apply patches to a revoked proxy");
    expect(phrases).not.toContain("applyPatches");
  });
});

// The title names the function to change; a neighbour holds more of the report's prose.
const CACHE_FIXTURE = `
//- src/fmt/mode.py
class Mode:
    def __init__(self, line_length=88, unstable=False):
        self.line_length = line_length
        self.unstable = unstable

    def get_cache_key(self):
        return str(self.line_length)

    def feature_flags(self):
        # unstable features run when the unstable option is set, so files are reformatted again
        if self.unstable:
            return {"unstable", "hug_parens"}
        return set()
//- src/fmt/files.py
def reformat_files(paths, mode):
    for path in paths:
        print(path, mode)
`;

describe("locate's functions named by the title", () => {
  it("lists the function the title names above a neighbour holding more of the prose", async () => {
    // Before, feature_flags (unstable, features, run, reformatted) came first and get_cache_key,
    // the function the fix changed, second: the title's words in a name did not count as such.
    const e = createEngine({
      fs: new MemoryFileSystem(parseFixture(CACHE_FIXTURE), "/repo"),
      store: new MemoryStore(),
      wasm,
    });
    const a = await e.locate(
      "Cache key ignores --unstable\n\nRunning with --unstable after a run without it leaves files unchanged: " +
        "the unstable features never run and files are not reformatted.",
    );
    expect(a.files[0]!.path).toBe("src/fmt/mode.py");
    expect(a.files[0]!.symbols.map((s) => s.qualified).slice(0, 2)).toEqual([
      "fmt.mode.Mode.get_cache_key",
      "fmt.mode.Mode.feature_flags",
    ]);
  });
});
