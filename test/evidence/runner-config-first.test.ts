/**
 * `tests` picks a folder's runner by its own config file before a file that only mentions one: mocha's package.json
 * lists "jest" among its keywords beside a `.mocharc.yml`, and Jest (listed before Mocha) took its tests, so the
 * answer said "Jest: 20 tests (found by package.json)" and gave an `npx jest` command for a mocha suite.
 */
import { describe, expect, it } from "vitest";
import { memoryEngine, parseFixture } from "../support/platform.ts";

const PROJECT = `
//- package.json
{ "name": "runner", "keywords": ["test", "jest", "mocha"], "scripts": { "test": "node bin/run.js" } }
//- .mocharc.yml
spec: test/**/*.spec.js
//- lib/suite.js
function addTest(suite, test) {
  suite.tests.push(test);
  return suite;
}
module.exports = { addTest };
//- test/suite.spec.js
const { addTest } = require("../lib/suite");

describe("Suite", () => {
  it("adds a test", () => {
    addTest({ tests: [] }, "t");
  });
});
`;

describe("tests: a runner's config file decides before a mention", () => {
  it("runs a folder with .mocharc.yml under Mocha, though package.json mentions jest", async () => {
    const { engine } = memoryEngine(parseFixture(PROJECT));
    const a = await engine.tests("addTest");
    expect(a.run.map((r) => [r.runner, r.detectedBy])).toEqual([["mocha", ".mocharc.yml"]]);
    expect(a.run[0]!.commands[0]).toMatch(/^npx mocha /);
  });
});
