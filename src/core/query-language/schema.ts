/** The query language's schema and grammar as text: what the `schema` resource and `query --help` point at. */
import { MAX_HOPS, MAX_QUERY_CHARS } from "./parse.ts";
import { EDGE_PROPS, EDGE_TYPES, LABELS, NODE_PROPS, type EdgeType, type Label } from "./view.ts";

const NODE_MEANING: Record<Label, string> = {
  File: "an indexed source file (path relative to the root)",
  Symbol: "a definition (function, method, class, …) or a file's module code (kind module); line is its name's line",
  Route:
    "an HTTP route: method, full path after prefixes, the file and line that register it, handler's qualified name",
  Test: "a test case that calls project code: its runnable id in its runner's syntax",
};

const EDGE_MEANING: Record<EdgeType, string> = {
  CALLS:
    "(Symbol)-[:CALLS]->(Symbol): one per call site; confidence and resolution say how it was resolved (scope, " +
    "import 0.95; self 0.9; type 0.85; via-base 0.6, a call through a base method to an override; unique-name 0.5)",
  IMPORTS: "(File)-[:IMPORTS]->(File): a resolved import, confidence 1",
  INHERITS: "(Symbol)-[:INHERITS]->(Symbol): class → base, kind extends or implements, confidence 1",
  OVERRIDES: "(Symbol)-[:OVERRIDES]->(Symbol): method → the nearest method of the same name up its bases, confidence 1",
  TESTS: "(Test)-[:TESTS]->(Symbol): a call the test makes, with that call's confidence",
  SERVES: "(Route)-[:SERVES]->(Symbol): route → its handler, confidence 1",
  DEFINES: "(File)-[:DEFINES]->(Symbol): every definition in the file, confidence 1",
};

/** The schema and the grammar of the query language, as markdown. */
export function querySchemaText(): string {
  const lines = ["# codeslice query language", "", "## Nodes"];
  for (const l of LABELS) lines.push(`- ${l}: ${NODE_MEANING[l]}. Properties: ${NODE_PROPS[l].join(", ")}`);
  lines.push("", "## Relationships (every one has `confidence`, 0-1)");
  for (const t of EDGE_TYPES) lines.push(`- ${t}: ${EDGE_MEANING[t]}. Properties: ${EDGE_PROPS[t].join(", ")}`);
  lines.push(
    "",
    "## Grammar (a read-only subset of Cypher)",
    "MATCH pattern[, pattern] [MATCH …] [WHERE expr] RETURN [DISTINCT] expr [AS name], … [ORDER BY expr " +
      "[ASC|DESC], …] [SKIP n] [LIMIT n]",
    "- pattern: (a:Label {prop: literal})-[r:TYPE|TYPE {prop: literal}]->(b); <-[…]- and -[…]- too; one label per node",
    `- variable length: -[:CALLS*1..3]->, upper bound required, at most ${MAX_HOPS}; each node reached once per ` +
      `start at its fewest hops (not every path); length(r) is those hops`,
    "- expr: = <> < <= > >= =~ (regex, whole value) CONTAINS, STARTS WITH, ENDS WITH, IN [..], IS [NOT] NULL, " +
      ("AND OR XOR NOT, + -, a.prop, 'text', 12, true, null; a pattern such as NOT (f)<-[:CALLS]-() (true when " +
        "it matches)"),
    "- functions: count(*), count([DISTINCT] x), collect, min, max, sum, avg (whole RETURN items; the other " +
      "items group), type(r), labels(n), length, size, toLower, toUpper, coalesce, startNode, endNode",
    `- refused: CREATE, SET, DELETE, MERGE, REMOVE (read-only); OPTIONAL MATCH, WITH, UNWIND, CALL; a * with no ` +
      `upper bound or over ${MAX_HOPS}; queries over ${MAX_QUERY_CHARS} characters`,
    "- bounds: a time limit (5 s by default), 500,000 intermediate rows, LIMIT 1,000 (50 when LIMIT is not " +
      "written), and the token budget: a result over one is refused with the rows that would fit",
    "",
    "## Examples",
    "- MATCH (a)-[c:CALLS]->(b:Symbol {qualified: 'shortcuts.render'}) RETURN a.qualified, c.line, c.confidence",
    "- MATCH (f:File)-[:IMPORTS*1..2]->(:File {path: 'db/models/query.py'}) RETURN DISTINCT f.path",
    "- MATCH (a)-[:CALLS]->(b) WHERE b.path STARTS WITH 'db/' RETURN b.qualified, count(*) AS calls ORDER BY " +
      "calls DESC LIMIT 10",
    "- MATCH (f:Symbol {kind: 'function'}) WHERE NOT (f)<-[:CALLS]-() AND NOT f.inTest RETURN f.qualified LIMIT 20",
  );
  return lines.join("\n");
}
