/** The Store contract (STYLE habit 3): one suite, run against every implementation. */
import { describe, expect, it } from "vitest";
import type { Store } from "../../src/core/ports.ts";

/** Builds an empty Store (a fresh one per call). */
export type MakeStore = () => Promise<Store>;

const bytes = (s: string) => new TextEncoder().encode(s);

/** Keys every Store must refuse with `invalid_argument`. */
export const BAD_KEYS = [
  "",
  "/abs",
  "/",
  "../x",
  "a/../b",
  "a/./b",
  "..",
  ".",
  "a//b",
  "a/",
  "a b",
  "a\\b",
  ".hidden",
  "a/.tmp",
  "C:/x",
  "é",
];

async function expectInvalid(p: Promise<unknown>): Promise<void> {
  await expect(p).rejects.toMatchObject({ name: "EngineError", code: "invalid_argument" });
}

/** Registers the Store contract for one implementation. */
export function storeContract(name: string, make: MakeStore): void {
  describe(`Store contract: ${name}`, () => {
    it("get of a missing key is undefined", async () => {
      const store = await make();
      expect(await store.get("nothing")).toBeUndefined();
      expect(await store.get("deep/nothing/here.json")).toBeUndefined();
    });

    it("set then get round-trips, nested keys included", async () => {
      const store = await make();
      await store.set("a", bytes("one"));
      await store.set("v1/records/ab/xyz-abc.json", bytes("{}"));
      expect(await store.get("a")).toEqual(bytes("one"));
      expect(await store.get("v1/records/ab/xyz-abc.json")).toEqual(bytes("{}"));
    });

    it("every byte value and the empty value round-trip exactly", async () => {
      const store = await make();
      const all = Uint8Array.from({ length: 512 }, (_, i) => (i * 7) % 256);
      await store.set("bin", all);
      await store.set("empty", new Uint8Array(0));
      expect(await store.get("bin")).toEqual(all);
      expect(await store.get("empty")).toEqual(new Uint8Array(0));
    });

    it("a value given to set is copied: mutating it later changes nothing", async () => {
      const store = await make();
      const v = bytes("abc");
      await store.set("k", v);
      v[0] = 0x7a;
      const got = await store.get("k");
      expect(got).toEqual(bytes("abc"));
      got![1] = 0x7a;
      expect(await store.get("k")).toEqual(bytes("abc"));
    });

    it("a subarray is stored as its own bytes, not its whole buffer", async () => {
      const store = await make();
      const big = bytes("0123456789");
      await store.set("slice", big.subarray(3, 6));
      expect(await store.get("slice")).toEqual(bytes("345"));
    });

    it("set overwrites", async () => {
      const store = await make();
      await store.set("k", bytes("first, longer value"));
      await store.set("k", bytes("second"));
      expect(await store.get("k")).toEqual(bytes("second"));
      expect(await store.keys()).toEqual(["k"]);
    });

    it("delete removes a key; deleting a missing key is fine", async () => {
      const store = await make();
      await store.set("k", bytes("v"));
      await store.set("dir/k2", bytes("v"));
      await store.delete("k");
      await store.delete("dir/k2");
      await store.delete("never-there");
      await store.delete("no/such/dir/key");
      expect(await store.get("k")).toBeUndefined();
      expect(await store.get("dir/k2")).toBeUndefined();
      expect(await store.keys()).toEqual([]);
    });

    it("keys lists every key, sorted, filtered by prefix", async () => {
      const store = await make();
      for (const k of ["v2/snapshot.json", "v2/records/aa/1.json", "v2/records/bb/2.json", "v1/old.json", "top"])
        await store.set(k, bytes(k));
      expect(await store.keys()).toEqual([
        "top",
        "v1/old.json",
        "v2/records/aa/1.json",
        "v2/records/bb/2.json",
        "v2/snapshot.json",
      ]);
      expect(await store.keys("")).toEqual(await store.keys());
      expect(await store.keys("v2/")).toEqual(["v2/records/aa/1.json", "v2/records/bb/2.json", "v2/snapshot.json"]);
      expect(await store.keys("v2/records/")).toEqual(["v2/records/aa/1.json", "v2/records/bb/2.json"]);
      expect(await store.keys("v2/rec")).toEqual(["v2/records/aa/1.json", "v2/records/bb/2.json"]);
      expect(await store.keys("v3/")).toEqual([]);
    });

    it("a key that is only a prefix of other keys has no value", async () => {
      const store = await make();
      await store.set("v/x", bytes("x"));
      expect(await store.get("v")).toBeUndefined();
    });

    it("concurrent writes to one key leave one of the written values", async () => {
      const store = await make();
      const values = Array.from({ length: 8 }, (_, i) => bytes(`value-${i}-${"x".repeat(i * 1000)}`));
      await Promise.all(values.map((v) => store.set("race", v)));
      const got = await store.get("race");
      expect(values.some((v) => v.length === got?.length && v.every((b, i) => got[i] === b))).toBe(true);
      expect(await store.keys()).toEqual(["race"]);
    });

    it.each(BAD_KEYS)("refuses the key %j with invalid_argument (get, set, delete)", async (key) => {
      const store = await make();
      await expectInvalid(store.get(key));
      await expectInvalid(store.set(key, bytes("x")));
      await expectInvalid(store.delete(key));
      expect(await store.keys()).toEqual([]);
    });

    it("has a label", async () => {
      const store = await make();
      expect(typeof store.label).toBe("string");
      expect(store.label.length).toBeGreaterThan(0);
    });
  });
}
