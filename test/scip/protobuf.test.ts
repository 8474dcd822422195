/**
 * The hand-written protobuf writer against encodings fixed by the protobuf documentation (the
 * "150" and "testing" examples of protobuf.dev/programming-guides/encoding) and against lengths
 * that need a wider varint than was reserved, in both directions.
 */
import { describe, expect, it } from "vitest";
import { ProtoWriter } from "../../src/core/scip/protobuf.ts";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");

describe("ProtoWriter", () => {
  it("writes the documented encodings", () => {
    const w = new ProtoWriter();
    w.int(1, 150);
    expect(hex(w.take())).toBe("089601");
    w.string(2, "testing");
    expect(hex(w.take())).toBe("120774657374696e67");
    // A nested message holding field 1 = 150 (the guide's "Test3" example).
    w.message(3, () => w.int(1, 150));
    expect(hex(w.take())).toBe("1a03089601");
    // Packed repeated: [3, 270, 86942] (the guide's "Test5" example, field 6).
    w.packed(6, [3, 270, 86942]);
    expect(hex(w.take())).toBe("3206038e029ea705");
  });

  it("leaves out proto3 defaults, and writes true as 1", () => {
    const w = new ProtoWriter();
    w.int(1, 0);
    w.string(2, "");
    w.bool(3, false);
    w.packed(4, []);
    expect(w.length).toBe(0);
    w.bool(3, true);
    expect(hex(w.take())).toBe("1801");
  });

  it("prefixes long strings and messages with their exact length", () => {
    const w = new ProtoWriter();
    // 200 bytes need a 2-byte length (c8 01).
    const ascii = "a".repeat(200);
    w.string(1, ascii);
    expect(hex(w.take().subarray(0, 3))).toBe("0ac801");
    // 50 units reserve 150 bytes (2-byte varint) but take 50 bytes (1-byte varint): the text moves left.
    const short = "é".repeat(25) + "x".repeat(25);
    w.string(1, short);
    const bytes = w.take();
    expect(bytes[1]).toBe(75);
    expect(new TextDecoder().decode(bytes.subarray(2))).toBe(short);
    // A message whose body needs a 2-byte length moves right behind its 1-byte reservation.
    w.message(2, () => w.string(1, "b".repeat(300)));
    const nested = w.take();
    expect(hex(nested.subarray(0, 3))).toBe("12af02");
    expect(nested.length).toBe(3 + 3 + 300);
    expect(() => w.int(1, -1)).toThrow(RangeError);
  });
});
