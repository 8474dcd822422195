/**
 * `search` ranks definitions and doc sections in one list: a word weighed by each index alone (common in the test
 * code, rare in the docs) made a section that only mentions the query's words in its prose outrank the method the
 * query names (`search pytester path` on pytest put five .rst sections above `Pytester.path`). Weighed over both
 * collections, and with a query naming `Class.member` counted as naming the member, the method leads.
 */
import { describe, expect, it } from "vitest";
import { memoryEngine } from "../support/platform.ts";

const tests = Array.from(
  { length: 16 },
  (_, i) => `def test_case_${i}(harness):
    harness.makefile("a${i}.txt")
    assert harness.run().ok
`,
).join("\n");

const sections = Array.from(
  { length: 12 },
  (_, i) => `## topic_${i}

Topic ${i} explains option ${i} of the runner and its defaults.
`,
).join("\n");

const PROJECT = `
//- src/kit/harness.py
from pathlib import Path


class Harness:
    """Runs the tool in a temporary folder."""

    def __init__(self, root: Path) -> None:
        self._root = root

    @property
    def path(self) -> Path:
        """Temporary directory the files are written to."""
        return self._root

    def makefile(self, name: str) -> Path:
        return self._root / name

    def run(self):
        return self
//- tests/test_cases.py
${tests}
//- docs/reference.md
# Reference

## legacy_dir

Identical to harness, but returns legacy path objects. Prefer harness.

${sections}
`;

describe("search weighs a word over code and docs together", () => {
  it("puts the method named by `class member` above a section that only mentions both words", async () => {
    const { engine } = memoryEngine(PROJECT);
    const hits = await engine.search("harness path");
    expect(hits[0]).toMatchObject({ kind: "method", path: "src/kit/harness.py" });
    expect(hits[0]!.qualified.endsWith("Harness.path")).toBe(true);
    // The section still answers, below the method.
    expect(hits.map((h) => h.qualified)).toContain("docs/reference.md#legacy_dir");
  });

  it("still puts a section first when its heading is the query", async () => {
    const { engine } = memoryEngine(PROJECT);
    expect((await engine.search("legacy dir"))[0]).toMatchObject({ qualified: "docs/reference.md#legacy_dir" });
  });
});
