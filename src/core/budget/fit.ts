/**
 * The one fitter. Every answer with a budget — context and pack, the repo map, a front end's lists
 * and capped texts — is a header, blocks in priority order, an optional cut list and a footer.
 * Renderers make the blocks (each in full, maybe as an outline, maybe as a one-line cut entry);
 * this fits them, with the real tokenizer, into a budget that covers the whole text plus an
 * **envelope**: the tokens a front end adds around the text (the MCP server's structured content),
 * so a front end's limit is met in one pass. The text is recounted at the end, so the reported
 * count is exact.
 */
import { EngineError } from "../../shared/errors.ts";
import { entryBudgets, type Step } from "./thresholds.ts";

/**
 * Tokens a front end adds around an answer's text (the MCP server's structured content), which the
 * budget covers too, so the front end's own limit is met in one pass.
 */
export interface Envelope {
  /** Tokens added once, whatever the answer holds (the front end's own fields and notes). */
  fixed: number;
  /**
   * Set when the front end repeats the answer's records as JSON, with the same fields or fewer
   * (context: each seed and note, each chunk shown, each cut entry the text lists; the map: each
   * language): each record then costs the tokens of its JSON plus this many (for separators).
   */
  perRecord?: number;
  /**
   * The fields the front end repeats of each kind of record, in its order (context: `seed`,
   * `chunk`, `cut`; the map: `language`); a kind not named is repeated whole. Counting exactly
   * what is repeated keeps the budget for the text.
   */
  fields?: Readonly<Record<string, readonly string[]>>;
}

/** A record as an envelope repeats it: `fields` of it, in that order, or all of it. */
export function envelopeRecord(value: unknown, fields: readonly string[] | undefined): unknown {
  if (fields === undefined || typeof value !== "object" || value === null) return value;
  const record = value as Record<string, unknown>;
  return Object.fromEntries(fields.filter((f) => record[f] !== undefined).map((f) => [f, record[f]]));
}

/** One block of an answer, rendered in each form it can take. */
export interface Block {
  /** The block shown in full. */
  full: string;
  /** A shorter form (an outline) shown when the full one does not fit. */
  outline?: string;
  /**
   * Shorter outlines still, smallest first, each holding what the one before it holds and more (a long class's
   * members that matter most, then the next ones, the rest counted): shown before `outline` while that one would
   * take more than its share of the budget, the largest whose share the budget allows. Only with `FitSpec.monotone`.
   */
  briefs?: readonly string[];
  /**
   * A line appended to the outline and brief forms, told the budget from which the block shows in
   * full (undefined: none does). Only with `FitSpec.monotone`, where that budget is known.
   */
  note?: (fullAt: number | undefined) => string;
  /** Its entry in the cut list, given its full cost; a block without one is only counted when left out. */
  listed?: (tokens: number) => string;
  /** Offer it as an outline only (second-hop neighbours: their shape, not their bodies). */
  outlineOnly?: boolean;
  /** Take the outline on the first pass, the full form only with budget left at the end (a task's further matches). */
  preferOutline?: boolean;
  /** Never show it: list it in the cut list only. */
  listOnly?: boolean;
  /**
   * Enter after every other block, their held-back full forms included: it only fills what a large
   * budget has left (a task's late matches). Only with `FitSpec.monotone`.
   */
  trailing?: boolean;
  /** Its full form enters after every other step, the trailing blocks' included (it has a shorter form). */
  fullAfterTrailing?: boolean;
  /**
   * Its full form (a required block's, with a shorter form) enters after every step that enters below the budget its
   * share asks for: under that budget the other blocks fill what its body cannot take, and its body enters past it.
   * Only with `FitSpec.monotone`.
   */
  fullAfterSmaller?: boolean;
  /** It must be shown, in full or as its outline; when not even that fits: `budget_too_small`. */
  required?: boolean;
  /** Earlier blocks that contain this one: when one of them is shown in full, this one is covered. */
  within?: readonly number[];
  /** Lower goes in first (default: the block's index). Rendering keeps the blocks' own order. */
  priority?: number;
  /**
   * What showing it in full adds to the text, estimated (default: its tokens plus two for the
   * separator). The exact render decides; a closer estimate leaves less to correct.
   */
  cost?: number;
  /**
   * Envelope tokens this block adds in each form: shown in full, as its outline (as each of its briefs: `briefs`,
   * else the outline's), listed as cut.
   */
  envelope?: { full?: number; outline?: number; briefs?: readonly number[]; listed?: number };
}

/**
 * What became of a block ("covered": shown as part of a containing block shown in full; "brief": one of its briefs,
 * {@link FitResult.briefLevel} says which).
 */
export type BlockForm = "full" | "outline" | "brief" | "cut" | "covered";

/**
 * Budgets that only ever add ({@link FitSpec.monotone}): the most of the budget one block may
 * take in each form. A block whose form would take more waits for a budget where it takes no more
 * than that share, so a long class's outline never crowds out the callees ranked after it.
 */
export interface Shares {
  /** An outline or brief outline. */
  outline: number;
  /** A block in full. */
  full: number;
  /** A required block in full (its smallest form is always shown). */
  required: number;
  /** A required block's larger outlines, past its smallest form (default: `required`). */
  requiredOutline?: number;
  /**
   * Tokens past which a block's full form is taken only after every block has appeared (as its
   * outline): one long body waits rather than hold back all that ranks after it.
   */
  longFull?: number;
}

