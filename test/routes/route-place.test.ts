/**
 * A path several apps register (`GET /` in two Express apps of one repository) is named by where it is
 * registered: `GET / (apps/web/server.js)`, `GET / (apps/web/server.js:LINE)` or a folder `GET / (apps/web/)`.
 * An ambiguous target lists each route in that form, so the next call can copy one; a place that registers
 * none of them says where they are. A test calls the route of its own app: the one registered in the deepest
 * folder it shares with the test. Real grammar, the real engine on a memory platform.
 */
import { describe, expect, it } from "vitest";
import { errorOf, memoryEngine } from "../support/platform.ts";

const TWO_APPS = `
#- apps/web/server.js
const express = require("express");
const app = express();

function home(req, res) {
  res.send(renderPage(req.query.q));
}

function renderPage(q) {
  return "<p>" + q + "</p>";
}

app.get("/", home);
module.exports = app;
#- apps/admin/server.js
const express = require("express");
const app = express();

function dashboard(req, res) {
  res.json(loadStats());
}

function loadStats() {
  return { users: 1 };
}

app.get("/", dashboard);
module.exports = app;
#- apps/web/test/home.test.js
const request = require("supertest");
const app = require("../server");

test("home", async () => {
  await request(app).get("/");
});
#- test/smoke.test.js
test("both answer", async () => {
  await fetch("/");
});
`;

/** The 1-based line of the first line holding `needle` in `file` of the fixture. */
function lineIn(file: string, needle: string): number {
  const body = TWO_APPS.split(`#- ${file}\n`)[1]!.split("\n#- ")[0]!;
  return body.split("\n").findIndex((l) => l.includes(needle)) + 1;
}

describe("a route several apps register", () => {
  const { engine } = memoryEngine(TWO_APPS);
  const webLine = lineIn("apps/web/server.js", 'app.get("/"');

  it("is refused as ambiguous, each route listed as a target that names it alone", async () => {
    const e = await errorOf(engine.dataflow("GET /"));
    expect(e.code).toBe("invalid_argument");
    expect(e.message).toContain(`GET / (apps/web/server.js:${webLine})`);
    expect(e.message).toContain(`GET / (apps/admin/server.js:${lineIn("apps/admin/server.js", 'app.get("/"')})`);
    expect(e.hint).toMatch(
      /^Name one with where it is registered, as listed: "GET \/ \(apps\/(web|admin)\/server\.js:\d+\)"/,
    );
  });

  it("is named by its file, its file and line, or its folder", async () => {
    for (const target of ["GET / (apps/web/server.js)", `GET / (apps/web/server.js:${webLine})`, "GET / (apps/web/)"]) {
      const answer = await engine.dataflow(target);
      expect(answer.function.qualified, target).toMatch(/home/);
      expect(answer.function.path).toBe("apps/web/server.js");
    }
    const admin = await engine.dataflow("GET / (apps/admin/)");
    expect(admin.function.qualified).toMatch(/dashboard/);
  });

  it("copied from the ambiguity error, names the route in trace and context too", async () => {
    const e = await errorOf(engine.dataflow("GET /"));
    const copied = /"(GET \/ \([^"]+\))"/.exec(e.hint ?? "")![1]!;
    const wantHandler = copied.includes("apps/web/") ? "home" : "dashboard";
    const wantCallee = copied.includes("apps/web/") ? "renderPage" : "loadStats";
    const trace = await engine.trace(copied, wantCallee);
    expect(trace.paths.length).toBeGreaterThan(0);
    expect(JSON.stringify(trace.paths[0])).toContain(wantHandler);
    const context = await engine.context(copied, { budget: 2000 });
    const seeds = context.chunks.filter((c) => c.symbol?.includes(wantHandler));
    expect(seeds.length).toBe(1);
    expect(context.chunks.some((c) => c.symbol?.includes(wantHandler === "home" ? "dashboard" : "home"))).toBe(false);
  });

  it("a place that registers none of them says where they are", async () => {
    const e = await errorOf(engine.dataflow("GET / (apps/api/)"));
    expect(e.code).toBe("unknown_symbol");
    expect(e.message).toBe("No route GET / is registered at apps/api/.");
    expect(e.hint).toContain("apps/web/server.js:");
    expect(e.hint).toContain("apps/admin/server.js:");
  });

  it("links a test to the route of its own app; a test outside both apps to both", async () => {
    const map = await engine.routeMap();
    const at = (file: string) => map.routes.find((e) => e.file === file)!;
    const testsOf = (file: string) =>
      at(file)
        .tests.map((t) => t.path)
        .sort();
    expect(testsOf("apps/web/server.js")).toEqual(["apps/web/test/home.test.js", "test/smoke.test.js"]);
    expect(testsOf("apps/admin/server.js")).toEqual(["test/smoke.test.js"]);
  });
});
