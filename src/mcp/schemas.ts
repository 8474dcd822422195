/**
 * Zod pieces the tools share: argument types with model-readable messages, and the output shapes
 * of engine answers. Bounds come from the engine's LIMITS, so the schemas, their descriptions and
 * the engine's own checks agree. Output schemas use plain strings where the engine has enums
 * (roles, kinds, resolutions) so a new engine value never fails validation of an otherwise good
 * answer.
 */
import { z } from "zod";
import { LIMITS } from "../index.ts";

/** Longest symbol name accepted (a qualified name is well under this). */
export const MAX_SYMBOL_CHARS = 1000;
/** Longest path accepted. */
export const MAX_PATH_CHARS = 4096;

/**
 * A token budget: a whole number ≥ LIMITS.budget.min; larger than the response cap (or than
 * LIMITS.budget.max) is lowered, not refused, and the answer says so.
 */
export const budget = (what: string, dflt: number) =>
  z
    .int({ error: "budget must be a whole number of tokens" })
    .min(LIMITS.budget.min, { error: `budget must be at least ${LIMITS.budget.min} token` })
    .optional()
    .describe(`Tokens for the answer, text and structured (default ${dflt}).${what ? ` ${what}` : ""}`);

/** Hops for graph walks: LIMITS.depth; more is lowered to the most. */
export const depth = z
  .int({ error: "depth must be a whole number" })
  .min(LIMITS.depth.min, { error: `depth must be at least ${LIMITS.depth.min}` })
  .optional()
  .describe(`Hops (default ${LIMITS.depth.default}, at most ${LIMITS.depth.max}).`);

/** A target, task or query: non-empty, at most LIMITS.targetChars characters (`advice` says what to do instead). */
export const targetArg = (name: string, what: string, advice?: string) =>
  z
    .string({ error: `${name} must be a string` })
    .min(1, { error: `${name} must not be empty` })
    .max(LIMITS.targetChars, {
      error: `${name} must be at most ${LIMITS.targetChars} characters${advice ? `; ${advice}` : ""}`,
    })
    .describe(what);

export const symbolArg = z
  .string({ error: "symbol must be a string" })
  .min(1, { error: "symbol must not be empty" })
  .max(MAX_SYMBOL_CHARS, { error: `symbol must be at most ${MAX_SYMBOL_CHARS} characters` })
  .describe(
    "Qualified (pkg.mod.Class.method, src/a.ts#Class.method), path::Class.method, Class.method, or a unique bare name.",
  );

export const pathArg = (what: string) =>
  z
    .string({ error: "path must be a string" })
    .min(1, { error: "path must not be empty" })
    .max(MAX_PATH_CHARS, { error: `path must be at most ${MAX_PATH_CHARS} characters` })
    .describe(what);

/** How fresh the index behind an answer is. */
export const freshness = z.object({
  indexedAt: z.string().describe("When the index was last brought up to date (ISO 8601)."),
  refreshed: z.boolean().describe("True when this call re-indexed changed files before answering."),
  parsed: z.int().describe("Files (re-)parsed by this call."),
  removed: z.int().describe("Files dropped from the index by this call."),
  mode: z.string().describe("How changes are noticed: watch (a folder watcher) or scan (a re-scan per call)."),
});

export const symbolRef = z.object({
  qualified: z.string(),
  kind: z.string(),
  path: z.string(),
  line: z.int(),
});

export const site = z.object({ path: z.string(), line: z.int() });