/** What a dynamic header or footer knows about the answer it heads or closes. */
export interface FitState {
  /** Tokens of the text (the value the footer reports; the fitter renders until it is exact). */
  tokens: number;
  /** Envelope tokens of the chosen forms. */
  envelope: number;
  budget: number;
  /** Blocks shown (full or outline). */
  shown: number;
  /** Blocks left out (cut, not covered). */
  omitted: number;
  /** Cut blocks listed by their entry. */
  listed: number;
}

/** The answer's layout, its blocks and its budget. */
export interface FitSpec {
  /** First part of the text: always there. A function when it cites what the fit kept. */
  header: string | ((state: FitState) => string);
  blocks: readonly Block[];
  /** Tokens for the text and the envelope together. */
  budget: number;
  count: (text: string) => number;
  /** Between header, body, cut list and footer, and between blocks (default a blank line). */
  separator?: string;
  /** Joins the shown blocks into the body (default: with the separator); the map groups them into sections. */
  join?: (parts: readonly { index: number; text: string }[]) => string;
  /** A cut list after the body: its title for `total` cut blocks, the line for `more` not listed. */
  cutList?: { title: (total: number) => string; more: (n: number) => string; max?: number; min?: number };
  /** Last part of the text (a usage line, "N more not shown"); empty for none. */
  footer?: (state: FitState) => string;
  /**
   * Keep a prefix of the blocks (lists, lines of a file): the longest run, in priority order, that
   * fits; nothing after a block that did not fit.
   */
  prefix?: boolean;
  /** Envelope tokens the front end adds once, whatever the blocks. */
  envelope?: number;
  /** What the smallest answer holds, for the budget_too_small message (default "the answer"). */
  smallest?: string;
  /**
   * Budgets only ever add: for the same blocks, every block shown at a budget is shown (whole, as
   * its outline or brief, or inside a container shown whole) at every larger budget. Blocks enter
   * in priority order, each form at the smallest budget from which it fits at every larger one
   * (see thresholds.ts), and takes at most its share of the budget. Costs are counted without
   * regard to the budget, so the same blocks get the same entry budgets whatever was asked.
   */
  monotone?: Shares;
}

/** The fitted answer. */
export interface FitResult {
  text: string;
  forms: BlockForm[];
  /** Token cost of block i in full (what the cut list reports), counted when first asked. */
  fullTokens: (i: number) => number;
  /** Token cost of block i as its outline (undefined: it has none). */
  outlineTokens: (i: number) => number | undefined;
  /** Token cost of block i as shown (full, outline or brief, with its note); undefined when it is not shown. */
  shownTokens: (i: number) => number | undefined;
  /** Monotone fits: the smallest budget at which block i shows in full (undefined: none, or not monotone). */
  fullAt: (i: number) => number | undefined;
  /** Which of block i's briefs it shows (an index into `Block.briefs`); undefined when its form is not "brief". */
  briefLevel: (i: number) => number | undefined;
  /** Tokens of `text`: a recount. */
  tokens: number;
  /** Envelope tokens of the chosen forms (`tokens + envelope ≤ budget`). */
  envelope: number;
  /** Cut blocks listed by their entry (the first ones, in block order). */
  listed: number;
  /** Blocks left out (cut, not covered). */
  omitted: number;
}

/** How many cut entries are listed before "… and N more". */
export const CUT_SHOWN = 15;
/** How many cut entries an answer keeps before it gives up blocks for them. */
export const MIN_CUT_SHOWN = 5;

/**
 * The largest `k` (0..n) for which `fits(k)` holds, assuming `fits` is monotone (true up to some
 * k, false after) and `fits(0)`. Binary search: a list of thousands of entries costs a dozen renders.
 */
