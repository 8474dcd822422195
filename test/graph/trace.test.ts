/**
 * trace(from, to), as data: each case is a small project, the two ends, and the paths the answer
 * must give, shortest first, written `a —kind→ b —kind→ c` (the hops' own names), or none, with a
 * pattern its text must hold. Then the budget: paths lose their source lines before they are cut.
 */
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import type { TraceAnswer } from "../../src/index.ts";
import { memoryEngine, parseFixture } from "../support/platform.ts";

const SHOP = `
//- shop/__init__.py
//- shop/store.py
def load_user(user_id):
    return {"id": user_id}


def audit(event):
    return event
//- shop/service.py
from shop.store import audit, load_user


def fetch(user_id):
    audit("fetch")
    return load_user(user_id)


def fetch_twice(user_id):
    fetch(user_id)
    return load_user(user_id)
//- shop/api.py
from fastapi import APIRouter
from shop.service import fetch_twice

router = APIRouter()


@router.get("/users/{user_id}")
def get_user(user_id: int):
    return fetch_twice(user_id)
`;

const SHAPES = `
//- shapes.py
class Shape:
    def area(self):
        return 0

    def describe(self):
        return helper(self)


class Square(Shape):
    def area(self):
        return side()


def helper(shape):
    return shape


def side():
    return 2


def report(shape: Shape):
    return shape.area()
`;

const LAYERS = `
//- a.py
import b


def start():
    return b.CONSTANT
//- b.py
import c

CONSTANT = 1
//- c.py
def target():
    return 3
`;

// httpx's shape (Client.get → … six calls … → transport.handle_request, the transport typed by its
// base, the work done in a concrete override), in a project of its own.
const COURIER = `
//- courier/__init__.py
//- courier/transports/__init__.py
//- courier/transports/base.py
class Transport:
    def deliver(self, letter):
        raise NotImplementedError("subclasses deliver")
//- courier/transports/smtp.py
from courier.transports.base import Transport


class SmtpTransport(Transport):
    def deliver(self, letter):
        return letter
//- courier/client.py
from courier.transports.base import Transport
from courier.transports.smtp import SmtpTransport


class Courier:
    def __init__(self, transport: Transport | None = None):
        self._transport = transport or SmtpTransport()

    def _transport_for(self, letter) -> Transport:
        return self._transport

    def post(self, to):
        return self.request("POST", to)

    def request(self, method, to):
        return self.send(method + to)

    def send(self, letter):
        return self._send_with_auth(letter)

    def _send_with_auth(self, letter):
        return self._send_with_redirects(letter)

    def _send_with_redirects(self, letter):
        return self._send_once(letter)

    def _send_once(self, letter):
        transport = self._transport_for(letter)
        return transport.deliver(letter)
`;

interface Case {
  name: string;
  fixture: string;
  from: string;
  to: string;
  options?: { k?: number; maxHops?: number };
  paths: string[];
  text?: RegExp;
}

const CASES: Case[] = [
  {
    name: "shortest first, up to k, parallel call sites counted once",
    fixture: SHOP,
    from: "fetch_twice",
    to: "load_user",
    paths: [
      "shop.service.fetch_twice —call→ shop.store.load_user",
      "shop.service.fetch_twice —call→ shop.service.fetch —call→ shop.store.load_user",
    ],
  },
  {
    name: "k = 1 keeps the shortest",
    fixture: SHOP,
    from: "fetch_twice",
    to: "load_user",
    options: { k: 1 },
    paths: ["shop.service.fetch_twice —call→ shop.store.load_user"],
  },
  {
    name: "from a route: METHOD /path through its handler",
    fixture: SHOP,
    from: "GET /users/42",
    to: "audit",
    paths: [
      "GET /users/{user_id} —route→ shop.api.get_user —call→ shop.service.fetch_twice —call→ shop.service.fetch —call→ shop.store.audit",
    ],
  },
  {
    name: "dynamic dispatch: a call through the base reaches the override, marked",
    fixture: SHAPES,
    from: "report",
    to: "side",
    paths: ["shapes.report —call→ shapes.Shape.area —dispatch→ shapes.Square.area —call→ shapes.side"],
    text: /hops marked dispatch follow an overriding method/,
  },
  {
    name: "a concrete override six calls away: through its base's dispatch hop, which costs no hop",
    fixture: COURIER,
    from: "Courier.post",
    to: "SmtpTransport.deliver",
    paths: [
      [
        "courier.client.Courier.post —call→ courier.client.Courier.request —call→ courier.client.Courier.send",
        "—call→ courier.client.Courier._send_with_auth —call→ courier.client.Courier._send_with_redirects",
        "—call→ courier.client.Courier._send_once —call→ courier.transports.base.Transport.deliver",
        "—dispatch→ courier.transports.smtp.SmtpTransport.deliver",
      ].join(" "),
    ],
    text: /Path 1: 7 hops \(1 dispatch, not counted against 6\)[\s\S]*hops marked dispatch follow an overriding method/,
  },
  {
    name: "from a class: its own and inherited members start paths",
    fixture: SHAPES,
    from: "Square",
    to: "helper",
    paths: ["shapes.Square —extends→ shapes.Shape —member→ shapes.Shape.describe —call→ shapes.helper"],
  },
  {
    name: "into a class: reaching one of its members reaches it",
    fixture: SHAPES,
    from: "report",
    to: "Square",
    paths: ["shapes.report —call→ shapes.Shape.area —dispatch→ shapes.Square.area —member→ shapes.Square"],
  },
  {
    name: "no path: what was searched, and the other way round",
    fixture: SHOP,
    from: "load_user",
    to: "fetch",
    paths: [],
    text: /No path within 6 hops\.[\s\S]*Searched: call, constructor, super, extends, implements, dispatch, type, import edges[\s\S]*shop\.service\.fetch reaches shop\.store\.load_user in 1 hop: trace from shop\.service\.fetch to shop\.store\.load_user/,
  },
  {
    name: "beyond maxHops is no path, and says how far to search",
    fixture: SHOP,
    from: "get_user",
    to: "audit",
    options: { maxHops: 2 },
    paths: ["shop.api —import→ shop.service —import→ shop.store"],
    text: /No symbol path within 2 hops[\s\S]*ask with maxHops up to 12/,
  },
  {
    name: "no symbol path: the files' imports, marked file level",
    fixture: LAYERS,
    from: "start",
    to: "target",
    paths: ["a —import→ b —import→ c"],
    text: /file level: imports only, no symbol path found/,
  },
];

