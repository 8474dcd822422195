/**
 * A Rust binary whose root a Cargo.toml places by path (`[[bin]] path = "crates/core/main.rs"`, ripgrep's layout):
 * its `mod` files are modules of that crate, so `flags::parse()` in main.rs is a call of crates/core/flags/mod.rs's
 * `parse`. Before, nothing outside src/, tests/, examples/ and benches/ belonged to a crate, and every call of
 * ripgrep's own binary modules was "a call into a package" (`callees main`: flags.parse, messages.errored).
 * A line marked `// calls: A` must have edges to exactly those callees.
 */
import { describe, expect, it } from "vitest";
import { markedCalls } from "../support/marked-calls.ts";

const PROJECT = `
//- Cargo.toml
[package]
name = "ripgrep"
version = "1.0.0"

[[bin]]
bench = false
path = "crates/core/main.rs"
name = "rg"
//- crates/core/main.rs
mod flags;
mod messages;

fn main() {
    let args = flags::parse(); // calls: crates/core/flags/mod.rs#parse
    messages::errored(args); // calls: crates/core/messages.rs#errored
}
//- crates/core/flags/mod.rs
mod hiargs;

pub fn parse() -> u8 {
    hiargs::build() // calls: crates/core/flags/hiargs.rs#build
}
//- crates/core/flags/hiargs.rs
pub fn build() -> u8 {
    1
}
//- crates/core/messages.rs
pub fn errored(code: u8) -> bool {
    code > 0
}
`;

describe("Rust crate roots placed by a Cargo.toml path", () => {
  it("resolves the binary's own modules from a [[bin]] path outside src/", async () => {
    const { want, got } = await markedCalls(PROJECT, "//");
    expect(got).toEqual(want);
  });
});
