/** defined(): the optional-field spread, without undefined values. */
import { describe, expect, it } from "vitest";
import { defined } from "../../src/shared/defined.ts";

describe("defined", () => {
  it("leaves out undefined fields and keeps every other value, in order", () => {
    const out = defined({ a: undefined, b: 0, c: "", d: null, e: false, f: undefined, g: [1] });
    expect(out).toEqual({ b: 0, c: "", d: null, e: false, g: [1] });
    expect(Object.keys(out)).toEqual(["b", "c", "d", "e", "g"]);
    expect("a" in out).toBe(false);
    expect(JSON.stringify({ x: 1, ...defined({ y: undefined, z: 2 }) })).toBe('{"x":1,"z":2}');
  });
});
