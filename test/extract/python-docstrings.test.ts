/**
 * What a Python definition's doc holds: its docstring without quotes or prefix letters, the first
 * line trimmed and the later ones cut by their least indentation (blank lines not counted). The
 * cleaning scans the literal in place (it split and matched each line before); these cases pin
 * what it gives at the edges: raw and single-quoted literals, a tab, a docstring opening on the
 * next line, blank lines, a literal that is not closed by its own quote.
 */
import { describe, expect, it } from "vitest";
import { parseFile } from "../../src/core/engine/parse-file.ts";
import { createParserRuntime } from "../../src/core/parse/runtime.ts";
import { languageById } from "../../src/languages/index.ts";
import { NodeWasmSource } from "../../src/platform/node/index.ts";

const SOURCE = [
  "def one():",
  '    """One line."""',
  "",
  "def raw():",
  "    r'''Raw",
  "",
  "        indented more",
  "    back",
  "    '''",
  "",
  "def single():",
  "    'single'",
  "",
  "def next_line():",
  '    """',
  "    Starts on the next line.",
  "\tTabbed.",
  '    """',
  "",
  "def prefixed():",
  '    Rb"""  padded  """',
  "",
  "def concatenated():",
  '    "a" "b"',
  "",
].join("\n");

describe("Python docstrings", () => {
  it("lose their quotes, prefix and common indentation", async () => {
    const runtime = await createParserRuntime(new NodeWasmSource());
    const record = await parseFile(runtime, languageById("python")!, SOURCE, "docs.py", "h");
    const docs = Object.fromEntries(record!.definitions.map((d) => [d.name, d.doc]));
    expect(docs).toEqual({
      one: "One line.",
      raw: "Raw\n\n    indented more\nback",
      single: "single",
      next_line: "Starts on the next line.\nTabbed.",
      prefixed: "padded",
      // Two literals side by side: one `concatenated_string`, not a `string`, so no doc.
      concatenated: undefined,
    });
  });
});
