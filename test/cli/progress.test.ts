/**
 * The CLI's progress bar, driven with a stand-in stream and clock: nothing in the first second,
 * nothing off a terminal or with --quiet, one line rewritten in place with files/s while parsing.
 */
import { describe, expect, it } from "vitest";
import { createProgressReporter, progressLine } from "../../src/cli/output.ts";

function run(o: {
  tty: boolean;
  enabled?: boolean;
  steps: [ms: number, phase: string, done: number, total?: number][];
}): string {
  let clock = 0;
  let out = "";
  const p = createProgressReporter(
    o.enabled ?? true,
    { isTTY: o.tty, columns: 80, write: (t: string) => (out += t) },
    () => clock,
  );
  for (const [ms, phase, done, total] of o.steps) {
    clock = ms;
    p.update(phase, done, total);
  }
  p.done();
  return out;
}

const SLOW: [number, string, number, number?][] = [
  [0, "scan", 10],
  [500, "scan", 900],
  [1200, "parse", 0, 1000],
  [2200, "parse", 400, 1000],
  [2250, "parse", 420, 1000],
  [3200, "parse", 1000, 1000],
  [3400, "graph", 0],
];

describe("progress bar", () => {
  it("draws one rewritten line on a terminal after a second, with files/s, and clears it at the end", () => {
    const out = run({ tty: true, steps: SLOW });
    const frames = out.split("\r\x1b[K").filter(Boolean);
    // 2250 ms is within the redraw interval of the frame before it.
    expect(frames).toEqual([
      "parse [------------------------------]  0/1,000 files  0%",
      "parse [############------------------]  400/1,000 files  40%  400 files/s",
      "parse [##############################]  1,000/1,000 files  100%  500 files/s",
      "building the code graph…",
    ]);
    expect(out.endsWith("\r\x1b[K")).toBe(true);
  });

  it("stays silent in the first second, off a terminal, and with --quiet", () => {
    expect(
      run({
        tty: true,
        steps: [
          [0, "scan", 1],
          [900, "parse", 5, 10],
        ],
      }),
    ).toBe("");
    expect(run({ tty: false, steps: SLOW })).toBe("");
    expect(run({ tty: true, enabled: false, steps: SLOW })).toBe("");
  });

  it("fits narrow terminals", () => {
    expect(progressLine("parse", 5, 10, 12.4, 40).length).toBeLessThan(40);
    expect(progressLine("scan", 1234, undefined, 0, 80)).toBe("scanning: 1,234 files found");
  });
});
