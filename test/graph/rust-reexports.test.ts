/**
 * A Rust module that re-exports a function named like one of its submodules (ripgrep's `flags/mod.rs`:
 * `mod parse;` and `pub(crate) use crate::flags::parse::{parse, ParseResult};`): `flags::parse()` calls the function,
 * since a call looks the name up among values, where modules are not (found by the new-user tour, branch quality8;
 * `callees main` listed no `parse`), and not the method of the same name an `impl` in that file declares. A path that is not called (`flags::parse::ParseResult`) still goes through the
 * module. A line marked `// calls: A` must have edges to exactly those callees.
 */
import { describe, expect, it } from "vitest";
import { markedCalls } from "../support/marked-calls.ts";

const PROJECT = `
//- Cargo.toml
[package]
name = "rg"
version = "1.0.0"
//- src/main.rs
mod flags;

fn main() {
    let args = flags::parse(); // calls: src/flags/parse.rs#parse
    let low = flags::parse::parse_low(); // calls: src/flags/parse.rs#parse_low
    let hi = flags::HiArgs::new(args); // calls: src/flags/hiargs.rs#HiArgs.new
}
//- src/flags/mod.rs
pub(crate) use crate::flags::{
    hiargs::HiArgs,
    parse::{parse, ParseResult},
};

mod hiargs;
mod parse;
//- src/flags/parse.rs
pub(crate) struct ParseResult(u8);

pub(crate) fn parse() -> u8 {
    parse_low()
}

pub(crate) fn parse_low() -> u8 {
    1
}

struct Parser;

impl Parser {
    fn parse(&self) -> u8 {
        2
    }
}
//- src/flags/hiargs.rs
pub(crate) struct HiArgs(u8);

impl HiArgs {
    pub(crate) fn new(x: u8) -> HiArgs {
        HiArgs(x)
    }
}
`;

describe("Rust: a re-exported function named like a submodule", () => {
  it("flags::parse() calls the function the module re-exports, not the module parse", async () => {
    const { want, got } = await markedCalls(PROJECT, "//");
    expect(got).toEqual(want);
  });
});
