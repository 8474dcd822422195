/**
 * `locate` in a project that is a test framework itself: in pytest's tracker every title names "pytest", which made
 * every report "about tests" so its test files outranked the source to change (tryit6: a report on `pytest.warns`
 * ranked testing/test_recwarn.py first). A framework's name counts as a test word only when the project's own
 * folders do not carry it; a report that is about tests still keeps them.
 */
import { describe, expect, it } from "vitest";
import { memoryEngine } from "../support/platform.ts";

const tests = Array.from(
  { length: 6 },
  (_, i) => `def test_warns_unmatched_${i}(recwarn):
    with pytest.warns(UserWarning, match="foo"):
        warnings.warn("unmatched warning re-emitted", DeprecationWarning)
    assert recwarn.pop(DeprecationWarning).filename
`,
).join("\n");

const FILES = {
  "src/_pytest/__init__.py": "",
  "src/_pytest/recwarn.py": `import warnings


def warns(expected_warning, *, match=None):
    """Assert that code raises a particular class of warning."""
    return WarningsChecker(expected_warning, match_expr=match)


class WarningsChecker:
    def __init__(self, expected_warning, match_expr=None):
        self.expected_warning = expected_warning
        self.match_expr = match_expr
        self._list = []

    def __exit__(self, exc_type, exc_val, exc_tb):
        for w in self._list:
            if not self.matches(w):
                # re-emit the unmatched warning
                warnings.warn_explicit(w.message, w.category, w.filename, w.lineno, module=w.__module__)

    def matches(self, w):
        return issubclass(w.category, self.expected_warning)
`,
  "src/pytest/__init__.py": "from _pytest.recwarn import warns\n",
  "testing/test_recwarn.py": `import warnings
import pytest

${tests}`,
};

const REPORT = `pytest.warns re-emits unmatched warnings as if they came from the "warnings" module

When a warning raised inside pytest.warns(UserWarning, match="foo") does not match, it is emitted again after the
block, and a filter on my module's DeprecationWarning no longer applies to the re-emitted warning.`;

describe("locate in a project that is a test framework", () => {
  it("ranks the framework's source above its tests for a report that names the framework", async () => {
    const { engine } = memoryEngine(FILES);
    const files = (await engine.locate(REPORT)).files.map((f) => f.path);
    expect(files[0]).toBe("src/_pytest/recwarn.py");
    expect(files.indexOf("testing/test_recwarn.py")).toBeGreaterThan(0);
  });

  it("keeps the tests first when the report is about the tests", async () => {
    const { engine } = memoryEngine(FILES);
    const files = (await engine.locate("test_warns_unmatched fixtures: the recwarn tests fail on a re-emitted warning"))
      .files;
    expect(files[0]!.path).toBe("testing/test_recwarn.py");
  });
});
