/**
 * What Python's local bindings hold when the value is a call to a wrapper (`functools.partial`,
 * `weakref.proxy`, `weakref.ref`, `typing.cast`): its first argument as alias, dereferenced alias or
 * type, and nothing when that argument is of another kind. The query reads every call on the right
 * of an assignment with one pattern and the extractor unwraps the callees the pattern's `unwrap.*`
 * properties name (before, a pattern per wrapper with `#match?`): these cases pin what each wrapper
 * gives, the edges included (a lambda or a comment first, a wrapper in a field, a `return`), as
 * the patterns per wrapper gave them.
 */
import { describe, expect, it } from "vitest";
import { parseFile } from "../../src/core/engine/parse-file.ts";
import { createParserRuntime } from "../../src/core/parse/runtime.ts";
import { languageById } from "../../src/languages/index.ts";
import { NodeWasmSource } from "../../src/platform/node/index.ts";

const SOURCE = `import functools, typing, weakref
from functools import partial


def setup(obj, data, notify):
    send = functools.partial(notify, "ops")
    later = partial(notify)
    proxied = weakref.proxy(obj)
    ref = weakref.ref(obj)
    narrowed = typing.cast(Money, data)
    quoted = typing.cast("Money", data)
    made = Money(data)
    odd = partial(lambda: 0)
    noted = partial(  # first a comment
        notify)
    gen = partial(x for x in data)
    dotted = weakref.ref(self.obj)


class Holder:
    def __init__(self, obj):
        self.r = weakref.ref(obj)
        self.p = partial(obj)
        self.bad = weakref.ref(lambda: 0)


@pytest.fixture
def client_factory():
    return partial(Client, 1)


@pytest.fixture
def client():
    return Client()
`;

async function bindings() {
  const runtime = await createParserRuntime(new NodeWasmSource());
  const record = await parseFile(runtime, languageById("python")!, SOURCE, "shop/setup.py", "h");
  const byName = new Map<string, Record<string, unknown>>();
  for (const b of record!.bindings) {
    const { line: _line, scope: _scope, ...rest } = b;
    byName.set(b.kind === "return" ? `return@${b.line}` : b.name, rest);
  }
  return byName;
}

describe("Python bindings to wrapper calls", () => {
  it("alias, deref and type from the first argument; a plain call keeps its callee as value", async () => {
    const b = await bindings();
    expect(b.get("send")).toEqual({ kind: "assign", name: "send", alias: "notify" });
    expect(b.get("later")).toEqual({ kind: "assign", name: "later", alias: "notify" });
    expect(b.get("proxied")).toEqual({ kind: "assign", name: "proxied", alias: "obj" });
    expect(b.get("ref")).toEqual({ kind: "assign", name: "ref", alias: "obj", deref: true });
    expect(b.get("dotted")).toEqual({ kind: "assign", name: "dotted", alias: "self.obj", deref: true });
    expect(b.get("narrowed")).toEqual({ kind: "assign", name: "narrowed", type: "Money" });
    expect(b.get("quoted")).toEqual({ kind: "assign", name: "quoted", type: '"Money"' });
    expect(b.get("made")).toEqual({ kind: "assign", name: "made", value: "Money" });
  });

  it("a wrapper whose first argument is not a name keeps neither value nor alias", async () => {
    // The plain `x = …` pattern still binds the name.
    const b = await bindings();
    for (const name of ["odd", "noted", "gen"]) expect(b.get(name), name).toEqual({ kind: "assign", name });
  });

  it("fields unwrap weakref.ref only; returns unwrap partial only", async () => {
    const b = await bindings();
    expect(b.get("r")).toMatchObject({ kind: "field", receiver: "self", alias: "obj", deref: true });
    expect(b.get("r")).not.toHaveProperty("value");
    expect(b.get("p")).toMatchObject({ kind: "field", receiver: "self", value: "partial" });
    // No field pattern binds a name whatever its value: a wrapper of nothing binds nothing.
    expect(b.has("bad")).toBe(false);
    const returns = [...b].filter(([key]) => key.startsWith("return@")).map(([, rest]) => rest);
    expect(returns).toEqual([
      { kind: "return", name: "return", alias: "Client" },
      { kind: "return", name: "return", value: "Client" },
    ]);
  });
});
