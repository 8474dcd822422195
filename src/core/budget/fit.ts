/**
 * Fits chunks into a token budget that covers the whole rendered answer: header, notes, chunk
 * headers and code, the cut list and the usage line. Chunks are taken in priority order; one
 * that does not fit in full falls back to its outline, else it is listed as cut with its exact
 * handle and token cost. The final text is recounted, so the reported count is exact.
 */
import { EngineError } from "../shared/errors.ts";

/** A chunk ready to fit: both renderings already made. */
export interface FitChunk {
  /** The rendered block in full (header + code). */
  full: string;
  /** The rendered block as an outline, if the chunk has one. */
  outline?: string;
  /** The one-line entry for the cut list. */
  cutLine: (tokens: number) => string;
}

/** What the fitter decided for each chunk. */
export type FitForm = "full" | "outline" | "cut";

/** The fitted answer. */
export interface FitResult {
  text: string;
  forms: FitForm[];
  /** Token cost of each chunk in full (what the cut list reports). */
  fullTokens: number[];
  outlineTokens: (number | undefined)[];
  tokens: number;
}

/** How many cut entries are listed before "… and N more". */
export const CUT_SHOWN = 15;

/** Assembles the answer text from its parts. */
function assemble(header: string, blocks: string[], cutLines: string[], cutTotal: number, usage: string): string {
  const parts = [header, ...blocks];
  if (cutTotal > 0) {
    const more = cutTotal - cutLines.length;
    parts.push([`## Cut: ${cutTotal} chunk${cutTotal > 1 ? "s" : ""} did not fit (ask for any by name or path:lines)`, ...cutLines, ...(more > 0 ? [`- … and ${more} more`] : [])].join("\n"));
  }
  parts.push(usage);
  return parts.join("\n\n");
}

/**
 * Fits `chunks` (seed first) into `budget` tokens. The first chunk is the seed: it is always
 * present, in full if it fits, else as its outline; if not even that fits, throws
 * `budget_too_small` with the budget needed.
 */
export function fitChunks(
  header: string,
  chunks: FitChunk[],
  budget: number,
  count: (text: string) => number,
  usageLine: (tokens: number) => string,
  seedNote: (fullTokens: number) => string,
): FitResult {
  const fullTokens = chunks.map((c) => count(c.full));
  const outlineTokens = chunks.map((c) => (c.outline !== undefined ? count(c.outline) : undefined));
  const cutTokens = chunks.map((c, i) => count(c.cutLine(fullTokens[i]!)) + 1);
  const forms: FitForm[] = chunks.map(() => "cut");
  // A usage line with the largest numbers it can show, so the real one never costs more.
  const fixed = count(header) + count(usageLine(budget)) + 4;
  const render = (): string => {
    const blocks: string[] = [];
    const cut: string[] = [];
    let cutTotal = 0;
    chunks.forEach((c, i) => {
      if (forms[i] === "full") blocks.push(c.full);
      else if (forms[i] === "outline") blocks.push(i === 0 ? `${c.outline!}\n${seedNote(fullTokens[0]!)}` : c.outline!);
      else {
        cutTotal++;
        if (cut.length < CUT_SHOWN) cut.push(c.cutLine(fullTokens[i]!));
      }
    });
    const withoutUsage = assemble(header, blocks, cut, cutTotal, usageLine(0));
    // Render with the real count: recount until the number stops changing its own token count.
    let tokens = count(withoutUsage);
    for (let k = 0; k < 3; k++) {
      const text = assemble(header, blocks, cut, cutTotal, usageLine(tokens));
      const again = count(text);
      if (again === tokens) return text;
      tokens = again;
    }
    return assemble(header, blocks, cut, cutTotal, usageLine(tokens));
  };

  // The cut section is reserved up front as if everything but the seed were cut; it only shrinks.
  const cutHeaderCost = 20;
  const shownCut = cutTokens.slice(1).sort((a, b) => b - a).slice(0, CUT_SHOWN).reduce((a, b) => a + b, 0);
  const reserve = chunks.length > 1 ? cutHeaderCost + shownCut + 12 : 0;
  let used = fixed + reserve;

  const seedOutline = outlineTokens[0];
  const seedNoteCost = count(seedNote(fullTokens[0] ?? 0)) + 1;
  if (chunks.length > 0) {
    if (used + fullTokens[0]! + 2 <= budget) {
      forms[0] = "full";
      used += fullTokens[0]! + 2;
    } else if (seedOutline !== undefined && used + seedOutline + seedNoteCost + 2 <= budget) {
      forms[0] = "outline";
      used += seedOutline + seedNoteCost + 2;
    } else {
      const needed = count(header) + (seedOutline ?? fullTokens[0]!) + seedNoteCost + count(usageLine(budget)) + 8;
      throw new EngineError("budget_too_small", `A budget of ${budget} tokens cannot hold even the target's outline; it needs about ${needed}.`, {
        hint: `Ask again with budget ≥ ${needed}, or use signature for the header alone.`,
        data: { budget, needed, seedTokens: fullTokens[0], seedOutlineTokens: seedOutline },
      });
    }
  }
  for (let i = 1; i < chunks.length; i++) {
    if (used + fullTokens[i]! + 2 <= budget) {
      forms[i] = "full";
      used += fullTokens[i]! + 2;
    } else if (outlineTokens[i] !== undefined && used + outlineTokens[i]! + 2 <= budget) {
      forms[i] = "outline";
      used += outlineTokens[i]! + 2;
    }
  }

  let text = render();
  let tokens = count(text);
  // Estimates can be off by a few tokens at block joins: demote from the end until it fits.
  for (let i = chunks.length - 1; tokens > budget && i >= 1; i--) {
    if (forms[i] === "cut") continue;
    forms[i] = forms[i] === "full" && outlineTokens[i] !== undefined ? "outline" : "cut";
    if (forms[i] === "outline") i++; // try cutting it next round if still over
    text = render();
    tokens = count(text);
  }
  // The reserve for the cut list is usually larger than needed: use what is left.
  for (let i = 1; i < chunks.length; i++) {
    if (forms[i] !== "cut" && forms[i] !== "outline") continue;
    const slack = budget - tokens;
    const gain = forms[i] === "cut" ? fullTokens[i]! - cutTokens[i]! : fullTokens[i]! - outlineTokens[i]!;
    const tryForm: FitForm = gain + 4 <= slack ? "full" : forms[i] === "cut" && outlineTokens[i] !== undefined && outlineTokens[i]! - cutTokens[i]! + 4 <= slack ? "outline" : forms[i]!;
    if (tryForm === forms[i]) continue;
    const before = forms[i]!;
    forms[i] = tryForm;
    const t2 = render();
    const n2 = count(t2);
    if (n2 <= budget) {
      text = t2;
      tokens = n2;
    } else forms[i] = before;
  }
  if (tokens > budget) {
    // Only the seed is left and its rendering with the note overshoots by a hair: say what it needs.
    throw new EngineError("budget_too_small", `A budget of ${budget} tokens cannot hold the answer; it needs ${tokens}.`, {
      hint: `Ask again with budget ≥ ${tokens}.`,
      data: { budget, needed: tokens },
    });
  }
  return { text, forms, fullTokens, outlineTokens, tokens };
}
