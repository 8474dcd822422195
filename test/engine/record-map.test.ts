// RecordMap: records held as their stored bytes read as present through every Map method, decode
// to what storedForm keeps, and move between maps without being decoded.
import { describe, expect, it } from "vitest";
import { RecordMap } from "../../src/core/engine/record-map.ts";
import { storedBytes, storedForm } from "../../src/core/engine/snapshot.ts";
import type { FileRecord } from "../../src/core/extract/record.ts";

const record = (path: string, name: string): FileRecord => ({
  path,
  language: "python",
  hash: "a".repeat(40),
  lines: 3,
  definitions: [
    {
      name,
      qualified: name,
      kind: "function",
      parent: -1,
      start: 1,
      end: 2,
      nameLine: 1,
      nameCol: 4,
      signature: `def ${name}():`,
      bodyStart: 2,
      exported: true,
    },
  ],
  imports: [],
  calls: [],
  typeRefs: [],
  bindings: [],
  diagnostics: [],
});

describe("RecordMap", () => {
  it("iterates in insertion order, whether entries were held or set (a pool holds, the thread sets)", () => {
    const map = new RecordMap();
    map.set("a.py", record("a.py", "f"));
    map.hold("b.py", storedBytes(record("b.py", "g")));
    map.set("c.py", record("c.py", "h"));
    map.hold("d.py", storedBytes(record("d.py", "i")));
    map.set("b.py", record("b.py", "g2")); // set over a held entry keeps its place, as Map.set does
    expect([...map.keys()]).toEqual(["a.py", "b.py", "c.py", "d.py"]);
    expect(map.size).toBe(4);
    expect([...map.values()].map((r) => r.definitions[0]!.name)).toEqual(["f", "g2", "h", "i"]);
    const plain = new Map([...map]);
    expect([...plain.keys()]).toEqual([...map.keys()]);
  });

  it("holds bytes as entries that decode on first get, to what storedForm keeps", () => {
    const map = new RecordMap();
    const a = record("a.py", "f");
    map.hold("a.py", storedBytes(a));
    map.set("b.py", record("b.py", "g"));
    expect(map.has("a.py")).toBe(true);
    expect(map.size).toBe(2);
    expect(map.stored("a.py")).toBeInstanceOf(Uint8Array);
    const got = map.get("a.py");
    expect(got).toEqual(storedForm(a).record);
    expect(map.get("a.py")).toBe(got); // decoded once, the same object after
    expect(map.stored("a.py")).toBeUndefined();
    expect(map.size).toBe(2);
  });

  it("decodes held entries when iterated, and delete and clear reach them", () => {
    const map = new RecordMap();
    map.hold("a.py", storedBytes(record("a.py", "f")));
    map.hold("b.py", storedBytes(record("b.py", "g")));
    expect([...map.keys()].sort()).toEqual(["a.py", "b.py"]);
    expect([...map.values()].map((r) => r.definitions[0]!.name).sort()).toEqual(["f", "g"]);
    map.hold("c.py", storedBytes(record("c.py", "h")));
    expect(map.delete("c.py")).toBe(true);
    expect(map.has("c.py")).toBe(false);
    map.hold("d.py", storedBytes(record("d.py", "k")));
    map.clear();
    expect(map.size).toBe(0);
    expect(map.get("d.py")).toBeUndefined();
  });

  it("carries an entry from another map as it is there: held bytes stay undecoded", () => {
    const from = new RecordMap();
    from.hold("a.py", storedBytes(record("a.py", "f")));
    from.set("b.py", record("b.py", "g"));
    const to = new RecordMap();
    expect(to.carry(from, "a.py")).toBe(true);
    expect(to.stored("a.py")).toBe(from.stored("a.py"));
    expect(to.carry(from, "b.py")).toBe(true);
    expect(to.get("b.py")).toBe(from.get("b.py"));
    expect(to.carry(from, "missing.py")).toBe(false);
    expect(to.carry(new Map([["c.py", record("c.py", "h")]]), "c.py")).toBe(true);
    expect(to.get("c.py")?.definitions[0]!.name).toBe("h");
  });
});