/** Output of context and pack: the answer's data; its text is the tool result's text content, not repeated here. */
export const contextOutput = z.object({
  target: z
    .string()
    .optional()
    .describe("The symbol, file or route asked for; absent for words (the text quotes them)."),
  resolvedAs: z.string().describe("How the target was understood: symbol, file, route or search."),
  seeds: z.array(symbolRef),
  notes: z.array(z.string()),
  usage: z
    .object({
      tokens: z.int().describe("Tokens of the text content (o200k_base unless encoding says otherwise)."),
      budget: z.int(),
      encoding: z.string(),
      envelope: z.int().optional().describe("Tokens of the budget kept for this structured content."),
    })
    .describe("The budget covers the text and this structured content together."),
  chunks: z
    .array(
      z.object({
        path: z.string(),
        start: z.int(),
        end: z.int(),
        role: z.string(),
        symbol: z.string(),
        form: z.string(),
        tokens: z.int(),
      }),
    )
    .describe("The chunks in the text, in order, each headed `## path:start-end [role] symbol` there."),
  cut: z
    .array(
      z.object({
        handle: z.string(),
        path: z.string(),
        start: z.int(),
        end: z.int(),
        role: z.string(),
        tokens: z.int(),
      }),
    )
    .describe("The chunks left out that the text lists, with the handle to ask for each and its cost in tokens."),
  cutTotal: z.int().describe("All chunks left out, listed or not."),
  budgetRequested: z
    .int()
    .optional()
    .describe("Present when the requested budget was lowered to fit the response cap."),
});

/** Entries per page of a list answer. */
export const limit = z
  .int({ error: "limit must be a whole number" })
  .min(1, { error: "limit must be at least 1" })
  .max(1000, { error: "limit must be at most 1000" })
  .optional()
  .describe("Entries per page (default 50).");

/** The cursor a page names for the next one. */
export const cursor = z
  .string({ error: "cursor must be a string" })
  .max(100, { error: "cursor must be at most 100 characters" })
  .optional()
  .describe("The cursor the previous page named.");

/** Which test code a list shows. */
export const testsMode = z
  .enum(["summary", "include", "exclude", "only"], { error: "tests must be summary, include, exclude or only" })
  .optional()
  .describe("Test code (default summary: counted by file).");

/** Where a page sits in the whole list; absent when the page is the whole list ({@link pageOf}). */
export const page = z
  .object({
    tests: z.string(),
    matching: z.int().describe("Entries the tests filter keeps: what the pages go through."),
    offset: z.int(),
    shown: z.int(),
    limit: z.int(),
    next: z.string().optional().describe("Cursor of the next page; absent on the last one."),
  })
  .optional()
  .describe("Absent when this page is the whole list: every matching entry shown, from the first.");

/**
 * An answer's page, or undefined when it is the whole list (nothing before it, nothing after, every
 * matching entry on it): the list's own length says all the page would, and on a small answer the
 * page was a tenth of the structured content.
 */
export function pageOf<P extends { matching: number; offset: number; shown: number; next?: string }>(
  p: P,
): P | undefined {
  return p.offset === 0 && p.next === undefined && p.shown === p.matching ? undefined : p;
}

const countByFile = z.object({
  count: z.int(),
  files: z.array(z.object({ path: z.string(), count: z.int() })),
  names: z.array(z.string()).optional(),
});

/** What an answer could not see. */
export const completeness = z
  .object({
    unlinked: countByFile
      .optional()
      .describe("Call sites naming the symbol (or made by it) that are linked to no definition: they may call it."),
    ambiguous: z.int().optional().describe("Calls several definitions share the name of, this one among them."),
    unresolvedImports: countByFile.optional(),
    parseErrors: countByFile.optional().describe("Files with syntax errors, read only in part."),
    notExtracted: z
      .array(z.object({ language: z.string(), files: z.int(), what: z.string() }))
      .optional()
      .describe("Languages whose calls or imports the index does not extract."),
    dispatch: z
      .array(z.object({ symbol: symbolRef, relation: z.string(), sites: z.int() }))
      .optional()
      .describe("Overriding methods a call may reach at run time."),
    notes: z.array(z.string()),
  })
  .describe("What the answer could not see: an empty list is never proof that nothing is there.");

export const usage = z.object({ tokens: z.int(), budget: z.int(), encoding: z.string() });

export const testCode = z.object({
  entries: z.int(),
  files: z.array(z.object({ path: z.string(), count: z.int() })),
  fileCount: z.int(),
});
