/**
 * pytest's conventions (its defaults: `test_*.py` / `*_test.py` files, `Test*` classes without an
 * `__init__`, `test*` functions; unittest.TestCase subclasses too): node ids
 * `path::Class::test_name`, which select every parameter set of a parametrized test.
 */
import type { TestCase, TestConventions, TestScope } from "../types.ts";
import { shellQuote } from "../testing.ts";

const FILE = /(^|\/)(test_[^/]*|[^/]*_test)\.py$/;

function isTestClass(s: TestScope): boolean {
  return s.kind === "class" && (/^Test/.test(s.name) || (s.bases ?? []).some((b) => /(^|\.)(\w*TestCase)$/.test(b)));
}

export const pythonTests: TestConventions = {
  file: FILE,
  testAt(site) {
    if (!FILE.test(site.path)) return undefined;
    const names: string[] = [];
    let group: TestScope | undefined;
    for (const s of site.scope) {
      if (s.kind === "class") {
        if (!isTestClass(s)) return undefined;
        names.push(s.name);
        group = s;
        continue;
      }
      // The outermost function: a test when named test*, else a helper (or a fixture, setup method).
      if (/^test/.test(s.name)) {
        const parametrized = (s.decorators ?? []).some((d) => /\.parametrize\(/.test(d));
        const test: TestCase = { id: [site.path, ...names, s.name].join("::"), start: s.start, end: s.end };
        return parametrized ? { ...test, parametrized } : test;
      }
      break;
    }
    // Inside a test class but in no test (setup_method, a helper method): every test of the class.
    return group
      ? { id: [site.path, ...names].join("::"), start: group.start, end: group.end, group: true }
      : undefined;
  },
  runners: [
    {
      id: "pytest",
      name: "pytest",
      detect: [
        { file: /(^|\/)(pytest\.ini|conftest\.py)$/ },
        { file: /(^|\/)pyproject\.toml$/, contains: /\[tool\.pytest|\bpytest\b/ },
        { file: /(^|\/)setup\.cfg$/, contains: /\[tool:pytest\]/ },
        { file: /(^|\/)tox\.ini$/, contains: /\[pytest\]|\bpytest\b/ },
        { file: /(^|\/)(requirements[^/]*\.txt|setup\.py|Pipfile)$/, contains: /\bpytest\b/ },
      ],
      commands: (tests) => [`pytest ${tests.map((t) => shellQuote(t.id)).join(" ")}`],
    },
  ],
};
