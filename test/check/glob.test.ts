/** The check config's globs: `**` across folders, `*` and `?` within one, `{a,b}`, a trailing `/`, exact paths. */
import { describe, expect, it } from "vitest";
import { globToRegExp } from "../../src/core/check/glob.ts";

const cases: [string, string, boolean][] = [
  ["src/**", "src/a.ts", true],
  ["src/**", "src/a/b/c.ts", true],
  ["src/**", "srcx/a.ts", false],
  ["**/*.test.ts", "a.test.ts", true],
  ["**/*.test.ts", "x/y/a.test.ts", true],
  ["**/*.test.ts", "x/a.ts", false],
  ["src/*.ts", "src/a.ts", true],
  ["src/*.ts", "src/a/b.ts", false],
  ["src/?.ts", "src/a.ts", true],
  ["src/?.ts", "src/ab.ts", false],
  ["src/platform/{node,deno}/index.ts", "src/platform/deno/index.ts", true],
  ["src/platform/{node,deno}/index.ts", "src/platform/browser/index.ts", false],
  ["src/index.ts", "src/index.ts", true],
  ["src/index.ts", "src/indexxts", false],
  ["src/(a)+.ts", "src/(a)+.ts", true],
  ["docs/", "docs/a/b.md", true],
  ["docs/", "docsx/a.md", false],
];

describe("globToRegExp", () => {
  it.each(cases)("%s on %s: %s", (glob, path, expected) => {
    expect(globToRegExp(glob).test(path)).toBe(expected);
  });
});
