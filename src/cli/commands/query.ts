/** `codeslice query`: a read-only graph query (a Cypher subset); `--kind flows|clusters` for the flows and clusters. */
import { LIMITS, MAX_HOPS, MAX_QUERY_CHARS, QUERY_LIMITS } from "../../index.ts";
import { defineCommand } from "../command.ts";
import { budgetFlags, choiceFlag, engineFlags, integerFlag } from "../flags.ts";
import { UsageError } from "../output.ts";
import { budgetOptions, printAnswer, withEngine } from "../with-engine.ts";

const KINDS = ["cypher", "flows", "clusters"] as const;

/** `codeslice query`. */
export const queryCommand = defineCommand({
  name: "query",
  summary: "A read-only graph query (Cypher subset); --kind flows|clusters for execution flows and clusters",
  args: [
    {
      name: "query",
      what: "a query",
      optional: true,
      maxChars: { limit: MAX_QUERY_CHARS, noun: "query" },
      help:
        "MATCH … [WHERE …] RETURN … [ORDER BY …] [SKIP n] [LIMIT n]; with --kind flows or clusters, words " +
        "that filter them",
    },
  ],
  flags: {
    kind: choiceFlag(
      "kind",
      KINDS.join("|"),
      KINDS,
      "cypher (the query), flows (from each entry point) or clusters (files by calls and imports)",
      { default: "cypher" },
    ),
    limit: integerFlag(
      "limit",
      "N",
      1,
      LIMITS.page.max,
      `Flows or clusters listed, 1-${LIMITS.page.max} (a query says LIMIT itself)`,
      { default: "20" },
    ),
    time: integerFlag("time", "MS", QUERY_LIMITS.timeMs.min, QUERY_LIMITS.timeMs.max, "Time limit of a query in ms", {
      default: String(QUERY_LIMITS.timeMs.default),
    }),
    ...budgetFlags(LIMITS.budget.list),
    ...engineFlags,
  },
  help: `Asks the code graph a question no other command anticipates, in a read-only subset of
Cypher: nodes File, Symbol, Route and Test; edges CALLS, IMPORTS, INHERITS, OVERRIDES, TESTS,
SERVES and DEFINES, each with a confidence (docs/query.md has the schema and 20 examples).
Variable-length paths need an upper bound (at most *1..${MAX_HOPS}) and reach each node once at
its fewest hops. Writes (CREATE, SET, DELETE, MERGE) are refused; so is a query past its time
limit, ${QUERY_LIMITS.maxBindings.toLocaleString("en-US")} intermediate rows, LIMIT ${QUERY_LIMITS.rows.max}
or the budget, with the rows that would fit. Errors name the line and column. Without LIMIT,
${QUERY_LIMITS.rows.default} rows are shown.
--kind flows lists execution flows from each entry point (routes, commands, main, tests)
through the call graph, largest first; --kind clusters lists clusters of files found by
Louvain community detection over calls and imports, with their cohesion and the entry points
that reach them. The query argument then filters them by words.`,
  examples: [
    "codeslice query \"MATCH (a)-[c:CALLS]->(b:Symbol {name: 'get_object_or_404'}) RETURN a, c.confidence\"",
    "codeslice query \"MATCH (f:File)-[:IMPORTS*1..2]->(:File {path: 'db/models/query.py'}) RETURN DISTINCT " +
      'f.path" --json',
    "codeslice query --kind flows migrate",
    "codeslice query --kind clusters --limit 5",
  ],
  async run({ args: [query], flags }) {
    const kind = flags.kind ?? "cypher";
    if (kind === "cypher" && (query === undefined || query.trim() === ""))
      throw Object.assign(
        new UsageError(
          'query needs a query, e.g. "MATCH (a)-[:CALLS]->(b) RETURN a, b LIMIT 10" (or --kind flows|clusters)',
        ),
        { command: "query" },
      );
    return withEngine(flags, async (engine, progress) => {
      const common = {
        onProgress: progress.onProgress,
        ...budgetOptions(flags),
        ...(flags.json ? { json: true } : {}),
      };
      const structure = {
        ...common,
        ...(query ? { filter: query } : {}),
        ...(flags.limit ? { limit: flags.limit } : {}),
      };
      const answer =
        kind === "flows"
          ? await engine.flows(structure)
          : kind === "clusters"
            ? await engine.clusters(structure)
            : await engine.query(query!, { ...common, ...(flags.time ? { timeMs: flags.time } : {}) });
      return printAnswer(progress, answer, flags.json);
    });
  },
});
