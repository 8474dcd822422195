/**
 * C#'s `#if … #elif … #else … #endif`: the grammar reads every branch as one body, so a class whose base or a method
 * whose header differs by target framework broke the tree (Newtonsoft.Json: 42 of 945 files indexed in part). Before
 * parsing, the branches not taken are blanked under a fixed default (the `#if` branch is taken), keeping every line
 * and column, so the file parses whole and citations are the original lines. The definitions themselves are checked
 * by the annotated fixture (test/languages/fixtures/csharp/Preprocessor.cs).
 */
import { describe, expect, it } from "vitest";
import { blankInactiveBranches } from "../../src/languages/csharp/preprocess.ts";
import { fixtureFiles } from "../support/fixtures.ts";
import { memoryEngine } from "../support/platform.ts";

const fixtures = await fixtureFiles("languages/fixtures");
const PREPROCESSOR = fixtures["csharp/Preprocessor.cs"]!;

describe("C# conditional compilation", () => {
  it("the fixture with #if around a base list, a method header and nested groups parses without a syntax error", async () => {
    const { engine } = memoryEngine({ "Reader.cs": PREPROCESSOR });
    const [record] = await engine.records();
    expect(record!.diagnostics).toEqual([]);
  });

  it("a method's body is cited on its original lines", async () => {
    const { engine } = memoryEngine({ "Reader.cs": PREPROCESSOR });
    const [record] = await engine.records();
    const read = record!.definitions.find((d) => d.name === "Read")!;
    const lines = PREPROCESSOR.split("\n");
    expect(lines[read.nameLine - 1]).toContain("public int Read(Span<char> buffer)");
    expect(lines[read.end - 1]!.trim()).toBe("}");
    expect(lines.slice(read.start - 1, read.end).join("\n")).toContain("return buffer.Length;");
  });

  it("keeps the #if branch, blanks the others and the directives, and keeps every line and column", () => {
    const text = [
      "class A {",
      "#if X",
      "  int a;",
      "#elif Y",
      "  int b;",
      "#else",
      "  int c; // é 😀",
      "#endif",
      "}",
      "#pragma warning restore 618",
    ].join("\n");
    const out = blankInactiveBranches(text);
    expect(out.length).toBe(text.length);
    expect(out.split("\n").map((l) => l.trim())).toEqual(["class A {", "", "int a;", "", "", "", "", "", "}", ""]);
    expect(out.split("\n").map((l) => l.length)).toEqual(text.split("\n").map((l) => l.length));
  });

  it("leaves a file without a complete group alone", () => {
    const text = "#if X\nclass A { }\n";
    expect(blankInactiveBranches(text)).toBe(text);
    expect(blankInactiveBranches("class A { }\n#endif\n")).toBe("class A { }\n#endif\n");
  });
});
