/**
 * Wrong callers reported with confidence that new-user tours still found (branch quality8), each a guess by unique
 * name or a missing link on real code, each fixture failing without its rule:
 * - TypeScript (tRPC): `t = initTRPC.meta<Meta>().create()` where `meta()` returns `new TRPCBuilder()` without a
 *   return annotation; `t` stayed unknown, so `t.procedure.meta(…)` and, through `procedure = t.procedure`,
 *   `procedure.meta(…)` were linked to `TRPCBuilder.meta` (14 wrong callers), also where the chain is written over
 *   several lines (`initTRPC\n  .context<{ foo: 'bar' }>()\n  .create()`). A method whose body returns a new
 *   instance of one class returns that class, and a local holding a property of an interface-typed value (a shape
 *   whose members the index holds no definition for) is outside data, as the property read itself already was.
 * - JavaScript (mocha): `var stream = process.stdout; stream.write(…)` was linked to `XUnit.write`: a local
 *   assigned from a host global's member holds the host's object. `const Mocha = require("./mocha")` then
 *   `new Mocha(…)` did not reach `function Mocha(…)` exported by `exports = module.exports = Mocha`.
 * A line marked `calls: A` must have edges to exactly those callees; `calls: none` to none.
 */
import { describe, expect, it } from "vitest";
import { markedCalls } from "../support/marked-calls.ts";

const TYPESCRIPT = `
//- src/builder.ts
export interface Proc {
  meta(m: unknown): Proc;
  use(m: unknown): Proc;
}
export function use(plugin: unknown) {
  return plugin;
}
export interface Root {
  procedure: Proc;
}
class Builder<T> {
  meta<U>() {
    return new Builder<U>();
  }
  create(): Root {
    return makeRoot();
  }
}
function makeRoot(): Root {
  return { procedure: {} } as Root;
}
export const initBuilder = new Builder<unknown>();
//- src/trpc.ts
import { initBuilder } from "./builder";
export const t = initBuilder.meta<{ a: 1 }>().create();
export const publicProcedure = t.procedure;
//- src/use.test.ts
import { initBuilder } from "./builder";
import { publicProcedure, t } from "./trpc";

t.procedure.meta({}); // calls: none
const procedure = t.procedure;
procedure.meta({}); // calls: none
const used = t.procedure.use(procedure);
used.meta({}); // calls: none
publicProcedure.meta({}); // calls: none
initBuilder.meta<{ b: 2 }>().meta(); // calls: src/builder.ts#Builder.meta
export function wire(anything) {
  return anything.meta(); // calls: src/builder.ts#Builder.meta
}
export function overLines() {
  const m = initBuilder
    .meta<{ c: "3" }>()
    .create();
  m.procedure.meta({}); // calls: none
}
`;

const JAVASCRIPT = `
//- lib/xunit.js
class XUnit {
  write(line) {
    return line;
  }
}
module.exports = XUnit;
//- lib/mocha.js
function Mocha(options) {
  this.options = options;
}
Mocha.prototype.run = function (fn) {
  return fn;
};
exports = module.exports = Mocha;
//- lib/landing.js
function Landing(runner) {
  var stream = process.stdout;
  const err = process.stderr;
  stream.write("x"); // calls: none
  err.write("y"); // calls: none
  runner.write("z"); // calls: lib/xunit.js#XUnit.write
}
module.exports = Landing;
//- lib/cli/run.js
const Mocha = require("../mocha");
exports.handler = function (argv) {
  const mocha = new Mocha(argv); // calls: lib/mocha.js#Mocha
  return mocha;
};
`;

describe("wrong callers reported with confidence", () => {
  it("TypeScript: a builder's new instance types its chain; an interface's property held in a local is a shape's", async () => {
    const { want, got } = await markedCalls(TYPESCRIPT, "//");
    expect(got).toEqual(want);
  });

  it("JavaScript: a local holding a host global's member is the host's; a required constructor function is new'd", async () => {
    const { want, got, graph } = await markedCalls(JAVASCRIPT, "//");
    expect(got).toEqual(want);
    // (found through the require, as an import)
    expect(graph.calls.find((e) => e.file === "lib/cli/run.js" && e.line === 3)?.resolution).toBe("import");
  });
});
