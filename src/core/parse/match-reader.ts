/**
 * A query's matches handed to a visitor one at a time, read straight from web-tree-sitter's
 * transfer buffer when the runtime is the one this reader was written against, through the
 * public `Query.matches` otherwise.
 *
 * Why: `Query.matches` builds, for every capture of a whole file, a `Node` (a class whose field
 * initialisers cost more than its reads), a `{ row, column }`, a capture object and a match object,
 * all alive at once until extraction has read them (83 MB promoted on effect's big files). The
 * reader makes one light node per capture (the same prototype, so every `Node` getter works on it)
 * and nothing else: the capture names and nodes sit in two arrays reused match after match.
 */
import type { Node, Query, QueryOptions, Tree } from "web-tree-sitter";

/**
 * The sha256 of `web-tree-sitter.wasm` (web-tree-sitter 0.27.2, `wasm/wasm.lock.json`) whose
 * binding's layout the reader follows: a match is `pattern, count`, then per capture `capture
 * index, id, start index, row, column, address` as i32s. Another runtime uses `Query.matches`.
 */
export const READER_WASM_SHA256 = "488beeff7adb7fd7e21e97cc29a43dc6d031977755eda892d6d96c7f456cfdec";

/** What the reader needs of web-tree-sitter's Emscripten module (the object handed to `Parser.init`). */
interface Binding {
  HEAP32: Int32Array;
  _ts_init(): number;
  _free(address: number): void;
  _ts_query_matches_wasm(...args: number[]): void;
  currentQueryProgressCallback: QueryOptions["progressCallback"] | null;
  setValue(address: number, value: number, type?: string): void;
  getValue(address: number, type?: string): number;
}

/** A bound reader: the module, its transfer buffer, and a light constructor on its `Node.prototype`. */
interface Reader {
  binding: Binding;
  transfer: number;
  makeNode: (other: number, id: number, tree: Tree, startIndex: number, row: number, column: number) => Node;
}

/** Per `Query.prototype` (one per loaded copy of web-tree-sitter): its reader. */
const readers = new WeakMap<object, Reader>();

const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * Lets the queries of one loaded web-tree-sitter (`module`, initialised with `binding`) be read
 * from its transfer buffer, when `wasmSha256` is the runtime the reader follows and the module
 * has what the reader calls. Returns whether it did; without it, matches go through `Query.matches`.
 */
export function registerMatchReader(
  module: { Query: { prototype: object }; Node: { prototype: object } },
  binding: object,
  wasmSha256: string,
): boolean {
  const b = binding as Partial<Binding>;
  if (
    wasmSha256 !== READER_WASM_SHA256 ||
    !littleEndian ||
    !(b.HEAP32 instanceof Int32Array) ||
    typeof b._ts_init !== "function" ||
    typeof b._free !== "function" ||
    typeof b._ts_query_matches_wasm !== "function"
  )
    return false;
  if (typeof b.setValue === "function" && typeof b.getValue === "function") fastWordAccess(b as Binding);
  // `Node`'s own constructor takes a private symbol; this one sets the same fields as plain
  // assignments (its class fields' initialiser was half of what a capture cost).
  const proto = module.Node.prototype;
  function LightNode(
    this: Record<string | number, unknown>,
    other: number,
    id: number,
    tree: Tree,
    startIndex: number,
    row: number,
    column: number,
  ) {
    this[0] = other;
    this.id = id;
    this.tree = tree;
    this.startIndex = startIndex;
    this.startPosition = { row, column };
  }
  LightNode.prototype = proto;
  const makeNode = (other: number, id: number, tree: Tree, startIndex: number, row: number, column: number) =>
    new (LightNode as unknown as new (...a: unknown[]) => Node)(other, id, tree, startIndex, row, column);
  // `ts_init` only writes the language versions into the static transfer buffer and returns it.
  readers.set(module.Query.prototype, { binding: b as Binding, transfer: b._ts_init(), makeNode });
  return true;
}

/**
 * Makes the binding's `setValue`/`getValue` of an `i32` one typed-array access. Every `Node` getter
 * web-tree-sitter runs (`type`, `endIndex`, `text`, `parent`, `namedChildren`…) first writes the
 * node's five words into the transfer buffer with `setValue(…, "i32")`, and every node it returns
 * is read back with `getValue(…, "i32")`: each call tests its type string (`endsWith("*")`, then a
 * switch) and goes through a `DataView`. That was 3.6 % of a cold `index --jobs 1` of django
 * (`setValue`, `marshalNode`, `unmarshalNode`), more than extraction's own `callRecords`.
 * The same words land in the same place: the originals also round an `i32` address down to a
 * multiple of 4 and store little-endian, which an `Int32Array` is on the little-endian hosts the
 * reader is registered on. `HEAP32` is read on each call (a memory growth replaces it).
 */
