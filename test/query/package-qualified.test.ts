/**
 * A Java or Kotlin name written with its package (`org.jsoup.nodes.Element.text`, as a stack trace
 * or a Javadoc link spells it) finds the symbol: the package is declared in the file, not part of
 * the qualified name (which is the path). Two classes of one name in two packages stay apart.
 */
import { describe, expect, it } from "vitest";
import { errorOf, memoryEngine } from "../support/platform.ts";

const FILES = {
  "src/main/java/org/ex/nodes/Element.java":
    'package org.ex.nodes;\n\npublic class Element {\n    public String text() {\n        return "t";\n    }\n}\n',
  "src/main/java/org/ex/other/Element.java":
    'package org.ex.other;\n\npublic class Element {\n    public String text() {\n        return "o";\n    }\n}\n',
  "geo/shapes.go": "package geo\n\nfunc Area(r float64) float64 {\n\treturn r * r\n}\n",
  "src/main/kotlin/org/ex/kt/Box.kt": "package org.ex.kt\n\nclass Box {\n    fun open(): Int = 1\n}\n",
};

describe("a package-qualified name", () => {
  it("finds the method, the class and a Kotlin member under the package its file declares; not under another", async () => {
    const { engine } = memoryEngine(FILES);
    const text = await engine.signature("org.ex.nodes.Element.text");
    expect(text.symbol.path).toBe("src/main/java/org/ex/nodes/Element.java");
    expect(text.symbol.qualified).toMatch(/#Element\.text$/);
    const cls = await engine.signature("org.ex.other.Element");
    expect(cls.symbol.path).toBe("src/main/java/org/ex/other/Element.java");
    expect((await engine.signature("nodes.Element.text")).symbol.path).toBe("src/main/java/org/ex/nodes/Element.java");
    expect((await engine.signature("org.ex.kt.Box.open")).symbol.path).toBe("src/main/kotlin/org/ex/kt/Box.kt");
    expect((await engine.signature("geo.Area")).symbol.path).toBe("geo/shapes.go");
    // A package nothing declares is still unknown.
    expect((await errorOf(engine.signature("org.nowhere.Element.text"))).code).toBe("unknown_symbol");
  });
});
