/**
 * `go test`'s conventions: tests are `TestXxx` (and `FuzzXxx`, `ExampleXxx`) functions in
 * `_test.go` files, run per package folder with `-run '^(TestA|TestB)$'`.
 */
import type { TestConventions, TestToRun } from "../types.ts";
import { escapeRegExp, folderOf, groupBy, shellQuote } from "../testing.ts";

const FILE = /_test\.go$/;
const TEST = /^(Test|Fuzz|Example)([A-Z0-9_]|$)/;

const pkg = (path: string) => (folderOf(path) ? `./${folderOf(path)}` : ".");

export const goTests: TestConventions = {
  file: FILE,
  testAt(site) {
    const fn = site.scope[0];
    if (!FILE.test(site.path) || !fn || fn.kind !== "function" || !TEST.test(fn.name)) return undefined;
    return { id: fn.name, start: fn.start, end: fn.end };
  },
  // A file's tests run with its package.
  fileId: (path) => pkg(path),
  runners: [
    {
      id: "go",
      name: "go test",
      detect: [{ file: /(^|\/)go\.(mod|work)$/ }],
      commands(tests: readonly TestToRun[]) {
        const out: string[] = [];
        for (const [dir, ts] of groupBy(tests, (t) => pkg(t.path))) {
          const named = ts.filter((t) => !t.file);
          if (named.length < ts.length) out.push(`go test ${shellQuote(dir)}`);
          else
            out.push(
              `go test -run ` +
                (`${shellQuote(`^(${[...new Set(named.map((t) => escapeRegExp(t.id)))].join("|")})$`)} ` +
                  `${shellQuote(dir)}`),
            );
        }
        return out;
      },
    },
  ],
};
