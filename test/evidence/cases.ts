/**
 * The tests-of-a-symbol cases: a multi-file project (manifests included), a target, the tests the
 * answer must list — runnable ids in each runner's own syntax and how each reaches the target —
 * and the command lines that run them. tests.test.ts checks the answers; runners.test.ts runs the
 * commands with the real runners where the machine has them.
 */

export interface Case {
  name: string;
  fixture: string;
  target: string;
  /** Expected tests, in answer order: `id [evidence]`, with ` (group)`, ` (file)` or ` (parametrized)` when so. */
  tests: string[];
  commands: string[];
  /** The file that named the runner ("" when assumed). */
  detectedBy?: string;
  depth?: number;
  /**
   * What running the commands with the real runner must print (runners.test.ts, where the machine
   * has it): the command as given, with `flags` after the runner's own words.
   */
  run?: { tool: string; flags?: string; expect: RegExp[]; reject?: RegExp[] };
}

export const CASES: Case[] = [
  {
    name: "pytest: functions, classes, parametrize, a helper two hops away, unittest classes",
    fixture: `
      //- pyproject.toml
      [tool.pytest.ini_options]
      addopts = "-q"
      //- shop/__init__.py
      //- shop/models.py
      def format_greeting(name):
          return "Hello " + name


      def register(name):
          return format_greeting(name)
      //- tests/__init__.py
      //- tests/helpers.py
      from shop.models import register


      def make_user():
          return register("ann")
      //- tests/test_models.py
      import unittest
      import pytest
      from shop.models import format_greeting
      from tests.helpers import make_user


      class TestGreeting:
          @pytest.mark.parametrize("name", ["a", "b"])
          def test_format(self, name):
              assert format_greeting(name)

          class TestNested:
              def test_inner(self):
                  assert format_greeting("x")


      class GreetingCase(unittest.TestCase):
          def setUp(self):
              self.greeting = format_greeting("y")

          def test_setup(self):
              assert self.greeting


      def test_plain():
          assert format_greeting("z")


      def test_through_helper():
          assert make_user()
    `,
    target: "format_greeting",
    tests: [
      "tests/test_models.py::TestGreeting::test_format [call] (parametrized)",
      "tests/test_models.py::TestGreeting::TestNested::test_inner [call]",
      "tests/test_models.py::GreetingCase [call] (group)",
      "tests/test_models.py::test_plain [call]",
      "tests/test_models.py::test_through_helper [call]",
    ],
    commands: [
      "pytest tests/test_models.py::TestGreeting::test_format tests/test_models.py::TestGreeting::TestNested::test_inner tests/test_models.py::GreetingCase tests/test_models.py::test_plain tests/test_models.py::test_through_helper",
    ],
    detectedBy: "pyproject.toml",
    depth: 3,
    // test_format runs twice (parametrized); GreetingCase is one test; the others once each.
    run: { tool: "pytest", flags: "-p no:cacheprovider", expect: [/\b6 passed\b/] },
  },
  {
    name: "vitest: nested describe titles joined by spaces, a describe-level setup, a computed title",
    fixture: `
      //- package.json
      { "devDependencies": { "vitest": "^4.0.0" } }
      //- src/app.ts
      export class App {
        request(path: string) {
          return path;
        }
      }
      //- src/app.test.ts
      import { describe, it, expect } from "vitest";
      import { App } from "./app";

      describe("App", () => {
        describe("request (GET)", () => {
          it("returns the path", () => {
            expect(new App().request("/a")).toBe("/a");
          });
          it.skip("keeps 'quotes'", () => {
            new App().request("/b");
          });
        });
        it(\`runs case \${1}\`, () => {
          new App().request("/c");
        });
      });
    `,
    target: "App.request",
    tests: [
      "App [call] (group)",
      "App request (GET) returns the path [call]",
      "App request (GET) keeps 'quotes' [call]",
    ],
    commands: [
      `npx vitest run src/app.test.ts -t '^(App |App request \\(GET\\) returns the path$|App request \\(GET\\) keeps '\\''quotes'\\''$)'`,
    ],
    detectedBy: "package.json",
    run: { tool: "vitest", expect: [/Tests\s+2 passed \| 1 skipped \(3\)/] },
  },
  {
    name: "jest, found by its config; a test file that imports the file and names the function without a resolved call",
    fixture: `
      //- jest.config.js
      module.exports = {};
      //- lib/sum.js
      function sum(a, b) {
        return a + b;
      }
      module.exports = { sum };
      //- lib/sum.spec.js
      const lib = require("./sum");

      test("adds", () => {
        expect(lib["sum"](1, 2)).toBe(3);
      });
    `,
    target: "sum",
    tests: ["adds [mention]"],
    commands: ["npx jest lib/sum.spec.js -t '^(adds$)'"],
    detectedBy: "jest.config.js",
  },
  {
    name: "go test: Test functions in _test.go files that call it",
    fixture: `
      //- go.mod
      module example.com/calc
      //- calc/calc.go
      package calc

      func Add(a, b int) int { return a + b }
      //- calc/calc_test.go
      package calc

      import "testing"

      func TestAdd(t *testing.T) {
      \tif Add(1, 2) != 3 {
      \t\tt.Fatal("wrong")
      \t}
      }

      func TestOther(t *testing.T) {}

      func helperAdd() int { return Add(2, 2) }
    `,
    target: "Add",
    tests: ["TestAdd [call]"],
    commands: ["go test -run '^(TestAdd)$' ./calc"],
    detectedBy: "go.mod",
    run: { tool: "go", flags: "-v", expect: [/--- PASS: TestAdd/], reject: [/TestOther/] },
  },
  {
    name: "cargo: a unit test in the module's own tests mod, and an integration test target",
    fixture: `
      //- Cargo.toml
      [package]
      name = "calc"
      //- src/lib.rs
      pub mod parser;
      //- src/parser/mod.rs
      pub fn parse(s: &str) -> usize { s.len() }

      #[cfg(test)]
      mod tests {
          use super::*;

          #[test]
          fn parses_empty() {
              assert_eq!(parse(""), 0);
          }
      }
      //- tests/api.rs
      #[test]
      fn api_parses() {
          assert_eq!(calc::parser::parse("a"), 1);
      }
    `,
    target: "parse",
    tests: ["parser::tests::parses_empty [call]", "api_parses [call]"],
    commands: ["cargo test -- --exact parser::tests::parses_empty", "cargo test --test api -- --exact api_parses"],
    detectedBy: "Cargo.toml",
    run: {
      tool: "cargo",
      flags: "--offline",
      expect: [/test parser::tests::parses_empty \.\.\. ok/, /test api_parses \.\.\. ok/],
    },
  },
  {
    name: "JUnit under Maven: Class#method, parametrized tests, nested classes",
    fixture: `
      //- pom.xml
      <project></project>
      //- src/main/java/com/x/Calc.java
      package com.x;

      public class Calc {
          public static int add(int a, int b) { return a + b; }
      }
      //- src/test/java/com/x/CalcTest.java
      package com.x;

      import org.junit.jupiter.api.Nested;
      import org.junit.jupiter.api.Test;
      import org.junit.jupiter.params.ParameterizedTest;

      class CalcTest {
          @Test
          void addsNumbers() {
              assertEquals(3, Calc.add(1, 2));
          }

          @ParameterizedTest
          void addsMany(int x) {
              Calc.add(x, 1);
          }

          @Nested
          class Negative {
              @Test
              void addsNegatives() {
                  Calc.add(-1, -2);
              }
          }
      }
    `,
    target: "Calc.add",
    tests: [
      "CalcTest#addsNumbers [call]",
      "CalcTest#addsMany [call] (parametrized)",
      "CalcTest$Negative#addsNegatives [call]",
    ],
    commands: ["mvn test -Dtest='CalcTest#addsNumbers+addsMany,CalcTest$Negative#addsNegatives'"],
    detectedBy: "pom.xml",
  },
  {
    name: "JUnit under the Gradle wrapper",
    fixture: `
      //- gradlew
      #!/bin/sh
      //- build.gradle
      plugins { id 'java' }
      //- src/main/java/Calc.java
      public class Calc {
          public int twice(int a) { return a * 2; }
      }
      //- src/test/java/CalcTests.java
      class CalcTests {
          @Test
          void doubles() {
              new Calc().twice(2);
          }
      }
    `,
    target: "Calc.twice",
    tests: ["CalcTests#doubles [call]"],
    commands: ["./gradlew test --tests CalcTests.doubles"],
    detectedBy: "gradlew",
  },
  {
    name: "Kotlin tests under the Gradle wrapper: Class.method, nested classes",
    fixture: `
      //- gradlew
      #!/bin/sh
      //- build.gradle.kts
      plugins { kotlin("jvm") }
      //- src/main/kotlin/com/x/Calc.kt
      package com.x

      class Calc {
          fun twice(a: Int): Int = a * 2
      }
      //- src/test/kotlin/com/x/CalcTest.kt
      package com.x

      import kotlin.test.Test

      class CalcTest {
          @Test
          fun doubles() {
              Calc().twice(2)
          }

          @Nested
          inner class Negative {
              @Test
              fun doublesNegatives() {
                  Calc().twice(-2)
              }
          }
      }
    `,
    target: "Calc.twice",
    tests: ["CalcTest.doubles [call]", "CalcTest$Negative.doublesNegatives [call]"],
    commands: ["./gradlew test --tests CalcTest.doubles --tests 'CalcTest$Negative.doublesNegatives'"],
    detectedBy: "gradlew",
  },
  {
    name: "a monorepo package with its own runner runs in its own folder; a file target",
    fixture: `
      //- packages/web/package.json
      { "scripts": { "test": "vitest run" } }
      //- packages/web/src/format.ts
      export function formatPrice(cents: number): string {
        return (cents / 100).toFixed(2);
      }
      //- packages/web/src/format.test.ts
      import { expect, test } from "vitest";
      import { formatPrice } from "./format";

      test("formats cents", () => {
        expect(formatPrice(1250)).toBe("12.50");
      });
    `,
    target: "packages/web/src/format.ts",
    tests: ["formats cents [call]"],
    commands: ["npx vitest run src/format.test.ts -t '^(formats cents$)'"],
    detectedBy: "packages/web/package.json",
    run: { tool: "vitest", expect: [/Tests\s+1 passed \(1\)/] },
  },
];
