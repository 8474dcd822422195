/**
 * Reading a task text: each part of a bug report weighs by how specific it is. Code and error
 * lines above prose, environment dumps and URLs out, frames and paths collected.
 */
import { describe, expect, it } from "vitest";
import { readTaskText } from "../../src/core/locate/task-text.ts";

const REPORT = `Adding money in two currencies gives a confusing error

When I add two amounts the error does not say which currencies were involved.

\`\`\`python
from ledger import Money
Money(5, "EUR") + Money(3, "USD")
\`\`\`

\`\`\`
Traceback (most recent call last):
  File "/home/me/demo.py", line 2, in <module>
    Money(5, "EUR") + Money(3, "USD")
  File "/usr/lib/python3.11/site-packages/ledger/money.py", line 14, in __add__
    raise CurrencyMismatch("cannot add amounts in different currencies")
ledger.errors.CurrencyMismatch: cannot add amounts in different currencies
\`\`\`

See https://github.com/acme/ledger/blob/main/src/ledger/money.py#L14 for the code.

### Environment
- ledger version: 1.4.2
- Python 3.11.4
- OS: Ubuntu 22.04
requests==2.31.0
`;

describe("readTaskText", () => {
  const ev = readTaskText(REPORT);

  it("collects the trace's frames and its error line", () => {
    expect(ev.frames.map((f) => f.path)).toEqual([
      "/home/me/demo.py",
      "/usr/lib/python3.11/site-packages/ledger/money.py",
    ]);
    expect(ev.errors[0]).toContain("CurrencyMismatch: cannot add amounts in different currencies");
    expect(ev.traceOnly).toBe(false);
  });

  it("keeps the path of a repository link and drops the rest of the URL", () => {
    expect(ev.paths).toContain("src/ledger/money.py");
    expect(ev.terms.has("github")).toBe(false);
    expect(ev.terms.has("acme")).toBe(false);
  });

  it("weighs code and error words above prose, and environment lines not at all", () => {
    const w = (t: string) => ev.terms.get(t) ?? 0;
    expect(w("currencymismatch")).toBeGreaterThan(w("confusing"));
    expect(w("money")).toBeGreaterThan(w("involved"));
    expect(ev.terms.has("ubuntu")).toBe(false);
    expect(ev.terms.has("requests")).toBe(false);
    expect(ev.codeWords.has("currency")).toBe(true);
    expect(ev.identifiers).toContain("ledger.errors.CurrencyMismatch");
  });

  it("takes names from a code block's code, not from its string literals", () => {
    // Before, \`'find a clean mug'\` made \`find\` an identifier, and every definition named find
    // was "defined in the task".
    const t = readTaskText(
      "Delete fails\n\n```js\nconst todo = store.remove('find a clean mug', \"make coffee\");\n```",
    );
    expect(t.identifiers).toContain("store.remove");
    expect(t.identifiers).not.toContain("find");
    expect(t.identifiers).not.toContain("coffee");
    // The words still count.
    expect(t.terms.has("mug")).toBe(true);
    expect(t.terms.has("coffee")).toBe(true);
  });

  it("counts template words for little", () => {
    const t = readTaskText(
      "Steps to reproduce\n\nExpected behavior: the report renders.\nActual behavior: it crashes in render_report.",
    );
    expect(t.terms.get("expected")! < t.terms.get("renders")!).toBe(true);
    expect(t.identifiers).toContain("render_report");
  });

  it("reads a trace alone as one", () => {
    const t = readTaskText(
      `Traceback (most recent call last):\n  File "/x/ledger/parse.py", line 3, in parse_amount\n    raise ValueError(text)\nValueError: unparseable amount: '12,5'`,
    );
    expect(t.traceOnly).toBe(true);
    expect(t.frames).toHaveLength(1);
  });

  it("reads 100,000 characters and no more", () => {
    const long = `${"word ".repeat(30_000)}\nzebra_crossing`;
    expect(long.length).toBeGreaterThan(100_000);
    expect(readTaskText(long).terms.has("zebracrossing")).toBe(false);
    expect(readTaskText(long.slice(-90_000)).terms.has("zebracrossing")).toBe(true);
  });
});
