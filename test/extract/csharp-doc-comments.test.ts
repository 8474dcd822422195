/**
 * C#'s XML doc comments are kept as the text a reader wants: the summary without its tags, references by name, each
 * parameter and the return value labelled, XML escapes read. Before, a definition's doc was the raw XML
 * (`<summary>\nReads the next token.\n</summary>`), which search, outlines and hovers showed as it was.
 */
import { describe, expect, it } from "vitest";
import { memoryEngine } from "../support/platform.ts";

const FILE = `namespace Acme
{
    public class Reader
    {
        /// <summary>
        /// Reads the next token from the <see cref="T:System.IO.TextReader"/>.
        /// </summary>
        /// <param name="depth">How deep to read; see <paramref name="depth"/> &lt; 64.</param>
        /// <returns><c>true</c> when a token was read.</returns>
        public bool Read(int depth) { return true; }

        // A plain comment stays as it is: a < b.
        public void Skip() { }
    }
}
`;

describe("C# doc comments", () => {
  it("are the text without the XML tags", async () => {
    const { engine } = memoryEngine({ "Reader.cs": FILE });
    const [record] = await engine.records();
    const doc = (name: string) => record!.definitions.find((d) => d.name === name)?.doc;
    expect(doc("Read")).toBe(
      [
        "Reads the next token from the System.IO.TextReader.",
        "depth: How deep to read; see depth < 64.",
        "Returns: true when a token was read.",
      ].join("\n"),
    );
    expect(doc("Skip")).toBe("A plain comment stays as it is: a < b.");
  });
});
