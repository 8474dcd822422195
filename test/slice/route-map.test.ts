/**
 * The route map (`codeslice routes`, engine.routeMap): every route with its handler, the client
 * calls in the project that reach it, and the calls from tests; on a FastAPI backend with a router
 * prefix read through settings, a TypeScript frontend calling it through fetch and axios with a base
 * URL, and pytest's test client.
 */
import { describe, expect, it } from "vitest";
import { urlOf, urlReaches } from "../../src/core/query/route-calls.ts";
import { memoryEngine } from "../support/platform.ts";

const PROJECT = `
#- backend/app/core/config.py
class Settings:
    API_V1_STR: str = "/api/v1"


settings = Settings()
#- backend/app/main.py
from fastapi import FastAPI

from app.api.items import router as items_router
from app.core.config import settings

app = FastAPI()
app.include_router(items_router, prefix=settings.API_V1_STR)
#- backend/app/api/items.py
from fastapi import APIRouter

router = APIRouter(prefix="/items")


@router.get("/")
def read_items():
    return []


@router.get("/latest")
def read_latest():
    return {}


@router.get("/{item_id}")
def read_item(item_id: int):
    return {"id": item_id}


@router.put("/{item_id}")
def update_item(item_id: int, body: dict):
    return body


@router.delete("/{item_id}")
def delete_item(item_id: int):
    return None
#- backend/app/__init__.py
#- backend/app/api/__init__.py
#- backend/app/core/__init__.py
#- backend/tests/test_items.py
from app.core.config import settings


def test_update_item(client):
    r = client.put(f"{settings.API_V1_STR}/items/{42}", json={"title": "x"})
    assert r.status_code == 200


def test_latest(client):
    assert client.get("/api/v1/items/latest").status_code == 200
#- frontend/src/client.ts
import axios from "axios";

const BASE = "http://localhost:8000";

export async function loadItem(id: number) {
  const r = await fetch(\`\${BASE}/api/v1/items/\${id}\`);
  return r.json();
}

export async function saveItem(id: number, body: object) {
  return axios.put(\`/api/v1/items/\${id}\`, body);
}

export async function removeItem(id: number) {
  return fetch(\`/api/v1/items/\${id}\`, { method: "DELETE" });
}

export function notAUrl(m: Map<string, number>) {
  return m.get("key");
}
`;