export function fastWordAccess(b: Pick<Binding, "HEAP32" | "setValue" | "getValue">): void {
  const setValue = b.setValue;
  const getValue = b.getValue;
  b.setValue = (address, value, type) => {
    if (type === "i32") b.HEAP32[address >> 2] = value;
    else setValue(address, value, type);
  };
  b.getValue = (address, type) => (type === "i32" ? b.HEAP32[address >> 2]! : getValue(address, type));
}

/** Whether `query`'s matches are read from the transfer buffer (false: through `Query.matches`). */
export function readsDirectly(query: Query): boolean {
  return readers.has(Object.getPrototypeOf(query) as object);
}

/**
 * The current match's captures, as `visit` sees them: `captureIndexes[i]` (an index into the
 * query's `captureNames`) and `captureNodes[i]` for i below the count passed. Both are reused by
 * the next match: copy what must outlive the visit.
 */
export const captureIndexes: number[] = [];
/** See {@link captureIndexes}. */
export const captureNodes: Node[] = [];

/** Called once per match, in the order tree-sitter found them. */
export type MatchVisitor = (patternIndex: number, captureCount: number) => void;

/** Options of {@link forEachMatch}. */
export interface MatchReadOptions {
  progressCallback?: QueryOptions["progressCallback"];
  /** Reads through `Query.matches` even where the reader could (tests compare the two). */
  publicApi?: boolean;
}

/**
 * Runs `query` over `root` and calls `visit` for each match whose text predicates hold (as
 * `Query.matches` filters them), with its captures in {@link captureIndexes} and
 * {@link captureNodes}.
 */
export function forEachMatch(query: Query, root: Node, options: MatchReadOptions, visit: MatchVisitor): void {
  const reader = options.publicApi ? undefined : readers.get(Object.getPrototypeOf(query) as object);
  if (!reader) {
    const index = new Map(query.captureNames.map((name, i) => [name, i]));
    const progress = options.progressCallback;
    for (const m of query.matches(root, progress ? { progressCallback: progress } : {})) {
      const n = m.captures.length;
      for (let i = 0; i < n; i++) {
        captureIndexes[i] = index.get(m.captures[i]!.name)!;
        captureNodes[i] = m.captures[i]!.node;
      }
      visit(m.patternIndex, n);
    }
    return;
  }
  const words = runQuery(reader, query, root, options);
  const tree = root.tree;
  const predicates = (query as unknown as { textPredicates: ((captures: unknown[]) => boolean)[][] }).textPredicates;
  const make = reader.makeNode;
  for (let a = 0; a < words.length; ) {
    const pattern = words[a++]!;
    const count = words[a++]!;
    for (let i = 0; i < count; i++, a += 6) {
      captureIndexes[i] = words[a]!;
      const id = words[a + 1]!;
      // A capture of no node (id 0) is null in `Query.matches`, which extraction never meets.
      captureNodes[i] =
        id === 0
          ? (null as unknown as Node)
          : make(words[a + 5]!, id, tree, words[a + 2]!, words[a + 3]!, words[a + 4]!);
    }
    const tests = predicates[pattern];
    if (tests && tests.length > 0 && !passes(query, pattern, count, tests)) continue;
    visit(pattern, count);
  }
}

/**
 * Runs the query in the wasm instance and copies its answer out (extraction calls into the
 * instance while it reads the matches, and a call that grows the wasm memory detaches its views).
 */
function runQuery(reader: Reader, query: Query, root: Node, options: MatchReadOptions): Int32Array {
  const { binding, transfer } = reader;
  let heap = binding.HEAP32;
  // `marshalNode(root)`: id, start index, row, column, address.
  const t = transfer >> 2;
  heap[t] = root.id;
  heap[t + 1] = root.startIndex;
  heap[t + 2] = root.startPosition.row;
  heap[t + 3] = root.startPosition.column;
  heap[t + 4] = (root as unknown as Record<number, number>)[0]!;
  if (options.progressCallback) binding.currentQueryProgressCallback = options.progressCallback;
  const handle = (o: unknown) => (o as Record<number, number>)[0]!;
  try {
    // Ranges and containing ranges 0 (the whole tree), no match limit, no start depth limit.
    binding._ts_query_matches_wasm(handle(query), handle(root.tree), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, -1);
  } finally {
    binding.currentQueryProgressCallback = null;
  }
  heap = binding.HEAP32;
  const count = heap[t]!;
  const start = heap[t + 1]!;
  let end = start >> 2;
  for (let i = 0; i < count; i++) end += 2 + 6 * heap[end + 1]!;
  const words = heap.slice(start >> 2, end);
  binding._free(start);
  return words;
}

/** Whether a match passes its pattern's text predicates, given the captures objects they read. */
function passes(query: Query, pattern: number, count: number, tests: ((captures: unknown[]) => boolean)[]): boolean {
  const captures = new Array(count);
  for (let i = 0; i < count; i++)
    captures[i] = { patternIndex: pattern, name: query.captureNames[captureIndexes[i]!], node: captureNodes[i] };
  return tests.every((p) => p(captures));
}
