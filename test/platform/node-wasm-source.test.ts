/**
 * NodeWasmSource's hint for short runs: when a short-lived process (the CLI) will parse only a
 * handful of files, and before it compiled any wasm, V8's optimizing wasm compiler is left out
 * (see BASELINE_ONLY_MAX_PARSES). The decision is tested here; V8's flag itself is process-wide,
 * so these tests never set it.
 */
import { describe, expect, it } from "vitest";
import { BASELINE_ONLY_MAX_PARSES, baselineOnly } from "../../src/platform/node/node-wasm-source.ts";

describe("NodeWasmSource: baseline-only wasm compiles for short runs", () => {
  it("a short-lived process parsing a few files, before any wasm was compiled, compiles baseline only", () => {
    expect(baselineOnly(true, 1, false)).toBe(true);
    expect(baselineOnly(true, 0, false)).toBe(true);
    expect(baselineOnly(true, BASELINE_ONLY_MAX_PARSES, false)).toBe(true);
  });

  it("more files than the limit keep the optimizing compiler: a bulk parse runs faster with it", () => {
    expect(baselineOnly(true, BASELINE_ONLY_MAX_PARSES + 1, false)).toBe(false);
    expect(baselineOnly(true, 941, false)).toBe(false);
  });

  it("a long-running host keeps it whatever the count: its later runs may parse many files", () => {
    expect(baselineOnly(false, 1, false)).toBe(false);
  });

  it("once the process compiled wasm, the flag is left alone", () => {
    expect(baselineOnly(true, 1, true)).toBe(false);
  });
});