function shape(a: TraceAnswer): string[] {
  return a.paths.map((p) => [p.hops[0]!.from, ...p.hops.map((h) => `—${h.kind}→ ${h.to}`)].join(" "));
}

describe("trace", () => {
  for (const c of CASES) {
    it(c.name, async () => {
      const { engine } = memoryEngine(parseFixture(c.fixture));
      const a = await engine.trace(c.from, c.to, c.options ?? {});
      if (c.paths.length || !c.text) expect(shape(a)).toEqual(c.paths);
      if (c.text) expect(a.text).toMatch(c.text);
      expect(countTokens(a.text)).toBe(a.usage.tokens);
      // Every hop is cited, with its line of source.
      for (const p of a.paths) for (const h of p.hops) expect(a.text).toContain(`${h.site.path}:${h.site.line}`);
    });
  }

  it("callers of an override list the call through its base, marked dispatch through the base method", async () => {
    const { engine } = memoryEngine(parseFixture(COURIER));
    const a = await engine.callers("SmtpTransport.deliver");
    expect(a.results.map((r) => [r.qualified, `${r.site.path}:${r.site.line}`, r.through])).toEqual([
      ["courier.client.Courier._send_once", "courier/client.py:29", "courier.transports.base.Transport.deliver"],
    ]);
    expect(a.text).toContain(
      "courier/client.py:29 in courier.client.Courier._send_once (method, courier/client.py:27) dispatch through courier.transports.base.Transport.deliver [via-base, 0.60]",
    );
    expect(a.text).toMatch(/1 on an instance of a known class is listed, marked dispatch/);
    expect(a.text).not.toMatch(/not followed/);
  });

  it("each hop carries its source line; a small budget drops the lines first, then paths", async () => {
    const { engine } = memoryEngine(parseFixture(SHOP));
    const full = await engine.trace("fetch_twice", "load_user");
    expect(full.paths[1]!.hops.map((h) => h.code)).toEqual(["fetch(user_id)", "return load_user(user_id)"]);
    const small = await engine.trace("fetch_twice", "load_user", { budget: full.usage.tokens - 10 });
    expect(small.usage.tokens).toBeLessThanOrEqual(full.usage.tokens - 10);
    expect(small.paths.length + small.cut).toBe(2);
    expect(small.paths.flatMap((p) => p.hops).some((h) => h.code === undefined)).toBe(true);
    await expect(engine.trace("fetch_twice", "load_user", { budget: 10 })).rejects.toMatchObject({
      code: "budget_too_small",
    });
  });

  it("refuses what it cannot read, with codes", async () => {
    const { engine } = memoryEngine(parseFixture(SHOP));
    await expect(engine.trace("GET /nowhere", "audit")).rejects.toMatchObject({ code: "unknown_symbol" });
    await expect(engine.trace("fetch", "no_such_thing")).rejects.toMatchObject({ code: "unknown_symbol" });
    await expect(engine.trace("fetch", "audit", { k: 0 })).rejects.toMatchObject({ code: "invalid_argument" });
    await expect(engine.trace("fetch", "audit", { maxHops: 99 })).rejects.toMatchObject({ code: "invalid_argument" });
  });
});
