/** Routes as real apps write them: prefixes held in names, parameters by position, unresolved prefixes, test clients. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { errorOf, memoryEngine, parseFixture } from "../support/platform.ts";

const fixture = (name: string) => parseFixture(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8"));

describe("route prefixes read through names", () => {
  const cases = [
    // A settings attribute with a default, reached through an instance imported from another module.
    {
      file: "fastapi-settings.txt",
      target: "POST /api/v1/items/",
      seed: "app.api.routes.items.create_item",
      mounts: ["backend/app/main.py:7", "backend/app/api/main.py:7", "backend/app/api/routes/items.py:3"],
    },
    // Parameter names differ (`{id}` in the route, `{item_id}` and a number in the requests).
    { file: "fastapi-settings.txt", target: "PUT /api/v1/items/{item_id}", seed: "app.api.routes.items.update_item" },
    { file: "fastapi-settings.txt", target: "PUT /api/v1/items/42", seed: "app.api.routes.items.update_item" },
    {
      file: "fastapi-settings.txt",
      target: "POST /api/v1/login/access-token",
      seed: "app.api.routes.login.login_access_token",
    },
    // A module constant imported by name; a trailing slash on either side.
    {
      file: "python-prefixes.txt",
      target: "GET /api/users/7",
      seed: "svc.users.get_user",
      mounts: ["svc/app.py:9", "svc/users.py:3"],
    },
    // An f-string over a constant that is itself a concatenation; Flask-style `<int:id>` against a number.
    { file: "python-prefixes.txt", target: "DELETE /api/v2/shop/orders/9", seed: "svc.orders.cancel_order" },
    // Template literals and concatenation in TypeScript, through an exported constant.
    {
      file: "ts-prefixes.txt",
      target: "GET /api/users/42",
      seed: "src/users.ts#showUser",
      mounts: ["src/server.ts:7"],
    },
    { file: "ts-prefixes.txt", target: "GET /api/orders//", seed: "src/orders.ts#listOrders" },
  ];
  for (const c of cases) {
    it(`${c.file}: ${c.target}`, async () => {
      const { engine } = memoryEngine(fixture(c.file));
      const answer = await engine.context(c.target, { budget: 3000 });
      expect(answer.resolvedAs).toBe("route");
      expect(answer.seeds.map((s) => s.qualified)).toEqual([c.seed]);
      if (c.mounts)
        expect(
          answer.chunks
            .filter((x) => x.role === "mount")
            .map((x) => `${x.path}:${x.start}`)
            .sort(),
        ).toEqual([...c.mounts].sort());
    });
  }

  it("the map lists routes with their full paths", async () => {
    const { engine } = memoryEngine(fixture("fastapi-settings.txt"));
    const map = await engine.map({ budget: 4000 });
    expect(map.text).toContain("/api/v1/items");
    expect(map.text).not.toMatch(/POST \/items\b/);
  });
});

describe("a prefix that is not spelled out in the project", () => {
  it("matches by the path after it and names the prefix in a note", async () => {
    const { engine } = memoryEngine(fixture("python-prefixes.txt"));
    const answer = await engine.context("POST /internal/admin/purge", { budget: 2000 });
    expect(answer.seeds.map((s) => s.qualified)).toEqual(["svc.admin.purge"]);
    expect(answer.notes.join("\n")).toContain('os.environ["ADMIN_PREFIX"]');
  });

  it("a template literal over an environment value does too", async () => {
    const { engine } = memoryEngine(fixture("ts-prefixes.txt"));
    const answer = await engine.context("GET /v9/admin", { budget: 2000 });
    expect(answer.seeds.map((s) => s.qualified)).toEqual(["src/orders.ts#listOrders"]);
    expect(answer.notes.join("\n")).toContain("process.env.ADMIN");
  });

  it("the suffix has to match whole segments", async () => {
    const { engine } = memoryEngine(fixture("python-prefixes.txt"));
    expect((await errorOf(engine.context("POST /internal/admin/purge-all", { budget: 2000 }))).code).toBe(
      "unknown_symbol",
    );
  });
});

describe("test-client calls are requests, not registrations", () => {
  it("a test's client.get/post does not add a route", async () => {
    const { engine } = memoryEngine(fixture("ts-prefixes.txt"));
    // The test requests POST /api/users/7; nothing registers it.
    const e = await errorOf(engine.context("POST /api/users/7", { budget: 2000 }));
    expect(e.code).toBe("unknown_symbol");
    expect(e.hint).toContain("GET /api/users/:id");
  });

  it("a Python test client's f-string request is not a route either", async () => {
    const { engine } = memoryEngine(fixture("fastapi-settings.txt"));
    const answer = await engine.context("POST /api/v1/items/", { budget: 3000 });
    expect(answer.chunks.filter((c) => c.role === "seed").every((c) => !c.path.includes("/tests/"))).toBe(true);
  });
});

describe("types by use", () => {
  const project = parseFixture(`#- app/service.py
from app.models import Order, Repo, Audit


def place(order: Order, repo: Repo, audit: Audit) -> Order:
    """Places an order."""
    repo.save(order)
    return order
#- app/models.py
class Order:
    """An order."""

    def __init__(self, total: int):
        self.total = total

    def describe(self) -> str:
        return f"order of {self.total}"


class Repo:
    """Stores orders."""

    def save(self, order: "Order") -> None:
        self.last = order


class Audit:
    """Writes the audit trail."""

    def write(self, line: str) -> None:
        print(line)
#- app/__init__.py
`);

  it("a type whose members the seed calls comes first and in full; types only annotated come later, as outlines", async () => {
    const { engine } = memoryEngine(project);
    const answer = await engine.context("app.service.place", { budget: 4000 });
    const order = answer.chunks.map((c) => `${c.role} ${c.symbol}`);
    const at = (name: string) => order.findIndex((x) => x.endsWith(name));
    expect(at("app.models.Repo")).toBeGreaterThan(0);
    expect(order[at("app.models.Repo")]).toMatch(/^type /);
    // Repo.save is inside the Repo chunk (shown in full), not a chunk of its own.
    expect(answer.chunks[at("app.models.Repo")]!.form).toBe("full");
    for (const annotated of ["app.models.Order", "app.models.Audit"]) {
      expect(at(annotated)).toBeGreaterThan(at("app.models.Repo"));
      expect(answer.chunks[at(annotated)]!.form).toBe("outline");
    }
  });
});
