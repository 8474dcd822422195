/**
 * What a call to something outside the project returns is outside too (issue 24, call-edge
 * precision): `log = logging.getLogger(…)` holds a logging.Logger, so `log.error(…)` is no call to
 * the project's one `error` function, which a guess by unique name used to link. A line marked
 * `# calls: A` must have edges to exactly those callees; `# calls: none` to none.
 */
import { describe, expect, it } from "vitest";
import { memoryEngine, parseFixture } from "../support/platform.ts";

const PYTHON = `
//- app/__init__.py
//- app/trace.py
def error(message):
    return message


class Report:
    def render(self):
        return error("x")  # calls: app.trace.error
//- app/log.py
import logging

from .trace import Report


def main():
    log = logging.getLogger("app")
    log.error("failed")  # calls: none
    report = Report()
    report.render()  # calls: app.trace.Report.render
    __import__("pydoc").render("x")  # calls: none
`;

/** The marked lines' wanted callees and the graph's callees on those lines. */
async function check(fixture: string) {
  const files = parseFixture(fixture);
  const { engine } = memoryEngine(files);
  const graph = await engine.codeGraph();
  const want: string[] = [];
  const lines = new Set<string>();
  for (const [path, text] of Object.entries(files)) {
    text.split("\n").forEach((line, i) => {
      const m = /# calls: (.+)$/.exec(line);
      if (!m) return;
      lines.add(`${path}:${i + 1}`);
      if (m[1]!.trim() !== "none") for (const c of m[1]!.split(",")) want.push(`${path}:${i + 1} ${c.trim()}`);
    });
  }
  const got = [
    ...new Set(
      graph.calls
        .filter((e) => lines.has(`${e.file}:${e.line}`))
        .map((e) => `${e.file}:${e.line} ${graph.symbols[e.callee]!.qualified}`),
    ),
  ];
  return { want: want.sort(), got: got.sort() };
}

describe("values from outside the project", () => {
  it("Python: an outside call's result is outside, never guessed by unique name", async () => {
    const { want, got } = await check(PYTHON);
    expect(got).toEqual(want);
  });
});
