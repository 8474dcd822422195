/**
 * A file that starts with blank lines: tree-sitter's root node starts at the first token, so its
 * text is shorter than the file, while every node's index counts from the file's start. Signatures
 * cut from the root's text came out shifted (`"ef basedir(self):\n m"` in django's
 * db/migrations/writer.py). Found while profiling the cold index (issue 27).
 */
import { describe, expect, it } from "vitest";
import { memoryEngine } from "../support/platform.ts";

/** Each definition's name and signature in `path`, indexed alone. */
async function signatures(path: string, text: string): Promise<string[]> {
  const { engine } = memoryEngine({ [path]: text });
  const graph = await engine.codeGraph();
  return graph.records.get(path)!.definitions.map((d) => `${d.name}: ${d.signature}`);
}

describe("a file that starts with blank lines", () => {
  it("gets the same signatures as without them (Python)", async () => {
    const body = "def basedir(self, x):\n    return x\n\n\nclass Writer:\n    def write(self):\n        pass\n";
    const want = ["basedir: def basedir(self, x):", "Writer: class Writer:", "write: def write(self):"];
    expect(await signatures("plain.py", body)).toEqual(want);
    expect(await signatures("blank.py", `\n\n\n${body}`)).toEqual(want);
    expect(await signatures("spaced.py", `   \n\t\n${body}`)).toEqual(want);
  });

  it("gets the same signatures as without them (TypeScript)", async () => {
    const body = "export function basedir(x: number): number {\n  return x;\n}\n";
    const plain = await signatures("plain.ts", body);
    expect(plain.join()).toContain("basedir(x: number): number");
    expect(await signatures("blank.ts", `\n\n\n${body}`)).toEqual(plain);
  });
});