describe("route map", () => {
  it("lists every route with its handler, the frontend calls and the test calls that reach it", async () => {
    const { engine } = memoryEngine(PROJECT);
    const a = await engine.routeMap();
    const byRoute = Object.fromEntries(a.routes.map((r) => [`${r.method} ${r.path}`, r]));
    expect(Object.keys(byRoute).sort()).toEqual([
      "DELETE /api/v1/items/{item_id}",
      "GET /api/v1/items",
      "GET /api/v1/items/latest",
      "GET /api/v1/items/{item_id}",
      "PUT /api/v1/items/{item_id}",
    ]);
    const at = (r: string, kind: "clients" | "tests") => byRoute[r]![kind].map((c) => `${c.path}:${c.line}`);
    expect(byRoute["PUT /api/v1/items/{item_id}"]!.handler).toBe("app.api.items.update_item");
    expect(at("GET /api/v1/items/{item_id}", "clients")).toEqual(["frontend/src/client.ts:6"]);
    expect(at("PUT /api/v1/items/{item_id}", "clients")).toEqual(["frontend/src/client.ts:11"]);
    expect(at("DELETE /api/v1/items/{item_id}", "clients")).toEqual(["frontend/src/client.ts:15"]);
    expect(at("PUT /api/v1/items/{item_id}", "tests")).toEqual(["backend/tests/test_items.py:5"]);
    // A literal segment is matched before a placeholder: /items/latest is not also /items/{item_id}.
    expect(at("GET /api/v1/items/latest", "tests")).toEqual(["backend/tests/test_items.py:10"]);
    expect(at("GET /api/v1/items/{item_id}", "tests")).toEqual([]);
    expect(a.text).toContain("# Routes: 5; 3 called from the project's own code, 2 called from tests");
    expect(a.text).toContain("- PUT /api/v1/items/{item_id} → app.api.items.update_item backend/app/api/items.py:");
    expect(a.text).toContain("    called from: frontend/src/client.ts:11 (saveItem)");
    expect(a.text).toContain("    tests: backend/tests/test_items.py:5 (test_update_item)");
  });

  it("filters by prefix and method, and counts what the budget leaves out", async () => {
    const { engine } = memoryEngine(PROJECT);
    const put = await engine.routeMap({ method: "put" });
    expect(put.routes.map((r) => r.path)).toEqual(["/api/v1/items/{item_id}"]);
    const latest = await engine.routeMap({ prefix: "/api/v1/items/latest" });
    expect(latest.total).toBe(1);
    const small = await engine.routeMap({ budget: 60 });
    expect(small.usage.tokens).toBeLessThanOrEqual(60);
    expect(small.routes.length).toBeLessThan(small.total);
    expect(small.text).toMatch(/… and \d+ more routes: narrow with a path prefix or a method/);
  });

  it("gives a decorated function nested in a handler only its own decorators, not the handler's route", async () => {
    const { engine } = memoryEngine({
      "app.py": [
        "from fastapi import FastAPI",
        "from functools import wraps",
        "app = FastAPI()",
        "",
        '@app.get("/items")',
        "def list_items():",
        "    @wraps(list_items)",
        "    def helper():",
        "        return 1",
        "    return helper()",
        "",
      ].join("\n"),
    });
    const a = await engine.routeMap();
    expect(a.routes.map((r) => `${r.method} ${r.path} ${r.handler}`)).toEqual(["GET /items app.list_items"]);
    const [record] = await engine.records();
    const helper = record!.definitions.find((d) => d.qualified === "list_items.helper");
    expect(helper?.decorators).toEqual(["@wraps(list_items)"]);
  });

  it("tests: a test that sends a request to a route tests its handler; tests take METHOD /path too", async () => {
    const { engine } = memoryEngine(PROJECT);
    const byHandler = await engine.tests("app.api.items.update_item");
    expect(byHandler.tests.map((t) => t.id)).toEqual(["backend/tests/test_items.py::test_update_item"]);
    expect(byHandler.text).toContain(
      "calls it through PUT /api/v1/items/{item_id} (1 hop), at backend/tests/test_items.py:5",
    );
    const byRoute = await engine.tests("PUT /api/v1/items/{id}");
    expect(byRoute.symbol?.qualified).toBe("app.api.items.update_item");
    expect(byRoute.tests.map((t) => t.id)).toEqual(["backend/tests/test_items.py::test_update_item"]);
    // The literal route is the one /items/latest reaches; /items/{item_id}'s GET handler has no test.
    expect((await engine.tests("GET /api/v1/items/latest")).tests.map((t) => t.id)).toEqual([
      "backend/tests/test_items.py::test_latest",
    ]);
    expect((await engine.tests("app.api.items.read_item")).total).toBe(0);
    await expect(engine.tests("PATCH /api/v1/items/{id}")).rejects.toMatchObject({
      code: "unknown_symbol",
      message: expect.stringContaining("No route PATCH /api/v1/items/{id}"),
    });
  });

  it("reads URLs from string arguments: templates, base URLs, query strings; not plain strings", () => {
    expect(urlOf('f"{settings.API_V1_STR}/items/{item_id}"')).toBe("{settings.API_V1_STR}/items/{item_id}");
    expect(urlOf("`${BASE}/api/items?page=${p}`")).toBe("{BASE}/api/items");
    expect(urlOf('"https://api.example.com/v1/users/7#top"')).toBe("/v1/users/7");
    expect(urlOf('"key"')).toBeUndefined();
    expect(urlReaches("/api/v1/items/{id}", "{BASE}/items/{x}")).toBe(true);
    expect(urlReaches("/api/v1/items/{id}", "/items/3")).toBe(false);
    expect(urlReaches("/api/v1/items/latest", "/api/v1/items/7")).toBe(false);
  });

  it("a generated OpenAPI client's request is read from its url: option, however long the options object", async () => {
    const { engine } = memoryEngine(`${PROJECT}
#- frontend/src/client/sdk.gen.ts
import { client } from './client.gen';

export class ItemsService {
    public static updateItem(options: { path: { id: number }; client?: typeof client; headers?: Record<string, string> }) {
        return (options.client ?? client).put<unknown, unknown, true>({
            responseType: 'json',
            security: [{ scheme: 'bearer', type: 'http' }],
            url: '/api/v1/items/{id}',
            ...options,
            headers: { 'Content-Type': 'application/json', ...options.headers }
        });
    }
}
`);
    const map = await engine.routeMap({ method: "PUT" });
    expect(
      map.routes[0]!.clients.filter((c) => c.path === "frontend/src/client/sdk.gen.ts").map((c) => [
        c.line,
        c.caller,
        c.url,
      ]),
    ).toEqual([[5, "ItemsService.updateItem", "/api/v1/items/{id}"]]);
  });
});
