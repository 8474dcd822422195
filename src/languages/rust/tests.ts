/**
 * `cargo test`'s conventions: tests are functions with a `#[test]`-like attribute (`#[test]`,
 * `#[tokio::test]`, `#[rstest]`, `#[test_case(…)]`); libtest names a unit test by its module path
 * inside the crate (`parser::tests::reads_empty`), and an integration test (`tests/api.rs`) by its
 * path inside that test target, which `--test api` selects.
 */
import type { TestConventions, TestToRun } from "../types.ts";
import { groupBy, shellQuote } from "../testing.ts";

const ATTRIBUTE = /^#\[(\w+::)*(test|rstest|test_case|wasm_bindgen_test)\b/;
const INTEGRATION = /(^|\/)tests\/([^/]+)\.rs$/;
/** `#[cfg(test)]`, and any `cfg` that requires it (`#[cfg(all(test, unix))]`): compiled for tests only. */
const TEST_ONLY = /^#\[cfg\((?:all\((?:[^()]*,\s*)?)?test\b/;

/** The module path of a file inside its crate: src/lib.rs → [], src/a/b.rs → [a, b], src/a/mod.rs → [a]. */
function modulePath(path: string): string[] | undefined {
  if (INTEGRATION.test(path)) return [];
  const at = path.lastIndexOf("src/");
  if (at < 0 || (at > 0 && path[at - 1] !== "/")) return undefined;
  const parts = path
    .slice(at + 4)
    .replace(/\.rs$/, "")
    .split("/");
  const last = parts.at(-1);
  if (last === "mod" || ((last === "lib" || last === "main") && parts.length === 1)) parts.pop();
  return parts;
}

/** The integration test target a file is, if it is one. */
const targetOf = (path: string) => INTEGRATION.exec(path)?.[2];

export const rustTests: TestConventions = {
  testAt(site) {
    const mods = modulePath(site.path);
    if (!mods) return undefined;
    const names = [...mods];
    for (const s of site.scope) {
      if (s.kind === "module") {
        names.push(s.name);
        continue;
      }
      if (s.kind === "function" && (s.decorators ?? []).some((d) => ATTRIBUTE.test(d))) {
        const parametrized = (s.decorators ?? []).some((d) => /^#\[(rstest|test_case)/.test(d));
        return {
          id: [...names, s.name].join("::"),
          start: s.start,
          end: s.end,
          ...(parametrized ? { parametrized } : {}),
        };
      }
      return undefined;
    }
    return undefined;
  },
  testScope: (scope) => scope.kind === "module" && (scope.decorators ?? []).some((d) => TEST_ONLY.test(d)),
  fileId: (path) => (targetOf(path) ? `--test ${targetOf(path)}` : (modulePath(path) ?? []).join("::")),
  runners: [
    {
      id: "cargo",
      name: "cargo test",
      detect: [{ file: /(^|\/)Cargo\.toml$/ }],
      commands(tests: readonly TestToRun[]) {
        const out: string[] = [];
        for (const [target, ts] of groupBy(tests, (t) => targetOf(t.path) ?? "")) {
          const sel = target ? ` --test ${shellQuote(target)}` : "";
          if (ts.some((t) => t.file))
            out.push(`cargo test${sel}${target ? "" : ` ${shellQuote(ts.find((t) => t.file)!.id)}`}`.trimEnd());
          const named = ts.filter((t) => !t.file);
          if (named.length === 1) out.push(`cargo test${sel} -- --exact ${shellQuote(named[0]!.id)}`);
          else if (named.length)
            out.push(`cargo test${sel} -- --exact ${[...new Set(named.map((t) => shellQuote(t.id)))].join(" ")}`);
        }
        return out;
      },
    },
  ],
};
