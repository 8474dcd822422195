/**
 * What Java and Kotlin share: JUnit's test methods and Spring's route annotations, read the same
 * way in both.
 */
import type { AllowedRunner, RouteRules, TestCase, TestSite } from "./types.ts";

/** JUnit 4/5 (and kotlin.test) annotations that make a method a test. */
const TEST_ANNOTATION = /^@([\w.]+\.)?(Test|ParameterizedTest|RepeatedTest|TestFactory|TestTemplate)\b/;
const PARAMETRIZED = /^@([\w.]+\.)?ParameterizedTest\b/;

/**
 * The JUnit test at a call site: an annotated method in a class is `Outer$Inner<sep>method`; in a
 * test file (`testFile`), code in a class but in no test (a `@BeforeEach`, a helper) stands for
 * every test of the class.
 */
export function junitTestAt(site: TestSite, separator: string, testFile: RegExp): TestCase | undefined {
  const classes: string[] = [];
  for (const s of site.scope) {
    if (s.kind === "class") {
      classes.push(s.name);
      continue;
    }
    if (!classes.length) return undefined;
    if ((s.kind === "method" || s.kind === "function") && (s.decorators ?? []).some((d) => TEST_ANNOTATION.test(d))) {
      const parametrized = (s.decorators ?? []).some((d) => PARAMETRIZED.test(d));
      return {
        id: `${classes.join("$")}${separator}${s.name}`,
        start: s.start,
        end: s.end,
        ...(parametrized ? { parametrized } : {}),
      };
    }
    break;
  }
  const outer = site.scope[0];
  return classes.length && outer && testFile.test(site.path)
    ? { id: classes.join("$"), start: outer.start, end: outer.end, group: true }
    : undefined;
}

/**
 * Spring: `@GetMapping("/x")`, `@RequestMapping(value = "/x", method = …)` under a class-level
 * `@RequestMapping("/api")`; an array of paths is `{…}` in Java and `[…]` in Kotlin.
 */
export const SPRING_ROUTES: RouteRules = {
  classPrefix: [/^@RequestMapping(?:\(\s*(?:(?:value|path)\s*=\s*)?[[{]?\s*"(?<path>[^"]*)"[^)]*\))?/],
  memberDecorators: [
    new RegExp(
      String.raw`^@(?<verb>Get|Post|Put|Patch|Delete|Request)Mapping(?:\(\s*(?:(?:value|` +
        String.raw`path)\s*=\s*)?[[{]?\s*"(?<path>[^"]*)"[^)]*\))?`,
    ),
  ],
};

/** Maven's and Gradle's test command, which `runTests` may start for Java and Kotlin. */
export const MAVEN_GRADLE_TEST: AllowedRunner = {
  name: "mvn/gradle test",
  matches: (a) => /^(mvn|\.\/mvnw|gradle|\.\/gradlew)$/.test(a[0] ?? "") && a[1] === "test",
};
