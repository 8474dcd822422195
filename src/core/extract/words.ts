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
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);
}

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
 * At most `limit` words.
 */
export function termsOf(text: string, limit = Infinity): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(IDENTIFIER)) {
    const parts = splitWords(m[0]);
    for (const p of parts) if (p.length > 1 && !STOP_WORDS.has(p) && !/^\d+$/.test(p)) out.add(p);
    if (parts.length > 1) out.add(parts.join(""));
    if (out.size >= limit) break;
  }
  return [...out];
}

/** The words of a query, as termsOf reads code: what a search looks up. */
export function queryTerms(text: string, limit = 64): string[] {
  return termsOf(text, limit);
}
