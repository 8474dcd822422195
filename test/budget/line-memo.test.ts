/**
 * The line-memo counter gives the real tokenizer's count of the whole text, on real text of every
 * shape an answer holds: source code of several languages (indented lines, blank lines, comments,
 * paths at line starts), markdown headings and lists, JSON; both encodings.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { lineMemoCounter, loadTokenCounter, type Encoding } from "../../src/core/budget/tokenizer.ts";

const root = path.resolve(__dirname, "../..");
const files = [
  "src/core/query/impact.ts",
  "src/core/budget/fit.ts",
  "README.md",
  "package.json",
  "test/changes/changes.test.ts",
].map((f) => fs.readFileSync(path.join(root, f), "utf8"));
const shapes = [
  "a)\n/b\n//c\n\n\n-- 12/40 tokens\n\t\tx\n é\nü\n",
  "## path:1-2 [caller] x\n```py\ndef f():\n    return 1\n```\n\n- a.py:3 → b\n/root/x\n",
  ...files,
  // JSON as answers send it: records of every shape, strings holding braces and quotes.
  JSON.stringify({
    entries: [
      { qualified: "a.b", line: 3, site: { path: "x/y.py", line: 9 } },
      { qualified: 'c{"d', test: "t.py::T::t", n: [1, { k: "v" }] },
    ],
    s: '{"x": 1}',
    e: {},
  }),
  JSON.stringify(JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"))),
  // Pieces cut at arbitrary line boundaries, as a page of a list is.
  ...files.map((t) => t.split("\n").slice(17, 230).join("\n")),
];

describe("lineMemoCounter", () => {
  for (const encoding of ["o200k_base", "cl100k_base"] as Encoding[]) {
    it(`counts as the tokenizer does on the whole text (${encoding})`, async () => {
      const count = await loadTokenCounter(encoding);
      const memo = lineMemoCounter(count);
      for (const text of shapes) {
        expect(memo(text)).toBe(count(text));
        expect(memo(text)).toBe(count(text)); // and again, from the memo
      }
    });
  }
});
