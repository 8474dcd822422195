/**
 * Where an untyped callback parameter sits (TypeScript's `callbackSite` hook, stored as a param
 * binding's `argOf`): the callee, the argument's place among the call's arguments and the
 * parameter's among the function's, comments not counted, through parentheses and `as`; a
 * parameter of a declared function or method has none. The hook reads each parent and type once
 * and lists children only for a parameter that sits in a call (it listed them first before).
 */
import { describe, expect, it } from "vitest";
import { parseFile } from "../../src/core/engine/parse-file.ts";
import { createParserRuntime } from "../../src/core/parse/runtime.ts";
import { languageById } from "../../src/languages/index.ts";
import { NodeWasmSource } from "../../src/platform/node/index.ts";

const SOURCE = `
f((first, second) => 0);
new Box(single => 0);
obj.m(1, ((wrapped) => 0) as any);
run(/* a */ 1, function (p0, /* b */ later) {});
g(h(x => 0));
function declared(plain) {}
class C { method(own) {} }
const assigned = (free) => 0;
`;

describe("callback parameters", () => {
  it("know their call, argument and place", async () => {
    const runtime = await createParserRuntime(new NodeWasmSource());
    const record = await parseFile(runtime, languageById("typescript")!, SOURCE, "cb.ts", "h");
    const sites = Object.fromEntries(record!.bindings.filter((b) => b.kind === "param").map((b) => [b.name, b.argOf]));
    expect(sites).toEqual({
      first: { callee: "f", arg: 0, param: 0, isNew: false },
      second: { callee: "f", arg: 0, param: 1, isNew: false },
      single: { callee: "Box", arg: 0, param: 0, isNew: true },
      wrapped: { callee: "obj.m", arg: 1, param: 0, isNew: false },
      p0: { callee: "run", arg: 1, param: 0, isNew: false },
      later: { callee: "run", arg: 1, param: 1, isNew: false },
      x: { callee: "h", arg: 0, param: 0, isNew: false },
      plain: undefined,
      own: undefined,
      free: undefined,
    });
  });
});
