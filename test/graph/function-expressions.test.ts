/**
 * Calls inside function and arrow expressions bound to a name belong to that name, not to module
 * code (issue 24 item 4: hono's `const fetchRoutesContent = function* …` listed its call of
 * `Hono.request` "in module code"). Each call line says its owner: `// owner: <qualified>`, or
 * `// owner: module` for code that runs when the module loads.
 */
import { describe, expect, it } from "vitest";
import { memoryEngine, parseFixture } from "../support/platform.ts";

const FIXTURE = `
//- src/app.ts
export class App {
  request(path: string): string {
    return path;
  }
}
export const app = new App(); // owner: module
//- src/ssg.ts
import { app } from "./app";

export const fetchRoutesContent = function* (routes: string[]) {
  for (const r of routes) yield app.request(r); // owner: src/ssg.ts#fetchRoutesContent
};
export const toSSG = async (routes: string[]) => {
  return [...fetchRoutesContent(routes)].concat(app.request("/")); // owner: src/ssg.ts#toSSG
};
const hooks: Record<string, unknown> = {};
hooks.beforeRequest = function () {
  return app.request("/before"); // owner: src/ssg.ts#hooks.beforeRequest
};
app.request("/warm"); // owner: module
//- lib/legacy.js
const { app } = require("../src/app");
function Server() {}
Server.prototype.listen = function* () {
  yield app.request("/listen"); // owner: lib/legacy.js#Server.listen
};
module.exports.serve = () => app.request("/serve"); // owner: lib/legacy.js#serve
exports.stop = async function () {
  return app.request("/stop"); // owner: lib/legacy.js#stop
};
`;

describe("calls inside named function expressions", () => {
  it("belong to the variable, property or export the expression is bound to", async () => {
    const files = parseFixture(FIXTURE);
    const { engine } = memoryEngine(files);
    const graph = await engine.codeGraph();
    const want: string[] = [];
    for (const [path, text] of Object.entries(files)) {
      text.split("\n").forEach((line, i) => {
        const m = /\/\/ owner: (\S+)/.exec(line);
        if (m) want.push(`${path}:${i + 1} ${m[1]}`);
      });
    }
    const owner = (id: number) => {
      const s = graph.symbols[id]!;
      return s.kind === "module" ? "module" : s.qualified;
    };
    const got = [...new Set(graph.calls.map((e) => `${e.file}:${e.line} ${owner(e.caller)}`))];
    expect(got.sort()).toEqual(want.sort());
  });

  it("are listed under their owner by callers", async () => {
    const { engine } = memoryEngine(parseFixture(FIXTURE));
    const answer = await engine.callers("App.request");
    const at = answer.results.find((r) => r.site.path === "src/ssg.ts" && r.site.line === 4);
    expect(at?.qualified).toBe("src/ssg.ts#fetchRoutesContent");
    expect(answer.text).toMatch(/src\/ssg\.ts:4 in src\/ssg\.ts#fetchRoutesContent/);
  });
});
