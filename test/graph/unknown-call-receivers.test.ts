/**
 * A receiver that is what a call of a method the project does not define returns is no untyped local data: the
 * last-resort guess by unique name must not link it. Found on real code (tryit6): pytest's
 * `pytester.path.joinpath("x.py").write_text(…)` (pathlib's `joinpath` returns a pathlib.Path) was linked to the
 * project's one `write_text`, `LocalPath.write_text`, 264 times; tRPC's builder chain
 * `publicProcedure.input(schema).mutation(fn)` to the client's `TRPCUntypedClient.mutation`, 146 times. When the
 * call the receiver ends in is one the project defines, its result is still unknown data and the guess stands.
 * A line marked `# calls: A` must have edges to exactly those callees; `# calls: none` to none.
 */
import { describe, expect, it } from "vitest";
import { markedCalls } from "../support/marked-calls.ts";

const PYTHON = `
//- proj/__init__.py
//- proj/path.py
class LocalPath:
    def write_text(self, data, encoding="utf-8"):
        return data

    def child(self, name):
        return name
//- proj/maker.py
def make(base, name):
    base.joinpath("conftest.py").write_text("x")  # calls: none
    base.joinpath(name).with_suffix(".py").write_text("x")  # calls: none
    base.child(name).write_text("x")  # calls: proj.path.LocalPath.child, proj.path.LocalPath.write_text
    base.write_text("x")  # calls: proj.path.LocalPath.write_text
    cache = {}
    cache.get(name).write_text("x")  # calls: proj.path.LocalPath.write_text
`;

const TYPESCRIPT = `
//- src/client.ts
export class Client {
  mutation(path: string) {
    return path;
  }
  input(value: unknown) {
    return value;
  }
}
//- src/router.ts
import { procedure } from "./procedure";

export const routes = {
  create: procedure.output({ id: 1 }).mutation(() => 1), // calls: none
  update: procedure.use((x: unknown) => x).output({ id: 2 }).mutation(() => 2), // calls: none
  remove: procedure.input({ id: 3 }).mutation(() => 3), // calls: src/client.ts#Client.input, src/client.ts#Client.mutation
};

export function send(c) {
  return c.mutation("x"); // calls: src/client.ts#Client.mutation
}
//- src/procedure.ts
export const procedure = makeProcedure();
function makeProcedure() {
  return {};
}
`;

/**
 * What a project method returns when its annotation names a class from outside the project (pytest's
 * `Pytester.mkdir(…) -> Path`, `TempPathFactory.getbasetemp() -> Path`): an outside object, so
 * `sub.stat()` is pathlib's, not the one `stat` the project defines. `-> Self` is the method's own
 * class, and a type variable (`-> T | D`, stash.get's) says nothing of the class: both keep what
 * they link or guess.
 */
const PYTHON_RETURNS = `
//- proj/__init__.py
//- proj/path.py
class LocalPath:
    def stat(self):
        return 1
//- proj/stash.py
from typing import TypeVar

T = TypeVar("T")
D = TypeVar("D")


class Stash:
    def get(self, key, default: D) -> T | D:
        return default
//- proj/hook.py
class Hook:
    def set_session(self, session):
        return session
//- proj/nodes.py
from typing_extensions import Self


class Node:
    @classmethod
    def from_parent(cls, parent) -> Self:
        return cls()

    def add_marker(self, name):
        return name
//- proj/maker.py
from pathlib import Path

from .nodes import Node
from .stash import Stash


class Maker:
    def mkdir(self, name) -> Path:
        return Path(name)


def make(maker: Maker, stash: Stash):
    sub = maker.mkdir("x")  # calls: proj.maker.Maker.mkdir
    sub.stat()  # calls: none
    maker.mkdir("y").stat()  # calls: proj.maker.Maker.mkdir
    node = Node.from_parent(None)  # calls: proj.nodes.Node.from_parent
    node.add_marker("foo")  # calls: proj.nodes.Node.add_marker
    state = stash.get("k", None)  # calls: proj.stash.Stash.get
    state.set_session(None)  # calls: proj.hook.Hook.set_session
`;

/**
 * A vendored copy is a library the project keeps in its tree (tRPC's `packages/server/src/vendor/unpromise`): the
 * project reaches it through imports, which resolve. Its one `subscribe` is no guess for an untyped receiver
 * outside it (84 of tRPC's calls, `client.sub.subscribe(…)` on its own proxies, were linked to
 * `Unpromise.subscribe`); inside the vendored folder the guess stands.
 */
const VENDORED = `
//- src/vendor/unpromise/unpromise.ts
export class Unpromise {
  subscribe(listener: unknown) {
    return listener;
  }
  static settle(p) {
    return p.subscribe(1); // calls: src/vendor/unpromise/unpromise.ts#Unpromise.subscribe
  }
}
//- src/links.ts
import { Unpromise } from "./vendor/unpromise/unpromise";

export function watch(client, promise: Promise<number>) {
  client.sub.subscribe(undefined, {}); // calls: none
  return new Unpromise().subscribe(promise); // calls: src/vendor/unpromise/unpromise.ts#Unpromise, src/vendor/unpromise/unpromise.ts#Unpromise.subscribe
}
`;

/**
 * A bare `Final` (or `ClassVar`) annotation says how a name may be bound, not what it holds: pytest's
 * `self._fixture_defs: Final = fixture_defs` made every value read from it an outside object
 * (`Final.get().execute`, a call into a package), so `fixturedef.execute(…)` in `_get_active_fixturedef` was
 * linked to nothing while `callers FixtureDef.execute` said "0 resolved call sites … Seen in full".
 */
const PYTHON_FINAL = `
//- proj/__init__.py
//- proj/fixtures.py
from typing import ClassVar, Final


class FixtureDef:
    def execute(self, request):
        return request


class Request:
    registry: ClassVar = {}

    def __init__(self, defs):
        self._defs: Final = defs

    def active(self, name):
        fixturedef = self._defs.get(name)
        fixturedef.execute(self)  # calls: proj.fixtures.FixtureDef.execute
        return self.registry.get(name).execute(self)  # calls: proj.fixtures.FixtureDef.execute
`;

describe("receivers a call outside the project's definitions returns", () => {
  it("Python: a bare Final or ClassVar annotation makes no outside object", async () => {
    const { want, got } = await markedCalls(PYTHON_FINAL);
    expect(got).toEqual(want);
  });

  it("TypeScript: a vendored library's one method is no guess for code outside it", async () => {
    const { want, got } = await markedCalls(VENDORED, "//");
    expect(got).toEqual(want);
  });

  it("Python: a project method annotated to return an outside class returns an outside object", async () => {
    const { want, got } = await markedCalls(PYTHON_RETURNS);
    expect(got).toEqual(want);
  });

  it("Python: x.joinpath(…).write_text(…) is not the project's one write_text", async () => {
    const { want, got } = await markedCalls(PYTHON);
    expect(got).toEqual(want);
  });

  it("TypeScript: a builder chain's .mutation(…) is not the project's one mutation", async () => {
    const { want, got } = await markedCalls(TYPESCRIPT, "//");
    expect(got).toEqual(want);
  });
});
