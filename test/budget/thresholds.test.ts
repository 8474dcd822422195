/**
 * Entry budgets (budget/thresholds.ts), checked against brute force on random step lists: at every
 * budget the steps taken fit, what a budget takes every larger one takes, and no step enters later
 * than it had to.
 */
import { describe, expect, it } from "vitest";
import { entryBudgets, type Step } from "../../src/core/budget/thresholds.ts";
import { mulberry32 } from "../support/rng.ts";

const rng = mulberry32;

/** Tokens the steps entered by `budget` take there (a freed step costs nothing). */
function used(steps: readonly Step[], at: readonly number[], budget: number): number {
  let sum = 0;
  steps.forEach((s, k) => {
    if (at[k]! > budget) return;
    if ((s.freedBy ?? []).some((f) => f < k && at[f]! <= budget)) return;
    sum += s.cost;
  });
  return sum;
}

/** Random steps: blocks appearing, then growing (after), some inside an earlier block's full step (freedBy). */
function randomSteps(rand: () => number): Step[] {
  const steps: Step[] = [];
  const n = 2 + Math.floor(rand() * 14);
  for (let k = 0; k < n; k++) {
    const cost = 1 + Math.floor(rand() * 120);
    const step: Step = { cost, from: rand() < 0.5 ? 0 : Math.ceil(cost / (0.2 + rand() * 0.6)) };
    if (k > 0 && rand() < 0.3) step.after = Math.floor(rand() * k);
    if (k > 0 && rand() < 0.2) step.freedBy = [Math.floor(rand() * k)];
    steps.push(step);
  }
  return steps;
}

describe("entry budgets", () => {
  it("fit at every budget, only ever add, and are the earliest that do (500 random step lists)", () => {
    const rand = rng(21);
    const failures: string[] = [];
    for (let run = 0; run < 500; run++) {
      const steps = randomSteps(rand);
      const fixed = Math.floor(rand() * 50);
      const at = entryBudgets(steps, fixed);
      const top = fixed + steps.reduce((a, s) => a + s.cost, 0) + 400;
      for (let b = 0; b <= top; b++)
        if (fixed + used(steps, at, b) > Math.max(b, fixed)) failures.push(`run ${run}: over at ${b}`);
      steps.forEach((s, k) => {
        if (s.after !== undefined && at[k]! < at[s.after]!)
          failures.push(`run ${run}: step ${k} before the step it grows`);
        if (at[k] === Infinity || at[k]! <= s.from || at[k]! <= fixed + s.cost) return;
        // One budget earlier, some budget from there on would be over (given the steps before it).
        const earlier = [...at.slice(0, k), at[k]! - 1];
        const before = steps.slice(0, k + 1);
        // The room grows between entries: only the entry points can be short of it.
        const points = [at[k]! - 1, ...earlier.filter((t) => t !== Infinity && t >= at[k]! - 1)];
        const tooMuch = points.some((b) => fixed + used(before, earlier, b) > b);
        const afterBlocked = s.after !== undefined && at[s.after]! > at[k]! - 1;
        if (!tooMuch && !afterBlocked)
          failures.push(`run ${run}: step ${k} entered at ${at[k]}, could have at ${at[k]! - 1}`);
      });
    }
    expect(failures).toEqual([]);
  });

  it("a later step waits where an earlier one grows: it never pushes the earlier one out", () => {
    // A seed (100), then a big neighbour (900, at most a third of the budget: from 2,700), then a small one (50).
    const at = entryBudgets(
      [
        { cost: 100, from: 0 },
        { cost: 900, from: 2700 },
        { cost: 50, from: 0 },
      ],
      20,
    );
    expect(at).toEqual([120, 2700, 170]);
    // Without the share rule the big one enters as soon as it fits, and the small one after it.
    expect(
      entryBudgets(
        [
          { cost: 100, from: 0 },
          { cost: 900, from: 0 },
          { cost: 50, from: 0 },
        ],
        20,
      ),
    ).toEqual([120, 1020, 1070]);
  });
});
