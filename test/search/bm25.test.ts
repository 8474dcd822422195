/**
 * The word ranking under `search`, `locate` and `context "<words>"` (core/search/search.ts,
 * scoreDocuments): BM25 over a definition's fields. Each test states one property of the ranking
 * on a project made for it, as relations between scores rather than copied numbers.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  buildSearchIndex,
  docSymbol,
  scoreDocuments,
  SYMBOL_WEIGHTS,
  type SearchIndex,
} from "../../src/core/search/search.ts";
import type { CodeGraph } from "../../src/core/graph/model.ts";
import { memoryEngine } from "../support/platform.ts";

const FILLER = Array.from({ length: 60 }, (_, i) => `    step_${i} = other_${i}(step_${i})`).join("\n");

const PROJECT = `
#- shop/pricing.py
def convert_currency(amount, rate):
    return amount * rate


def apply_tax(amount):
    # the currency stays as it is
    return amount * 1.2


def long_report(rows):
    # the currency of every row
${FILLER}
    return rows


def short_note(rows):
    # the currency of every row
    return rows
#- shop/common.py
def helper_one():
    return "shared"


def helper_two():
    return "shared"


def helper_three():
    return "shared unique_marker"
`;

let graph: CodeGraph;
let index: SearchIndex;

/** The score of the definition named `name` for `terms` (0 when it holds none of them). */
function score(
  name: string,
  terms: string[],
  options: { prefixes?: boolean; weights?: ReadonlyMap<string, number> } = {},
): number {
  const scores = scoreDocuments(index, terms, SYMBOL_WEIGHTS, options.prefixes ?? false, options.weights);
  for (const s of scores.values()) if (graph.symbols[docSymbol(index, s.doc)]!.name === name) return s.score;
  return 0;
}

beforeAll(async () => {
  const { engine } = memoryEngine(PROJECT);
  await engine.index();
  graph = await engine.codeGraph();
  index = buildSearchIndex(graph);
});

describe("BM25 word ranking (scoreDocuments)", () => {
  it("a rare word counts more than a common one", () => {
    // "unique_marker" is in one definition, "shared" in three.
    expect(score("helper_three", ["marker"])).toBeGreaterThan(score("helper_one", ["shared"]));
  });

  it("a word in the name counts more than the same word in the body", () => {
    expect(score("convert_currency", ["currency"])).toBeGreaterThan(score("apply_tax", ["currency"]));
  });

  it("a body match in a short definition counts more than in a long one", () => {
    const short = score("short_note", ["currency"]);
    const long = score("long_report", ["currency"]);
    expect(long).toBeGreaterThan(0);
    expect(short).toBeGreaterThan(long);
  });

  it("each word's share saturates: two matching words beat one word, but one strong match is bounded", () => {
    const both = score("convert_currency", ["convert", "currency"]);
    const one = score("convert_currency", ["currency"]);
    expect(both).toBeGreaterThan(one);
    // BM25's saturation: a field weight of 10 gives less than (k1 + 1) = 2.2 times the word's idf.
    const n = index.liveCount;
    const df = index.words.get("currency")!.df;
    const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
    expect(one).toBeLessThan(2.2 * idf);
  });

  it("a word's weight multiplies its share", () => {
    const plain = score("apply_tax", ["tax"]);
    const doubled = score("apply_tax", ["tax"], { weights: new Map([["tax", 2]]) });
    expect(doubled).toBeCloseTo(2 * plain, 10);
  });

  it("a prefix finds a name only when prefixes are on, and scores below the whole word", () => {
    expect(score("convert_currency", ["conv"], { prefixes: false })).toBe(0);
    const prefix = score("convert_currency", ["conv"], { prefixes: true });
    expect(prefix).toBeGreaterThan(0);
    expect(prefix).toBeLessThan(score("convert_currency", ["convert"]));
  });

  it("a word no definition holds scores nothing", () => {
    expect(scoreDocuments(index, ["zzzz_absent"], SYMBOL_WEIGHTS, false).size).toBe(0);
  });
});
