/**
 * JUnit's conventions (4 and 5): tests are methods annotated `@Test` (or `@ParameterizedTest`,
 * `@RepeatedTest`, `@TestFactory`, `@TestTemplate`) in a class; a test is `Class#method`, nested
 * classes `Outer$Inner`, as Maven Surefire's `-Dtest` reads them (Gradle's `--tests` takes
 * `Class.method`).
 */
import type { TestConventions, TestToRun } from "../types.ts";
import { groupBy, shellQuote } from "../testing.ts";
import { junitTestAt } from "../jvm.ts";

const TEST_FILE = /(^|\/)src\/test\/|Tests?\.java$|IT\.java$/;

/** Surefire's `-Dtest`: `A#m1+m2,B`. */
function surefire(tests: readonly TestToRun[]): string {
  return [...groupBy(tests, (t) => t.id.split("#")[0]!)]
    .map(([cls, ts]) =>
      ts.some((t) => t.file || t.group) ? cls : `${cls}#${[...new Set(ts.map((t) => t.id.split("#")[1]))].join("+")}`,
    )
    .join(",");
}

/** Gradle's `--tests`, one per test: `A.m`, or `A` for a whole class. */
function gradle(tests: readonly TestToRun[]): string {
  return [...new Set(tests.map((t) => (t.file || t.group ? t.id.split("#")[0]! : t.id.replace("#", "."))))]
    .map((f) => `--tests ${shellQuote(f)}`)
    .join(" ");
}

export const javaTests: TestConventions = {
  file: /(^|\/)src\/test\/|(^|\/)(Test[^/]*|[^/]*(Test|Tests|IT|TestCase))\.java$/,
  testAt: (site) => junitTestAt(site, "#", TEST_FILE),
  fileId: (path, topLevel) =>
    topLevel.find((s) => s.kind === "class")?.name ?? path.slice(path.lastIndexOf("/") + 1).replace(/\.java$/, ""),
  runners: [
    {
      id: "maven-wrapper",
      name: "Maven (wrapper)",
      detect: [{ file: /(^|\/)mvnw$/ }],
      commands: (tests) => [`./mvnw test -Dtest=${shellQuote(surefire(tests))}`],
    },
    {
      id: "maven",
      name: "Maven",
      detect: [{ file: /(^|\/)pom\.xml$/ }],
      commands: (tests) => [`mvn test -Dtest=${shellQuote(surefire(tests))}`],
    },
    {
      id: "gradle-wrapper",
      name: "Gradle (wrapper)",
      detect: [{ file: /(^|\/)gradlew$/ }],
      commands: (tests) => [`./gradlew test ${gradle(tests)}`],
    },
    {
      id: "gradle",
      name: "Gradle",
      detect: [{ file: /(^|\/)(build|settings)\.gradle(\.kts)?$/ }],
      commands: (tests) => [`gradle test ${gradle(tests)}`],
    },
  ],
};
