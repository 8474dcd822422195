/**
 * Two guesses by unique name that reported wrong callers with confidence (branch guess7), found on real code:
 * - TypeScript: a property read on a value whose declared type is an interface of the project (`t.procedure` after
 *   `t = initTRPC.create()` returned a `TRPCRootObject`) holds what the interface declares, which the index keeps no
 *   definition for: tRPC's `t.procedure.mutation(…)` was linked to the client's one `TRPCUntypedClient.mutation`.
 *   A module-level variable (`export const initTRPC = new TRPCBuilder()`) is now found through imports and star
 *   exports, so `initTRPC.meta()` is a typed call instead of a guess.
 * - Python: a local bound to an operator on an outside object (`p = tmp_path / "x.py"`) or to what a method no
 *   definition of the project declares returns (`p = base.joinpath("x").with_suffix(".py")`) is an outside object:
 *   pytest's `p.write_text(…)` on a pathlib.Path was linked to `LocalPath.write_text`, 74 times. Reading a
 *   `@property` runs it: `pytester.path` is the `Path` its annotation names.
 * A line marked `calls: A` must have edges to exactly those callees; `calls: none` to none.
 */
import { describe, expect, it } from "vitest";
import { markedCalls } from "../support/marked-calls.ts";

const TYPESCRIPT = `
//- src/builder.ts
export interface Root {
  procedure: unknown;
}
export class Builder {
  meta() {
    return new Builder();
  }
  create(): Root {
    return makeRoot();
  }
}
export const initBuilder = new Builder();
function makeRoot(): Root {
  return { procedure: {} } as Root;
}
//- src/index.ts
export * from "./builder";
//- src/use.test.ts
import { initBuilder } from "./index";
import type { Root } from "./builder";

const t = initBuilder.create(); // calls: src/builder.ts#Builder.create
t.procedure.meta(); // calls: none
initBuilder.meta(); // calls: src/builder.ts#Builder.meta

export function wire(root: Root, anything) {
  root.procedure.meta(); // calls: none
  return anything.meta(); // calls: src/builder.ts#Builder.meta
}
`;

/**
 * A JavaScript or TypeScript function no class declares is an object's member only through an object literal (a
 * shape) or a namespace (which imports resolve): tRPC's module function `once` took `ctx.ee.once(…)` (Node's
 * EventEmitter), its hooks factory's nested `useQuery` the calls on its client proxies. A function assigned to a
 * prototype is a method and keeps its guess.
 */
const FUNCTIONS = `
//- src/once.ts
export function once(fn: () => void) {
  return fn;
}
//- src/hooks.ts
export function createHooks() {
  function useQuery(path: string) {
    return path;
  }
  return { useQuery };
}
//- src/legacy.js
function Widget() {}
Widget.prototype.render = function () {
  return 1;
};
//- src/use.ts
export function wire(ctx, client, widget) {
  ctx.ee.once("created", () => 1); // calls: none
  client.post.list.useQuery(); // calls: none
  return widget.render(); // calls: src/legacy.js#Widget.render
}
`;

const PYTHON = `
//- proj/__init__.py
//- proj/path.py
class LocalPath:
    def write_text(self, data):
        return data

    def join(self, name):
        return self


def make_local():
    return LocalPath()
//- proj/maker.py
from pathlib import Path

from .path import LocalPath, make_local


class Maker:
    factory = staticmethod(make_local)

    def mkdir(self, name) -> Path:
        return Path(name)

    @property
    def path(self) -> Path:
        return Path(".")

    def fill(self):
        made = self.__class__.factory()
        made.write_text("x")  # calls: proj.path.LocalPath.write_text


def make(maker: Maker, base, local: LocalPath):
    p = maker.mkdir("x") / "a.py"  # calls: proj.maker.Maker.mkdir
    p.write_text("x")  # calls: none
    (maker.mkdir("y") / "sub" / "b.py").write_text("x")  # calls: proj.maker.Maker.mkdir
    q = base.joinpath("c").with_suffix(".py")
    q.write_text("x")  # calls: none
    s = local.join("d")  # calls: proj.path.LocalPath.join
    s.write_text("x")  # calls: proj.path.LocalPath.write_text
    u = base / "e"
    u.write_text("x")  # calls: proj.path.LocalPath.write_text
    v = maker.path / "f"
    v.write_text("x")  # calls: none
`;

describe("guesses by unique name through shapes and outside locals", () => {
  it("TypeScript: no guess through a property of an interface-typed value; module variables resolve", async () => {
    const { want, got, graph } = await markedCalls(TYPESCRIPT, "//");
    expect(got).toEqual(want);
    // (the variable is found through the star export: a typed call, no longer a guess)
    const meta = graph.calls.find((e) => e.file === "src/use.test.ts" && e.line === 6);
    expect(meta?.resolution).toBe("type");
  });

  it("JavaScript, TypeScript: no guess onto a function no class declares, through a receiver", async () => {
    const { want, got } = await markedCalls(FUNCTIONS, "//");
    expect(got).toEqual(want);
  });

  it("Python: a local holding an operator's or an outside method's result is outside", async () => {
    const { want, got } = await markedCalls(PYTHON);
    expect(got).toEqual(want);
  });
});
