/**
 * Rust's unit tests live in the product file they test, in `#[cfg(test)] mod tests { … }`, which only a test build
 * compiles (ripgrep, new-user tour of branch quality8). Its functions are test code as a Python or TypeScript test
 * file's are: the tests and their helpers are no production callers, the tests count among the project's tests, and
 * search ranks them as it ranks a test file's. Also: a `///` doc comment is kept one line per line (each line came
 * out double-spaced).
 */
import { describe, expect, it } from "vitest";
import { memoryEngine } from "../support/platform.ts";

const PROJECT = `
//- Cargo.toml
[package]
name = "flags"
version = "1.0.0"
//- src/lib.rs
/// Parse the flags.
///
/// Second paragraph
/// more.
pub fn parse() -> u32 {
    helper()
}

fn helper() -> u32 {
    1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup_helper() -> u32 {
        helper()
    }

    #[test]
    fn parses() {
        assert_eq!(parse(), setup_helper());
    }
}
`;

describe("Rust: #[cfg(test)] modules are test code", () => {
  it("a test module's helper is a caller in tests, not in production", async () => {
    const { engine } = memoryEngine(PROJECT);
    const page = await engine.callers("src/lib.rs#helper", { tests: "exclude" });
    expect(page.results.map((r) => r.qualified)).toEqual(["src/lib.rs#parse"]);
    expect(page.testCode.results).toBe(1);
  });

  it("a test module's tests count among the project's tests and reach what they call", async () => {
    const { engine } = memoryEngine(PROJECT);
    const answer = await engine.impact("src/lib.rs#helper");
    expect(answer.risk.productionCallers).toBe(1);
    expect(answer.risk.reach.testsTotal).toBe(1);
    expect(answer.risk.reach.tests).toBe(1);
  });

  it("keeps a /// doc comment one line per line", async () => {
    const { engine } = memoryEngine(PROJECT);
    const graph = await engine.codeGraph();
    const parse = graph.records.get("src/lib.rs")!.definitions.find((d) => d.name === "parse")!;
    expect(parse.doc).toBe("Parse the flags.\n\nSecond paragraph\nmore.");
  });
});
