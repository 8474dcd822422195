/**
 * Overloads share a qualified name (Newtonsoft.Json's eight `JsonConvert.SerializeObject`), so the ambiguity error
 * must offer a handle that tells them apart, and that handle must be accepted: `path:line`. Before, callers
 * refused `JsonConvert.cs:527` as an unknown symbol and the hint offered the same qualified name eight times.
 */
import { describe, expect, it } from "vitest";
import { cliHint } from "../../src/cli/output.ts";
import { errorOf, memoryEngine } from "../support/platform.ts";

const FILES = {
  "Src/Json/JsonConvert.cs": [
    "namespace Json",
    "{",
    "    public static class JsonConvert",
    "    {",
    "        public static string SerializeObject(object value)",
    "        {",
    "            return SerializeObject(value, 0);",
    "        }",
    "",
    "        public static string SerializeObject(object value, int formatting)",
    "        {",
    '            return "";',
    "        }",
    "    }",
    "}",
    "",
  ].join("\n"),
};

describe("overloads of one qualified name", () => {
  it("the ambiguity hint lists path:line handles, and each is accepted", async () => {
    const { engine } = memoryEngine(FILES);
    const e = await errorOf(engine.callers("JsonConvert.SerializeObject"));
    expect(e.code).toBe("ambiguous_symbol");
    const hint = cliHint(e, "callers") ?? "";
    expect(hint).toContain("Src/Json/JsonConvert.cs:5");
    expect(hint).toContain("Src/Json/JsonConvert.cs:10");
    const second = await engine.callers("Src/Json/JsonConvert.cs:10");
    expect(second.results.map((r) => r.site.line)).toEqual([7]);
    expect((await engine.signature("Src/Json/JsonConvert.cs:5")).symbol.line).toBe(5);
  });
});
