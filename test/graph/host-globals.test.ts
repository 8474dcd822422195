/**
 * A call through a receiver rooted at a global of JavaScript's host (`process.stdout.write(…)`, `window.x.y()`) is
 * the host's: never linked by name alone to the one project method of that name, and not listed as a possible
 * caller either. Found on mocha (tryit7): `process.stdout.write` was linked to `XUnit.write` 64 times and
 * `process.cwd()` to `utils.cwd` 15 times, so `callers XUnit.write` listed 76 production callers that never call
 * it. A file that binds the name itself (`const process = …`) keeps its own, and untyped local data still gets the
 * guess. A line marked `// calls: A` must have edges to exactly those callees; `// calls: none` to none.
 */
import { describe, expect, it } from "vitest";
import { markedCalls } from "../support/marked-calls.ts";
import { memoryEngine } from "../support/platform.ts";

const PROJECT = `
//- lib/xunit.js
class XUnit {
  write(line) {
    return line;
  }
}
module.exports = XUnit;
//- lib/utils.js
exports.cwd = function cwd() {
  return "/";
};
exports.record = function record(entry) {
  return entry;
};
//- lib/audit.js
exports.record = function record(entry) {
  return entry;
};
//- lib/base.js
function hideCursor() {
  process.stdout.write("\\u001b[?25l"); // calls: none
  window.console.record("x"); // calls: none
  return process.cwd(); // calls: none
}
function flush(reporter) {
  reporter.write("done"); // calls: lib/xunit.js#XUnit.write
}
module.exports = { hideCursor, flush };
//- lib/shim.js
const process = { stdout: new (require("./xunit"))() };
function show() {
  process.stdout.write("x"); // calls: lib/xunit.js#XUnit.write
}
module.exports = show;
`;

describe("receivers rooted at a host global", () => {
  it("JavaScript: process.stdout.write(…) is not the project's one write", async () => {
    const { want, got } = await markedCalls(PROJECT, "//");
    expect(got).toEqual(want);
  });

  it("lists no possible callers through a host global either", async () => {
    const { engine } = memoryEngine(PROJECT);
    const a = await engine.callers("lib/utils.js#record");
    expect(a.possible.map((p) => `${p.site.path}:${p.site.line}`)).not.toContain("lib/base.js:3");
  });
});
