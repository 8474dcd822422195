/**
 * `writeJson` streams big answers (the Linux kernel's `graph --json` is longer than V8 allows one
 * string to be), and must still print exactly what `JSON.stringify(value, null, 2)` prints.
 */
import { afterEach, describe, expect, it } from "vitest";
import { writeJson } from "../../src/cli/output.ts";

const realWrite = process.stdout.write.bind(process.stdout);
afterEach(() => {
  process.stdout.write = realWrite;
});

/** What writeJson printed, and how many writes it took. */
function printed(value: unknown): { text: string; writes: number } {
  const parts: string[] = [];
  process.stdout.write = ((chunk: string) => (parts.push(String(chunk)), true)) as typeof process.stdout.write;
  try {
    writeJson(value);
  } finally {
    process.stdout.write = realWrite;
  }
  return { text: parts.join(""), writes: parts.length };
}

class Point {
  constructor(
    readonly x: number,
    readonly y: number,
  ) {}
}

const CASES: [string, unknown][] = [
  [
    "a graph-shaped object",
    {
      meta: { tool: "codeslice", files: 2 },
      definitions: [{ id: "a.py#f", line: 1, tags: ["x", "y"] }],
      edges: [],
      empty: {},
    },
  ],
  [
    "undefined, functions and symbols in objects and arrays",
    { a: undefined, b: () => 1, c: Symbol("s"), d: [undefined, () => 1, Symbol("t"), 1], e: { f: undefined } },
  ],
  [
    "text that needs escaping",
    { s: 'line\nbreak "quoted" \\ tab\t ünïcödé 🚀 \u2028', [`key\nwith "quotes"`]: ["\n"] },
  ],
  [
    "objects with toJSON and class instances",
    { when: new Date(0), p: new Point(1, 2), list: [new Date(86_400_000), new Point(3, 4)] },
  ],
  ["deep nesting", { a: [[[{ b: [[1, 2], { c: [] }] }]]], z: [[], {}, [[]]] }],
  ["a top-level array", [1, "two", null, { three: [3] }, [4, [5]], undefined]],
  ["scalars", { n: -0, f: 1.5e300, t: true, nul: null, nan: Number.NaN, inf: Infinity }],
  ["an empty object", {}],
  ["an empty array", []],
  ["a number", 42],
  ["a string", "plain"],
  ["null", null],
];

describe("writeJson", () => {
  for (const [name, value] of CASES) {
    it(`prints what JSON.stringify(value, null, 2) does: ${name}`, () => {
      expect(printed(value).text).toBe(`${JSON.stringify(value, null, 2)}\n`);
    });
  }

  it("writes a big answer in chunks, never as one string, and byte for byte the same", () => {
    const edges = Array.from({ length: 40_000 }, (_, i) => ({
      caller: `src/file${i % 97}.c#fn${i}`,
      callee: `include/h${i % 13}.h#g${i}`,
      line: i,
      via: "call",
    }));
    const value = { meta: { files: 97 }, call_edges: edges };
    const { text, writes } = printed(value);
    const want = `${JSON.stringify(value, null, 2)}\n`;
    // (compared by where they first differ: a diff of two 4 MB strings takes the runner minutes)
    let at = 0;
    while (at < want.length && text[at] === want[at]) at++;
    expect(
      at === want.length && text.length === want.length
        ? "equal"
        : `differ at ${at}: ${JSON.stringify(text.slice(at, at + 80))}`,
    ).toBe("equal");
    expect(text.length).toBeGreaterThan(4 << 20);
    expect(writes).toBeGreaterThan(3);
  });

  it("writes a top-level list given as an iterable plain object as the array of its items, made one at a time", () => {
    let made = 0;
    let most = 0;
    const lazy = (n: number) => ({
      *[Symbol.iterator]() {
        for (let i = 0; i < n; i++) {
          made++;
          most = Math.max(most, made);
          yield { caller: `a.c#f${i}`, line: i, tags: [i, undefined] };
          made--; // the writer has taken the item before it asks for the next
        }
      },
    });
    const value = { meta: { files: 1 }, none: lazy(0), one: lazy(1), many: lazy(1000), after: [1] };
    const arrays = { meta: { files: 1 }, none: [...lazy(0)], one: [...lazy(1)], many: [...lazy(1000)], after: [1] };
    most = 0;
    expect(printed(value).text).toBe(`${JSON.stringify(arrays, null, 2)}\n`);
    expect(most).toBe(1);
  });
});
