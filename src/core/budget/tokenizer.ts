/** Token counting with gpt-tokenizer; each encoding's tables load on first use. */

/** Supported encodings. `o200k_base` (GPT-4o and later) is the default. */
export type Encoding = "o200k_base" | "cl100k_base";
export const ENCODINGS: readonly Encoding[] = ["o200k_base", "cl100k_base"];

type Counter = (text: string) => number;
const counters = new Map<Encoding, Promise<Counter>>();

/** Runs of this many characters without whitespace are counted in pieces of this size. */
export const LONG_RUN = 1_000;

/**
 * A counter that stays linear: BPE merging is quadratic in the length of one pre-tokenized word,
 * so a 100,000-character string literal took 14.5 CPU-s to count (the fault suite found it). A run
 * of LONG_RUN or more characters without whitespace is counted in LONG_RUN-character pieces, plus
 * one token per piece for a merge the cut may have split: exact for ordinary text, and never less
 * than the true count for such a run, which is what a budget needs.
 */
export function linearCounter(count: Counter): Counter {
  const longRun = new RegExp(`\\S{${LONG_RUN},}`, "g");
  return (text: string) => {
    // One pass over the characters (a /\S{1000,}/ test re-scans each word from every start:
    // it cost more than the counting itself on a large answer).
    if (text.length < LONG_RUN || !hasLongRun(text)) return count(text);
    longRun.lastIndex = 0;
    let total = 0;
    let rest = "";
    let at = 0;
    for (const m of text.matchAll(longRun)) {
      rest += text.slice(at, m.index);
      at = m.index + m[0].length;
      for (let i = 0; i < m[0].length; i += LONG_RUN) total += count(m[0].slice(i, i + LONG_RUN)) + 1;
    }
    return total + count(rest + text.slice(at));
  };
}

/** True when `text` holds LONG_RUN or more characters in a row without whitespace. */
function hasLongRun(text: string): boolean {
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // ASCII whitespace, NBSP and the other Unicode spaces \s matches
    if (
      c === 32 ||
      (c >= 9 && c <= 13) ||
      c === 160 ||
      c === 0x1680 ||
      (c >= 0x2000 && c <= 0x200a) ||
      c === 0x2028 ||
      c === 0x2029 ||
      c === 0x202f ||
      c === 0x205f ||
      c === 0x3000 ||
      c === 0xfeff
    )
      run = 0;
    else if (++run >= LONG_RUN) return true;
  }
  return false;
}

/**
 * A counter that remembers the count of each line: for an answer rendered again and again while
 * it is fitted (a page of 50 entries, then 25, then 37…), where most lines recur. The text is cut
 * after a line break followed by an ASCII character that is neither whitespace nor "/", and after
 * `{"` followed by a letter (each record of an answer's JSON): both encodings' pre-tokenizers
 * always split there (no pre-token runs from a line break into a letter, digit or sign, except
 * o200k's punctuation-then-"\n/"; `{"` ends a run of punctuation, which a letter never joins), so
 * the sum is the count of the whole. A text with a run of LONG_RUN characters without whitespace
 * is counted whole: the linear counter counts such a run in pieces of its own, and cutting it
 * elsewhere first would give another sum (compact JSON of 1,000+ characters did). One memo per
 * answer: let it go with the answer.
 */
export function lineMemoCounter(count: Counter): Counter {
  const memo = new Map<string, number>();
  const countPart = (part: string) => {
    let n = memo.get(part);
    if (n === undefined) memo.set(part, (n = count(part)));
    return n;
  };
  const cuts = /\n(?=[!-.0-~])|\{"(?=[A-Za-z])/g;
  return (text: string) => {
    if (text.length >= LONG_RUN && hasLongRun(text)) return count(text);
    let total = 0;
    let start = 0;
    for (const m of text.matchAll(cuts)) {
      const at = m.index + m[0].length;
      total += countPart(text.slice(start, at));
      start = at;
    }
    return total + countPart(text.slice(start));
  };
}

/** Returns a synchronous counter for `encoding` once its tables are loaded. */
export function loadTokenCounter(encoding: Encoding = "o200k_base"): Promise<Counter> {
  let p = counters.get(encoding);
  if (!p) {
    p =
      encoding === "cl100k_base"
        ? import("gpt-tokenizer/encoding/cl100k_base").then((m) => linearCounter((t: string) => m.countTokens(t)))
        : import("gpt-tokenizer/encoding/o200k_base").then((m) => linearCounter((t: string) => m.countTokens(t)));
    counters.set(encoding, p);
  }
  return p;
}
