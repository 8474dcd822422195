/**
 * Fits chunks into a token budget that covers the whole rendered answer: header, notes, chunk
 * headers and code, the cut list and the usage line. Chunks are taken in priority order; one
 * that does not fit in full falls back to its outline, else it is listed as cut with its exact
 * handle and token cost. The final text is recounted, so the reported count is exact.
 */
import { EngineError } from "../../shared/errors.ts";

/** A chunk ready to fit: both renderings already made. */
export interface FitChunk {
  /** The rendered block in full (header + code). */
  full: string;
  /** The rendered block as an outline, if the chunk has one. */
  outline?: string;
  /** The one-line entry for the cut list. */
  cutLine: (tokens: number) => string;
  /** Offer this chunk as an outline only (second-hop neighbours: their names and shapes, not bodies). */
  outlineOnly?: boolean;
  /** Never show it: list it with its handle and cost only. */
  listOnly?: boolean;
}

/** What the fitter decided for each chunk ("covered": shown as part of a containing chunk). */
export type FitForm = "full" | "outline" | "cut" | "covered";

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
/** How many cut entries an answer keeps before it gives up chunks for them. */
export const MIN_CUT_SHOWN = 5;

/** Assembles the answer text from its parts. */
function assemble(header: string, blocks: string[], cutLines: string[], cutTotal: number, usage: string): string {
  const parts = [header, ...blocks];
  if (cutTotal > 0) {
    const more = cutTotal - cutLines.length;
    parts.push([`## Cut: ${cutTotal} chunk${cutTotal > 1 ? "s" : ""} left out (ask for any by name or path:lines)`, ...cutLines, ...(more > 0 ? [`- … and ${more} more`] : [])].join("\n"));
  }
  parts.push(usage);
  return parts.join("\n\n");
}

/**
 * Fits `chunks` (seed first) into `budget` tokens. The first chunk is the seed: it is always
 * present, in full if it fits, else as its outline; if not even that fits, throws
 * `budget_too_small` with the budget needed. `within[i]` lists earlier chunks that contain chunk
 * i: when one of them is shown in full, chunk i is already on the page and is left out.
 */
