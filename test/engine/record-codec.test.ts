// The stored form of a record (core/engine/snapshot.ts): one JSON value whose calls and bindings
// come last behind its one line break. A load decodes and checks the head; the calls and bindings
// are decoded and checked when first read, and when they do not read back the read throws the
// error the engine repairs by (isDamagedRecord). Text without the break is read whole, as before.
import { describe, expect, it } from "vitest";
import { seal, unseal } from "../../src/core/engine/seal.ts";
import {
  checkRecord,
  decodeJson,
  decodeRecord,
  encodeRecord,
  freshRecord,
  isDamagedRecord,
  readsWhole,
  storedForm,
} from "../../src/core/engine/snapshot.ts";
import type { FileRecord } from "../../src/core/extract/record.ts";

const record: FileRecord = {
  path: "app/shop.py",
  language: "python",
  hash: "b".repeat(40),
  lines: 9,
  terms: "shop cart",
  definitions: [
    {
      name: "checkout",
      qualified: "checkout",
      kind: "function",
      parent: -1,
      start: 1,
      end: 9,
      nameLine: 1,
      nameCol: 4,
      signature: "def checkout(cart):",
      bodyStart: 2,
      exported: true,
      doc: "Pays.\nA line break inside a string is written \\n, never raw.",
    },
  ],
  imports: [{ kind: "named", module: "app.cart", name: "Cart", line: 1, scope: -1 }],
  calls: [{ name: "total", receiver: "cart", kind: "call", line: 3, col: 8, caller: 0 }],
  typeRefs: [],
  bindings: [{ kind: "param", name: "cart", type: "Cart", line: 1, scope: 0 }],
  diagnostics: [],
};

const text = (bytes: Uint8Array) => new TextDecoder().decode(unseal(bytes));
/** `bytes` with its text changed by `edit`, sealed again (a good checksum over damaged content). */
const resealed = (bytes: Uint8Array, edit: (t: string) => string) => seal(new TextEncoder().encode(edit(text(bytes))));

describe("the stored record", () => {
  it("is one JSON value with one line break, before its calls and bindings", () => {
    const t = text(encodeRecord(record));
    expect(t.split("\n")).toHaveLength(2);
    expect(t.split("\n")[1]).toMatch(/^"calls":\[/);
    const { path, ...stored } = record;
    expect(checkRecord(decodeJson(encodeRecord(record)))).toEqual(stored);
  });

  it("decodes to the record, from the store and from this process alike", () => {
    const bytes = encodeRecord(record);
    expect(decodeRecord(bytes, record.path)).toEqual(record);
    expect(freshRecord(bytes, record.path)).toEqual(record);
    expect(storedForm(record).record).toEqual(record);
    expect(JSON.parse(JSON.stringify(decodeRecord(bytes, record.path)))).toEqual(record);
  });

  it("decodes its calls and bindings only when read: damage there passes the load and throws when read", () => {
    const bytes = resealed(encodeRecord(record), (t) => t.replace('"receiver":"cart"', '"receiver":7'));
    const loaded = decodeRecord(bytes, record.path)!;
    expect(loaded.definitions).toEqual(record.definitions);
    expect(readsWhole(loaded)).toBe(false);
    let error: unknown;
    try {
      void loaded.calls;
    } catch (e) {
      error = e;
    }
    expect(isDamagedRecord(error)).toBe(true);
    expect((error as { data: unknown }).data).toEqual({ paths: [record.path], records: true });
    expect(() => loaded.bindings).toThrow(/app\/shop.py/);
    const cut = resealed(encodeRecord(record), (t) => t.slice(0, -3));
    expect(readsWhole(decodeRecord(cut, record.path)!)).toBe(false);
  });

  it("refuses a damaged head at load", () => {
    const bytes = resealed(encodeRecord(record), (t) => t.replace('"nameCol":4', '"nameCol":"4"'));
    expect(decodeRecord(bytes, record.path)).toBeUndefined();
    expect(
      decodeRecord(
        resealed(encodeRecord(record), (t) => t.replace(",\n", "\n")),
        record.path,
      ),
    ).toBeUndefined();
  });

  it("reads text without the break whole, and checks all of it at load", () => {
    const { path, ...stored } = record;
    expect(decodeRecord(seal(new TextEncoder().encode(JSON.stringify(stored))), path)).toEqual(record);
    const bad = { ...stored, calls: [{ ...record.calls[0]!, receiver: 7 }] };
    expect(decodeRecord(seal(new TextEncoder().encode(JSON.stringify(bad))), path)).toBeUndefined();
  });
});
