/**
 * Entry budgets for answers that only ever add. An answer grows by steps taken in rank order (a
 * block appears, a block's outline becomes its full text); each step gets the smallest budget from
 * which it is taken at *every* larger budget, given the steps before it. At budget B the answer
 * holds exactly the steps whose entry budget is ≤ B, so what a budget shows, every larger budget
 * shows too, and no step ever pushes out an earlier one: a later step enters only where it still
 * fits once every earlier step that a larger budget takes has entered.
 */

/** One way an answer grows: a block appears, or a shown block takes a larger form. */
export interface Step {
  /** Tokens it adds (its form's cost minus the form it replaces). */
  cost: number;
  /** The smallest budget it may enter at (a share rule: cost / share), 0 for none. */
  from: number;
  /** An earlier step it builds on (the form it replaces): it never enters before that one. */
  after?: number;
  /** Earlier steps that make it free (a container shown whole holds it): from the first of them on it costs nothing. */
  freedBy?: readonly number[];
}

/**
 * The entry budget of each step (Infinity: never), for an answer whose fixed part (header, footer,
 * room kept for the cut list) costs `fixed`. Between entries the room left grows with the budget,
 * so a step fits at every budget from T on exactly when it fits at T and right after each later
 * entry of an earlier step: the check runs over those points only. Quadratic in the steps (an
 * answer has a few hundred at most).
 */
export function entryBudgets(steps: readonly Step[], fixed: number): number[] {
  const at: number[] = [];
  /** Cost changes at budgets: each taken step adds its cost at its entry and gives it back when freed. */
  const events: { at: number; delta: number }[] = [];
  for (let k = 0; k < steps.length; k++) {
    const s = steps[k]!;
    const lower = Math.max(s.from, s.after !== undefined ? at[s.after]! : 0, fixed + s.cost);
    let end = Infinity;
    for (const f of s.freedBy ?? []) if (f < k) end = Math.min(end, at[f]!);
    const t = lower < end ? firstFit(events, fixed, s.cost, lower, end) : Infinity;
    at.push(t);
    if (t === Infinity) continue;
    insert(events, { at: t, delta: s.cost });
    if (end !== Infinity) insert(events, { at: end, delta: -s.cost });
  }
  return at;
}

/** Keeps `events` sorted by budget. */
function insert(events: { at: number; delta: number }[], e: { at: number; delta: number }): void {
  let i = events.length;
  while (i > 0 && events[i - 1]!.at > e.at) i--;
  events.splice(i, 0, e);
}

/**
 * The smallest budget T in [lower, end) such that `cost` fits at every budget in [T, end): the room
 * at B is B - fixed - (costs of the events at or below B). Infinity when there is none.
 */
function firstFit(
  events: readonly { at: number; delta: number }[],
  fixed: number,
  cost: number,
  lower: number,
  end: number,
): number {
  // The room at `lower` and right after each event in (lower, end): the last point short of room decides.
  let used = 0;
  let i = 0;
  while (i < events.length && events[i]!.at <= lower) used += events[i++]!.delta;
  let room = lower - fixed - used;
  let bad: { at: number; room: number } | undefined = room < cost ? { at: lower, room } : undefined;
  /** The first event point after the last point short of room. */
  let next = Infinity;
  while (i < events.length && events[i]!.at < end) {
    const p = events[i]!.at;
    while (i < events.length && events[i]!.at === p) used += events[i++]!.delta;
    room = p - fixed - used;
    if (room < cost) {
      bad = { at: p, room };
      next = Infinity;
    } else if (next === Infinity) next = p;
  }
  if (!bad) return lower;
  // From there the room grows one token per budget token, until the next event point (which has room).
  const t = Math.min(bad.at + (cost - bad.room), next);
  return t < end ? t : Infinity;
}
