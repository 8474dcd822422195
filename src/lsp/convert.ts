/**
 * Between the engine's terms and the protocol's: workspace-relative paths and document URIs, the
 * engine's 1-based lines and the protocol's 0-based positions, symbol kinds, and the word under a
 * cursor. Pure, so the stdio server and a browser worker's server share it.
 */
import { SymbolKind, type Position, type Range } from "vscode-languageserver";
import type { CodeGraph, SymbolNode } from "../index.ts";
import { nameColumn } from "./graph-view.ts";

/** Maps document URIs under one root URI to workspace-relative paths and back. */
export class UriMap {
  private readonly root: string;
  private readonly rootDecoded: string;

  /** `rootUri`: the project folder's URI (`file:///home/me/shop`), with or without a trailing slash. */
  constructor(rootUri: string) {
    this.root = rootUri.replace(/\/+$/, "");
    this.rootDecoded = safeDecode(this.root);
  }

  /** The workspace-relative path of `uri`, or undefined when it lies outside the root. */
  pathOf(uri: string): string | undefined {
    const decoded = safeDecode(uri);
    if (!decoded.startsWith(`${this.rootDecoded}/`)) return undefined;
    const rel = decoded.slice(this.rootDecoded.length + 1);
    return rel && !rel.split("/").some((p) => p === ".." || p === ".") ? rel : undefined;
  }

  /** The URI of a workspace-relative path. */
  uriOf(path: string): string {
    return `${this.root}/${path.split("/").map(encodeURIComponent).join("/")}`;
  }
}

function safeDecode(uri: string): string {
  try {
    return decodeURIComponent(uri);
  } catch {
    return uri;
  }
}

/** The protocol's kind for an engine definition kind. */
export function symbolKind(kind: string): SymbolKind {
  switch (kind) {
    case "function":
    case "macro":
      return SymbolKind.Function;
    case "method":
      return SymbolKind.Method;
    case "constructor":
      return SymbolKind.Constructor;
    case "getter":
    case "setter":
    case "property":
      return SymbolKind.Property;
    case "class":
      return SymbolKind.Class;
    case "interface":
    case "trait":
      return SymbolKind.Interface;
    case "type":
      return SymbolKind.TypeParameter;
    case "enum":
      return SymbolKind.Enum;
    case "struct":
      return SymbolKind.Struct;
    case "module":
      return SymbolKind.Module;
    case "field":
      return SymbolKind.Field;
    case "constant":
      return SymbolKind.Constant;
    default:
      return SymbolKind.Variable;
  }
}

/** The range of a symbol's name (the module symbol: the file's first position). */
export function nameRange(graph: CodeGraph, s: SymbolNode): Range {
  if (s.kind === "module") return { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  const col = nameColumn(graph, s);
  return {
    start: { line: s.nameLine - 1, character: col },
    end: { line: s.nameLine - 1, character: col + s.name.length },
  };
}

/** A symbol's whole span: its first line to the start of the line after its last (an exclusive end). */
export function symbolRange(s: SymbolNode): Range {
  if (s.kind === "module") return { start: { line: 0, character: 0 }, end: { line: Math.max(0, s.end), character: 0 } };
  return { start: { line: s.start - 1, character: 0 }, end: { line: s.end, character: 0 } };
}

/** The range of `name` written at 1-based `line`, 0-based `col`. */
export function siteRange(line: number, col: number, name: string): Range {
  return { start: { line: line - 1, character: col }, end: { line: line - 1, character: col + name.length } };
}

const WORD = /[\p{L}\p{N}_$]/u;

/** The identifier at `position` of `text` with its start column, or undefined on anything else. */
export function wordAt(text: string, position: Position): { word: string; col: number } | undefined {
  let at = 0;
  for (let l = 0; l < position.line; l++) {
    at = text.indexOf("\n", at);
    if (at < 0) return undefined;
    at++;
  }
  const end = text.indexOf("\n", at);
  const line = text.slice(at, end < 0 ? text.length : end).replace(/\r$/, "");
  let start = Math.min(position.character, line.length);
  // A cursor just after a name (the end of a selection) still means that name.
  if (!WORD.test(line[start] ?? "") && start > 0 && WORD.test(line[start - 1]!)) start--;
  if (!WORD.test(line[start] ?? "")) return undefined;
  let stop = start;
  while (start > 0 && WORD.test(line[start - 1]!)) start--;
  while (stop < line.length && WORD.test(line[stop]!)) stop++;
  const word = line.slice(start, stop);
  return /^\p{N}/u.test(word) ? undefined : { word, col: start };
}
