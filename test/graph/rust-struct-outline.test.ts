/**
 * A Rust struct's outline lists its fields as Rust writes them, separated by commas: ripgrep's `signature
 * WalkBuilder` printed `paths: Vec<PathBuf>;`, a line no Rust compiler accepts, which an agent may copy.
 */
import { describe, expect, it } from "vitest";
import { memoryEngine } from "../support/platform.ts";

const FILES = {
  "Cargo.toml": '[package]\nname = "walk"\nversion = "0.1.0"\n',
  "src/lib.rs": `/// Builds a recursive directory walk.
pub struct WalkBuilder {
    paths: Vec<String>,
    max_depth: Option<usize>,
    follow_links: bool,
}

impl WalkBuilder {
    pub fn new() -> WalkBuilder {
        WalkBuilder { paths: vec![], max_depth: None, follow_links: false }
    }
}
`,
};

describe("Rust struct outline", () => {
  it("ends each field line with a comma", async () => {
    const { engine } = memoryEngine(FILES);
    const lines = (await engine.signature("src/lib.rs#WalkBuilder")).text.split("\n").map((l) => l.trim());
    expect(lines).toEqual(
      expect.arrayContaining(["paths: Vec<String>,", "max_depth: Option<usize>,", "follow_links: bool,"]),
    );
    expect(lines.filter((l) => /;$/.test(l))).toEqual([]);
  });
});
