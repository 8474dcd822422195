/**
 * What a call to something outside the project returns is outside too (issue 24, call-edge
 * precision): `log = logging.getLogger(…)` holds a logging.Logger, so `log.error(…)` is no call to
 * the project's one `error` function, which a guess by unique name used to link. A line marked
 * `# calls: A` must have edges to exactly those callees; `# calls: none` to none.
 */
import { describe, expect, it } from "vitest";
import { markedCalls } from "../support/marked-calls.ts";

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

describe("values from outside the project", () => {
  it("Python: an outside call's result is outside, never guessed by unique name", async () => {
    const { want, got } = await markedCalls(PYTHON);
    expect(got).toEqual(want);
  });
});
