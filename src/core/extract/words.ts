/**
 * Words for search, the same on both sides: identifiers split on camelCase, snake_case and digits,
 * lower-cased, with the whole of a compound identifier kept as one more word (`make_response` and
 * `makeResponse` both give make, response, makeresponse), and the words of prose and string
 * literals as they are. Keywords of the supported languages and English function words are left
 * out: they match everything.
 */
import { allKeywords } from "../../languages/index.ts";

/** Splits an identifier or phrase into lower-case words: `parseHTTPResponse_v2` → parse, http, response, v2. */
export function splitWords(text: string): string[] {
  // Text that lower-casing leaves alone (ASCII without capitals: most of snake_case code) needs no
  // case splits (snake_case names, most words of a docstring or a body).
  if (!NEEDS_CASE.test(text)) return text.split(NON_WORD).filter((w) => w.length > 0);
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .split(NON_WORD)
    .filter((w) => w.length > 0);
}

/** A capital or a character beyond ASCII (whose lower case may be ASCII: U+212A KELVIN SIGN is k). */
const NEEDS_CASE = /[A-Z\u0080-\uffff]/;
const NON_WORD = /[^a-z0-9]+/;

const ENGLISH = (
  "a an the of to in on for and or is are was were be been being by with from as at it its this that these " +
  ("those not no but if then so than into onto out up down over under again only also just very can could should " +
    ("would will shall may might must do does did done has have had having i we you he she they them our your " +
      ("their there here when where which who whom whose what why how all any both each few more most other some " +
        "such own same too s t")))
).split(" ");

const ENGLISH_WORDS: ReadonlySet<string> = new Set(ENGLISH);

/**
 * Words too common in code and prose to tell anything apart: English function words and every language's keywords
 * (LanguageSpec.keywords).
 */
export const STOP_WORDS: Pick<ReadonlySet<string>, "has"> = {
  has: (word) => ENGLISH_WORDS.has(word) || allKeywords().has(word),
};

const IDENTIFIER = /[A-Za-z_$][A-Za-z0-9_$]*/g;

/**
 * The distinct search words of a piece of code or prose, in first-seen order: each identifier's
 * parts and, for a compound one, the parts joined. Stop words and one-letter words are dropped.
 * At most `limit` words. `memo` keeps each identifier's words for the next call that meets it (a
 * search index's build: names, signatures and docstrings repeat the same identifiers).
 */
export function termsOf(text: string, limit = Infinity, memo?: Map<string, readonly string[]>): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(IDENTIFIER)) {
    let words = memo?.get(m[0]);
    if (!words) {
      words = identifierTerms(m[0]);
      memo?.set(m[0], words);
    }
    for (const w of words) out.add(w);
    if (out.size >= limit) break;
  }
  return [...out];
}

/** The search words of one identifier, in the order termsOf adds them. */
function identifierTerms(identifier: string): string[] {
  const parts = splitWords(identifier);
  const words = parts.filter((p) => p.length > 1 && !STOP_WORDS.has(p) && !/^\d+$/.test(p));
  if (parts.length > 1) words.push(parts.join(""));
  return words;
}

/** The words of a query, as termsOf reads code: what a search looks up. */
export function queryTerms(text: string, limit = 64): string[] {
  return termsOf(text, limit);
}
