/**
 * A bug report pasted into `search` is mostly prose: "steps to reproduce", "expected behavior", "version". Those
 * words are rare in code and everywhere in the docs, and an issue template holds them all. Weighed by the two
 * collections' summed counts they looked rare, so the template outranked the function the report is about (on the
 * issue-report benchmark, templates and doc pages led `search` for many reports). A word now weighs as common
 * as it is where it is commonest, so the prose the docs share counts for little and the function leads.
 */
import { describe, expect, it } from "vitest";
import { memoryEngine } from "../support/platform.ts";

const functions = Array.from(
  { length: 20 },
  (_, i) => `def helper_${i}(value):
    """Normalise value ${i}."""
    return str(value).strip()
`,
).join("\n");

const guide = Array.from(
  { length: 10 },
  (_, i) => `## Section ${i}

The steps below show the expected behavior of option ${i}; each version documents what changed and how
to reproduce the old behavior if you need it; if the tool crashes, its traceback names the option.
`,
).join("\n");

const PROJECT = `
//- src/conf/loader.py
${functions}

def parse_config(path):
    """Read a config file into a dict; an empty file is an empty config."""
    text = open(path).read()
    return dict(line.split("=", 1) for line in text.splitlines())
//- .github/ISSUE_TEMPLATE/bug_report.md
# Bug report

## Steps to reproduce

Describe the steps to reproduce the behavior, from an empty folder.

## Expected behavior

What you expected to happen.

## Actual behavior

What happened instead: if it crashes, paste the traceback.

## Version

The version you use, and your config file.
//- docs/guide.md
# Guide

${guide}
`;

const REPORT = `Loading crashes on an empty config file

Steps to reproduce: load an empty config file.
Expected behavior: an empty config. Actual behavior: a traceback.
Version: 1.2`;

describe("search on a pasted bug report", () => {
  it("puts the function the report is about above the issue template that shares its prose", async () => {
    const { engine } = memoryEngine(PROJECT);
    const hits = await engine.search(REPORT);
    expect(hits[0]).toMatchObject({ path: "src/conf/loader.py" });
    expect(hits[0]!.qualified.endsWith("parse_config")).toBe(true);
  });
});
