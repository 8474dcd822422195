/** One file's parse and extraction, the same code in the engine's thread and in a parse worker. */
import type { LanguageSpec } from "../../languages/types.ts";
import { extractFile } from "../extract/extract.ts";
import type { FileRecord } from "../extract/record.ts";
import type { ParserRuntime } from "../parse/runtime.ts";

/** Parses `text` with the spec's grammar and extracts its record; the syntax tree is freed here. */
export async function parseFile(runtime: ParserRuntime, spec: LanguageSpec, text: string, path: string, hash: string): Promise<FileRecord> {
  const lang = await runtime.load(spec);
  runtime.parser.setLanguage(lang.language);
  const tree = runtime.parser.parse(spec.sourceForParse ? spec.sourceForParse(text) : text);
  if (!tree) throw new Error(`tree-sitter returned no tree for ${path}`);
  try {
    return extractFile(tree, lang.query, spec, path, hash);
  } finally {
    tree.delete();
  }
}
