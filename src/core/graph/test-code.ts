/**
 * Test code, language-blind: which sites are in tests and which test each is, through the test
 * conventions each language declares beside itself (`LanguageSpec.tests`). The core knows no
 * runner: it builds a `TestSite` from a file's record and asks the language.
 */
import { languageById } from "../../languages/index.ts";
import type { TestCase, TestConventions, TestScope, TestSite } from "../../languages/types.ts";
import type { FileRecord } from "../extract/record.ts";
import type { CodeGraph } from "./model.ts";

const TEST_FILE =
  /(^|\/)(tests?|__tests__|spec|specs|testing)\/|(^|\/)test_[^/]*$|_test\.[a-z]+$|\.(test|spec)\.[a-z]+$/;

/** True for files that look like tests by the generic pattern (witnesses rather than callers). */
export function isTestFile(path: string): boolean {
  return TEST_FILE.test(path);
}

/** A language's test conventions, if it declares any. */
export function conventionsOf(language: string): TestConventions | undefined {
  return languageById(language)?.tests;
}

/** A folder of third-party code kept in the tree (a vendored copy, an installed package). */
export const VENDORED_PATH = /(^|\/)(vendor|vendored|_vendor|third[-_]party|node_modules|bower_components)\//i;

/** True for a file that holds tests by its language's pattern (else by the generic one). */
export function isTestPath(path: string, language: string | undefined): boolean {
  const file = language ? conventionsOf(language)?.file : undefined;
  return file ? file.test(path) || isTestFile(path) : isTestFile(path);
}

/**
 * True for a file its language's runner collects tests from (a pytest `test_*.py`, a Vitest
 * `*.test.ts`), stricter than `isTestPath`: a helper module under tests/ is test code, not a test file.
 */
export function holdsTests(path: string, language: string | undefined): boolean {
  const file = language ? conventionsOf(language)?.file : undefined;
  return file ? file.test(path) : isTestFile(path);
}

/** The definitions of `record` enclosing `line` (innermost by `index` when given), outermost first. */
export function scopeAt(record: FileRecord, line: number, index?: number): TestScope[] {
  const defs = record.definitions;
  let i = index ?? -1;
  if (index === undefined) {
    // Innermost definition whose span holds the line.
    for (let j = 0; j < defs.length; j++)
      if (defs[j]!.start <= line && defs[j]!.end >= line && (i < 0 || defs[j]!.start >= defs[i]!.start)) i = j;
  }
  const chain: TestScope[] = [];
  for (; i >= 0; i = defs[i]!.parent) {
    const d = defs[i]!;
    chain.push({
      name: d.name,
      kind: d.kind,
      start: d.start,
      end: d.end,
      ...(d.decorators ? { decorators: d.decorators } : {}),
      ...(d.bases ? { bases: d.bases } : {}),
    });
  }
  return chain.reverse();
}

/** The TestSite of a line of `record`, inside the definition `index` (-1: module level) when known. */
export function siteOf(record: FileRecord, line: number, index?: number): TestSite {
  return { path: record.path, scope: index === -1 ? [] : scopeAt(record, line, index), line, calls: record.calls };
}

/** The test at a line of a file (inside definition `index` when known), per its language. */
export function testAt(graph: CodeGraph, path: string, line: number, index?: number): TestCase | undefined {
  const record = graph.records.get(path);
  if (!record) return undefined;
  const conv = conventionsOf(record.language);
  return conv?.testAt(siteOf(record, line, index));
}

/** True when a call site (in `path` at `line`, made by symbol `caller`) is test code. */
export function isTestSite(graph: CodeGraph, path: string, line: number, caller: number): boolean {
  const s = graph.symbols[caller];
  if (isTestPath(path, s?.language)) return true;
  const conv = s ? conventionsOf(s.language) : undefined;
  const record = graph.records.get(path);
  if (!s || !conv || !record) return false;
  const site = siteOf(record, line, s.index);
  return conv.testAt(site) !== undefined || inTestScope(conv, site.scope);
}

/**
 * True when a call site is test code by its file's path or a scope around it its language compiles for tests only
 * (a Rust `#[cfg(test)] mod tests`), stricter than `isTestSite`: a product file's function named like a test is not.
 */
export function inTestCode(graph: CodeGraph, path: string, line: number, caller: number): boolean {
  const s = graph.symbols[caller];
  if (isTestPath(path, s?.language)) return true;
  const conv = s ? conventionsOf(s.language) : undefined;
  const record = graph.records.get(path);
  return !!s && !!conv && !!record && inTestScope(conv, siteOf(record, line, s.index).scope);
}

/** True when one of the scopes around a site holds test code only (a Rust `#[cfg(test)]` module). */
const inTestScope = (conv: TestConventions, scope: readonly TestScope[]): boolean =>
  conv.testScope !== undefined && scope.some((s) => conv.testScope!(s));

/**
 * True for a definition inside a scope its language compiles for tests only (a Rust `#[cfg(test)] mod tests`, the
 * module itself included): test code in a product file, which search ranks as it ranks a test file's.
 */
export function inTestScopeOnly(record: FileRecord, index: number): boolean {
  const conv = conventionsOf(record.language);
  return conv?.testScope !== undefined && index >= 0 && inTestScope(conv, scopeAt(record, 0, index));
}

/** True for a file that holds test code by its path, or some scope its language compiles for tests only. */
function holdsTestCode(record: FileRecord, conv: TestConventions): boolean {
  if (isTestPath(record.path, record.language)) return true;
  return conv.testScope !== undefined && record.definitions.some((d) => conv.testScope!(d));
}

/** The test cases of each test file, memoized per graph (see {@link testCasesOf}). */
const casesByGraph = new WeakMap<CodeGraph, Map<string, Set<string>>>();

/**
 * The test cases of every test file, by its runner's rules (the language's `testAt`): each pytest
 * `test_*` function, each `it(`/`test(` call of a Vitest, Jest or Mocha file, each Go `Test*`
 * function, each JUnit `@Test` method. Read at every definition and every call of the file, so a
 * test is found whether it is a definition or a call; groups (a describe block, a test class) are
 * not cases. Ids, by path.
 */
export function testCasesOf(graph: CodeGraph): Map<string, Set<string>> {
  const known = casesByGraph.get(graph);
  if (known) return known;
  const out = new Map<string, Set<string>>();
  for (const [path, record] of graph.records) {
    const conv = conventionsOf(record.language);
    if (!conv || !holdsTestCode(record, conv)) continue;
    const ids = new Set<string>();
    const add = (line: number, index: number) => {
      const t = conv.testAt(siteOf(record, line, index));
      if (t && !t.group) ids.add(t.id);
    };
    const defs = record.definitions;
    defs.forEach((d, i) => add(d.nameLine, i));
    // Calls in file order against the definitions open at their line (a stack, innermost on top):
    // linear in the file, where asking scopeAt for each call is calls × definitions.
    const open: number[] = [];
    let next = 0;
    for (const c of record.calls) {
      while (next < defs.length && defs[next]!.start <= c.line) open.push(next++);
      for (let k = open.length - 1; k >= 0; k--) if (defs[open[k]!]!.end < c.line) open.splice(k, 1);
      add(c.line, open.length ? open[open.length - 1]! : -1);
    }
    if (ids.size) out.set(path, ids);
  }
  casesByGraph.set(graph, out);
  return out;
}
