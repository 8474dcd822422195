/**
 * Turns a syntax tree plus a language's query matches into a FileRecord. Language knowledge comes
 * from the query captures and the spec's switches; this file only knows the capture conventions.
 */
import type { Node, Query, QueryProperties, Tree } from "web-tree-sitter";
import { captureIndexes, captureNodes, forEachMatch, type MatchReadOptions } from "../parse/match-reader.ts";
import type { LanguageSpec } from "../../languages/types.ts";
import { termsOf } from "./words.ts";
import type {
  BindingRecord,
  CallRecord,
  Definition,
  DefinitionKind,
  Diagnostic,
  FileRecord,
  ImportRecord,
  TypeRefRecord,
} from "./record.ts";
import { boundFieldNames, TYPE_KINDS } from "./record.ts";

const MAX_SIGNATURE = 400;
const MAX_DOC = 1200;
const MAX_EXPR = 160;
/**
 * An options object whose `url` (or `baseURL`) is a string literal: a generated OpenAPI client's
 * request (`client.get({ responseType: 'json', url: '/api/v1/items/{id}', ...options })`).
 */
const URL_OPTION = /^\{[^]*?[\s,{]['"]?(url|baseURL|baseUrl)['"]?\s*:\s*(['"`][^'"`\n]*['"`])/;
/**
 * Such an argument kept as its `url` pair alone (`url: '/api/v1/items/{id}'`), or the `baseURL` pair
 * of a client being made (`axios.create({ baseURL: '/api/v1' })`): the rest of a long object would be
 * cut at 120 characters.
 */
function urlOption(text: string): string | undefined {
  const m = URL_OPTION.exec(text);
  return m ? `${m[1]}: ${m[2]}` : undefined;
}
/** A string-literal argument, positional or keyword (`"/users"`, `prefix='/api'`, `` `x` ``). */
const STRING_ARG = /^(\w+\s*=\s*)?[rRbBuUfF]{0,2}["'`]/;

interface DefDraft {
  node: Node;
  kind: DefinitionKind;
  pattern: number;
  name?: Node;
  body?: Node;
  bases: string[];
  implements: string[];
  returns?: string;
  /** `(#set! static "true")`: a method of the class itself, not of its instances (Ruby `def self.x`). */
  static?: true;
  /** The type a method belongs to when the source does not nest it (Go receivers, Rust impl blocks). */
  qualifier?: string;
  /**
   * The last node of the definition's extent when it is not the definition node's own end: a
   * statement that governs the siblings after it (`(#set! extent "siblings")`: PHP's `namespace A;`
   * reaches up to the next `namespace B;` or the end of the file).
   */
  until?: Node;
}

/** The last sibling after `node` before the next one of its type (or the last of its parent's children). */
function lastGoverned(node: Node): Node {
  let last = node;
  for (let s = node.nextSibling; s && s.type !== node.type; s = s.nextSibling) last = s;
  return last;
}

const squash = (text: string, max = MAX_EXPR) => {
  const s = text.replace(/\s+/g, " ").trim();
  return s.length > max ? `${s.slice(0, max)}…` : s;
};

/**
 * The owner named by a @qualifier capture: a type (`Point`, `Pair<T>` → `Pair`) or a C++ declarator
 * (`geo::Circle<T>::area() const` → `geo.Circle`, the scope before the method's own name).
 */
function qualifierOf(text: string, name: string): string {
  let t = text.split("(")[0]!.trim();
  while (/<[^<>]*>/.test(t)) t = t.replace(/<[^<>]*>/g, "");
  const parts = t
    .split("::")
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length > 1 && parts.at(-1) === name) parts.pop();
  return parts.join(".");
}

/** The quotes a Python string literal may open with, longest first. */
const DOC_QUOTES = ['"""', "'''", '"', "'"] as const;

/** Whether a UTF-16 unit is a Python string prefix letter (`r`, `b`, `u`, `f`, either case). */
function isStringPrefix(c: number): boolean {
  const lower = c | 0x20;
  return lower === 114 || lower === 98 || lower === 117 || lower === 102;
}

/** Whether a UTF-16 unit is white space as `\s` and `trim` read it. */
function isSpace(c: number): boolean {
  if (c < 128) return c === 32 || (c >= 9 && c <= 13);
  return /\s/.test(String.fromCharCode(c));
}

/**
 * Strips quotes and common indentation from a Python docstring literal: the quotes of a
 * literal that opens (after its prefix letters) and closes with the same quote, the longest
 * first, else the text as it is; then the first line trimmed and the later ones cut by the
 * least indentation of those that hold more than white space. Scanned line by line in place:
 * a split, a regex per line and an array per step were most of docOf on django.
 */
function cleanStringDoc(raw: string): string {
  const t = raw.trim();
  let p = 0;
  while (p < t.length && isStringPrefix(t.charCodeAt(p))) p++;
  let text = raw;
  for (const q of DOC_QUOTES)
    if (t.startsWith(q, p) && t.length - p >= 2 * q.length && t.endsWith(q)) {
      text = t.slice(p + q.length, t.length - q.length);
      break;
    }
  const firstEnd = text.indexOf("\n");
  if (firstEnd < 0) return text.trim();
  let cut = Number.POSITIVE_INFINITY;
  for (let at = firstEnd + 1; at <= text.length; ) {
    let end = text.indexOf("\n", at);
    if (end < 0) end = text.length;
    let i = at;
    while (i < end && isSpace(text.charCodeAt(i))) i++;
    if (i < end && i - at < cut) cut = i - at;
    at = end + 1;
  }
  if (cut === Number.POSITIVE_INFINITY) cut = 0;
  const parts = [text.slice(0, firstEnd).trim()];
  for (let at = firstEnd + 1; at <= text.length; ) {
    let end = text.indexOf("\n", at);
    if (end < 0) end = text.length;
    parts.push(text.slice(at + cut, end));
    at = end + 1;
  }
  return parts.join("\n").trim();
}

/** Strips comment markers from a run of comments. */
function cleanComment(raw: string): string {
  return raw
    .replace(/^\/\*\*?|\*\/$/g, "")
    .split("\n")
    .map((l) => l.replace(/^\s*(\/\/\/?|\*|#)\s?/, "").trimEnd())
    .join("\n")
    .trim();
}

/** The header up to the body: trailing comment lines, blank lines and an opening brace removed. */
function headerText(raw: string): string {
  const lines = raw
    .trimEnd()
    .replace(/\n\s*\n/g, "\n")
    .split("\n");
  while (lines.length > 1 && /^\s*(#|\/\/|\/\*|\*)/.test(lines.at(-1)!)) lines.pop();
  return lines.join("\n").replace(/[\s{]+$/, "");
}

function cap(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** The node including its wrappers (export statements, decorator wrappers, declarations). */
function outerNode(node: Node, spec: LanguageSpec): Node {
  // Each `parent` is a call into the wasm instance and a new Node: read once per step (it was read three times).
  let n = node;
  for (let p = n.parent; p && spec.wrapperTypes.includes(p.type); p = n.parent) n = p;
  return n;
}

/** The decorators among a node's named children (and inside its `modifiers`-like containers). */
function childDecorators(n: Node, spec: LanguageSpec): string[] {
  const out: string[] = [];
  const types = spec.decoratorTypes;
  for (const c of n.namedChildren) {
    if (!c) continue;
    const type = c.type; // a call into the wasm instance
    if (types.includes(type)) out.push(squash(c.text, 200));
    // Java keeps annotations inside a `modifiers` node next to `public`, `static`…
    else if (spec.decoratorContainers?.includes(type))
      for (const a of c.namedChildren) if (a && types.includes(a.type)) out.push(squash(a.text, 200));
  }
  return out;
}

/**
 * A definition's decorators: its node's child decorators, then those of each wrapper climbed to
 * `outer` (Python's `decorated_definition`, an `export_statement`), nearest first, after the
 * decorators written as preceding siblings (TypeScript class members). The walk stops at `outer`
 * by id: web-tree-sitter makes a new Node object on every `parent`, so comparing objects walked to
 * the root and gave a nested function its enclosing definitions' decorators (a phantom route for a
 * helper inside a route handler).
 */
function decoratorsOf(node: Node, outer: Node, spec: LanguageSpec): string[] {
  const types = spec.decoratorTypes;
  if (types.length === 0) return [];
  const out: string[] = [];
  for (let n: Node | null = node; n; n = n.id === outer.id ? null : n.parent) out.push(...childDecorators(n, spec));
  const before: string[] = [];
  for (let s = outer.previousNamedSibling; s && types.includes(s.type); s = s.previousNamedSibling)
    before.unshift(squash(s.text, 200));
  return [...before, ...out];
}

function docOf(node: Node, outer: Node, body: Node | undefined, spec: LanguageSpec): string | undefined {
  if (spec.docStyle === "body-string") {
    // The first named child only: `namedChildren` would build the whole body's list to read one.
    const first = body?.firstNamedChild;
    const str = first?.type === "expression_statement" ? first.firstNamedChild : undefined;
    if (str && str.type === "string") return cap(cleanStringDoc(str.text), MAX_DOC) || undefined;
    return undefined;
  }
  // Skip decorators/attributes between the doc comment and the definition. Each sibling and its
  // type are read once: a `previousSibling` is a call into the wasm instance that descends from
  // the root, and the loop read each comment's twice.
  let s = outer.previousSibling;
  let type = s?.type;
  let nextRow = outer.startPosition.row;
  while (s && spec.decoratorTypes.includes(type!)) {
    nextRow = s.startPosition.row;
    s = s.previousSibling;
    type = s?.type;
  }
  const parts: string[] = [];
  while (s && spec.commentTypes.includes(type!) && s.endPosition.row >= nextRow - 1) {
    // A comment that ends a line of code (`x = 1  // note`) belongs to that line, not to us.
    const before = s.previousSibling;
    const beforeType = before?.type;
    if (before && !spec.commentTypes.includes(beforeType!) && before.endPosition.row === s.startPosition.row) break;
    // (a Rust `///` line comment's node holds its line break: joined with another, each line came out double-spaced)
    parts.unshift(s.text.replace(/\r?\n$/, ""));
    nextRow = s.startPosition.row;
    s = before;
    type = beforeType;
  }
  void node;
  if (!parts.length) return undefined;
  const text = cleanComment(parts.join("\n"));
  return cap(spec.docText ? spec.docText(text) : text, MAX_DOC) || undefined;
}

function isExported(def: Definition, outer: Node, spec: LanguageSpec, defs: Definition[]): boolean {
  switch (spec.exportStyle) {
    case "export-statement":
      // The definition's own wrappers only (outerNode climbed them): a function nested in an
      // exported one is not exported, and the check costs no walk to the root — tree-sitter finds
      // a node's parent by descending from the root, so a walk up was cubic in nesting depth.
      return outer.type === "export_statement";
    case "underscore-private":
      return def.parent === -1 ? !def.name.startsWith("_") : defs[def.parent]!.exported && !def.name.startsWith("_");
    case "capitalized":
      return /^[A-Z]/.test(def.name);
    case "public-modifier": {
      // Look at the modifiers before the name, after any annotations/attributes with arguments.
      const head =
        def.signature.replace(/^\s*(@[\w.]+(\([^)]*\))?\s*|#\[[^\]]*\]\s*|\[[^\]]*\]\s*)*/, "").split("(")[0] ?? "";
      return /^(export\s+|pub\b|public\b)/.test(outer.text) || /\b(pub|public)\b/.test(head);
    }
    case "top-level":
      return def.parent === -1;
    case "unless-private":
      return (
        !/^\s*(@[\w.]+(\([^)]*\))?\s*)*([a-z]+\s+)*private\b/.test(def.signature) &&
        (def.parent === -1 || defs[def.parent]!.exported)
      );
    case "storage-class": {
      for (let p = def.parent; p >= 0; p = defs[p]!.parent) if (defs[p]!.kind !== "module") return false;
      return !/^\s*(\[\[[^\]]*\]\]\s*)*(static|inline\s+static)\b/.test(outer.text);
    }
  }
}

/** Parameters of a function node from its `parameters` field, as name and annotated type. */
function paramsOf(fn: Node): { name: string; type?: string }[] {
  const list = fn.childForFieldName("parameters") ?? fn.childForFieldName("parameter");
  if (!list) return [];
  const items = list.type === "identifier" ? [list] : list.namedChildren;
  const out: { name: string; type?: string }[] = [];
  for (const p of items) {
    if (!p || p.type === "comment") continue;
    const nameNode =
      p.type === "identifier" || p.type === "this"
        ? p
        : (p.childForFieldName("pattern") ??
          p.childForFieldName("name") ??
          p.namedChildren.find((c) => c?.type === "identifier") ??
          null);
    const typeNode = p.childForFieldName("type");
    const name = nameNode?.text ?? p.text;
    const type = typeNode ? squash(typeNode.text.replace(/^:\s*/, ""), 300) : undefined;
    out.push(type ? { name, type } : { name });
  }
  return out;
}

/** Nested definitions past this depth get no wrapper, decorator or doc lookup (see extractFile). */
const DEEP_NESTING = 48;

/**
 * A callback parameter nested in more brackets than this gets no contextual typing: the climb to
 * its call costs the node's depth per parent step, and lambdas are not definitions, so DEEP_NESTING
 * never saw them (2,000 nested TypeScript arrow functions took 6 s in that climb alone).
 */
const CALLBACK_BRACKET_DEPTH = 64;

/** Bracket depth (`(`, `[`, `{` against their closers) before each UTF-16 index of `text`, clamped at 65,535. */
function bracketDepths(text: string): Uint16Array {
  const out = new Uint16Array(text.length + 1);
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    out[i] = depth > 65_535 ? 65_535 : depth;
    const c = text.charCodeAt(i);
    if (c === 40 || c === 91 || c === 123) depth++;
    else if ((c === 41 || c === 93 || c === 125) && depth > 0) depth--;
  }
  out[text.length] = depth > 65_535 ? 65_535 : depth;
  return out;
}
/** Longest name kept whole; a longer one keeps its start and a hash of the rest. */
const MAX_NAME = 200;
/** Segments a qualified name keeps at each end; the middle of a deeper one is elided to a hash. */
const QUALIFIED_ENDS = 6;

/** FNV-1a over a string, as 8 hex digits. */
function fnv(text: string, seed = 0x811c9dc5): number {
  let h = seed;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h >>> 0;
}

function boundedName(name: string): string {
  return name.length <= MAX_NAME ? name : `${name.slice(0, MAX_NAME - 12)}…${fnv(name).toString(16).padStart(8, "0")}`;
}

/**
 * A qualified name kept bounded: the first and last QUALIFIED_ENDS segments, and for a deeper
 * nesting a hash of every segment in between (`f0.f1.f2.f3.…1a2b3c4d.f96.f97.f98.f99`), so names
 * stay unique and building them costs the same at any depth.
 */
interface QualifiedName {
  head: readonly string[];
  tail: readonly string[];
  middle: number;
  elided: number;
  text: string;
}

const EMPTY_QUALIFIED: QualifiedName = { head: [], tail: [], middle: 0x811c9dc5, elided: 0, text: "" };

function extendQualified(parent: QualifiedName, segments: string[]): QualifiedName {
  let head = parent.head;
  let tail = parent.tail;
  let middle = parent.middle;
  let elided = parent.elided;
  for (const seg of segments) {
    if (head.length < QUALIFIED_ENDS) head = [...head, seg];
    else if (tail.length < QUALIFIED_ENDS) tail = [...tail, seg];
    else {
      middle = fnv(`${tail[0]}.`, middle);
      elided++;
      tail = [...tail.slice(1), seg];
    }
  }
  const text =
    elided === 0
      ? [...head, ...tail].join(".")
      : `${head.join(".")}.…${middle.toString(16).padStart(8, "0")}.${tail.join(".")}`;
  return { head, tail, middle, elided, text };
}

/**
 * A static method's qualified name where the language joins it to its class with its own separator
 * (`LanguageSpec.staticMemberSeparator`: Ruby's `Foo::x` for `def self.x`, beside the instance method `Foo.x`).
 */
function staticQualified(text: string, name: string, spec: LanguageSpec): string {
  const sep = spec.staticMemberSeparator;
  if (!sep || text.length <= name.length || !text.endsWith(`.${name}`)) return text;
  return `${text.slice(0, text.length - name.length - 1)}${sep}${name}`;
}

/** Search words kept per definition (and for module-level code): enough for any real function. */
const MAX_TERMS = 400;

/**
 * Search words by number, shared across files: what a definition's words are deduplicated by (a
 * stamp per word, not a Set of strings per definition). Reset between files past WORD_LIMIT.
 */
let wordIds = new Map<string, number>();
let wordOf: string[] = [];
const WORD_LIMIT = 200_000;
/**
 * Per nesting depth (0: module-level code), per word: the stamp of the last owner at that depth
 * it was given to. Owners at one depth never interleave (a definition ends before its next
 * sibling starts, and nested ones sit one depth down), so a word is an owner's already when its
 * mark at the owner's depth is the owner's stamp. Deeper owners keep a Set.
 */
let marksByDepth: Int32Array[] = [];
const MARKED_DEPTHS = 16;
/** The last stamp handed out: every definition and module of every file gets its own. */
let lastStamp = 0;

function wordId(word: string): number {
  let id = wordIds.get(word);
  if (id === undefined) {
    id = wordOf.length;
    wordIds.set(word, id);
    wordOf.push(word);
  }
  return id;
}

/** The marks of a depth in `byDepth`, with room for `size` entries. */
function marksAt(byDepth: Int32Array[], depth: number, size: number): Int32Array {
  let marks = byDepth[depth];
  if (!marks || marks.length < size) {
    const grown = new Int32Array(Math.max(1 << 12, size * 2));
    if (marks) grown.set(marks);
    byDepth[depth] = marks = grown;
  }
  return marks;
}

/**
 * Identifiers split into search words (as word numbers), shared across files (names repeat across
 * a project: self, request, value…); bounded so a huge tree cannot grow it without end. Splitting
 * each occurrence anew cost a tenth of a cold index on django. An open-addressed table keyed by a
 * hash of the identifier's characters, computed while they are scanned, and compared in place: an
 * identifier seen before costs no string (neither the slice nor V8's own hash of it). (A Map by
 * the hash and a Set of words per definition were half of assignTerms on django.)
 */
const SPLIT_BITS = 18;
const SPLIT_MASK = (1 << SPLIT_BITS) - 1;
/** Entries kept before the table is emptied: under half its slots, so probes stay short. */
const SPLIT_CACHE_LIMIT = 100_000;
/** UTF-16 units the entries' identifiers may hold together before the table is emptied (8 MB). */
const SPLIT_CHAR_LIMIT = 1 << 22;
/** Per slot: 1 + the index of its entry, or 0 when empty. */
const splitSlots = new Int32Array(1 << SPLIT_BITS);
/**
 * Each entry's identifier as UTF-16 units in one pool (`splitAt`: where it starts; `splitEnds[e]`:
 * where it ends), compared with the text in place: `startsWith` on a string per entry was a third
 * of assignTerms on django, and each string sliced from a file's text kept that whole text alive.
 */
let splitChars = new Uint16Array(1 << 16);
let splitUsed = 0;
let splitAt: number[] = [];
let splitEnds: number[] = [];
let splitHashes: number[] = [];
let splitWords: Int32Array[] = [];
/**
 * Per nesting depth, per identifier (its entry in the split table): the stamp of the last owner
 * at that depth given its words, as `marksByDepth` is per word. An identifier an owner already
 * holds (`self`, `request` on every line) is then one look-up, not one per word: on django most
 * identifiers repeat within their definition.
 */
let identifierMarksByDepth: Int32Array[] = [];
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** Empties the split table (and so the identifier marks, which are by its entries). */
function clearSplits(): void {
  splitSlots.fill(0);
  splitUsed = 0;
  splitAt = [];
  splitEnds = [];
  splitHashes = [];
  splitWords = [];
  identifierMarksByDepth = [];
}

/**
 * The entry in the split table (`splitWords` holds its word numbers) of the identifier
 * `text[at, end)`, whose FNV-1a hash over its UTF-16 units is `hash`.
 */
function identifierEntry(text: string, at: number, end: number, hash: number): number {
  const length = end - at;
  let slot = hash & SPLIT_MASK;
  for (let e = splitSlots[slot]!; e !== 0; e = splitSlots[slot]!) {
    const from = splitAt[e - 1]!;
    if (splitHashes[e - 1] === hash && splitEnds[e - 1]! - from === length) {
      let k = 0;
      while (k < length && splitChars[from + k] === text.charCodeAt(at + k)) k++;
      if (k === length) return e - 1;
    }
    slot = (slot + 1) & SPLIT_MASK;
  }
  if (splitAt.length >= SPLIT_CACHE_LIMIT || splitUsed + length > SPLIT_CHAR_LIMIT) {
    clearSplits();
    slot = hash & SPLIT_MASK;
  }
  if (splitUsed + length > splitChars.length) {
    const grown = new Uint16Array(Math.max(splitChars.length * 2, splitUsed + length));
    grown.set(splitChars.subarray(0, splitUsed));
    splitChars = grown;
  }
  for (let k = 0; k < length; k++) splitChars[splitUsed + k] = text.charCodeAt(at + k);
  splitAt.push(splitUsed);
  splitUsed += length;
  splitEnds.push(splitUsed);
  splitHashes.push(hash);
  splitWords.push(Int32Array.from(termsOf(text.slice(at, end)), wordId));
  splitSlots[slot] = splitAt.length;
  return splitAt.length - 1;
}

/** Per ASCII code: 1 for what starts an identifier ([A-Za-z_$]), 2 for what only continues one ([0-9]). */
const IDENTIFIER_CHARS = (() => {
  const t = new Uint8Array(128);
  for (let c = 0; c < 128; c++)
    if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 36) t[c] = 1;
    else if (c >= 48 && c <= 57) t[c] = 2;
  return t;
})();

/**
 * Gives each definition the search words of its own text — code, string literals, comments —
 * leaving out the definitions nested in it (they get their own), and returns the words of the
 * module-level code. One pass over the file's identifiers with a stack of open definitions; each
 * owner's words in the order first seen.
 */
function assignTerms(text: string, definitions: Definition[], spans: [number, number][]): string | undefined {
  if (wordOf.length > WORD_LIMIT || lastStamp > 1 << 30) {
    // Between files only: a word's marks must outlive the definition being filled.
    wordIds = new Map();
    wordOf = [];
    marksByDepth = [];
    lastStamp = 0;
    clearSplits();
  }
  const own: (string[] | undefined)[] = new Array(definitions.length);
  const stamps = new Int32Array(definitions.length);
  const deepSets: (Set<string> | undefined)[] = [];
  const moduleWords: string[] = [];
  const moduleStamp = ++lastStamp;
  const stack: number[] = [];
  let next = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c0 = text.charCodeAt(i);
    if (c0 >= 128 || IDENTIFIER_CHARS[c0] !== 1) continue;
    const at = i;
    let hash = Math.imul(FNV_OFFSET ^ c0, FNV_PRIME);
    for (let c = 0; i + 1 < n && (c = text.charCodeAt(i + 1)) < 128 && IDENTIFIER_CHARS[c] !== 0; i++)
      hash = Math.imul(hash ^ c, FNV_PRIME);
    if (i === at) continue; // one-letter names say nothing
    while (stack.length && spans[stack[stack.length - 1]!]![1] <= at) stack.pop();
    while (next < spans.length && spans[next]![0] <= at) {
      if (spans[next]![1] > at) stack.push(next);
      next++;
      while (stack.length && spans[stack[stack.length - 1]!]![1] <= at) stack.pop();
    }
    let into = moduleWords;
    let stamp = moduleStamp;
    const depth = stack.length;
    if (depth) {
      const d = stack[depth - 1]!;
      into = own[d] ??= [];
      stamp = stamps[d] ||= ++lastStamp;
    }
    if (into.length >= MAX_TERMS) continue;
    const entry = identifierEntry(text, at, i + 1, hash & 0x7fffffff);
    const words = splitWords[entry]!;
    if (depth >= MARKED_DEPTHS) {
      const seen = (deepSets[stack[depth - 1]!] ??= new Set());
      for (let k = 0; k < words.length; k++) {
        const w = wordOf[words[k]!]!;
        if (!seen.has(w)) seen.add(w), into.push(w);
      }
      continue;
    }
    const identifierMarks = marksAt(identifierMarksByDepth, depth, splitAt.length);
    if (identifierMarks[entry] === stamp) continue;
    identifierMarks[entry] = stamp;
    const marks = marksAt(marksByDepth, depth, wordOf.length);
    for (let k = 0; k < words.length; k++) {
      const w = words[k]!;
      if (marks[w] === stamp) continue;
      marks[w] = stamp;
      into.push(wordOf[w]!);
    }
  }
  for (let i = 0; i < definitions.length; i++) if (own[i]?.length) definitions[i]!.terms = own[i]!.join(" ");
  return moduleWords.length ? moduleWords.join(" ") : undefined;
}

/** What one parse's query matches hold, before the definitions are put in order. */
interface Drafts {
  defs: Map<number, DefDraft>;
  /**
   * `receiverText`: several `@receiver` captures (adjacent tokens, `parser` `("x")`) joined; `receiver` is then the
   * last.
   */
  calls: {
    node: Node;
    name: Node;
    receiver?: Node;
    receiverText?: string;
    args?: Node;
    arity?: Node;
    kind: "call" | "new";
    protocol?: string[];
    suffix?: string;
  }[];
  types: Node[];
  imports: { node: Node; module: string; name?: string; alias?: string; kind: ImportRecord["kind"] }[];
  /**
   * `member` (from `@local.member`) is a field when the innermost definition around it is a type
   * and an assignment otherwise: what a `(class_body (property_declaration …))` pattern said, without
   * a parent-rooted pattern, which tree-sitter's cursor matches in time quadratic in nesting depth
   * (Kotlin's nested `object { val a = … }` expressions, issue 22).
   */
  bindings: {
    node: Node;
    kind: BindingRecord["kind"] | "member";
    name: Node;
    type?: Node;
    value?: Node;
    alias?: Node;
    iter?: Node;
    receiver?: Node;
    literal?: Node;
    extent?: Node;
    deref?: true;
    /** The value's text when it was read already (an `unwrap.*` check read it). */
    valueText?: string;
    /** `(#set! valueSuffix "…")`: appended to the value's text (Ruby `x = K[…]` holds what `K.[]` returns). */
    valueSuffix?: string;
    /** `(#set! as "self")`: the name bound, when it is not the captured token's text (a block rebinding `self`). */
    as?: string;
  }[];
}

/** A match's main capture: what it defines, references, imports or binds. */
const MAIN_CAPTURE = /^(definition\.|reference\.|import$|local\.)/;
/**
 * The other captures extraction reads, each a slot of one array reused match after match (an
 * object per match keyed by capture name was a third of collectDrafts on django). The first four
 * are also kept as lists, since a match may hold several: bases, a receiver of several tokens,
 * one import path per nesting level.
 */
const SLOT_NAMES = [
  "base",
  "base.implements",
  "receiver",
  "import.module",
  "name",
  "body",
  "returns",
  "qualifier",
  "args",
  "arity",
  "import.name",
  "import.alias",
  "type",
  "value",
  "alias",
  "iter",
  "literal",
  "extent",
  "operator",
] as const;
/** Slot numbers: indexes into SLOT_NAMES. */
const BASE = 0;
const IMPLEMENTS = 1;
const RECEIVER = 2;
const MODULE = 3;
const NAME = 4;
const BODY = 5;
const RETURNS = 6;
const QUALIFIER = 7;
const ARGS = 8;
const ARITY = 9;
const IMPORT_NAME = 10;
const IMPORT_ALIAS = 11;
const TYPE = 12;
const VALUE = 13;
const ALIAS = 14;
const ITER = 15;
const LITERAL = 16;
const EXTENT = 17;
const OPERATOR = 18;
/** Slots below this are also kept as lists. */
const LISTED = 4;
const MAIN = -1;
const IGNORED = -2;
/** Per capture name seen so far (a query has a few dozen): MAIN, IGNORED or its slot. */
const captureRoles = new Map<string, number>();
function roleOf(name: string): number {
  let role = captureRoles.get(name);
  if (role === undefined) {
    const slot = (SLOT_NAMES as readonly string[]).indexOf(name);
    role = MAIN_CAPTURE.test(name) ? MAIN : slot >= 0 ? slot : IGNORED;
    captureRoles.set(name, role);
  }
  return role;
}
/** The current match's first capture per slot; cleared after each match. */
const slots: (Node | undefined)[] = SLOT_NAMES.map(() => undefined);
/** The current match's captures per listed slot, and how many (the arrays are reused). */
const lists: Node[][] = [[], [], [], []];
const listLengths = new Int32Array(LISTED);
const listOf = (slot: number): Node[] => lists[slot]!.slice(0, listLengths[slot]);

/** Per query: the role (MAIN, IGNORED or a slot) of each of its capture names, by capture index. */
const queryRoles = new WeakMap<Query, Int32Array>();
function rolesOf(query: Query): Int32Array {
  let roles = queryRoles.get(query);
  if (!roles) queryRoles.set(query, (roles = Int32Array.from(query.captureNames, roleOf)));
  return roles;
}

/** The drafts of one file's matches, and the last row any capture starts on (for a stopped query's diagnostic). */
interface Collected {
  drafts: Drafts;
  lastRow: number;
}

/**
 * Runs the query and sorts its matches by their main capture (definition, reference, import,
 * local binding) as they come: no match outlives its visit.
 */
function collectDrafts(query: Query, root: Node, options: MatchReadOptions, pathJoin: string | undefined): Collected {
  const drafts: Drafts = { defs: new Map(), calls: [], types: [], imports: [], bindings: [] };
  const out: Collected = { drafts, lastRow: 0 };
  const cap = slots;
  // Clean whatever a match that threw (a trapped wasm instance) left behind.
  cap.fill(undefined);
  listLengths.fill(0);
  const roles = rolesOf(query);
  const names = query.captureNames;
  const properties = query.setProperties;
  const rootId = root.id;
  forEachMatch(query, root, options, (pattern, count) => {
    let main = -1;
    let used = 0;
    for (let i = 0; i < count; i++) {
      const node = captureNodes[i]!;
      const row = node.startPosition.row;
      if (row > out.lastRow) out.lastRow = row;
      const role = roles[captureIndexes[i]!]!;
      if (role === MAIN) main = i;
      else if (role >= 0) {
        if (cap[role] === undefined) {
          cap[role] = node;
          used |= 1 << role;
        }
        if (role < LISTED) lists[role]![listLengths[role]!++] = node;
      }
    }
    if (main >= 0) {
      const node = captureNodes[main]!;
      const props = properties[pattern];
      if (belowRoot(props, node, rootId))
        addDraft(drafts, pattern, props, names[captureIndexes[main]!]!, node, pathJoin);
    }
    if (used !== 0) {
      for (let slot = 0; used !== 0; slot++, used >>>= 1) if (used & 1) cap[slot] = undefined;
      listLengths.fill(0);
    }
  });
  return out;
}

/** Per pattern's properties: operator → the protocol method it calls (see operatorProtocol). */
const operatorTables = new WeakMap<object, Map<string, string[]>>();

/**
 * The method an operator calls, for a pattern that matches every operator of a node type:
 * `(#set! operators "+ - …")` and `(#set! protocol "__add__ __sub__ …")` pair them by place, and
 * the `@operator` capture is the one written. One pattern per node type, where a pattern per
 * operator started a match state per operator at every such node (Python's 19 operator
 * patterns: ~0.1 of its query on django). An operator not listed calls nothing.
 */
function operatorProtocol(properties: Record<string, string | null>, operator: Node | undefined): string[] | undefined {
  let table = operatorTables.get(properties);
  if (!table) {
    table = new Map();
    const methods = (properties.protocol ?? "").split(" ");
    const operators = (properties.operators ?? "").split(" ");
    for (let i = 0; i < operators.length && i < methods.length; i++) table.set(operators[i]!, [methods[i]!]);
    operatorTables.set(properties, table);
  }
  return operator ? table.get(operator.text) : undefined;
}

/** A callee a binding's value is unwrapped from: which field its first argument fills, and the types it may have. */
interface UnwrapRule {
  field: "alias" | "deref" | "type";
  callee: RegExp;
  argumentTypes: Set<string>;
}
/** Per pattern's properties: its unwrap rules, and the node types an argument list may have. */
const unwrapTables = new WeakMap<object, { rules: UnwrapRule[]; lists: Set<string> }>();

/**
 * A binding whose value is a call to a wrapper (`(#set! unwrap.alias "identifier attribute REGEX")`,
 * `unwrap.deref`, `unwrap.type`: the node types the first argument may have, then a pattern for the
 * callee's text) holds the call's first argument instead of the value: as its alias (`p =
 * partial(f, …)` is f), an alias to dereference (`r = weakref.ref(x)`), or its type (`cast(T, v)`).
 * The argument is the first named child of the call's `arguments` when that is of a type
 * `unwrap.arguments` lists (a comment there is no argument of those types, as the anchored
 * pattern `(argument_list . (identifier))` would not match it either); a wrapper call with another
 * first argument makes no binding (false: the match says nothing, as no pattern per wrapper
 * matched it, and a plain pattern may still bind the name). One pattern with these properties
 * replaces a pattern per wrapper with a `#match?` on the callee, which tree-sitter matched on every
 * call and web-tree-sitter handed to JS to drop (see tags.scm of Python).
 */
function unwrap(b: Drafts["bindings"][number], properties: Record<string, string | null>): boolean {
  let table = unwrapTables.get(properties);
  if (!table) {
    const rules: UnwrapRule[] = [];
    for (const field of ["alias", "deref", "type"] as const) {
      const words = properties[`unwrap.${field}`]?.split(" ");
      if (!words) continue;
      const callee = new RegExp(words.pop()!);
      rules.push({ field, callee, argumentTypes: new Set(words) });
    }
    table = { rules, lists: new Set((properties["unwrap.arguments"] ?? "").split(" ")) };
    unwrapTables.set(properties, table);
  }
  const value = b.value!;
  const text = value.text;
  const rule = table.rules.find((r) => r.callee.test(text));
  if (!rule) {
    b.valueText = text;
    return true;
  }
  delete b.value;
  const list = value.parent?.childForFieldName("arguments");
  if (!list || !table.lists.has(list.type)) return false;
  const first = list.firstNamedChild;
  if (!first || !rule.argumentTypes.has(first.type)) return false;
  if (rule.field === "type") b.type = first;
  else {
    b.alias = first;
    if (rule.field === "deref") b.deref = true;
  }
  return true;
}

/**
 * Whether a match's main node sits as many levels below the tree's root as its pattern's
 * `(#set! below-root "N")` says (true without one): the top level of a module, said without
 * rooting the pattern at the root node, where tree-sitter kept a match state alive over every
 * node of the file (JavaScript's and TypeScript's assigned functions). N calls into the wasm
 * instance, on the few matches of such a pattern only.
 */
function belowRoot(props: QueryProperties | undefined, node: Node, rootId: number): boolean {
  const levels = props?.["below-root"];
  if (!levels) return true;
  let n: Node | null = node;
  for (let i = Number(levels); i > 0 && n; i--) n = n.parent;
  return n?.id === rootId;
}

/**
 * Adds what one match of pattern `pattern` says (its main capture `mainName` on `node`, the others
 * in `slots`) to `drafts`; `props` are the pattern's `#set!` properties.
 */
function addDraft(
  drafts: Drafts,
  pattern: number,
  props: QueryProperties | undefined,
  mainName: string,
  node: Node,
  pathJoin: string | undefined,
) {
  const cap = slots;
  if (mainName.startsWith("definition.")) {
    const kind = mainName.slice("definition.".length) as DefinitionKind;
    let d = drafts.defs.get(node.id);
    if (!d) drafts.defs.set(node.id, (d = { node, kind, pattern: pattern, bases: [], implements: [] }));
    const name = cap[NAME];
    if (name && (!d.name || pattern < d.pattern)) {
      d.name = name;
      d.kind = kind;
      d.pattern = pattern;
      if (cap[BODY]) d.body = cap[BODY];
    }
    for (let i = 0; i < listLengths[BASE]!; i++) {
      const text = squash(lists[BASE]![i]!.text);
      if (!d.bases.includes(text)) d.bases.push(text);
    }
    for (let i = 0; i < listLengths[IMPLEMENTS]!; i++) {
      const text = squash(lists[IMPLEMENTS]![i]!.text);
      if (!d.implements.includes(text)) d.implements.push(text);
    }
    if (cap[RETURNS]) d.returns = squash(cap[RETURNS].text);
    if (props?.static) d.static = true;
    if (cap[QUALIFIER]) d.qualifier = qualifierOf(cap[QUALIFIER].text, name?.text ?? "");
    if (props?.extent === "siblings" && !d.until) d.until = lastGoverned(node);
  } else if (mainName === "reference.call" || mainName === "reference.new") {
    const protocol = props?.protocol;
    const receiver = cap[RECEIVER];
    if (protocol && receiver) {
      // A statement's or operator's implicit calls on its operand: `(#set! protocol "__enter__ __exit__")`,
      // and `(#set! async "…")` for the statement's `async` form (its first token is read only then).
      let names: string[] | undefined;
      if (props?.operators) names = operatorProtocol(props, cap[OPERATOR]);
      else names = (props?.async && node.firstChild?.type === "async" ? props.async : protocol).split(" ");
      if (names) drafts.calls.push({ node, name: receiver, receiver, kind: "call", protocol: names });
    } else if (cap[NAME]) {
      const call: Drafts["calls"][number] = {
        node,
        name: cap[NAME],
        kind: mainName === "reference.new" ? "new" : "call",
      };
      const receivers = listLengths[RECEIVER]!;
      if (receivers > 1) {
        const list = listOf(RECEIVER);
        call.receiver = list.at(-1)!;
        call.receiverText = list.map((r) => r.text).join("");
      } else if (receiver) call.receiver = receiver;
      if (cap[ARGS]) call.args = cap[ARGS];
      if (cap[ARITY]) call.arity = cap[ARITY];
      // `(#set! suffix "=")`: the method called is the name plus a suffix (Ruby's `x.name = v` calls `name=`).
      if (props?.suffix) call.suffix = props.suffix;
      drafts.calls.push(call);
    }
  } else if (mainName === "reference.type") {
    // `(type_identifier) @reference.type`: a pattern without @name references the node it captures.
    drafts.types.push(cap[NAME] ?? node);
  } else if (mainName === "import") {
    const mod = cap[MODULE];
    const kind = (props?.kind as ImportRecord["kind"] | undefined) ?? "named";
    if (!mod && kind !== "export" && kind !== "export-default" && kind !== "self-namespace") return;
    const name = cap[IMPORT_NAME]?.text;
    const alias = cap[IMPORT_ALIAS]?.text;
    // Nested import trees (`use a::{b::{c}}`) capture one module path per level: joined, outermost first.
    const module =
      pathJoin && listLengths[MODULE]! > 1
        ? listOf(MODULE)
            .map((n) => n.text.replace(/\s+/g, ""))
            .join(pathJoin)
        : (mod?.text ?? "");
    const draft: Drafts["imports"][number] = { node, module, kind };
    if (name !== undefined) draft.name = name;
    if (alias !== undefined) draft.alias = alias;
    drafts.imports.push(draft);
  } else if (mainName.startsWith("local.")) {
    if (!cap[NAME]) return;
    const b: Drafts["bindings"][number] = {
      node,
      kind: mainName.slice(6) as Drafts["bindings"][number]["kind"],
      name: cap[NAME],
    };
    if (cap[TYPE]) b.type = cap[TYPE];
    if (cap[VALUE]) b.value = cap[VALUE];
    if (cap[ALIAS]) b.alias = cap[ALIAS];
    if (cap[ITER]) b.iter = cap[ITER];
    if (cap[RECEIVER]) b.receiver = cap[RECEIVER];
    if (cap[LITERAL]) b.literal = cap[LITERAL];
    if (cap[EXTENT]) b.extent = cap[EXTENT];
    if (props?.deref) b.deref = true;
    if (b.value && props?.["unwrap.arguments"] && !unwrap(b, props)) return;
    if (props?.valueSuffix) b.valueSuffix = props.valueSuffix;
    if (props?.as) b.as = props.as;
    drafts.bindings.push(b);
  }
}

/** The definitions in source order, with parents by containment, and what later steps need of each. */
interface DefinitionTable {
  definitions: Definition[];
  /** Name-to-end span of each definition (what counts as inside it for calls and bindings). */
  scopeStart: number[];
  scopeEnd: number[];
  /** Nesting depth of each definition. */
  depths: number[];
  /** Text span of each definition (its wrappers and decorators included), for its search words. */
  spans: [number, number][];
  /** Name tokens of definitions (a type reference that is a definition's own name is not a use). */
  nameNodeIds: Set<number>;
}

function buildDefinitions(drafts: Map<number, DefDraft>, spec: LanguageSpec, source: string): DefinitionTable {
  const endOf = (d: DefDraft) => (d.until ?? d.node).endIndex;
  const sorted = [...drafts.values()]
    .filter((d) => d.name)
    .sort((a, b) => a.node.startIndex - b.node.startIndex || endOf(b) - endOf(a));
  const t: DefinitionTable = {
    definitions: [],
    scopeStart: [],
    scopeEnd: [],
    depths: [],
    spans: [],
    nameNodeIds: new Set(),
  };
  const { definitions, scopeStart, scopeEnd, depths, spans, nameNodeIds } = t;
  const qualifiedOf: QualifiedName[] = [];
  const stack: number[] = [];
  for (const d of sorted) {
    const node = d.node;
    const nameNode = d.name!;
    const last = d.until ?? node;
    const lastEnd = last.endIndex; // a call into the wasm instance each time it is read
    while (stack.length && scopeEnd[stack.at(-1)!]! < lastEnd) stack.pop();
    const parent = stack.length ? stack.at(-1)! : -1;
    // tree-sitter finds a node's parent or sibling by descending from the root, so each such step
    // costs the node's depth. Past DEEP_NESTING nested definitions (generated or hostile code, never
    // hand-written), wrappers, decorators and doc comments are not looked for: the index stays
    // linear in the file's size however deep it nests.
    const deep = stack.length > DEEP_NESTING;
    const outer = deep ? node : outerNode(node, spec);
    const decorators = deep ? [] : decoratorsOf(node, outer, spec);
    // overload stubs merge into the implementation
    if (decorators.some((t) => /^@([\w.]+\.)?overload\b/.test(t))) continue;
    let kind = d.kind;
    // A name written as a string or a symbol (`define_method(:name)`) is its text without the quotes or colon.
    // The name's type read once: each read is a call into the wasm instance.
    const nameType = nameNode.type;
    const name = boundedName(
      nameType === "string"
        ? nameNode.text.slice(1, -1)
        : nameType === "simple_symbol"
          ? nameNode.text.slice(1)
          : nameNode.text,
    );
    const parentDef = parent >= 0 ? definitions[parent] : undefined;
    if (
      kind === "function" &&
      (parentDef?.kind === "class" || parentDef?.kind === "interface" || parentDef?.kind === "enum") &&
      spec.semantics?.classFunctionsAreMethods
    )
      kind = "method";
    if (kind === "method" && name === "constructor") kind = "constructor";
    const bodyStart = d.body ? d.body.startPosition.row + 1 : 0;
    const headerEnd = d.body ? d.body.startIndex : node.endIndex;
    const signature = cap(headerText(source.slice(node.startIndex, headerEnd)), MAX_SIGNATURE);
    const qualified = extendQualified(parent >= 0 ? qualifiedOf[parent]! : EMPTY_QUALIFIED, [
      ...(d.qualifier ? d.qualifier.split(".").map(boundedName) : []),
      name,
    ]);
    const def: Definition = {
      name,
      qualified: d.static ? staticQualified(qualified.text, name, spec) : qualified.text,
      kind,
      parent,
      start: outer.startPosition.row + 1,
      end: last.endPosition.row + 1,
      nameLine: nameNode.startPosition.row + 1,
      nameCol: nameNode.startPosition.column,
      signature,
      bodyStart,
      exported: false,
    };
    const doc = deep ? undefined : docOf(node, outer, d.body, spec);
    if (doc) def.doc = doc;
    if (decorators.length) def.decorators = decorators;
    if (d.bases.length) def.bases = d.bases;
    if (d.implements.length) def.implements = d.implements;
    if (d.returns) def.returns = d.returns;
    if (d.static) def.static = true;
    const params = paramsOf(deep ? node : (d.body?.parent ?? node));
    if (params.length) def.params = params;
    def.exported = isExported(def, outer, spec, definitions);
    definitions.push(def);
    scopeStart.push(nameNode.startIndex);
    scopeEnd.push(lastEnd);
    depths.push(stack.length);
    qualifiedOf.push(qualified);
    spans.push([outer.startIndex, lastEnd]);
    nameNodeIds.add(nameNode.id);
    stack.push(definitions.length - 1);
  }

  return t;
}

/** The innermost definition whose name-to-end span contains a text index (-1: module level). */
function enclosingOf(t: DefinitionTable): (index: number) => number {
  const { scopeStart, scopeEnd, definitions } = t;
  return (index: number): number => {
    let lo = 0;
    let hi = scopeStart.length - 1;
    let best = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (scopeStart[mid]! <= index) {
        best = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    for (let i = best; i >= 0; i = definitions[i]!.parent) if (scopeEnd[i]! >= index) return i;
    return -1;
  };
}

/** The calls a protocol draft stands for: one per method name, on the operand as receiver. */
function protocolCalls(c: Drafts["calls"][number], enclosing: (index: number) => number, into: CallRecord[]): void {
  const at = c.receiver!;
  const receiver = receiverText(at.text);
  if (!receiver) return;
  for (const name of c.protocol!) {
    into.push({
      name,
      kind: "call",
      line: at.startPosition.row + 1,
      col: at.startPosition.column,
      caller: enclosing(at.startIndex),
      receiver,
      protocol: true,
    });
  }
}

/** Which calls keep their arguments besides those with a string: the language's mount calls and prefix keywords. */
const argRules = new WeakMap<LanguageSpec, { names: Set<string>; keyword: RegExp | undefined; hints: string[] }>();
function argRulesOf(spec: LanguageSpec) {
  let r = argRules.get(spec);
  if (!r) {
    const routes = spec.routes;
    const keywords = routes?.prefixKeywords ?? [];
    r = {
      names: new Set(routes?.mountCalls ?? []),
      keyword: keywords.length ? new RegExp(`^(?:${keywords.join("|")})\\s*[=:]`) : undefined,
      // Where an argument kept for its text could start: a quote (STRING_ARG needs one) or a
      // prefix keyword (plain words).
      hints: ['"', "'", "`", ...keywords],
    };
    argRules.set(spec, r);
  }
  return r;
}

/**
 * The first index at or after `from` where one of `tokens` starts in `source` (-1: none), for
 * look-ups in ascending order mostly: each token's last answer is reused while it still holds,
 * so the file is scanned about once per token (by indexOf) however many calls ask. (A zero-width
 * regex listing every position up front cost 4% of extraction on django.)
 */
function tokenFinder(source: string, tokens: readonly string[]): (from: number) => number {
  const askedFrom = tokens.map(() => Infinity);
  const found = tokens.map(() => -1);
  return (from) => {
    let first = -1;
    for (let t = 0; t < tokens.length; t++) {
      if (!(from >= askedFrom[t]! && (found[t]! < 0 || from <= found[t]!))) {
        askedFrom[t] = from;
        found[t] = source.indexOf(tokens[t]!, from);
      }
      const at = found[t]!;
      if (at >= 0 && (first < 0 || at < first)) first = at;
    }
    return first;
  };
}

function callRecords(
  drafts: Drafts["calls"],
  spec: LanguageSpec,
  source: string,
  enclosing: (index: number) => number,
): CallRecord[] {
  const calls: CallRecord[] = [];
  const keep = argRulesOf(spec);
  const seenCalls = new Set<number>();
  // Most calls keep no arguments: those whose argument text holds no quote and no prefix keyword
  // (and are not mount calls) are known so without listing their arguments (a third of the calls'
  // cost on django), from where the next quote or keyword is.
  const nextHint = tokenFinder(source, keep.hints);
  const nextPath = tokenFinder(source, ["::"]);
  const slash = slashFinder(source);
  // Ends of the names and receivers, read once each: a node's end (and so its `text`) is a call
  // into the wasm instance, and a receiver was measured, read and compared up to five times.
  const ends = new Map<number, number>();
  const endOf = (n: Node): number => {
    let end = ends.get(n.id);
    if (end === undefined) ends.set(n.id, (end = n.endIndex));
    return end;
  };
  if (spec.fullDepth) {
    // Several patterns may read one call (`f(…)`, `x.f(…)` and `self.x.f(…)` over the same tokens): the longest
    // receiver wins.
    const best = new Map<number, (typeof drafts)[number]>();
    const receiverLength = (c: (typeof drafts)[number]) =>
      c.receiverText !== undefined ? c.receiverText.length : c.receiver ? endOf(c.receiver) - c.receiver.startIndex : 0;
    for (const c of drafts) {
      if (c.protocol) continue;
      const prior = best.get(c.name.id);
      if (
        !prior ||
        receiverLength(c) > receiverLength(prior) ||
        (c.suffix && !prior.suffix && receiverLength(c) === receiverLength(prior))
      )
        best.set(c.name.id, c);
    }
    for (const c of drafts) {
      if (c.protocol) {
        protocolCalls(c, enclosing, calls);
        continue;
      }
      if (seenCalls.has(c.name.id) || best.get(c.name.id) !== c) continue;
      seenCalls.add(c.name.id);
      const nameEnd = endOf(c.name);
      const nameText = source.slice(c.name.startIndex, nameEnd) + (c.suffix ?? "");
      const call: CallRecord = {
        name: boundedName(nameText),
        kind: c.kind,
        line: c.name.startPosition.row + 1,
        col: c.name.startPosition.column,
        caller: enclosing(c.name.startIndex),
      };
      // A setter is called by an assignment, not written as a call: linked like a protocol call.
      if (c.suffix) call.protocol = true;
      if (c.arity) call.argc = argumentCount(c.arity, spec, slash);
      if (c.receiver) {
        // A receiver that holds the name is the whole qualified callee (C++ `a::B::m`, read from its
        // outermost node of that type): the part before the name.
        let rn = c.receiver;
        const receiverEnd = endOf(rn);
        const holds = receiverEnd >= nameEnd && rn.startIndex <= c.name.startIndex;
        while (holds && rn.parent && rn.parent.type === rn.type && rn.parent.endIndex === rn.endIndex) rn = rn.parent;
        if (holds) {
          const r = rn.text.slice(0, c.name.startIndex - rn.startIndex).replace(/\s*(::|\.|->)\s*$/, "");
          if (r) call.receiver = receiverText(r);
        } else {
          // A receiver joined to the name by `::` (`self::f()`, `Type::new()`) keeps the `::`: a path, not a value.
          // Its next sibling is looked at only when a `::` follows it somewhere in the file (never, in most
          // Python and TypeScript): the sibling and its type are two calls into the wasm instance.
          const path = nextPath(receiverEnd) >= 0 && c.receiver.nextSibling?.type === "::";
          const text = c.receiverText ?? source.slice(c.receiver.startIndex, receiverEnd);
          call.receiver = receiverText(text, path) + (path ? "::" : "");
        }
      }
      if (c.args && !keep.names.has(nameText.toLowerCase())) {
        const hint = nextHint(c.args.startIndex);
        if (hint < 0 || hint >= c.args.endIndex) {
          calls.push(call);
          continue;
        }
      }
      if (c.args) {
        const args = c.args.namedChildren.filter((a): a is Node => a !== null && !spec.commentTypes.includes(a.type));
        // Strings (routes, messages), and the arguments of the calls that mount routers or set their prefixes.
        if (
          args.some((a) => STRING_ARG.test(a.text) || keep.keyword?.test(a.text) || URL_OPTION.test(a.text)) ||
          (args.length > 0 && keep.names.has(nameText.toLowerCase()))
        ) {
          call.args = args.slice(0, 8).map((a) => urlOption(a.text) ?? squash(a.text, 120));
          call.end = c.node.endPosition.row + 1;
        }
      }
      calls.push(call);
    }
  }
  return calls;
}

/**
 * The first `/` at or after an index (-1: none), for look-ups in ascending order mostly: the last
 * answer is reused while it still holds, so a file is scanned about once however many calls it has.
 */
function slashFinder(source: string): (from: number) => number {
  let askedFrom = Infinity;
  let found = -1;
  return (from) => {
    if (from >= askedFrom && (found < 0 || from <= found)) return found;
    askedFrom = from;
    found = source.indexOf("/", from);
    return found;
  };
}

/**
 * The entries of an argument list (`@arity`): its named children, comments left out. Only a list
 * whose text holds a `/` can hold a comment, so most are counted without visiting their children.
 */
function argumentCount(list: Node, spec: LanguageSpec, slash: (from: number) => number): number {
  const n = list.namedChildCount;
  if (n === 0) return 0;
  const at = slash(list.startIndex);
  if (at < 0 || at >= list.endIndex) return n;
  let count = 0;
  for (let i = 0; i < n; i++) if (!spec.commentTypes.includes(list.namedChild(i)!.type)) count++;
  return count;
}

/** A receiver of identifier characters and single dots only (no space, `->`, `::`, `?.` or call). */
const PLAIN_RECEIVER = /^[\w$]+(\.[\w$]+)*$/;

/**
 * A receiver as written, whitespace-collapsed; a long one (a builder chain with arguments) keeps
 * its calls with their arguments dropped (`a.b(…).c(…)` → `a.b().c()`), so the chain still resolves.
 */
function receiverText(text: string, path = false): string {
  // Most receivers are names and dotted names (`self`, `self.objects`): nothing below changes them.
  if (text.length <= MAX_EXPR && PLAIN_RECEIVER.test(text)) return text;
  // A chain written one call per line (`new Builder()\n  .add(x)`) reads as `new Builder().add(x)`.
  // C/C++ member access and scope (`p->x`, `ns::T`) read as dots; a path joined to the name by
  // `::` (Rust `super::util::f()`) keeps its `::`, which resolution reads as a path.
  const s = text
    .replace(/\s+/g, " ")
    .trim()
    .replace(path ? / ?(->) ?/g : / ?(->|::) ?/g, ".")
    .replace(/ ?(\??\.) ?/g, "$1")
    .replace(/ ?:: ?/g, "::");
  if (s.length <= MAX_EXPR) return s;
  let out = "";
  let depth = 0;
  for (const ch of s) {
    if (ch === "(") {
      if (depth++ === 0) out += "(";
    } else if (ch === ")") {
      if (--depth === 0) out += ")";
    } else if (depth === 0) out += ch;
  }
  return squash(out);
}

function typeRefRecords(
  drafts: Node[],
  nameNodeIds: Set<number>,
  enclosing: (index: number) => number,
): TypeRefRecord[] {
  const typeRefs: TypeRefRecord[] = [];
  const seenTypes = new Set<number>();
  for (const t of drafts) {
    if (nameNodeIds.has(t.id) || seenTypes.has(t.id)) continue;
    seenTypes.add(t.id);
    typeRefs.push({ name: boundedName(t.text), line: t.startPosition.row + 1, scope: enclosing(t.startIndex) });
  }
  return typeRefs;
}

function importRecords(drafts: Drafts["imports"], enclosing: (index: number) => number): ImportRecord[] {
  const imports: ImportRecord[] = drafts.map((i) => ({
    kind: i.kind,
    module: i.module,
    ...(i.name !== undefined ? { name: i.name } : {}),
    ...(i.alias !== undefined && i.alias !== i.name ? { alias: i.alias } : {}),
    line: i.node.startPosition.row + 1,
    scope: enclosing(i.node.startIndex),
  }));
  // A CommonJS `require` call bound to a name is also matched bare; keep the bound form only.
  const boundRequires = new Set(imports.filter((i) => i.kind !== "require").map((i) => `${i.line}:${i.module}`));
  const dedupedImports = imports.filter((i) => i.kind !== "require" || !boundRequires.has(`${i.line}:${i.module}`));
  return dedupedImports;
}

/** Longest string expression kept for a binding (a route prefix, a constant): longer ones are data, not names. */
const MAX_LITERAL = 300;

/** The source of a string-valued expression a binding holds, when short and on one line. */
function literalText(node: Node): string | undefined {
  const text = node.text;
  return text.length <= MAX_LITERAL && !text.includes("\n") ? text : undefined;
}

function bindingRecords(
  drafts: Drafts["bindings"],
  spec: LanguageSpec,
  table: { definitions: Definition[]; depths: number[] },
  enclosing: (index: number) => number,
  source: string,
): BindingRecord[] {
  const depths = table.depths;
  for (const b of drafts) {
    if (b.kind !== "member") continue;
    const scope = enclosing(b.node.startIndex);
    b.kind = scope >= 0 && TYPE_KINDS.has(table.definitions[scope]!.kind) ? "field" : "assign";
  }
  // What a function returns is kept for an injected parameter's providers only (pytest fixtures): the rest of a
  // language's functions are typed by their annotations, and their bodies stay out of the file's outward shape.
  const provider = spec.semantics?.injected?.provider;
  const isProvider = (scope: number) =>
    provider !== undefined && scope >= 0 && (table.definitions[scope]!.decorators ?? []).some((d) => provider.test(d));
  let brackets: Uint16Array | undefined;
  // Several patterns may bind the same name token (a plain assignment and a typed one): merge them.
  const bindings: BindingRecord[] = [];
  if (spec.fullDepth) {
    const byToken = new Map<number, BindingRecord>();
    for (const b of drafts) {
      if (b.kind === "return" && !isProvider(enclosing(b.node.startIndex))) continue;
      const prior = byToken.get(b.name.id);
      if (prior) {
        if (b.type && !prior.type) prior.type = squash(b.type.text);
        if (b.value && !prior.value) prior.value = squash(b.valueText ?? b.value.text) + (b.valueSuffix ?? "");
        if (b.alias && !prior.alias) prior.alias = squash(b.alias.text);
        if (b.iter && !prior.iter) prior.iter = squash(b.iter.text);
        if (b.literal && prior.literal === undefined) {
          const text = literalText(b.literal);
          if (text !== undefined) prior.literal = text;
        }
        if (b.receiver && !prior.receiver) prior.receiver = b.receiver.text;
        if (b.kind === "field") prior.kind = "field";
        if (b.deref) prior.deref = true;
        continue;
      }
      const scope = enclosing(b.node.startIndex);
      // Contextual typing climbs from the parameter to its call: only where that climb is cheap.
      const site =
        b.kind === "param" &&
        !b.type &&
        spec.callbackSite &&
        (scope < 0 || depths[scope]! <= DEEP_NESTING) &&
        (brackets ??= bracketDepths(source))[b.name.startIndex]! <= CALLBACK_BRACKET_DEPTH
          ? spec.callbackSite(b.name)
          : undefined;
      // Fields set one by one in the order the stored JSON lists them (conditional spreads each
      // cloned an object: a third of this function's time on django).
      const rec = (site ? { argOf: site, kind: b.kind } : { kind: b.kind }) as BindingRecord;
      rec.name = b.as ?? boundedName(b.name.text);
      if (b.receiver) rec.receiver = b.receiver.text;
      if (b.type) rec.type = squash(b.type.text);
      if (b.value) rec.value = squash(b.valueText ?? b.value.text) + (b.valueSuffix ?? "");
      if (b.alias) rec.alias = squash(b.alias.text);
      if (b.iter) rec.iter = squash(b.iter.text);
      const literal = b.literal && literalText(b.literal);
      if (literal !== undefined) rec.literal = literal;
      if (b.extent) rec.until = b.extent.endPosition.row + 1;
      if (b.deref) rec.deref = true;
      rec.line = b.name.startPosition.row + 1;
      rec.scope = scope;
      byToken.set(b.name.id, rec);
      bindings.push(rec);
    }
  }

  return bindings;
}

/**
 * Up to five syntax errors (ERROR and MISSING nodes), found without visiting error-free subtrees.
 * A loop over the cursor, not a recursion: 3,700 nested blocks with one error overflowed the JS
 * stack and ended the whole index (issue 22).
 */
function diagnosticsOf(root: Node): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  if (!root.hasError) return diagnostics;
  const cursor = root.walk();
  try {
    if (!cursor.gotoFirstChild()) return diagnostics;
    // Counted here: the cursor's own currentDepth costs the depth (3 s over 4,000 nested lambdas).
    let depth = 1;
    for (;;) {
      const n = cursor.currentNode;
      if (n.isError || n.isMissing) {
        const line = n.startPosition.row + 1;
        const end = n.endPosition.row + 1;
        diagnostics.push({
          line,
          ...(end > line ? { end } : {}),
          message: n.isMissing ? `syntax error: missing ${n.type}` : "syntax error",
        });
        if (diagnostics.length >= 5) break;
      } else if (n.hasError && cursor.gotoFirstChild()) {
        depth++;
        continue;
      }
      // Next sibling, else the next sibling of the nearest ancestor that has one.
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent() || --depth === 0) return diagnostics;
      }
    }
    return diagnostics;
  } finally {
    cursor.delete();
  }
}

/**
 * Wall time one file's query may take. tree-sitter's query cursor costs more per node the deeper
 * the node for some patterns (C++'s class-in-a-block pattern on nested lambdas: 2,000 nested
 * lambdas took 9.8 s of query; issue 22 measured 21–64 s for 66–199 KB files), and real files
 * take far less (a 600 KB TypeScript declaration file: 0.1 s), so past this the query stops and
 * the record keeps what it matched, with a diagnostic saying where it stopped.
 */
export const QUERY_BUDGET_MS = 5_000;

/** Options of one extraction. */
export interface ExtractOptions {
  /** Overrides QUERY_BUDGET_MS (tests). */
  queryBudgetMs?: number;
  /** Reads the matches through web-tree-sitter's `Query.matches` (tests compare with the match reader). */
  publicMatches?: boolean;
}

/** The query's drafts within the time budget, and whether it stopped early. */
function boundedDrafts(
  query: Query,
  root: Node,
  spec: LanguageSpec,
  budgetMs: number,
  publicApi: boolean,
): Collected & { stopped: boolean } {
  const deadline = Date.now() + budgetMs;
  let stopped = false;
  // Called by the cursor every hundred or so steps; returning true ends the query.
  const progressCallback = () => (stopped ||= Date.now() > deadline);
  const collected = collectDrafts(query, root, { progressCallback, publicApi }, spec.importPathJoin);
  return { ...collected, stopped };
}

/** Extracts the record for one parsed file. `path`/`hash` are carried through unchanged. */
export function extractFile(
  tree: Tree,
  query: Query,
  spec: LanguageSpec,
  path: string,
  hash: string,
  options: ExtractOptions = {},
): FileRecord {
  const root = tree.rootNode;
  // Node indexes count from the file's start, and the root starts at the first token: blank lines
  // before it are not in its text. Padding keeps every index pointing at its own character.
  const source = root.startIndex > 0 ? " ".repeat(root.startIndex) + root.text : root.text;
  const budgetMs = options.queryBudgetMs ?? QUERY_BUDGET_MS;
  const { drafts, lastRow, stopped } = boundedDrafts(query, root, spec, budgetMs, options.publicMatches === true);
  const table = buildDefinitions(drafts.defs, spec, source);
  const enclosing = enclosingOf(table);
  const moduleTerms = assignTerms(source, table.definitions, table.spans);
  const bindings = bindingRecords(drafts.bindings, spec, table, enclosing, source);
  return {
    path,
    language: spec.id,
    hash,
    lines: root.endPosition.row + 1,
    ...(moduleTerms ? { terms: moduleTerms } : {}),
    fields: boundFieldNames(table.definitions, bindings).join(" "),
    definitions: table.definitions,
    imports: importRecords(drafts.imports, enclosing),
    calls: callRecords(drafts.calls, spec, source, enclosing),
    typeRefs: typeRefRecords(drafts.types, table.nameNodeIds, enclosing),
    bindings,
    diagnostics: stopped
      ? [stoppedDiagnostic(lastRow, budgetMs), ...diagnosticsOf(root).slice(0, 4)]
      : diagnosticsOf(root),
  };
}

/**
 * The diagnostic of a query stopped by its budget: from the line after its last match on, the record may miss facts.
 */
function stoppedDiagnostic(last: number, budgetMs: number): Diagnostic {
  return {
    line: last + 1,
    message:
      `extraction stopped after ${budgetMs / 1000} s: definitions and calls after line ${last + 1} may ` + `be missing`,
  };
}
