/**
 * What a front end adds around a `changes` answer (the MCP server's structured content), counted
 * before the fit so that text and data together meet the budget in one pass: the lists known
 * before fitting (files, changed definitions, callers, tests, routes, notes) go into the fixed part,
 * each chunk and listed cut entry into its block's envelope.
 */
import { envelopeRecord, type Envelope } from "../budget/fit.ts";

/** The envelope of a changes answer: `listed` caps the entries of each list the front end repeats. */
export interface ChangesEnvelope extends Envelope {
  listed?: number;
}

/** Entries per list tried, most first: the lists may take at most half the budget. */
const LIST_STEPS = [100, 50, 25, 12, 5];
/** A token count as wide as a chunk's can be, for records counted before the fit knows it. */
const WIDE_TOKENS = 99_999;

/** The records counted before the fit. */
export interface EnvelopeLists {
  files: readonly unknown[];
  symbols: readonly unknown[];
  callers: readonly unknown[];
  tests: readonly unknown[];
  routes: readonly unknown[];
  notes: readonly string[];
}

/** The fixed part of the envelope, the entries per list it counts, and the cost of one record. */
export interface EnvelopePlan {
  fixed: number;
  listed: number;
  record: (value: unknown, kind?: string) => number;
  /** Envelope tokens of a block: shown in full or as outline (a chunk record each), or listed as cut. */
  block: (
    chunk: Record<string, unknown>,
    cut: Record<string, unknown>,
  ) => { full: number; outline: number; listed: number };
}

/** Plans the envelope of one answer; without an envelope everything costs nothing. */
export function planEnvelope(
  envelope: ChangesEnvelope | undefined,
  lists: EnvelopeLists,
  budget: number,
  count: (text: string) => number,
): EnvelopePlan {
  const perRecord = envelope?.perRecord;
  const fields = envelope?.fields ?? {};
  const record = (value: unknown, kind?: string) =>
    perRecord === undefined
      ? 0
      : count(JSON.stringify(envelopeRecord(value, kind === undefined ? undefined : fields[kind]))) + perRecord;
  const max = envelope?.listed ?? LIST_STEPS[0]!;
  const kinds = { files: "file", symbols: "symbol", callers: "caller", tests: "test", routes: "route" } as const;
  const cost = (n: number) => {
    let sum = 0;
    for (const [list, kind] of Object.entries(kinds) as [keyof typeof kinds, string][])
      for (const v of lists[list].slice(0, n)) sum += record(v, kind);
    return sum;
  };
  let listed = max;
  let listsCost = cost(listed);
  for (const step of LIST_STEPS) {
    if (step >= listed) continue;
    if (listsCost <= budget / 2) break;
    listed = step;
    listsCost = cost(step);
  }
  const fixed =
    envelope === undefined ? 0 : envelope.fixed + listsCost + lists.notes.reduce((s, n) => s + record(n), 0);
  const block = (chunk: Record<string, unknown>, cut: Record<string, unknown>) => ({
    full: record({ ...chunk, form: "full", tokens: WIDE_TOKENS }, "chunk"),
    outline: record({ ...chunk, form: "outline", tokens: WIDE_TOKENS }, "chunk"),
    listed: record({ ...cut, tokens: WIDE_TOKENS }, "cut"),
  });
  return { fixed, listed, record, block };
}