export function largestFitting(n: number, fits: (k: number) => boolean): number {
  if (fits(n)) return n;
  let lo = 0;
  let hi = n;
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if (fits(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

/**
 * Prefix mode, the one search for answers that keep the first k of n entries (a prefix of the
 * blocks in {@link fitBlocks}; a page of a list, rendered whole): renders the answer for k entries
 * and keeps the largest k whose cost is within `budget`, by binary search (the cost is taken to grow
 * with k). Returns that answer, or the answer with no entries and `fits: false` when not even that
 * fits: the caller words its `budget_too_small`.
 */
export function fitPrefix<T>(
  n: number,
  render: (k: number) => T,
  cost: (answer: T) => number,
  budget: number,
): { k: number; answer: T; fits: boolean } {
  let best: { answer: T } | undefined;
  const k = largestFitting(n, (m) => {
    const answer = render(m);
    if (cost(answer) > budget) return false;
    best = { answer };
    return true;
  });
  if (best) return { k, answer: best.answer, fits: true };
  const none = render(0);
  return { k: 0, answer: none, fits: cost(none) <= budget };
}

/**
 * The longest start of `text` (by characters, ending in "…") within `limit` tokens: for a single
 * line longer than any budget (minified code), where whole lines cannot be kept.
 */
export function clipText(text: string, limit: number, count: (text: string) => number): string {
  const chars = largestFitting(text.length, (n) => count(`${text.slice(0, n)}…`) <= limit);
  return `${text.slice(0, chars)}…`;
}

/** Listed entries sampled to estimate the room the cut list needs. */
const CUT_SAMPLE = 24;
/** More characters per token than any ordinary text has: a block this much longer than the budget cannot fit. */
const MAX_CHARS_PER_TOKEN = 12;

/**
 * Token counts computed on first read. A text longer than `budget × MAX_CHARS_PER_TOKEN`
 * characters is not counted: it reads as a quarter of its length (an over-estimate that still
 * cannot fit), so a 50,000-token class in a neighbourhood costs nothing to leave out.
 */
function lazyCounts(
  texts: readonly (string | undefined)[],
  count: (text: string) => number,
  budget: number,
  fixedLimit = false,
): (i: number) => number | undefined {
  const cache: (number | undefined)[] = new Array(texts.length);
  return (i) => {
    const t = texts[i];
    if (cache[i] === undefined && t !== undefined) {
      // A monotone fit counts without regard to the budget: past HUGE_CHARS, half the length (more
      // tokens than code has: such a block shows whole only where that estimate fits).
      cache[i] = fixedLimit
        ? t.length > HUGE_CHARS
          ? Math.ceil(t.length / 2)
          : count(t)
        : t.length > budget * MAX_CHARS_PER_TOKEN
          ? Math.ceil(t.length / 4)
          : count(t);
    }
    return cache[i];
  };
}

/** Characters past which a monotone fit estimates a text's tokens instead of counting them (~15,000 tokens of code). */
const HUGE_CHARS = 60_000;

/** One rendering of the current forms: its text, the text's token count and the envelope it adds. */
interface Draft {
  text: string;
  tokens: number;
  envelope: number;
}

/**
 * One fit under way, shared by its phases: the spec, the blocks' lazy counts and priority order,
 * each block's current form, and how many cut entries are listed.
 */
interface Fit {
  spec: FitSpec;
  blocks: readonly Block[];
  budget: number;
  count: (text: string) => number;
  sep: string;
  /** Cut entries listed at most, and kept before blocks are given up for them. */
  cutMax: number;
  cutMin: number;
  fullTokens: (i: number) => number;
  outlineTokens: (i: number) => number | undefined;
  forms: BlockForm[];
  /** Block indices by priority, first in first. */
  order: number[];
  /** A header or footer that depends on what was kept: the text is rendered until its count holds. */
  dynamic: boolean;
  /** Cut entries listed. */
  shown: number;
  /** Count the text before the footer once (cleared if the final recount ever disagrees). */
  additive: boolean;
  /** Monotone fits: the outline and brief texts as shown (their note appended; a brief's level from `level`). */
  shownText?: (i: number, form: "outline" | "brief") => string;
  /** Monotone fits: the brief each block shown as "brief" shows (an index into its `briefs`). */
  level: number[];
  /** Monotone fits: the budget from which each block shows in full (Infinity: none). */
  fullAt?: number[];
}

/** The state of a fit that has chosen nothing yet: every block cut, every cut entry allowed. */
function startFit(spec: FitSpec): Fit {
  const { blocks, budget, count } = spec;
  const cutMax = spec.cutList ? (spec.cutList.max ?? CUT_SHOWN) : 0;
  // Counted on first use: a block far larger than the budget is never counted (its cost is an
  // estimate that cannot fit), and the rest only when the fit looks at them.
  const fixedLimit = spec.monotone !== undefined;
  const fullCount = lazyCounts(
    blocks.map((b) => b.full),
    count,
    budget,
    fixedLimit,
  );
  return {
    spec,
    blocks,
    budget,
    count,
    sep: spec.separator ?? "\n\n",
    cutMax,
    cutMin: spec.cutList ? Math.min(cutMax, spec.cutList.min ?? MIN_CUT_SHOWN) : 0,
    fullTokens: (i) => fullCount(i)!,
    outlineTokens: lazyCounts(
      blocks.map((b) => b.outline),
      count,
      budget,
      fixedLimit,
    ),
    forms: blocks.map(() => "cut"),
    level: blocks.map(() => 0),
    order: blocks.map((_, i) => i).sort((a, b) => (blocks[a]!.priority ?? a) - (blocks[b]!.priority ?? b) || a - b),
    dynamic: typeof spec.header === "function" || spec.footer !== undefined,
    shown: cutMax,
    additive: true,
  };
}

const envFull = (fit: Fit, i: number) => fit.blocks[i]!.envelope?.full ?? 0;
const envOutline = (fit: Fit, i: number) => fit.blocks[i]!.envelope?.outline ?? 0;
const envBrief = (fit: Fit, i: number, level = fit.level[i]!) =>
  fit.blocks[i]!.envelope?.briefs?.[level] ?? envOutline(fit, i);
/** Estimated cost of a block in full: text, separator, envelope. */
const fullCost = (fit: Fit, i: number) => (fit.blocks[i]!.cost ?? fit.fullTokens(i) + 2) + envFull(fit, i);
/** Whether a block is shown as part of a containing block shown in full. */
const covered = (fit: Fit, i: number) => (fit.blocks[i]!.within ?? []).some((j) => fit.forms[j] === "full");
const over = (fit: Fit, d: Draft) => d.tokens + d.envelope > fit.budget;

/** What the current forms show: the blocks' texts, the cut entries listed, and the envelope they add. */
function layout(fit: Fit): {
  parts: { index: number; text: string }[];
  cutLines: string[];
  cutTotal: number;
  envelope: number;
} {
  const { spec, forms } = fit;
  const parts: { index: number; text: string }[] = [];
  const cutLines: string[] = [];
  let cutTotal = 0;
  let envelope = spec.envelope ?? 0;
  fit.blocks.forEach((block, i) => {
    const form = forms[i];
    if (form === "full" || form === "outline" || form === "brief") {
      parts.push({
        index: i,
        text: form === "full" ? block.full : fit.shownText ? fit.shownText(i, form) : block.outline!,
      });
      envelope += form === "full" ? envFull(fit, i) : form === "brief" ? envBrief(fit, i) : envOutline(fit, i);
    } else if (!covered(fit, i)) {
      cutTotal++;
      if (spec.cutList && block.listed && cutLines.length < fit.shown) {
        cutLines.push(block.listed(fit.fullTokens(i)));
        envelope += block.envelope?.listed ?? 0;
      }
    }
  });
  return { parts, cutLines, cutTotal, envelope };
}

/** Renders the current forms (with the footer's budget as `b`), counting until the text reports its own count. */
function draft(fit: Fit, b = fit.budget): Draft {
  const { spec, sep, count } = fit;
  const { parts, cutLines, cutTotal, envelope } = layout(fit);
  const state = (tokens: number): FitState => ({
    tokens,
    envelope,
    budget: b,
    shown: parts.length,
    omitted: cutTotal,
    listed: cutLines.length,
  });
  const assembleMain = (tokens: number): string => {
    const out: string[] = [];
    const head = typeof spec.header === "string" ? spec.header : spec.header(state(tokens));
    if (head !== "") out.push(head);
    const body = parts.length === 0 ? "" : spec.join ? spec.join(parts) : parts.map((p) => p.text).join(sep);
    if (body !== "") out.push(body);
    if (spec.cutList && cutTotal > 0) {
      const more = cutTotal - cutLines.length;
      out.push([spec.cutList.title(cutTotal), ...cutLines, ...(more > 0 ? [spec.cutList.more(more)] : [])].join("\n"));
    }
    return out.join(sep);
  };
  const withFooter = (main: string, foot: string) => (main === "" ? foot : foot === "" ? main : main + sep + foot);
  const assemble = (tokens: number): string => withFooter(assembleMain(tokens), spec.footer?.(state(tokens)) ?? "");
  if (!fit.dynamic) {
    const text = assemble(0);
    return { text, tokens: count(text), envelope };
  }
  // A footer that reports the count changes the count: render until the number is its own. With a
  // fixed header and a separator ending in a line break, the text before the footer is counted
  // once (pre-tokenization splits after a line break, so the counts add up); finishFit() checks.
  if (fit.additive && typeof spec.header === "string" && sep.endsWith("\n")) {
    const main = assembleMain(0);
    if (main !== "") {
      const base = count(main + sep);
      let tokens = base;
      for (let k = 0; k < 4; k++) {
        const foot = spec.footer?.(state(tokens)) ?? "";
        const total = foot === "" ? count(main) : base + count(foot);
        if (total === tokens) return { text: withFooter(main, foot), tokens, envelope };
        tokens = total;
      }
    }
  }
  let tokens = count(assemble(0));
  for (let k = 0; k < 3; k++) {
    const text = assemble(tokens);
    const again = count(text);
    if (again === tokens) return { text, tokens, envelope };
    tokens = again;
  }
  const text = assemble(tokens);
  return { text, tokens: count(text), envelope };
}

/** The smallest budget that holds the current (smallest) answer, its footer's own digits included. */
function needed(fit: Fit, d: Draft): number {
  let need = d.tokens + d.envelope;
  for (let k = 0; k < 3; k++) {
    const again = draft(fit, need);
    if (again.tokens + again.envelope <= need) break;
    need = again.tokens + again.envelope;
  }
  return need;
}

/** `budget_too_small` for a fit whose smallest answer needs `need` tokens, with the seed's sizes. */
function tooSmall(fit: Fit, need: number): EngineError<"budget_too_small"> {
  const { budget, blocks, spec } = fit;
  const seed = fit.order.find((i) => blocks[i]!.required);
  return new EngineError(
    "budget_too_small",
    `A budget of ${budget} tokens cannot hold ${spec.smallest ?? "the answer"}; it needs ${need}.`,
    {
      hint: `A budget of at least ${need} tokens holds it.`,
      data: {
        budget,
        needed: need,
        ...(seed !== undefined ? { seedTokens: fit.fullTokens(seed) } : {}),
        ...(seed !== undefined && fit.outlineTokens(seed) !== undefined
          ? { seedOutlineTokens: fit.outlineTokens(seed)! }
          : {}),
      },
    },
  );
}

/**
 * How answers made of code chunks (context, pack, changes) lay out what the fitter decides: blank
 * lines between chunks, a cut list that says how to ask for what was left out, and a footer with
 * the count against the budget and the tokens kept for data sent alongside the text.
 */
export function chunkAnswerLayout(encoding: string): Pick<FitSpec, "separator" | "cutList" | "footer"> {
  return {
    separator: "\n\n",
    cutList: {
      title: (total) => `## Cut: ${total} chunk${total > 1 ? "s" : ""} left out (ask for any by name or path:lines)`,
      more: (n) => `- … and ${n} more`,
    },
    footer: (s) =>
      `-- ${s.tokens}/${s.budget} tokens ` +
      `(${encoding}${s.envelope > 0 ? `; ${s.envelope} more for data alongside this text` : ""})`,
  };
}

/**
 * Fits `spec.blocks` into `spec.budget` tokens (text plus envelope). Blocks are taken in priority
 * order: in full if they fit, else as their outline, else left out (listed in the cut list when
 * they have an entry). Then the exact text is rendered and counted: over budget, the cut list is
 * shortened and blocks are demoted from the lowest priority up; under it, the slack goes to the
 * highest-priority blocks left out, then to more cut-list entries. Throws `budget_too_small`
 * (with the budget needed) when not even the header and the required blocks' outlines fit.
 * With `spec.prefix`, keeps the longest prefix that fits instead ({@link fitPrefix}).
 */
export function fitBlocks(spec: FitSpec): FitResult {
  const fit = startFit(spec);
  if (spec.prefix) return fitBlockPrefix(fit);
  if (spec.monotone) return fitMonotone(fit, spec.monotone);
  chooseForms(fit);
  let current = demoteToBudget(fit);
  current = growCutList(fit, current, fit.cutMin);
  current = promoteIntoSlack(fit, current);
  current = growCutList(fit, current, fit.cutMax);
  return finishFit(fit, current);
}

/**
 * The estimate pass: required blocks first (in full, else as the outline), then the rest greedily
 * by priority, with room kept for the first few cut-list entries. Costs are estimates; the exact
 * render in {@link demoteToBudget} corrects them.
 */
function chooseForms(fit: Fit): void {
  const { spec, blocks, budget, count, forms, order } = fit;
  const n = blocks.length;
  // The least any answer costs besides its blocks: header, footer, a one-line cut list, and two
  // tokens for the separator before each of the last two.
  const widest: FitState = { tokens: budget, envelope: 0, budget, shown: n, omitted: n, listed: 0 };
  const minCut = spec.cutList && n > 1 ? count(`${spec.cutList.title(n)}\n${spec.cutList.more(n)}`) + 2 : 0;
  const headerCost = count(typeof spec.header === "string" ? spec.header : spec.header(widest));
  const margin = 2 * ((spec.cutList ? 1 : 0) + (spec.footer ? 1 : 0));
  const fixed = headerCost + (spec.footer ? count(spec.footer(widest)) : 0) + minCut + margin + (spec.envelope ?? 0);
  let used = fixed;
  // Required blocks first: in full, else as the outline; when even that fails the estimate, only the
  // exact render can say whether the smallest answer fits.
  let tight = false;
  for (const i of order) {
    if (!blocks[i]!.required) continue;
    const full = fullCost(fit, i);
    const outline = fit.outlineTokens(i) !== undefined ? fit.outlineTokens(i)! + envOutline(fit, i) : undefined;
    // An outline-only block that is required still takes its outline when it has one.
    if (!tight && !(blocks[i]!.outlineOnly && outline !== undefined) && used + full <= budget) {
      forms[i] = "full";
      used += full;
    } else if (!tight && outline !== undefined && used + outline + 2 <= budget) {
      forms[i] = "outline";
      used += outline + 2;
    } else {
      tight = true;
      forms[i] = outline !== undefined ? "outline" : "full";
    }
  }
  if (tight) return;
  // Keep room for the first few cut-list entries (estimated from the average entry).
  const sample = spec.cutList ? order.filter((i) => !blocks[i]!.required).slice(-CUT_SAMPLE) : [];
  const cutCosts = sample.map((i) => {
    const b = blocks[i]!;
    return (b.listed ? count(b.listed(fit.fullTokens(i))) + 1 : 0) + (b.envelope?.listed ?? 0);
  });
  const avgCut = cutCosts.length ? cutCosts.reduce((a, c) => a + c, 0) / cutCosts.length : 0;
  used += Math.ceil(avgCut * Math.min(fit.cutMin, cutCosts.length));
  // Greedy by priority; a block whose container is already shown in full costs nothing.
  for (const i of order) {
    const b = blocks[i]!;
    if (b.required || covered(fit, i) || b.listOnly) continue;
    const full = fullCost(fit, i);
    if (!b.outlineOnly && !b.preferOutline && used + full <= budget) {
      forms[i] = "full";
      used += full;
    } else if (fit.outlineTokens(i) !== undefined && used + fit.outlineTokens(i)! + envOutline(fit, i) + 2 <= budget) {
      forms[i] = "outline";
      used += fit.outlineTokens(i)! + envOutline(fit, i) + 2;
    }
  }
}

/**
 * The exact pass: renders the chosen forms and, while over budget, shortens the cut list to its
 * first few entries, demotes blocks from the lowest priority up, and only then drops the last
 * entries (an agent can ask for what it can name) and outlines the required blocks. Throws
 * `budget_too_small` when even that is over.
 */
function demoteToBudget(fit: Fit): Draft {
  const { blocks, forms, order } = fit;
  const n = blocks.length;
  let current = draft(fit);
  const shrinkCutList = (floor: number) => {
    while (over(fit, current) && fit.shown > floor) {
      fit.shown = Math.max(
        floor,
        fit.shown - Math.max(1, Math.ceil((current.tokens + current.envelope - fit.budget) / 15)),
      );
      current = draft(fit);
    }
  };
  shrinkCutList(fit.cutMin);
  for (let k = n - 1; over(fit, current) && k >= 0; k--) {
    const i = order[k]!;
    if (forms[i] === "cut" || blocks[i]!.required) continue;
    forms[i] = forms[i] === "full" && fit.outlineTokens(i) !== undefined ? "outline" : "cut";
    if (forms[i] === "outline") k++; // look at it again: cut it if the outline is still too much
    current = draft(fit);
  }
  shrinkCutList(0);
  for (let k = n - 1; over(fit, current) && k >= 0; k--) {
    const i = order[k]!;
    if (!blocks[i]!.required || forms[i] !== "full" || fit.outlineTokens(i) === undefined) continue;
    forms[i] = "outline";
    current = draft(fit);
  }
  if (over(fit, current)) throw tooSmall(fit, needed(fit, current));
  return current;
}

/**
 * Spends the slack: promotes left-out or outlined blocks in priority order by the estimates, renders
 * once, and steps back (last promotion first) while over.
 */
function promoteIntoSlack(fit: Fit, current: Draft): Draft {
  const { blocks, forms } = fit;
  let slack = fit.budget - current.tokens - current.envelope;
  const promoted: { i: number; from: BlockForm }[] = [];
  for (const i of fit.order) {
    const b = blocks[i]!;
    if (forms[i] === "full" || covered(fit, i) || b.listOnly) continue;
    const now = forms[i] === "outline" ? fit.outlineTokens(i)! + envOutline(fit, i) : 0;
    const full = !b.outlineOnly ? fit.fullTokens(i) + envFull(fit, i) + 2 - now : Infinity;
    if (full <= slack) {
      promoted.push({ i, from: forms[i]! });
      forms[i] = "full";
      slack -= full;
    } else if (
      forms[i] === "cut" &&
      fit.outlineTokens(i) !== undefined &&
      fit.outlineTokens(i)! + envOutline(fit, i) + 2 <= slack
    ) {
      promoted.push({ i, from: "cut" });
      forms[i] = "outline";
      slack -= fit.outlineTokens(i)! + envOutline(fit, i) + 2;
    }
  }
  if (!promoted.length) return current;
  let d = draft(fit);
  while (over(fit, d) && promoted.length) {
    const p = promoted.pop()!;
    forms[p.i] = p.from;
    d = draft(fit);
  }
  return d;
}

/**
 * Lists more cut entries, up to `limit`, while the answer still fits: estimates how many the slack holds, drafts once,
 * and steps back while over.
 */
function growCutList(fit: Fit, current: Draft, limit: number): Draft {
  const { blocks, forms } = fit;
  if (fit.shown >= limit) return current;
  const before = fit.shown;
  const entries = blocks
    .map((b, i) => (forms[i] === "cut" && !covered(fit, i) && b.listed ? i : -1))
    .filter((i) => i >= 0);
  let slack = fit.budget - current.tokens - current.envelope;
  let k = fit.shown;
  while (k < limit && k < entries.length) {
    const b = blocks[entries[k]!]!;
    const cost = fit.count(b.listed!(fit.fullTokens(entries[k]!))) + 1 + (b.envelope?.listed ?? 0);
    if (cost > slack) break;
    slack -= cost;
    k++;
  }
  if (k === before) return current;
  fit.shown = k;
  let d = draft(fit);
  while (over(fit, d) && fit.shown > before) {
    fit.shown--;
    d = draft(fit);
  }
  if (!over(fit, d)) return d;
  fit.shown = before;
  return current;
}

/** Prefix mode (lists, lines of a file): the longest prefix, in priority order, whose exact render fits. */
function fitBlockPrefix(fit: Fit): FitResult {
  const take = (k: number) => fit.order.forEach((i, rank) => (fit.forms[i] = rank < k ? "full" : "cut"));
  const { k, answer, fits } = fitPrefix(
    fit.blocks.length,
    (m) => {
      take(m);
      return draft(fit);
    },
    (d) => d.tokens + d.envelope,
    fit.budget,
  );
  take(k);
  if (!fits) throw tooSmall(fit, needed(fit, answer));
  return finishFit(fit, answer);
}

/**
 * The fitted answer from the last draft. The reported count is exact: the final text is recounted
 * once (the additive shortcut is checked here) and, should it disagree, drafted again without it,
 * giving up cut entries and then blocks while over.
 */
function finishFit(fit: Fit, draftIn: Draft): FitResult {
  const { blocks, forms, order, spec } = fit;
  let d = draftIn;
  if (fit.dynamic && fit.count(d.text) !== d.tokens) {
    fit.additive = false;
    d = draft(fit);
    while (over(fit, d) && fit.shown > 0) {
      fit.shown--;
      d = draft(fit);
    }
    for (let k = blocks.length - 1; over(fit, d) && k >= 0; k--) {
      const i = order[k]!;
      if (forms[i] === "cut" || blocks[i]!.required) continue;
      forms[i] = "cut";
      d = draft(fit);
    }
  }
  let omitted = 0;
  let listed = 0;
  const out = forms.map((f, i): BlockForm => {
    if (f !== "cut") return f;
    if (covered(fit, i)) return "covered";
    if (spec.cutList && blocks[i]!.listed && listed < fit.shown) listed++;
    omitted++;
    return "cut";
  });
  // Still lazy: a caller counts only what it reports.
  const shownTokens = (i: number): number | undefined => {
    const f = out[i];
    if (f === "full") return fit.fullTokens(i);
    if (f !== "outline" && f !== "brief") return undefined;
    return fit.shownText ? fit.count(fit.shownText(i, f)) : fit.outlineTokens(i);
  };
  const fullAt = (i: number) => (fit.fullAt && fit.fullAt[i] !== Infinity ? fit.fullAt[i] : undefined);
  return {
    text: d.text,
    forms: out,
    fullTokens: fit.fullTokens,
    outlineTokens: fit.outlineTokens,
    shownTokens,
    fullAt,
    briefLevel: (i) => (out[i] === "brief" ? fit.level[i] : undefined),
    tokens: d.tokens,
    envelope: d.envelope,
    listed,
    omitted,
  };
}

/**
 * Entry budgets with step `w` (a long required body) moved behind every step that enters below the budget its share
 * asks for (`steps[w].from`): entered in place, it would hold everything else under that budget to the room left
 * beside it there, so a 7,400-token class seed left a third of an 8,000-token answer empty. The steps are entered
 * once without `w` to see which enter below, then again in the new order; the budgets stay monotone (thresholds.ts
 * holds that for any order). Returned in the steps' own order.
 */
function entryAfterSmaller(steps: readonly Step[], fixed: number, w: number): number[] {
  const without = entryBudgets(
    steps.map((s, k) => (k === w ? { ...s, from: Infinity } : s)),
    fixed,
  );
  const pivot = steps[w]!.from;
  const early: number[] = [];
  const late: number[] = [];
  steps.forEach((_, k) => {
    if (k !== w) (without[k]! < pivot ? early : late).push(k);
  });
  // The step it builds on (its outline) must come first; when that one enters late, nothing moves.
  if (!early.includes(steps[w]!.after!)) return entryBudgets(steps, fixed);
  const order = [...early, w, ...late];
  const position = new Map(order.map((k, at) => [k, at]));
  const moved: Step[] = order.map((k) => {
    const s = steps[k]!;
    return {
      cost: s.cost,
      from: s.from,
      ...(s.after !== undefined ? { after: position.get(s.after)! } : {}),
      ...(s.freedBy ? { freedBy: s.freedBy.map((f) => position.get(f)!) } : {}),
    };
  });
  const at = entryBudgets(moved, fixed);
  return steps.map((_, k) => at[position.get(k)!]!);
}

/** A budget no answer reaches: the widest number a footer or note may print while costs are estimated. */
const WIDEST = 9_999_999;

/**
 * The fixed part of a monotone answer: header, footer, the cut list's title and its first few entries, separators,
 * the envelope's own tokens; each counted at its widest (the footer with the widest numbers).
 */
function monotoneFixed(fit: Fit): number {
  const { spec, blocks, count, order } = fit;
  const n = blocks.length;
  const anyEnvelope = (spec.envelope ?? 0) > 0 || blocks.some((b) => b.envelope !== undefined);
  const widest: FitState = {
    tokens: WIDEST,
    envelope: anyEnvelope ? WIDEST : 0,
    budget: WIDEST,
    shown: n,
    omitted: n,
    listed: n,
  };
  const headerCost = count(typeof spec.header === "string" ? spec.header : spec.header(widest));
  const footerCost = spec.footer ? count(spec.footer(widest)) : 0;
  const minCut = spec.cutList && n > 1 ? count(`${spec.cutList.title(n)}\n${spec.cutList.more(n)}`) + 2 : 0;
  const entryCosts = spec.cutList
    ? order
        .filter((i) => !blocks[i]!.required && blocks[i]!.listed)
        .map((i) => count(blocks[i]!.listed!(fit.fullTokens(i))) + 1 + (blocks[i]!.envelope?.listed ?? 0))
        .sort((a, b) => b - a)
    : [];
  const entries = entryCosts.slice(0, fit.cutMin).reduce((a, c) => a + c, 0);
  const margin = 2 * ((spec.cutList ? 1 : 0) + (spec.footer ? 1 : 0));
  return headerCost + footerCost + minCut + entries + margin + (spec.envelope ?? 0);
}

/**
 * Monotone mode ({@link FitSpec.monotone}): each block's forms become steps in priority order — the
 * required blocks first (their smallest form, then larger ones), then every other block (its
 * smallest form, then larger ones), then the full forms held back: bodies longer than
 * `shares.longFull`, then a task's further matches (`preferOutline`) — and each step enters at
 * the smallest budget from which it fits at every larger budget (thresholds.ts), and not before
 * its form takes no more than its share. What this budget shows is what those entry budgets
 * allow; the exact render then only decides how many cut entries are listed.
 */
function fitMonotone(fit: Fit, shares: Shares): FitResult {
  const { blocks, count, forms, order, budget } = fit;
  const n = blocks.length;

  // The outline and brief as shown: a note may follow them, told from which budget the block shows
  // whole. Costs are estimated with the widest number in the note.
  const noted = (i: number, text: string, fullAt: number | undefined) =>
    blocks[i]!.note ? `${text}\n${blocks[i]!.note!(fullAt)}` : text;
  const textOf = (i: number, form: "outline" | "brief", level: number, fullAt: number | undefined) =>
    noted(i, form === "brief" ? blocks[i]!.briefs![level]! : blocks[i]!.outline!, fullAt);
  const estimated = (i: number, form: "outline" | "brief", level = 0) => {
    const t = textOf(i, form, level, WIDEST);
    return (
      (t.length > HUGE_CHARS ? Math.ceil(t.length / 2) : count(t)) +
      2 +
      (form === "brief" ? envBrief(fit, i, level) : envOutline(fit, i))
    );
  };

  const fixed = monotoneFixed(fit);

  // The steps, in priority order.
  const steps: Step[] = [];
  const stepOf: { i: number; form: BlockForm; level: number }[] = [];
  const fullStep = new Map<number, number>();
  const later: (() => void)[] = [];
  const last: (() => void)[] = [];
  const final: (() => void)[] = [];
  const smallest = new Map<number, { form: BlockForm; level: number }>();
  const required = order.filter((i) => blocks[i]!.required);
  const addBlock = (i: number) => {
    const b = blocks[i]!;
    if (b.listOnly) return;
    let levels: { form: BlockForm; level: number; cost: number }[] = [];
    if (b.outline !== undefined)
      (b.briefs ?? []).forEach((_, k) => levels.push({ form: "brief", level: k, cost: estimated(i, "brief", k) }));
    if (b.outline !== undefined) levels.push({ form: "outline", level: 0, cost: estimated(i, "outline") });
    if (!b.outlineOnly || b.outline === undefined) levels.push({ form: "full", level: 0, cost: fullCost(fit, i) });
    // A form no cheaper than a larger one is skipped: the larger one says more for the same tokens.
    levels = levels.filter((l, k) => levels.slice(k + 1).every((m) => m.cost > l.cost));
    smallest.set(i, levels[0]!);
    const freedBy = (b.within ?? []).flatMap((j) => (fullStep.has(j) ? [fullStep.get(j)!] : []));
    let previous: { step: number; cost: number } | undefined;
    for (const level of levels) {
      const share = b.required
        ? previous
          ? level.form === "full"
            ? shares.required
            : (shares.requiredOutline ?? shares.required)
          : undefined
        : level.form === "full"
          ? shares.full
          : shares.outline;
      const after = previous;
      const take = () => {
        steps.push({
          cost: level.cost - (after?.cost ?? 0),
          from: share ? Math.ceil(level.cost / share) : 0,
          ...(after ? { after: after.step } : {}),
          ...(freedBy.length ? { freedBy } : {}),
        });
        stepOf.push({ i, form: level.form, level: level.level });
        if (level.form === "full") fullStep.set(i, steps.length - 1);
        return steps.length - 1;
      };
      if (level.form === "full" && b.fullAfterTrailing && after) final.push(take);
      else if (level.form === "full" && b.preferOutline && after) last.push(take);
      else if (level.form === "full" && after && !b.required && level.cost > (shares.longFull ?? Infinity))
        later.push(take);
      else previous = { step: take(), cost: level.cost };
    }
  };
  // Trailing blocks enter after every other step, the held-back full forms included.
  const trailing = (i: number) => blocks[i]!.trailing === true && !blocks[i]!.required;
  for (const group of [
    [...required, ...order.filter((i) => !blocks[i]!.required && !trailing(i))],
    order.filter(trailing),
  ]) {
    for (const i of group) addBlock(i);
    for (const take of [...later, ...last]) take();
    later.length = 0;
    last.length = 0;
  }
  for (const take of final) take();
  const waiting = stepOf.flatMap((st, k) =>
    st.form === "full" && blocks[st.i]!.fullAfterSmaller && steps[k]!.after !== undefined ? [k] : [],
  );
  const at = waiting.length === 1 ? entryAfterSmaller(steps, fixed, waiting[0]!) : entryBudgets(steps, fixed);

  // The forms this budget allows: each block's largest form whose step has entered.
  forms.fill("cut");
  const setForm = (i: number, to: { form: BlockForm; level: number }) => {
    forms[i] = to.form;
    fit.level[i] = to.level;
  };
  stepOf.forEach((s, k) => {
    if (at[k]! <= budget) setForm(s.i, s);
  });
  fit.fullAt = blocks.map((_, i) => (fullStep.has(i) ? at[fullStep.get(i)!]! : Infinity));
  const shownText = (i: number, form: "outline" | "brief") =>
    textOf(i, form, fit.level[i]!, fit.fullAt![i] === Infinity ? undefined : fit.fullAt![i]);
  fit.shownText = shownText;
  for (let i = 0; i < n; i++) if (forms[i] !== "cut" && covered(fit, i)) forms[i] = "cut";
  for (const i of required) if (forms[i] === "cut") setForm(i, smallest.get(i) ?? { form: "full", level: 0 });

  // The exact render: over budget (the estimates were short), list fewer cut entries, then give up
  // blocks from the lowest priority (this alone could break the rule; the estimates keep it rare).
  fit.shown = fit.cutMin;
  let current = draft(fit);
  while (over(fit, current) && fit.shown > 0) {
    fit.shown = Math.max(0, fit.shown - Math.max(1, Math.ceil((current.tokens + current.envelope - budget) / 15)));
    current = draft(fit);
  }
  for (let k = n - 1; over(fit, current) && k >= 0; k--) {
    const i = order[k]!;
    if (forms[i] === "cut" || blocks[i]!.required) continue;
    forms[i] = "cut";
    current = draft(fit);
  }
  for (const i of required) {
    if (!over(fit, current)) break;
    const least = smallest.get(i)!;
    if (forms[i] !== least.form || fit.level[i] !== least.level) {
      setForm(i, least);
      current = draft(fit);
    }
  }
  if (over(fit, current)) throw tooSmall(fit, needed(fit, current));
  current = growCutList(fit, current, fit.cutMax);
  return finishFit(fit, current);
}
