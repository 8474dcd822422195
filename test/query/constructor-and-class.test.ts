/**
 * A class whose constructors bear its name (C#, Java) is found by its name, bare or as
 * `path::Name`: Newtonsoft.Json's `context JsonWriter` and even `JsonWriter.cs::JsonWriter` were
 * ambiguous between the class and its two constructors, and the hint offered path::name again.
 */
import { describe, expect, it } from "vitest";
import { memoryEngine } from "../support/platform.ts";

const FILES = {
  "Src/Json/JsonWriter.cs": [
    "namespace Json.Core",
    "{",
    "    public class JsonWriter",
    "    {",
    "        private int _depth;",
    "        public JsonWriter() { _depth = 0; }",
    "        public JsonWriter(int depth) { _depth = depth; }",
    "        public void Flush() { }",
    "    }",
    "}",
    "",
  ].join("\n"),
  "src/main/java/org/ex/Element.java":
    "package org.ex;\n\npublic class Element {\n    Element() {}\n    Element(String tag) {}\n    void text() {}\n}\n",
};

describe("a class and its constructors of one name", () => {
  it("the name is the class; Name.Name is its constructors", async () => {
    const { engine } = memoryEngine(FILES);
    for (const target of ["JsonWriter", "Src/Json/JsonWriter.cs::JsonWriter", "Json.Core.JsonWriter"]) {
      const s = await engine.signature(target);
      expect(s.symbol.kind, target).toBe("class");
      expect(s.symbol.path, target).toBe("Src/Json/JsonWriter.cs");
    }
    expect((await engine.signature("Element")).symbol.kind).toBe("class");
    expect((await engine.context("JsonWriter", { budget: 600 })).text).toContain("class JsonWriter");
    const ctors = await engine.callers("JsonWriter.JsonWriter").catch((e: { code: string }) => e.code);
    expect(ctors).toBe("ambiguous_symbol");
  });
});
