/** One file's parse and extraction, the same code in the engine's thread and in a parse worker. */
import type { Edit, Tree } from "web-tree-sitter";
import type { LanguageSpec } from "../../languages/types.ts";
import { extractFile } from "../extract/extract.ts";
import type { FileRecord } from "../extract/record.ts";
import type { ParserRuntime } from "../parse/runtime.ts";

/**
 * How many syntax trees a runtime keeps after their extraction: the last files it parsed, so a
 * file edited again (an agent's next edit, an undo) is re-parsed incrementally from its old tree.
 */
const KEPT_TREES = 4;

/** The last trees parsed by each runtime, by path, oldest first. */
const kept = new WeakMap<ParserRuntime, Map<string, { language: string; text: string; tree: Tree }>>();

/** A code unit index's row and column, as tree-sitter counts them (code units, like the index). */
function pointAt(text: string, index: number): { row: number; column: number } {
  let row = 0;
  let lineStart = 0;
  for (let i = text.indexOf("\n"); i >= 0 && i < index; i = text.indexOf("\n", i + 1)) {
    row++;
    lineStart = i + 1;
  }
  return { row, column: index - lineStart };
}

/** The one edit (a replaced span between the common prefix and suffix) that turns `before` into `after`. */
function editBetween(before: string, after: string) {
  const max = Math.min(before.length, after.length);
  let start = 0;
  while (start < max && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let tail = 0;
  while (tail < max - start && before.charCodeAt(before.length - 1 - tail) === after.charCodeAt(after.length - 1 - tail)) tail++;
  const oldEnd = before.length - tail;
  const newEnd = after.length - tail;
  return {
    startIndex: start, oldEndIndex: oldEnd, newEndIndex: newEnd,
    startPosition: pointAt(before, start), oldEndPosition: pointAt(before, oldEnd), newEndPosition: pointAt(after, newEnd),
  };
}

/**
 * Parses `text` with the spec's grammar and extracts its record. A file this runtime parsed lately
 * is parsed incrementally (tree-sitter re-uses the old tree's unchanged parts: on a 2,600-line
 * Python file ~5 ms instead of ~80 ms), but only between trees without syntax errors, where the
 * result is the tree a fresh parse gives; a tree with errors is parsed again from scratch.
 */
export async function parseFile(runtime: ParserRuntime, spec: LanguageSpec, text: string, path: string, hash: string): Promise<FileRecord> {
  const lang = await runtime.load(spec);
  runtime.parser.setLanguage(lang.language);
  const source = spec.sourceForParse ? spec.sourceForParse(text) : text;
  let trees = kept.get(runtime);
  if (!trees) kept.set(runtime, (trees = new Map()));
  const old = trees.get(path);
  trees.delete(path);
  let tree: Tree | null = null;
  if (old && old.language === spec.id && !old.tree.rootNode.hasError) {
    old.tree.edit(editBetween(old.text, source) as Edit); // tree.edit reads the fields only
    tree = runtime.parser.parse(source, old.tree);
    if (tree?.rootNode.hasError) {
      tree.delete();
      tree = null;
    }
  }
  old?.tree.delete();
  tree ??= runtime.parser.parse(source);
  if (!tree) throw new Error(`tree-sitter returned no tree for ${path}`);
  try {
    return extractFile(tree, lang.query, spec, path, hash);
  } finally {
    trees.set(path, { language: spec.id, text: source, tree });
    for (const [p, t] of trees) {
      if (trees.size <= KEPT_TREES) break;
      trees.delete(p);
      t.tree.delete();
    }
  }
}
