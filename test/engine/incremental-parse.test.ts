/**
 * parseFile re-parses a file it parsed lately from its old syntax tree (tree-sitter's incremental
 * parse). The record must be the one a fresh parse of the same text makes, after every kind of
 * edit: in a body, of a signature, added and removed functions, non-ASCII text before the edit,
 * a syntax error made and fixed, and in languages whose source is rewritten before parsing.
 */
import { describe, expect, it } from "vitest";
import { parseFile } from "../../src/core/engine/parse-file.ts";
import { createParserRuntime } from "../../src/core/parse/runtime.ts";
import { languageById } from "../../src/languages/index.ts";
import { NodeWasmSource } from "../../src/platform/node/index.ts";

const PY = `# café ☕ — ünïcode before the edits\nclass Order:\n    """Ordre — naïve."""\n\n    def save(self, force=False):\n        total = self.total\n        return helper(total)\n\n\ndef helper(x):\n    return x * 2\n`;
const TS = `// ünïcode ☕\nexport class Order {\n  save(force = false): number {\n    return helper(this.total);\n  }\n}\n\nexport function helper(x: number): number {\n  return x * 2;\n}\n`;

const EDITS: Record<string, [string, string][]> = {
  python: [
    ["body", PY.replace("        return helper(total)\n", "        audit(total)\n        return helper(total)\n")],
    ["signature", PY.replace("def save(self, force=False):", "def save(self, force=False, *, using=None):")],
    ["added function", `${PY}\n\ndef added(y):\n    return helper(y)\n`],
    ["removed function", PY.replace(/\n\ndef helper[\s\S]*$/, "\n")],
    ["syntax error", PY.replace("    def save(self, force=False):", "    def save(self, force=False:")],
    ["fixed again", PY],
    ["non-ASCII inserted", PY.replace("return x * 2", "return x * 2  # ×2 → ✓")],
    ["everything replaced", "def only():\n    return 1\n"],
  ],
  typescript: [
    ["body", TS.replace("    return helper(this.total);", "    log('é');\n    return helper(this.total);")],
    ["signature", TS.replace("save(force = false): number", "save(force = false, reason?: string): number")],
    ["added function", `${TS}\nexport const added = (y: number) => helper(y);\n`],
    ["syntax error", TS.replace("return x * 2;", "return x * ;")],
    ["fixed again", TS],
  ],
};

describe("incremental re-parse", () => {
  for (const [language, edits] of Object.entries(EDITS)) {
    it(`${language}: after each edit the record equals a fresh parse's`, async () => {
      const spec = languageById(language)!;
      const runtime = await createParserRuntime(new NodeWasmSource());
      const path = `edited/${language}.src`;
      let n = 0;
      await parseFile(runtime, spec, language === "python" ? PY : TS, path, "h0");
      for (const [name, text] of edits) {
        const incremental = await parseFile(runtime, spec, text, path, `h${++n}`);
        // A path this runtime never parsed: no old tree, a fresh parse.
        const fresh = await parseFile(runtime, spec, text, `fresh/${n}/${language}.src`, `h${n}`);
        expect({ ...incremental, path: "" }, name).toEqual({ ...fresh, path: "" });
      }
    });
  }
});
