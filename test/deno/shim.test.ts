/**
 * The Vitest shim checks itself: every matcher the project uses must fail when it should, or the
 * Deno run of the shared suites would pass vacuously. Runs under `deno test` only.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

const fails = (f: () => unknown) => expect(f).toThrow();

describe("vitest shim: matchers", () => {
  it("toBe / not.toBe use Object.is", () => {
    expect(1).toBe(1);
    expect(NaN).toBe(NaN);
    fails(() => expect(1).toBe(2));
    fails(() => expect({}).toBe({}));
    fails(() => expect(1).not.toBe(1));
  });

  it("toEqual: deep, ignores undefined properties, keeps array and typed-array types apart", () => {
    expect({ a: [1, { b: 2 }], c: undefined }).toEqual({ a: [1, { b: 2 }] });
    expect(new Uint8Array([1, 2])).toEqual(new Uint8Array([1, 2]));
    expect(new Map([["a", 1]])).toEqual(new Map([["a", 1]]));
    fails(() => expect({ a: 1 }).toEqual({ a: 2 }));
    fails(() => expect([1, 2]).toEqual([1, 2, 3]));
    fails(() => expect(new Uint8Array([1, 2])).toEqual(new Uint8Array([1, 3])));
    fails(() => expect(new Uint8Array([1, 2])).toEqual([1, 2]));
    fails(() => expect(new Uint8Array(0)).toEqual(new Uint16Array(0)));
    fails(() => expect({ a: 1 }).toEqual({ a: 1, b: 2 }));
  });

  it("toMatchObject matches a recursive subset, arrays element by element", () => {
    const error = Object.assign(new Error("x"), { code: "io_error", data: { path: "a", extra: 1 } });
    expect(error).toMatchObject({ code: "io_error", data: { path: "a" } });
    expect({ list: [{ a: 1, b: 2 }] }).toMatchObject({ list: [{ a: 1 }] });
    fails(() => expect(error).toMatchObject({ code: "not_found" }));
    fails(() => expect({ list: [{ a: 1 }, { a: 2 }] }).toMatchObject({ list: [{ a: 1 }] }));
    fails(() => expect({}).toMatchObject({ a: undefined }));
  });

  it("asymmetric matchers inside toEqual and toThrow", () => {
    expect(["a", "b", "c"]).toEqual(expect.arrayContaining(["c", "a"]));
    expect([{ path: "x", reason: "too_large", size: 3 }]).toEqual([expect.objectContaining({ path: "x" })]);
    expect(() => {
      throw Object.assign(new Error("bad"), { code: "io_error" });
    }).toThrow(expect.objectContaining({ code: "io_error" }));
    fails(() => expect(["a"]).toEqual(expect.arrayContaining(["b"])));
    fails(() =>
      expect(() => {
        throw Object.assign(new Error("bad"), { code: "io_error" });
      }).toThrow(expect.objectContaining({ code: "not_found" })),
    );
    fails(() => expect(() => {}).toThrow());
  });

  it("toContain, comparisons, toMatch, toBeUndefined/Defined/Truthy", () => {
    expect([1, 2]).toContain(2);
    expect("abc").toContain("b");
    expect(["a"]).not.toContain("b");
    expect(3).toBeGreaterThan(2);
    expect(3).toBeGreaterThanOrEqual(3);
    expect(3).toBeLessThanOrEqual(3);
    expect("hello").toMatch(/ell/);
    expect(undefined).toBeUndefined();
    expect(0).toBeDefined();
    expect(1).toBeTruthy();
    fails(() => expect([1]).toContain(2));
    fails(() => expect(2).toBeGreaterThan(2));
    fails(() => expect(4).toBeLessThanOrEqual(3));
    fails(() => expect("x").toMatch(/y/));
    fails(() => expect(null).toBeUndefined());
    fails(() => expect(undefined).toBeDefined());
    fails(() => expect(0).toBeTruthy());
  });

  it("rejects / resolves unwrap promises and fail on the wrong outcome", async () => {
    await expect(Promise.reject(Object.assign(new Error("x"), { code: "c" }))).rejects.toMatchObject({ code: "c" });
    await expect(Promise.resolve(5)).resolves.toBe(5);
    await expect(expect(Promise.resolve(1)).rejects.toMatchObject({})).rejects.toThrow(/to reject/);
    await expect(expect(Promise.reject(new Error("x"))).resolves.toBe(1)).rejects.toThrow(/to resolve/);
    await expect(expect(Promise.reject({ code: "a" })).rejects.toMatchObject({ code: "b" })).rejects.toThrow();
  });

  it("a custom message leads the failure", () => {
    expect(() => expect(1, "the count").toBe(2)).toThrow(/^the count: /);
  });
});

describe("vitest shim: structure", () => {
  const order: string[] = [];
  beforeAll(() => {
    order.push("beforeAll");
  });
  beforeEach(() => {
    order.push("beforeEach");
  });
  afterAll(() => {
    if (order.join(",") !== "beforeAll,beforeEach,one,beforeEach,1,beforeEach,2,beforeEach,nested")
      throw new Error(`hooks ran as ${order.join(",")}`);
  });
  it("one", () => {
    order.push("one");
  });
  it.each([1, 2])("each %j", (n) => {
    order.push(String(n));
  });
  describe("nested", () => {
    it("inherits beforeEach", () => {
      order.push("nested");
    });
  });
  it.skip("a skipped test does not run", () => {
    throw new Error("ran");
  });
});
