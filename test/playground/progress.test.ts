/**
 * The playground's progress bar text (issue 28): never "0 found" while listing, never a full bar
 * while the index is still being linked and saved.
 */
import { describe, expect, it } from "vitest";
import { progressView } from "../../playground/src/progress.ts";

describe("progressView", () => {
  it("says it is listing, without a count, before any file is found", () => {
    expect(progressView({ phase: "scan", done: 0 })).toEqual({ text: "Listing files…" });
    expect(progressView({ phase: "scan", done: 1200 }).text).toBe("Listing files… 1,200 found");
  });

  it("shows a determinate bar only while the parse is under way", () => {
    expect(progressView({ phase: "parse", done: 400, total: 16000 })).toEqual({
      text: "Indexing 400 of 16,000 source files…",
      value: 400,
      max: 16000,
    });
    const done = progressView({ phase: "parse", done: 16000, total: 16000 });
    expect(done.value).toBeUndefined();
    expect(done.text).not.toMatch(/16,000 of 16,000/);
    expect(done.text).toMatch(/linking/);
  });

  it("keeps unpack and save counts", () => {
    expect(progressView({ phase: "unpack", done: 5, total: 10 })).toEqual({
      text: "Unpacking 5 of 10 files…",
      value: 5,
      max: 10,
    });
    expect(progressView({ phase: "save", done: 10, total: 10 }).value).toBeUndefined();
  });
});
