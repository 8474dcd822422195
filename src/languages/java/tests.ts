/**
 * JUnit's conventions (4 and 5): tests are methods annotated `@Test` (or `@ParameterizedTest`,
 * `@RepeatedTest`, `@TestFactory`, `@TestTemplate`) in a class; a test is `Class#method`, nested
 * classes `Outer$Inner`, as Maven Surefire's `-Dtest` reads them (Gradle's `--tests` takes
 * `Class.method`).
 */
import type { TestConventions, TestToRun } from "../types.ts";
import { groupBy, shellQuote } from "../testing.ts";

const ANNOTATION = /^@([\w.]+\.)?(Test|ParameterizedTest|RepeatedTest|TestFactory|TestTemplate)\b/;

/** Surefire's `-Dtest`: `A#m1+m2,B`. */
function surefire(tests: readonly TestToRun[]): string {
  return [...groupBy(tests, (t) => t.id.split("#")[0]!)].map(([cls, ts]) => (ts.some((t) => t.file || t.group) ? cls : `${cls}#${[...new Set(ts.map((t) => t.id.split("#")[1]))].join("+")}`)).join(",");
}

/** Gradle's `--tests`, one per test: `A.m`, or `A` for a whole class. */
function gradle(tests: readonly TestToRun[]): string {
  return [...new Set(tests.map((t) => (t.file || t.group ? t.id.split("#")[0]! : t.id.replace("#", "."))))].map((f) => `--tests ${shellQuote(f)}`).join(" ");
}

export const javaTests: TestConventions = {
  file: /(^|\/)src\/test\/|(^|\/)(Test[^/]*|[^/]*(Test|Tests|IT|TestCase))\.java$/,
  testAt(site) {
    const classes: string[] = [];
    for (const s of site.scope) {
      if (s.kind === "class") {
        classes.push(s.name);
        continue;
      }
      if (!classes.length) return undefined;
      if (s.kind === "method" && (s.decorators ?? []).some((d) => ANNOTATION.test(d))) {
        const parametrized = (s.decorators ?? []).some((d) => /^@([\w.]+\.)?ParameterizedTest\b/.test(d));
        return { id: `${classes.join("$")}#${s.name}`, start: s.start, end: s.end, ...(parametrized ? { parametrized } : {}) };
      }
      break;
    }
    // In a test file, inside a class but in no test (a @BeforeEach, a helper): every test of the class.
    const outer = site.scope[0];
    return classes.length && outer && /(^|\/)src\/test\/|Tests?\.java$|IT\.java$/.test(site.path) ? { id: classes.join("$"), start: outer.start, end: outer.end, group: true } : undefined;
  },
  fileId: (path, topLevel) => topLevel.find((s) => s.kind === "class")?.name ?? path.slice(path.lastIndexOf("/") + 1).replace(/\.java$/, ""),
  runners: [
    { id: "maven-wrapper", name: "Maven (wrapper)", detect: [{ file: /(^|\/)mvnw$/ }], commands: (tests) => [`./mvnw test -Dtest=${shellQuote(surefire(tests))}`] },
    { id: "maven", name: "Maven", detect: [{ file: /(^|\/)pom\.xml$/ }], commands: (tests) => [`mvn test -Dtest=${shellQuote(surefire(tests))}`] },
    { id: "gradle-wrapper", name: "Gradle (wrapper)", detect: [{ file: /(^|\/)gradlew$/ }], commands: (tests) => [`./gradlew test ${gradle(tests)}`] },
    { id: "gradle", name: "Gradle", detect: [{ file: /(^|\/)(build|settings)\.gradle(\.kts)?$/ }], commands: (tests) => [`gradle test ${gradle(tests)}`] },
  ],
};
