/**
 * The held-out question kinds of issue 24 item 8, per language: calls a statement or an operator
 * makes (`with`, `async with`, `for`, `async for`, `await`, `+`, `==`), calls through
 * `functools.partial`, `weakref.proxy` and `weakref.ref(x)()`, Ruby setters (`x.name = v` → `name=`) and
 * `define_method`. A line marked `# calls: A, B` must have edges to exactly those callees (qualified
 * names) and `# calls: none` none at all (an operand of unknown type is never linked by name).
 */
import { describe, expect, it } from "vitest";
import { markedCalls } from "../support/marked-calls.ts";
import { memoryEngine, parseFixture } from "../support/platform.ts";

const PYTHON = `
//- shop/__init__.py
//- shop/protocols.py
import functools
import typing
import typing as t
import weakref
from functools import partial


class Lock:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return None


class Pool:
    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc):
        return None


class Rows:
    def __iter__(self):
        return self

    def __next__(self):
        raise StopIteration


class Stream:
    def __aiter__(self):
        return self

    async def __anext__(self):
        raise StopAsyncIteration


class Job:
    def __await__(self):
        return iter(())


class Money:
    def __add__(self, other):
        return self

    def __eq__(self, other):
        return True

    def __floordiv__(self, other):
        return self

    def __le__(self, other):
        return True

    def __contains__(self, item):
        return True

    def convert(self):
        return self


def notify(who, what):
    return who


class Wallet:
    def __init__(self, money: Money):
        self.money = money

    def convert(self):
        return self.money.convert()  # calls: shop.protocols.Money.convert

    def watch(self, other: Money):
        self._other = weakref.ref(other)

    def other_value(self):
        return self._other().convert()  # calls: shop.protocols.Money.convert

    def coins(self) -> t.List["Money"]:
        return []

    def total(self):
        for coin in self.coins():
            coin.convert()  # calls: shop.protocols.Money.convert


async def checkout(pool: Pool, rows: Rows, stream: Stream, job: Job, price: Money, tax: Money, data):
    with Lock() as held:  # calls: shop.protocols.Lock, shop.protocols.Lock.__enter__, shop.protocols.Lock.__exit__
        pass
    async with pool:  # calls: shop.protocols.Pool.__aenter__, shop.protocols.Pool.__aexit__
        pass
    for row in rows:  # calls: shop.protocols.Rows.__iter__, shop.protocols.Rows.__next__
        pass
    async for chunk in stream:  # calls: shop.protocols.Stream.__aiter__, shop.protocols.Stream.__anext__
        pass
    await job  # calls: shop.protocols.Job.__await__
    total = price + tax  # calls: shop.protocols.Money.__add__
    same = price == tax  # calls: shop.protocols.Money.__eq__
    share = price // tax  # calls: shop.protocols.Money.__floordiv__
    cheap = price <= tax  # calls: shop.protocols.Money.__le__
    held = tax in price  # calls: none
    with open("log.txt") as log:  # calls: none
        pass
    for item in data:  # calls: none
        pass
    count = len(data) + 1  # calls: none
    send = functools.partial(notify, "ops")
    send("up")  # calls: shop.protocols.notify
    later = partial(notify, "dev")
    later("down")  # calls: shop.protocols.notify
    alias = weakref.proxy(price)
    alias.convert()  # calls: shop.protocols.Money.convert
    ref = weakref.ref(price)
    ref().convert()  # calls: shop.protocols.Money.convert
    narrowed = typing.cast(Money, data)
    narrowed.convert()  # calls: shop.protocols.Money.convert
`;

const RUBY = `
//- lib/account.rb
class Account
  define_method(:greet) do |x|
    audit(x) # calls: lib/account.rb#Account.audit
  end

  def name=(value)
    @name = value
  end

  def audit(x)
    x
  end

  def rename
    self.name = "b" # calls: lib/account.rb#Account.name=
    greet(1) # calls: lib/account.rb#Account.greet
  end
end

def touch
  acct = Account.new # calls: lib/account.rb#Account
  acct.name = "a" # calls: lib/account.rb#Account.name=
end
`;

