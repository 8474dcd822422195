/**
 * Every limit and default of an answer, in one place: the engine checks against these, and every
 * front end (CLI flags, MCP schemas, the playground's controls) reports the same bounds.
 */
export const LIMITS = {
  /**
   * Tokens for a whole answer: context and pack default to 8,000, the map to 2,000, lists (callers, tests, trace…) to
   * 4,000.
   */
  budget: { min: 1, max: 1_000_000, context: 8_000, map: 2_000, list: 4_000 },
  /** Entries one page of callers, callees, importers or tests lists (the budget may show fewer). */
  page: { min: 1, max: 1_000, default: 50 },
  /** Paths a trace returns, and the hops it searches. */
  trace: { paths: { max: 10, default: 3 }, hops: { max: 12, default: 6 } },
  /** Characters of a target or task: a whole bug report with its tracebacks and pasted logs fits. */
  targetChars: 100_000,
  /** Call and import hops for callers, callees and importers. */
  depth: { min: 1, max: 10, default: 1 },
  /** Results of a search. */
  searchResults: { min: 1, max: 200, default: 10 },
  /**
   * A grep: lines it lists (it stops at the limit and says more exist), milliseconds it searches,
   * bytes it reads, characters of a pattern.
   */
  grep: {
    matches: { min: 1, max: 10_000, default: 200 },
    timeMs: { min: 10, max: 60_000, default: 5_000 },
    bytes: 256 * 1024 * 1024,
    patternChars: 1_000,
  },
  /** Lines one snippet returns. */
  snippetLines: 400,
  /** Files larger than this are not indexed. */
  maxFileBytes: 1024 * 1024,
  /** An MCP answer, in tokens: under Claude Code's 25,000-token limit per tool result. */
  responseTokens: { min: 1_000, default: 20_000 },
} as const;
