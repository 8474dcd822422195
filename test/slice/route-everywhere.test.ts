/**
 * Routes everywhere a symbol goes (issue 24 item 2, issue 25 item 4), on a fixture of the shape
 * issue 24's "Why" describes: a FastAPI backend (a router prefix read through settings, pydantic
 * models with a base, `Depends` in the decorator, in a default and inside an `Annotated` alias),
 * pytest's test client, a TypeScript frontend (fetch and axios in an API client, pages that read
 * the responses) and an Express service (middleware on the route, on its router and supertest).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { errorOf, memoryEngine, parseFixture } from "../support/platform.ts";

const FILES = parseFixture(readFileSync(new URL("./fixtures/fullstack-shapes.txt", import.meta.url), "utf8"));
const engine = () => memoryEngine(FILES).engine;

describe("a route's context brings its models, its dependencies and a test that hits it", () => {
  it("FastAPI: request and response models, Depends in the decorator and through an Annotated alias, the pytest test", async () => {
    // Issue 24: `context "PUT /api/v1/items/42"` left out `Item`, `CurrentUser` / `get_current_user` and the tests.
    const a = await engine().context("PUT /api/v1/items/42", { budget: 3000 });
    expect(a.resolvedAs).toBe("route");
    const byRole = (role: string) => a.chunks.filter((c) => c.role === role).map((c) => c.symbol);
    expect(byRole("type")).toEqual(expect.arrayContaining(["app.models.ItemPublic", "app.models.ItemUpdate"]));
    expect(byRole("callee")).toEqual(
      expect.arrayContaining(["app.api.deps.get_current_user", "app.api.deps.verify_owner"]),
    );
    expect(byRole("witness")).toEqual(["backend.tests.test_items.test_update_item"]);
    expect(a.notes).toContain("PUT /api/v1/items/{item_id} models: request ItemUpdate; response ItemPublic");
    expect(a.notes).toContain(
      "PUT /api/v1/items/{item_id} runs first: get_current_user (dependency), verify_owner (dependency)",
    );
    expect(a.notes).toContain("PUT /api/v1/items/{item_id} tested by backend/tests/test_items.py:5 (test_update_item)");
    expect(a.notes).toContain("PUT /api/v1/items/{item_id} called from frontend/src/client/items.ts:21 (updateItem)");
  });

  it("FastAPI: a dependency in a parameter default joins the alias's", async () => {
    const a = await engine().context("GET /api/v1/items/", { budget: 3000 });
    const callees = a.chunks.filter((c) => c.role === "callee").map((c) => c.symbol);
    expect(callees).toEqual(expect.arrayContaining(["app.api.deps.get_current_user", "app.api.deps.get_db"]));
    expect(a.chunks.find((c) => c.role === "type" && c.symbol === "app.models.ItemsPublic")).toBeDefined();
  });

  it("Express: middleware between the path and the handler and on the router it is registered on", async () => {
    const a = await engine().context("GET /shop/orders/7", { budget: 3000 });
    expect(a.seeds.map((s) => s.qualified)).toEqual(["orders/src/handlers.ts#getOrder"]);
    const callees = a.chunks.filter((c) => c.role === "callee").map((c) => c.symbol);
    expect(callees).toEqual(
      expect.arrayContaining(["orders/src/middleware.ts#rateLimit", "orders/src/middleware.ts#requireAuth"]),
    );
    expect(a.notes.join("\n")).toContain("runs first: rateLimit (middleware), requireAuth (middleware)");
    expect(a.notes.join("\n")).toContain("tested by orders/test/orders.test.ts:5");
  });
});

describe("impact and callers take METHOD /path", () => {
  it("impact on a route is the route impact: the handler plus the client calls that reach it and their callers", async () => {
    const a = await engine().impact("PUT /api/v1/items/42");
    expect(a.resolvedAs).toBe("route");
    expect(a.targets.map((t) => t.qualified)).toEqual(["app.api.routes.items.update_item"]);
    expect(a.consumers?.map((c) => `${c.via} ${c.path}:${c.line} ${c.caller}${c.test ? " (test)" : ""}`)).toEqual([
      "call frontend/src/client/items.ts:21 updateItem",
      "call backend/tests/test_items.py:5 test_update_item (test)",
      "caller frontend/src/pages/items-page.ts:10 frontend/src/pages/items-page.ts#renameItem",
    ]);
    // The test that sends the request is a test the change reaches.
    expect(a.tests.map((t) => `${t.via} ${t.id}`)).toEqual(["request backend/tests/test_items.py::test_update_item"]);
    expect(a.text).toContain(
      "# Impact of route PUT /api/v1/items/{item_id}, handled by app.api.routes.items.update_item",
    );
    expect(a.text).toContain(
      "Consumers: 1 client call from production code: frontend/src/client/items.ts:21 in updateItem (PUT /api/v1/items/{id})",
    );
  });

  it("impact on a route nobody registers is an unknown_symbol error naming the near routes", async () => {
    const e = await errorOf(engine().impact("PATCH /api/v1/items/42"));
    expect(e.code).toBe("unknown_symbol");
    expect(e.hint).toContain("PUT /api/v1/items/{item_id}");
  });

  it("callers of a route: the client calls reaching it (resolution route), then their callers", async () => {
    const a = await engine().callers("PUT /api/v1/items/{id}", { depth: 2 });
    expect(a.symbol.qualified).toBe("app.api.routes.items.update_item");
    expect(a.results.map((r) => `${r.depth} ${r.site.path}:${r.site.line} ${r.resolution}`)).toEqual([
      "1 frontend/src/client/items.ts:21 route",
      "2 frontend/src/pages/items-page.ts:10 import",
    ]);
    const withTests = await engine().callers("PUT /api/v1/items/{id}", { tests: "include" });
    expect(withTests.results.map((r) => r.site.path)).toContain("backend/tests/test_items.py");
  });

  it("changes: a changed handler's route is named with the client calls that reach it", async () => {
    const diff = [
      "diff --git a/backend/app/crud.py b/backend/app/crud.py",
      "--- a/backend/app/crud.py",
      "+++ b/backend/app/crud.py",
      "@@ -4,3 +4,3 @@ def load_items(db, skip):",
      " ",
      " def save_item(db, item_id, item_in):",
      "-    return None",
      "+    return item_in",
      "",
    ].join("\n");
    const a = await engine().changes({ diff });
    expect(a.text).toContain(
      "[route] PUT /api/v1/items/{item_id} → app.api.routes.items.update_item (reaches app.crud.save_item in 1 call; called from frontend/src/client/items.ts:21 (updateItem))",
    );
  });
});

describe("shape_check", () => {
  it("a model field rename lists the frontend reads of that field (and the test's), not the other fields' reads", async () => {
    const a = await engine().shapeCheck("ItemPublic", { rename: ["title=name"] });
    expect(a.models[0]!.qualified).toBe("app.models.ItemPublic");
    expect(a.models[0]!.fields.map((f) => f.name).sort()).toEqual(["description", "id", "owner_id", "title"]);
    expect(a.routes.map((r) => `${r.method} ${r.path} as ${r.as}`)).toEqual([
      "GET /api/v1/items as ItemsPublic.data[]",
      "PUT /api/v1/items/{item_id} as ItemPublic",
    ]);
    expect(a.breaks.map((b) => `${b.path}:${b.line} ${b.expression}`)).toEqual([
      'backend/tests/test_items.py:7 content["title"]',
      "frontend/src/pages/items-page.ts:5 item.title", // page.data.map((item) => item.title), through listItems()'s return
      "frontend/src/pages/items-page.ts:11 { title }", // const { title, owner_id } = updated, through updateItem()'s return
    ]);
    expect(a.reads.map((r) => `${r.path}:${r.line} ${r.field}`)).toEqual(
      expect.arrayContaining([
        "backend/tests/test_items.py:8 owner_id",
        "frontend/src/pages/items-page.ts:11 owner_id",
        "frontend/src/pages/items-page.ts:16 id",
        "frontend/src/pages/items-page.ts:16 description",
      ]),
    );
    // A parameter typed by the frontend's interface of the model is a consumer too.
    expect(a.reads.find((r) => r.line === 16 && r.field === "id")?.from).toBe("typed");
    expect(a.text).toContain("## Breaks (title renamed to name): 3 reads");
    expect(a.text).toContain(
      "- frontend/src/pages/items-page.ts:5 item.title → ItemPublic.title in renderItems — title renamed to name",
    );
  });

  it("a route: the response model's tree, and a removal breaks the reads of that field only", async () => {
    const a = await engine().shapeCheck("GET /api/v1/items", { remove: ["count"] });
    expect(a.resolvedAs).toBe("route");
    expect(a.models.map((m) => m.qualified)).toEqual(["app.models.ItemsPublic", "app.models.ItemPublic"]);
    expect(a.breaks.map((b) => `${b.path}:${b.line} ${b.expression}`)).toEqual([
      'backend/tests/test_items.py:14 body["count"]',
      "frontend/src/pages/items-page.ts:6 page.count",
    ]);
    expect(a.reads.map((r) => `${r.line} ${r.field}`)).toEqual(expect.arrayContaining(["5 data", "5 title"]));
  });

  it("says what is wrong with a field that is not the model's, a malformed rename and a target that is no model", async () => {
    const e = engine();
    expect(await errorOf(e.shapeCheck("ItemPublic", { rename: ["titel=name"] }))).toMatchObject({
      code: "invalid_argument",
      data: { field: "titel" },
    });
    expect((await errorOf(e.shapeCheck("ItemPublic", { rename: ["title"] }))).code).toBe("invalid_argument");
    expect(await errorOf(e.shapeCheck("app.crud.save_item"))).toMatchObject({
      code: "invalid_argument",
      data: { kind: "function" },
    });
    expect((await errorOf(e.shapeCheck("GET /shop/orders/1"))).code).toBe("not_found");
  });

  it("stays within its budget and counts what it leaves out", async () => {
    const a = await engine().shapeCheck("ItemPublic", { budget: 150 });
    expect(a.usage.tokens).toBeLessThanOrEqual(150);
    expect(a.listed).toBeLessThan(a.reads.length);
    expect(a.text).toMatch(/… and \d+ more lines?: raise the budget/);
  });
});