// A method defined in a block at the top of a required file is Object's (callable bare from the
// requiring file); one in a block of a file that is not required (an rspec example group's) is not.
const RUBY_BLOCKS = `
//- spec/helper.rb
RSpec.configure do |config|
  def capture(stream)
    stream
  end
end
//- spec/other_spec.rb
describe Other do
  def base
    1
  end
end
//- spec/thing_spec.rb
require "helper"

describe Thing do
  def invoke!
    capture(:stdout) # calls: spec/helper.rb#capture
  end

  it "works" do
    capture(:b) # calls: spec/helper.rb#capture
    base # calls: none
  end
end
`;

// zod's shape: `export namespace errorUtil { export const toString = … }` imported by name; the
// namespace's members are the file's top-level definitions (as the compiler's symbols name them).
const TS_NAMESPACE = `
//- src/helpers/errorUtil.ts
export namespace errorUtil {
  export const toString = (message?: string): string | undefined => message;
  export function errToObj(message?: string) {
    return { message };
  }
}
//- src/types.ts
import { errorUtil } from "./helpers/errorUtil";

export function gte(message?: string) {
  return errorUtil.toString(message); // calls: src/helpers/errorUtil.ts#toString
}
export function gt(message?: string) {
  return errorUtil.errToObj(message); // calls: src/helpers/errorUtil.ts#errToObj
}
`;

// hono's shape: middleware \`(c, next)\` typed by the handler type it is passed into, a named
// function type behind a rest parameter; a handler typed by a named function type.
const TS_CALLBACKS = `
//- src/context.ts
export class HonoRequest {
  json(): Promise<unknown> {
    return Promise.resolve({});
  }
}
export class Context<E = any> {
  req: HonoRequest = new HonoRequest();
  text(body: string): string {
    return body;
  }
}
export class Report {
  text(body: string): string {
    return body;
  }
}
export type Next = () => Promise<void>;
export type MiddlewareHandler<E extends object = any> = (c: Context<E>, next: Next) => Promise<void>;
export type Handler = (c: Context) => string;
//- src/hono.ts
import type { Handler, MiddlewareHandler } from "./context";

export class Hono {
  use(path: string, ...middleware: MiddlewareHandler[]): this {
    return this;
  }
  get(path: string, handler: Handler): this {
    return this;
  }
}
//- src/app.ts
import { Hono } from "./hono";

const app = new Hono();
app.use("*", async (c, next) => {
  await c.req.json(); // calls: src/context.ts#HonoRequest.json
  await next();
}, async (c, next) => c.text("second")); // calls: src/context.ts#Context.text
app.get("/", (c) => c.text("hi")); // calls: src/context.ts#Context.text, src/hono.ts#Hono.get
`;

describe("held-out call kinds", () => {
  it("Python: protocol calls on typed operands, partial, weakref.proxy and weakref.ref", async () => {
    const { want, got } = await markedCalls(PYTHON, "#");
    expect(got).toEqual(want);
  });

  it("Python: protocol edges are apart in the gold-shaped graph (a compiler's references hold none)", async () => {
    const { engine } = memoryEngine(parseFixture(PYTHON));
    const g = await engine.graph();
    expect(g.protocol_edges.map((e) => e.callee)).toContain("shop.protocols.Lock.__enter__");
    expect(g.call_edges.map((e) => e.callee)).not.toContain("shop.protocols.Lock.__enter__");
  });

  it("Ruby: block methods of a required file, not of others", async () => {
    const { want, got } = await markedCalls(RUBY_BLOCKS, "#");
    expect(got).toEqual(want);
  });

  it("TypeScript: a namespace's members through the namespace's imported name", async () => {
    const { want, got, graph } = await markedCalls(TS_NAMESPACE, "//");
    expect(got).toEqual(want);
    // the namespace is no import edge of its own file
    expect(graph.imports.filter((e) => e.from === e.to)).toEqual([]);
  });

  it("TypeScript: callback parameters typed by the named function type they are passed as", async () => {
    const { want, got } = await markedCalls(TS_CALLBACKS, "//");
    expect(got).toEqual(want);
  });

  it("Ruby: setters and define_method", async () => {
    const { want, got } = await markedCalls(RUBY, "#");
    expect(got).toEqual(want);
  });
});
