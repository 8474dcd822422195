/** One file's parse and extraction, the same code in the engine's thread and in a parse worker. */
import type { Edit, Tree } from "web-tree-sitter";
import type { LanguageSpec } from "../../languages/types.ts";
import { extractFile } from "../extract/extract.ts";
import type { FileRecord } from "../extract/record.ts";
import { bury, type ParserRuntime } from "../parse/runtime.ts";
import { EngineError } from "../../shared/errors.ts";
import { blankDeeperThan, MAX_NESTING, SAFE_NESTING } from "../../shared/skip-rules.ts";

/**
 * How many syntax trees a runtime keeps after their extraction: the last files it parsed, so a
 * file edited again (an agent's next edit, an undo) is re-parsed incrementally from its old tree.
 */
const KEPT_TREES = 4;

/** The last trees parsed by each runtime, by path, oldest first. */
const kept = new WeakMap<ParserRuntime, Map<string, { language: string; text: string; tree: Tree; parser: unknown }>>();

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
  while (
    tail < max - start &&
    before.charCodeAt(before.length - 1 - tail) === after.charCodeAt(after.length - 1 - tail)
  )
    tail++;
  const oldEnd = before.length - tail;
  const newEnd = after.length - tail;
  return {
    startIndex: start,
    oldEndIndex: oldEnd,
    newEndIndex: newEnd,
    startPosition: pointAt(before, start),
    oldEndPosition: pointAt(before, oldEnd),
    newEndPosition: pointAt(after, newEnd),
  };
}

/**
 * Parses `text` with the spec's grammar and extracts its record. Brackets nested past
 * `MAX_NESTING` are blanked first (the rest of the file is kept). A parse that traps the wasm
 * instance (tree-sitter's unguarded stack overflowed on a shape that nests less deep) renews the
 * instance and is tried once more with everything past `SAFE_NESTING` blanked; when that fails too,
 * or the instance cannot be renewed, the file fails with `parse_failed` and the next file parses
 * in a sound instance.
 */
export async function parseFile(
  runtime: ParserRuntime,
  spec: LanguageSpec,
  text: string,
  path: string,
  hash: string,
): Promise<FileRecord> {
  const source = spec.sourceForParse ? spec.sourceForParse(text) : text;
  try {
    return await parseSource(runtime, spec, blankDeeperThan(source, MAX_NESTING), path, hash);
  } catch (error) {
    if (!(error instanceof WebAssembly.RuntimeError)) throw error;
    let cause: unknown = error;
    // The trees kept belong to the dead instance: never deleted, nor collected (a call into it traps).
    bury(kept.get(runtime));
    kept.delete(runtime);
    if (await runtime.renew()) {
      try {
        return await parseSource(runtime, spec, blankDeeperThan(source, SAFE_NESTING), path, hash);
      } catch (again) {
        if (!(again instanceof WebAssembly.RuntimeError)) throw again;
        cause = again;
        bury(kept.get(runtime));
        kept.delete(runtime);
        await runtime.renew();
      }
    }
    throw new EngineError("parse_failed", `tree-sitter failed on ${path}: ${(cause as Error).message}`, {
      hint:
        "The file nests deeper than the parser's stack holds; it is left out of the index and the other " +
        "files are indexed.",
      data: { path },
      cause,
    });
  }
}

async function parseSource(
  runtime: ParserRuntime,
  spec: LanguageSpec,
  source: string,
  path: string,
  hash: string,
): Promise<FileRecord> {
  const lang = await runtime.load(spec);
  runtime.parser.setLanguage(lang.language);
  let trees = kept.get(runtime);
  if (!trees) kept.set(runtime, (trees = new Map()));
  let old = trees.get(path);
  trees.delete(path);
  if (old && old.parser !== runtime.parser) {
    // Made in an instance another runtime renewed after a trap: dead, never to be touched.
    bury(old);
    old = undefined;
  }
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
    trees.set(path, { language: spec.id, text: source, tree, parser: runtime.parser });
    for (const [p, t] of trees) {
      if (trees.size <= KEPT_TREES) break;
      trees.delete(p);
      t.tree.delete();
    }
  }
}
