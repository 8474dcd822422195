/** Token counting with gpt-tokenizer; each encoding's tables load on first use. */

/** Supported encodings. `o200k_base` (GPT-4o and later) is the default. */
export type Encoding = "o200k_base" | "cl100k_base";
export const ENCODINGS: readonly Encoding[] = ["o200k_base", "cl100k_base"];

type Counter = (text: string) => number;
const counters = new Map<Encoding, Promise<Counter>>();

/** Returns a synchronous counter for `encoding` once its tables are loaded. */
export function loadTokenCounter(encoding: Encoding = "o200k_base"): Promise<Counter> {
  let p = counters.get(encoding);
  if (!p) {
    p = encoding === "cl100k_base"
      ? import("gpt-tokenizer/encoding/cl100k_base").then((m) => (t: string) => m.countTokens(t))
      : import("gpt-tokenizer/encoding/o200k_base").then((m) => (t: string) => m.countTokens(t));
    counters.set(encoding, p);
  }
  return p;
}
