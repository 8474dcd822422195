/**
 * Kotlin tests: JUnit 4/5 and kotlin.test, methods annotated `@Test` (or `@ParameterizedTest`,
 * `@RepeatedTest`, `@TestFactory`) in a class under `src/test/` or named `*Test.kt`; a test is
 * `Class.method` as Gradle's `--tests` reads it (the build tool of nearly every Kotlin project).
 */
import type { TestConventions, TestToRun } from "../types.ts";
import { shellQuote } from "../testing.ts";
import { junitTestAt } from "../jvm.ts";

const TEST_FILE = /(^|\/)src\/(test|\w*Test)\/|(^|\/)[^/]*(Test|Tests|IT)\.kts?$/;

/** Gradle's `--tests`, one per test: `A.m`, or `A` for a whole class. */
const gradle = (tests: readonly TestToRun[]) =>
  [...new Set(tests.map((t) => (t.file || t.group ? t.id.split(".")[0]! : t.id)))]
    .map((f) => `--tests ${shellQuote(f)}`)
    .join(" ");

export const kotlinTests: TestConventions = {
  file: TEST_FILE,
  testAt: (site) => junitTestAt(site, ".", TEST_FILE),
  fileId: (path, topLevel) =>
    topLevel.find((s) => s.kind === "class")?.name ?? path.slice(path.lastIndexOf("/") + 1).replace(/\.kts?$/, ""),
  runners: [
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
    {
      id: "maven",
      name: "Maven",
      detect: [{ file: /(^|\/)pom\.xml$/ }],
      commands: (tests) => [`mvn test -Dtest=${shellQuote(tests.map((t) => t.id.replace(".", "#")).join(","))}`],
    },
  ],
};