export function fitChunks(
  header: string,
  chunks: FitChunk[],
  budget: number,
  count: (text: string) => number,
  usageLine: (tokens: number) => string,
  seedNote: (fullTokens: number) => string,
  within: number[][] = [],
): FitResult {
  const fullTokens = chunks.map((c) => count(c.full));
  const outlineTokens = chunks.map((c) => (c.outline !== undefined ? count(c.outline) : undefined));
  const forms: FitForm[] = chunks.map(() => "cut");
  const covered = (i: number) => (within[i] ?? []).some((j) => forms[j] === "full");
  let shown = CUT_SHOWN;

  const render = (): string => {
    const blocks: string[] = [];
    const cut: string[] = [];
    let cutTotal = 0;
    chunks.forEach((c, i) => {
      if (forms[i] === "full") blocks.push(c.full);
      else if (forms[i] === "outline") blocks.push(i === 0 ? `${c.outline!}\n${seedNote(fullTokens[0]!)}` : c.outline!);
      else if (!covered(i)) {
        cutTotal++;
        if (cut.length < shown) cut.push(c.cutLine(fullTokens[i]!));
      }
    });
    // Render with the real count: recount until the number stops changing its own token count.
    let tokens = count(assemble(header, blocks, cut, cutTotal, usageLine(0)));
    for (let k = 0; k < 3; k++) {
      const text = assemble(header, blocks, cut, cutTotal, usageLine(tokens));
      const again = count(text);
      if (again === tokens) return text;
      tokens = again;
    }
    return assemble(header, blocks, cut, cutTotal, usageLine(tokens));
  };

  // The least any answer costs besides its chunks: header, usage line, and a one-line cut list.
  const minCut = chunks.length > 1 ? count(`## Cut: ${chunks.length} chunks left out (ask for any by name or path:lines)\n- … and ${chunks.length} more`) + 2 : 0;
  const fixed = count(header) + count(usageLine(budget)) + minCut + 4;
  const seedNoteCost = count(seedNote(fullTokens[0] ?? 0)) + 1;
  let used = fixed;
  if (chunks.length > 0) {
    if (used + fullTokens[0]! + 2 <= budget) {
      forms[0] = "full";
      used += fullTokens[0]! + 2;
    } else if (outlineTokens[0] !== undefined && used + outlineTokens[0]! + seedNoteCost + 2 <= budget) {
      forms[0] = "outline";
      used += outlineTokens[0]! + seedNoteCost + 2;
    } else {
      const needed = fixed + (outlineTokens[0] !== undefined ? outlineTokens[0]! + seedNoteCost : fullTokens[0]!) + 2;
      throw new EngineError("budget_too_small", `A budget of ${budget} tokens cannot hold even the target's outline; it needs about ${needed}.`, {
        hint: `A budget of at least ${needed} tokens holds it; the signature alone costs less.`,
        data: { budget, needed, seedTokens: fullTokens[0]!, ...(outlineTokens[0] !== undefined ? { seedOutlineTokens: outlineTokens[0] } : {}) },
      });
    }
  }
  // Keep room for the first few cut-list handles (estimated from the average entry).
  const cutCosts = chunks.slice(1).map((c, i) => count(c.cutLine(fullTokens[i + 1]!)) + 1);
  const avgCut = cutCosts.length ? cutCosts.reduce((a, b) => a + b, 0) / cutCosts.length : 0;
  used += Math.ceil(avgCut * Math.min(MIN_CUT_SHOWN, cutCosts.length));
  // Greedy by priority; a chunk whose container is already shown in full costs nothing.
  for (let i = 1; i < chunks.length; i++) {
    if (covered(i) || chunks[i]!.listOnly) continue;
    if (!chunks[i]!.outlineOnly && used + fullTokens[i]! + 2 <= budget) {
      forms[i] = "full";
      used += fullTokens[i]! + 2;
    } else if (outlineTokens[i] !== undefined && used + outlineTokens[i]! + 2 <= budget) {
      forms[i] = "outline";
      used += outlineTokens[i]! + 2;
    }
  }

  // Exact pass: shorten the cut list to its first few handles, then demote chunks from the end,
  // and only then drop the last handles: an agent can ask for what it can name.
  let text = render();
  let tokens = count(text);
  const shrinkCutList = (floor: number) => {
    while (tokens > budget && shown > floor) {
      shown = Math.max(floor, shown - Math.max(1, Math.ceil((tokens - budget) / 15)));
      text = render();
      tokens = count(text);
    }
  };
  shrinkCutList(MIN_CUT_SHOWN);
  for (let i = chunks.length - 1; tokens > budget && i >= 1; i--) {
    if (forms[i] === "cut") continue;
    forms[i] = forms[i] === "full" && outlineTokens[i] !== undefined ? "outline" : "cut";
    if (forms[i] === "outline") i++; // look at it again: cut it if the outline is still too much
    text = render();
    tokens = count(text);
  }
  shrinkCutList(0);
  if (tokens > budget && forms[0] === "full" && outlineTokens[0] !== undefined) {
    forms[0] = "outline";
    text = render();
    tokens = count(text);
  }
  if (tokens > budget) {
    throw new EngineError("budget_too_small", `A budget of ${budget} tokens cannot hold the answer; it needs ${tokens}.`, {
      hint: `A budget of at least ${tokens} tokens holds it.`,
      data: { budget, needed: tokens },
    });
  }
  // Use what is left: promote cut or outlined chunks in priority order, then show more of the cut list.
  const tryForm = (i: number, form: FitForm): boolean => {
    const before = forms[i]!;
    forms[i] = form;
    const t = render();
    const n = count(t);
    if (n <= budget) {
      text = t;
      tokens = n;
      return true;
    }
    forms[i] = before;
    return false;
  };
  /** Lists more cut entries, up to `limit`, while the answer still fits. */
  const growCutList = (limit: number) => {
    while (shown < limit) {
      shown++;
      const t = render();
      const n = count(t);
      if (n > budget) {
        shown--;
        return;
      }
      text = t;
      tokens = n;
    }
  };
  // Show the first few handles before spending the slack on promotions.
  growCutList(MIN_CUT_SHOWN);
  for (let i = 1; i < chunks.length; i++) {
    if (forms[i] === "full" || covered(i) || chunks[i]!.listOnly) continue;
    const slack = budget - tokens;
    const current = forms[i] === "outline" ? outlineTokens[i]! : 0;
    if (!chunks[i]!.outlineOnly && fullTokens[i]! - current <= slack && tryForm(i, "full")) continue;
    if (forms[i] === "cut" && outlineTokens[i] !== undefined && outlineTokens[i]! <= slack) tryForm(i, "outline");
  }
  growCutList(CUT_SHOWN);
  return { text, forms: forms.map((f, i) => (f === "cut" && covered(i) ? "covered" : f)), fullTokens, outlineTokens, tokens };
}
